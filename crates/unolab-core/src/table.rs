//! The table's state and its primitive operations: piles, hands, seats,
//! direction, the colour and side in play, Power Cards, UNO states, where the
//! hand stands (`Phase`, `Landing`, owed decisions), scores and the one
//! seeded RNG. No rules live here: the game (`crate::game`) and the scripts
//! decide when these primitives run.

use std::collections::{BTreeMap, VecDeque};

use crate::text::Text;
use rand::seq::SliceRandom;

use crate::card::{CardId, Color, Direction, Face, Side};
use crate::event::{Event, LeftCards, Log};
use crate::hands::Hands;
use crate::rng::Rng;
use crate::seat::Seat;
use crate::seen::Seen;
use crate::turn::{
    Choice, ChoiceOption, Decision, DrawSpec, HandEnd, Landing, Op, Penalty, Phase, Request, ScriptValue, TurnPlan,
};
use crate::variant::Variant;

/// UNO-call state of one seat for the hand it holds now (rules.md 1.5).
/// When a seat's hand is replaced (a swap, a pass), its state starts over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
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

/// The UNO-call state of every seat, as a mask of seats per state (a seat
/// in none of them is `Uno::None`): what is asked of it after every action,
/// who can be caught, is one word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct UnoStates {
    called: u32,
    exposed: u32,
    missed: u32,
}

impl UnoStates {
    pub fn get(&self, seat: Seat) -> Uno {
        let bit = 1u32.checked_shl(seat as u32).unwrap_or(0);
        if self.called & bit != 0 {
            Uno::Called
        } else if self.exposed & bit != 0 {
            Uno::Exposed
        } else if self.missed & bit != 0 {
            Uno::Missed
        } else {
            Uno::None
        }
    }

    pub fn set(&mut self, seat: Seat, state: Uno) {
        let bit = 1u32 << seat;
        self.called &= !bit;
        self.exposed &= !bit;
        self.missed &= !bit;
        match state {
            Uno::None => {}
            Uno::Called => self.called |= bit,
            Uno::Exposed => self.exposed |= bit,
            Uno::Missed => self.missed |= bit,
        }
    }

    /// Every seat starts a new UNO state.
    pub fn clear(&mut self) {
        *self = UnoStates::default();
    }

    /// The seats that can be caught, one bit per seat.
    #[inline(always)]
    pub fn exposed(&self) -> u32 {
        self.exposed
    }

    /// Brings the states up to date with the seats that hold one card
    /// (`ones`, a bit per seat): a seat without one card has none; one that
    /// holds one and has none is exposed.
    #[inline(always)]
    fn update(&mut self, ones: u32) {
        self.called &= ones;
        self.missed &= ones;
        self.exposed = ones & !self.called & !self.missed;
    }

    /// The exposed seats but `actor` have missed their call.
    fn close_windows(&mut self, actor: Seat) {
        let closing = self.exposed & !(1 << actor);
        self.exposed &= !closing;
        self.missed |= closing;
    }
}

/// Values a rule keeps by name (`set_state`).
pub type State = BTreeMap<Text, ScriptValue>;

#[derive(Debug, PartialEq)]
pub struct Table {
    // ----- the match: kept from hand to hand ---------------------------
    pub(crate) scores: Vec<i64>,
    pub(crate) match_winner: Option<Seat>,
    pub(crate) hand_number: u32,
    pub(crate) rng: Rng,
    /// The rules' state of the match, and of each seat.
    pub(crate) state: State,
    pub(crate) seat_state: Vec<State>,
    // ----- the hand: built whole by `start_hand` -----------------------
    pub(crate) hands: Hands,
    /// What each seat has seen of the others' hands (`Seen`): kept by the
    /// primitives below that swap, pass, give, discard and show cards.
    pub(crate) seen: Seen,
    /// Draw pile; the top is the last element.
    pub(crate) draw: Vec<CardId>,
    /// Discard pile; the top is the last element.
    pub(crate) discard: Vec<CardId>,
    /// Cards a rule put out of play for the rest of the hand.
    pub(crate) aside: Vec<CardId>,
    /// The seats a rule took out of the hand, one bit per seat (see
    /// `playing`).
    left_hand: u32,
    /// The seats that left the hand, in the order they left.
    pub(crate) departures: Vec<Seat>,
    /// Whose turn it is (once any owed decisions are made).
    pub(crate) current: Seat,
    pub(crate) dealer: Seat,
    pub(crate) direction: Direction,
    pub(crate) color: Option<Color>,
    pub(crate) side: Side,
    /// Power Card per seat, `true` = green; empty without Power Cards.
    pub(crate) power: Vec<bool>,
    pub(crate) uno: UnoStates,
    phase: Phase,
    /// Decisions owed after the one `phase` waits for, in the order they arose.
    pub(crate) owed: VecDeque<Decision>,
    pub(crate) landing: Landing,
    /// Turns given this hand, and how many of them the turn hooks were told
    /// of (the last told one was `turn_of`'s).
    pub(crate) turns: u64,
    pub(crate) turns_announced: u64,
    pub(crate) turn_of: Option<Seat>,
    /// Reshuffles this hand (the reshuffle hooks run when it moves).
    pub(crate) reshuffles: u32,
}

