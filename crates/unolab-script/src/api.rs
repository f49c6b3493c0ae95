//! The host functions scripts call, and the card type they see. Each is a
//! call on the `Desk` the game of the running hook call is lent to: it has
//! nothing else to read or change, so whatever a script asks is a recorded
//! `Read` and whatever it does a recorded `Op` (`unolab_core::rules::desk`). What
//! is registered here is only the translation: script values in (seat
//! numbers, colour names, maps), script values out (`values`). `pure!`
//! functions answer from the variant and the table's size alone; `read!`
//! functions ask the desk a question; `change!` functions ask it to change
//! the game, which it refuses, naming the hook, outside effect hooks.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use rhai::{Array, Dynamic, Engine, ImmutableString, Map};

use super::convert::{self, HostResult, script_error};
use super::values::{ScriptNames, answer_value, prop_value};
use unolab_core::rules::read::{CardList, CardRef, Prop, Read};
use unolab_core::rules::{CARD_SLOT, CardHandle, Desk, Offered, Reason};
use unolab_core::turn::ScriptValue;
use unolab_core::variant::selector::SelectorSpec;
use unolab_core::variant::selector::{DeckSelector, Selector};
use unolab_core::variant::{OptionValue, Variant};

/// The variant as the host API sees it: its names as script strings, made
/// once, and the selectors scripts have asked about, parsed once.
struct Api {
    variant: Arc<Variant>,
    names: ScriptNames,
    selectors: RefCell<HashMap<ImmutableString, Rc<DeckSelector>>>,
}

impl std::ops::Deref for Api {
    type Target = Variant;
    fn deref(&self) -> &Variant {
        &self.variant
    }
}

impl Api {
    /// A selector a script wrote, parsed (once).
    fn selector(&self, text: &ImmutableString) -> HostResult<Rc<DeckSelector>> {
        if let Some(found) = self.selectors.borrow().get(text) {
            return Ok(found.clone());
        }
        let parsed = Selector::parse(&self.variant.names, Some(&SelectorSpec::One(text.to_string())))
            .map_err(|e| script_error(e.to_string()))?;
        let parsed = Rc::new(DeckSelector::new(parsed, text, &self.variant));
        self.selectors.borrow_mut().insert(text.clone(), parsed.clone());
        Ok(parsed)
    }

    /// Asks the desk a question; the answer as the script sees it.
    fn ask(&self, desk: &mut Desk, read: Read) -> HostResult<Dynamic> {
        let answer = desk.ask(read.clone()).map_err(script_error)?;
        Ok(answer_value(&read, &answer, &self.names, &self.variant))
    }

    /// The cards of a list: one card (or nothing) for the top card, the
    /// drawn card and the card a hook is about; an array for the others.
    fn cards(&self, desk: &mut Desk, list: CardList) -> HostResult<Dynamic> {
        let cards = desk.cards(list).map_err(script_error)?;
        Ok(match list {
            CardList::Top | CardList::Drawn | CardList::Arg => {
                cards.into_iter().next().map_or(Dynamic::UNIT, Dynamic::from)
            }
            CardList::Hand(_) | CardList::Playable | CardList::Draw => {
                Dynamic::from(cards.into_iter().map(Dynamic::from).collect::<Array>())
            }
        })
    }

    /// What a script reads of a card, as it sees it.
    fn prop(&self, desk: &mut Desk, card: &CardHandle, prop: Prop) -> Dynamic {
        prop_value(prop, desk.touch(card, prop), &self.names, &self.variant)
    }
}

/// A value scripts may keep or offer: a number, text, or true/false.
fn state_value(value: &Dynamic) -> HostResult<ScriptValue> {
    if let Ok(n) = value.as_int() {
        Ok(ScriptValue::Int(n))
    } else if let Ok(b) = value.as_bool() {
        Ok(ScriptValue::Bool(b))
    } else if let Ok(text) = value.clone().into_immutable_string() {
        Ok(ScriptValue::Text(text.as_str().into()))
    } else {
        Err(script_error(format!(
            "a kept or offered value is a number, text or true/false, not {}",
            super::kind_of(value)
        )))
    }
}

