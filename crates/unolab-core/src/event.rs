//! The event log: everything that happens at the table, in order. It is the
//! source of transcripts (what `play` shows, what snapshots record) and the
//! record a replay is checked against.

use std::fmt::Write as _;

use crate::card::{CardId, Color, Direction, Side};
use crate::seat::Seat;
use crate::variant::Variant;

/// Where the cards of a seat that leaves the hand go (`leave_hand`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LeftCards {
    /// Under the draw pile.
    UnderDraw,
    /// Out of play.
    Aside,
    /// Onto the discard pile, under its top card (the top stays).
    UnderTop,
}

impl LeftCards {
    /// The place as a rule names it (`leave_hand(p, PLACE)`): `"draw"`
    /// (or `"under"`, the older word), `"aside"`, `"discard"`.
    pub fn named(place: &str) -> Option<LeftCards> {
        match place {
            "draw" | "under" => Some(LeftCards::UnderDraw),
            "aside" => Some(LeftCards::Aside),
            "discard" => Some(LeftCards::UnderTop),
            _ => None,
        }
    }

    /// Where the cards went, as the log says it.
    pub fn place(self) -> &'static str {
        match self {
            LeftCards::UnderDraw => "under the draw pile",
            LeftCards::Aside => "out of play",
            LeftCards::UnderTop => "onto the discard pile, under its top card",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    HandStarted {
        hand: u32,
        dealer: Seat,
    },
    Dealt {
        seat: Seat,
        cards: usize,
    },
    TurnedUp {
        card: CardId,
    },
    Buried {
        card: CardId,
    },
    Played {
        seat: Seat,
        card: CardId,
        side: Side,
        as_flex: bool,
        color: Option<Color>,
        target: Option<Seat>,
        out_of_turn: bool,
    },
    ColorChosen {
        seat: Seat,
        color: Color,
    },
    /// `side`: the side in play when the card was drawn.
    Drew {
        seat: Seat,
        card: CardId,
        side: Side,
    },
    Passed {
        seat: Seat,
    },
    Skipped {
        seat: Seat,
    },
    Reversed {
        direction: Direction,
    },
    Reshuffled {
        cards: usize,
    },
    PenaltyPending {
        victim: Seat,
        count: u32,
        until: Option<Color>,
    },
    Accepted {
        seat: Seat,
    },
    Challenged {
        challenger: Seat,
        offender: Seat,
        guilty: bool,
    },
    UnoCalled {
        seat: Seat,
    },
    /// `seat` is caught by `by`.
    Caught {
        seat: Seat,
        by: Seat,
    },
    Power {
        seat: Seat,
        green: bool,
    },
    HandsSwapped {
        a: Seat,
        b: Seat,
    },
    HandsPassed {
        direction: Direction,
    },
    Flipped {
        side: Side,
    },
    Script {
        text: String,
    },
    /// `seat` put `cards` under the top of the discard pile, one after the
    /// other (a rule's `discard` or `discard_all`): its size is how many.
    Discarded {
        seat: Seat,
        cards: Vec<CardId>,
        side: Side,
    },
    Given {
        from: Seat,
        to: Seat,
        card: CardId,
        side: Side,
    },
    Shuffled {
        discard: bool,
    },
    /// `seat` left the hand holding `held` cards, which went where `cards`
    /// says.
    Left {
        seat: Seat,
        cards: LeftCards,
        held: usize,
    },
    /// `seat` is asked to choose under `tag`.
    Asked {
        seat: Seat,
        tag: String,
        options: Vec<String>,
    },
    Chose {
        seat: Seat,
        tag: String,
        value: String,
    },
    HandWon {
        seat: Seat,
        points: i64,
        /// The seat emptied its hand (else a rule ended the hand).
        went_out: bool,
    },
    MatchWon {
        seat: Seat,
    },
    /// A rule that ended the hand named its places (the winner first).
    /// `seat` took an action a rule declares (`Variant::actions`), with
    /// the card (as it showed then) and at the target it takes, if any.
    Acted {
        seat: Seat,
        action: u8,
        card: Option<(CardId, Side)>,
        target: Option<Seat>,
        /// Taken while it was another seat's turn.
        out_of_turn: bool,
    },
    Ranked {
        seats: Vec<Seat>,
    },
}

/// Events, and whether they are kept (simulations switch the log off); and
/// the `print` output of predicate and transform hooks, which may not change
/// the log, kept apart.
/// The kinds of event, by name: what simulation statistics count. A
/// played card counts as `played`, or `played_out_of_turn`; a challenge as
/// `challenge_won` (the offender was guilty) or `challenge_lost`.
pub const EVENT_KINDS: [&str; 33] = [
    "hand_started",
    "dealt",
    "turned_up",
    "buried",
    "played",
    "played_out_of_turn",
    "color_chosen",
    "drew",
    "passed",
    "skipped",
    "reversed",
    "reshuffled",
    "penalty",
    "accepted",
    "challenge_won",
    "challenge_lost",
    "uno_called",
    "caught",
    "power",
    "hands_swapped",
    "hands_passed",
    "flipped",
    "script_log",
    "discarded",
    "given",
    "shuffled",
    "left",
    "asked",
    "chose",
    "hand_won",
    "match_won",
    "ranked",
    "acted",
];

impl Event {
    /// Does the event hold anything on the heap (text, a list of cards)?
    /// Every variant that does is named here: `Log::push` forgets the
    /// others unlogged.
    #[inline(always)]
    fn owns_heap(&self) -> bool {
        matches!(self, Event::Script { .. } | Event::Asked { .. } | Event::Chose { .. } | Event::Discarded { .. })
    }

