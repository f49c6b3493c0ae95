//! The trace of hook calls, in an author's words (`--trace`, the REPL's
//! `trace on`): for each call, the hook and what it was about, the rule and
//! function that answered, whether the memo or the script answered, each
//! question it asked with its answer as the script saw it, each change it
//! made, and its reply. Rules keep a `Tracer` only while tracing is on;
//! they tell it of a call from their slow path, so that a game that does
//! not trace pays nothing.
//!
//! A trace kept to one seat's sight (`TraceSight::Seat`) leaves out the
//! calls about a card the seat cannot see, and shows what a call read of
//! hidden cards (another hand's cards, the draw pile) or of a value a rule
//! keeps and does not declare public (`public_state`: the seat's view shows
//! no other) as `(hidden)`, and then its reply too: it may depend on them.
//! What a call asks after such an answer is not told either: which
//! questions it asks, and about what (a selector made of a hidden card's
//! colour), may follow from the answer. Nor is whether the memo answered
//! it (`script or memo`): a memo's answer says the hidden reads answered
//! as they did for a call it recorded.

use unolab_core::card::{CardId, Side};
use unolab_core::limits::{TRACE_LINES, TRACE_STEPS};
use unolab_core::rules::read::{Answer, CardList, CardRef, CardSource, Read, card_now};
use unolab_core::rules::{CallInfo, HookArg, Reply, RuleFailure, Step, TraceLine, TraceSight, Verdict};
use unolab_core::seat::Seat;
use unolab_core::table::Table;
use unolab_core::turn::{ChoiceOption, Op, Penalty};
use unolab_core::variant::{FnRef, HookKind, Variant};

use crate::values::{ScriptNames, answer_value};

/// Who answered a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answered {
    /// The script ran.
    Script,
    /// The memo replayed a recorded call: its reads answered the same.
    Memo,
    /// The memo knew the answer while moves were worked out, without a
    /// call (`Rules::known`).
    Known,
}

impl Answered {
    fn words(self) -> &'static str {
        match self {
            Answered::Script => "script",
            Answered::Memo => "memo",
            Answered::Known => "memo (known answer)",
        }
    }
}

/// One call to tell of.
pub struct Told<'a> {
    pub f: &'a FnRef,
    pub arg: &'a HookArg,
    pub call: &'a CallInfo,
    pub answered: Answered,
    /// What it read and changed, in order.
    pub steps: &'a [Step],
    pub reply: Result<&'a Reply, &'a RuleFailure>,
    /// The table as the call found it, and as it left it.
    pub before: &'a Table,
    pub after: &'a Table,
    /// How many events the log held when the call was made.
    pub at_event: usize,
}

/// The lines of a trace, kept until a front end takes them.
pub struct Tracer {
    sight: TraceSight,
    names: ScriptNames,
    lines: Vec<TraceLine>,
    /// Lines past `TRACE_LINES`, counted.
    left_out: usize,
    /// The version of the table the known answers told of were given on
    /// (while it was frozen).
    stamp: u64,
    /// The known answers told of for this version of the table: moves are
    /// worked out again and again (for the prompt, completion...), and an
    /// answer is told once.
    known: std::collections::HashSet<String>,
    /// Telling of no call (`pause`).
    paused: bool,
}

impl Tracer {
    pub fn new(variant: &Variant, sight: TraceSight) -> Tracer {
        Tracer {
            sight,
            names: ScriptNames::new(variant),
            lines: Vec::new(),
            left_out: 0,
            stamp: 0,
            known: Default::default(),
            paused: false,
        }
    }

    /// A known answer is given on the table, version `stamp`, frozen: the
    /// answers told of on another version may be told again.
    pub fn frozen(&mut self, stamp: u64) {
        if stamp != self.stamp {
            self.known.clear();
        }
        self.stamp = stamp;
    }

    /// The lines since they were last taken (and how many were left out).
    pub fn take(&mut self) -> Vec<TraceLine> {
        let mut lines = std::mem::take(&mut self.lines);
        if self.left_out > 0 {
            let at_event = lines.last().map_or(0, |line| line.at_event);
            let text = format!("trace: {} more lines left out (at most {TRACE_LINES} at a time)", self.left_out);
            lines.push(TraceLine { at_event, text });
            self.left_out = 0;
        }
        lines
    }

    fn push(&mut self, at_event: usize, text: String) {
        if self.lines.len() < TRACE_LINES {
            self.lines.push(TraceLine { at_event, text });
        } else {
            self.left_out += 1;
        }
    }

