//! The host functions scripts call, and the card type they see. Each is
//! registered as one of three kinds: `pure!` answers from the variant and
//! the number of players alone; `read!` asks the game (or the call: who
//! plays, how) a
//! question (`crate::script::read`), answered natively and recorded for the
//! memo; `change!` changes the game and is refused, naming the hook,
//! outside effect hooks (`on_play`, `first_discard`). Changes are recorded
//! as ops (`crate::turn::Op`), so that the game can replay them.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use rhai::{Array, Dynamic, Engine, ImmutableString, Map};

use super::convert::{self, CARD_SLOT, HostResult, Reason, script_error};
use super::memo::Step;
use super::read::{Answer, CardList, CardRef, Prop, Read, ScriptNames};
use super::{HookCtx, ScriptCard};
use crate::limits;
use crate::seat::Seat;
use crate::turn::{Choice, ChoiceOption, DrawSpec, FirstDiscard, Op, Penalty, ScriptValue};
use crate::variant::selector::{DeckSelector, Selector};
use crate::variant::spec::SelectorSpec;
use crate::variant::{HookMode, OptionValue, Variant};

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
        let parsed = Rc::new(DeckSelector::new(parsed, &self.variant));
        self.selectors.borrow_mut().insert(text.clone(), parsed.clone());
        Ok(parsed)
    }
}

impl HookCtx {
    fn seat(&self, p: i64) -> HostResult<Seat> {
        convert::seat(p, self.table.players()).map_err(script_error)
    }

    /// Answers a question about the game, recording it for the memo.
    fn ask(&mut self, read: Read, api: &Api) -> HostResult<Dynamic> {
        let (answer, value) = read.ask(&self.table, &self.call, &api.variant, &api.names).map_err(script_error)?;
        self.trace.push(Step::Read(read, answer));
        Ok(value)
    }

    /// Records that the script read `prop` of a card it asked for.
    fn touch(&mut self, card: &ScriptCard, prop: Prop, api: &Api) -> Answer {
        let answer = Answer::Word(prop.word(card.id, api.face(card.id, card.side), &api.variant.names));
        if let Some(source) = card.source {
            self.trace.push(Step::Read(Read::Prop { source, prop }, answer.clone()));
        }
        answer
    }

    /// Refuses a change outside an effect hook, naming the hook.
    fn may_change(&self, what: &str) -> HostResult<()> {
        let hook = self.call.hook;
        match hook.mode() {
            HookMode::Effect if self.trace.len() >= crate::limits::HOOK_STEPS => Err(script_error(format!(
                "{what}(): one call of a hook may ask and change at most {} things",
                crate::limits::HOOK_STEPS
            ))),
            HookMode::Effect => Ok(()),
            HookMode::Predicate => {
                Err(script_error(format!("{what}() changes the game; {} hooks only answer a question", hook.name())))
            }
            HookMode::Transform => Err(script_error(format!(
                "{what}() changes the game; {} hooks may change only the value they return",
                hook.name()
            ))),
        }
    }

    /// What the call is about, read (and so recorded for the memo) where a
    /// host function depends on it without the script asking.
    fn about(&mut self, read: Read, variant: &Variant) -> Answer {
        let answer = read.answer(&self.table, &self.call, variant).expect("what a call is about always answers");
        self.trace.push(Step::Read(read, answer.clone()));
        answer
    }

    /// The side in play, read (a colour's name, a card offered, depend on
    /// it).
    fn side(&mut self, variant: &Variant) -> crate::card::Side {
        self.about(Read::Side, variant);
        self.table.side
    }

    /// The seat the hook is about, read.
    fn me(&mut self, variant: &Variant) -> Seat {
        self.about(Read::Me, variant);
        self.call.me
    }

    /// Seat `p`, which must still be in the hand (read).
    fn playing_seat(&mut self, p: i64, variant: &Variant) -> HostResult<Seat> {
        let seat = self.seat(p)?;
        if self.about(Read::Playing(seat), variant) != Answer::bool(true) {
            return Err(script_error(format!("p{seat} has left the hand")));
        }
        Ok(seat)
    }

