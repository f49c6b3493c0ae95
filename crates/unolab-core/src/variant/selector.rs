//! Face selectors (`match:` in hooks and targets, and the `count`/`holds`
//! script queries), parsed once against the variant's names: a list means
//! any of its entries, `red + 7` means both words. Words: `any`, `number`,
//! `action`, `wild`, `marked`, `flex`, `draws`, a number, a symbol, `group:SYMBOL`
//! (every symbol that matches SYMBOL), `flex:COLOUR` (the flex colour) or a
//! colour; and words that relate the face to the top card of the discard
//! pile when it is asked (`top:color`, `top:value`, `top` for both), which
//! a selector decides at load only as far as the other words go
//! (`Selector::top_need`), leaving the rest to `TopNeed::holds`.

use crate::card::{CardId, Color, Face, Side, SymbolId, Value};
use crate::notation::Names;

/// A `match:` as written: one selector, or a list of alternatives.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(untagged)]
pub enum SelectorSpec {
    One(String),
    Any(Vec<String>),
}

impl SelectorSpec {
    pub fn alternatives(&self) -> Vec<&str> {
        match self {
            SelectorSpec::One(s) => vec![s.as_str()],
            SelectorSpec::Any(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

/// One word of a selector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Word {
    Any,
    Number,
    Action,
    Wild,
    Marked,
    Flex,
    /// A symbol that makes someone draw (`draws:` above 0).
    Draws,
    Group(SymbolId),
    Value(Value),
    Color(Color),
    FlexColor(Color),
    /// Relates the face to the top card: `TopNeed::COLOR`, `TopNeed::VALUE`
    /// or both.
    Top(u8),
    /// A symbol or colour this variant lacks that another knows: picks
    /// nothing here.
    Lacking,
}

/// What a face needs of the top card of the discard pile for a selector to
/// pick it: a bit for each set of relations (same colour, same value) after
/// which an alternative that picks the face by its other words also asks.
/// The bit of the empty set: picked whatever the top card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TopNeed(u8);

impl TopNeed {
    /// Picked whatever the top card.
    pub const ALWAYS: TopNeed = TopNeed(1);
    /// Never picked.
    pub const NEVER: TopNeed = TopNeed(0);
    /// The face has the top card's colour (a wild, having none, never has).
    const COLOR: u8 = 1;
    /// The face has the top card's number or symbol.
    const VALUE: u8 = 2;
    /// For each set of relations that hold, the bits of the sets it meets.
    const MET_BY: [u8; 4] = [0b0001, 0b0011, 0b0101, 0b1111];

    /// Picked where either is.
    pub fn or(self, other: TopNeed) -> TopNeed {
        TopNeed(self.0 | other.0)
    }

    /// Does the face need no top card at all?
    #[inline(always)]
    pub fn always(self) -> bool {
        self.0 & 1 != 0
    }

    /// Is `face` picked while `top` (on the side in play; `None`: the
    /// discard pile is empty) is the top card?
    #[inline(always)]
    pub fn holds(self, face: &Face, top: Option<&Face>) -> bool {
        self.always()
            || top.is_some_and(|top| self.met(face.color.is_some() && face.color == top.color, face.value == top.value))
    }

    /// Is the face picked where it has the top card's colour (`color`) and
    /// value (`value`) or not? (A wild has no colour: never the top
    /// card's.)
    #[inline(always)]
    pub fn met(self, color: bool, value: bool) -> bool {
        let relations = (u8::from(color) * Self::COLOR) | (u8::from(value) * Self::VALUE);
        self.0 & Self::MET_BY[usize::from(relations)] != 0
    }
}

/// A parsed selector: alternatives, each a conjunction of words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selector {
    alternatives: Vec<Vec<Word>>,
    /// The symbols and colours, as written, the selector names and the
    /// variant lacks (`Word::Lacking`).
    lacking: Vec<String>,
}

const WORDS: &str = "any, number, action, wild, marked, flex, draws, group:SYMBOL, flex:COLOUR, \
                     top, top:color, top:value, a number, a symbol or a colour";

/// The words that are neither names of the variant nor take one (those a
/// misspelling is matched against).
const FIXED_WORDS: [(&str, Word); 10] = [
    ("any", Word::Any),
    ("number", Word::Number),
    ("action", Word::Action),
    ("wild", Word::Wild),
    ("marked", Word::Marked),
    ("flex", Word::Flex),
    ("draws", Word::Draws),
    ("top", Word::Top(TopNeed::COLOR | TopNeed::VALUE)),
    ("top:color", Word::Top(TopNeed::COLOR)),
    ("top:value", Word::Top(TopNeed::VALUE)),
];

/// Other spellings of fixed words.
const ALIASES: [(&str, Word); 2] = [("*", Word::Any), ("top:colour", Word::Top(TopNeed::COLOR))];

/// A word of a selector; `elsewhere`: the names (lower case) of symbols
/// and colours other variants know, which pick nothing here
/// (`Word::Lacking`) rather than being refused.
fn parse_word(names: &Names, elsewhere: &[String], part: &str) -> Result<Word, String> {
    let part = part.trim();
    let lower = part.to_ascii_lowercase();
    let fixed = FIXED_WORDS.iter().chain(&ALIASES).find(|&&(name, _)| name == lower).map(|&(_, word)| word);
    let known_elsewhere = |name: &str| elsewhere.iter().any(|known| *known == name);
    Ok(match fixed {
        Some(word) => word,
        None => {
            if let Some(symbol) = lower.strip_prefix("group:") {
                match names.symbol(symbol) {
                    Some(id) => Word::Group(names.symbol_info(id).group),
                    None if known_elsewhere(symbol) => Word::Lacking,
                    None => return Err(format!("'{part}': there is no symbol '{symbol}'")),
                }
            } else if let Some(color) = lower.strip_prefix("flex:") {
                match names.color(color) {
                    Some(color) => Word::FlexColor(color),
                    None if known_elsewhere(color) => Word::Lacking,
                    None => return Err(format!("'{part}': there is no colour '{color}'")),
                }
            } else if let Ok(n) = lower.parse::<u8>() {
                Word::Value(Value::Number(n))
            } else if let Some(symbol) = names.symbol(&lower) {
                Word::Value(Value::Symbol(symbol))
            } else if let Some(color) = names.color(&lower) {
                Word::Color(color)
            } else if known_elsewhere(&lower) {
                Word::Lacking
            } else {
                let fixed = FIXED_WORDS.iter().map(|&(name, _)| name);
                let symbols = names.symbols.iter().map(|s| s.name.as_str());
                let known = fixed
                    .chain(symbols)
                    .chain(names.colors.iter().map(String::as_str))
                    .chain(elsewhere.iter().map(String::as_str));
                let hint = crate::source::did_you_mean(&lower, known);
                return Err(format!("'{part}' is not a selector ({WORDS}){hint}"));
            }
        }
    })
}

/// A selector that does not parse: why, and the alternative it is in, as
/// written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectorError {
    pub written: String,
    /// Which alternative (from 0).
    pub index: usize,
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
        Selector::parse_in(names, &[], spec)
    }

