//! What rules read from the game. Every host function that answers from
//! the table is a `Read`, answered natively by `Read::answer` as an
//! `Answer`: the same code serves a running script and the memo, which
//! checks a recorded call's reads against the table without running Rhai.
//!
//! Cards a script gets from a question (the top card, the drawn card, a
//! hand, the playable cards) carry where they came from (`CardSource`), and
//! what the script reads of them (its colour, its number...) is a `Read`
//! too, so that a recorded call depends on exactly what it looked at: "the
//! top card is a 5", not "the top card is this red 5".

use std::rc::Rc;

use crate::card::{CardId, Color, Direction, Face, Side, Value};
use crate::notation::Names;
use crate::rules::{CallInfo, CardHandle};
use crate::seat::Seat;
use crate::table::Table;
use crate::turn::{Penalty, Phase, ScriptValue};
use crate::variant::Variant;
use crate::variant::selector::DeckSelector;

/// A list of cards scripts can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CardList {
    Top,
    Drawn,
    Hand(Seat),
    Playable,
    /// The draw pile, from its top.
    Draw,
    /// The card the hook is about (its argument), on the side it showed
    /// when the call began: a fact of the call.
    Arg,
}

/// Where a card a script holds came from: the `index`th of a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CardSource {
    pub list: CardList,
    pub index: u16,
}

/// What a script reads of a card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Prop {
    /// The whole face in play (its name, comparisons).
    Face,
    /// The whole card, both faces (`card.card`, host functions taking it).
    Id,
    Color,
    FlexColor,
    Number,
    Symbol,
    Group,
    IsWild,
    IsNumber,
    IsAction,
    Marked,
    Restricted,
    HasFlex,
    Points,
    Draws,
}

impl Prop {
    /// Every property (`Prop::Draws` is the last: `CardWords` keeps a word
    /// for each number up to it).
    pub const ALL: [Prop; Prop::Draws as usize + 1] = [
        Prop::Face,
        Prop::Id,
        Prop::Color,
        Prop::FlexColor,
        Prop::Number,
        Prop::Symbol,
        Prop::Group,
        Prop::IsWild,
        Prop::IsNumber,
        Prop::IsAction,
        Prop::Marked,
        Prop::Restricted,
        Prop::HasFlex,
        Prop::Points,
        Prop::Draws,
    ];

    /// What the card shows of this property, as an answer's word.
    #[inline]
    pub fn word(self, id: CardId, face: &Face, names: &Names) -> u64 {
        let symbol = |value: Value| match value {
            Value::Symbol(s) => Some(s),
            Value::Number(_) => None,
        };
        match self {
            Prop::Face => face_word(face),
            Prop::Id => u64::from(id.0),
            Prop::Color => some_word(face.color),
            Prop::FlexColor => some_word(face.flex),
            Prop::Number => some_word(face.number()),
            Prop::Symbol => some_word(symbol(face.value)),
            Prop::Group => some_word(symbol(face.value).map(|s| names.symbol_info(s).group)),
            Prop::IsWild => u64::from(face.is_wild()),
            Prop::IsNumber => u64::from(face.number().is_some()),
            Prop::IsAction => u64::from(face.symbol().is_some() && !face.is_wild()),
            Prop::Marked => u64::from(face.marked),
            Prop::Restricted => u64::from(face.symbol().is_some_and(|s| names.symbol_info(s).restricted)),
            Prop::HasFlex => u64::from(names.has_flex_side(face)),
            Prop::Points => names.points(face) as u64,
            Prop::Draws => face.symbol().map_or(0, |s| u64::from(names.symbol_info(s).draws)),
        }
    }
}

/// What every card shows of every property on each side (`Prop::word`),
/// worked out once per variant, so that the memo checks a recorded read of
/// a card with one look: by property, then card and side.
pub struct CardWords {
    words: Box<[u64]>,
    /// Cards times sides: the words of one property.
    per_prop: usize,
}

