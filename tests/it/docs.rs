//! The examples of the README and the guides run: the commands of each
//! `console` block (trycmd's markdown form: `$ ` starts a command, what
//! follows is what it prints, `...` stands for lines left out and `[..]`
//! for part of a line) run in an empty folder of their own, one per page,
//! and what they print must be what the page shows. A changed output fails
//! here, so the pages cannot drift from the program. An example that names
//! a file of the repository on its first line is that file, which other
//! tests run.

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

/// A fenced block of a guide whose first line names a file of the
/// repository (`# tests/scenarios/host/knockout-guide.yaml`) shows that
/// file as it is, which the tests run: the example cannot go stale.
#[test]
fn a_guides_example_that_names_a_file_of_the_repository_is_that_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut shown = 0;
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        let page = entry.unwrap().path();
        if page.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let text = std::fs::read_to_string(&page).unwrap();
        for block in text.split("```").skip(1).step_by(2) {
            let body = block.split_once('\n').map_or("", |(_, body)| body);
            let first = body.lines().next().unwrap_or_default();
            let Some(named) = first.strip_prefix("# ").or_else(|| first.strip_prefix("// ")) else { continue };
            let file = root.join(named.trim());
            if !named.starts_with(['.', '/']) && file.is_file() {
                let written = std::fs::read_to_string(&file).unwrap();
                assert_eq!(body, written, "{} shows {named} otherwise than it is", page.display());
                shown += 1;
            }
        }
    }
    assert!(shown >= 1, "no guide shows a file of the repository");
}
