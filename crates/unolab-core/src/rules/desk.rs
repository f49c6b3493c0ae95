//! The host's side of a running rule: everything a rule may ask of the game
//! and do to it, and nothing else. A rules implementation lends the game of
//! one call to a `Desk` (`Desk::swap`) and serves its rule's host functions
//! from it. Every question is a `Read`, answered natively and recorded;
//! every change is an `Op`, made and recorded; a card the rule gets is a
//! `CardHandle`, whose properties are read through the desk and recorded
//! too. The table itself is not reachable, so what a call did is exactly
//! its trace: the memo's contract (a call is a function of what it read) is
//! kept by these types, not by each host function's care.

use std::sync::Arc;

use crate::card::{CardId, Color, Side};
use crate::event::{LeftCards, Log};
use crate::limits;
use crate::rules::call::{CallInfo, Lent, Step};
use crate::rules::read::{Answer, CardList, CardSource, Prop, Read, cards_of};
use crate::seat::Seat;
use crate::table::Table;
use crate::text::Text;
use crate::turn::{Choice, ChoiceOption, DrawSpec, FirstDiscard, Op, Penalty, ScriptValue, TurnPlan};
use crate::variant::selector::DeckSelector;
use crate::variant::{HookMode, Variant};

/// Why a host function refused: the rule's error, in its words.
pub type HostError = String;

/// A card as a rule holds it: one design, shown on one side, and where the
/// rule got it from, if it asked for it (a hand, the top card, the card
/// the call is about...). What a rule reads of such a card goes through
/// `Desk::touch` and is recorded; the rule cannot see which card it is
/// otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardHandle {
    pub(crate) id: CardId,
    pub(crate) side: Side,
    pub(crate) source: Option<CardSource>,
}

impl CardHandle {
    /// A card given to the rule as it is (a card a seat chose): what the
    /// rule reads of it needs no recording, as the call's argument names it.
    pub fn given(id: CardId, side: Side) -> CardHandle {
        CardHandle { id, side, source: None }
    }

    /// The card as the game names it, once a reason that names it is shown:
    /// a card the rule asked for is the one now at its place (a replayed
    /// call reads the same, but may be about other cards).
    pub fn settled(self, table: &Table, call: &CallInfo) -> (CardId, Side) {
        match self.source.and_then(|source| crate::rules::read::card_now(source, table, call).ok()) {
            Some(now) => now,
            None => (self.id, self.side),
        }
    }
}

/// An option a rule offers a seat (`choose`): a value, or a card.
#[derive(Debug, Clone)]
pub enum Offered {
    Value(ScriptValue),
    Card(CardHandle),
}

/// The game of one call, lent to a running rule.
pub struct Desk {
    variant: Arc<Variant>,
    call: CallInfo,
    table: Table,
    log: Log,
    plan: TurnPlan,
    trace: Vec<Step>,
}

impl Desk {
    /// A desk for `variant`'s rules, holding nothing until a call is lent.
    pub fn new(variant: Arc<Variant>) -> Desk {
        Desk {
            variant,
            call: CallInfo::new(crate::variant::HookKind::OnPlay, 0),
            table: Table::new(2, false, crate::rng::rng(0)),
            log: Log::new(false),
            plan: TurnPlan::default(),
            trace: Vec::new(),
        }
    }

    /// Takes the game lent for a call, or gives it back (a second swap).
    pub fn swap(&mut self, lent: &mut Lent) {
        lent.swap_with(&mut self.call, &mut self.table, &mut self.log, &mut self.plan, &mut self.trace);
    }

    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    /// The number of seats: a fact of the table for all of its life.
    pub fn players(&self) -> usize {
        self.table.players()
    }

    /// The running call's hook, and what it is about: not a read (the
    /// host's own messages name them).
    pub fn call(&self) -> &CallInfo {
        &self.call
    }

    /// Seat number `p`, checked against the table.
    pub fn seat(&self, p: i64) -> Result<Seat, HostError> {
        seat_number(p, self.players())
    }

    /// Answers a question about the game, recording it.
    pub fn ask(&mut self, read: Read) -> Result<Answer, HostError> {
        let answer = read.answer(&self.table, &self.call, &self.variant)?;
        self.trace.push(Step::Read(read, answer.clone()));
        Ok(answer)
    }

