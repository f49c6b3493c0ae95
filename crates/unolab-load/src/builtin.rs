//! The variants, house rules and scripts shipped inside the binary (every
//! file under `variants/` and `scripts/`, embedded by `build.rs`), and a
//! built-in file's spec as written.

include!(concat!(env!("OUT_DIR"), "/builtin_files.rs"));

/// The text of a built-in file, by its path from the project root.
pub fn file(path: &str) -> Option<&'static str> {
    FILES.iter().find(|(name, _)| *name == path).map(|(_, text)| *text)
}

/// The raw spec of a built-in variant or rule (`variants/NAME.yaml`,
/// `variants/rules/NAME.yaml`), read without validating it.
pub fn spec(path: &str) -> Option<crate::spec::LayerSpec> {
    file(path).and_then(|text| crate::yaml::from_str(text).ok())
}

/// Built-in variants: `variants/NAME.yaml` (directly in `variants/`).
pub fn variant_names() -> Vec<&'static str> {
    names_in("variants/")
}

/// Built-in house rules: `variants/rules/NAME.yaml`.
pub fn rule_names() -> Vec<&'static str> {
    names_in("variants/rules/")
}

fn names_in(dir: &str) -> Vec<&'static str> {
    FILES
        .iter()
        .filter_map(|(name, _)| name.strip_prefix(dir)?.strip_suffix(".yaml"))
        .filter(|name| !name.contains('/'))
        .collect()
}

/// Resolves `relative` against the directory of the built-in file `base`.
pub fn join(base: &str, relative: &str) -> String {
    let mut parts: Vec<&str> = base.split('/').collect();
    parts.pop();
    for part in relative.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts.join("/")
}
