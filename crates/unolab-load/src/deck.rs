//! Deck building: card templates (`{color}`, `{1-9}`) expanded into card
//! designs with their copies, the light // dark side check, and the seeded
//! re-pairing of a double-sided deck's faces.

use rand::SeedableRng;
use rand::seq::SliceRandom;

use unolab_core::card::{CardDef, CardId, Face};
use unolab_core::notation::Names;

/// Distinct designs with their copies, in the order first written.
#[derive(Debug, Default)]
pub struct Designs {
    pub designs: Vec<CardDef>,
    pub copies: Vec<u32>,
}

impl Designs {
    /// Adds `count` copies of `card`.
    pub fn add(&mut self, card: CardDef, count: u32) {
        match self.designs.iter().position(|d| *d == card) {
            Some(i) => self.copies[i] += count,
            None => {
                self.designs.push(card);
                self.copies.push(count);
            }
        }
    }

    /// Every physical card, in canonical (unshuffled) order.
    pub fn deck(&self) -> Vec<CardId> {
        self.copies.iter().enumerate().flat_map(|(i, &n)| std::iter::repeat_n(CardId(i as u16), n as usize)).collect()
    }
}

/// Expands `{color}` (every light colour) and `{A-B}` (numbers) in a
/// template, in order: the first placeholder varies slowest. What a
/// placeholder puts in is not read again (a colour named `{color}` is only
/// text), and a template may make at most `limits::TEMPLATE_CARDS` cards.
pub fn expand(template: &str, colors: &[String]) -> Result<Vec<String>, String> {
    // The template as literal text between placeholders' choices.
    let mut literals = Vec::new();
    let mut choices: Vec<Vec<String>> = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let close = rest[open..].find('}').map(|i| open + i).ok_or_else(|| format!("'{template}': unclosed '{{'"))?;
        let inner = &rest[open + 1..close];
        let values: Vec<String> = if inner == "color" {
            colors.to_vec()
        } else if let Some((a, b)) = inner.split_once('-') {
            match (a.trim().parse::<u8>(), b.trim().parse::<u8>()) {
                (Ok(a), Ok(b)) if a <= b => (a..=b).map(|n| n.to_string()).collect(),
                _ => return Err(format!("'{template}': '{{{inner}}}' is not a range like {{1-9}}")),
            }
        } else {
            return Err(format!("'{template}': unknown placeholder '{{{inner}}}' (use {{color}} or {{1-9}})"));
        };
        literals.push(&rest[..open]);
        choices.push(values);
        rest = &rest[close + 1..];
    }
    let total = choices.iter().try_fold(1usize, |n, values| n.checked_mul(values.len()));
    let limit = unolab_core::limits::TEMPLATE_CARDS;
    if total.is_none_or(|n| n > limit) {
        return Err(format!("'{template}' would make more than {limit} cards"));
    }
    let mut out = vec![String::new()];
    for (literal, values) in literals.iter().zip(&choices) {
        out = out.iter().flat_map(|made| values.iter().map(move |value| format!("{made}{literal}{value}"))).collect();
    }
    Ok(out.into_iter().map(|made| made + rest).collect())
}

/// A dark face must use dark colours and a light face light ones.
pub fn side_problem(names: &Names, card: &CardDef) -> Option<&'static str> {
    let wrong = |face: &Face, dark: bool| face.color.into_iter().chain(face.flex).any(|c| names.is_dark(c) != dark);
    if wrong(&card.light, false) {
        return Some("the light side uses a dark colour");
    }
    match &card.dark {
        Some(dark) if wrong(dark, true) => Some("the dark side uses a light colour"),
        _ => None,
    }
}

/// Pairs the deck's light and dark faces anew at random, seeded: the same
/// faces on each side, in a different pairing.
pub fn repair_faces(designs: &Designs, seed: u64) -> Designs {
    let physical: Vec<CardDef> = designs.deck().iter().map(|&id| designs.designs[id.0 as usize]).collect();
    let mut darks: Vec<Option<Face>> = physical.iter().map(|card| card.dark).collect();
    darks.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
    let mut paired = Designs::default();
    for (card, dark) in physical.iter().zip(darks) {
        paired.add(CardDef { light: card.light, dark }, 1);
    }
    paired
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_expand_in_order() {
        let colors = vec!["red".to_string(), "blue".to_string()];
        assert_eq!(expand("{color} {1-2}", &colors).unwrap(), ["red 1", "red 2", "blue 1", "blue 2"]);
        assert!(expand("{colour} 1", &colors).unwrap_err().contains("unknown placeholder"));
        assert!(expand("{color 1", &colors).unwrap_err().contains("unclosed"));
        // What a colour puts in is text, not another placeholder.
        assert_eq!(expand("{color} 1", &["{color}".to_string()]).unwrap(), ["{color} 1"]);
        let huge = "red {0-9}{0-9}{0-9}{0-9}{0-9}";
        assert!(expand(huge, &colors).unwrap_err().contains("more than 10000 cards"));
    }
}
