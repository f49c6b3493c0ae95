//! Answers as scripts see them: a question's answer (`Answer`, a word or
//! a list) turned into a Rhai value, with the variant's names made into
//! script strings once.

use rhai::{Dynamic, ImmutableString};

use unolab_core::card::{CardId, Color, Direction, Side, SymbolId};
use unolab_core::rules::read::{Answer, CardList, Prop, Read, index, unpack_face};
use unolab_core::seat::Seat;
use unolab_core::turn::ScriptValue;
use unolab_core::variant::Variant;

/// What a card shows of `prop` (its word, `Prop::word`) as the script sees
/// it.
pub fn prop_value(prop: Prop, word: u64, names: &ScriptNames, variant: &Variant) -> Dynamic {
    match prop {
        Prop::Face => Dynamic::from(variant.names.format_face(&unpack_face(word))),
        Prop::Id => Dynamic::from(variant.card_name(CardId(word as u16))),
        Prop::Color | Prop::FlexColor => names.color(index(word)),
        Prop::Number => index(word).map_or(Dynamic::UNIT, |n: u8| Dynamic::from(i64::from(n))),
        Prop::Symbol | Prop::Group => names.symbol(index(word)),
        Prop::IsWild | Prop::IsNumber | Prop::IsAction | Prop::Marked | Prop::Restricted | Prop::HasFlex => {
            Dynamic::from(word != 0)
        }
        Prop::Points | Prop::Draws => Dynamic::from(word as i64),
    }
}

/// A host's text as a script string (not a value of a host type, which
/// compares with no string).
pub fn text(text: &unolab_core::text::Text) -> Dynamic {
    Dynamic::from(ImmutableString::from(text.as_str()))
}

/// A kept value as the script sees it.
pub fn script_value(value: &ScriptValue) -> Dynamic {
    match value {
        ScriptValue::Int(n) => Dynamic::from(*n),
        ScriptValue::Text(t) => text(t),
        ScriptValue::Bool(b) => Dynamic::from(*b),
    }
}

/// Script values of the variant's names, made once, so that answers
/// allocate nothing.
pub struct ScriptNames {
    colors: Vec<ImmutableString>,
    symbols: Vec<ImmutableString>,
}

impl ScriptNames {
    pub fn new(variant: &Variant) -> ScriptNames {
        let names = &variant.names;
        ScriptNames {
            colors: names.colors.iter().map(|c| c.as_str().into()).collect(),
            symbols: names.symbols.iter().map(|s| s.name.as_str().into()).collect(),
        }
    }

    pub fn color(&self, color: Option<Color>) -> Dynamic {
        color.map(|c| Dynamic::from(self.colors[c as usize].clone())).unwrap_or(Dynamic::UNIT)
    }

    pub fn symbol(&self, symbol: Option<SymbolId>) -> Dynamic {
        symbol.map(|s| Dynamic::from(self.symbols[s as usize].clone())).unwrap_or(Dynamic::UNIT)
    }
}

/// An answer to `read` as the script sees it.
pub fn answer_value(read: &Read, answer: &Answer, names: &ScriptNames, variant: &Variant) -> Dynamic {
    let word = match answer {
        Answer::Word(word) => *word,
        Answer::Ids(ids) => return Dynamic::from(ids.len() as i64),
        Answer::Seats(seats) => {
            return Dynamic::from_array(seats.iter().map(|&s| Dynamic::from(s as i64)).collect());
        }
        Answer::Numbers(numbers) => {
            return Dynamic::from_array(numbers.iter().map(|&n| Dynamic::from(n)).collect());
        }
        Answer::Value(value) => return value.as_ref().map_or(Dynamic::UNIT, script_value),
        Answer::Penalty(p) => {
            return p.as_ref().map_or(Dynamic::UNIT, |p| Dynamic::from(super::convert::penalty_to_map(variant, p)));
        }
    };
    match read {
        Read::Prop { prop, .. } => prop_value(*prop, word, names, variant),
        Read::AsFlex
        | Read::Cards(CardList::Top | CardList::Drawn)
        | Read::GoingOut
        | Read::Power(_)
        | Read::TopIsFresh
        | Read::Playing(_)
        | Read::InHand { .. }
        | Read::Playable(_)
        | Read::MatchesTop(_)
        | Read::Holds { .. } => Dynamic::from(word != 0),
        Read::Target | Read::LastPlayer => index(word).map_or(Dynamic::UNIT, |s: Seat| Dynamic::from(s as i64)),
        Read::Color | Read::PrevColor => names.color(index(word)),
        Read::Direction => {
            let direction = if word != 0 { Direction::Counterclockwise } else { Direction::Clockwise };
            Dynamic::from(direction.name())
        }
        Read::Side => Dynamic::from(if word != 0 { Side::Dark } else { Side::Light }.name()),
        _ => Dynamic::from(word as i64),
    }
}
