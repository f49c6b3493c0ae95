//! A position: the state of a game, and nothing of its rules. The table
//! (piles, hands, seats, phase, owed decisions, scores, the RNG), the log
//! and the history, whether a rule's failure stopped the game, and the
//! table's version stamp. A plain value: clone it to try a line of play,
//! compare it, load it into a game of the same rules
//! (`Game::set_position`). `determinize` makes the position a seat could
//! be in: what it knows kept, the cards it cannot see dealt anew.

use crate::event::{Event, Log};
use crate::game::Record;
use crate::rng::Rng;
use crate::rules::RuleFailure;
use crate::seat::Seat;
use crate::table::Table;
use crate::variant::Variant;

#[derive(Debug)]
pub struct Position {
    pub(super) table: Table,
    pub(super) log: Log,
    /// Deals and accepted actions, in order (kept while logging is on).
    pub(super) history: Vec<Record>,
    /// The rule failure that stopped the game (`OnFailure::Stop`), until
    /// `restart`.
    pub(super) stopped: Option<RuleFailure>,
    /// The version of the table (`rules::next_stamp`): equal for a copy,
    /// changed whenever the table may have, so that rules that know answers
    /// for one version never take another for it.
    pub(super) stamp: u64,
}

impl Clone for Position {
    fn clone(&self) -> Position {
        Position {
            table: self.table.clone(),
            log: self.log.clone(),
            history: self.history.clone(),
            stopped: self.stopped.clone(),
            stamp: self.stamp,
        }
    }

    /// Field by field, reusing this position's allocations (a bot that
    /// searches loads one position after another into the same game).
    fn clone_from(&mut self, source: &Position) {
        self.table.clone_from(&source.table);
        self.log.clone_from(&source.log);
        self.history.clone_from(&source.history);
        self.stopped.clone_from(&source.stopped);
        self.stamp = source.stamp;
    }
}

/// Positions are equal when their tables and logs are (the version stamp
/// says only how the table came to be).
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.table == other.table
            && self.log.events == other.log.events
            && self.history == other.history
            && self.stopped == other.stopped
    }
}

impl Position {
    pub(super) fn new(table: Table) -> Position {
        Position { table, log: Log::new(true), history: Vec::new(), stopped: None, stamp: crate::rules::next_stamp() }
    }

    pub fn table(&self) -> &Table {
        &self.table
    }

    pub fn log(&self) -> &Log {
        &self.log
    }

    pub fn events(&self) -> &[Event] {
        &self.log.events
    }

    pub fn history(&self) -> &[Record] {
        &self.history
    }

    /// The position `seat` could be in, as far as it knows: its own hand,
    /// the discard pile, the counts of every hand and pile, the backs of
    /// the cards it sees from behind (opponents' hands and the draw pile's
    /// top, in a double-sided deck) and the cards the table says the seat
    /// knows to be in a hand (`Table::seen`: a swapped or shown hand) stay;
    /// every other card in a hand, the draw pile or aside is dealt anew from
    /// those cards by `rng`, each to a place whose visible back it shows,
    /// and the table's generator (which decides how later reshuffles fall)
    /// is seeded anew. The copy keeps no log, history or game-stopping
    /// failure; of what seats have seen, it keeps the seat's own (what other
    /// seats have seen of the hands dealt anew is dropped). A fact that
    /// rules worked out from hidden cards and left on the table (whether a
    /// pending challengeable penalty was a bluff) is copied as it is: `Game::work_out_hidden_facts`, on
    /// the position loaded, works it out again from the hands dealt.
    pub fn determinize(&self, seat: Seat, variant: &Variant, rng: &mut Rng) -> Position {
        let mut table = self.table.clone();
        table.deal_unseen(seat, variant, rng);
        Position { table, log: Log::new(false), history: Vec::new(), stopped: None, stamp: crate::rules::next_stamp() }
    }
}