impl CardWords {
    pub fn new(variant: &Variant) -> CardWords {
        let per_prop = variant.designs.len() * 2;
        let mut words = vec![0; per_prop * Prop::ALL.len()].into_boxed_slice();
        for prop in Prop::ALL {
            for id in (0..variant.designs.len()).map(|id| CardId(id as u16)) {
                for side in [Side::Light, Side::Dark] {
                    words[CardWords::at(per_prop, prop, id, side)] =
                        prop.word(id, variant.face(id, side), &variant.names);
                }
            }
        }
        CardWords { words, per_prop }
    }

    /// What card `id` shows of `prop` on `side` (`Prop::word`).
    #[inline(always)]
    pub fn word(&self, prop: Prop, id: CardId, side: Side) -> u64 {
        self.words[CardWords::at(self.per_prop, prop, id, side)]
    }

    /// Where the word of `prop` of card `id` on `side` is kept: by
    /// property, then in the variant's per-face order (`variant::slot`).
    #[inline(always)]
    fn at(per_prop: usize, prop: Prop, id: CardId, side: Side) -> usize {
        prop as usize * per_prop + crate::variant::slot(id, side)
    }
}

/// The card a question about one card names: where the script got it,
/// found there again whenever the question is checked (so that calls about
/// different cards at that place share a path, as they do for what they
/// read of it), or, for a card from no list, the card itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CardRef {
    At(CardSource),
    Id(CardId),
}

impl CardRef {
    /// The card a rule holds, named as a question about it names it.
    pub fn of(card: &CardHandle) -> CardRef {
        card.source.map_or(CardRef::Id(card.id), CardRef::At)
    }

    /// The card named, now.
    fn card(self, table: &Table, call: &CallInfo) -> Result<CardId, String> {
        match self {
            CardRef::At(source) => card_at(source.list, usize::from(source.index), table, call),
            CardRef::Id(id) => Ok(id),
        }
    }

    /// Is it the card the call is about, or one of the playable cards it
    /// was given (which another call may not have)?
    fn of_the_call(self) -> bool {
        matches!(self, CardRef::At(CardSource { list: CardList::Arg | CardList::Playable, .. }))
    }
}

/// A fact of the play a predicate is asked about (`Read::of_play`), a bit
/// each (the memo tests several at once).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum PlayFact {
    /// The card played.
    Card = 1,
    /// Whether it is played on its flex side.
    Side = 2,
    /// The seat it aims at.
    Target = 4,
}

/// One question a script asks about the game.
#[derive(Debug, Clone, PartialEq)]
pub enum Read {
    /// Who plays (or turned up) the card, or whom the hook is about.
    Me,
    AsFlex,
    Target,
    GoingOut,
    Current,
    Dealer,
    /// The seat `steps` after the one the hook is about.
    NextPlayer {
        steps: usize,
    },
    /// The seat `steps` after `from` in the direction of play.
    SeatAfter {
        from: Seat,
        steps: usize,
    },
    Direction,
    Color,
    PrevColor,
    Side,
    HandSize(Seat),
    /// A list of cards: whether the one card is there, or how many.
    Cards(CardList),
    /// Something of one card of a list.
    Prop {
        source: CardSource,
        prop: Prop,
    },
    DrawSize,
    DiscardSize,
    Answering,
    PendingPenalty,
    Power(Seat),
    TopIsFresh,
    LastPlayer,
    Score(Seat),
    Points(Seat),
    /// Every seat's match score, by seat.
    Scores,
    /// What every seat's hand is worth, by seat.
    AllPoints,
    /// A value of the match's state, of the table (`seat: None`) or a seat.
    State {
        seat: Option<Seat>,
        name: crate::text::Text,
    },
    /// Is the seat still in the hand?
    Playing(Seat),
    SeatsLeft,
    /// The seats still in the hand holding `at_least` cards or more, in
    /// seat order.
    SeatsHolding {
        at_least: usize,
    },
    /// The places of a hand that is over.
    Ranking,
    /// Does `seat` hold this very card?
    InHand {
        seat: Seat,
        card: CardId,
    },
    /// The cards of `seat`'s hand the selector picks (face in play).
    Matching {
        seat: Seat,
        selector: Rc<DeckSelector>,
    },
    /// The top cards of the draw pile: how many there are of the `count`
    /// asked for.
    Peek {
        count: usize,
    },
    /// How many of `count` cards there are to draw (the draw pile, and the
    /// discard pile but its top).
    Drawable {
        count: u32,
    },
    /// May a value be kept under `name` (of the table, or a seat): it is
    /// kept already, or there is room for one more.
    StateRoom {
        seat: Option<Seat>,
        name: crate::text::Text,
    },
    /// Is the card among the playable cards the call was given?
    Playable(CardRef),
    /// Does the card's face in play match the top card?
    MatchesTop(CardRef),
    /// How many cards of `seat`'s hand the selector picks (face in play).
    Count {
        seat: Seat,
        selector: Rc<DeckSelector>,
    },
    /// Does the selector pick any card of `seat`'s hand?
    Holds {
        seat: Seat,
        selector: Rc<DeckSelector>,
    },
}

