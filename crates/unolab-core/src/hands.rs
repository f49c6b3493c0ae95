//! The seats' hands, and for each a bit per card held, worked out again
//! only after the hand changed. "Does this hand hold any of these cards?"
//! (`Hands::holding_any`) is then a few word operations whatever the hand's
//! length: the move generator asks it of every other seat after every
//! action where a rule lets cards be played out of turn, while an action
//! changes one hand or two. A hand is changed only through the methods
//! here: `push` and `remove` keep its bits, any other change (through
//! `IndexMut`) marks them stale, so they cannot answer for cards no longer
//! held.

use std::fmt;
use std::ops::{Index, IndexMut};

use crate::card::CardId;
use crate::seat::Seat;

#[derive(Default)]
pub struct Hands {
    cards: Vec<Vec<CardId>>,
    /// Per seat, bit `id % 64` of word `id / 64`: a card `id` is held
    /// (copies of a card share its id). Up to date for a seat whose bit
    /// in `changed` is clear.
    held: Vec<Vec<u64>>,
    /// A bit per seat whose hand changed since its `held` was worked out.
    changed: u32,
}

impl Hands {
    /// `players` empty hands.
    pub fn new(players: usize) -> Hands {
        Hands { cards: vec![Vec::new(); players], held: vec![Vec::new(); players], changed: all(players) }
    }

    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    pub fn get(&self, seat: Seat) -> Option<&Vec<CardId>> {
        self.cards.get(seat)
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Vec<CardId>> {
        self.cards.iter()
    }

    /// Every hand, to change.
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, Vec<CardId>> {
        self.changed = all(self.cards.len());
        self.cards.iter_mut()
    }

    /// Seats `a` and `b` exchange hands.
    pub fn swap(&mut self, a: Seat, b: Seat) {
        self.cards.swap(a, b);
        self.changed |= 1 << a | 1 << b;
    }

    /// `seat` takes `card` into its hand, last.
    #[inline(always)]
    pub fn push(&mut self, seat: Seat, card: CardId) {
        self.cards[seat].push(card);
        // Bits worked out stay so; stale ones are worked out when asked.
        if self.changed >> seat & 1 == 0 {
            let (held, word) = (&mut self.held[seat], usize::from(card.0) / 64);
            if word >= held.len() {
                held.resize(word + 1, 0);
            }
            held[word] |= bit(card);
        }
    }

    /// `seat` gives up `card` (its first copy), if held; says whether it
    /// was.
    #[inline(always)]
    pub fn remove(&mut self, seat: Seat, card: CardId) -> bool {
        let hand = &mut self.cards[seat];
        let Some(index) = hand.iter().position(|&c| c == card) else { return false };
        hand.remove(index);
        // The bit stays while another copy of the card is held.
        if self.changed >> seat & 1 == 0 && !hand[index..].contains(&card) {
            self.held[seat][usize::from(card.0) / 64] &= !bit(card);
        }
        true
    }

    /// A bit for each seat.
    pub fn seats(&self) -> u32 {
        all(self.cards.len())
    }

    /// Of `seats` (a bit per seat), those that hold a card whose bit is set
    /// among `cards` (bit `id % 64` of word `id / 64`). Without a branch per
    /// seat or per word, once the bits of the hands changed are worked out.
    #[inline]
    pub fn holding_any(&mut self, seats: u32, cards: &[u64]) -> u32 {
        let mut stale = self.changed & seats;
        while stale != 0 {
            self.work_out(stale.trailing_zeros() as Seat);
            stale &= stale - 1;
        }
        let mut holding = 0;
        for (seat, held) in self.held.iter().enumerate() {
            let any = held.iter().zip(cards).fold(0, |any, (held, wanted)| any | (held & wanted)) != 0;
            holding |= u32::from(any) << seat;
        }
        #[cfg(debug_assertions)]
        for seat in crate::seat::seats_of(seats) {
            let any = self.cards[seat]
                .iter()
                .any(|&card| cards.get(usize::from(card.0) / 64).is_some_and(|&word| word & bit(card) != 0));
            debug_assert_eq!(holding >> seat & 1 != 0, any, "the bits of {seat}'s hand are those of its cards");
        }
        holding & seats
    }

    /// Works out `seat`'s bits from its cards.
    fn work_out(&mut self, seat: Seat) {
        let held = &mut self.held[seat];
        held.fill(0);
        for &card in &self.cards[seat] {
            let word = usize::from(card.0) / 64;
            if word >= held.len() {
                held.resize(word + 1, 0);
            }
            held[word] |= bit(card);
        }
        self.changed &= !(1 << seat);
    }
}

/// A bit for each of `players` seats.
fn all(players: usize) -> u32 {
    ((1u64 << players.min(32)) - 1) as u32
}

fn bit(card: CardId) -> u64 {
    1 << (card.0 % 64)
}

impl Index<Seat> for Hands {
    type Output = Vec<CardId>;