    /// Asks what the call is about, or another question that always has
    /// an answer, recording it (where the host depends on it without the
    /// rule asking).
    fn about(&mut self, read: Read) -> Answer {
        let answer = read.answer(&self.table, &self.call, &self.variant).expect("what a call is about always answers");
        self.trace.push(Step::Read(read, answer.clone()));
        answer
    }

    /// The cards of a list (recorded: how many there are), each knowing
    /// where it came from; the draw pile from its top.
    pub fn cards(&mut self, list: CardList) -> Result<Vec<CardHandle>, HostError> {
        self.ask(Read::Cards(list))?;
        let side = self.table.side;
        let cards = cards_of(list, &self.table, &self.call)?;
        let handle = |(index, &id): (usize, &CardId)| CardHandle {
            id,
            side,
            source: Some(CardSource { list, index: index as u16 }),
        };
        Ok(match list {
            CardList::Draw => cards.iter().rev().enumerate().map(handle).collect(),
            _ => cards.iter().enumerate().map(handle).collect(),
        })
    }

    /// Up to `count` cards from the top of the draw pile (recorded: how
    /// many there are).
    pub fn peek(&mut self, count: usize) -> Result<Vec<CardHandle>, HostError> {
        self.ask(Read::Peek { count })?;
        let (side, draw) = (self.table.side, &self.table.draw);
        Ok((0..draw.len().min(count))
            .map(|index| CardHandle {
                id: draw[draw.len() - 1 - index],
                side,
                source: Some(CardSource { list: CardList::Draw, index: index as u16 }),
            })
            .collect())
    }

    /// A card's name, as a person reads it (`eval`'s answer: not a read,
    /// since nothing is remembered of it).
    pub fn card_name(&self, card: &CardHandle) -> String {
        self.variant.face_name(card.id, card.side)
    }

    /// The card the call is about, as the rule gets it.
    pub fn arg_card(&self) -> Option<CardHandle> {
        let (id, side) = self.call.card?;
        Some(CardHandle { id, side, source: Some(CardSource { list: CardList::Arg, index: 0 }) })
    }

    /// What `card` shows of `prop` (`Prop::word`), recorded where the rule
    /// asked for the card.
    pub fn touch(&mut self, card: &CardHandle, prop: Prop) -> u64 {
        let word = prop.word(card.id, self.variant.face(card.id, card.side), &self.variant.names);
        if let Some(source) = card.source {
            self.trace.push(Step::Read(Read::Prop { source, prop }, Answer::Word(word)));
        }
        word
    }

    /// The seat the hook is about (recorded).
    pub fn me(&mut self) -> Seat {
        self.about(Read::Me);
        self.call.me
    }

    /// The side in play (recorded: a colour's name, a card offered, depend
    /// on it).
    pub fn side(&mut self) -> Side {
        self.about(Read::Side);
        self.table.side
    }

    /// The colour named `name`, of the side in play (recorded).
    pub fn color(&mut self, name: &str) -> Result<Color, HostError> {
        let side = self.side();
        color_named(&self.variant, side, name)
    }

    /// The symbol group of the card the hook is about: a penalty's default
    /// group (recorded).
    pub fn played_group(&mut self) -> Text {
        if self.call.card.is_none() {
            return Text::default();
        }
        let read = Read::Prop { source: CardSource { list: CardList::Arg, index: 0 }, prop: Prop::Group };
        match self.about(read).index() {
            Some(group) => self.variant.names.symbol_info(group).name.as_str().into(),
            None => Text::default(),
        }
    }

    /// `print` and `debug`: an effect hook's output is an event of the game
    /// log (replayed with its effects); other hooks may not change the log,
    /// so theirs is kept apart, and such a call is never replayed.
    pub fn print(&mut self, text: &str) {
        let text = cut_line(text);
        if self.call.hook.mode() == HookMode::Effect {
            // Past the bound of one call, output is no longer kept (the
            // next change the hook makes is an error).
            let steps = self.trace.len();
            if steps < limits::HOOK_STEPS {
                self.perform(Op::Log(text.as_ref().into()));
            } else if steps == limits::HOOK_STEPS {
                let bound = format!("(more output of this hook is not kept: {steps} things at most)");
                self.perform(Op::Log(bound.into()));
            }
        } else {
            self.trace.push(Step::Opaque);
            self.log.print(&text);
        }
    }