/// A count of steps or players from a script: 0 or more.
fn steps(n: i64, what: &str) -> HostResult<usize> {
    usize::try_from(n).map_err(|_| script_error(format!("{what} takes 0 or more")))
}

/// What the desk did, as a script's value: nothing, or its error.
fn done(result: Result<(), String>) -> HostResult<Dynamic> {
    result.map(|()| Dynamic::UNIT).map_err(script_error)
}

/// Keeps a value (`()` forgets it) for a seat or the table.
fn set_state(c: &mut Desk, seat: Option<usize>, name: &str, value: &Dynamic) -> HostResult<Dynamic> {
    c.may_change("set_state").map_err(script_error)?;
    let value = if value.is_unit() { None } else { Some(state_value(value)?) };
    done(c.set_state(seat, name.into(), value))
}

/// Registers host function `$name` on `$engine`: its body gets the desk
/// `c` and the API `v`.
macro_rules! host {
    ($engine:ident, $desk:ident, $api:ident, $name:literal, |$c:ident, $v:ident $(, $arg:ident : $ty:ty)*| $body:expr) => {{
        let desk = $desk.clone();
        let $v = $api.clone();
        $engine.register_fn($name, move |$($arg: $ty),*| -> HostResult<Dynamic> {
            let mut guard = desk.borrow_mut();
            #[allow(unused_variables)]
            let $c = &mut *guard;
            #[allow(unused_variables)]
            let $v = &*$v;
            $body
        });
    }};
}

/// A host function that asks the desk a question: its body builds the
/// `Read`.
macro_rules! read {
    ($engine:ident, $desk:ident, $api:ident, $name:literal, |$c:ident, $v:ident $(, $arg:ident : $ty:ty)*| $read:expr) => {
        host!($engine, $desk, $api, $name, |$c, $v $(, $arg: $ty)*| {
            let read: Read = $read;
            $v.ask($c, read)
        })
    };
}

/// A host function that gives a list of cards: its body names the list.
macro_rules! cards {
    ($engine:ident, $desk:ident, $api:ident, $name:literal, |$c:ident, $v:ident $(, $arg:ident : $ty:ty)*| $list:expr) => {
        host!($engine, $desk, $api, $name, |$c, $v $(, $arg: $ty)*| {
            let list: CardList = $list;
            $v.cards($c, list)
        })
    };
}

/// Registers the card type and every host function scripts may call.
pub fn register(engine: &mut Engine, desk: &Rc<RefCell<Desk>>, variant: &Arc<Variant>) {
    let api = Rc::new(Api {
        variant: variant.clone(),
        names: ScriptNames::new(variant),
        selectors: RefCell::new(HashMap::new()),
    });
    register_card_type(engine, desk, &api);
    register_questions(engine, desk, &api);
    register_changes(engine, desk, &api);
}

/// A seat number from a script, checked against the table.
fn seat(c: &Desk, p: i64) -> HostResult<usize> {
    c.seat(p).map_err(script_error)
}

