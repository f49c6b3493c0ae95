//! The invariants of ARCHITECTURE.md that a test can check by reading the
//! source and the lock file: the core crate depends on no interpreter,
//! command-line, terminal or progress-bar crate; the library crates do no
//! I/O (but for the one module that reads files); no module of a crate
//! imports another that imports it back; no variant or rule is named in
//! the source; there is no `unsafe`; every module starts with a `//!` doc;
//! every bound is in `limits.rs`; and the code map lists every source file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The crates' sources: the library layers, then the front ends.
const CRATES: &[&str] = &["crates/unolab-core/src/", "crates/unolab-script/src/", "crates/unolab-load/src/", "src/"];

/// Sources that do no I/O: the library layers, but for the module that
/// reads files from disk.
const NO_IO: &[&str] = &["crates/unolab-core/src/", "crates/unolab-script/src/", "crates/unolab-load/src/"];
const READS_FILES: &str = "crates/unolab-load/src/loader.rs";

/// What the core may not use: the file system, the terminal, the process.
const IO: &[&str] = &[
    "std::fs",
    "std::io::stdin",
    "std::io::stdout",
    "std::io::stderr",
    "IsTerminal",
    "println!",
    "eprintln!",
    "print!(",
    "eprint!(",
    "std::process",
    "std::env",
];

/// Words for generic primitives that happen to be variant names too: the
/// two-colour (flex) card and the double-sided (flip) card.
const PRIMITIVES: &[&str] = &["flex", "flip"];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every source file of every crate, by its path from the project root,
/// with its text.
fn files() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    for dir in CRATES {
        sources(&root.join(dir), &mut paths);
    }
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let name = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// The code of a file without its comments, line by line.
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.split("//").next().unwrap_or(line)))
        .filter(|(_, l)| !l.trim().is_empty())
}

/// Does `line` hold `word` as a whole word (`-` and `_` alike, any case)?
fn has_word(line: &str, word: &str) -> bool {
    let line = line.to_ascii_lowercase().replace('_', "-");
    let word = word.to_ascii_lowercase().replace('_', "-");
    let is_word_char = |c: char| c.is_ascii_alphanumeric() || c == '-';
    line.match_indices(&word).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + word.len()..].chars().next();
        !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char)
    })
}

#[test]
fn the_core_does_no_io() {
    let mut found = Vec::new();
    for (name, text) in files() {
        if !NO_IO.iter().any(|dir| name.starts_with(dir)) || name == READS_FILES {
            continue;
        }
        for (line_number, line) in code_lines(&text) {
            for io in IO {
                if line.contains(io) {
                    found.push(format!("{name}:{line_number}: {io}"));
                }
            }
        }
    }
    assert!(found.is_empty(), "I/O in the core:\n{}", found.join("\n"));
}

#[test]
fn no_variant_or_rule_is_named_in_src() {
    let names: Vec<&str> = unolab::builtin::variant_names()
        .into_iter()
        .chain(unolab::builtin::rule_names())
        .filter(|n| !PRIMITIVES.contains(n))
        .collect();
    assert!(names.len() >= 10, "{names:?}");
    let mut found = Vec::new();
    for (name, text) in files() {
        for (line_number, line) in code_lines(&text) {
            for rule in &names {
                if has_word(line, rule) {
                    found.push(format!("{name}:{line_number}: {rule}"));
                }
            }
            for primitive in PRIMITIVES {
                if line.contains(&format!("\"{primitive}\"")) && line.contains("variant") {
                    found.push(format!("{name}:{line_number}: the variant {primitive}"));
                }
            }
        }
    }
    assert!(found.is_empty(), "variant or rule names in the source:\n{}", found.join("\n"));
}

#[test]
fn no_unsafe_code() {
    let found: Vec<String> = files()
        .iter()
        .flat_map(|(name, text)| {
            code_lines(text).filter(|(_, l)| has_word(l, "unsafe")).map(move |(n, _)| format!("{name}:{n}"))
        })
        .collect();
    assert!(found.is_empty(), "unsafe in:\n{}", found.join("\n"));
}

