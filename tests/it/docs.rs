//! The examples of the README and the guides run: the commands of each
//! `console` block (trycmd's markdown form: `$ ` starts a command, what
//! follows is what it prints, `...` stands for lines left out and `[..]`
//! for part of a line) run in an empty folder of their own, one per page,
//! and what they print must be what the page shows. A changed output fails
//! here, so the pages cannot drift from the program.

use std::path::Path;

#[test]
fn the_readme_and_the_guides_show_what_unolab_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    pages.sort();
    let scratch = tempfile::tempdir().unwrap();
    let cases = trycmd::TestCases::new();
    cases.register_bin("unolab", std::path::PathBuf::from(env!("CARGO_BIN_EXE_unolab")));
    let mut examples = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        if !text.contains("```console") {
            continue;
        }
        examples += 1;
        // trycmd runs a page in `NAME.in/` (copied to a fresh folder when
        // `NAME.out/` is there too) beside it: so a copy of the page, with
        // both folders empty, keeps the repository clean.
        let name = page.file_stem().unwrap().to_string_lossy().to_lowercase();
        for folder in ["in", "out"] {
            let folder = scratch.path().join(format!("{name}.{folder}"));
            std::fs::create_dir(&folder).unwrap();
            std::fs::write(folder.join(".keep"), "").unwrap();
        }
        let copy = scratch.path().join(format!("{name}.md"));
        std::fs::write(&copy, text).unwrap();
        cases.case(copy);
    }
    assert!(examples >= 1, "no page shows a console example");
    cases.run();
}
