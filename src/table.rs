//! The table's state and its primitive operations: piles, hands, seats,
//! direction, the colour and side in play, Power Cards, UNO flags, pending
//! decisions, scores and the one seeded RNG. No rules live here: the game
//! (`crate::game`) and the scripts decide when these primitives run.

use std::collections::BTreeMap;

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::card::{CardId, Color, Direction, Face, Side};
use crate::event::{Event, Log, Seat};
use crate::variant::Variant;

/// How many cards a draw takes: `count` cards, or with `until` one at a time
/// until a card of that colour (on the face in play) and then `count` more.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DrawSpec {
    pub count: u32,
    pub until: Option<Color>,
}

/// The outcome of challenging a restricted draw-wild.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Challenge {
    /// Was the card played against its restriction (a bluff)?
    pub guilty: bool,
    /// What the challenger draws when the challenge fails.
    pub fail: DrawSpec,
    /// What the card's player draws when it succeeds.
    pub success: DrawSpec,
}

/// A draw penalty: the victim draws and loses their turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Penalty {
    pub victim: Seat,
    pub by: Seat,
    pub draw: DrawSpec,
    /// Which stacking group the card belongs to (house rules read it).
    pub group: String,
    pub challenge: Option<Challenge>,
    /// Wait for the victim's answer instead of drawing at once.
    pub pending: bool,
}

/// A decision the table waits for before play goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pending {
    /// `player` names the colour in play; then `then` (if any) is to play.
    Color { player: Seat, then: Option<Seat> },
    /// The victim answers a penalty: accept, challenge, or a play a rule allows.
    Penalty(Penalty),
}

/// UNO-call state of one seat (rules.md 1.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Uno {
    #[default]
    None,
    /// Holds one card and called UNO.
    Called,
    /// Holds one card, did not call, and the catch window is open.
    Exposed,
    /// Holds one card, did not call, the window has closed.
    Missed,
}

#[derive(Debug)]
pub struct Table {
    pub hands: Vec<Vec<CardId>>,
    /// Draw pile; the top is the last element.
    pub draw: Vec<CardId>,
    /// Discard pile; the top is the last element.
    pub discard: Vec<CardId>,
    pub current: Seat,
    pub dealer: Seat,
    pub direction: Direction,
    pub color: Option<Color>,
    pub side: Side,
    /// Power Card per seat, `true` = green; empty without Power Cards.
    pub power: Vec<bool>,
    pub uno: Vec<Uno>,
    pub pending: Option<Pending>,
    /// A card drawn this turn that may still be played (or passed).
    pub drawn: Option<CardId>,
    /// Who played the top card, while no other action has happened since.
    pub last_player: Option<Seat>,
    /// The top card has landed (played or turned up) and no turn action has
    /// happened since (a jump-in window, rules.md 8.2).
    pub fresh_top: bool,
    pub scores: Vec<i64>,
    /// Who went out this hand.
    pub winner: Option<Seat>,
    pub match_winner: Option<Seat>,
    pub hand_number: u32,
    /// Integers scripts keep between hooks (`var`, `set_var`).
    pub vars: BTreeMap<String, i64>,
    pub rng: ChaCha8Rng,
}

impl Clone for Table {
    fn clone(&self) -> Table {
        let mut copy = Table::new(self.players(), false, self.rng.clone());
        copy.clone_from(self);
        copy
    }

    /// Field by field, reusing this table's allocations: the game backs up
    /// its table before every action without allocating.
    fn clone_from(&mut self, source: &Table) {
        self.hands.clone_from(&source.hands);
        self.draw.clone_from(&source.draw);
        self.discard.clone_from(&source.discard);
        self.current = source.current;
        self.dealer = source.dealer;
        self.direction = source.direction;
        self.color = source.color;
        self.side = source.side;
        self.power.clone_from(&source.power);
        self.uno.clone_from(&source.uno);
        self.pending.clone_from(&source.pending);
        self.drawn = source.drawn;
        self.last_player = source.last_player;
        self.fresh_top = source.fresh_top;
        self.scores.clone_from(&source.scores);
        self.winner = source.winner;
        self.match_winner = source.match_winner;
        self.hand_number = source.hand_number;
        self.vars.clone_from(&source.vars);
        self.rng.clone_from(&source.rng);
    }
}