    /// The event's kind, an index into `EVENT_KINDS`.
    pub fn kind(&self) -> usize {
        match self {
            Event::HandStarted { .. } => 0,
            Event::Dealt { .. } => 1,
            Event::TurnedUp { .. } => 2,
            Event::Buried { .. } => 3,
            Event::Played { out_of_turn: false, .. } => 4,
            Event::Played { out_of_turn: true, .. } => 5,
            Event::ColorChosen { .. } => 6,
            Event::Drew { .. } => 7,
            Event::Passed { .. } => 8,
            Event::Skipped { .. } => 9,
            Event::Reversed { .. } => 10,
            Event::Reshuffled { .. } => 11,
            Event::PenaltyPending { .. } => 12,
            Event::Accepted { .. } => 13,
            Event::Challenged { guilty: true, .. } => 14,
            Event::Challenged { guilty: false, .. } => 15,
            Event::UnoCalled { .. } => 16,
            Event::Caught { .. } => 17,
            Event::Power { .. } => 18,
            Event::HandsSwapped { .. } => 19,
            Event::HandsPassed { .. } => 20,
            Event::Flipped { .. } => 21,
            Event::Script { .. } => 22,
            Event::Discarded { .. } => 23,
            Event::Given { .. } => 24,
            Event::Shuffled { .. } => 25,
            Event::Left { .. } => 26,
            Event::Asked { .. } => 27,
            Event::Chose { .. } => 28,
            Event::HandWon { .. } => 29,
            Event::MatchWon { .. } => 30,
            Event::Ranked { .. } => 31,
            Event::Acted { .. } => 32,
        }
    }