    fn index(&self, seat: Seat) -> &Vec<CardId> {
        &self.cards[seat]
    }
}

/// A hand taken to change is marked changed.
impl IndexMut<Seat> for Hands {
    fn index_mut(&mut self, seat: Seat) -> &mut Vec<CardId> {
        self.changed |= 1 << seat;
        &mut self.cards[seat]
    }
}

impl From<Vec<Vec<CardId>>> for Hands {
    fn from(cards: Vec<Vec<CardId>>) -> Hands {
        let players = cards.len();
        Hands { cards, held: vec![Vec::new(); players], changed: all(players) }
    }
}

impl FromIterator<Vec<CardId>> for Hands {
    fn from_iter<I: IntoIterator<Item = Vec<CardId>>>(hands: I) -> Hands {
        Hands::from(hands.into_iter().collect::<Vec<_>>())
    }
}

impl Clone for Hands {
    fn clone(&self) -> Hands {
        Hands { cards: self.cards.clone(), held: self.held.clone(), changed: self.changed }
    }

    /// Reusing this value's allocations (the game backs up its table so).
    fn clone_from(&mut self, source: &Hands) {
        self.cards.clone_from(&source.cards);
        self.held.clone_from(&source.held);
        self.changed = source.changed;
    }
}

/// Hands are equal when they hold the same cards in the same order: the
/// bits follow from the cards.
impl PartialEq for Hands {
    fn eq(&self, other: &Hands) -> bool {
        self.cards == other.cards
    }
}

impl fmt::Debug for Hands {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.cards.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Hands {
        fn holds_any(&mut self, seat: Seat, cards: &[u64]) -> bool {
            self.holding_any(1 << seat, cards) != 0
        }
    }

    fn wanted(ids: &[u16]) -> Vec<u64> {
        let mut words = vec![0; 3];
        for &id in ids {
            words[usize::from(id) / 64] |= 1 << (id % 64);
        }
        words
    }

    #[test]
    fn the_bits_follow_the_cards_through_every_change() {
        let mut hands = Hands::from(vec![vec![CardId(3), CardId(130)], vec![CardId(9), CardId(9)]]);
        assert!(hands.holds_any(0, &wanted(&[130])) && hands.holds_any(0, &wanted(&[3, 7])));
        assert!(!hands.holds_any(0, &wanted(&[4, 64, 129])));
        hands[0].retain(|&c| c != CardId(130));
        assert!(!hands.holds_any(0, &wanted(&[130])));
        hands[0].push(CardId(64));
        assert!(hands.holds_any(0, &wanted(&[64])));
        hands.push(0, CardId(65));
        assert!(hands.holds_any(0, &wanted(&[65])), "kept by a push");
        assert!(hands.remove(0, CardId(65)) && !hands.remove(0, CardId(65)));
        assert!(!hands.holds_any(0, &wanted(&[65])), "kept by a removal");
        assert!(hands.holds_any(1, &wanted(&[9])));
        assert!(hands.remove(1, CardId(9)));
        assert!(hands.holds_any(1, &wanted(&[9])), "a copy of the card is still held");
        hands[1].pop();
        assert!(!hands.holds_any(1, &wanted(&[9])));
        hands.push(1, CardId(7));
        hands.swap(0, 1);
        assert!(hands.holds_any(0, &wanted(&[7])) && !hands.holds_any(0, &wanted(&[3, 64])));
        assert!(hands.holds_any(1, &wanted(&[64])) && !hands.holds_any(1, &wanted(&[7])));
        hands.iter_mut().for_each(Vec::clear);
        assert!(!hands.holds_any(0, &wanted(&[9])) && !hands.holds_any(1, &wanted(&[3, 64])));
    }

    #[test]
    fn a_hand_asked_about_fewer_words_than_it_keeps_reads_those() {
        let mut hands = Hands::from(vec![vec![CardId(1), CardId(150)]]);
        assert!(hands.holds_any(0, &[0b10]));
        assert!(!hands.holds_any(0, &[0, u64::MAX]));
    }

    #[test]
    fn a_copy_keeps_its_bits_and_compares_by_cards() {
        let mut hands = Hands::from(vec![vec![CardId(5)]]);
        assert!(hands.holds_any(0, &wanted(&[5])));
        let copy = hands.clone();
        let mut reused = Hands::new(3);
        reused.clone_from(&copy);
        assert_eq!(reused, Hands::from(vec![vec![CardId(5)]]));
        assert!(reused.holds_any(0, &wanted(&[5])));
        assert_eq!(hands, copy);
    }
}