    /// Seat `p`, which must hold `card` (read).
    fn holding(&mut self, p: i64, card: &ScriptCard, api: &Api) -> HostResult<Seat> {
        let seat = self.seat(p)?;
        self.touch(card, Prop::Id, api);
        if self.about(Read::InHand { seat, card: card.id }, api) != Answer::bool(true) {
            return Err(script_error(format!("p{seat} holds no {}", api.card_name(card.id))));
        }
        Ok(seat)
    }

    fn set_state(
        &mut self,
        variant: &Variant,
        seat: Option<Seat>,
        name: ImmutableString,
        value: Dynamic,
    ) -> HostResult<Dynamic> {
        self.may_change("set_state")?;
        // `()` forgets the value.
        let value = if value.is_unit() { None } else { Some(state_value(&value)?) };
        let kept = match seat {
            Some(seat) => &self.table.seat_state[seat],
            None => &self.table.state,
        };
        if kept.len() >= limits::STATE_VALUES && !kept.contains_key(&name) {
            let bound = limits::STATE_VALUES;
            return Err(script_error(format!("at most {bound} state values per seat and for the table")));
        }
        self.change("set_state", variant, Op::SetState { seat, name, value })
    }

    fn leave_hand(&mut self, variant: &Variant, p: i64, place: &str) -> HostResult<Dynamic> {
        self.may_change("leave_hand")?;
        let seat = self.playing_seat(p, variant)?;
        let aside = match place {
            "under" => false,
            "aside" => true,
            other => {
                return Err(script_error(format!(
                    "leave_hand puts the cards \"under\" the draw pile or \"aside\", not \"{other}\""
                )));
            }
        };
        if self.about(Read::SeatsLeft, variant) == Answer::int(1) {
            return Err(script_error("the last seat in the hand cannot leave it: end the hand instead (end_hand)"));
        }
        self.change("leave_hand", variant, Op::Leave { seat, aside })
    }

    /// Performs a change that is ignored on a player's last card (skips,
    /// reverses, colour choices, hand swaps: rules.md 1.6).
    fn act(&mut self, what: &str, variant: &Variant, op: Op) -> HostResult<Dynamic> {
        self.may_change(what)?;
        if self.about(Read::GoingOut, variant) == Answer::bool(false) {
            self.perform(variant, op);
        }
        Ok(Dynamic::UNIT)
    }

    /// Performs a change that happens even on a player's last card.
    fn change(&mut self, what: &str, variant: &Variant, op: Op) -> HostResult<Dynamic> {
        self.may_change(what)?;
        self.perform(variant, op);
        Ok(Dynamic::UNIT)
    }

    /// `seat` draws until a colour; how many that takes is an answer the
    /// memo cannot check before the change, so the call will run again next
    /// time.
    fn draw_now(&mut self, what: &str, variant: &Variant, seat: Seat, draw: DrawSpec) -> HostResult<Dynamic> {
        self.may_change(what)?;
        let drawn = self.table.draw_cards(variant, seat, draw, &mut self.log);
        self.trace.push(Step::Opaque);
        Ok(Dynamic::from(i64::from(drawn)))
    }

    /// The symbol group of the card the hook is about: a penalty's default
    /// group (read).
    fn played_group(&mut self, variant: &Variant) -> ImmutableString {
        if self.call.card.is_none() {
            return ImmutableString::new();
        }
        let read = Read::Prop { source: super::ARG, prop: Prop::Group };
        match self.about(read, variant).index() {
            Some(group) => variant.names.symbol_info(group).name.as_str().into(),
            None => ImmutableString::new(),
        }
    }
}