    /// Parses a selector as written, where `elsewhere` are the names (lower
    /// case) of symbols and colours other variants know: a word naming one
    /// of them picks nothing here (`lacking` tells which), where a name no
    /// variant knows is refused.
    pub fn parse_in(
        names: &Names,
        elsewhere: &[String],
        spec: Option<&SelectorSpec>,
    ) -> Result<Selector, SelectorError> {
        let mut lacking = Vec::new();
        let alternatives = match spec {
            None => vec![vec![Word::Any]],
            Some(spec) => {
                let whole = spec.alternatives().join(", ");
                let mut alternatives = Vec::new();
                for (index, alt) in spec.alternatives().into_iter().enumerate() {
                    let mut words = Vec::new();
                    for part in alt.split('+') {
                        let word = parse_word(names, elsewhere, part).map_err(|e| SelectorError {
                            written: alt.to_string(),
                            index,
                            // The word is named in the error: the whole
                            // selector only where it is more than the word.
                            message: if whole.trim() == part.trim() { e } else { format!("{whole}: {e}") },
                        })?;
                        if word == Word::Lacking {
                            let part = part.trim();
                            let name = part.split_once(':').map_or(part, |(_, name)| name);
                            lacking.push(name.to_string());
                        }
                        words.push(word);
                    }
                    alternatives.push(words);
                }
                alternatives
            }
        };
        Ok(Selector { alternatives, lacking })
    }

    /// The symbols and colours, as written, that the selector names and the
    /// variant lacks (`parse_in`), which pick nothing here.
    pub fn lacking(&self) -> &[String] {
        &self.lacking
    }