/// The answer to a `Read`, comparable, so that a recorded call can be
/// checked. Most answers are one word (a number, a flag, a seat, a colour, a
/// face), compared at once; what a word means depends on the question
/// (`Read::script_value` turns it into the script's value). Answers of one
/// question are always of one kind, so words of different meanings are never
/// compared.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Answer {
    Word(u64),
    Ids(Box<[CardId]>),
    Seats(Box<[Seat]>),
    Numbers(Box<[i64]>),
    Value(Option<ScriptValue>),
    Penalty(Option<Box<Penalty>>),
}

/// The word of "nothing" (`()` to the script) where a question may have no
/// answer.
pub const NOTHING: u64 = u64::MAX;

impl Answer {
    pub const fn bool(yes: bool) -> Answer {
        Answer::Word(yes as u64)
    }

    pub const fn int(n: i64) -> Answer {
        Answer::Word(n as u64)
    }

    /// A small index (a seat, colour, symbol, number), or nothing.
    #[inline]
    pub fn some<T: Into<u64>>(value: Option<T>) -> Answer {
        Answer::Word(some_word(value))
    }

    fn seat(seat: Option<Seat>) -> Answer {
        Answer::Word(seat_word(seat))
    }

    /// The small index of a word answer, if it is one and not nothing.
    pub fn index<T: TryFrom<u64>>(&self) -> Option<T> {
        match *self {
            Answer::Word(word) => index(word),
            _ => None,
        }
    }
}

/// The word of a small index (a seat, colour, symbol, number), or of
/// nothing.
#[inline]
fn some_word<T: Into<u64>>(value: Option<T>) -> u64 {
    value.map_or(NOTHING, Into::into)
}

/// The word of a seat, or of nothing.
#[inline]
fn seat_word(seat: Option<Seat>) -> u64 {
    seat.map_or(NOTHING, |s| s as u64)
}

/// The word of a face, packed: colour, flex colour, value and mark, a byte
/// each.
fn face_word(face: &Face) -> u64 {
    let byte = |c: Option<Color>| u64::from(c.map_or(u8::MAX, |c| c));
    let value = match face.value {
        Value::Number(n) => u64::from(n),
        Value::Symbol(s) => 1 << 8 | u64::from(s),
    };
    byte(face.color) | byte(face.flex) << 8 | value << 16 | u64::from(face.marked) << 32
}

/// The small index a word holds, or `None` for nothing.
pub fn index<T: TryFrom<u64>>(word: u64) -> Option<T> {
    if word == NOTHING { None } else { T::try_from(word).ok() }
}

/// The face a word packed by `face_word` holds.
pub fn unpack_face(word: u64) -> Face {
    let color = |byte: u64| match (byte & 0xFF) as u8 {
        u8::MAX => None,
        c => Some(c),
    };
    let byte = ((word >> 16) & 0xFF) as u8;
    Face {
        color: color(word),
        flex: color(word >> 8),
        value: if word >> 24 & 1 == 1 { Value::Symbol(byte) } else { Value::Number(byte) },
        marked: word >> 32 & 1 == 1,
    }
}

