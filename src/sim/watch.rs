//! What a hand shows as it is played, for the figures that the log's
//! counts cannot give: turns counted the same whatever a rule asks, and
//! the race (who leads, who trails, who first holds one card). One cheap
//! update after each action (`bot::playout::play_out_watched` tells of
//! it), from the hand sizes and the turn counter; nothing kept per event.

use crate::game::Action;
use crate::limits;
use crate::seat::Seat;
use crate::table::Table;

/// One hand's race, as the sim reports it. A *turn* counts when a seat
/// ends it by acting: the turn passes on after a play, a draw or a pass
/// (or the hand ends with one). A turn lost to a penalty, taken at once or
/// accepted when it waited, or passed over by a skip, is no turn: so a
/// rule that only asks a question whose sole answer is what happens anyway
/// counts the same turns. The *leader* is the one seat holding fewer cards
/// than every other (a tie leaves the lead where it was); the *last* is
/// the one seat holding more than every other. A seat's cards are those
/// it holds and those a penalty waiting for its answer would make it draw
/// (its `count`; a draw until a colour is known only once drawn), so a
/// rule that only makes a penalty wait shows the race what drawing it at
/// once does: no seat is last for the moment between the play and the
/// answer.
#[derive(Debug, Clone, Default)]
pub struct Race {
    /// The table's count of turns given when last looked at.
    given: u64,
    /// A seat played, drew or passed since the turn last passed on.
    acted: bool,
    /// Turns, counted as above (the hand's last one once it ends).
    pub turns: u32,
    /// Every action of the hand (answers, calls and catches too).
    pub actions: u32,
    /// The seat that last led alone, and how often another took its place.
    leader: Option<Seat>,
    pub lead_changes: u32,
    /// The seats that held one card after the first action that left any
    /// seat with one (0: none yet).
    pub first_to_one: u32,
    /// The seats that were last at some point, a bit each.
    pub been_last: u32,
}

impl Race {
    /// The hand is over: its last turn counts if a seat acted in it.
    pub fn end(&mut self) {
        self.turns += u32::from(std::mem::take(&mut self.acted));
    }

    /// The one seat that first held one card, if one did alone.
    pub fn first_to_one_seat(&self) -> Option<Seat> {
        (self.first_to_one.count_ones() == 1).then(|| self.first_to_one.trailing_zeros() as Seat)
    }

    /// Was `seat` last at some point?
    pub fn was_last(&self, seat: Seat) -> bool {
        self.been_last >> seat & 1 != 0
    }

    /// The seats in the hand and their cards (held, and owed to a penalty
    /// waiting for an answer): who leads, who trails, who holds one card.
    /// This runs after every action: with every seat in the hand and no
    /// penalty waiting (nearly always) straight from the hand sizes, else
    /// from a copy of them.
    #[inline(always)]
    fn look(&mut self, table: &Table) {
        let hands = table.hands();
        let out = table.seats_out();
        if out == 0 && table.phase().penalty().is_none() && table.owed().is_empty() {
            return self.see(hands.iter().map(|hand| (hand.len() as u32, hand.len() as u32)));
        }
        // A seat out of the hand neither leads nor trails.
        let mut cards = [(u32::MAX, 0); limits::PLAYERS];
        for (seat, (low_high, hand)) in cards.iter_mut().zip(hands.iter()).enumerate() {
            if out >> seat & 1 == 0 {
                *low_high = (hand.len() as u32, hand.len() as u32);
            }
        }
        for penalty in table.waiting_penalties().filter(|p| out >> p.victim & 1 == 0) {
            let (low, high) = &mut cards[penalty.victim];
            (*low, *high) = (*low + penalty.draw.count, *high + penalty.draw.count);
        }
        self.see(cards[..hands.len()].iter().copied());
    }

    /// `look`, given each seat's cards as the fewest and the most may
    /// take them (`u32::MAX` and 0 for a seat out of the hand): one pass
    /// without branches that keeps the fewest and the most and the seats
    /// holding them.
    #[inline(always)]
    fn see(&mut self, cards: impl Iterator<Item = (u32, u32)> + Clone) {
        let (mut fewest, mut most) = (u32::MAX, 0u32);
        let (mut fewest_seats, mut most_seats) = (0u32, 0u32);
        for (seat, (low, high)) in cards.clone().enumerate() {
            let seat = 1u32 << seat;
            fewest_seats = if low < fewest { seat } else { fewest_seats | if low == fewest { seat } else { 0 } };
            most_seats = if high > most { seat } else { most_seats | if high == most { seat } else { 0 } };
            fewest = fewest.min(low);
            most = most.max(high);
        }
        if fewest_seats.count_ones() == 1 {
            let leader = fewest_seats.trailing_zeros() as Seat;
            self.lead_changes += u32::from(self.leader.is_some_and(|before| before != leader));
            self.leader = Some(leader);
        }
        if most > fewest && most_seats.count_ones() == 1 {
            self.been_last |= most_seats;
        }
        if self.first_to_one == 0 {
            // The seats holding one card are those holding the fewest, if
            // that is one; once a seat is out of cards (the hand's end),
            // counted apart.
            self.first_to_one = match fewest {
                1 => fewest_seats,
                0 => cards.enumerate().fold(0, |ones, (seat, (low, _))| ones | u32::from(low == 1) << seat),
                _ => 0,
            };
        }
    }
}

impl Race {
    /// The hand was just dealt (its first discard turned up).
    pub fn dealt(&mut self, table: &Table) {
        *self = Race { given: table.turns(), ..Race::default() };
        self.look(table);
    }

    /// `action` was just carried out.
    #[inline(always)]
    pub fn acted(&mut self, action: &Action, table: &Table) {
        self.actions += 1;
        self.acted |= matches!(action, Action::Play(_) | Action::Draw(_) | Action::Pass(_));
        let given = table.turns();
        if given != self.given {
            self.given = given;
            self.turns += u32::from(std::mem::take(&mut self.acted));
        }
        self.look(table);
    }
}

/// The cards between the winner and the closest other seat in the hand
/// when it ended (the fewest any other seat holds, less the winner's:
/// usually the winner holds none).
pub fn margin(table: &Table, winner: Seat) -> i64 {
    let out = table.seats_out();
    let closest = table
        .hands()
        .iter()
        .enumerate()
        .filter(|&(seat, _)| seat != winner && out >> seat & 1 == 0)
        .map(|(_, hand)| hand.len())
        .min();
    closest.map_or(0, |n| n as i64 - table.hands()[winner].len() as i64)
}
