//! Options: named settings a variant or rule declares with a default
//! (`options:`), changed per game with `--set KEY=VALUE` or a scenario's
//! `options:`, checked by name and by the type of the default.

use std::collections::BTreeMap;

use crate::source::SourceFile;
use crate::variant::spec::LayerSpec;
use crate::yaml::{Yaml, YamlValue};

/// A value of a setting, as scripts read it with `option(NAME)`: a
/// `ScriptValue` that may cross threads (see there).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum OptionValue {
    Bool(bool),
    Int(i64),
    Text(String),
}

impl std::fmt::Display for OptionValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Int(i) => write!(f, "{i}"),
            OptionValue::Text(s) => write!(f, "{s}"),
        }
    }
}

fn option_value(value: &Yaml) -> Option<OptionValue> {
    match &value.value {
        YamlValue::Bool(b) => Some(OptionValue::Bool(*b)),
        YamlValue::Int(n) => Some(OptionValue::Int(*n)),
        YamlValue::Str(s) => Some(OptionValue::Text(s.clone())),
        _ => None,
    }
}

/// The declared options of every layer, then the settings applied.
pub fn merge<'a>(
    layers: impl IntoIterator<Item = (&'a LayerSpec, &'a SourceFile)>,
    settings: &[(String, String)],
    problems: &mut Vec<String>,
) -> BTreeMap<String, OptionValue> {
    let mut options = BTreeMap::new();
    for (spec, file) in layers {
        for (key, value) in &spec.options {
            match option_value(value) {
                Some(v) => {
                    options.insert(key.clone(), v);
                }
                None => problems.push(
                    file.problem(value.position(), format!("option '{key}' must be a boolean, a whole number or text")),
                ),
            }
        }
    }
    for (key, text) in settings {
        let Some(current) = options.get(key) else {
            let known: Vec<&str> = options.keys().map(String::as_str).collect();
            problems.push(format!(
                "unknown option '{key}' (options here: {})",
                if known.is_empty() { "none".into() } else { known.join(", ") }
            ));
            continue;
        };
        let parsed = match current {
            OptionValue::Bool(_) => text.parse::<bool>().ok().map(OptionValue::Bool),
            OptionValue::Int(_) => text.parse::<i64>().ok().map(OptionValue::Int),
            OptionValue::Text(_) => Some(OptionValue::Text(text.clone())),
        };
        match parsed {
            Some(v) => {
                options.insert(key.clone(), v);
            }
            None => problems.push(format!("option '{key}' takes a value like '{current}', not '{text}'")),
        }
    }
    options
}