    /// Refuses a change outside an effect hook, naming the hook.
    pub fn may_change(&self, what: &str) -> Result<(), HostError> {
        let hook = self.call.hook;
        if self.call.eval {
            return Err(format!("{what}() changes the game; eval only asks a question of it"));
        }
        match hook.mode() {
            HookMode::Effect if self.trace.len() >= limits::HOOK_STEPS => {
                Err(format!("{what}(): one call of a hook may ask and change at most {} things", limits::HOOK_STEPS))
            }
            HookMode::Effect => Ok(()),
            HookMode::Predicate => {
                Err(format!("{what}() changes the game; {} hooks only answer a question", hook.name()))
            }
            HookMode::Transform => {
                Err(format!("{what}() changes the game; {} hooks may change only the value they return", hook.name()))
            }
        }
    }

    /// Applies one change and records it.
    fn perform(&mut self, op: Op) {
        self.table.apply_op(&op, &mut self.plan, &self.variant, &mut self.log);
        self.trace.push(Step::Op(op));
    }

    /// Performs a change that is ignored on a player's last card (skips,
    /// reverses, colour choices, hand swaps: rules.md 1.6).
    fn act(&mut self, what: &str, op: Op) -> Result<(), HostError> {
        self.may_change(what)?;
        if self.about(Read::GoingOut) == Answer::bool(false) {
            self.perform(op);
        }
        Ok(())
    }

    /// Performs a change that happens even on a player's last card.
    fn change(&mut self, what: &str, op: Op) -> Result<(), HostError> {
        self.may_change(what)?;
        self.perform(op);
        Ok(())
    }

    /// Seat `p`, which must still be in the hand (recorded).
    fn playing_seat(&mut self, p: i64) -> Result<Seat, HostError> {
        let seat = self.seat(p)?;
        if self.about(Read::Playing(seat)) != Answer::bool(true) {
            return Err(format!("p{seat} has left the hand"));
        }
        Ok(seat)
    }

    /// Seat `p`, which must hold `card` (recorded).
    fn holding(&mut self, p: i64, card: &CardHandle) -> Result<Seat, HostError> {
        let seat = self.seat(p)?;
        self.touch(card, Prop::Id);
        if self.about(Read::InHand { seat, card: card.id }) != Answer::bool(true) {
            return Err(format!("p{seat} holds no {}", self.variant.card_name(card.id)));
        }
        Ok(seat)
    }

    pub fn skip(&mut self, steps: usize) -> Result<(), HostError> {
        self.act("skip", Op::Skip(steps))
    }

    pub fn reverse(&mut self) -> Result<(), HostError> {
        self.act("reverse", Op::Reverse)
    }

    pub fn set_next(&mut self, p: i64) -> Result<(), HostError> {
        let seat = self.seat(p)?;
        self.act("set_next", Op::SetNext(seat))
    }

    /// Seat `p` draws `n` cards at once; how many there were to draw.
    pub fn draw(&mut self, p: i64, n: i64) -> Result<u32, HostError> {
        self.may_change("draw")?;
        let seat = self.seat(p)?;
        let count = u32::try_from(n).map_err(|_| format!("cannot draw {n} cards"))?;
        let Answer::Word(drawn) = self.about(Read::Drawable { count }) else { unreachable!("a count") };
        let drawn = drawn as u32;
        self.perform(Op::Draw { seat, count, drawn });
        Ok(drawn)
    }

    /// Seat `p` draws until a card of the colour named; how many that took
    /// is not known before the draw, so such a call always runs.
    pub fn draw_until(&mut self, p: i64, color: &str) -> Result<u32, HostError> {
        let seat = self.seat(p)?;
        let until = Some(self.color(color)?);
        self.may_change("draw_until")?;
        let drawn = self.table.draw_cards(&self.variant, seat, DrawSpec { count: 0, until }, &mut self.log);
        self.trace.push(Step::Opaque);
        Ok(drawn)
    }

    /// A penalty of `n` cards on seat `p`, by the seat the hook is about.
    pub fn penalty(&mut self, p: i64, n: i64) -> Result<(), HostError> {
        self.may_change("penalty")?;
        let victim = self.seat(p)?;
        let count = u32::try_from(n).map_err(|_| format!("cannot draw {n} cards"))?;
        let draw = DrawSpec { count, until: None };
        let by = self.me();
        let penalty = Penalty { victim, by, draw, group: self.played_group(), challenge: None, pending: false };
        self.change("penalty", Op::Penalty(penalty))
    }