/// The functions that answer: from the variant and the table's size
/// (which a game keeps), and questions about the game.
fn register_questions(engine: &mut Engine, desk: &Rc<RefCell<Desk>>, api: &Rc<Api>) {
    // Answers from the variant and the table's size, which a game keeps.
    host!(engine, desk, api, "players", |c, v| Ok(Dynamic::from(c.players() as i64)));
    read!(engine, desk, api, "me", |c, v| Read::Me);
    read!(engine, desk, api, "as_flex", |c, v| Read::AsFlex);
    read!(engine, desk, api, "target", |c, v| Read::Target);
    read!(engine, desk, api, "going_out", |c, v| Read::GoingOut);
    host!(engine, desk, api, "target_score", |c, v| Ok(Dynamic::from(v.target_score)));
    host!(engine, desk, api, "uno_penalty", |c, v| Ok(Dynamic::from(i64::from(v.uno_penalty))));
    host!(engine, desk, api, "option", |c, v, name: ImmutableString| match v.options.get(name.as_str()) {
        Some(OptionValue::Bool(b)) => Ok(Dynamic::from(*b)),
        Some(OptionValue::Int(i)) => Ok(Dynamic::from(*i)),
        Some(OptionValue::Text(t)) => Ok(Dynamic::from(t.clone())),
        None => Err(script_error(format!("no option '{name}' is declared"))),
    });

    // Questions about the game.
    read!(engine, desk, api, "current", |c, v| Read::Current);
    read!(engine, desk, api, "dealer", |c, v| Read::Dealer);
    read!(engine, desk, api, "next_player", |c, v| Read::NextPlayer { steps: 1 });
    read!(engine, desk, api, "next_player", |c, v, n: i64| Read::NextPlayer { steps: steps(n, "next_player")? });
    read!(engine, desk, api, "seat_after", |c, v, p: i64, n: i64| Read::SeatAfter {
        from: seat(c, p)?,
        steps: steps(n, "seat_after")?
    });
    read!(engine, desk, api, "direction", |c, v| Read::Direction);
    read!(engine, desk, api, "color", |c, v| Read::Color);
    read!(engine, desk, api, "prev_color", |c, v| Read::PrevColor);
    read!(engine, desk, api, "side", |c, v| Read::Side);
    read!(engine, desk, api, "hand_size", |c, v, p: i64| Read::HandSize(seat(c, p)?));
    cards!(engine, desk, api, "hand", |c, v, p: i64| CardList::Hand(seat(c, p)?));
    cards!(engine, desk, api, "top", |c, v| CardList::Top);
    read!(engine, desk, api, "draw_size", |c, v| Read::DrawSize);
    read!(engine, desk, api, "discard_size", |c, v| Read::DiscardSize);
    read!(engine, desk, api, "answering", |c, v| Read::Answering);
    read!(engine, desk, api, "pending_penalty", |c, v| Read::PendingPenalty);
    read!(engine, desk, api, "power", |c, v, p: i64| Read::Power(seat(c, p)?));
    cards!(engine, desk, api, "drawn", |c, v| CardList::Drawn);
    read!(engine, desk, api, "top_is_fresh", |c, v| Read::TopIsFresh);
    read!(engine, desk, api, "last_player", |c, v| Read::LastPlayer);
    read!(engine, desk, api, "score", |c, v, p: i64| Read::Score(seat(c, p)?));
    read!(engine, desk, api, "points", |c, v, p: i64| Read::Points(seat(c, p)?));
    read!(engine, desk, api, "scores", |c, v| Read::Scores);
    read!(engine, desk, api, "points", |c, v| Read::AllPoints);
    read!(engine, desk, api, "state", |c, v, name: ImmutableString| Read::State {
        seat: None,
        name: name.as_str().into()
    });
    read!(engine, desk, api, "seat_state", |c, v, p: i64, name: ImmutableString| Read::State {
        seat: Some(seat(c, p)?),
        name: name.as_str().into()
    });
    read!(engine, desk, api, "playing", |c, v, p: i64| Read::Playing(seat(c, p)?));
    read!(engine, desk, api, "seats_left", |c, v| Read::SeatsLeft);
    read!(engine, desk, api, "seats_holding", |c, v, n: i64| Read::SeatsHolding {
        at_least: steps(n, "seats_holding")?
    });
    read!(engine, desk, api, "ranking", |c, v| Read::Ranking);
    host!(engine, desk, api, "peek", |c, v, n: i64| {
        let cards = c.peek(steps(n, "peek")?).map_err(script_error)?;
        Ok(Dynamic::from(cards.into_iter().map(Dynamic::from).collect::<Array>()))
    });
    // A question about a card the script got from a list names the card
    // by its place there, not by which card it is: no read of the card.
    read!(engine, desk, api, "playable", |c, v, card: CardHandle| Read::Playable(CardRef::of(&card)));
    cards!(engine, desk, api, "playable_cards", |c, v| CardList::Playable);
    read!(engine, desk, api, "matches_top", |c, v, card: CardHandle| Read::MatchesTop(CardRef::of(&card)));
    read!(engine, desk, api, "count", |c, v, p: i64, selector: ImmutableString| Read::Count {
        seat: seat(c, p)?,
        selector: v.selector(&selector)?
    });
    read!(engine, desk, api, "holds", |c, v, p: i64, selector: ImmutableString| Read::Holds {
        seat: seat(c, p)?,
        selector: v.selector(&selector)?
    });
}

