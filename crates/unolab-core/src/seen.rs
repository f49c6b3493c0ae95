//! What each seat has seen of the others' hands: the cards it knows to be
//! in a hand it cannot see. A seat learns them from what happens in front
//! of it (a hand swapped or passed away is the hand it held; a card given
//! is seen by giver and taker; a challenged player's hand is shown to the
//! challenger, rules.md 1.4) and forgets them as they leave (a card played
//! or discarded face up, a hand that leaves, a card given where the seat
//! could not see which). The table keeps it beside the hands, changed by
//! the same primitives that log those events, so it is part of the
//! position (undo, replay and loading bring it back) and a determinization
//! keeps those cards where the seat knows they are
//! (`Position::determinize`). It holds only what is true: a card is known
//! to be in a hand only while it is.
//!
//! Everyone also sees each seat's recent choices on its turn (`TurnSeen`:
//! a draw, or the card it played): what was on the table, how many cards
//! the seat held then and how many have left its hand since. What that
//! says of the hand (a player who draws had nothing to play, one who plays
//! a wild had nothing else, as far as it saw) is for a bot to judge.

use crate::card::{CardId, Color, Side};
use crate::seat::Seat;

/// One fact: `knower` knows that `holder` holds (a copy of) `card`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Fact {
    knower: Seat,
    holder: Seat,
    card: CardId,
}

/// A seat's choice on its turn (a draw it chose, not a penalty; or a play
/// from its hand, not of the card it had just drawn), as every seat saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnSeen {
    /// The card it played, or `None` for a draw.
    pub played: Option<CardId>,
    /// The cards it held when it chose.
    pub held: u16,
    /// The cards that have left its hand since (the card played among
    /// them; the card it drew, played at once, aside).
    pub gone: u16,
    /// The top card, the side in play and the colour in play then.
    pub top: Option<CardId>,
    pub side: Side,
    pub color: Option<Color>,
}

impl TurnSeen {
    /// How many of the seat's cards, at least, it held when it chose (the
    /// card it played aside).
    pub fn kept(&self) -> usize {
        usize::from(self.held.saturating_sub(self.gone))
    }
}

/// Every seat's knowledge of the others' hands (a multiset of facts:
/// two copies of a design known to be in one hand are two facts), and each
/// seat's recent choices on its turn. Small, so copying a table costs
/// little for it.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Seen {
    facts: Vec<Fact>,
    /// By seat (as long as the table once it has a choice to keep).
    turns: Vec<SeatTurns>,
}

impl Clone for Seen {
    fn clone(&self) -> Seen {
        Seen { facts: self.facts.clone(), turns: self.turns.clone() }
    }

    /// Reusing this one's allocations (`Table::clone_from`: the game backs
    /// up its table before an action that runs scripts).
    fn clone_from(&mut self, source: &Seen) {
        self.facts.clone_from(&source.facts);
        self.turns.clone_from(&source.turns);
    }
}

/// The choices on its turn kept for a seat: what a player showed long ago
/// says little of the few cards it may still hold from then.
const TURNS_KEPT: usize = 4;
const _: () = assert!(TURNS_KEPT.is_power_of_two(), "the ring wraps by a mask");

/// A seat's last `TURNS_KEPT` choices on its turn (a ring: the newest just
/// before `next`), each with `gone` holding `left` as it was then.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct SeatTurns {
    /// The cards that have left the seat's hand this hand (a card drawn
    /// and played at once aside).
    left: u16,
    ring: [Option<TurnSeen>; TURNS_KEPT],
    next: u8,
}

impl Seen {
    /// Nobody knows anything (a new hand, a table laid out anew).
    pub fn clear(&mut self) {
        self.facts.clear();
        self.turns.fill(SeatTurns::default());
    }

    /// Nobody knows any card of another hand.
    pub fn is_empty(&self) -> bool {
        self.facts.is_empty()
    }