    /// A penalty as the rule described it (see `may_change("penalty")`,
    /// `me`, `side` and `played_group` for what it is read with).
    pub fn penalty_of(&mut self, penalty: Penalty) -> Result<(), HostError> {
        self.change("penalty", Op::Penalty(penalty))
    }

    pub fn ask_color(&mut self, p: i64) -> Result<(), HostError> {
        let seat = self.seat(p)?;
        self.act("ask_color", Op::AskColor(seat))
    }

    pub fn set_color(&mut self, name: &str) -> Result<(), HostError> {
        self.may_change("set_color")?;
        let color = self.color(name)?;
        self.change("set_color", Op::SetColor(color))
    }

    pub fn set_power(&mut self, p: i64, green: bool) -> Result<(), HostError> {
        self.may_change("set_power")?;
        let seat = self.seat(p)?;
        if self.variant.power_cards == 0 {
            return Err("this variant has no Power Cards".into());
        }
        self.change("set_power", Op::SetPower(seat, green))
    }

    pub fn flip(&mut self) -> Result<(), HostError> {
        self.may_change("flip")?;
        if !self.variant.double_sided {
            return Err("flip needs a double-sided deck".into());
        }
        self.change("flip", Op::Flip)
    }

    pub fn swap_hands(&mut self, a: i64, b: i64) -> Result<(), HostError> {
        let (a, b) = (self.seat(a)?, self.seat(b)?);
        self.act("swap_hands", Op::SwapHands(a, b))
    }

    pub fn pass_hands(&mut self) -> Result<(), HostError> {
        self.act("pass_hands", Op::PassHands)
    }

    /// Keeps `value` under `name`, for seat `seat` or the table; `None`
    /// forgets it.
    pub fn set_state(&mut self, seat: Option<Seat>, name: Text, value: Option<ScriptValue>) -> Result<(), HostError> {
        self.may_change("set_state")?;
        if self.about(Read::StateRoom { seat, name: name.clone() }) == Answer::bool(false) {
            let bound = limits::STATE_VALUES;
            return Err(format!("at most {bound} state values per seat and for the table"));
        }
        self.change("set_state", Op::SetState { seat, name, value })
    }

    /// Seat `p` puts `card` from its hand under the top of the discard pile.
    pub fn discard(&mut self, p: i64, card: &CardHandle) -> Result<(), HostError> {
        self.may_change("discard")?;
        let seat = self.holding(p, card)?;
        self.change("discard", Op::Discard { seat, cards: vec![card.id] })
    }

    /// Seat `p` discards every card the selector picks, in one change;
    /// how many.
    pub fn discard_all(&mut self, p: i64, selector: std::rc::Rc<DeckSelector>) -> Result<usize, HostError> {
        self.may_change("discard_all")?;
        let seat = self.seat(p)?;
        let Answer::Ids(cards) = self.about(Read::Matching { seat, selector }) else { unreachable!("ids") };
        let count = cards.len();
        if count > 0 {
            self.perform(Op::Discard { seat, cards: cards.into_vec() });
        }
        Ok(count)
    }

    /// `card` moves from seat `from`'s hand to seat `to`'s.
    pub fn give(&mut self, from: i64, to: i64, card: &CardHandle) -> Result<(), HostError> {
        self.may_change("give")?;
        let from = self.holding(from, card)?;
        let to = self.playing_seat(to)?;
        self.change("give", Op::Give { from, to, card: card.id })
    }

    /// Shuffles the pile named: `"draw"`, or `"discard"` below its top card.
    pub fn shuffle(&mut self, pile: &str) -> Result<(), HostError> {
        let discard = match pile {
            "draw" => false,
            "discard" => true,
            other => return Err(format!("shuffle takes \"draw\" or \"discard\", not \"{other}\"")),
        };
        self.change("shuffle", Op::Shuffle { discard })
    }