/// A value scripts may keep or offer: a number, text, or true/false.
fn state_value(value: &Dynamic) -> HostResult<ScriptValue> {
    if let Ok(n) = value.as_int() {
        Ok(ScriptValue::Int(n))
    } else if let Ok(b) = value.as_bool() {
        Ok(ScriptValue::Bool(b))
    } else if let Ok(text) = value.clone().into_immutable_string() {
        Ok(ScriptValue::Text(text))
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

/// Registers the card type and every host function scripts may call.
pub fn register(engine: &mut Engine, ctx: &Rc<RefCell<HookCtx>>, variant: &Arc<Variant>) {
    let api = &Rc::new(Api {
        variant: variant.clone(),
        names: ScriptNames::new(variant),
        selectors: RefCell::new(HashMap::new()),
    });
    register_card_type(engine, ctx, api);

    // The body of each gets the hook's context `c` and the API `v`. A
    // `read!` body builds the `Read` to ask.
    macro_rules! host {
        ($name:literal, |$c:ident, $v:ident $(, $arg:ident : $ty:ty)*| $body:expr) => {{
            let ctx = ctx.clone();
            let $v = api.clone();
            engine.register_fn($name, move |$($arg: $ty),*| -> HostResult<Dynamic> {
                let mut guard = ctx.borrow_mut();
                #[allow(unused_variables)]
                let $c = &mut *guard;
                #[allow(unused_variables)]
                let $v = &*$v;
                $body
            });
        }};
    }
    macro_rules! pure {
        ($($t:tt)*) => { host!($($t)*) };
    }
    macro_rules! change {
        ($($t:tt)*) => { host!($($t)*) };
    }
    macro_rules! read {
        ($name:literal, |$c:ident, $v:ident $(, $arg:ident : $ty:ty)*| $read:expr) => {
            host!($name, |$c, $v $(, $arg: $ty)*| {
                let read: Read = $read;
                $c.ask(read, $v)
            })
        };
    }

    // Answers from the variant and the table's size, which a runtime's
    // game keeps.
    pure!("players", |c, v| Ok(Dynamic::from(c.table.players() as i64)));
    read!("me", |c, v| Read::Me);
    read!("as_flex", |c, v| Read::AsFlex);
    read!("target", |c, v| Read::Target);
    read!("going_out", |c, v| Read::GoingOut);
    pure!("target_score", |c, v| Ok(Dynamic::from(v.target_score)));
    pure!("uno_penalty", |c, v| Ok(Dynamic::from(i64::from(v.uno_penalty))));
    pure!("option", |c, v, name: ImmutableString| match v.options.get(name.as_str()) {
        Some(OptionValue::Bool(b)) => Ok(Dynamic::from(*b)),
        Some(OptionValue::Int(i)) => Ok(Dynamic::from(*i)),
        Some(OptionValue::Text(t)) => Ok(Dynamic::from(t.clone())),
        None => Err(script_error(format!("no option '{name}' is declared"))),
    });

    // Questions about the game.
    read!("current", |c, v| Read::Current);
    read!("dealer", |c, v| Read::Dealer);
    read!("next_player", |c, v| Read::NextPlayer { steps: 1 });
    read!("next_player", |c, v, n: i64| Read::NextPlayer { steps: steps(n, "next_player")? });
    read!("seat_after", |c, v, p: i64, n: i64| Read::SeatAfter { from: c.seat(p)?, steps: steps(n, "seat_after")? });
    read!("direction", |c, v| Read::Direction);
    read!("color", |c, v| Read::Color);
    read!("prev_color", |c, v| Read::PrevColor);
    read!("side", |c, v| Read::Side);
    read!("hand_size", |c, v, p: i64| Read::HandSize(c.seat(p)?));
    read!("hand", |c, v, p: i64| Read::Cards(CardList::Hand(c.seat(p)?)));
    read!("top", |c, v| Read::Cards(CardList::Top));
    read!("draw_size", |c, v| Read::DrawSize);
    read!("discard_size", |c, v| Read::DiscardSize);
    read!("answering", |c, v| Read::Answering);
    read!("pending_penalty", |c, v| Read::PendingPenalty);
    read!("power", |c, v, p: i64| Read::Power(c.seat(p)?));
    read!("drawn", |c, v| Read::Cards(CardList::Drawn));
    read!("top_is_fresh", |c, v| Read::TopIsFresh);
    read!("last_player", |c, v| Read::LastPlayer);
    read!("score", |c, v, p: i64| Read::Score(c.seat(p)?));
    read!("points", |c, v, p: i64| Read::Points(c.seat(p)?));
    read!("scores", |c, v| Read::Scores);
    read!("points", |c, v| Read::AllPoints);
    read!("state", |c, v, name: ImmutableString| Read::State { seat: None, name });
    read!("seat_state", |c, v, p: i64, name: ImmutableString| Read::State { seat: Some(c.seat(p)?), name });
    read!("playing", |c, v, p: i64| Read::Playing(c.seat(p)?));
    read!("seats_left", |c, v| Read::SeatsLeft);
    read!("ranking", |c, v| Read::Ranking);
    read!("peek", |c, v, n: i64| Read::Peek { count: steps(n, "peek")? });
    // A question about a card the script got from a list names the card
    // by its place there, not by which card it is: no read of the card.
    read!("playable", |c, v, card: ScriptCard| Read::Playable(CardRef::of(&card)));
    read!("playable_cards", |c, v| Read::Cards(CardList::Playable));
    read!("matches_top", |c, v, card: ScriptCard| Read::MatchesTop(CardRef::of(&card)));
    read!("count", |c, v, p: i64, selector: ImmutableString| Read::Count {
        seat: c.seat(p)?,
        selector: v.selector(&selector)?
    });
    read!("holds", |c, v, p: i64, selector: ImmutableString| Read::Holds {
        seat: c.seat(p)?,
        selector: v.selector(&selector)?
    });

    // Changes to the game, each recorded as an op (`HookCtx::perform`).
    change!("skip", |c, v, n: i64| c.act("skip", v, Op::Skip(steps(n, "skip")?)));
    change!("reverse", |c, v| c.act("reverse", v, Op::Reverse));
    change!("set_next", |c, v, p: i64| {
        let seat = c.seat(p)?;
        c.act("set_next", v, Op::SetNext(seat))
    });
    change!("draw", |c, v, p: i64, n: i64| {
        c.may_change("draw")?;
        let seat = c.seat(p)?;
        let count = u32::try_from(n).map_err(|_| script_error(format!("cannot draw {n} cards")))?;
        let drawn = count.min(u32::try_from(c.table.drawable()).unwrap_or(u32::MAX));
        c.perform(v, Op::Draw { seat, count, drawn });
        Ok(Dynamic::from(i64::from(drawn)))
    });
    change!("draw_until", |c, v, p: i64, color: ImmutableString| {
        let seat = c.seat(p)?;
        let until = Some(convert::color_arg(v, c.table.side, &color).map_err(script_error)?);
        c.draw_now("draw_until", v, seat, DrawSpec { count: 0, until })
    });
    change!("penalty", |c, v, p: i64, n: i64| {
        c.may_change("penalty")?;
        let victim = c.seat(p)?;
        let count = u32::try_from(n).map_err(|_| script_error(format!("cannot draw {n} cards")))?;
        let draw = DrawSpec { count, until: None };
        let by = c.me(v);
        let penalty = Penalty { victim, by, draw, group: c.played_group(v), challenge: None, pending: false };
        c.change("penalty", v, Op::Penalty(penalty))
    });
    change!("penalty", |c, v, spec: Map| {
        c.may_change("penalty")?;
        let (side, players, group, by) = (c.side(v), c.table.players(), c.played_group(v), c.me(v));
        let penalty =
            convert::penalty_from_map(v, side, players, &Dynamic::from(spec), by, group).map_err(script_error)?;
        c.change("penalty", v, Op::Penalty(penalty))
    });
    change!("ask_color", |c, v, p: i64| {
        let seat = c.seat(p)?;
        c.act("ask_color", v, Op::AskColor(seat))
    });
    change!("set_color", |c, v, name: ImmutableString| {
        c.may_change("set_color")?;
        let side = c.side(v);
        let color = convert::color_arg(v, side, &name).map_err(script_error)?;
        c.change("set_color", v, Op::SetColor(color))
    });
    change!("set_power", |c, v, p: i64, green: bool| {
        c.may_change("set_power")?;
        let seat = c.seat(p)?;
        if c.table.power.is_empty() {
            return Err(script_error("this variant has no Power Cards"));
        }
        c.change("set_power", v, Op::SetPower(seat, green))
    });
    change!("flip", |c, v| {
        c.may_change("flip")?;
        if !v.double_sided {
            return Err(script_error("flip needs a double-sided deck"));
        }
        c.change("flip", v, Op::Flip)
    });
    change!("swap_hands", |c, v, a: i64, b: i64| {
        let (a, b) = (c.seat(a)?, c.seat(b)?);
        c.act("swap_hands", v, Op::SwapHands(a, b))
    });
    change!("pass_hands", |c, v| c.act("pass_hands", v, Op::PassHands));
    change!("set_state", |c, v, name: ImmutableString, value: Dynamic| c.set_state(v, None, name, value));
    change!("set_seat_state", |c, v, p: i64, name: ImmutableString, value: Dynamic| {
        let seat = c.seat(p)?;
        c.set_state(v, Some(seat), name, value)
    });
    // Deprecated (its reading twin `var` is a reserved word in Rhai).
    change!("set_var", |c, v, name: ImmutableString, value: i64| c.set_state(v, None, name, Dynamic::from(value)));
    change!("discard", |c, v, p: i64, card: ScriptCard| {
        c.may_change("discard")?;
        let seat = c.holding(p, &card, v)?;
        c.change("discard", v, Op::Discard { seat, card: card.id })
    });
    change!("discard_all", |c, v, p: i64, selector: ImmutableString| {
        c.may_change("discard_all")?;
        let seat = c.seat(p)?;
        let selector = v.selector(&selector)?;
        let Answer::Ids(cards) = c.about(Read::Matching { seat, selector }, v) else { unreachable!("ids") };
        for &card in &cards {
            c.perform(v, Op::Discard { seat, card });
        }
        Ok(Dynamic::from(cards.len() as i64))
    });
    change!("give", |c, v, from: i64, to: i64, card: ScriptCard| {
        c.may_change("give")?;
        let from = c.holding(from, &card, v)?;
        let to = c.playing_seat(to, v)?;
        c.change("give", v, Op::Give { from, to, card: card.id })
    });
    change!("shuffle", |c, v, pile: ImmutableString| {
        let discard = match pile.as_str() {
            "draw" => false,
            "discard" => true,
            other => return Err(script_error(format!("shuffle takes \"draw\" or \"discard\", not \"{other}\""))),
        };
        c.change("shuffle", v, Op::Shuffle { discard })
    });
    change!("leave_hand", |c, v, p: i64| c.leave_hand(v, p, "under"));
    change!("leave_hand", |c, v, p: i64, place: ImmutableString| c.leave_hand(v, p, &place));
    change!("end_hand", |c, v, p: i64| {
        c.may_change("end_hand")?;
        let winner = c.playing_seat(p, v)?;
        c.change("end_hand", v, Op::EndHand { ranking: vec![winner] })
    });
    change!("end_hand", |c, v, places: Array| {
        c.may_change("end_hand")?;
        let mut ranking = Vec::with_capacity(places.len());
        for place in &places {
            let p = place.as_int().map_err(|_| script_error("end_hand takes a list of seat numbers"))?;
            let seat = if ranking.is_empty() { c.playing_seat(p, v)? } else { c.seat(p)? };
            if ranking.contains(&seat) {
                return Err(script_error(format!("end_hand names p{seat} twice")));
            }
            ranking.push(seat);
        }
        if ranking.is_empty() {
            return Err(script_error("end_hand takes at least the winner"));
        }
        c.change("end_hand", v, Op::EndHand { ranking })
    });
    change!("choose", |c, v, p: i64, tag: ImmutableString, options: Array| {
        c.may_change("choose")?;
        let chooser = c.playing_seat(p, v)?;
        if options.is_empty() || options.len() > limits::CHOICE_OPTIONS {
            return Err(script_error(format!("choose takes 1 to {} options", limits::CHOICE_OPTIONS)));
        }
        // A card offered is offered on the side in play: a read.
        if options.iter().any(|option| option.is::<ScriptCard>()) {
            c.side(v);
        }
        let options = options
            .iter()
            .map(|option| match option.clone().try_cast::<ScriptCard>() {
                Some(card) => {
                    // The option is this very card: a read of it.
                    c.touch(&card, Prop::Id, v);
                    Ok(ChoiceOption::Card(card.id, card.side))
                }
                None => state_value(option).map(ChoiceOption::Value),
            })
            .collect::<HostResult<Vec<_>>>()?;
        c.change("choose", v, Op::Choose(Choice { chooser, tag, options }))
    });
    change!("redraw", |c, v| c.change("redraw", v, Op::FirstDiscard(FirstDiscard::Redraw)));
    change!("turn_next", |c, v| c.change("turn_next", v, Op::FirstDiscard(FirstDiscard::TurnNext)));
    change!("log", |c, v, text: ImmutableString| {
        let text = match super::cut_line(&text) {
            std::borrow::Cow::Owned(cut) => cut.into(),
            std::borrow::Cow::Borrowed(_) => text,
        };
        c.change("log", v, Op::Log(text))
    });
    change!("count", |c, v, name: ImmutableString| c.change("count", v, Op::Count(name)));
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

fn register_card_type(engine: &mut Engine, ctx: &Rc<RefCell<HookCtx>>, api: &Rc<Api>) {
    engine.register_type_with_name::<ScriptCard>("Card");
    // Each property a script reads of a card it asked for is recorded.
    for &(name, prop) in CARD_PROPERTIES {
        let (ctx, api) = (ctx.clone(), api.clone());
        engine.register_get(name, move |card: &mut ScriptCard| -> Dynamic {
            let answer = ctx.borrow_mut().touch(card, prop, &api);
            prop.script_value(&answer, &api.names, &api.variant)
        });
    }
    let (c, v) = (ctx.clone(), api.clone());
    engine.register_fn("to_string", move |card: &mut ScriptCard| {
        let answer = c.borrow_mut().touch(card, Prop::Face, &v);
        Prop::Face.script_value(&answer, &v.names, &v.variant)
    });
    // A reason why not that names a card: the name is put in when the
    // reason is shown, so the script does not read it (`convert::Reason`).
    engine.register_type_with_name::<Reason>("Reason");
    engine.register_fn("refusal", |text: ImmutableString, card: ScriptCard| -> HostResult<Reason> {
        if !text.contains(CARD_SLOT) {
            return Err(script_error(format!(
                "refusal(text, card): the text must say where the card's name goes ({CARD_SLOT}), as in \"{CARD_SLOT} is not allowed now\""
            )));
        }
        Ok(Reason { text, card: Some(card) })
    });
    let (c, v) = (ctx.clone(), api.clone());
    engine.register_fn("to_string", move |reason: &mut Reason| -> ImmutableString {
        let Some(card) = reason.card else { return reason.text.clone() };
        let answer = c.borrow_mut().touch(&card, Prop::Face, &v);
        let name = Prop::Face.script_value(&answer, &v.names, &v.variant).into_immutable_string().unwrap_or_default();
        reason.text.replace(CARD_SLOT, &name).into()
    });
    let same = {
        let (ctx, api) = (ctx.clone(), api.clone());
        move |a: &ScriptCard, b: &ScriptCard| {
            let mut c = ctx.borrow_mut();
            c.touch(a, Prop::Face, &api) == c.touch(b, Prop::Face, &api)
        }
    };
    let differ = same.clone();
    engine.register_fn("==", move |a: ScriptCard, b: ScriptCard| same(&a, &b));
    engine.register_fn("!=", move |a: ScriptCard, b: ScriptCard| !differ(&a, &b));
}
