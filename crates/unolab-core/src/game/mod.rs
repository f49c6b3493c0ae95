//! The game: a table, the variant's rules (`Rules`), the event log and the
//! history. `moves` says what is legal (one generator; validation is
//! membership), `flow` carries actions out and resolves their effects,
//! `deal` starts hands, `score` ends them, `hooks` calls the scripts, and
//! `command` resolves what a person or a scenario asks for into actions.
//! An action is checked before anything changes; one that is refused, or
//! whose script fails midway, leaves the game exactly as it was (unless the
//! game was told to stop at a failure instead: `OnFailure`).

pub mod action;
mod acts;
mod askable;
mod belief;
pub mod command;
mod deal;
mod flow;
mod hidden;
mod hooks;
pub mod moves;
mod position;
pub mod refusal;
mod score;

use std::sync::Arc;

use crate::event::Event;
use crate::rng::rng;
use crate::rules::{CallInfo, Lent, RuleFailure, Rules, Step, next_stamp};
use crate::seat::Seat;
use crate::table::{Layout, Table};
use crate::variant::{HookKind, TopNeed, Variant};

pub use crate::rules::Why;
pub use action::{Act, Action, Play, Record};
pub use belief::Belief;
pub use moves::{ActOption, Moves, PlayOption};
pub use position::Position;
pub use refusal::{ActionError, Refusal};

/// Why a check stopped: the rules refuse, or a script failed while asked.
#[derive(Debug)]
pub(crate) enum Stop {
    Refuse(Refusal),
    Fail(RuleFailure),
}

impl From<RuleFailure> for Stop {
    fn from(failure: RuleFailure) -> Self {
        Stop::Fail(failure)
    }
}

pub(crate) type Checked<T> = Result<T, Stop>;

/// What becomes of a game when a script fails midway through an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnFailure {
    /// The table and log are put back as they were before the action, and
    /// the game goes on: what a person playing needs. Every action that may
    /// run a script backs the table up first.
    Restore,
    /// The game stops where the script failed and takes no further action
    /// or question until `restart`: for simulations, which put a failed
    /// hand down and deal the next. Nothing is backed up.
    Stop,
}

pub struct Game<R> {
    pub variant: Arc<Variant>,
    rules: R,
    pos: Position,
    /// The table before the action in progress, to restore if a script
    /// fails (`OnFailure::Restore`).
    backup: Table,
    on_failure: OnFailure,
    /// Reused by `apply` to check an action against the legal moves.
    scratch: Moves,
    /// The playable cards lent to `can_draw` and `can_pass` calls while
    /// moves are listed, and to `draw_again` calls (kept, so that asking
    /// allocates nothing).
    playable: Vec<crate::card::CardId>,
    /// An action or deal is changing the table (checked: scripts may run
    /// then only with a backup to restore).
    changing: bool,
    /// A script failure in the change in progress is provided for (the
    /// table was backed up, or the game stops).
    guarded: bool,
    /// Moment hooks running, one inside another (bounded).
    moments_running: u32,
    /// What a hook call read and changed, lent to each call in turn.
    trace: Vec<Step>,
    /// Which designs a rule could be asked to let play, by discard.
    askable: askable::Askable,
    /// `out_of_turn_chances` as worked out for the table version `stamp`.
    chances: Option<(u64, u32)>,
    /// The move generator's fast paths are proven against its general
    /// checks as it goes (`set_checks`).
    checks: bool,
}

impl<R: Rules> Game<R> {
    /// A table of `players` seats with scores at zero; no hand dealt yet.
    pub fn new(rules: R, players: usize, seed: u64) -> Result<Game<R>, String> {
        let variant = rules.variant().clone();
        variant.seats(players)?;
        let table = Table::new(players, variant.power_cards > 0, rng(seed));
        Ok(Game {
            backup: table.clone(),
            on_failure: OnFailure::Restore,
            variant,
            rules,
            pos: Position::new(table),
            scratch: Moves::default(),
            playable: Vec::new(),
            changing: false,
            guarded: false,
            moments_running: 0,
            trace: Vec::new(),
            askable: askable::Askable::default(),
            chances: None,
            checks: cfg!(debug_assertions),
        })
    }

    /// Starts over with a new seed and zero scores, keeping the compiled scripts.
    pub fn restart(&mut self, seed: u64) {
        self.pos.stamp = next_stamp();
        self.pos.table.restart(rng(seed));
        self.pos.log.events.clear();
        self.pos.log.output.clear();
        self.pos.log.clear_counts();
        self.pos.history.clear();
        self.pos.stopped = None;
    }

    /// What becomes of the game when a script fails midway through an
    /// action (`OnFailure::Restore` unless set).
    pub fn set_on_failure(&mut self, on_failure: OnFailure) {
        self.on_failure = on_failure;
    }

