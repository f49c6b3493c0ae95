//! Card notation (scenarios.md): the names a variant gives its colours and
//! symbols, and parsing and printing of faces and cards in that notation.
//! Whatever is printed parses back to the same card.

use std::collections::HashMap;

use crate::card::{CardDef, Color, Face, SymbolId, Value};

/// One symbol (action or wild type) of a variant.
#[derive(Debug, Clone)]
pub struct Symbol {
    pub name: String,
    pub aliases: Vec<String>,
    pub points: i64,
    pub wild: bool,
    pub flex: bool,
    pub restricted: bool,
    /// How many cards a play of it makes someone draw (`draws:`; scripts
    /// read `card.draws`).
    pub draws: u32,
    /// A wild whose player names the colour in play (`names_color: false`
    /// leaves naming to a rule, e.g. to the victim).
    pub names_color: bool,
    /// The symbol this one matches by symbol (itself unless `matches:` says).
    pub group: SymbolId,
    pub description: String,
}

/// Colour and symbol names of a variant.
#[derive(Debug, Clone, Default)]
pub struct Names {
    /// Light colours first, then dark colours.
    pub colors: Vec<String>,
    pub light_colors: usize,
    pub symbols: Vec<Symbol>,
    symbol_lookup: HashMap<String, SymbolId>,
}

/// A card named in a step or expectation: one face (compared with the face
/// in play) or both faces of a double-sided card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardPattern {
    Face(Face),
    Card(CardDef),
}

impl Names {
    pub fn new(light: Vec<String>, dark: Vec<String>, symbols: Vec<Symbol>) -> Names {
        let light_colors = light.len();
        let mut colors = light;
        colors.extend(dark);
        let mut symbol_lookup = HashMap::new();
        for (id, symbol) in symbols.iter().enumerate() {
            for name in std::iter::once(&symbol.name).chain(&symbol.aliases) {
                symbol_lookup.insert(name.to_ascii_lowercase(), id as SymbolId);
            }
        }
        Names { colors, light_colors, symbols, symbol_lookup }
    }

    pub fn color(&self, name: &str) -> Option<Color> {
        let name = name.trim();
        self.colors.iter().position(|c| c.eq_ignore_ascii_case(name)).map(|i| i as Color)
    }

    pub fn color_name(&self, color: Color) -> &str {
        &self.colors[color as usize]
    }

    pub fn symbol(&self, name: &str) -> Option<SymbolId> {
        self.symbol_lookup.get(&name.to_ascii_lowercase()).copied()
    }

    pub fn symbol_info(&self, id: SymbolId) -> &Symbol {
        &self.symbols[id as usize]
    }

    /// Is `color` one of the dark side's colours?
    pub fn is_dark(&self, color: Color) -> bool {
        color as usize >= self.light_colors
    }