/// Bounds are kept in one place (the core's `limits.rs`), where they can be read
/// and documented together: elsewhere no constant or static named as a
/// bound, and no Rhai limit (`set_max_*`) set to anything but a bound from
/// there, as it is.
#[test]
fn every_bound_is_in_limits() {
    let named_as_bound = |line: &str| {
        ["const ", "static "].iter().any(|keyword| {
            line.split(keyword).nth(1).is_some_and(|rest| {
                let name = rest.split(':').next().unwrap_or("").trim();
                ["MAX", "MIN", "LIMIT", "BOUND", "BUDGET"].iter().any(|word| name.split('_').any(|part| part == *word))
            })
        })
    };
    // `limits::NAME`, or one half of a pair (`limits::NAME.0`).
    let from_limits = |arg: &str| {
        let arg = arg.trim();
        let path = arg.strip_suffix(".0").or_else(|| arg.strip_suffix(".1")).unwrap_or(arg);
        path.strip_prefix("limits::").is_some_and(|name| {
            !name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        })
    };
    let limits_set_otherwise = |line: &str| {
        line.match_indices(".set_max_").any(|(at, _)| {
            let call = &line[at..];
            let args = call.split_once('(').and_then(|(_, rest)| rest.split_once(')')).map(|(args, _)| args);
            !args.is_some_and(|args| args.split(',').all(from_limits))
        })
    };
    assert!(limits_set_otherwise(".set_max_operations(limits::SCRIPT_OPERATIONS * 100)"));
    assert!(limits_set_otherwise(".set_max_x(limits::A).set_max_y(99)"));
    assert!(!limits_set_otherwise(".set_max_expr_depths(limits::DEPTHS.0, limits::DEPTHS.1)"));
    assert!(named_as_bound("pub const LIMIT : usize = 3;") && named_as_bound("static MAX_CARDS: usize = 3;"));
    let found: Vec<String> = files()
        .iter()
        .filter(|(name, _)| !name.ends_with("limits.rs"))
        .flat_map(|(name, text)| {
            code_lines(text)
                .filter(|(_, l)| named_as_bound(l) || limits_set_otherwise(l))
                .map(move |(n, _)| format!("{name}:{n}"))
        })
        .collect();
    assert!(found.is_empty(), "bounds outside limits.rs:\n{}", found.join("\n"));
}

#[test]
fn every_module_says_what_it_is() {
    let undocumented: Vec<String> =
        files().into_iter().filter(|(_, text)| !text.starts_with("//!")).map(|(name, _)| name).collect();
    assert!(undocumented.is_empty(), "modules without a //! doc: {undocumented:?}");
}

#[test]
fn the_code_map_lists_every_source_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let architecture = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let map_start = architecture.find("## Code map").expect("a Code map section");
    let map = &architecture[map_start..];
    let missing: Vec<String> = files()
        .into_iter()
        .map(|(name, _)| name)
        .filter(|name| {
            let krate = CRATES.iter().find(|dir| name.starts_with(*dir)).unwrap();
            let file = &name[krate.len()..];
            let (dir, leaf) = file.rsplit_once('/').unwrap_or(("", file));
            let listed_in_folder = !dir.is_empty() && map.contains(&format!("{dir}/")) && has_word(map, leaf);
            !(map.contains(file) || listed_in_folder) || !map.contains(krate.trim_end_matches("src/"))
        })
        .collect();
    assert!(missing.is_empty(), "files missing from the code map of ARCHITECTURE.md: {missing:?}");
}

/// The packages `package` depends on, directly or not, for building (not
/// for its tests), as the lock file records them.
fn dependencies_of(package: &str) -> BTreeSet<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).unwrap();
    let mut deps: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for block in lock.split("[[package]]").skip(1) {
        let name = block.lines().find_map(|l| l.strip_prefix("name = \"")).unwrap().trim_end_matches('"');
        let list = block.split("dependencies = [").nth(1).map_or("", |rest| rest.split(']').next().unwrap());
        let names = list.split(',').map(|d| d.trim().trim_matches('"').split(' ').next().unwrap().to_string());
        deps.entry(name.to_string()).or_default().extend(names.filter(|d| !d.is_empty()));
    }
    // The lock file lists dev-dependencies too: take the manifest's own
    // dependencies first, then everything they need.
    let manifest = std::fs::read_to_string(root.join("crates").join(package).join("Cargo.toml")).unwrap();
    let section = manifest.split("[dependencies]").nth(1).unwrap().split("\n[").next().unwrap();
    let mut todo: Vec<String> = section
        .lines()
        .filter_map(|l| l.split(['=', '.']).next().map(str::trim).filter(|n| !n.is_empty()).map(String::from))
        .collect();
    let mut seen = BTreeSet::new();
    while let Some(name) = todo.pop() {
        if seen.insert(name.clone()) {
            todo.extend(deps.get(&name).cloned().unwrap_or_default());
        }
    }
    seen
}

/// The core is the game alone: no script interpreter, command line,
/// terminal, progress bar or file format in what it is built from; the
/// scripts' crate needs no command line or terminal either.
#[test]
fn the_core_depends_on_no_interpreter_terminal_or_file_format() {
    let core = dependencies_of("unolab-core");
    assert!(core.contains("rand"), "the lock file was read: {core:?}");
    let forbidden = ["rhai", "clap", "rustyline", "indicatif", "serde-saphyr", "serde_json", "ctrlc", "unolab-script"];
    let found: Vec<&&str> = forbidden.iter().filter(|name| core.contains(**name)).collect();
    assert!(found.is_empty(), "the core depends on {found:?}");
    let script = dependencies_of("unolab-script");
    assert!(script.contains("rhai"));
    let found: Vec<&&str> =
        ["clap", "rustyline", "indicatif", "unolab-load"].iter().filter(|n| script.contains(**n)).collect();
    assert!(found.is_empty(), "the scripts' crate depends on {found:?}");
}