impl Table {
    pub fn new(players: usize, power: bool, rng: ChaCha8Rng) -> Table {
        Table {
            hands: vec![Vec::new(); players],
            draw: Vec::new(),
            discard: Vec::new(),
            current: 0,
            dealer: 0,
            direction: Direction::Clockwise,
            color: None,
            side: Side::Light,
            power: if power { vec![true; players] } else { Vec::new() },
            uno: vec![Uno::None; players],
            pending: None,
            drawn: None,
            last_player: None,
            fresh_top: false,
            scores: vec![0; players],
            winner: None,
            match_winner: None,
            hand_number: 0,
            vars: BTreeMap::new(),
            rng,
        }
    }

    pub fn players(&self) -> usize {
        self.hands.len()
    }

    /// The seat `steps` places from `from` in the direction of play.
    pub fn seat_after(&self, from: Seat, steps: usize) -> Seat {
        let n = self.players();
        let steps = steps % n;
        match self.direction {
            Direction::Clockwise => (from + steps) % n,
            Direction::Counterclockwise => (from + n - steps) % n,
        }
    }

    pub fn top(&self) -> Option<CardId> {
        self.discard.last().copied()
    }

    pub fn shuffle(&mut self, cards: &mut [CardId]) {
        cards.shuffle(&mut self.rng);
    }

    /// Turns the discard pile, all but its top card, into a new shuffled
    /// draw pile. Returns false when there was nothing to turn over.
    pub fn reshuffle(&mut self, log: &mut Log) -> bool {
        if self.discard.len() < 2 {
            return false;
        }
        let top = self.discard.pop().expect("two cards or more");
        let mut pile = std::mem::take(&mut self.discard);
        pile.shuffle(&mut self.rng);
        pile.append(&mut self.draw);
        self.draw = pile;
        self.discard.push(top);
        log.push(Event::Reshuffled { cards: self.draw.len() });
        true
    }

    /// Takes the top card of the draw pile, reshuffling when it is empty.
    pub fn take_top(&mut self, log: &mut Log) -> Option<CardId> {
        if self.draw.is_empty() {
            self.reshuffle(log);
        }
        self.draw.pop()
    }

    /// Can anyone draw a card (now or after a reshuffle)?
    pub fn can_draw(&self) -> bool {
        !self.draw.is_empty() || self.discard.len() > 1
    }

    /// `seat` draws per `spec`; returns the cards drawn. Stops early when
    /// both piles are exhausted (rules.md 1.3 DEFAULT).
    pub fn draw_cards(&mut self, variant: &Variant, seat: Seat, spec: DrawSpec, log: &mut Log) -> u32 {
        let mut drawn = 0;
        if let Some(color) = spec.until {
            loop {
                let Some(card) = self.take_top(log) else { return drawn };
                self.hands[seat].push(card);
                drawn += 1;
                log.push(Event::Drew { seat, card, side: self.side });
                if variant.face(card, self.side).color == Some(color) {
                    break;
                }
            }
        }
        for _ in 0..spec.count {
            let Some(card) = self.take_top(log) else { break };
            self.hands[seat].push(card);
            drawn += 1;
            log.push(Event::Drew { seat, card, side: self.side });
        }
        drawn
    }

    pub fn reverse(&mut self, log: &mut Log) {
        self.direction = self.direction.reversed();
        log.push(Event::Reversed { direction: self.direction });
    }

    pub fn swap_hands(&mut self, a: Seat, b: Seat, log: &mut Log) {
        if a != b {
            self.hands.swap(a, b);
            log.push(Event::HandsSwapped { a, b });
        }
    }

    /// Every hand moves one seat in the direction of play.
    pub fn pass_hands(&mut self, log: &mut Log) {
        match self.direction {
            Direction::Clockwise => self.hands.rotate_right(1),
            Direction::Counterclockwise => self.hands.rotate_left(1),
        }
        log.push(Event::HandsPassed { direction: self.direction });
    }