    /// How big the event is, where it has a size: the cards a penalty
    /// makes its victim draw, the cards a reshuffle turns over. (An
    /// accepted or challenged penalty's size, the length of the stack
    /// chain it ends, is counted by the log, which sees the chain.)
    pub fn amount(&self) -> u64 {
        match self {
            Event::PenaltyPending { count, .. } => u64::from(*count),
            Event::Reshuffled { cards } => *cards as u64,
            Event::Discarded { cards, .. } => cards.len() as u64,
            _ => 0,
        }
    }
}

/// What happened in a game: its events (when the log is enabled), and
/// always how many of each kind and the counters scripts keep (`count`),
/// for statistics.
#[derive(Debug, Clone)]
pub struct Log {
    pub events: Vec<Event>,
    pub enabled: bool,
    pub output: Vec<String>,
    /// Events of each kind (`EVENT_KINDS`), and their amounts.
    pub counts: [u32; EVENT_KINDS.len()],
    pub amounts: [u64; EVENT_KINDS.len()],
    /// The largest amount one event of each kind had (the biggest penalty).
    pub peaks: [u32; EVENT_KINDS.len()],
    /// Counters scripts add to, by name.
    pub counters: Vec<(crate::text::Text, u64)>,
    /// Penalties laid on one another since the last was answered (a stack
    /// chain).
    chain: u32,
}

/// Where a log stood (`Log::mark`).
#[derive(Debug, Clone)]
pub struct LogMark {
    events: usize,
    output: usize,
    counts: [u32; EVENT_KINDS.len()],
    amounts: [u64; EVENT_KINDS.len()],
    peaks: [u32; EVENT_KINDS.len()],
    counters: Vec<(crate::text::Text, u64)>,
    chain: u32,
}

// By hand: arrays of more than 32 take no derived `Default`.
impl Default for Log {
    fn default() -> Log {
        Log {
            events: Vec::new(),
            enabled: false,
            output: Vec::new(),
            counts: [0; EVENT_KINDS.len()],
            amounts: [0; EVENT_KINDS.len()],
            peaks: [0; EVENT_KINDS.len()],
            counters: Vec::new(),
            chain: 0,
        }
    }
}

impl Default for LogMark {
    fn default() -> LogMark {
        LogMark {
            events: 0,
            output: 0,
            counts: [0; EVENT_KINDS.len()],
            amounts: [0; EVENT_KINDS.len()],
            peaks: [0; EVENT_KINDS.len()],
            counters: Vec::new(),
            chain: 0,
        }
    }
}

impl Log {
    pub fn new(enabled: bool) -> Log {
        Log { events: Vec::new(), enabled, ..Log::default() }
    }

    #[inline(always)]
    pub fn push(&mut self, event: Event) {
        let kind = event.kind();
        let amount = match &event {
            Event::PenaltyPending { .. } => {
                self.chain += 1;
                event.amount()
            }
            Event::Accepted { .. } | Event::Challenged { .. } => u64::from(std::mem::take(&mut self.chain)),
            _ => event.amount(),
        };
        self.tally(kind, amount);
        if self.enabled {
            self.events.push(event);
        } else if event.owns_heap() {
            drop(event);
        } else {
            // Nothing of it is on the heap: forgetting it drops it, without
            // a call to the drop glue, which the compiler keeps out of line.
            std::mem::forget(event);
        }
    }

    /// Counts one event of `kind` of size `amount` (0: none).
    #[inline(always)]
    fn tally(&mut self, kind: usize, amount: u64) {
        self.counts[kind] += 1;
        if amount > 0 {
            self.amounts[kind] += amount;
            self.peaks[kind] = self.peaks[kind].max(u32::try_from(amount).unwrap_or(u32::MAX));
        }
    }

    /// A draw penalty drawn at once (no answer awaited): no event of its
    /// own (its draws and the lost turn are logged), but counted with the
    /// penalties that wait (`penalty`), so that statistics count every
    /// penalty laid, stacked or not.
    pub fn penalty_drawn(&mut self, count: u32) {
        let kind = Event::PenaltyPending { victim: 0, count, until: None }.kind();
        self.tally(kind, u64::from(count));
    }

    /// Adds one to a script's counter.
    pub fn count(&mut self, name: &crate::text::Text) {
        match self.counters.iter_mut().find(|(n, _)| n == name) {
            Some((_, n)) => *n += 1,
            None => self.counters.push((name.clone(), 1)),
        }
    }

    /// Keeps in `mark` where the log stands, to go back to with `rewind`.
    pub fn mark(&self, mark: &mut LogMark) {
        mark.events = self.events.len();
        mark.output = self.output.len();
        mark.counts = self.counts;
        mark.amounts = self.amounts;
        mark.peaks = self.peaks;
        mark.counters.clone_from(&self.counters);
        mark.chain = self.chain;
    }

    /// Goes back to where the log stood at `mark` (nothing but events,
    /// output and counts added since).
    pub fn rewind(&mut self, mark: &LogMark) {
        self.events.truncate(mark.events);
        self.output.truncate(mark.output);
        self.counts = mark.counts;
        self.amounts = mark.amounts;
        self.peaks = mark.peaks;
        self.counters.clone_from(&mark.counters);
        self.chain = mark.chain;
    }

    /// Forgets the counts (a new game).
    pub fn clear_counts(&mut self) {
        self.counts = [0; EVENT_KINDS.len()];
        self.amounts = [0; EVENT_KINDS.len()];
        self.peaks = [0; EVENT_KINDS.len()];
        self.counters.clear();
        self.chain = 0;
    }