    /// Parses one face: `red 5`, `red 5*`, `yellow/green 1`, `red skip`, `wild`.
    pub fn parse_face(&self, text: &str) -> Result<Face, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let bad = |why: &str| Err(format!("'{}': {why}", text.trim()));
        match words.as_slice() {
            [] => bad("empty card"),
            [single] => match self.symbol(single) {
                Some(id) if self.symbols[id as usize].wild => {
                    Ok(Face { color: None, flex: None, value: Value::Symbol(id), marked: false })
                }
                Some(_) => bad("this card needs a colour, e.g. 'red skip'"),
                None if self.color(single).is_some() => bad("a colour needs a number or symbol"),
                None => bad("unknown card"),
            },
            [colors, value] => {
                let (regular, flex) = match colors.split_once('/') {
                    Some((regular, flex)) => (regular, Some(flex)),
                    None => (*colors, None),
                };
                let Some(color) = self.color(regular) else {
                    return bad(&format!("unknown colour '{regular}'"));
                };
                let flex = match flex {
                    Some(name) => match self.color(name) {
                        Some(c) => Some(c),
                        None => return bad(&format!("unknown colour '{name}'")),
                    },
                    None => None,
                };
                let (value_text, marked) = match value.strip_suffix('*') {
                    Some(v) => (v, true),
                    None => (*value, false),
                };
                let number =
                    value_text.bytes().all(|b| b.is_ascii_digit()).then(|| value_text.parse::<u8>().ok()).flatten();
                let value = if let Some(n) = number {
                    Value::Number(n)
                } else {
                    match self.symbol(value_text) {
                        Some(id) if self.symbols[id as usize].wild => {
                            return bad("a wild card has no colour");
                        }
                        Some(id) => Value::Symbol(id),
                        None => return bad(&format!("unknown number or symbol '{value_text}'")),
                    }
                };
                if marked && !matches!(value, Value::Number(_)) {
                    return bad("only numbers carry the '*' mark");
                }
                Ok(Face { color: Some(color), flex, value, marked })
            }
            _ => bad("too many words for one card"),
        }
    }

    /// Parses a whole card: a face, or `light // dark`.
    pub fn parse_card(&self, text: &str) -> Result<CardDef, String> {
        match text.split_once("//") {
            Some((light, dark)) => Ok(CardDef { light: self.parse_face(light)?, dark: Some(self.parse_face(dark)?) }),
            None => Ok(CardDef { light: self.parse_face(text)?, dark: None }),
        }
    }

    /// Parses a card as named in a step or expectation.
    pub fn parse_pattern(&self, text: &str) -> Result<CardPattern, String> {
        if text.contains("//") {
            self.parse_card(text).map(CardPattern::Card)
        } else {
            self.parse_face(text).map(CardPattern::Face)
        }
    }

    pub fn format_face(&self, face: &Face) -> String {
        let value = match face.value {
            Value::Number(n) => format!("{n}{}", if face.marked { "*" } else { "" }),
            Value::Symbol(s) => self.symbols[s as usize].name.clone(),
        };
        match (face.color, face.flex) {
            (None, _) => value,
            (Some(c), None) => format!("{} {value}", self.color_name(c)),
            (Some(c), Some(f)) => format!("{}/{} {value}", self.color_name(c), self.color_name(f)),
        }
    }

    pub fn format_card(&self, card: &CardDef) -> String {
        match &card.dark {
            Some(dark) => format!("{} // {}", self.format_face(&card.light), self.format_face(dark)),
            None => self.format_face(&card.light),
        }
    }

    /// Points of a face: numbers score their value, symbols their table entry.
    pub fn points(&self, face: &Face) -> i64 {
        match face.value {
            Value::Number(n) => i64::from(n),
            Value::Symbol(s) => self.symbols[s as usize].points,
        }
    }

    /// Does a play of this face name the colour in play (a wild whose
    /// player names it)?
    pub fn names_color(&self, face: &Face) -> bool {
        face.is_wild() && face.symbol().is_none_or(|s| self.symbols[s as usize].names_color)
    }

    /// Does the face have a flex side: a flex colour, or a flex symbol?
    pub fn has_flex_side(&self, face: &Face) -> bool {
        face.flex.is_some() || face.symbol().is_some_and(|s| self.symbols[s as usize].flex)
    }

    /// Two faces match by value: the same number, or symbols of one group.
    pub fn same_value(&self, a: &Face, b: &Face) -> bool {
        match (a.value, b.value) {
            (Value::Number(x), Value::Number(y)) => x == y,
            (Value::Symbol(x), Value::Symbol(y)) => self.symbols[x as usize].group == self.symbols[y as usize].group,
            _ => false,
        }
    }
}

impl CardPattern {
    /// Does `card` fit this pattern while `side` is in play?
    pub fn matches(&self, card: &CardDef, side: crate::card::Side) -> bool {
        match self {
            CardPattern::Face(face) => card.face(side) == face,
            CardPattern::Card(def) => card == def,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Names {
        let symbol = |name: &str, wild: bool, group: SymbolId| Symbol {
            name: name.into(),
            aliases: if name == "draw2" { vec!["+2".into()] } else { vec![] },
            points: 20,
            wild,
            flex: false,
            restricted: false,
            draws: 0,
            names_color: true,
            group,
            description: String::new(),
        };
        Names::new(
            ["red", "yellow", "green", "blue"].map(String::from).to_vec(),
            ["pink", "teal"].map(String::from).to_vec(),
            vec![symbol("skip", false, 0), symbol("draw2", false, 1), symbol("wild", true, 2)],
        )
    }

    #[test]
    fn every_form_round_trips() {
        let names = names();
        for text in ["red 5", "yellow/green 1", "red 2*", "blue skip", "wild", "green 2 // teal skip"] {
            let card = names.parse_card(text).unwrap();
            assert_eq!(names.format_card(&card), text);
        }
    }

    #[test]
    fn aliases_and_case_are_accepted() {
        let names = names();
        assert_eq!(names.parse_card("RED +2").unwrap(), names.parse_card("red draw2").unwrap());
    }

    #[test]
    fn bad_cards_say_why() {
        let names = names();
        assert!(names.parse_face("red").unwrap_err().contains("needs a number"));
        assert!(names.parse_face("red wild").unwrap_err().contains("no colour"));
        assert!(names.parse_face("skip").unwrap_err().contains("needs a colour"));
        assert!(names.parse_face("mauve 3").unwrap_err().contains("unknown colour"));
        assert!(names.parse_face("red skip*").unwrap_err().contains("only numbers"));
        assert!(names.parse_face("red 1 2").unwrap_err().contains("too many"));
    }
}