impl Clone for Table {
    fn clone(&self) -> Table {
        let mut copy = Table::new(self.players(), !self.power.is_empty(), self.rng.clone());
        copy.clone_from(self);
        copy
    }

    /// Field by field, reusing this table's allocations: the game backs up
    /// its table before actions that run scripts without allocating. The
    /// pattern names every field, so a new field cannot be forgotten.
    fn clone_from(&mut self, source: &Table) {
        let Table {
            scores,
            match_winner,
            hand_number,
            rng,
            state,
            seat_state,
            hands,
            seen,
            draw,
            discard,
            aside,
            left_hand,
            departures,
            current,
            dealer,
            direction,
            color,
            side,
            power,
            uno,
            phase,
            owed,
            landing,
            turns,
            turns_announced,
            turn_of,
            reshuffles,
        } = source;
        self.scores.clone_from(scores);
        self.match_winner = *match_winner;
        self.hand_number = *hand_number;
        self.rng.clone_from(rng);
        // A map's clone_from rebuilds it: copy only what differs.
        let copy = |to: &mut State, from: &State| {
            if !(to.is_empty() && from.is_empty()) && to != from {
                to.clone_from(from);
            }
        };
        copy(&mut self.state, state);
        self.seat_state.resize_with(seat_state.len(), State::new);
        for (to, from) in self.seat_state.iter_mut().zip(seat_state) {
            copy(to, from);
        }
        self.hands.clone_from(hands);
        self.seen.clone_from(seen);
        self.draw.clone_from(draw);
        self.discard.clone_from(discard);
        self.aside.clone_from(aside);
        self.left_hand = *left_hand;
        self.departures.clone_from(departures);
        self.current = *current;
        self.dealer = *dealer;
        self.direction = *direction;
        self.color = *color;
        self.side = *side;
        self.power.clone_from(power);
        self.uno = *uno;
        self.phase.clone_from(phase);
        self.owed.clone_from(owed);
        self.landing = *landing;
        self.turns = *turns;
        self.turns_announced = *turns_announced;
        self.turn_of = *turn_of;
        self.reshuffles = *reshuffles;
    }
}

impl Table {
    /// A table of `players` seats, scores at zero, no hand dealt.
    pub fn new(players: usize, power: bool, rng: Rng) -> Table {
        Table {
            scores: vec![0; players],
            match_winner: None,
            hand_number: 0,
            rng,
            state: State::new(),
            seat_state: vec![State::new(); players],
            hands: Hands::new(players),
            seen: Seen::default(),
            draw: Vec::new(),
            discard: Vec::new(),
            aside: Vec::new(),
            left_hand: 0,
            departures: Vec::new(),
            current: 0,
            dealer: 0,
            direction: Direction::Clockwise,
            color: None,
            side: Side::Light,
            power: if power { vec![true; players] } else { Vec::new() },
            uno: UnoStates::default(),
            phase: Phase::Turn,
            owed: VecDeque::new(),
            landing: Landing::Settled,
            turns: 0,
            turns_announced: 0,
            turn_of: None,
            reshuffles: 0,
        }
    }

    /// Starts the next hand: everything that belongs to a hand is built
    /// anew; the scores, the match and the RNG carry on.
    pub fn start_hand(&mut self, dealer: Seat) {
        let players = self.players();
        let Table {
            scores,
            match_winner,
            hand_number,
            rng,
            state,
            seat_state,
            mut hands,
            mut seen,
            mut draw,
            mut discard,
            mut aside,
            mut power,
            mut uno,
            mut owed,
            ..
        } = std::mem::replace(self, Table::new(0, false, crate::rng::rng(0)));
        // Containers keep their allocations, emptied; the literal below names
        // every field, so a field added to the table must be given its
        // start-of-hand value here.
        hands.iter_mut().for_each(Vec::clear);
        seen.clear();
        draw.clear();
        discard.clear();
        aside.clear();
        power.fill(true);
        uno.clear();
        owed.clear();
        *self = Table {
            scores,
            match_winner,
            hand_number: hand_number + 1,
            rng,
            state,
            seat_state,
            hands,
            seen,
            draw,
            discard,
            aside,
            left_hand: 0,
            departures: Vec::new(),
            current: (dealer + 1) % players,
            dealer,
            direction: Direction::Clockwise,
            color: None,
            side: Side::Light,
            power,
            uno,
            phase: Phase::Turn,
            owed,
            landing: Landing::Settled,
            turns: 0,
            turns_announced: 0,
            turn_of: None,
            reshuffles: 0,
        };
    }

    /// Starts a new match at this table: what `Table::new` gives, keeping
    /// the allocations.
    pub fn restart(&mut self, rng: Rng) {
        self.start_hand(0);
        self.state.clear();
        self.seat_state.iter_mut().for_each(State::clear);
        self.scores.fill(0);
        self.match_winner = None;
        self.hand_number = 0;
        self.rng = rng;
        self.current = 0;
    }

    pub fn players(&self) -> usize {
        self.hands.len()
    }

    /// Who must act now: the seat owing a decision, else the player whose
    /// turn it is.
    pub fn to_act(&self) -> Seat {
        match &self.phase {
            Phase::NameColor { chooser } => *chooser,
            Phase::Answer(p) => p.victim,
            Phase::Choose(choice) => choice.chooser,
            Phase::Turn | Phase::Drawn(_) | Phase::Over { .. } => self.current,
        }
    }