/// The functions that change the game, each change made and recorded by
/// the desk (refused outside effect hooks).
fn register_changes(engine: &mut Engine, desk: &Rc<RefCell<Desk>>, api: &Rc<Api>) {
    // Changes to the game, each made and recorded by the desk.
    host!(engine, desk, api, "skip", |c, v, n: i64| done(c.skip(steps(n, "skip")?)));
    host!(engine, desk, api, "reverse", |c, v| done(c.reverse()));
    host!(engine, desk, api, "set_next", |c, v, p: i64| done(c.set_next(p)));
    host!(engine, desk, api, "draw", |c, v, p: i64, n: i64| {
        c.draw(p, n).map(|drawn| Dynamic::from(i64::from(drawn))).map_err(script_error)
    });
    host!(engine, desk, api, "draw_until", |c, v, p: i64, color: ImmutableString| {
        c.draw_until(p, &color).map(|drawn| Dynamic::from(i64::from(drawn))).map_err(script_error)
    });
    host!(engine, desk, api, "penalty", |c, v, p: i64, n: i64| done(c.penalty(p, n)));
    host!(engine, desk, api, "penalty", |c, v, spec: Map| {
        c.may_change("penalty").map_err(script_error)?;
        let (side, players, group, by) = (c.side(), c.players(), c.played_group(), c.me());
        let penalty =
            convert::penalty_from_map(v, side, players, &Dynamic::from(spec), by, group).map_err(script_error)?;
        done(c.penalty_of(penalty))
    });
    host!(engine, desk, api, "ask_color", |c, v, p: i64| done(c.ask_color(p)));
    host!(engine, desk, api, "set_color", |c, v, name: ImmutableString| done(c.set_color(&name)));
    host!(engine, desk, api, "set_power", |c, v, p: i64, green: bool| done(c.set_power(p, green)));
    host!(engine, desk, api, "flip", |c, v| done(c.flip()));
    host!(engine, desk, api, "swap_hands", |c, v, a: i64, b: i64| done(c.swap_hands(a, b)));
    host!(engine, desk, api, "pass_hands", |c, v| done(c.pass_hands()));
    host!(engine, desk, api, "set_state", |c, v, name: ImmutableString, value: Dynamic| set_state(
        c, None, &name, &value
    ));
    host!(engine, desk, api, "set_seat_state", |c, v, p: i64, name: ImmutableString, value: Dynamic| {
        let seat = seat(c, p)?;
        set_state(c, Some(seat), &name, &value)
    });
    // Deprecated (its reading twin `var` is a reserved word in Rhai).
    host!(engine, desk, api, "set_var", |c, v, name: ImmutableString, value: i64| set_state(
        c,
        None,
        &name,
        &Dynamic::from(value)
    ));
    host!(engine, desk, api, "discard", |c, v, p: i64, card: CardHandle| done(c.discard(p, &card)));
    host!(engine, desk, api, "discard_all", |c, v, p: i64, selector: ImmutableString| {
        let selector = v.selector(&selector)?;
        c.discard_all(p, selector).map(|n| Dynamic::from(n as i64)).map_err(script_error)
    });
    host!(engine, desk, api, "give", |c, v, from: i64, to: i64, card: CardHandle| done(c.give(from, to, &card)));
    host!(engine, desk, api, "shuffle", |c, v, pile: ImmutableString| done(c.shuffle(&pile)));
    host!(engine, desk, api, "leave_hand", |c, v, p: i64| done(c.leave_hand(p, "under")));
    host!(engine, desk, api, "leave_hand", |c, v, p: i64, place: ImmutableString| done(c.leave_hand(p, &place)));
    host!(engine, desk, api, "end_hand", |c, v, p: i64| done(c.end_hand(&[p])));
    host!(engine, desk, api, "end_hand", |c, v, places: Array| {
        let places = places
            .iter()
            .map(|place| place.as_int().map_err(|_| script_error("end_hand takes a list of seat numbers")))
            .collect::<HostResult<Vec<i64>>>()?;
        done(c.end_hand(&places))
    });
    host!(engine, desk, api, "choose", |c, v, p: i64, tag: ImmutableString, options: Array| {
        let options = options
            .iter()
            .map(|option| match option.clone().try_cast::<CardHandle>() {
                Some(card) => Ok(Offered::Card(card)),
                None => state_value(option).map(Offered::Value),
            })
            .collect::<HostResult<Vec<_>>>()?;
        done(c.choose(p, tag.as_str().into(), options))
    });
    host!(engine, desk, api, "redraw", |c, v| done(c.redraw()));
    host!(engine, desk, api, "turn_next", |c, v| done(c.turn_next()));
    host!(engine, desk, api, "log", |c, v, text: ImmutableString| done(c.log(&text)));
    host!(engine, desk, api, "count", |c, v, name: ImmutableString| done(c.count(name.as_str().into())));
}