/// A question answered as one word (`Read::quick`): the commonest straight
/// from a field, those about a card of a list or a list's size
/// (`Quick::OfList`) with one look further. The memo keeps it with each
/// recorded read, so that checking a path does not work the question out
/// again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quick {
    /// Something of the card the call is about.
    ArgProp(Prop),
    /// Something of the top card.
    TopProp(Prop),
    Me,
    AsFlex,
    Target,
    GoingOut,
    PrevColor,
    TopIsFresh,
    Current,
    /// The seat this many after the one the call is about.
    NextPlayer(u16),
    Color,
    Side,
    Direction,
    HandSize(u16),
    Power(u16),
    Playing(u16),
    /// Is there a top card, a drawn card?
    HasTop,
    HasDrawn,
    DrawSize,
    LastPlayer,
    Score(u16),
    Points(u16),
    /// A question about a card of a list, or a list's size, answered from
    /// the read (`Read::list_word`), where the list, place and property
    /// are kept: kept here too, they would make every recorded read larger.
    OfList,
}

impl Quick {
    /// The answer's word; `None` where the question has no quick answer
    /// (the card asked about is gone, no such seat: the general way says
    /// why).
    #[inline(always)]
    pub fn word(self, table: &Table, call: &CallInfo, variant: &Variant) -> Option<u64> {
        Some(match self {
            Quick::ArgProp(prop) => {
                let (id, side) = call.card?;
                prop.word(id, variant.face(id, side), &variant.names)
            }
            Quick::TopProp(prop) => {
                let &id = table.discard.last()?;
                prop.word(id, variant.face(id, table.side), &variant.names)
            }
            Quick::Me => call.me as u64,
            Quick::AsFlex => u64::from(call.as_flex),
            Quick::TopIsFresh => u64::from(table.landing.is_fresh()),
            _ => return self.word_of_rest(table, call, variant),
        })
    }

    /// `word` of the less common quick questions, kept out of line so that
    /// the commonest stay short.
    #[inline(never)]
    fn word_of_rest(self, table: &Table, call: &CallInfo, variant: &Variant) -> Option<u64> {
        Some(match self {
            Quick::Target => seat_word(call.target),
            Quick::GoingOut => u64::from(call.going_out),
            Quick::PrevColor => some_word(call.prev_color),
            Quick::Current => table.to_act() as u64,
            Quick::NextPlayer(steps) => table.seat_after(call.me, usize::from(steps)) as u64,
            Quick::Color => some_word(table.color),
            Quick::Side => u64::from(table.side == Side::Dark),
            Quick::Direction => u64::from(table.direction == Direction::Counterclockwise),
            Quick::HandSize(seat) => table.hands.get(usize::from(seat))?.len() as u64,
            Quick::Power(seat) => u64::from(*table.power.get(usize::from(seat))?),
            Quick::Playing(seat) => {
                let seat = usize::from(seat);
                u64::from(table.playing((seat < table.players()).then_some(seat)?))
            }
            Quick::HasTop => u64::from(!table.discard.is_empty()),
            Quick::HasDrawn => u64::from(matches!(table.phase(), Phase::Drawn(_))),
            Quick::DrawSize => table.draw.len() as u64,
            Quick::LastPlayer => seat_word(table.landing.player()),
            Quick::Score(seat) => *table.scores.get(usize::from(seat))? as u64,
            Quick::Points(seat) => {
                let seat = usize::from(seat);
                table.hand_points(variant, (seat < table.players()).then_some(seat)?) as u64
            }
            Quick::ArgProp(_) | Quick::TopProp(_) | Quick::Me | Quick::AsFlex | Quick::TopIsFresh => {
                unreachable!("answered inline")
            }
            Quick::OfList => unreachable!("answered from the read (`Read::list_word`)"),
        })
    }
}