    /// `seat`'s recent choices on its turn, oldest first, while it holds
    /// cards it held then.
    pub fn turns_of(&self, seat: Seat) -> impl Iterator<Item = TurnSeen> + '_ {
        let turns = self.turns.get(seat);
        let start = turns.map_or(0, |t| usize::from(t.next));
        (0..TURNS_KEPT)
            .filter_map(move |i| {
                let kept = turns?;
                let mut turn = kept.ring[(start + i) % TURNS_KEPT]?;
                turn.gone = kept.left.saturating_sub(turn.gone);
                Some(turn)
            })
            .filter(|turn| turn.kept() > 0)
    }

    /// `seat`, holding `held` cards, draws on its turn (not a penalty;
    /// `played` is `None`) or plays `played` from its hand on its turn.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn chose(
        &mut self,
        seat: Seat,
        players: usize,
        played: Option<CardId>,
        held: usize,
        top: Option<CardId>,
        side: Side,
        color: Option<Color>,
    ) {
        if self.turns.len() < players {
            self.turns.resize(players, SeatTurns::default());
        }
        let turns = &mut self.turns[seat];
        let held = u16::try_from(held).unwrap_or(u16::MAX);
        // A power of two: the ring wraps by a mask.
        let at = usize::from(turns.next) & (TURNS_KEPT - 1);
        turns.ring[at] = Some(TurnSeen { played, held, gone: turns.left, top, side, color });
        turns.next = (at + 1) as u8;
    }

    /// A card left `seat`'s hand, which may be one it held when it chose.
    fn left_hand(&mut self, seat: Seat) {
        if let Some(turns) = self.turns.get_mut(seat) {
            turns.left = turns.left.saturating_add(1);
        }
    }

    /// The card that just left `seat`'s hand (`gone`) was the one it had
    /// just drawn, not one it held before.
    pub(crate) fn was_drawn(&mut self, seat: Seat) {
        if let Some(turns) = self.turns.get_mut(seat) {
            turns.left = turns.left.saturating_sub(1);
        }
    }

    /// How many cards `seat` knows to be in other hands.
    pub fn known_count(&self, seat: Seat) -> usize {
        self.facts.iter().filter(|f| f.knower == seat && f.holder != seat).count()
    }

    /// The cards `seat` knows to be in other hands, as `(holder, card)`,
    /// into `out` (emptied first).
    pub fn known_to(&self, seat: Seat, out: &mut Vec<(Seat, CardId)>) {
        out.clear();
        out.extend(self.facts.iter().filter(|f| f.knower == seat).map(|f| (f.holder, f.card)));
    }

    /// Every seat saw `holder`'s `card` leave its hand face up (a play, a
    /// discard): each that knew of it forgets one copy.
    #[inline]
    pub(crate) fn gone(&mut self, holder: Seat, card: CardId) {
        self.left_hand(holder);
        if self.facts.is_empty() {
            return;
        }
        let mut forgotten: u32 = 0;
        self.facts.retain(|f| {
            let bit = 1u32 << f.knower;
            if f.holder == holder && f.card == card && forgotten & bit == 0 {
                forgotten |= bit;
                return false;
            }
            true
        });
    }

    /// `a` and `b` exchange the hands `hand_a` and `hand_b` (as they were
    /// before): what anyone knew moves with the cards, and each of the two
    /// knows the hand it gave away.
    pub(crate) fn swapped(&mut self, a: Seat, b: Seat, hand_a: &[CardId], hand_b: &[CardId]) {
        if self.turns.len() > a.max(b) {
            self.turns.swap(a, b);
        }
        for f in &mut self.facts {
            if f.holder == a {
                f.holder = b;
            } else if f.holder == b {
                f.holder = a;
            }
        }
        self.facts.retain(|f| f.knower != f.holder);
        self.facts.retain(|f| !((f.knower == a && f.holder == b) || (f.knower == b && f.holder == a)));
        self.facts.extend(hand_a.iter().map(|&card| Fact { knower: a, holder: b, card }));
        self.facts.extend(hand_b.iter().map(|&card| Fact { knower: b, holder: a, card }));
    }

    /// Every hand in `seats` moves to the next of them (`next`): what
    /// anyone knew moves with the cards, and each seat knows the hand it
    /// passed on (`hand_of`, before the pass).
    pub(crate) fn passed<'h>(
        &mut self,
        seats: &[Seat],
        next: impl Fn(Seat) -> Seat,
        hand_of: impl Fn(Seat) -> &'h [CardId],
    ) {
        if !self.turns.is_empty() {
            let before = self.turns.clone();
            for &seat in seats {
                self.turns[next(seat)] = before[seat];
            }
        }
        for f in &mut self.facts {
            if seats.contains(&f.holder) {
                f.holder = next(f.holder);
            }
        }
        self.facts.retain(|f| f.knower != f.holder);
        for &seat in seats {
            let to = next(seat);
            if to != seat {
                self.facts.retain(|f| !(f.knower == seat && f.holder == to));
                self.facts.extend(hand_of(seat).iter().map(|&card| Fact { knower: seat, holder: to, card }));
            }
        }
    }

    /// `from` gives `to` `card`. The two see which card; the others see
    /// only that a card went, so what they knew of `from`'s hand may be
    /// wrong now: they forget it.
    pub(crate) fn given(&mut self, from: Seat, to: Seat, card: CardId) {
        self.left_hand(from);
        let mut moved = false;
        self.facts.retain(|f| {
            if f.holder != from {
                return true;
            }
            if f.knower == to {
                // The taker knew of it: it is its own now.
                if f.card == card && !moved {
                    moved = true;
                    return false;
                }
                return true;
            }
            // Anyone else saw a card go, not which.
            false
        });
        if from != to {
            self.facts.push(Fact { knower: from, holder: to, card });
        }
    }

    /// `seat` left the hand: its cards are out of every hand, and what it
    /// knew no longer matters.
    pub(crate) fn left(&mut self, seat: Seat) {
        self.facts.retain(|f| f.holder != seat && f.knower != seat);
        if let Some(turns) = self.turns.get_mut(seat) {
            *turns = SeatTurns::default();
        }
    }

    /// `holder` shows its whole hand, `cards`, to `to`.
    pub(crate) fn shown(&mut self, to: Seat, holder: Seat, cards: &[CardId]) {
        if to == holder {
            return;
        }
        self.facts.retain(|f| !(f.knower == to && f.holder == holder));
        self.facts.extend(cards.iter().map(|&card| Fact { knower: to, holder, card }));
    }

    /// The hands were laid out anew (a scenario, a test): what a seat knew
    /// of a hand stays where it is still true, a copy for each copy held.
    /// What was seen of turns stays (it is of what happened).
    pub(crate) fn still_held(&mut self, hands: &crate::hands::Hands) {
        let mut kept: Vec<Fact> = Vec::with_capacity(self.facts.len());
        for fact in std::mem::take(&mut self.facts) {
            let known =
                kept.iter().filter(|k| k.knower == fact.knower && k.holder == fact.holder && k.card == fact.card);
            let held = hands.get(fact.holder).map_or(0, |hand| hand.iter().filter(|&&c| c == fact.card).count());
            if known.count() < held {
                kept.push(fact);
            }
        }
        self.facts = kept;
    }

    /// Keeps only what `seat` knows, and what others know of `seat`'s own
    /// hand (which it saw them learn): the rest is about cards a
    /// determinization for `seat` deals anew.
    pub(crate) fn keep_for(&mut self, seat: Seat) {
        self.facts.retain(|f| f.knower == seat || f.holder == seat);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(seen: &Seen, seat: Seat) -> Vec<(Seat, CardId)> {
        let mut out = Vec::new();
        seen.known_to(seat, &mut out);
        out.sort();
        out
    }

    #[test]
    fn a_swap_tells_each_the_hand_it_gave_and_moves_what_others_knew() {
        let mut seen = Seen::default();
        seen.shown(2, 0, &[CardId(5)]);
        seen.swapped(0, 1, &[CardId(5), CardId(6)], &[CardId(7)]);
        assert_eq!(known(&seen, 0), vec![(1, CardId(5)), (1, CardId(6))]);
        assert_eq!(known(&seen, 1), vec![(0, CardId(7))]);
        assert_eq!(known(&seen, 2), vec![(1, CardId(5))], "p2's knowledge moves with the card");
        seen.gone(1, CardId(5));
        assert_eq!(known(&seen, 0), vec![(1, CardId(6))]);
        assert_eq!(known(&seen, 2), vec![]);
        // Swapping back: p0 holds its own cards again and knows p1's.
        seen.swapped(0, 1, &[CardId(7)], &[CardId(6)]);
        assert_eq!(known(&seen, 0), vec![(1, CardId(7))]);
        assert_eq!(known(&seen, 1), vec![(0, CardId(6))]);
    }

    #[test]
    fn a_pass_tells_each_seat_the_hand_it_passed_on() {
        let mut seen = Seen::default();
        let hands = [vec![CardId(1)], vec![CardId(2)], vec![CardId(3)]];
        seen.passed(&[0, 1, 2], |s| (s + 1) % 3, |s| &hands[s]);
        assert_eq!(known(&seen, 0), vec![(1, CardId(1))]);
        assert_eq!(known(&seen, 2), vec![(0, CardId(3))]);
        // Another pass: p0's old hand reaches p2; p0 knows its second hand
        // (p2's old one) went to p1, and knew nothing of the hand it gets.
        let hands = [vec![CardId(3)], vec![CardId(1)], vec![CardId(2)]];
        seen.passed(&[0, 1, 2], |s| (s + 1) % 3, |s| &hands[s]);
        assert_eq!(known(&seen, 0), vec![(1, CardId(3)), (2, CardId(1))]);
    }

    #[test]
    fn an_unseen_gift_makes_onlookers_forget_the_giver() {
        let mut seen = Seen::default();
        seen.shown(2, 0, &[CardId(1), CardId(2)]);
        seen.shown(1, 0, &[CardId(1), CardId(2)]);
        seen.given(0, 1, CardId(2));
        assert_eq!(known(&seen, 2), vec![]);
        assert_eq!(known(&seen, 1), vec![(0, CardId(1))]);
        assert_eq!(known(&seen, 0), vec![(1, CardId(2))]);
    }

    /// The choices a seat made on its turn, as `(played, kept)`.
    fn turns(seen: &Seen, seat: Seat) -> Vec<(Option<CardId>, usize)> {
        seen.turns_of(seat).map(|t| (t.played, t.kept())).collect()
    }

    #[test]
    fn a_choice_is_kept_while_the_seat_holds_cards_it_held_then() {
        let mut seen = Seen::default();
        let chose = |seen: &mut Seen, played: Option<CardId>, held: usize| {
            seen.chose(1, 3, played, held, Some(CardId(0)), Side::Light, None);
        };
        // p1 draws holding 3 cards, plays the card it drew at once, then
        // plays one of its 3 holding 3.
        chose(&mut seen, None, 3);
        seen.gone(1, CardId(9));
        seen.was_drawn(1);
        assert_eq!(turns(&seen, 1), vec![(None, 3)]);
        chose(&mut seen, Some(CardId(4)), 3);
        seen.gone(1, CardId(4));
        assert_eq!(turns(&seen, 1), vec![(None, 2), (Some(CardId(4)), 2)], "oldest first");
        seen.gone(1, CardId(5));
        seen.gone(1, CardId(6));
        assert_eq!(turns(&seen, 1), vec![], "it may hold none of them now");
        // The last few are kept; a swap moves them with the hand.
        for card in 10..20 {
            chose(&mut seen, Some(CardId(card)), 20);
        }
        let kept: Vec<_> = turns(&seen, 1).iter().map(|t| t.0.unwrap().0).collect();
        assert_eq!(kept, (20 - TURNS_KEPT as u16..20).collect::<Vec<_>>());
        seen.swapped(1, 2, &[], &[]);
        assert_eq!((turns(&seen, 1).len(), turns(&seen, 2).len()), (0, TURNS_KEPT));
        seen.left(2);
        assert_eq!(turns(&seen, 2), vec![]);
    }

    #[test]
    fn one_copy_goes_per_card_played() {
        let mut seen = Seen::default();
        seen.shown(1, 0, &[CardId(4), CardId(4)]);
        seen.shown(2, 0, &[CardId(4)]);
        seen.gone(0, CardId(4));
        assert_eq!(known(&seen, 1), vec![(0, CardId(4))]);
        assert_eq!(known(&seen, 2), vec![]);
        seen.left(0);
        assert!(seen.is_empty());
    }
}
