//! What a hand shows as it is played, for the figures that the log's
//! counts cannot give: turns counted the same whatever a rule asks, and
//! the race (who leads, who trails, who first holds one card). One cheap
//! update after each action (`bot::playout::play_out_watched` tells of
//! it), from the hand sizes and the turn counter; nothing kept per event.

use crate::game::Action;
use crate::seat::Seat;
use crate::table::Table;

/// One hand's race, as the sim reports it. A *turn* counts when a seat
/// ends it by acting: the turn passes on after a play, a draw or a pass
/// (or the hand ends with one). A turn lost to a penalty, taken at once or
/// accepted when it waited, or passed over by a skip, is no turn: so a
/// rule that only asks a question whose sole answer is what happens anyway
/// counts the same turns. The *leader* is the one seat holding fewer cards
/// than every other (a tie leaves the lead where it was); the *last* is
/// the one seat holding more than every other.
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

    /// The seats in the hand and their cards: who leads, who trails, who
    /// holds one card. Two passes over the hand sizes without branches
    /// (the fewest and the most, then who holds them): this runs after
    /// every action.
    #[inline(always)]
    fn look(&mut self, table: &Table) {
        let hands = table.hands();
        let out = table.seats_out();
        let (mut fewest, mut most) = (u32::MAX, 0u32);
        for (seat, hand) in hands.iter().enumerate() {
            let (held, inside) = (hand.len() as u32, out >> seat & 1 == 0);
            fewest = fewest.min(if inside { held } else { u32::MAX });
            most = most.max(if inside { held } else { 0 });
        }
        let (mut fewest_seats, mut most_seats, mut ones) = (0u32, 0u32, 0u32);
        for (seat, hand) in hands.iter().enumerate() {
            let held = hand.len() as u32;
            fewest_seats |= u32::from(held == fewest) << seat;
            most_seats |= u32::from(held == most) << seat;
            ones |= u32::from(held == 1) << seat;
        }
        let inside = !out;
        let (fewest_seats, most_seats, ones) = (fewest_seats & inside, most_seats & inside, ones & inside);
        if fewest_seats.count_ones() == 1 {
            let leader = fewest_seats.trailing_zeros() as Seat;
            self.lead_changes += u32::from(self.leader.is_some_and(|before| before != leader));
            self.leader = Some(leader);
        }
        if most > fewest && most_seats.count_ones() == 1 {
            self.been_last |= most_seats;
        }
        if self.first_to_one == 0 {
            self.first_to_one = ones;
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
