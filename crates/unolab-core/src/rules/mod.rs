//! The rules, as the game asks them. The game knows its rules only through
//! the `Rules` trait: it names a hook function (`FnRef`) and what the call
//! is about, lends the game (`Lent`), and gets a typed `Reply`. How the
//! answer is found is the implementation's business: scripts run by an
//! interpreter, a memo that replays recorded calls, or rules written
//! natively. A running rule reaches the game through a `Desk`, which
//! records everything it reads (`Read`) and changes (`Op`): that trace is
//! what a memo keys on.

pub mod call;
pub mod desk;
pub mod read;

use std::sync::Arc;

use crate::seat::Seat;
use crate::table::Table;
use crate::text::Text;
use crate::turn::Penalty;
use crate::variant::{FnRef, Variant};

pub use call::{Aside, CallInfo, HookArg, Lent, Open, Step};
pub use desk::{CardHandle, Desk, HostError, Offered};

/// A hook function's answer, of the kind its hook takes.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// A predicate's (`can_*`, `draw_again`).
    Verdict(Verdict),
    /// `match_winner`'s: the seats that won the match (none yet: empty).
    Seats(Vec<Seat>),
    /// `on_penalty`'s: the penalty as it takes effect.
    Penalty(Penalty),
    /// `score_hand`'s: what each seat adds.
    Points(Vec<i64>),
    /// `on_catch`'s: how many cards the caught seat draws.
    Count(u32),
    /// An effect's: its changes were made.
    Done,
}

/// What a predicate answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Yes (for `can_play`: no objection).
    Yes,
    /// Yes, and for a play, even a card that does not match.
    Allow,
    /// No, with the rule's reason why not, if it gave one (boxed: it is
    /// needed only where a refusal is put into words).
    No(Option<Box<Reason>>),
}

impl Verdict {
    pub fn yes(&self) -> bool {
        !matches!(self, Verdict::No(_))
    }
}

/// Why a predicate said no, in its words. A reason may name a card:
/// `CARD_SLOT` in the text stands for the card's name, put in only when
/// the reason is shown, so that calls that refuse alike about different
/// cards share a recorded path (a card the rule asked for is the one at
/// the same place then: `CardHandle::settled`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reason {
    pub text: Text,
    pub card: Option<CardHandle>,
}

/// Where a reason's text says the card's name goes.
pub const CARD_SLOT: &str = "{card}";

impl Reason {
    /// The card the reason names, as `call` sees it at `table` now (a
    /// replayed reply may have been given about another card at its place).
    pub fn settle(&mut self, table: &Table, call: &CallInfo) {
        if let Some(card) = &mut self.card {
            let (id, side) = card.settled(table, call);
            *card = CardHandle::given(id, side);
        }
    }

    /// The reason as a refusal keeps it.
    pub fn why(self) -> Why {
        Why { text: self.text, card: self.card.map(|card| (card.id, card.side)) }
    }
}

/// A rule's reason why not, as a refusal keeps it: `{card}` in the text
/// stands for the name of the card it names (shown on a side).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Why {
    pub text: Text,
    pub card: Option<(crate::card::CardId, crate::card::Side)>,
}

/// A rule that failed: its error in words, and where in the rules it
/// happened, where that is known (a caller that tells several failures
/// apart by where they come from reads `place`, not the words); or a rule
/// stopped by the wall clock (`by_clock`), which is no result of the rules
/// and must not be counted as one.
///
/// One box: a failure is returned through the hot paths (every `?` of the
/// turn loop), where it is rare, so a result that may hold one stays a
/// word wide.
#[derive(Clone, PartialEq, Eq)]
pub struct RuleFailure(Box<Failure>);

#[derive(Clone, PartialEq, Eq)]
struct Failure {
    message: String,
    place: Option<RulePlace>,
    /// Stopped by the clock's safety net, not by a rule or a budget of
    /// the rules (`limits::HOOK_MILLIS`).
    clock: bool,
}

impl std::fmt::Debug for RuleFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Failure { message, place, clock } = &*self.0;
        f.debug_struct("RuleFailure").field("message", message).field("place", place).field("clock", clock).finish()
    }
}

/// Where in the rules a failure happened: the layer, the hook and the
/// function bound to it, and the script, line and column where the
/// interpreter knew them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RulePlace {
    pub layer: String,
    pub hook: &'static str,
    pub function: String,
    pub script: Option<(String, usize, usize)>,
}

impl RuleFailure {
    /// A failure of the rules as a whole (no one function's).
    pub fn new(message: impl Into<String>) -> RuleFailure {
        RuleFailure(Box::new(Failure { message: message.into(), place: None, clock: false }))
    }