    /// Tells of no call while `paused` (`Rules::pause_trace`).
    pub fn pause(&mut self, paused: bool) {
        self.paused = paused;
    }

    /// Tells of one call of `variant`'s rules.
    pub fn tell(&mut self, variant: &Variant, told: Told) {
        if self.paused {
            return;
        }
        let sight = Sight { seat: self.sight, before: told.before, after: told.after, call: told.call };
        if matches!(told.arg, HookArg::Card(..)) && !sight.sees_arg() {
            return;
        }
        let words = Words { variant, names: &self.names, sight: &sight };
        // Whether the call read anything hidden, told or not (past
        // `TRACE_STEPS` too): then its reply, how many steps it took after
        // the first shown, and whether the memo answered it (the hidden
        // reads answered as they did for a call it recorded) are not told.
        let secret = self.sight != TraceSight::All
            && told.steps.iter().any(|step| matches!(step, Step::Read(read, answer) if words.read(read, answer).1));
        let (mut hidden, mut held_back) = (false, false);
        let mut body = Vec::new();
        for step in told.steps.iter().take(TRACE_STEPS) {
            // Once a call has had a hidden answer, which questions it asks
            // next, and about what, may follow from it: they are not told
            // (its changes are: the table shows them anyway).
            if hidden && self.sight != TraceSight::All && !matches!(step, Step::Op(_)) {
                held_back = true;
                continue;
            }
            if std::mem::take(&mut held_back) {
                body.push(AFTER_HIDDEN.to_string());
            }
            body.push(match step {
                Step::Read(read, answer) => {
                    let (line, shown_hidden) = words.read(read, answer);
                    hidden |= shown_hidden;
                    format!("read {line}")
                }
                Step::Op(op) => format!("change: {}", words.op(op)),
                Step::Opaque => "something the memo cannot replay (it runs every time)".to_string(),
            });
        }
        if held_back {
            body.push(AFTER_HIDDEN.to_string());
        }
        match told.steps.len().checked_sub(TRACE_STEPS) {
            Some(1..) if secret => body.push("... more reads and changes".into()),
            Some(more @ 1..) => body.push(format!("... {more} more reads and changes")),
            _ => {}
        }
        let reply = match told.reply {
            Err(failure) => format!("failed: {failure}"),
            Ok(Reply::Done) => "done".to_string(),
            Ok(_) if secret => "(hidden)".to_string(),
            Ok(reply) => words.reply(reply),
        };
        let layer = variant.layers.get(told.f.layer).map_or("?", |layer| layer.name.as_str());
        let head = format!(
            "trace: {}({}) for p{}: {layer} fn {}, {} -> {reply}",
            told.f.kind.name(),
            words.arg(told.arg, told.call),
            told.call.me,
            told.f.function,
            if secret { SCRIPT_OR_MEMO } else { told.answered.words() },
        );
        if told.answered == Answered::Known && !self.known.insert(format!("{head}\n{}", body.join("\n"))) {
            return;
        }
        self.push(told.at_event, head);
        for line in body {
            self.push(told.at_event, format!("trace:   {line}"));
        }
    }
}

/// What the trace may show: everything, or what one seat sees. Copies of
/// a card share its id, so what a seat sees is told by where a card is,
/// as the call names it, not by which card it is: the card a hook is
/// about is public once played or turned up (`on_play`, `first_discard`),
/// else the seat's own only if the call is its own (a card it may play,
/// draw or act with); a hand is its holder's; the top card is public, the
/// draw pile hidden.
struct Sight<'a> {
    seat: TraceSight,
    before: &'a Table,
    after: &'a Table,
    call: &'a CallInfo,
}

impl Sight<'_> {
    /// May the seat see what the call holds of `holder`'s?
    fn sees_hand(&self, holder: Seat) -> bool {
        match self.seat {
            TraceSight::All => true,
            TraceSight::Seat(seat) => seat == holder,
        }
    }

    /// May the seat see the value a rule keeps under `name` (the table's or
    /// a seat's, its own too)? Only where the rules declare it public, as
    /// the seat's view shows it (`SeatView::state`): a rule may keep a
    /// secret there (a card, a hand size it noted).
    fn sees_state(&self, variant: &Variant, name: &str) -> bool {
        matches!(self.seat, TraceSight::All) || variant.public_state.contains(name)
    }

    /// May the seat see the card the call is about?
    fn sees_arg(&self) -> bool {
        matches!(self.call.hook, HookKind::OnPlay | HookKind::FirstDiscard) || self.sees_hand(self.call.me)
    }

    /// May the seat see the card at `source`?
    fn sees_at(&self, source: CardSource) -> bool {
        match source.list {
            CardList::Top => true,
            CardList::Arg => self.sees_arg(),
            CardList::Hand(holder) => self.sees_hand(holder),
            CardList::Drawn | CardList::Playable => self.sees_hand(self.call.me),
            CardList::Draw => matches!(self.seat, TraceSight::All),
        }
    }

    /// The card at `source`, as the call found it or left it.
    fn card_at(&self, source: CardSource) -> Option<(CardId, Side)> {
        card_now(source, self.before, self.call).or_else(|_| card_now(source, self.after, self.call)).ok()
    }
}

