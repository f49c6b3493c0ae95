//! A scenario's `setup`: checked without building anything, then built into
//! a game. Every card it names is taken out of the deck; the rest is dealt
//! and stacked as a real deal would, so the table holds exactly the deck.

use std::collections::BTreeMap;

use rand::seq::SliceRandom;

use crate::card::{CardId, Direction, Side};
use crate::game::Game;
use crate::rng::rng;
use crate::rules::Rules;
use crate::scenario::Scenario;
use crate::scenario::schema::script_value;
use crate::seat::Seat;
use crate::turn::Landing;
use crate::yaml::Placed;

/// The cards a setup names, taken out of the deck, and what is left.
struct NamedCards {
    hands: BTreeMap<Seat, Vec<CardId>>,
    discard: Vec<CardId>,
    draw: Vec<CardId>,
    left: Vec<CardId>,
}

impl Scenario {
    /// `file:line:column: message` at a value of the file.
    fn at<T>(&self, value: &Placed<T>, message: impl std::fmt::Display) -> String {
        self.source.problem(value.position(), message)
    }

    /// Checks the setup's cards and seats without building anything.
    pub(crate) fn check_setup(&self) -> Vec<String> {
        let mut problems = Vec::new();
        let _ = self.take_named_cards(&mut problems);
        let s = &self.setup;
        let seats = (s.hands.keys().chain(s.power.keys()).chain(s.scores.keys()).chain(s.seat_state.keys()))
            .chain(s.current.iter())
            .chain(s.dealer.iter());
        for seat in seats.filter(|seat| seat.value >= self.players) {
            problems.push(self.at(seat, format!("there is no player {seat} at a table of {}", self.players)));
        }
        if let Some(d) = &s.direction
            && Direction::parse(d).is_none()
        {
            problems.push(self.at(d, format!("direction '{d}' must be clockwise or counterclockwise")));
        }
        if let Some(c) = &s.color
            && self.variant.names.color(c).is_none()
        {
            problems.push(self.at(c, format!("unknown colour '{c}'")));
        }
        if let Some(side) = &s.side {
            match Side::parse(side) {
                None => problems.push(self.at(side, format!("side '{side}' must be light or dark"))),
                Some(Side::Dark) if !self.variant.double_sided => {
                    problems.push(self.at(side, format!("{} has one-sided cards", self.variant.name)))
                }
                _ => {}
            }
        }
        for value in s.power.values() {
            if !matches!(value.to_ascii_lowercase().as_str(), "green" | "red") {
                problems.push(self.at(value, format!("Power Card side '{value}' must be green or red")));
            }
        }
        for (name, value) in s.state.iter().chain(s.seat_state.values().flatten()) {
            match script_value(value) {
                Ok(Some(_)) => {}
                Ok(None) => problems.push(self.at(name, format!("state '{name}' needs a value"))),
                Err(e) => problems.push(self.at(name, format!("state '{name}': {e}"))),
            }
        }
        if !s.power.is_empty() && self.variant.power_cards == 0 {
            problems.push(self.at(&s.power, format!("{} has no Power Cards", self.variant.name)));
        }
        problems
    }

    /// Takes the named cards out of the deck: the hands, discard and draw
    /// cards named, and the cards left over.
    fn take_named_cards(&self, problems: &mut Vec<String>) -> NamedCards {
        let mut left = self.variant.deck.clone();
        let side = self.setup.side.as_deref().and_then(|s| Side::parse(s)).unwrap_or_default();
        let mut take = |text: &Placed<String>, problems: &mut Vec<String>| -> Option<CardId> {
            let pattern = match self.variant.names.parse_pattern(text) {
                Ok(p) => p,
                Err(e) => {
                    problems.push(self.at(text, e));
                    return None;
                }
            };
            let exists = self.variant.designs.iter().any(|d| pattern.matches(d, side));
            match left.iter().position(|&id| pattern.matches(self.variant.design(id), side)) {
                Some(i) => Some(left.swap_remove(i)),
                None if exists => {
                    problems.push(
                        self.at(text, format!("more copies of '{text}' than the {} deck holds", self.variant.name)),
                    );
                    None
                }
                None => {
                    problems.push(self.at(text, crate::scenario::schema::no_card(&self.variant, text)));
                    None
                }
            }
        };
        let mut hands = BTreeMap::new();
        for (seat, cards) in &self.setup.hands {
            let hand: Vec<CardId> = cards.iter().filter_map(|c| take(c, problems)).collect();
            hands.insert(seat.value, hand);
        }
        if let Some(discard) = self.setup.discard.as_ref().filter(|d| d.is_empty()) {
            // A hand under way always has a top card.
            problems.push(self.at(
                discard,
                "discard: [] names no card: name the pile, bottom to top, or leave discard out to turn up the first discard",
            ));
        }
        if *self.setup.turn_starts && self.setup.discard.is_none() {
            problems.push(self.source.problem(
                self.setup.turn_starts.position(),
                "turn_starts: needs a discard (without one the first discard is turned up and the first turn starts)",
            ));
        }
        let discard: Vec<CardId> =
            self.setup.discard.iter().flat_map(|d| d.iter()).filter_map(|c| take(c, problems)).collect();
        let draw: Vec<CardId> = self.setup.draw.iter().filter_map(|c| take(c, problems)).collect();
        left.sort_unstable();
        NamedCards { hands, discard, draw, left }
    }

