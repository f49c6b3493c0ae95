//! Options: named settings a variant or rule declares with a default
//! (`options:`), changed per game with `--set KEY=VALUE` or a scenario's
//! `options:`, checked by name and by the type of the default.

use std::collections::BTreeMap;

use crate::spec::LayerSpec;
use crate::yaml::{Yaml, YamlValue};
use unolab_core::source::SourceFile;
use unolab_core::variant::OptionValue;

fn option_value(value: &Yaml) -> Option<OptionValue> {
    match &value.value {
        YamlValue::Bool(b) => Some(OptionValue::Bool(*b)),
        YamlValue::Int(n) => Some(OptionValue::Int(*n)),
        YamlValue::Str(s) => Some(OptionValue::Text(s.clone())),
        _ => None,
    }
}

/// The options in force, and the values those that list them may take.
#[derive(Debug, Default)]
pub struct Options {
    pub values: BTreeMap<String, OptionValue>,
    /// By option, the values it may take, where its declaration lists them
    /// (`{default: V, values: [...]}`); any value of its type otherwise.
    pub choices: BTreeMap<String, Vec<OptionValue>>,
}

/// An option as a layer declares it: a value (its default), or a map of
/// the default and the values it may take.
fn declaration(key: &str, value: &Yaml, file: &SourceFile) -> Result<(OptionValue, Option<Vec<OptionValue>>), String> {
    let wrong_type = || {
        file.problem(
            value.position(),
            format!(
                "option '{key}' must be a boolean, a whole number or text, or {{default: VALUE, values: [VALUE, ...]}}"
            ),
        )
    };
    let YamlValue::Map(fields) = &value.value else {
        return option_value(value).map(|v| (v, None)).ok_or_else(wrong_type);
    };
    let (mut default, mut values) = (None, None);
    for (name, field) in fields {
        match &name.value {
            YamlValue::Str(name) if name == "default" => default = Some(field),
            YamlValue::Str(name) if name == "values" => values = Some(field),
            other => {
                let shown = match other {
                    YamlValue::Str(text) => format!(" '{text}'"),
                    _ => String::new(),
                };
                let text =
                    format!("option '{key}': unknown field{shown} (an option with choices has 'default' and 'values')");
                return Err(file.problem(name.position(), text));
            }
        }
    }
    let default = default.ok_or_else(|| file.problem(value.position(), format!("option '{key}' needs a 'default'")))?;
    let default_value = option_value(default).ok_or_else(wrong_type)?;
    let Some(values) = values else {
        return Err(file.problem(value.position(), format!("option '{key}' needs 'values', the values it may take")));
    };
    let YamlValue::Seq(items) = &values.value else {
        return Err(file.problem(values.position(), format!("option '{key}': 'values' is a list")));
    };
    let mut choices = Vec::new();
    for item in items {
        match option_value(item) {
            Some(v) if std::mem::discriminant(&v) == std::mem::discriminant(&default_value) => choices.push(v),
            _ => {
                let text = format!("option '{key}': every value is of the default's type, like '{default_value}'");
                return Err(file.problem(item.position(), text));
            }
        }
    }
    if !choices.contains(&default_value) {
        let text = format!(
            "option '{key}': the default '{default_value}' is not among its values ({})",
            OptionValue::listed(&choices)
        );
        return Err(file.problem(default.position(), text));
    }
    Ok((default_value, Some(choices)))
}

/// The declared options of every layer, then the settings applied. A
/// later layer may change an earlier one's default, within its values.
pub fn merge<'a>(
    layers: impl IntoIterator<Item = (&'a LayerSpec, &'a SourceFile)>,
    settings: &[(String, String)],
    problems: &mut Vec<String>,
) -> Options {
    let mut options = Options::default();
    let refused = |key: &str, value: &OptionValue, choices: &[OptionValue]| {
        format!("option '{key}' takes one of {}, not '{value}'", OptionValue::listed(choices))
    };
    for (spec, file) in layers {
        for (key, value) in &spec.options {
            match declaration(key, value, file) {
                Ok((v, choices)) => {
                    let earlier = options.choices.get(key).filter(|_| choices.is_none());
                    if let Some(earlier) = earlier.filter(|earlier| !earlier.contains(&v)) {
                        problems.push(file.problem(value.position(), refused(key, &v, earlier)));
                        continue;
                    }
                    if let Some(choices) = choices {
                        options.choices.insert(key.clone(), choices);
                    }
                    options.values.insert(key.clone(), v);
                }
                Err(problem) => problems.push(problem),
            }
        }
    }
    for (key, text) in settings {
        let Some(current) = options.values.get(key) else {
            let known: Vec<&str> = options.values.keys().map(String::as_str).collect();
            problems.push(format!(
                "unknown option '{key}' (options here: {}){}",
                if known.is_empty() { "none".into() } else { known.join(", ") },
                unolab_core::source::did_you_mean(key, known.iter().copied())
            ));
            continue;
        };
        let parsed = match current {
            OptionValue::Bool(_) => text.parse::<bool>().ok().map(OptionValue::Bool),
            OptionValue::Int(_) => text.parse::<i64>().ok().map(OptionValue::Int),
            OptionValue::Text(_) => Some(OptionValue::Text(text.clone())),
        };
        match (parsed, options.choices.get(key)) {
            (Some(v), Some(choices)) if !choices.contains(&v) => problems.push(refused(key, &v, choices)),
            (Some(v), _) => {
                options.values.insert(key.clone(), v);
            }
            (None, _) => problems.push(format!("option '{key}' takes a value like '{current}', not '{text}'")),
        }
    }
    options
}