    /// Seat `p` leaves the hand, its cards under the draw pile (`"draw"`,
    /// or the older `"under"`), `"aside"`, or under the top of the
    /// `"discard"` pile.
    pub fn leave_hand(&mut self, p: i64, place: &str) -> Result<(), HostError> {
        self.may_change("leave_hand")?;
        let seat = self.playing_seat(p)?;
        let Some(cards) = LeftCards::named(place) else {
            return Err(format!(
                "leave_hand puts the cards under the \"draw\" pile, \"aside\" or under the top of the \"discard\" pile, not \"{place}\""
            ));
        };
        if self.about(Read::SeatsLeft) == Answer::int(1) {
            return Err("the last seat in the hand cannot leave it: end the hand instead (end_hand)".into());
        }
        self.change("leave_hand", Op::Leave { seat, cards })
    }

    /// The hand ends now, with `places` (seat numbers, the winner first).
    pub fn end_hand(&mut self, places: &[i64]) -> Result<(), HostError> {
        self.may_change("end_hand")?;
        let mut ranking = Vec::with_capacity(places.len());
        for &p in places {
            let seat = if ranking.is_empty() { self.playing_seat(p)? } else { self.seat(p)? };
            if ranking.contains(&seat) {
                return Err(format!("end_hand names p{seat} twice"));
            }
            ranking.push(seat);
        }
        if ranking.is_empty() {
            return Err("end_hand takes at least the winner".into());
        }
        self.change("end_hand", Op::EndHand { ranking })
    }

    /// Seat `p` is to choose one of `options` (`tag` tells the rules'
    /// `on_choice` hooks which choice it was).
    pub fn choose(&mut self, p: i64, tag: Text, options: Vec<Offered>) -> Result<(), HostError> {
        self.may_change("choose")?;
        let chooser = self.playing_seat(p)?;
        if options.is_empty() || options.len() > limits::CHOICE_OPTIONS {
            return Err(format!("choose takes 1 to {} options", limits::CHOICE_OPTIONS));
        }
        // A card offered is offered on the side in play: a read.
        if options.iter().any(|option| matches!(option, Offered::Card(_))) {
            self.side();
        }
        let options = options
            .into_iter()
            .map(|option| match option {
                Offered::Card(card) => {
                    // The option is this very card: a read of it.
                    self.touch(&card, Prop::Id);
                    ChoiceOption::Card(card.id, card.side)
                }
                Offered::Value(value) => ChoiceOption::Value(value),
            })
            .collect();
        self.change("choose", Op::Choose(Choice { chooser, tag, options }))
    }

    /// The first discard goes back into the draw pile, and another is
    /// turned up.
    pub fn redraw(&mut self) -> Result<(), HostError> {
        self.change("redraw", Op::FirstDiscard(FirstDiscard::Redraw))
    }

    /// The first discard stays, and the next card is turned up onto it.
    pub fn turn_next(&mut self) -> Result<(), HostError> {
        self.change("turn_next", Op::FirstDiscard(FirstDiscard::TurnNext))
    }

    /// A line of the game log.
    pub fn log(&mut self, text: &str) -> Result<(), HostError> {
        let text = cut_line(text);
        self.change("log", Op::Log(text.as_ref().into()))
    }

    /// One more for a counter of the simulation statistics.
    pub fn count(&mut self, name: Text) -> Result<(), HostError> {
        self.change("count", Op::Count(name))
    }
}

/// Seat number `p` at a table of `players`.
pub fn seat_number(p: i64, players: usize) -> Result<Seat, HostError> {
    usize::try_from(p).ok().filter(|&s| s < players).ok_or_else(|| format!("no player {p} at a table of {players}"))
}

/// The colour named `name`, of `side`.
pub fn color_named(variant: &Variant, side: Side, name: &str) -> Result<Color, HostError> {
    let color = variant.names.color(name).ok_or_else(|| format!("unknown colour '{name}'"))?;
    if !variant.colors_of(side).contains(&color) {
        return Err(format!("'{name}' is not a colour of the {} side", side.name()));
    }
    Ok(color)
}

/// A line a rule logs or prints, cut at `limits::LOG_LINE` characters,
/// saying how many more there were.
pub fn cut_line(text: &str) -> std::borrow::Cow<'_, str> {
    let limit = limits::LOG_LINE;
    match text.char_indices().nth(limit) {
        Some((cut, _)) => format!("{}… ({} more characters)", &text[..cut], text.chars().count() - limit).into(),
        None => text.into(),
    }
}