    /// Who went out, once the hand is over.
    pub fn winner(&self) -> Option<Seat> {
        match self.phase {
            Phase::Over { ref ranking } => ranking.first().copied(),
            _ => None,
        }
    }

    /// The card drawn this turn that may still be played.
    pub fn drawn(&self) -> Option<CardId> {
        match self.phase {
            Phase::Drawn(card) => Some(card),
            _ => None,
        }
    }

    // ----- what the table holds, for everyone ---------------------------

    #[inline]
    pub fn scores(&self) -> &[i64] {
        &self.scores
    }

    /// The seat that won the match, once one has.
    #[inline]
    pub fn match_winner(&self) -> Option<Seat> {
        self.match_winner
    }

    /// The hand being played, from 1 (0 before the first deal).
    #[inline]
    pub fn hand_number(&self) -> u32 {
        self.hand_number
    }

    /// The rules' state of the match.
    #[inline]
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The rules' state of each seat.
    #[inline]
    pub fn seat_state(&self) -> &[State] {
        &self.seat_state
    }

    #[inline]
    pub fn hands(&self) -> &Hands {
        &self.hands
    }

    /// What each seat has seen of the others' hands.
    pub fn seen(&self) -> &Seen {
        &self.seen
    }

    /// The penalties waiting for an answer: the phase's, then the owed
    /// ones, in order.
    pub fn waiting_penalties(&self) -> impl Iterator<Item = &Penalty> {
        let phase = self.phase.penalty();
        let owed = self.owed.iter().filter_map(|decision| match decision {
            Decision::Answer(penalty) => Some(penalty),
            _ => None,
        });
        phase.into_iter().chain(owed)
    }

    /// `waiting_penalties`, mutable for `Game::work_out_hidden_facts`, which
    /// changes a challenge's guilt, never where the hand stands.
    pub(crate) fn waiting_penalties_mut(&mut self) -> impl Iterator<Item = &mut Penalty> {
        let phase = match &mut self.phase {
            Phase::Answer(penalty) => Some(penalty),
            _ => None,
        };
        let owed = self.owed.iter_mut().filter_map(|decision| match decision {
            Decision::Answer(penalty) => Some(penalty),
            _ => None,
        });
        phase.into_iter().chain(owed)
    }

    /// The draw pile; its top is the last card.
    #[inline]
    pub fn draw_pile(&self) -> &[CardId] {
        &self.draw
    }

    /// The discard pile; its top is the last card.
    #[inline]
    pub fn discard_pile(&self) -> &[CardId] {
        &self.discard
    }

    /// Cards a rule put out of play for the rest of the hand.
    #[inline]
    pub fn aside(&self) -> &[CardId] {
        &self.aside
    }

    /// Whose turn it is (once any owed decisions are made).
    #[inline]
    pub fn current(&self) -> Seat {
        self.current
    }

    #[inline]
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    #[inline]
    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// The colour in play (none before a wild's colour is named).
    #[inline]
    pub fn color(&self) -> Option<Color> {
        self.color
    }

    /// The side in play of a double-sided deck.
    #[inline]
    pub fn side(&self) -> Side {
        self.side
    }

    /// Each seat's Power Card, `true` = green (empty without them).
    #[inline]
    pub fn power(&self) -> &[bool] {
        &self.power
    }

    /// Every seat's UNO-call state.
    #[inline]
    pub fn uno(&self) -> &UnoStates {
        &self.uno
    }

    /// Decisions owed after the one the phase waits for.
    #[inline]
    pub fn owed(&self) -> &VecDeque<Decision> {
        &self.owed
    }

    /// How the top card came to be there.
    #[inline]
    pub fn landing(&self) -> Landing {
        self.landing
    }

    /// Turns given this hand.
    #[inline]
    pub fn turns(&self) -> u64 {
        self.turns
    }

    /// Where the hand stands.
    #[inline]
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// The turn goes on with nothing owed and no card drawn (after a pass,
    /// a colour named, a decision of a seat that left).
    pub(crate) fn back_to_turn(&mut self) {
        self.phase = Phase::Turn;
    }

    /// The penalty waiting for an answer, taken up: the turn goes on.
    pub(crate) fn take_penalty(&mut self) -> Option<Penalty> {
        self.take_decision(|phase| match phase {
            Phase::Answer(penalty) => Ok(penalty),
            other => Err(other),
        })
    }

    /// The choice a seat owes, taken up: the turn goes on.
    pub(crate) fn take_choice(&mut self) -> Option<Choice> {
        self.take_decision(|phase| match phase {
            Phase::Choose(choice) => Ok(choice),
            other => Err(other),
        })
    }

    /// The decision the phase waits for, where `pick` takes it (the turn
    /// goes on); any other phase stays.
    fn take_decision<T>(&mut self, pick: impl FnOnce(Phase) -> Result<T, Phase>) -> Option<T> {
        match pick(std::mem::take(&mut self.phase)) {
            Ok(taken) => Some(taken),
            Err(other) => {
                self.phase = other;
                None
            }
        }
    }