    /// Turns the table over: both piles reverse, the other side is up, and
    /// the new top card's colour is in play (none for a wild).
    pub fn flip(&mut self, variant: &Variant, log: &mut Log) {
        self.discard.reverse();
        self.draw.reverse();
        self.side = self.side.other();
        self.color = self.top().and_then(|card| variant.face(card, self.side).color);
        log.push(Event::Flipped { side: self.side });
    }

    pub fn set_power(&mut self, seat: Seat, green: bool, log: &mut Log) {
        if let Some(slot) = self.power.get_mut(seat)
            && *slot != green
        {
            *slot = green;
            log.push(Event::Power { seat, green });
        }
    }

    /// Does this face match the discard pile: a wild, the colour in play
    /// (the flex colour when played as flex), or the top card's number or
    /// symbol?
    pub fn matches(&self, variant: &Variant, face: &Face, as_flex: bool) -> bool {
        if face.is_wild() {
            return true;
        }
        if face.color.is_some() && face.color == self.color {
            return true;
        }
        if as_flex && face.flex.is_some() && face.flex == self.color {
            return true;
        }
        match self.top() {
            Some(top) => variant.names.same_value(face, variant.face(top, self.side)),
            None => true,
        }
    }

    /// Points of `seat`'s hand, by the side in play.
    pub fn hand_points(&self, variant: &Variant, seat: Seat) -> i64 {
        self.hands[seat].iter().map(|&card| variant.names.points(variant.face(card, self.side))).sum()
    }

    /// Every card on the table, sorted: hands, draw pile and discard pile.
    pub fn all_cards(&self) -> Vec<CardId> {
        let mut cards: Vec<CardId> =
            self.hands.iter().flatten().chain(&self.draw).chain(&self.discard).copied().collect();
        cards.sort_unstable();
        cards
    }

    /// Checks that the table holds exactly the variant's deck.
    pub fn conserves(&self, variant: &Variant) -> bool {
        let mut deck = variant.deck.clone();
        deck.sort_unstable();
        self.all_cards() == deck
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn table(players: usize) -> Table {
        Table::new(players, false, ChaCha8Rng::seed_from_u64(1))
    }

    #[test]
    fn seats_wrap_in_both_directions() {
        let mut t = table(4);
        assert_eq!(t.seat_after(3, 1), 0);
        assert_eq!(t.seat_after(1, 2), 3);
        t.reverse(&mut Log::new(false));
        assert_eq!(t.seat_after(0, 1), 3);
        assert_eq!(t.seat_after(1, 5), 0);
    }

    #[test]
    fn reshuffle_keeps_the_top_discard_and_every_card() {
        let mut t = table(2);
        t.discard = (0..10).map(CardId).collect();
        let mut log = Log::new(true);
        let card = t.take_top(&mut log).expect("reshuffled");
        assert_eq!(t.discard, vec![CardId(9)]);
        assert_eq!(t.draw.len(), 8);
        let mut all: Vec<CardId> = t.draw.iter().copied().chain([card, CardId(9)]).collect();
        all.sort();
        assert_eq!(all, (0..10).map(CardId).collect::<Vec<_>>());
        assert_eq!(log.events, vec![Event::Reshuffled { cards: 9 }]);
    }

    #[test]
    fn nothing_to_draw_when_both_piles_are_spent() {
        let mut t = table(2);
        t.discard = vec![CardId(0)];
        assert!(!t.can_draw());
        assert_eq!(t.take_top(&mut Log::new(false)), None);
    }

    #[test]
    fn hands_pass_in_the_direction_of_play() {
        let mut t = table(3);
        t.hands = vec![vec![CardId(0)], vec![CardId(1)], vec![CardId(2)]];
        let mut log = Log::new(false);
        t.pass_hands(&mut log);
        assert_eq!(t.hands, vec![vec![CardId(2)], vec![CardId(0)], vec![CardId(1)]]);
        t.reverse(&mut log);
        t.pass_hands(&mut log);
        assert_eq!(t.hands, vec![vec![CardId(0)], vec![CardId(1)], vec![CardId(2)]]);
    }
}
