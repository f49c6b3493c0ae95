//! Face selectors (`match:` in hooks and targets, and the `count`/`holds`
//! script queries), parsed once against the variant's names: a list means
//! any of its entries, `red + 7` means both words. Words: `any`, `number`,
//! `action`, `wild`, `marked`, `flex`, a number, a symbol, `group:SYMBOL`
//! (every symbol that matches SYMBOL), `flex:COLOUR` (the flex colour) or a
//! colour.

use crate::card::{Color, Face, SymbolId, Value};
use crate::notation::Names;
use crate::variant::spec::SelectorSpec;

/// One word of a selector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Word {
    Any,
    Number,
    Action,
    Wild,
    Marked,
    Flex,
    Group(SymbolId),
    Value(Value),
    Color(Color),
    FlexColor(Color),
}

/// A parsed selector: alternatives, each a conjunction of words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selector {
    alternatives: Vec<Vec<Word>>,
}

const WORDS: &str =
    "any, number, action, wild, marked, flex, group:SYMBOL, flex:COLOUR, a number, a symbol or a colour";

fn parse_word(names: &Names, part: &str) -> Result<Word, String> {
    let part = part.trim();
    let lower = part.to_ascii_lowercase();
    Ok(match lower.as_str() {
        "any" | "*" => Word::Any,
        "number" => Word::Number,
        "action" => Word::Action,
        "wild" => Word::Wild,
        "marked" => Word::Marked,
        "flex" => Word::Flex,
        _ => {
            if let Some(symbol) = lower.strip_prefix("group:") {
                let id = names.symbol(symbol).ok_or_else(|| format!("'{part}': there is no symbol '{symbol}'"))?;
                Word::Group(names.symbol_info(id).group)
            } else if let Some(color) = lower.strip_prefix("flex:") {
                Word::FlexColor(names.color(color).ok_or_else(|| format!("'{part}': there is no colour '{color}'"))?)
            } else if let Ok(n) = lower.parse::<u8>() {
                Word::Value(Value::Number(n))
            } else if let Some(symbol) = names.symbol(&lower) {
                Word::Value(Value::Symbol(symbol))
            } else if let Some(color) = names.color(&lower) {
                Word::Color(color)
            } else {
                return Err(format!("'{part}' is not a selector ({WORDS})"));
            }
        }
    })
}

/// A selector that does not parse: why, and the alternative it is in, as
/// written (where an error message points).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectorError {
    pub written: String,
    message: String,
}

impl std::fmt::Display for SelectorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl Selector {
    /// Parses a selector as written; `None` selects every face.
    pub fn parse(names: &Names, spec: Option<&SelectorSpec>) -> Result<Selector, SelectorError> {
        let alternatives = match spec {
            None => vec![vec![Word::Any]],
            Some(spec) => spec
                .alternatives()
                .into_iter()
                .map(|alt| {
                    alt.split('+').map(|part| parse_word(names, part)).collect::<Result<Vec<_>, _>>().map_err(|e| {
                        SelectorError {
                            written: alt.to_string(),
                            message: format!("{}: {e}", spec.alternatives().join(", ")),
                        }
                    })
                })
                .collect::<Result<Vec<_>, _>>()?,
        };
        Ok(Selector { alternatives })
    }

    /// Does `face` satisfy the selector?
    pub fn selects(&self, names: &Names, face: &Face) -> bool {
        self.alternatives.iter().any(|words| words.iter().all(|&word| selects_word(names, face, word)))
    }
}

fn selects_word(names: &Names, face: &Face, word: Word) -> bool {
    match word {
        Word::Any => true,
        Word::Number => face.number().is_some(),
        Word::Action => face.symbol().is_some() && !face.is_wild(),
        Word::Wild => face.is_wild(),
        Word::Marked => face.marked,
        Word::Flex => names.has_flex_side(face),
        Word::Group(group) => face.symbol().is_some_and(|s| names.symbol_info(s).group == group),
        Word::Value(value) => face.value == value,
        Word::Color(color) => face.color == Some(color),
        Word::FlexColor(color) => face.flex == Some(color),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Symbol;

    fn names() -> Names {
        let symbol = |name: &str, group: SymbolId| Symbol {
            name: name.into(),
            aliases: vec![],
            points: 20,
            wild: false,
            flex: false,
            restricted: false,
            draws: 0,
            names_color: true,
            group,
            description: String::new(),
        };
        Names::new(vec!["red".into(), "blue".into()], vec![], vec![symbol("skip", 0), symbol("flex-skip", 0)])
    }

    #[test]
    fn words_combine_and_alternate() {
        let names = names();
        let parse = |s: &str| Selector::parse(&names, Some(&SelectorSpec::One(s.into()))).unwrap();
        let red7 = names.parse_face("red 7").unwrap();
        let blue7 = names.parse_face("blue 7").unwrap();
        let flex_skip = names.parse_face("blue flex-skip").unwrap();
        assert!(parse("red + 7").selects(&names, &red7));
        assert!(!parse("red + 7").selects(&names, &blue7));
        assert!(parse("group:skip").selects(&names, &flex_skip));
        assert!(!parse("skip").selects(&names, &flex_skip));
        let either = Selector::parse(&names, Some(&SelectorSpec::Any(vec!["red".into(), "skip".into()]))).unwrap();
        assert!(either.selects(&names, &red7) && !either.selects(&names, &blue7));
    }

    #[test]
    fn unknown_words_are_refused() {
        let names = names();
        let parse = |s: &str| Selector::parse(&names, Some(&SelectorSpec::One(s.into())));
        assert!(parse("sideways").unwrap_err().to_string().contains("'sideways' is not a selector"));
        assert!(parse("group:draw2").unwrap_err().to_string().contains("there is no symbol 'draw2'"));
        // The error names the alternative it is in, as written, and the
        // word without the spaces around it.
        let either = Selector::parse(&names, Some(&SelectorSpec::Any(vec!["red".into(), "blue + 55x".into()])));
        let error = either.unwrap_err();
        assert_eq!(error.written, "blue + 55x");
        assert_eq!(error.to_string(), format!("red, blue + 55x: '55x' is not a selector ({WORDS})"));
    }
}