    /// A card is played: the turn (or the drawn card) is over, and a
    /// penalty it answers is taken up.
    #[inline]
    pub(crate) fn begin_play(&mut self) -> Option<Penalty> {
        match &mut self.phase {
            Phase::Answer(_) => self.take_penalty(),
            phase => {
                debug_assert!(matches!(phase, Phase::Turn | Phase::Drawn(_)), "a play from {phase:?}");
                // Nothing to drop: the phase holds no more than a card.
                std::mem::forget(std::mem::replace(phase, Phase::Turn));
                None
            }
        }
    }

    /// The player whose turn it is drew `card`, which it may play.
    pub(crate) fn keep_drawn(&mut self, card: CardId) {
        self.phase = Phase::Drawn(card);
    }

    /// The hand is over, with every seat by place (the winner first);
    /// nothing more is owed.
    pub(crate) fn finish_hand(&mut self, ranking: Vec<Seat>) {
        self.phase = Phase::Over { ranking };
        self.owed.clear();
    }

    /// Moves on to the next owed decision, or to the turn when none is owed.
    pub fn next_decision(&mut self) {
        if let Some(decision) = self.owed.pop_front() {
            self.phase = Phase::from_decision(decision);
        }
    }

    /// How many seats are still in the hand.
    pub fn seats_left(&self) -> usize {
        self.players() - self.left_hand.count_ones() as usize
    }

    /// The seats a rule took out of the hand, one bit per seat.
    #[inline]
    pub fn seats_out(&self) -> u32 {
        self.left_hand
    }

    /// Is `seat` still in the hand?
    #[inline]
    pub fn playing(&self, seat: Seat) -> bool {
        self.left_hand & (1 << seat) == 0
    }

    /// The seat `steps` places from `from` in the direction of play,
    /// counting only seats still in the hand.
    #[inline]
    pub fn seat_after(&self, from: Seat, steps: usize) -> Seat {
        if self.left_hand != 0 {
            return self.seat_after_some_left(from, steps);
        }
        let n = self.players();
        let steps = steps % n;
        match self.direction {
            Direction::Clockwise => (from + steps) % n,
            Direction::Counterclockwise => (from + n - steps) % n,
        }
    }

    fn seat_after_some_left(&self, from: Seat, steps: usize) -> Seat {
        let n = self.players();
        let step = |seat: Seat| match self.direction {
            Direction::Clockwise => (seat + 1) % n,
            Direction::Counterclockwise => (seat + n - 1) % n,
        };
        let left = self.seats_left();
        if left == 0 {
            return from;
        }
        let next_playing = |mut seat: Seat| {
            seat = step(seat);
            while !self.playing(seat) {
                seat = step(seat);
            }
            seat
        };
        // From a seat that has left, the first step lands on the next seat
        // still playing (and so does "zero steps": play goes on from there).
        let (mut seat, rest) = if self.playing(from) {
            (from, steps % left)
        } else {
            (next_playing(from), steps.saturating_sub(1) % left)
        };
        for _ in 0..rest {
            seat = next_playing(seat);
        }
        seat
    }

    pub fn top(&self) -> Option<CardId> {
        self.discard.last().copied()
    }

    /// Everyone sees `seat` choose on its turn, with the table as it is
    /// now: a draw (`played` is `None`) or a play of `played` from its
    /// hand (`Seen::chose`).
    #[inline]
    pub(crate) fn seen_choose(&mut self, seat: Seat, played: Option<CardId>) {
        let (players, held, top) = (self.players(), self.hands[seat].len(), self.top());
        self.seen.chose(seat, players, played, held, top, self.side, self.color);
    }