/// The properties of a card (`card.color`), and what each reads.
pub const CARD_PROPERTIES: &[(&str, Prop)] = &[
    ("color", Prop::Color),
    ("flex_color", Prop::FlexColor),
    ("number", Prop::Number),
    ("symbol", Prop::Symbol),
    ("group", Prop::Group),
    ("is_wild", Prop::IsWild),
    ("is_number", Prop::IsNumber),
    ("is_action", Prop::IsAction),
    ("marked", Prop::Marked),
    ("restricted", Prop::Restricted),
    ("has_flex", Prop::HasFlex),
    ("points", Prop::Points),
    ("draws", Prop::Draws),
    ("name", Prop::Face),
    ("card", Prop::Id),
];

fn register_card_type(engine: &mut Engine, desk: &Rc<RefCell<Desk>>, api: &Rc<Api>) {
    engine.register_type_with_name::<CardHandle>("Card");
    // Each property a script reads of a card it asked for is recorded.
    for &(name, prop) in CARD_PROPERTIES {
        let (desk, api) = (desk.clone(), api.clone());
        engine.register_get(name, move |card: &mut CardHandle| -> Dynamic {
            api.prop(&mut desk.borrow_mut(), card, prop)
        });
    }
    let (d, v) = (desk.clone(), api.clone());
    engine.register_fn("to_string", move |card: &mut CardHandle| v.prop(&mut d.borrow_mut(), card, Prop::Face));
    // A reason why not that names a card: the name is put in when the
    // reason is shown, so the script does not read it (`Reason`).
    engine.register_type_with_name::<Reason>("Reason");
    engine.register_fn("refusal", |text: ImmutableString, card: CardHandle| -> HostResult<Reason> {
        if !text.contains(CARD_SLOT) {
            return Err(script_error(format!(
                "refusal(text, card): the text must say where the card's name goes ({CARD_SLOT}), as in \"{CARD_SLOT} is not allowed now\""
            )));
        }
        Ok(Reason { text: text.as_str().into(), card: Some(card) })
    });
    let (d, v) = (desk.clone(), api.clone());
    engine.register_fn("to_string", move |reason: &mut Reason| -> ImmutableString {
        let Some(card) = reason.card else { return reason.text.as_str().into() };
        let name = v.prop(&mut d.borrow_mut(), &card, Prop::Face).into_immutable_string().unwrap_or_default();
        reason.text.replace(CARD_SLOT, &name).into()
    });
    let same = {
        let desk = desk.clone();
        move |a: &CardHandle, b: &CardHandle| {
            let mut c = desk.borrow_mut();
            c.touch(a, Prop::Face) == c.touch(b, Prop::Face)
        }
    };
    let differ = same.clone();
    engine.register_fn("==", move |a: CardHandle, b: CardHandle| same(&a, &b));
    engine.register_fn("!=", move |a: CardHandle, b: CardHandle| !differ(&a, &b));
}