/// The cards of a list, now.
#[inline]
pub(crate) fn cards_of<'a>(list: CardList, table: &'a Table, call: &'a CallInfo) -> Result<&'a [CardId], String> {
    Ok(match list {
        CardList::Top => table.discard.last().map(std::slice::from_ref).unwrap_or(&[]),
        CardList::Drawn => match table.phase() {
            crate::turn::Phase::Drawn(card) => std::slice::from_ref(card),
            _ => &[],
        },
        CardList::Hand(seat) => match table.hands.get(seat) {
            Some(hand) => hand,
            None => return Err(format!("no player {seat} at a table of {}", table.players())),
        },
        CardList::Playable => match &call.playable {
            Some(cards) => cards,
            None => return Err("playable cards are only known in can_draw, can_pass and draw_again hooks".into()),
        },
        // Indexed from the top: see `card_at`.
        CardList::Draw => &table.draw,
        CardList::Arg => call.card.as_ref().map(|(id, _)| std::slice::from_ref(id)).unwrap_or(&[]),
    })
}

/// The card at `source` now, and the side it shows: the card a call is
/// about shows the side it was offered with; any other card, the side in
/// play.
pub fn card_now(source: CardSource, table: &Table, call: &CallInfo) -> Result<(CardId, Side), String> {
    let id = card_at(source.list, usize::from(source.index), table, call)?;
    let side = match (source.list, call.card) {
        (CardList::Arg, Some((_, side))) => side,
        _ => table.side,
    };
    Ok((id, side))
}

/// The `index`th card of a list (the draw pile counts from its top).
fn card_at(list: CardList, index: usize, table: &Table, call: &CallInfo) -> Result<CardId, String> {
    let cards = cards_of(list, table, call)?;
    let at = if list == CardList::Draw { cards.len().checked_sub(index + 1) } else { Some(index) };
    at.and_then(|i| cards.get(i)).copied().ok_or_else(|| "the card is gone".into())
}

impl Read {
    /// Is the answer a fact of the call alone (who plays, how), which no
    /// change to the table can alter?
    pub fn of_call(&self) -> bool {
        matches!(
            self,
            Read::Me
                | Read::AsFlex
                | Read::Target
                | Read::GoingOut
                | Read::PrevColor
                | Read::Prop { source: CardSource { list: CardList::Arg, .. }, .. }
        )
    }

    /// Which fact of the play the call is about the answer is, if any: they
    /// differ between the plays one seat could make at one moment.
    pub fn of_play(&self) -> Option<PlayFact> {
        match self {
            Read::AsFlex => Some(PlayFact::Side),
            Read::Target => Some(PlayFact::Target),
            Read::Cards(CardList::Arg)
            | Read::Prop { source: CardSource { list: CardList::Arg, .. }, .. }
            | Read::Playable(CardRef::At(CardSource { list: CardList::Arg, .. }))
            | Read::MatchesTop(CardRef::At(CardSource { list: CardList::Arg, .. })) => Some(PlayFact::Card),
            _ => None,
        }
    }

    /// Does the answer depend on the call at all (who asks, about which
    /// card, with which cards playable), or only on the table?
    pub fn depends_on_call(&self) -> bool {
        self.of_call()
            || matches!(
                self,
                Read::NextPlayer { .. }
                    | Read::Answering
                    | Read::Playable(_)
                    | Read::Cards(CardList::Playable | CardList::Arg)
                    | Read::Prop { source: CardSource { list: CardList::Playable, .. }, .. }
            )
            || matches!(self, Read::MatchesTop(card) if card.of_the_call())
    }

    /// Answers the question from the table and the call. Quick questions
    /// (`Read::quick`) are answered as one word, without allocating; debug
    /// builds check those answers against the general way.
    #[inline]
    pub fn answer(&self, table: &Table, call: &CallInfo, variant: &Variant) -> Result<Answer, String> {
        let word = match self.quick() {
            Some(Quick::OfList) => self.list_word(table, call, variant).ok(),
            Some(quick) => quick.word(table, call, variant),
            None => None,
        };
        match word {
            Some(word) => {
                debug_assert_eq!(Ok(&Answer::Word(word)), self.answer_from_game(table, call, variant).as_ref());
                Ok(Answer::Word(word))
            }
            None => self.answer_from_game(table, call, variant),
        }
    }