    /// What becomes of the game when a script fails midway (a search bot
    /// sets it for its playouts and puts it back).
    pub fn on_failure(&self) -> OnFailure {
        self.on_failure
    }

    /// Fails with the script failure that stopped the game, if one did
    /// (`OnFailure::Stop`).
    pub(crate) fn going_on(&self) -> Result<(), RuleFailure> {
        match &self.pos.stopped {
            None => Ok(()),
            Some(failure) => Err(failure.restated(format!("the game stopped at a script error: {failure}"))),
        }
    }

    /// The rules the game asks.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// Traces every hook call from now on (`Rules::set_trace`), or no more.
    pub fn set_trace(&mut self, trace: Option<crate::rules::TraceSight>) {
        self.rules.set_trace(trace);
    }

    /// Tells of no hook call while `paused` (`Rules::pause_trace`).
    pub fn pause_trace(&mut self, paused: bool) {
        self.rules.pause_trace(paused);
    }

    /// The trace since it was last taken (`Rules::take_trace`).
    pub fn take_trace(&mut self) -> Vec<crate::rules::TraceLine> {
        self.rules.take_trace()
    }

    /// Proves every fast path of the move generator against its general
    /// checks as moves are worked out (a shortcut that disagrees panics,
    /// saying which): on in debug builds, and in the tests that play every
    /// scenario, transcript and rule combination, whatever the build.
    pub fn set_checks(&mut self, on: bool) {
        self.checks = on;
    }

    /// Are the move generator's fast paths proven as it goes?
    pub fn checks(&self) -> bool {
        self.checks
    }

    /// The game's state: a value to copy, compare, and load again.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Goes on from `position` (one of a game of the same variant and
    /// table size), reusing this game's allocations. What the rules know
    /// of the position's table stays valid: its version comes with it.
    pub fn set_position(&mut self, position: &Position) {
        debug_assert_eq!(position.table.players(), self.players(), "a position of this table size");
        self.pos.clone_from(position);
        self.chances = None;
    }

    pub fn set_logging(&mut self, enabled: bool) {
        self.pos.log.enabled = enabled;
    }

    pub fn table(&self) -> &Table {
        &self.pos.table
    }

    /// Starts the log's counts afresh (a new hand of a simulated match).
    pub fn clear_counts(&mut self) {
        self.pos.log.clear_counts();
    }

    /// The log: events (when enabled), counts of each kind, script counters.
    pub fn log(&self) -> &crate::event::Log {
        &self.pos.log
    }

    pub fn events(&self) -> &[Event] {
        &self.pos.log.events
    }

    /// What predicate and transform hooks printed (they may not log).
    pub fn script_output(&self) -> &[String] {
        &self.pos.log.output
    }

    pub fn players(&self) -> usize {
        self.pos.table.players()
    }

    /// Who must act now: the seat owing a decision, else the player whose
    /// turn it is.
    pub fn to_act(&self) -> Seat {
        self.pos.table.to_act()
    }

    pub fn hand_over(&self) -> bool {
        self.pos.table.winner().is_some()
    }

    /// Lays the table out as `layout` says (`Table::layout`, changed), or
    /// says why not and changes nothing.
    pub fn arrange(&mut self, layout: Layout) -> Result<(), String> {
        self.pos.stamp = next_stamp();
        self.pos.table.arrange(layout, &self.variant)
    }

    /// Starts the turn of the seat to play in an arranged table whose turn
    /// has not begun (`Layout::turn_begun` false): its `on_turn_start`
    /// hooks run as if the turn had just moved to it.
    pub fn start_turn(&mut self) -> Result<(), RuleFailure> {
        let reshuffles = self.pos.table.reshuffles;
        self.after_with_rules(reshuffles)
    }

    /// The value of `expression`, a question in the rules' language (a
    /// script expression: `hand_size(1)`, `count(me(), "red")`), asked of
    /// the game as it is, as a predicate would be by the seat to act
    /// (`me()`): it reads and changes nothing.
    pub fn eval(&mut self, expression: &str) -> Result<String, RuleFailure> {
        let seat = self.to_act();
        self.asking(|game| {
            // Run as a hook that only answers would be; refusals name eval.
            let mut call = CallInfo { eval: true, ..CallInfo::new(HookKind::CanDraw, seat) };
            let mut plan = crate::turn::TurnPlan::default();
            let Game { variant, rules, pos: Position { table, log, .. }, trace, .. } = game;
            rules.eval(expression, &mut Lent::new(variant, &mut call, table, log, &mut plan, trace))
        })
    }

    /// Every deal and accepted action so far.
    pub fn history(&self) -> &[Record] {
        &self.pos.history
    }