    /// Does `face` satisfy the selector while `top` is the top card (on
    /// the side in play)?
    pub fn selects(&self, names: &Names, face: &Face, top: Option<&Face>) -> bool {
        self.alternatives.iter().any(|words| {
            words.iter().all(|&word| match word {
                Word::Top(relations) => TopNeed(1 << relations).holds(face, top),
                _ => selects_word(names, face, word),
            })
        })
    }

    /// What `face` needs of the top card to be picked: what the selector
    /// knows of it before there is a top card (at load).
    pub fn top_need(&self, names: &Names, face: &Face) -> TopNeed {
        let mut need = TopNeed::NEVER;
        for words in &self.alternatives {
            let mut relations = 0;
            let picked = words.iter().all(|&word| match word {
                Word::Top(relation) => {
                    relations |= relation;
                    // A wild has no colour: never the top card's.
                    relation & TopNeed::COLOR == 0 || face.color.is_some()
                }
                _ => selects_word(names, face, word),
            });
            if picked {
                need.0 |= 1 << relations;
            }
        }
        need
    }

    /// Does the selector relate faces to the top card (`top` words)?
    pub fn reads_top(&self) -> bool {
        self.alternatives.iter().flatten().any(|word| matches!(word, Word::Top(_)))
    }
}

/// A selector scripts ask about cards of a deck (`count`, `holds`): where
/// it does not relate faces to the top card, decided once for every face of
/// the deck, a bit per face (`variant::slot`), so that asking is a look-up.
#[derive(Debug)]
pub struct DeckSelector {
    selector: Selector,
    /// As the script wrote it (a trace shows it).
    written: crate::text::Text,
    /// The faces picked, a bit per slot (none where the top card decides).
    picked: Option<Box<[u64]>>,
}

impl DeckSelector {
    /// Is what it picks decided for the deck once (it does not relate a
    /// card to the top card)?
    pub fn decided(&self) -> bool {
        self.picked.is_some()
    }

    /// The selector as the script wrote it.
    pub fn written(&self) -> &str {
        &self.written
    }
}

impl PartialEq for DeckSelector {
    /// Selectors of one deck pick alike where their words are alike.
    fn eq(&self, other: &DeckSelector) -> bool {
        self.selector == other.selector
    }
}

impl Eq for DeckSelector {}

impl DeckSelector {
    /// `selector`, `written` so, decided for `variant`'s deck where it can be.
    pub fn new(selector: Selector, written: &str, variant: &crate::variant::Variant) -> DeckSelector {
        let picked = (!selector.reads_top()).then(|| {
            let mut picked = vec![0u64; (variant.designs.len() * 2).div_ceil(64)].into_boxed_slice();
            for (slot, face) in crate::variant::faces_by_slot(&variant.designs) {
                if selector.selects(&variant.names, face, None) {
                    picked[slot / 64] |= 1 << (slot % 64);
                }
            }
            picked
        });
        DeckSelector { selector, written: written.into(), picked }
    }

    /// Does the selector pick `card`, shown on `side`, while `top` is the
    /// top card (on that side)?
    #[inline]
    pub fn picks(&self, variant: &crate::variant::Variant, card: CardId, side: Side, top: Option<&Face>) -> bool {
        match &self.picked {
            Some(picked) => {
                let slot = crate::variant::slot(card, side);
                picked[slot / 64] & (1 << (slot % 64)) != 0
            }
            None => self.selector.selects(&variant.names, variant.face(card, side), top),
        }
    }
}