    /// Keeps a line a predicate or transform hook printed (up to `limits::PRINTED_LINES`).
    pub fn print(&mut self, text: &str) {
        if self.enabled && self.output.len() < crate::limits::PRINTED_LINES {
            self.output.push(text.to_string());
        }
    }
}

/// One line for one event, in card notation, with everything in it (for
/// transcripts and snapshots).
pub fn describe(event: &Event, variant: &Variant) -> String {
    describe_for(event, variant, None)
}

/// One line for one event as `viewer` may see it (rules.md 4.3): another
/// player's drawn card only by its back (double-sided decks) or not at all,
/// one's own drawn card by the face in play, piles by their faces in play;
/// another seat's choice without its options or what it chose. `None`
/// sees everything.
pub fn describe_for(event: &Event, variant: &Variant, viewer: Option<Seat>) -> String {
    let Some(viewer) = viewer else { return describe_all(event, variant) };
    match event {
        Event::Drew { seat, card, side } if *seat == viewer => {
            format!("p{seat} draws {}", variant.face_name(*card, *side))
        }
        Event::Given { from, to, card, side } if *from == viewer || *to == viewer => {
            format!("p{from} gives p{to} {}", variant.face_name(*card, *side))
        }
        Event::Given { from, to, .. } => format!("p{from} gives p{to} a card"),
        // The card of another seat's action is its own.
        Event::Acted { seat, action, card: Some(_), target, out_of_turn } if *seat != viewer => {
            acted(variant, *seat, *action, Some("a card".into()), *target, *out_of_turn)
        }
        // A choice is the chooser's: the others see that it is choosing,
        // not among what, nor what it chose.
        Event::Asked { seat, tag, .. } if *seat != viewer => {
            format!("p{seat} is choosing {}", crate::source::without_controls(tag))
        }
        Event::Chose { seat, tag, .. } if *seat != viewer => {
            format!("p{seat} has chosen {}", crate::source::without_controls(tag))
        }
        Event::Discarded { seat, cards, side } => discarded(*seat, cards, |card| variant.face_name(card, *side)),
        Event::Drew { seat, card, side } if variant.double_sided => {
            format!("p{seat} draws a card (its back: {})", variant.face_name(*card, side.other()))
        }
        Event::Drew { seat, .. } => format!("p{seat} draws a card"),
        Event::TurnedUp { card } => format!("turned up {}", variant.face_name(*card, Side::Light)),
        Event::Buried { card } => format!("{} goes back into the draw pile", variant.face_name(*card, Side::Light)),
        other => describe_all(other, variant),
    }
}

fn describe_all(event: &Event, variant: &Variant) -> String {
    let color = |c: Color| variant.names.color_name(c).to_string();
    let mut line = String::new();
    let _ = match event {
        Event::HandStarted { hand, dealer } => write!(line, "hand {hand}: p{dealer} deals"),
        Event::Dealt { seat, cards } => write!(line, "p{seat} is dealt {cards}"),
        Event::TurnedUp { card } => write!(line, "turned up {}", variant.card_name(*card)),
        Event::Buried { card } => write!(line, "{} goes back into the draw pile", variant.card_name(*card)),
        Event::Played { seat, card, side, as_flex, color: named, target, out_of_turn } => {
            let _ = write!(line, "p{seat} plays {}", variant.face_name(*card, *side));
            if *as_flex {
                line.push_str(" as flex");
            }
            if let Some(c) = named {
                let _ = write!(line, " naming {}", color(*c));
            }
            if let Some(t) = target {
                let _ = write!(line, " at p{t}");
            }
            if *out_of_turn {
                line.push_str(" (out of turn)");
            }
            Ok(())
        }
        Event::ColorChosen { seat, color: c } => write!(line, "p{seat} names {}", color(*c)),
        Event::Drew { seat, card, .. } => write!(line, "p{seat} draws {}", variant.card_name(*card)),
        Event::Passed { seat } => write!(line, "p{seat} passes"),
        Event::Skipped { seat } => write!(line, "p{seat} is skipped"),
        Event::Reversed { direction } => write!(line, "play runs {}", direction.name()),
        Event::Reshuffled { cards } => write!(line, "discard pile reshuffled into a draw pile of {cards}"),
        Event::PenaltyPending { victim, count, until } => match until {
            Some(c) => write!(
                line,
                "p{victim} faces drawing until {}{}",
                color(*c),
                if *count > 0 { format!(" and {count} more") } else { String::new() }
            ),
            None => write!(line, "p{victim} faces drawing {count}"),
        },
        Event::Accepted { seat } => write!(line, "p{seat} accepts the penalty"),
        Event::Challenged { challenger, offender, guilty } => write!(
            line,
            "p{challenger} challenges p{offender}: {}",
            if *guilty { "the challenge succeeds" } else { "the challenge fails" }
        ),
        Event::UnoCalled { seat } => write!(line, "p{seat} calls UNO"),
        Event::Caught { seat, by } => write!(line, "p{by} catches p{seat} without an UNO call"),
        Event::Power { seat, green } => {
            write!(line, "p{seat}'s Power Card turns {}", if *green { "green" } else { "red" })
        }
        Event::HandsSwapped { a, b } => write!(line, "p{a} and p{b} swap hands"),
        Event::HandsPassed { direction } => write!(line, "every hand passes {}", direction.name()),
        Event::Flipped { side } => write!(line, "everything flips: the {} side is up", side.name()),
        // A script's text reaches the terminal: control characters (an
        // escape sequence that clears the screen...) are shown, not obeyed.
        Event::Script { text } => write!(line, "note: {}", crate::source::without_controls(text)),
        Event::Discarded { seat, cards, .. } => {
            write!(line, "{}", discarded(*seat, cards, |card| variant.card_name(card)))
        }
        Event::Given { from, to, card, .. } => write!(line, "p{from} gives p{to} {}", variant.card_name(*card)),
        Event::Shuffled { discard: false } => write!(line, "the draw pile is shuffled"),
        Event::Shuffled { discard: true } => write!(line, "the discard pile below its top card is shuffled"),
        Event::Left { seat, held: 0, .. } => write!(line, "p{seat} leaves the hand with no cards"),
        Event::Left { seat, cards, .. } => write!(line, "p{seat} leaves the hand; their cards go {}", cards.place()),
        Event::Asked { seat, tag, options } => write!(line, "p{seat} is to choose {tag}: {}", options.join(", ")),
        Event::Chose { seat, tag, value } => write!(line, "p{seat} chooses {tag}: {value}"),
        Event::HandWon { seat, points, went_out: true } => write!(line, "p{seat} goes out and scores {points}"),
        Event::HandWon { seat, points, went_out: false } => {
            write!(line, "a rule ends the hand: p{seat} wins it and scores {points}")
        }
        Event::MatchWon { seat } => write!(line, "p{seat} wins the match"),
        Event::Acted { seat, action, card, target, out_of_turn } => write!(
            line,
            "{}",
            acted(
                variant,
                *seat,
                *action,
                card.map(|(card, side)| variant.face_name(card, side)),
                *target,
                *out_of_turn
            )
        ),
        Event::Ranked { seats } => {
            let seats: Vec<String> = seats.iter().map(|s| format!("p{s}")).collect();
            write!(line, "a rule names the places: {}", seats.join(", "))
        }
    };
    line
}

/// `p0 discards red 5, red 7 under the top card`: cards a rule discarded,
/// each named by `name`.
fn discarded(seat: Seat, cards: &[CardId], name: impl Fn(CardId) -> String) -> String {
    let names: Vec<String> = cards.iter().map(|&card| name(card)).collect();
    format!("p{seat} discards {} under the top card", names.join(", "))
}

/// `p0 takes trade with red 5 at p1`: an action a rule declares, its card
/// as the viewer may see it, and its target.
pub(crate) fn acted(
    variant: &Variant,
    seat: Seat,
    action: u8,
    card: Option<String>,
    target: Option<Seat>,
    out_of_turn: bool,
) -> String {
    let name = variant.actions.get(usize::from(action)).map_or("an action", |a| a.name.as_str());
    let mut line = format!("p{seat} takes {}", crate::source::without_controls(name));
    if let Some(card) = card {
        line += &format!(" with {card}");
    }
    if let Some(target) = target {
        line += &format!(" at p{target}");
    }
    if out_of_turn {
        line += " (out of turn)";
    }
    line
}
