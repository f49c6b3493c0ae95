//! Loading a ruleset: a variant (a built-in name or a path) with house rules
//! on top and option settings, opened through a `Loader`, validated into a
//! `Variant`, and its scripts checked, reporting every problem at once.

use std::path::Path;
use std::sync::Arc;

use crate::build::{self, LayerInput};
use crate::builtin;
use crate::files::{Loader, Open};
use unolab_core::source::SourceFile;
use unolab_core::variant::Variant;

/// What to load: a built-in name or a path, for the variant and each rule,
/// and `NAME=VALUE` settings of options.
#[derive(Debug, Clone, Default)]
pub struct LoadRequest {
    pub variant: String,
    pub rules: Vec<String>,
    pub settings: Vec<(String, String)>,
}

impl LoadRequest {
    /// The request as command-line arguments: `classic -r stacking --set
    /// crossStack=true`, each word quoted where a shell would split it
    /// (`-r 'my rules/house.yaml'`), so that the command can be pasted.
    pub fn arguments(&self) -> String {
        let mut words = vec![shell_word(&self.variant)];
        words.extend(self.rules.iter().map(|r| format!("-r {}", shell_word(r))));
        words.extend(self.settings.iter().map(|(k, v)| format!("--set {}", shell_word(&format!("{k}={v}")))));
        words.join(" ")
    }
}

/// A word of a command to paste, quoted where a shell would split it or
/// read it otherwise (a space, a quote, `*`...); as it is where not.
pub fn shell_word(word: &str) -> String {
    // `shell_words` quotes `=` too, which no shell splits on.
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-./:=,+@%".contains(c);
    if !word.is_empty() && word.chars().all(safe) { word.to_string() } else { shell_words::quote(word).into_owned() }
}

/// Opens a built-in variant (`variants/NAME.yaml`) or a path.
pub fn open_variant(loader: &dyn Loader, reference: &str) -> Result<SourceFile, String> {
    open(loader, reference, "variants/", "variant", builtin::variant_names())
}

/// Opens a built-in house rule (`variants/rules/NAME.yaml`) or a path.
pub fn open_rule(loader: &dyn Loader, reference: &str) -> Result<SourceFile, String> {
    open(loader, reference, "variants/rules/", "house rule", builtin::rule_names())
}

fn open(loader: &dyn Loader, reference: &str, dir: &str, what: &str, known: Vec<&str>) -> Result<SourceFile, String> {
    if let Some(file) = SourceFile::builtin(&format!("{dir}{reference}.yaml")) {
        return Ok(file);
    }
    let path = Path::new(reference);
    if loader.exists(path) || reference.contains('/') || reference.ends_with(".yaml") || reference.ends_with(".yml") {
        // A folder `new` made holds the file of its name.
        let inside = path.file_name().map(|name| path.join(name).with_extension("yaml")).filter(|f| loader.exists(f));
        return SourceFile::read(loader, path).map_err(|e| match inside {
            Some(inside) => format!("{e}: a folder; the {what} in it is {}", inside.display()),
            None => e,
        });
    }
    Err(format!(
        "unknown {what} '{reference}' (built in: {}; or give a path to a YAML file){}",
        known.join(", "),
        unolab_core::source::did_you_mean(reference, known.iter().copied())
    ))
}

/// Parses a file and opens the scripts it names. A house rule's unknown
/// field at the top of the file is told the fields a rule may set, not the
/// variant's (a field unknown deeper in is told the fields there).
fn input(loader: &dyn Loader, file: SourceFile, rule: bool, problems: &mut Vec<String>) -> Option<LayerInput> {
    let spec = build::parse_spec(&file)
        .map_err(|found| {
            let fields = crate::spec::RULE_FIELDS;
            for e in found {
                problems.push(match crate::yaml::unknown_field(&e) {
                    Some((unknown, word, expected)) if rule && fields.iter().all(|f| expected.contains(f)) => {
                        format!(
                            "{unknown}a house rule's fields are {}{}",
                            fields.join(", "),
                            unolab_core::source::did_you_mean(word, fields.iter().copied())
                        )
                    }
                    _ => e,
                })
            }
        })
        .ok()?;
    let mut scripts = Vec::new();
    for path in &spec.scripts {
        match file.sibling(loader, path) {
            Ok(script) => scripts.push(script),
            Err(e) => problems.push(file.problem(path.position(), format!("script not found: {e}"))),
        }
    }
    Some(LayerInput { file, spec, scripts })
}

/// Loads and validates a variant with house rules on top, scripts compiled
/// and hooks checked against them. On failure, every problem found, one
/// message each.
pub fn load(request: &LoadRequest, loader: &dyn Loader) -> Result<Variant, Vec<String>> {
    let mut problems = Vec::new();
    let table_file = open_variant(loader, &request.variant).map_err(|e| vec![e])?;
    let table = input(loader, table_file, false, &mut problems).ok_or_else(|| problems.clone())?;
    let mut rules = Vec::new();
    for reference in &request.rules {
        match open_rule(loader, reference) {
            Ok(file) => rules.extend(input(loader, file, true, &mut problems)),
            Err(e) => problems.push(e),
        }
    }
    let Some(variant) = build::build(&table, &rules, &request.settings, &unolab_script::check_layer, &mut problems)
    else {
        return Err(without_repeats(problems));
    };
    let variant = Arc::new(variant);
    let all_scripts: Vec<bool> = std::iter::once(&table).chain(&rules).map(LayerInput::all_scripts).collect();
    let (calls, warnings) = unolab_script::check::check_calls(&variant, &all_scripts);
    problems.extend(calls);
    let mut variant = Arc::try_unwrap(variant).unwrap_or_else(|shared| (*shared).clone());
    variant.warnings.extend(warnings);
    if problems.is_empty() { Ok(variant) } else { Err(without_repeats(problems)) }
}

/// The problems in order, each message once.
fn without_repeats(problems: Vec<String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    problems.into_iter().filter(|p| seen.insert(p.clone())).collect()
}

/// The built-in variant marked `default: true`, which `unolab` plays when
/// no variant is named.
pub fn default_variant() -> Option<&'static str> {
    builtin::variant_names()
        .into_iter()
        .find(|name| builtin::spec(&format!("variants/{name}.yaml")).is_some_and(|spec| spec.default))
}

#[cfg(test)]
mod tests {
    use super::LoadRequest;

    /// The command a report prints can be pasted: a path with a space is
    /// quoted, a plain word is not.
    #[test]
    fn arguments_quote_what_a_shell_would_split() {
        let request = LoadRequest {
            variant: "base".into(),
            rules: vec!["my rules/house.yaml".into(), "extra".into()],
            settings: vec![("name".into(), "two words".into()), ("flag".into(), "true".into())],
        };
        assert_eq!(
            request.arguments(),
            "base -r 'my rules/house.yaml' -r extra --set 'name=two words' --set flag=true"
        );
    }
}