/// Things of a call in words.
struct Words<'a> {
    variant: &'a Variant,
    names: &'a ScriptNames,
    sight: &'a Sight<'a>,
}

const HIDDEN: &str = "(hidden)";

/// Who answered a call that read something hidden.
const SCRIPT_OR_MEMO: &str = "script or memo";
/// In place of the questions a call asked after a hidden answer.
const AFTER_HIDDEN: &str = "read ... (hidden: what it asked after a hidden answer may tell the answer)";

impl Words<'_> {
    /// A card, if `seen`.
    fn card(&self, id: CardId, side: Side, seen: bool) -> String {
        match seen {
            true => self.variant.face_name(id, side),
            false => "a hidden card".to_string(),
        }
    }

    fn sees_state(&self, name: &str) -> bool {
        self.sight.sees_state(self.variant, name)
    }

    fn arg(&self, arg: &HookArg, call: &CallInfo) -> String {
        match arg {
            HookArg::None => String::new(),
            HookArg::Card(id, side) => self.card(*id, *side, self.sight.sees_arg()),
            HookArg::Seat(seat) => format!("p{seat}"),
            HookArg::Penalty(penalty) => self.penalty(penalty),
            HookArg::Chosen { tag, value } if self.sight.sees_hand(call.me) => {
                let value = match value {
                    ChoiceOption::Value(value) => value.to_string(),
                    ChoiceOption::Card(id, side) => self.card(*id, *side, true),
                };
                format!("{tag}: {value}")
            }
            HookArg::Chosen { tag, .. } => format!("{tag}: {HIDDEN}"),
        }
    }

    fn penalty(&self, p: &Penalty) -> String {
        let until = p.draw.until.map(|c| format!(" until {}", self.color(c))).unwrap_or_default();
        let waits = if p.pending { ", waiting for an answer" } else { "" };
        format!("p{} draws {}{until} (by p{}, group '{}'{waits})", p.victim, p.draw.count, p.by, p.group)
    }

    fn color(&self, color: unolab_core::card::Color) -> &str {
        self.variant.names.colors.get(usize::from(color)).map_or("?", |c| c.as_str())
    }

    /// Where a card a script holds came from, as the script named it.
    fn source(&self, source: CardSource) -> String {
        match source.list {
            CardList::Top => "top()".into(),
            CardList::Drawn => "drawn()".into(),
            CardList::Arg => "card".into(),
            CardList::Hand(seat) => format!("hand({seat})[{}]", source.index),
            CardList::Playable => format!("playable_cards()[{}]", source.index),
            CardList::Draw => format!("peek()[{}]", source.index),
        }
    }

    /// A card a question names, and whether it is hidden: a card from no
    /// list is one the seat of the call chose.
    fn card_ref(&self, card: CardRef) -> (String, bool) {
        match card {
            CardRef::At(source) => (self.source(source), !self.sight.sees_at(source)),
            CardRef::Id(id) => {
                let seen = self.sight.sees_hand(self.sight.call.me);
                (self.card(id, self.sight.before.side(), seen), !seen)
            }
        }
    }

    /// A question and its answer, as the script saw it (`hidden`: not the
    /// seat's to see).
    fn read(&self, read: &Read, answer: &Answer) -> (String, bool) {
        let seat_read = |name: &str, seat: &Seat| format!("{name}({seat})");
        let (question, hidden) = match read {
            Read::Me => ("me()".to_string(), false),
            Read::AsFlex => ("as_flex()".into(), false),
            Read::Target => ("target()".into(), false),
            Read::GoingOut => ("going_out()".into(), false),
            Read::Current => ("current()".into(), false),
            Read::Dealer => ("dealer()".into(), false),
            Read::NextPlayer { steps: 1 } => ("next_player()".into(), false),
            Read::NextPlayer { steps } => (format!("next_player({steps})"), false),
            Read::SeatAfter { from, steps } => (format!("seat_after({from}, {steps})"), false),
            Read::Direction => ("direction()".into(), false),
            Read::Color => ("color()".into(), false),
            Read::PrevColor => ("prev_color()".into(), false),
            Read::Side => ("side()".into(), false),
            Read::HandSize(seat) => (seat_read("hand_size", seat), false),
            Read::Cards(list) => return (self.cards(*list, answer), false),
            Read::Prop { source, prop } => {
                let name = crate::api::CARD_PROPERTIES.iter().find(|(_, p)| p == prop).map_or("?", |(name, _)| name);
                (format!("{}.{name}", self.source(*source)), !self.sight.sees_at(*source))
            }
            Read::DrawSize => ("draw_size()".into(), false),
            Read::DiscardSize => ("discard_size()".into(), false),
            Read::Answering => ("answering()".into(), false),
            Read::PendingPenalty => ("pending_penalty()".into(), false),
            Read::Power(seat) => (seat_read("power", seat), false),
            Read::TopIsFresh => ("top_is_fresh()".into(), false),
            Read::LastPlayer => ("last_player()".into(), false),
            Read::Score(seat) => (seat_read("score", seat), false),
            Read::Points(seat) => (seat_read("points", seat), !self.sight.sees_hand(*seat)),
            Read::Scores => ("scores()".into(), false),
            Read::AllPoints => ("points()".into(), !matches!(self.sight.seat, TraceSight::All)),
            Read::State { seat: None, name } => (format!("state(\"{name}\")"), !self.sees_state(name)),
            Read::State { seat: Some(seat), name } => {
                (format!("seat_state({seat}, \"{name}\")"), !self.sees_state(name))
            }
            Read::Playing(seat) => (seat_read("playing", seat), false),
            Read::SeatsLeft => ("seats_left()".into(), false),
            Read::SeatsHolding { at_least } => (format!("seats_holding({at_least})"), false),
            Read::Ranking => ("ranking()".into(), false),
            Read::InHand { seat, card } => {
                let hidden = !self.sight.sees_hand(*seat);
                let card = self.card(*card, self.sight.before.side(), !hidden);
                (format!("p{seat} holds {card}"), hidden)
            }
            Read::Matching { seat, selector } => {
                (format!("cards of hand({seat}) that {:?} picks", selector.written()), !self.sight.sees_hand(*seat))
            }
            Read::Count { seat, selector } => {
                (format!("count({seat}, {:?})", selector.written()), !self.sight.sees_hand(*seat))
            }
            Read::Holds { seat, selector } => {
                (format!("holds({seat}, {:?})", selector.written()), !self.sight.sees_hand(*seat))
            }
            Read::Peek { count } => (format!("peek({count}): cards there"), false),
            Read::Drawable { count } => (format!("cards there to draw, of {count}"), false),
            Read::StateRoom { name, .. } => (format!("room to keep '{name}'"), !self.sees_state(name)),
            Read::Playable(card) => {
                let (card, hidden) = self.card_ref(*card);
                (format!("playable({card})"), hidden)
            }
            Read::MatchesTop(card) => {
                let (card, hidden) = self.card_ref(*card);
                (format!("matches_top({card})"), hidden)
            }
        };
        let value = match (hidden, answer) {
            (true, _) => HIDDEN.to_string(),
            (false, Answer::Penalty(Some(penalty))) => self.penalty(penalty),
            (false, Answer::Ids(ids)) => match ids.len() {
                1 => "1 card".to_string(),
                n => format!("{n} cards"),
            },
            (false, answer) => format!("{:?}", answer_value(read, answer, self.names, self.variant)),
        };
        (format!("{question} = {value}"), hidden)
    }

    /// A question for a list of cards: the top or drawn card by name (if
    /// the seat may see it), a hand or pile by its size.
    fn cards(&self, list: CardList, answer: &Answer) -> String {
        let one = |what: &str| {
            let source = CardSource { list, index: 0 };
            let found = self.sight.card_at(source);
            let card = found.map_or("()".to_string(), |(id, side)| self.card(id, side, self.sight.sees_at(source)));
            format!("{what} = {card}")
        };
        // A list is answered by its size.
        let size = match answer {
            Answer::Word(size) => *size as usize,
            Answer::Ids(ids) => ids.len(),
            _ => 0,
        };
        match list {
            CardList::Top => one("top()"),
            CardList::Drawn => one("drawn()"),
            CardList::Arg => one("card"),
            CardList::Hand(seat) => format!("hand({seat}) = {size} cards"),
            CardList::Playable => format!("playable_cards() = {size} cards"),
            CardList::Draw => format!("the draw pile = {size} cards"),
        }
    }

    fn op(&self, op: &Op) -> String {
        match op {
            Op::Skip(n) => format!("skip {n}"),
            Op::Reverse => "reverse the direction".into(),
            Op::SetNext(seat) => format!("p{seat} plays next"),
            Op::Penalty(p) => format!("penalty: {}", self.penalty(p)),
            Op::AskColor(seat) => format!("p{seat} is to name a colour"),
            Op::SetColor(c) => format!("the colour is {}", self.color(*c)),
            Op::SetPower(seat, green) => format!("p{seat}'s Power Card turns {}", if *green { "green" } else { "red" }),
            Op::Flip => "the cards flip".into(),
            Op::Draw { seat, count, drawn } if drawn < count => format!("p{seat} draws {count} ({drawn} there)"),
            Op::Draw { seat, count, .. } => format!("p{seat} draws {count}"),
            Op::SwapHands(a, b) => format!("p{a} and p{b} swap hands"),
            Op::PassHands => "the hands pass on".into(),
            Op::SetState { seat, name, value } => {
                let what = match seat {
                    None => format!("state '{name}'"),
                    Some(seat) => format!("p{seat}'s state '{name}'"),
                };
                match value {
                    // Forgetting is a value too: `()`.
                    _ if !self.sees_state(name) => format!("{what} = {HIDDEN}"),
                    Some(value) => format!("{what} = {value}"),
                    None => format!("{what} forgotten"),
                }
            }
            Op::Discard { seat, cards } => {
                let names: Vec<String> =
                    cards.iter().map(|&card| self.card(card, self.sight.after.side(), true)).collect();
                format!("p{seat} discards {}", names.join(", "))
            }
            Op::Give { from, to, card } => {
                let seen = self.sight.sees_hand(*from) || self.sight.sees_hand(*to);
                format!("p{from} gives p{to} {}", self.card(*card, self.sight.after.side(), seen))
            }
            Op::Shuffle { discard: false } => "the draw pile is shuffled".into(),
            Op::Shuffle { discard: true } => "the discard pile is shuffled".into(),
            Op::Leave { seat, cards } => format!("p{seat} leaves the hand, its cards to the {}", cards.place()),
            Op::EndHand { ranking } => format!("the hand ends, ranking {ranking:?}"),
            Op::Choose(choice) if self.sight.sees_hand(choice.chooser) => {
                let options: Vec<String> = choice
                    .options
                    .iter()
                    .map(|option| match option {
                        ChoiceOption::Value(value) => value.to_string(),
                        ChoiceOption::Card(id, side) => self.card(*id, *side, true),
                    })
                    .collect();
                format!("p{} is to choose {}: {}", choice.chooser, choice.tag, options.join(", "))
            }
            Op::Choose(choice) => format!("p{} is to choose {}", choice.chooser, choice.tag),
            Op::FirstDiscard(first) => format!("the first discard: {first:?}"),
            Op::Log(text) => format!("log \"{text}\""),
            Op::Count(name) => format!("count \"{name}\""),
        }
    }

    fn reply(&self, reply: &Reply) -> String {
        match reply {
            Reply::Verdict(Verdict::Yes) => "true".into(),
            Reply::Verdict(Verdict::Allow) => "\"allow\"".into(),
            Reply::Verdict(Verdict::No(None)) => "false".into(),
            Reply::Verdict(Verdict::No(Some(reason))) => {
                let card = reason.card.map(|card| {
                    let (id, side) = card.settled(self.sight.after, self.sight.call);
                    self.card(id, side, true)
                });
                let text = match card {
                    Some(card) => reason.text.replace(unolab_core::rules::CARD_SLOT, &card),
                    None => reason.text.to_string(),
                };
                format!("no: \"{text}\"")
            }
            Reply::Seats(seats) if seats.is_empty() => "nobody".into(),
            Reply::Seats(seats) => seats.iter().map(|s| format!("p{s}")).collect::<Vec<_>>().join(", "),
            Reply::Penalty(p) => self.penalty(p),
            Reply::Points(points) => format!("{points:?}"),
            Reply::Count(n) => format!("{n} cards"),
            Reply::Done => "done".into(),
        }
    }
}