    /// Plays a recorded history again from the same seed: the same game,
    /// event for event.
    pub fn replay(rules: R, players: usize, seed: u64, history: &[Record]) -> Result<Game<R>, String> {
        let mut game = Game::new(rules, players, seed)?;
        for (index, record) in history.iter().enumerate() {
            let result = match record {
                Record::Deal => game.deal(),
                Record::Act(action) => game.apply(*action),
            };
            result.map_err(|e| format!("step {} of the history: {e}", index + 1))?;
        }
        Ok(game)
    }

    /// Is `action` legal now (one of `legal_moves` of its seat)?
    pub fn is_legal(&mut self, action: &Action) -> Result<bool, RuleFailure> {
        self.asking(|game| game.among_moves(action))
    }

    /// Carries out an action if it is legal; otherwise says why not and
    /// changes nothing. Whether it is legal and why not are asked of the
    /// rules together, under one action's budget.
    pub fn apply(&mut self, action: Action) -> Result<(), ActionError> {
        let refusal = self.asking(|game| {
            if game.among_moves(&action)? {
                return Ok(None);
            }
            match game.validate(&action) {
                Err(Stop::Refuse(refusal)) => Ok(Some(refusal)),
                Err(Stop::Fail(failure)) => Err(failure),
                Ok(()) => {
                    debug_assert!(false, "{action:?} passes validation but is not among the legal moves");
                    Ok(Some(Refusal::ByRule { what: "this action", reason: None }))
                }
            }
        })?;
        match refusal {
            None => self.apply_unchecked(action),
            Some(refusal) => Err(ActionError::refused(refusal, &self.variant, &self.pos.table)),
        }
    }

    /// Carries out an action taken from `legal_moves`, without checking it
    /// again.
    pub fn apply_unchecked(&mut self, action: Action) -> Result<(), ActionError> {
        // Whether a script may run matters to the backup only: a game that
        // stops at a failure skips the question (debug builds ask it
        // anyway, and check it against the scripts that do run).
        let scripts = match self.on_failure {
            OnFailure::Stop if !self.checks => true,
            _ => self.may_run_scripts(&action),
        };
        self.transaction(scripts, |game| game.carry_out(action))?;
        if self.pos.log.enabled {
            self.pos.history.push(Record::Act(action));
        }
        Ok(())
    }

    /// Could carrying out `action` run a script, or otherwise fail midway?
    fn may_run_scripts(&self, action: &Action) -> bool {
        let v = &self.variant;
        if v.has_moment_hooks() {
            return true;
        }
        match action {
            Action::Play(play) => {
                let face = v.face(play.card, self.pos.table.side);
                !v.card_hook_bound(HookKind::OnPlay, play.card, self.pos.table.side, play.as_flex).is_empty()
                    // A wild that names no colour fails if no rule names one.
                    || (face.is_wild() && !v.names.names_color(face))
                    || (self.pos.table.hands[play.seat].len() == 1
                        && (v.has_hook(HookKind::ScoreHand) || v.has_hook(HookKind::MatchWinner)))
            }
            // What a draw asks the rules is bound to the card it draws: the
            // top of the draw pile, unless a reshuffle decides.
            Action::Draw(_) => match self.pos.table.draw.last() {
                Some(&card) => [HookKind::DrawAgain, HookKind::CanPlay]
                    .iter()
                    .any(|&kind| v.card_hook_need(kind, card, self.pos.table.side) != TopNeed::NEVER),
                None => v.has_hook(HookKind::DrawAgain) || v.has_hook(HookKind::CanPlay),
            },
            // An action a rule declares is its script.
            Action::Act(_) => true,
            _ => false,
        }
    }

    /// Runs `body`, which changes the table. Where it may run scripts
    /// (`scripts`) and a failure restores (`OnFailure::Restore`), the table
    /// is backed up first and put back, with the log, if one fails; other
    /// changes cannot fail.
    fn transaction(
        &mut self,
        scripts: bool,
        body: impl FnOnce(&mut Game<R>) -> Result<(), RuleFailure>,
    ) -> Result<(), ActionError> {
        self.going_on()?;
        self.pos.stamp = next_stamp();
        if scripts && self.on_failure == OnFailure::Restore {
            self.backup.clone_from(&self.pos.table);
        }
        let mark = self.pos.log.events.len();
        (self.changing, self.guarded) = (true, scripts);
        self.rules.begin_action();
        let result = body(self);
        self.rules.end_action();
        self.changing = false;
        match result {
            Ok(()) => {
                debug_assert!(self.pos.table.conserves(&self.variant), "cards are not conserved: {:?}", self.pos.table);
                Ok(())
            }
            Err(failure) => {
                match self.on_failure {
                    OnFailure::Restore => {
                        std::mem::swap(&mut self.pos.table, &mut self.backup);
                        self.pos.log.events.truncate(mark);
                    }
                    OnFailure::Stop => self.pos.stopped = Some(failure.clone()),
                }
                Err(failure.into())
            }
        }
    }
}