/// Does `face` carry `word` (`Word::Top` is decided by `TopNeed`)?
fn selects_word(names: &Names, face: &Face, word: Word) -> bool {
    match word {
        Word::Top(_) => true,
        Word::Any => true,
        Word::Number => face.number().is_some(),
        Word::Action => face.symbol().is_some() && !face.is_wild(),
        Word::Wild => face.is_wild(),
        Word::Marked => face.marked,
        Word::Flex => names.has_flex_side(face),
        Word::Draws => face.symbol().is_some_and(|s| names.symbol_info(s).draws > 0),
        Word::Group(group) => face.symbol().is_some_and(|s| names.symbol_info(s).group == group),
        Word::Value(value) => face.value == value,
        Word::Color(color) => face.color == Some(color),
        Word::FlexColor(color) => face.flex == Some(color),
        Word::Lacking => false,
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
        assert!(parse("red + 7").selects(&names, &red7, None));
        assert!(!parse("red + 7").selects(&names, &blue7, None));
        assert!(parse("group:skip").selects(&names, &flex_skip, None));
        assert!(!parse("skip").selects(&names, &flex_skip, None));
        assert!(!parse("draws").selects(&names, &flex_skip, None) && !parse("draws").selects(&names, &red7, None));
        let either = Selector::parse(&names, Some(&SelectorSpec::Any(vec!["red".into(), "skip".into()]))).unwrap();
        assert!(either.selects(&names, &red7, None) && !either.selects(&names, &blue7, None));
    }

    #[test]
    fn the_packed_check_picks_what_the_faces_check_picks() {
        use crate::variant::FaceKey;
        let names = names();
        let faces: Vec<Face> = ["red 7", "blue 7", "red 5", "red skip", "blue skip", "blue flex-skip"]
            .iter()
            .map(|f| names.parse_face(f).unwrap())
            .chain([Face { color: None, ..names.parse_face("red skip").unwrap() }])
            .collect();
        let key = |face: &Face| FaceKey::new(face, &names, (false, false), false);
        for need in (0..16).map(TopNeed) {
            for face in &faces {
                assert_eq!(key(face).picked(need, None), need.holds(face, None));
                for top in &faces {
                    assert_eq!(
                        key(face).picked(need, Some(key(top))),
                        need.holds(face, Some(top)),
                        "{face:?} on {top:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn top_words_relate_a_face_to_the_top_card() {
        let names = names();
        let parse = |s: &str| Selector::parse(&names, Some(&SelectorSpec::One(s.into()))).unwrap();
        let face = |s: &str| names.parse_face(s).unwrap();
        let (red7, blue7, red5, blue_skip) = (face("red 7"), face("blue 7"), face("red 5"), face("blue skip"));
        let top = parse("number + top");
        assert!(top.reads_top() && !parse("number").reads_top());
        assert!(top.selects(&names, &red7, Some(&red7)));
        assert!(!top.selects(&names, &red7, Some(&blue7)) && !top.selects(&names, &red7, Some(&red5)));
        assert!(!top.selects(&names, &red7, None), "an empty discard pile has no top card to be like");
        assert!(!top.selects(&names, &blue_skip, Some(&blue_skip)), "the other words still count");
        assert!(parse("top:color").selects(&names, &red7, Some(&red5)));
        assert!(parse("top:value").selects(&names, &red7, Some(&blue7)));
        assert!(!parse("top:value").selects(&names, &red7, Some(&red5)));
        // Alternatives each ask for their own relation: a red face needs
        // nothing, a blue one the top card's number.
        let either = Selector::parse(&names, Some(&SelectorSpec::Any(vec!["red".into(), "top:value".into()]))).unwrap();
        assert_eq!(either.top_need(&names, &red5), TopNeed(1 | 1 << TopNeed::VALUE));
        assert!(either.selects(&names, &red5, None));
        assert!(either.selects(&names, &blue7, Some(&red7)) && !either.selects(&names, &blue7, Some(&red5)));
        assert_eq!(parse("blue + top").top_need(&names, &red7), TopNeed::NEVER);
        let wild = Face { color: None, ..red7 };
        assert_eq!(parse("top:color").top_need(&names, &wild), TopNeed::NEVER, "a wild is of no colour");
        assert_eq!(parse("top:value").top_need(&names, &wild), TopNeed(1 << TopNeed::VALUE));
    }

    #[test]
    fn unknown_words_are_refused() {
        let names = names();
        let parse = |s: &str| Selector::parse(&names, Some(&SelectorSpec::One(s.into())));
        assert!(parse("sideways").unwrap_err().to_string().contains("'sideways' is not a selector"));
        assert!(parse("top:colr").unwrap_err().to_string().ends_with("did you mean 'top:color'?"));
        assert!(parse("group:draw2").unwrap_err().to_string().contains("there is no symbol 'draw2'"));
        // The error names the alternative it is in, as written, and the
        // word without the spaces around it.
        let either = Selector::parse(&names, Some(&SelectorSpec::Any(vec!["red".into(), "blue + 55x".into()])));
        let error = either.unwrap_err();
        assert_eq!(error.written, "blue + 55x");
        assert_eq!(error.to_string(), format!("red, blue + 55x: '55x' is not a selector ({WORDS})"));
    }
}