/// The top-level modules of each crate and the ones each names
/// (`crate::NAME`): no two of them name each other, directly or round a
/// longer loop. (Within a module, its files are one unit.)
#[test]
fn no_module_imports_one_that_imports_it() {
    let mut cycles = Vec::new();
    for krate in CRATES {
        let files: Vec<(String, String)> = files().into_iter().filter(|(name, _)| name.starts_with(krate)).collect();
        let module = |name: &str| -> String {
            let file = &name[krate.len()..];
            let top = file.split('/').next().unwrap().trim_end_matches(".rs");
            top.to_string()
        };
        let modules: BTreeSet<String> = files.iter().map(|(name, _)| module(name)).collect();
        let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (name, text) in &files {
            let from = module(name);
            for (_, line) in code_lines(text) {
                for (at, _) in line.match_indices("crate::") {
                    let rest = &line[at + "crate::".len()..];
                    let to: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    if modules.contains(&to) && to != from && !matches!(from.as_str(), "lib" | "main") {
                        edges.entry(from.clone()).or_default().insert(to);
                    }
                }
            }
        }
        // A path back from `to` to `from` closes a loop.
        let reaches = |start: &str, goal: &str| {
            let mut todo = vec![start.to_string()];
            let mut seen = BTreeSet::new();
            while let Some(at) = todo.pop() {
                if at == goal {
                    return true;
                }
                if seen.insert(at.clone()) {
                    todo.extend(edges.get(&at).into_iter().flatten().cloned());
                }
            }
            false
        };
        for (from, tos) in &edges {
            for to in tos {
                if reaches(to, from) {
                    cycles.push(format!("{krate}: {from} -> {to} -> ... -> {from}"));
                }
            }
        }
    }
    assert!(cycles.is_empty(), "import cycles between modules:\n{}", cycles.join("\n"));
}

#[test]
fn the_word_check_finds_whole_words_only() {
    assert!(has_word("let x = \"jump-in\";", "jump-in"));
    assert!(has_word("fn jump_in()", "jump-in"));
    assert!(!has_word("expression", "express"));
    assert!(!has_word("classical", "classic"));
}

#[test]
fn the_authoring_guide_describes_every_host_function_and_hook() {
    use std::sync::Arc;
    use unolab::loader::load;
    use unolab::ruleset::LoadRequest;
    use unolab::script::Scripts;
    use unolab::variant::HookKind;

    let guide = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/authoring.md")).unwrap();
    let variant = Arc::new(load(&LoadRequest { variant: "classic".into(), ..LoadRequest::default() }).unwrap());
    let runtime = Scripts::new(variant).unwrap();
    let mut missing: Vec<String> = runtime
        .host_signatures()
        .iter()
        .filter_map(|signature| {
            let name = signature.split('(').next()?.rsplit(' ').next()?;
            // Card properties are described as `card.NAME` or in the list
            // of a card's properties; functions as `NAME(`.
            match name.strip_prefix("get$") {
                Some(property) => (!guide.contains(&format!("`{property}`"))).then(|| format!("card.{property}")),
                None if matches!(name, "to_string" | "==" | "!=") => None,
                None => (!guide.contains(&format!("`{name}("))).then(|| format!("{name}()")),
            }
        })
        .collect();
    missing.extend(
        HookKind::ALL.iter().map(|k| k.name()).filter(|n| !guide.contains(&format!("| `{n}`"))).map(String::from),
    );
    missing.sort();
    missing.dedup();
    assert!(missing.is_empty(), "not described in docs/authoring.md: {missing:?}");
}

#[test]
fn every_scenario_key_is_documented() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let schema = std::fs::read_to_string(root.join("src/scenario/schema.rs")).unwrap();
    let docs = ["docs/spec/scenarios.md", "docs/authoring.md"]
        .map(|doc| std::fs::read_to_string(root.join(doc)).unwrap())
        .join("\n");
    // The keys the runner reads: the fields of the raw file and its setup,
    // and the words its steps, plays and expectations are matched on.
    let mut keys: Vec<&str> = Vec::new();
    for (_, line) in code_lines(&schema) {
        let line = line.trim();
        if let Some(field) = line.strip_prefix("pub ").and_then(|rest| rest.split_once(':')).map(|(name, _)| name)
            && field.chars().all(|c| c.is_ascii_lowercase() || c == '_')
        {
            keys.push(field);
        }
        if let Some(word) = line.strip_prefix('"').and_then(|rest| rest.split_once("\" =>")).map(|(word, _)| word) {
            keys.push(word);
        }
    }
    assert!(keys.len() > 40, "the schema's keys were not found: {keys:?}");
    let missing: Vec<&&str> =
        keys.iter().filter(|key| !docs.contains(&format!("`{key}`")) && !docs.contains(&format!("{key}:"))).collect();
    assert!(
        missing.is_empty(),
        "scenario keys not described in docs/spec/scenarios.md or docs/authoring.md: {missing:?}"
    );
}
