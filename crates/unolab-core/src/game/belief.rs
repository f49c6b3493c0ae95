//! What a seat believes of hands it cannot see, beyond what it knows: that
//! some of a player's cards are none of certain designs (a player who drew
//! on its turn held nothing it could play, one who played a card nothing
//! it would have played first, if it plays as the bots here do). A
//! determinization (`Position::determinize`) deals the hidden cards at
//! random; `Position::believe` then trades cards that go against a
//! belief for others from the draw pile (of the same back, where backs
//! show), at random, as far as the pile allows. Only places the seat
//! cannot see change, and only by what the beliefs and the generator say:
//! two tables that look the same to the seat give the same position.

use rand::RngExt;

use crate::card::CardId;
use crate::game::Position;
use crate::rng::Rng;
use crate::seat::Seat;
use crate::turn::Phase;
use crate::variant::Variant;

/// At least `cards` of `holder`'s cards are none of the designs `unlikely`
/// marks (indexed by design).
#[derive(Debug, Clone, Default)]
pub struct Belief {
    pub holder: Seat,
    pub cards: usize,
    pub unlikely: Vec<bool>,
}

impl Belief {
    fn unlikely(&self, card: CardId) -> bool {
        self.unlikely.get(usize::from(card.0)).copied().unwrap_or(false)
    }
}

impl Position {
    /// Makes a position dealt for `seat` (`determinize`) hold to `beliefs`,
    /// as far as the draw pile allows: each card of a holder's that goes
    /// against its belief, beyond those it allows, is traded for a card of
    /// the draw pile that does not (of the same back, in a double-sided
    /// deck, and never the pile's top there, whose back shows). The cards
    /// the seat knows to be in a hand (`Table::seen`) and a card just drawn
    /// stay.
    pub fn believe(&mut self, seat: Seat, beliefs: &[Belief], variant: &Variant, rng: &mut Rng) {
        let table = &mut self.table;
        let mut known = Vec::new();
        table.seen.known_to(seat, &mut known);
        let hidden = table.side.other();
        let back = |card: CardId| variant.double_sided.then(|| *variant.face(card, hidden));
        let drawn = match table.phase() {
            Phase::Drawn(card) => Some((table.current, *card)),
            _ => None,
        };
        // The draw pile's places a card may come from.
        let top = table.draw.len().checked_sub(1).filter(|_| variant.double_sided);
        for belief in beliefs {
            let holder = belief.holder;
            if holder == seat || holder >= table.players() {
                continue;
            }
            let hand = &table.hands[holder];
            let allowed = hand.len().saturating_sub(belief.cards);
            // The holder's cards that may be traded: not known, not just drawn.
            let mut pinned: Vec<CardId> = known.iter().filter(|(s, _)| *s == holder).map(|&(_, c)| c).collect();
            if let Some((current, card)) = drawn
                && current == holder
            {
                pinned.push(card);
            }
            let mut against: Vec<usize> = Vec::new();
            for (at, &card) in hand.iter().enumerate() {
                if let Some(pin) = pinned.iter().position(|&c| c == card) {
                    pinned.swap_remove(pin);
                    continue;
                }
                if belief.unlikely(card) {
                    against.push(at);
                }
            }
            let bad = hand.iter().filter(|&&c| belief.unlikely(c)).count();
            let mut excess = bad.saturating_sub(allowed).min(against.len());
            while excess > 0 {
                let at = against.swap_remove(rng.random_range(..against.len()));
                let card = table.hands[holder][at];
                let donors = table
                    .draw
                    .iter()
                    .enumerate()
                    .filter(|&(i, &c)| Some(i) != top && !belief.unlikely(c) && back(c) == back(card))
                    .count();
                if donors > 0 {
                    let pick = rng.random_range(..donors);
                    let (i, _) = table
                        .draw
                        .iter()
                        .enumerate()
                        .filter(|&(i, &c)| Some(i) != top && !belief.unlikely(c) && back(c) == back(card))
                        .nth(pick)
                        .expect("counted");
                    let other = table.draw[i];
                    table.draw[i] = card;
                    table.hands[holder][at] = other;
                }
                excess -= 1;
            }
        }
        debug_assert!(table.conserves(variant), "beliefs trade cards, never lose one");
    }
}
