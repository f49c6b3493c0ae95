//! A hook call as the game makes it: what the call is about (`CallInfo`,
//! `HookArg`), the game lent to it (`Lent`: the table, log and turn plan,
//! with the trace of what the call read and changed), and what a question
//! about a play may leave open (`Open`).

use crate::card::{CardId, Color, Side};
use crate::event::{Log, LogMark};
use crate::rules::read::Read;
use crate::seat::Seat;
use crate::table::Table;
use crate::text::Text;
use crate::turn::{ChoiceOption, Op, Penalty, TurnPlan};
use crate::variant::{HookKind, Variant};

/// What the hook being run is about.
#[derive(Debug, Clone)]
pub struct CallInfo {
    /// The hook: its mode says what the rule may change.
    pub hook: HookKind,
    pub me: Seat,
    /// The card the hook is about (its argument) and the side it shows:
    /// set from the argument when the call is made.
    pub card: Option<(CardId, Side)>,
    pub as_flex: bool,
    pub target: Option<Seat>,
    pub going_out: bool,
    pub prev_color: Option<Color>,
    /// The penalty a play answers (otherwise `answering()` is the penalty
    /// waiting for an answer, if any).
    pub answering: Option<Penalty>,
    /// The cards the player could play now, where the host worked them out
    /// (for `can_draw`, `can_pass` and `draw_again`).
    pub playable: Option<Vec<CardId>>,
    /// An expression asked of the game (`eval`), not a hook: it only asks.
    pub eval: bool,
}

impl CallInfo {
    /// A call of `hook` by `me` about nothing in particular.
    pub fn new(hook: HookKind, me: Seat) -> CallInfo {
        CallInfo {
            hook,
            me,
            card: None,
            as_flex: false,
            target: None,
            going_out: false,
            prev_color: None,
            answering: None,
            playable: None,
            eval: false,
        }
    }
}

/// What a hook call is about, besides the game it reads.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum HookArg {
    None,
    Card(CardId, Side),
    Seat(Seat),
    Penalty(Penalty),
    /// What a seat chose (`on_choice`).
    Chosen {
        tag: Text,
        value: ChoiceOption,
    },
}

/// One thing a running call did, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Read(Read, crate::rules::read::Answer),
    Op(Op),
    /// Something that cannot be checked or replayed.
    Opaque,
}

/// What of the play a question about a card leaves open (`Rules::known`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Open {
    /// Nothing: the call names the card, its side and its target.
    Nothing,
    /// Where the card has a choice of them, the play's side and target (the
    /// call names the card): what the function answers for every play of
    /// the card.
    Aim { side: bool, target: bool },
    /// The whole play (the call names no card): what the function answers
    /// whatever the seat would play.
    Play,
}

/// The game lent to one hook call: what the call is about, the table, log
/// and turn plan its changes go to, and the trace of what it read and
/// changed, in order (`Step`). Rules implementations reach the game only
/// through it: a running rule through a `Desk` it is lent to
/// (`Desk::lend`), which answers and records every read and makes and
/// records every change; a rule that replays a recorded call through
/// `table` (to check what the call read, `Read::answer`) and `replay`.
pub struct Lent<'a> {
    variant: &'a Variant,
    call: &'a mut CallInfo,
    table: &'a mut Table,
    log: &'a mut Log,
    plan: &'a mut TurnPlan,
    trace: &'a mut Vec<Step>,
}

impl<'a> Lent<'a> {
    /// Lends a call of `variant`'s rules the game's table, log and plan; the
    /// call is traced into `trace` (emptied first).
    pub fn new(
        variant: &'a Variant,
        call: &'a mut CallInfo,
        table: &'a mut Table,
        log: &'a mut Log,
        plan: &'a mut TurnPlan,
        trace: &'a mut Vec<Step>,
    ) -> Lent<'a> {
        trace.clear();
        Lent { variant, call, table, log, plan, trace }
    }

    pub fn variant(&self) -> &Variant {
        self.variant
    }

    pub fn call(&self) -> &CallInfo {
        self.call
    }

    /// The table, to check recorded reads against (`Read::answer`).
    pub fn table(&self) -> &Table {
        self.table
    }

    /// How many events the log holds (a trace tells where a call was made).
    pub fn events(&self) -> usize {
        self.log.events.len()
    }

    /// What the call read and changed, in order.
    pub fn trace(&self) -> &[Step] {
        self.trace
    }

    /// The call is about `arg`: a card argument is the card it is about.
    pub fn about(&mut self, arg: &HookArg) {
        self.call.card = match arg {
            HookArg::Card(id, side) => Some((*id, *side)),
            _ => None,
        };
    }

    /// Makes a recorded change again (a replayed call), unrecorded.
    #[inline]
    pub fn replay(&mut self, op: &Op) {
        self.table.apply_op(op, self.plan, self.variant, self.log);
    }

    /// Keeps the table, plan and log in `aside`, to put back.
    pub fn keep_aside(&self, aside: &mut Aside) {
        aside.table.clone_from(self.table);
        aside.plan.clone_from(self.plan);
        self.log.mark(&mut aside.log);
    }

    /// Puts back the table, plan and log kept in `aside`.
    pub fn put_back(&mut self, aside: &mut Aside) {
        std::mem::swap(self.table, &mut aside.table);
        std::mem::swap(self.plan, &mut aside.plan);
        self.log.rewind(&aside.log);
    }

    /// Swaps what is lent with what `desk` holds (see `Desk::lend`).
    pub(crate) fn swap_with(
        &mut self,
        call: &mut CallInfo,
        table: &mut Table,
        log: &mut Log,
        plan: &mut TurnPlan,
        trace: &mut Vec<Step>,
    ) {
        std::mem::swap(self.call, call);
        std::mem::swap(self.table, table);
        std::mem::swap(self.log, log);
        std::mem::swap(self.plan, plan);
        std::mem::swap(self.trace, trace);
    }
}

/// The table, plan and log as they stood before a replay made changes in
/// order to check a later read, to put back if that read answers
/// differently (`Lent::keep_aside`, `Lent::put_back`). Kept between
/// replays, so that keeping allocates nothing.
pub struct Aside {
    table: Table,
    plan: TurnPlan,
    log: LogMark,
}

impl Default for Aside {
    fn default() -> Aside {
        Aside { table: Table::new(2, false, crate::rng::rng(0)), plan: TurnPlan::default(), log: LogMark::default() }
    }
}