    /// A failure of the hook function at `place`.
    pub fn at(place: RulePlace, message: impl Into<String>) -> RuleFailure {
        RuleFailure(Box::new(Failure { message: message.into(), place: Some(place), clock: false }))
    }

    /// The same failure, stopped by the wall clock rather than by the
    /// rules: whatever it stopped has no result.
    pub fn stopped_by_clock(mut self) -> RuleFailure {
        self.0.clock = true;
        self
    }

    /// Was it the clock (a safety net; the machine was too slow or busy),
    /// not the rules?
    pub fn by_clock(&self) -> bool {
        self.0.clock
    }

    /// The failure in other words, of the rules as a whole (no place), by
    /// the clock where it was.
    pub fn restated(&self, message: impl Into<String>) -> RuleFailure {
        RuleFailure(Box::new(Failure { message: message.into(), place: None, clock: self.0.clock }))
    }

    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The same failure, told as part of `context` (`CONTEXT: MESSAGE`).
    pub fn within(mut self, context: impl std::fmt::Display) -> RuleFailure {
        self.0.message = format!("{context}: {}", self.0.message);
        self
    }

    pub fn place(&self) -> Option<&RulePlace> {
        self.0.place.as_ref()
    }
}

impl std::fmt::Display for RuleFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.message)
    }
}

/// `LAYER (HOOK hook FUNCTION)`, and `: SCRIPT:LINE:COLUMN` where known.
impl std::fmt::Display for RulePlace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({} hook {})", self.layer, self.hook, self.function)?;
        if let Some((script, line, column)) = &self.script {
            write!(f, ": {script}:{line}:{column}")?;
        }
        Ok(())
    }
}

/// The rules of a variant, as the game asks them.
pub trait Rules {
    /// The variant these rules are of.
    fn variant(&self) -> &Arc<Variant>;

    /// Runs hook function `f` about `arg` on the game `lent`: its reads and
    /// changes go through `lent` (and are traced there); the reply is of
    /// the kind `f`'s hook takes.
    fn run(&mut self, f: &FnRef, arg: &HookArg, lent: &mut Lent) -> Result<&Reply, RuleFailure>;

    /// What predicate `f`, about a play, answers `call` at `table`, where
    /// known without running anything; for what the call leaves `open`,
    /// what it answers whatever that is. `None` where it is not known.
    fn known(&self, _f: &FnRef, _open: Open, _call: &CallInfo, _table: &Table) -> Option<&Reply> {
        None
    }

    /// The table, version `stamp` (`next_stamp`), will not change until
    /// `thaw`: only predicates run meanwhile. The log holds `events` events
    /// (a trace says where the questions were asked).
    fn freeze(&mut self, _stamp: u64, _events: usize) {}

    /// The table may change again.
    fn thaw(&mut self) {}

    /// An action (or a working out of moves) starts: its calls share one
    /// budget. Actions nest: only the outermost counts.
    fn begin_action(&mut self) {}

    /// The action begun last ends.
    fn end_action(&mut self) {}

    /// The value of `expression`, a question in the rules' own language,
    /// asked of the game `lent` as a predicate is (it may read anything and
    /// change nothing), in words. Nothing is recorded or remembered.
    fn eval(&mut self, expression: &str, _lent: &mut Lent) -> Result<String, RuleFailure> {
        Err(RuleFailure::new(format!("these rules cannot evaluate '{expression}'")))
    }

    /// Traces every hook call from now on, as `seat` may see it (`None`:
    /// everything), or no more (`trace: None`): which hook ran for what,
    /// who answered, what it read and changed, in words (`take_trace`).
    /// Rules that cannot trace ignore it.
    fn set_trace(&mut self, _trace: Option<TraceSight>) {}

    /// The trace since it was last taken.
    fn take_trace(&mut self) -> Vec<TraceLine> {
        Vec::new()
    }

    /// While `paused`, tells of no hook call, keeping what it has told and
    /// its sight (a bot's search plays positions that are not the game's);
    /// `false` tells again. Nothing, where the trace is off.
    fn pause_trace(&mut self, _paused: bool) {}
}

/// Whose sight a trace keeps to (`Rules::set_trace`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TraceSight {
    /// Everything: an author's tool (scenarios, `sim --show`).
    All,
    /// What this seat may see: calls about a card it cannot see are left
    /// out, and what a call read of hidden cards is not shown (the REPL).
    Seat(Seat),
}

/// One line of a trace (`Rules::take_trace`): `at_event` is how many events
/// the log held when the call it tells of was made, so that a front end
/// shows it before the events the call led to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceLine {
    pub at_event: usize,
    pub text: String,
}

/// A version stamp for a table that changed: never given twice in a
/// process, so that rules that know answers for one version of one table
/// never take another table for it.
pub fn next_stamp() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}