    /// The game at the moment the setup describes, before any step, with
    /// the memo on (for tests and tools that start where a scenario does).
    pub fn game(&self) -> Result<Game<crate::script::Runtime>, String> {
        let rules = crate::script::Runtime::new(self.variant.clone()).map_err(|p| p.join("\n"))?;
        self.build(rules)
    }

    /// Builds the table the setup describes. A setup with a discard is the
    /// moment right after its top card landed: the windows a landing opens
    /// (catching, Jump-In) are open.
    pub(crate) fn build<R: Rules>(&self, rules: R) -> Result<Game<R>, String> {
        let mut game = Game::new(rules, self.players, self.seed)?;
        let mut problems = Vec::new();
        let NamedCards { hands: named_hands, discard, draw: named_draw, mut left } =
            self.take_named_cards(&mut problems);
        if !problems.is_empty() {
            return Err(problems.join("\n"));
        }
        left.shuffle(&mut rng(self.seed));
        let s = &self.setup;
        let current = s.current.as_deref().copied().unwrap_or(0);
        let dealer = s.dealer.as_deref().copied().unwrap_or((current + self.players - 1) % self.players);
        let variant = self.variant.clone();
        let mut hands = vec![Vec::new(); self.players];
        for (seat, hand) in hands.iter_mut().enumerate() {
            match named_hands.get(&seat) {
                Some(named) => *hand = named.clone(),
                None => {
                    for _ in 0..variant.hand_size {
                        hand.extend(left.pop());
                    }
                }
            }
        }
        // The draw pile: the listed cards on top (first listed = top).
        let mut draw = left;
        draw.extend(named_draw.iter().rev());
        game.setup_hand(dealer);
        let side = s.side.as_deref().and_then(|s| Side::parse(s)).unwrap_or_default();
        let color_named = s.color.as_deref().and_then(|c| variant.names.color(c));
        let landed = !discard.is_empty();
        let mut layout = game.table().layout();
        layout.hands = hands;
        layout.draw = draw;
        layout.discard = discard;
        layout.side = side;
        layout.current = current;
        if landed {
            // The middle of a hand: `current`'s turn has begun.
            layout.landing = Landing::TurnedUp;
            layout.turn_begun = !*s.turn_starts;
        }
        if let Some(d) = s.direction.as_deref().and_then(|d| Direction::parse(d)) {
            layout.direction = d;
        }
        for (seat, value) in s.power.iter() {
            layout.power[seat.value] = value.eq_ignore_ascii_case("green");
        }
        for (seat, &score) in &s.scores {
            layout.scores[seat.value] = score;
        }
        for (name, value) in &s.state {
            if let Ok(Some(value)) = script_value(value) {
                layout.state.insert(name.as_str().into(), value);
            }
        }
        for (seat, values) in &s.seat_state {
            for (name, value) in values {
                if let Ok(Some(value)) = script_value(value) {
                    layout.seat_state[seat.value].insert(name.as_str().into(), value);
                }
            }
        }
        layout.color = color_named.or_else(|| layout.discard.last().and_then(|&top| variant.face(top, side).color));
        game.arrange(layout)?;
        if !landed {
            game.turn_first_discard().map_err(|e| e.to_string())?;
            if let Some(c) = color_named {
                let mut layout = game.table().layout();
                layout.color = Some(c);
                game.arrange(layout)?;
            }
        } else if game.table().color().is_none() {
            let at = s.discard.as_ref().and_then(Placed::position);
            return Err(self.source.problem(at, "the top discard is wild: say which colour is in play with 'color:'"));
        } else if *s.turn_starts {
            game.start_turn().map_err(|e| format!("the turn's start: {e}"))?;
        }
        Ok(game)
    }
}