    /// The face of the top card on the side in play (what `top` words of a
    /// selector compare with).
    pub fn top_face<'v>(&self, variant: &'v Variant) -> Option<&'v Face> {
        self.top().map(|top| variant.face(top, self.side))
    }

    /// Shuffles the draw pile.
    pub fn shuffle_draw(&mut self) {
        self.draw.shuffle(&mut self.rng);
    }

    /// Turns the discard pile, all but its top card, into a new shuffled
    /// draw pile. Returns false when there was nothing to turn over.
    pub fn reshuffle(&mut self, log: &mut Log) -> bool {
        if self.discard.len() < 2 {
            return false;
        }
        self.reshuffles += 1;
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

    /// How many cards could be drawn now, reshuffling included: the draw
    /// pile and all of the discard pile but its top.
    pub fn drawable(&self) -> usize {
        self.draw.len() + self.discard.len().saturating_sub(1)
    }

    /// Can anyone draw a card (now or after a reshuffle)?
    pub fn can_draw(&self) -> bool {
        !self.draw.is_empty() || self.discard.len() > 1
    }

    /// `seat` draws per `spec`; returns the number of cards drawn. Stops
    /// early when both piles are exhausted (rules.md 1.3 DEFAULT).
    pub fn draw_cards(&mut self, variant: &Variant, seat: Seat, spec: DrawSpec, log: &mut Log) -> u32 {
        let mut drawn = 0;
        if let Some(color) = spec.until {
            loop {
                let Some(card) = self.take_top(log) else { return drawn };
                self.hands.push(seat, card);
                drawn += 1;
                log.push(Event::Drew { seat, card, side: self.side });
                if variant.face(card, self.side).color == Some(color) {
                    break;
                }
            }
        }
        for _ in 0..spec.count {
            let Some(card) = self.take_top(log) else { break };
            self.hands.push(seat, card);
            drawn += 1;
            log.push(Event::Drew { seat, card, side: self.side });
        }
        drawn
    }

    pub fn reverse(&mut self, log: &mut Log) {
        self.direction = self.direction.reversed();
        log.push(Event::Reversed { direction: self.direction });
    }

    /// Seats `a` and `b` exchange hands; each starts a new UNO state.
    pub fn swap_hands(&mut self, a: Seat, b: Seat, log: &mut Log) {
        if a != b {
            self.seen.swapped(a, b, &self.hands[a], &self.hands[b]);
            self.hands.swap(a, b);
            self.uno.set(a, Uno::None);
            self.uno.set(b, Uno::None);
            log.push(Event::HandsSwapped { a, b });
        }
    }

    /// Every hand moves one seat in the direction of play (among the seats
    /// still in the hand); every seat starts a new UNO state.
    pub fn pass_hands(&mut self, log: &mut Log) {
        let seats: Vec<Seat> = (0..self.players()).filter(|&s| self.playing(s)).collect();
        let next = |seat: Seat| {
            let at = seats.iter().position(|&s| s == seat).unwrap_or(0);
            match self.direction {
                Direction::Clockwise => seats[(at + 1) % seats.len()],
                Direction::Counterclockwise => seats[(at + seats.len() - 1) % seats.len()],
            }
        };
        self.seen.passed(&seats, next, |seat| &self.hands[seat]);
        let mut moving: Vec<Vec<CardId>> = seats.iter().map(|&s| std::mem::take(&mut self.hands[s])).collect();
        match self.direction {
            Direction::Clockwise => moving.rotate_right(1),
            Direction::Counterclockwise => moving.rotate_left(1),
        }
        for (&seat, hand) in seats.iter().zip(moving) {
            self.hands[seat] = hand;
        }
        self.uno.clear();
        log.push(Event::HandsPassed { direction: self.direction });
    }

    /// `seat` puts `cards` from its hand under the top of the discard pile,
    /// one after the other (the top card stays), in one event.
    pub fn discard_from_hand(&mut self, seat: Seat, cards: &[CardId], log: &mut Log) {
        let mut discarded = Vec::with_capacity(cards.len());
        for &card in cards {
            if self.hands.remove(seat, card) {
                self.seen.gone(seat, card);
                let under = self.discard.len().saturating_sub(1);
                self.discard.insert(under, card);
                discarded.push(card);
            }
        }
        if !discarded.is_empty() {
            log.push(Event::Discarded { seat, cards: discarded, side: self.side });
        }
    }

    /// A seat whose hand a rule emptied goes out: it wins the hand.
    fn went_out(&self, seat: Seat, plan: &mut TurnPlan) {
        if self.hands[seat].is_empty() && self.playing(seat) && plan.end_hand.is_none() {
            plan.end_hand = Some(HandEnd { ranking: vec![seat], went_out: true });
        }
    }

    /// `card` moves from one hand to another.
    pub fn give(&mut self, from: Seat, to: Seat, card: CardId, log: &mut Log) {
        if self.hands.remove(from, card) {
            self.seen.given(from, to, card);
            self.hands.push(to, card);
            log.push(Event::Given { from, to, card, side: self.side });
        }
    }

    /// Shuffles the draw pile, or the discard pile below its top card.
    pub fn shuffle_pile(&mut self, discard: bool, log: &mut Log) {
        if discard {
            let below = self.discard.len().saturating_sub(1);
            self.discard[..below].shuffle(&mut self.rng);
        } else {
            self.draw.shuffle(&mut self.rng);
        }
        log.push(Event::Shuffled { discard });
    }

    /// `seat` leaves the hand: its cards go where `to` says (under the
    /// draw pile, out of play, or under the top of the discard pile), in
    /// one event; decisions it owed are dropped. Leaving is never going
    /// out: a hand a rule emptied before its seat left wins nothing
    /// (`apply_op`).
    pub fn leave(&mut self, seat: Seat, to: LeftCards, log: &mut Log) {
        if !self.playing(seat) {
            return;
        }
        let cards = std::mem::take(&mut self.hands[seat]);
        self.seen.left(seat);
        let held = cards.len();
        match to {
            LeftCards::Aside => self.aside.extend(cards),
            LeftCards::UnderDraw => drop(self.draw.splice(0..0, cards)),
            LeftCards::UnderTop => {
                let under = self.discard.len().saturating_sub(1);
                drop(self.discard.splice(under..under, cards));
            }
        }
        self.left_hand |= 1 << seat;
        self.departures.push(seat);
        self.uno.set(seat, Uno::None);
        self.owed.retain(|d| match d {
            Decision::NameColor { chooser } => *chooser != seat,
            Decision::Answer(p) => p.victim != seat,
            Decision::Choose(c) => c.chooser != seat,
        });
        log.push(Event::Left { seat, cards: to, held });
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

    /// Carries out one op an effect hook made (or replays a recorded one):
    /// changes to the table happen now, the rest goes into `plan`.
    pub fn apply_op(&mut self, op: &Op, plan: &mut TurnPlan, variant: &Variant, log: &mut Log) {
        match op {
            Op::Skip(n) => plan.skips = plan.skips.saturating_add(*n),
            Op::Reverse => self.reverse(log),
            Op::SetNext(seat) => plan.next = Some(*seat),
            Op::Penalty(penalty) => plan.requests.push(Request::Penalty(penalty.clone())),
            Op::AskColor(seat) => plan.requests.push(Request::AskColor(*seat)),
            Op::SetColor(color) => self.color = Some(*color),
            Op::SetPower(seat, green) => self.set_power(*seat, *green, log),
            Op::Flip => self.flip(variant, log),
            Op::Draw { seat, count, drawn } => {
                let done = self.draw_cards(variant, *seat, DrawSpec { count: *count, until: None }, log);
                debug_assert_eq!(done, *drawn, "a draw takes what the piles hold");
            }
            Op::SwapHands(a, b) => self.swap_hands(*a, *b, log),
            Op::PassHands => self.pass_hands(log),
            Op::SetState { seat, name, value } => {
                let kept = match seat {
                    Some(seat) => &mut self.seat_state[*seat],
                    None => &mut self.state,
                };
                match value {
                    Some(value) => kept.insert(name.clone(), value.clone()),
                    None => kept.remove(name),
                };
            }
            Op::Discard { seat, cards } => {
                self.discard_from_hand(*seat, cards, log);
                self.went_out(*seat, plan);
            }
            Op::Give { from, to, card } => {
                self.give(*from, *to, *card, log);
                self.went_out(*from, plan);
            }
            Op::Shuffle { discard } => self.shuffle_pile(*discard, log),
            Op::Leave { seat, cards } => {
                self.leave(*seat, *cards, log);
                // A seat that leaves has not gone out, even if a rule emptied
                // its hand first.
                if plan.end_hand.as_ref().is_some_and(|end| end.went_out && end.ranking == [*seat]) {
                    plan.end_hand = None;
                }
            }
            Op::EndHand { ranking } => {
                if plan.end_hand.is_none() {
                    plan.end_hand = Some(HandEnd { ranking: ranking.clone(), went_out: false });
                }
            }
            Op::Choose(choice) => plan.requests.push(Request::Choose(choice.clone())),
            Op::FirstDiscard(what) => plan.first_discard = *what,
            Op::Log(text) => log.push(Event::Script { text: text.to_string() }),
            Op::Count(name) => log.count(name),
        }
    }

    /// Brings each seat's UNO state up to date with the cards it holds: a
    /// seat left with one card without calling is exposed.
    pub fn update_uno(&mut self) {
        let ones =
            self.hands.iter().enumerate().fold(0, |mask, (seat, hand)| mask | (u32::from(hand.len() == 1) << seat));
        self.uno.update(ones);
    }

    /// An action by `actor` closes every other seat's catch window
    /// (rules.md 1.5: the window closes at the next player's first action).
    pub fn close_uno_windows(&mut self, actor: Seat) {
        self.uno.close_windows(actor);
    }

    /// The seats that can be caught now (left with one card, no UNO
    /// called, the window open), one bit per seat.
    #[inline]
    pub fn exposed(&self) -> u32 {
        self.uno.exposed()
    }

    /// Does this face match the discard pile: a wild, the colour in play
    /// (the flex colour when played as flex), or the top card's number or
    /// symbol?
    #[inline]
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

    /// Every card on the table, sorted: hands, draw pile, discard pile and
    /// the cards put aside.
    pub fn all_cards(&self) -> Vec<CardId> {
        let mut cards: Vec<CardId> =
            self.hands.iter().flatten().chain(&self.draw).chain(&self.discard).chain(&self.aside).copied().collect();
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

/// Where every card lies, whose turn it is and what the rules keep: what a
/// scenario sets a table to (`Table::layout`, changed, then
/// `Game::arrange`). The table checks it whole: a layout that loses or
/// makes a card is refused.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    pub hands: Vec<Vec<CardId>>,
    /// The draw pile; its top is the last card.
    pub draw: Vec<CardId>,
    /// The discard pile; its top is the last card.
    pub discard: Vec<CardId>,
    pub side: Side,
    pub current: Seat,
    pub direction: Direction,
    pub color: Option<Color>,
    pub power: Vec<bool>,
    pub scores: Vec<i64>,
    pub state: State,
    pub seat_state: Vec<State>,
    pub phase: Phase,
    /// How the top card came to be there.
    pub landing: Landing,
    /// `current`'s turn has begun: the rules were told (its turn-start
    /// hooks will not run again).
    pub turn_begun: bool,
}

impl Table {
    /// The table's layout now.
    pub fn layout(&self) -> Layout {
        Layout {
            hands: self.hands.iter().cloned().collect(),
            draw: self.draw.clone(),
            discard: self.discard.clone(),
            side: self.side,
            current: self.current,
            direction: self.direction,
            color: self.color,
            power: self.power.clone(),
            scores: self.scores.clone(),
            state: self.state.clone(),
            seat_state: self.seat_state.clone(),
            phase: self.phase.clone(),
            landing: self.landing,
            turn_begun: self.turn_of == Some(self.current) && self.turns_announced == self.turns,
        }
    }

    /// Lays the table out as `layout` says, or says why not (and changes
    /// nothing): a seat or a list of the wrong size, or cards that are not
    /// the variant's deck (with the cards put aside).
    pub(crate) fn arrange(&mut self, layout: Layout, variant: &Variant) -> Result<(), String> {
        let players = self.players();
        for (what, size) in
            [("hands", layout.hands.len()), ("scores", layout.scores.len()), ("seat states", layout.seat_state.len())]
        {
            if size != players {
                return Err(format!("{size} {what} at a table of {players}"));
            }
        }
        if layout.power.len() != self.power.len() {
            return Err(format!("{} Power Cards, not {}", layout.power.len(), self.power.len()));
        }
        if layout.current >= players {
            return Err(format!("there is no player {} at a table of {players}", layout.current));
        }
        let mut cards: Vec<CardId> = layout
            .hands
            .iter()
            .flatten()
            .chain(&layout.draw)
            .chain(&layout.discard)
            .chain(&self.aside)
            .copied()
            .collect();
        cards.sort_unstable();
        let mut deck = variant.deck.clone();
        deck.sort_unstable();
        if cards != deck {
            return Err(format!("the layout holds {} cards that are not the deck of {}", cards.len(), deck.len()));
        }
        let Layout {
            hands,
            draw,
            discard,
            side,
            current,
            direction,
            color,
            power,
            scores,
            state,
            seat_state,
            phase,
            landing,
            turn_begun,
        } = layout;
        self.hands = hands.into();
        self.seen.still_held(&self.hands);
        (self.draw, self.discard, self.side, self.current, self.direction, self.color) =
            (draw, discard, side, current, direction, color);
        (self.power, self.scores, self.state, self.seat_state) = (power, scores, state, seat_state);
        self.phase = phase;
        self.landing = landing;
        self.turn_of = turn_begun.then_some(current);
        if turn_begun {
            self.turns_announced = self.turns;
        }
        self.update_uno();
        Ok(())
    }
    /// Deals the cards `seat` cannot see anew among the places it cannot
    /// see (`Position::determinize`).
    pub(crate) fn deal_unseen(&mut self, seat: Seat, variant: &Variant, rng: &mut Rng) {
        let hidden = self.side.other();
        let back = |card: CardId| variant.double_sided.then(|| *variant.face(card, hidden));
        // The card drawn this turn by another seat is one of its hand: it
        // is named again once dealt (the last card of that hand).
        let drawn_by_other = matches!(self.phase, Phase::Drawn(_)) && self.current != seat;
        // Places: (seat's hand or None for the draw pile and aside, index),
        // and the back each shows, if any.
        let mut pool: Vec<CardId> = Vec::new();
        let mut places: Vec<(Place, Option<crate::card::Face>)> = Vec::new();
        let mut pinned: Vec<(Seat, CardId)> = Vec::new();
        self.seen.known_to(seat, &mut pinned);
        for (other, hand) in self.hands.iter().enumerate() {
            if other == seat {
                continue;
            }
            for (index, &card) in hand.iter().enumerate() {
                if let Some(at) = pinned.iter().position(|&(s, c)| s == other && c == card) {
                    pinned.swap_remove(at);
                    continue;
                }
                pool.push(card);
                places.push((Place::Hand(other, index), back(card)));
            }
        }
        let top = self.draw.len().checked_sub(1);
        for (index, &card) in self.draw.iter().enumerate() {
            pool.push(card);
            places.push((Place::Draw(index), back(card).filter(|_| Some(index) == top)));
        }
        for (index, &card) in self.aside.iter().enumerate() {
            pool.push(card);
            places.push((Place::Aside(index), None));
        }
        // Places whose back shows take a card with that back first; the
        // rest of the cards are shuffled into the other places. The cards
        // are put in order first: what is dealt depends on which cards the
        // seat cannot see, not on where they lay.
        pool.sort_unstable();
        pool.shuffle(rng);
        let mut dealt: Vec<Option<CardId>> = vec![None; places.len()];
        for (at, (_, shown)) in places.iter().enumerate() {
            if let Some(shown) = shown {
                let pick = pool.iter().position(|&card| back(card).as_ref() == Some(shown));
                dealt[at] = pick.map(|pick| pool.swap_remove(pick));
            }
        }
        pool.shuffle(rng);
        for slot in dealt.iter_mut().filter(|slot| slot.is_none()) {
            *slot = pool.pop();
        }
        // Which card now lies where each card lay: another seat's choice
        // among cards it can see names the cards at those places.
        let mut dealt_for: Vec<(CardId, CardId)> = Vec::new();
        for ((place, _), card) in places.iter().zip(dealt) {
            let card = card.expect("as many cards as places");
            let slot = match *place {
                Place::Hand(other, index) => &mut self.hands[other][index],
                Place::Draw(index) => &mut self.draw[index],
                Place::Aside(index) => &mut self.aside[index],
            };
            dealt_for.push((*slot, card));
            *slot = card;
        }
        if drawn_by_other && let Some(&card) = self.hands[self.current].last() {
            self.phase = Phase::Drawn(card);
        }
        let owed_choices = self.owed.iter_mut().filter_map(|decision| match decision {
            Decision::Choose(choice) => Some(choice),
            _ => None,
        });
        let phase_choice = match &mut self.phase {
            Phase::Choose(choice) => Some(choice),
            _ => None,
        };
        for choice in phase_choice.into_iter().chain(owed_choices).filter(|choice| choice.chooser != seat) {
            for option in &mut choice.options {
                if let ChoiceOption::Card(card, _) = option
                    && let Some(&(_, now)) = dealt_for.iter().find(|&&(was, _)| was == *card)
                {
                    *card = now;
                }
            }
        }
        // What other seats know of hands dealt anew is not the seat's to
        // know.
        self.seen.keep_for(seat);
        // The table's own generator would tell how the next reshuffle
        // falls: the seat does not know it either.
        self.rng = crate::rng::rng(rand::Rng::next_u64(rng));
        debug_assert!(self.conserves(variant), "a determinization keeps the deck");
    }
}

/// A place a card the seat cannot see lies in.
#[derive(Debug, Clone, Copy)]
enum Place {
    Hand(Seat, usize),
    Draw(usize),
    Aside(usize),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng;
    use crate::seat::seats_of;

    fn table(players: usize) -> Table {
        Table::new(players, false, rng(1))
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
        t.hands = vec![vec![CardId(0)], vec![CardId(1)], vec![CardId(2)]].into();
        let mut log = Log::new(false);
        t.pass_hands(&mut log);
        assert_eq!(t.hands, Hands::from(vec![vec![CardId(2)], vec![CardId(0)], vec![CardId(1)]]));
        t.reverse(&mut log);
        t.pass_hands(&mut log);
        assert_eq!(t.hands, Hands::from(vec![vec![CardId(0)], vec![CardId(1)], vec![CardId(2)]]));
    }

    #[test]
    fn a_new_hand_keeps_only_the_match() {
        let mut t = table(3);
        t.scores = vec![10, 20, 30];
        t.finish_hand(vec![1, 2, 3, 0]);
        t.landing = Landing::PlayedBy(1);
        t.hands[0].push(CardId(3));
        t.leave(1, LeftCards::UnderDraw, &mut Log::new(false));
        t.state.insert("x".into(), ScriptValue::Int(4));
        t.start_hand(2);
        assert_eq!((t.scores.clone(), t.hand_number, t.dealer, t.current), (vec![10, 20, 30], 1, 2, 0));
        assert_eq!((t.phase.clone(), t.landing), (Phase::Turn, Landing::Settled));
        assert!(t.hands.iter().all(Vec::is_empty) && (0..3).all(|s| t.playing(s)));
        assert_eq!(t.state.get("x"), Some(&ScriptValue::Int(4)), "the rules' state is the match's");
    }

    #[test]
    fn seats_that_left_are_passed_over() {
        let mut t = table(5);
        let mut log = Log::new(false);
        t.hands = vec![vec![CardId(0)], vec![CardId(1)], vec![CardId(2)], vec![CardId(3)], vec![CardId(4)]].into();
        t.leave(1, LeftCards::UnderDraw, &mut log);
        t.leave(3, LeftCards::Aside, &mut log);
        assert_eq!((t.seat_after(0, 1), t.seat_after(0, 2), t.seat_after(4, 1)), (2, 4, 0));
        assert_eq!(t.seat_after(1, 1), 2, "from a seat that left, the next seat still in");
        assert_eq!(t.seat_after(1, 0), 2);
        t.reverse(&mut log);
        assert_eq!(t.seat_after(0, 1), 4);
        t.pass_hands(&mut log);
        assert_eq!(t.hands, Hands::from(vec![vec![CardId(2)], vec![], vec![CardId(4)], vec![], vec![CardId(0)]]));
        assert_eq!((t.draw.clone(), t.aside.clone()), (vec![CardId(1)], vec![CardId(3)]));
    }

    #[test]
    fn a_restarted_table_is_a_new_table() {
        let mut t = table(3);
        t.scores = vec![1, 2, 3];
        t.start_hand(1);
        t.hands[2].push(CardId(5));
        t.restart(rng(1));
        assert!(t == table(3));
    }

    fn states(t: &Table) -> Vec<Uno> {
        (0..t.players()).map(|seat| t.uno.get(seat)).collect()
    }

    #[test]
    fn a_swap_starts_the_uno_state_over() {
        let mut t = table(3);
        t.hands = vec![vec![CardId(0)], vec![CardId(1), CardId(2)], vec![CardId(3)]].into();
        t.uno.set(0, Uno::Called);
        t.uno.set(2, Uno::Missed);
        let mut log = Log::new(false);
        t.swap_hands(0, 1, &mut log);
        t.update_uno();
        assert_eq!(states(&t), [Uno::None, Uno::Exposed, Uno::Missed]);
        t.pass_hands(&mut log);
        t.update_uno();
        assert_eq!(states(&t), [Uno::Exposed, Uno::None, Uno::Exposed]);
        assert_eq!(seats_of(t.exposed()).collect::<Vec<_>>(), [0, 2]);
        t.close_uno_windows(2);
        assert_eq!(states(&t), [Uno::Missed, Uno::None, Uno::Exposed]);
        assert_eq!(seats_of(t.exposed()).collect::<Vec<_>>(), [2]);
        assert_eq!(seats_of(0).next(), None);
    }
}