    /// The question as a quick one, if its answer is one word: no
    /// allocation, and an error only where the general way says why.
    pub fn quick(&self) -> Option<Quick> {
        Some(match *self {
            Read::Prop { source: CardSource { list: CardList::Arg, index: 0 }, prop } => Quick::ArgProp(prop),
            Read::Prop { source: CardSource { list: CardList::Top, index: 0 }, prop } => Quick::TopProp(prop),
            Read::Me => Quick::Me,
            Read::AsFlex => Quick::AsFlex,
            Read::Target => Quick::Target,
            Read::GoingOut => Quick::GoingOut,
            Read::PrevColor => Quick::PrevColor,
            Read::TopIsFresh => Quick::TopIsFresh,
            Read::Current => Quick::Current,
            Read::NextPlayer { steps } => Quick::NextPlayer(u16::try_from(steps).ok()?),
            Read::Color => Quick::Color,
            Read::Side => Quick::Side,
            Read::Direction => Quick::Direction,
            Read::HandSize(seat) => Quick::HandSize(u16::try_from(seat).ok()?),
            Read::Power(seat) => Quick::Power(u16::try_from(seat).ok()?),
            Read::Playing(seat) => Quick::Playing(u16::try_from(seat).ok()?),
            Read::Cards(CardList::Top) => Quick::HasTop,
            Read::Cards(CardList::Drawn) => Quick::HasDrawn,
            Read::DrawSize => Quick::DrawSize,
            Read::LastPlayer => Quick::LastPlayer,
            Read::Score(seat) => Quick::Score(u16::try_from(seat).ok()?),
            Read::Points(seat) => Quick::Points(u16::try_from(seat).ok()?),
            Read::Cards(_) | Read::Prop { .. } | Read::Playable(_) | Read::MatchesTop(_) => Quick::OfList,
            _ => return None,
        })
    }

    /// The word of a question about a card of a list or a list's size
    /// (`Quick::OfList`), the quick way and the general way alike; why not
    /// where there is none (the card is gone, no such list).
    #[inline(never)]
    pub fn list_word(&self, table: &Table, call: &CallInfo, variant: &Variant) -> Result<u64, String> {
        Ok(match *self {
            Read::Cards(list) => cards_of(list, table, call)?.len() as u64,
            Read::Prop { source, prop } => {
                let (id, side) = card_now(source, table, call)?;
                prop.word(id, variant.face(id, side), &variant.names)
            }
            Read::Playable(card) => {
                let id = card.card(table, call)?;
                u64::from(cards_of(CardList::Playable, table, call)?.contains(&id))
            }
            Read::MatchesTop(card) => {
                let id = card.card(table, call)?;
                u64::from(table.matches(variant, variant.face(id, table.side), false))
            }
            _ => unreachable!("{self:?} is not a question about a list (`Quick::OfList`)"),
        })
    }

    /// Answers any question the general way: the questions `Read::quick`
    /// does not answer, and in debug builds those it does, to check them (a
    /// card the call is about, but absent, is gone).
    fn answer_from_game(&self, table: &Table, call: &CallInfo, variant: &Variant) -> Result<Answer, String> {
        let seat_ok = |seat: Seat| -> Result<Seat, String> {
            if seat < table.players() {
                Ok(seat)
            } else {
                Err(format!("no player {seat} at a table of {}", table.players()))
            }
        };
        Ok(match self {
            Read::Me => Answer::Word(call.me as u64),
            Read::AsFlex => Answer::bool(call.as_flex),
            Read::Target => Answer::seat(call.target),
            Read::GoingOut => Answer::bool(call.going_out),
            Read::Current => Answer::Word(table.to_act() as u64),
            Read::Dealer => Answer::Word(table.dealer as u64),
            Read::NextPlayer { steps } => Answer::Word(table.seat_after(call.me, *steps) as u64),
            Read::SeatAfter { from, steps } => Answer::Word(table.seat_after(seat_ok(*from)?, *steps) as u64),
            Read::Direction => Answer::bool(table.direction == Direction::Counterclockwise),
            Read::Color => Answer::some(table.color),
            Read::PrevColor => Answer::some(call.prev_color),
            Read::Side => Answer::bool(table.side == Side::Dark),
            Read::HandSize(seat) => Answer::Word(table.hands[seat_ok(*seat)?].len() as u64),
            Read::Cards(list @ (CardList::Top | CardList::Drawn)) => {
                Answer::bool(!cards_of(*list, table, call)?.is_empty())
            }
            Read::Cards(_) | Read::Prop { .. } | Read::Playable(_) | Read::MatchesTop(_) => {
                Answer::Word(self.list_word(table, call, variant)?)
            }
            Read::DrawSize => Answer::Word(table.draw.len() as u64),
            Read::DiscardSize => Answer::Word(table.discard.len() as u64),
            Read::Answering => {
                Answer::Penalty(call.answering.as_ref().or(table.phase().penalty()).cloned().map(Box::new))
            }
            Read::PendingPenalty => Answer::Penalty(table.phase().penalty().cloned().map(Box::new)),
            Read::Power(seat) => match table.power.get(seat_ok(*seat)?) {
                Some(&green) => Answer::bool(green),
                None => return Err("this variant has no Power Cards".into()),
            },
            Read::TopIsFresh => Answer::bool(table.landing.is_fresh()),
            Read::LastPlayer => Answer::seat(table.landing.player()),
            Read::Score(seat) => Answer::int(table.scores[seat_ok(*seat)?]),
            Read::Points(seat) => Answer::int(table.hand_points(variant, seat_ok(*seat)?)),
            Read::Scores => Answer::Numbers(table.scores.as_slice().into()),
            Read::AllPoints => {
                Answer::Numbers((0..table.players()).map(|seat| table.hand_points(variant, seat)).collect())
            }
            Read::State { seat: None, name } => Answer::Value(table.state.get(name).cloned()),
            Read::State { seat: Some(seat), name } => {
                Answer::Value(table.seat_state[seat_ok(*seat)?].get(name).cloned())
            }
            Read::Playing(seat) => Answer::bool(table.playing(seat_ok(*seat)?)),
            Read::SeatsLeft => Answer::Word(table.seats_left() as u64),
            Read::SeatsHolding { at_least } => Answer::Seats(
                (0..table.players())
                    .filter(|&seat| table.playing(seat) && table.hands[seat].len() >= *at_least)
                    .collect(),
            ),
            Read::Ranking => Answer::Seats(match table.phase() {
                Phase::Over { ranking } => ranking.as_slice().into(),
                _ => Box::default(),
            }),
            Read::InHand { seat, card } => Answer::bool(table.hands[seat_ok(*seat)?].contains(card)),
            Read::Matching { seat, selector } => {
                Answer::Ids(picked_in_hand(table, variant, seat_ok(*seat)?, selector).collect())
            }
            Read::Peek { count } => Answer::Word(table.draw.len().min(*count) as u64),
            Read::Drawable { count } => Answer::Word(table.drawable().min(*count as usize) as u64),
            Read::StateRoom { seat, name } => {
                let kept = match seat {
                    Some(seat) => &table.seat_state[seat_ok(*seat)?],
                    None => &table.state,
                };
                Answer::bool(kept.len() < crate::limits::STATE_VALUES || kept.contains_key(name))
            }
            Read::Count { seat, selector } | Read::Holds { seat, selector } => {
                let mut picked = picked_in_hand(table, variant, seat_ok(*seat)?, selector);
                match self {
                    Read::Count { .. } => Answer::Word(picked.count() as u64),
                    _ => Answer::bool(picked.next().is_some()),
                }
            }
        })
    }
}

/// The cards of `seat`'s hand that `selector` picks, on the side in play.
fn picked_in_hand<'a>(
    table: &'a Table,
    variant: &'a Variant,
    seat: Seat,
    selector: &'a DeckSelector,
) -> impl Iterator<Item = CardId> + 'a {
    let (side, top) = (table.side, table.top_face(variant));
    table.hands[seat].iter().copied().filter(move |&id| selector.picks(variant, id, side, top))
}
