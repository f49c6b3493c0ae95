//! Bots: they choose an action for a seat from what the game says is legal.
//! `random` plays a random legal card (drawing when it has none); `greedy`
//! sheds its most valuable card first and keeps wilds for last. Every choice
//! comes from the bot's own RNG, seeded from the game's seed.

use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::card::Color;
use crate::event::Seat;
use crate::game::{Action, Game, Play};
use crate::table::Pending;
use crate::variant::MAX_COLORS;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BotKind {
    Random,
    Greedy,
}

pub struct Bot {
    pub kind: BotKind,
    rng: ChaCha8Rng,
    /// Reused between turns so choosing allocates nothing.
    plays: Vec<Play>,
}

impl Bot {
    /// A bot whose choices come from stream `stream` of `seed`.
    pub fn new(kind: BotKind, seed: u64, stream: u64) -> Bot {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(stream + 1);
        Bot { kind, rng, plays: Vec::new() }
    }

    /// The colour `seat` holds most of, among the colours in play.
    fn favourite_color(&mut self, game: &Game, seat: Seat) -> Color {
        let table = game.table();
        let colors = game.color_range();
        let mut counts = [0u16; MAX_COLORS];
        for &card in &table.hands[seat] {
            if let Some(c) = game.variant.face(card, table.side).color {
                counts[usize::from(c)] += 1;
            }
        }
        let in_play = &counts[usize::from(colors.start)..usize::from(colors.end)];
        let best = in_play.iter().copied().max().unwrap_or(0);
        let tied = in_play.iter().filter(|&&n| n == best).count();
        let pick = self.rng.random_range(0..tied.max(1));
        let index = in_play.iter().enumerate().filter(|&(_, &n)| n == best).nth(pick).map_or(0, |(i, _)| i);
        colors.start + index as Color
    }

    fn random_other(&mut self, game: &Game, seat: Seat) -> Seat {
        let other = self.rng.random_range(0..game.players() - 1);
        if other >= seat { other + 1 } else { other }
    }

    /// The action `seat` takes now (`seat` must be `game.to_act()`).
    pub fn choose(&mut self, game: &mut Game, seat: Seat) -> Action {
        if let Some(Pending::Color { .. }) = game.table().pending {
            return Action::Color(self.favourite_color(game, seat));
        }
        let target = self.random_other(game, seat);
        let mut plays = std::mem::take(&mut self.plays);
        game.legal_plays(seat, game.color_range().start, target, &mut plays);
        if game.table().hands[seat].len() == 2 {
            let uno = self.calls_uno();
            plays.iter_mut().for_each(|p| p.uno = uno);
        }
        let action = self.decide(game, &plays);
        self.plays = plays;
        self.with_favourite_color(game, seat, action)
    }

    /// A wild names the colour the bot holds most of (worked out only when
    /// a wild is played).
    fn with_favourite_color(&mut self, game: &Game, seat: Seat, action: Action) -> Action {
        match action {
            Action::Play(play) if play.color.is_some() => {
                Action::Play(Play { color: Some(self.favourite_color(game, seat)), ..play })
            }
            other => other,
        }
    }

    fn decide(&mut self, game: &mut Game, plays: &[Play]) -> Action {
        if let Some(Pending::Penalty(p)) = &game.table().pending {
            let can_challenge = p.challenge.is_some();
            if let Some(play) = self.pick(game, plays) {
                return Action::Play(play);
            }
            return if can_challenge && self.rng.random_bool(0.5) { Action::Challenge } else { Action::Accept };
        }
        if game.table().drawn.is_some() {
            return match plays.first() {
                Some(play) => Action::Play(*play),
                None => Action::Pass,
            };
        }
        if let Some(play) = self.pick(game, plays) {
            return Action::Play(play);
        }
        if game.can_draw_now() { Action::Draw } else { Action::Pass }
    }

    /// An out-of-turn play `seat` makes now (where a rule allows them), if any:
    /// a bot takes half the chances it gets.
    pub fn out_of_turn(&mut self, game: &mut Game, seat: Seat) -> Option<Action> {
        let target = self.random_other(game, seat);
        let mut plays = std::mem::take(&mut self.plays);
        game.legal_plays(seat, game.color_range().start, target, &mut plays);
        let chosen = if plays.is_empty() || !self.rng.random_bool(0.5) { None } else { self.pick(game, &plays) };
        self.plays = plays;
        let uno = game.table().hands[seat].len() == 2 && self.calls_uno();
        chosen.map(|play| self.with_favourite_color(game, seat, Action::Play(Play { uno, ..play })))
    }

    /// Does the bot remember to call UNO with its second-to-last card? A
    /// random bot forgets one time in eight; a greedy bot never does.
    fn calls_uno(&mut self) -> bool {
        self.kind == BotKind::Greedy || !self.rng.random_ratio(1, 8)
    }

    /// Does the bot catch a player who forgot to call UNO? Half the time.
    fn catches(&mut self) -> bool {
        self.rng.random_bool(0.5)
    }

    fn pick(&mut self, game: &Game, plays: &[Play]) -> Option<Play> {
        match self.kind {
            BotKind::Random => plays.choose(&mut self.rng).copied(),
            BotKind::Greedy => {
                let side = game.table().side;
                let value = |p: &Play| {
                    let face = game.variant.face(p.card, side);
                    let points = game.variant.names.points(face);
                    if face.is_wild() { -points } else { points * 2 + i64::from(p.as_flex) }
                };
                let best = plays.iter().map(value).max()?;
                let top: Vec<&Play> = plays.iter().filter(|p| value(p) == best).collect();
                top.choose(&mut self.rng).map(|p| **p)
            }
        }
    }
}

/// The next bot action at the table: an out-of-turn play by a bot that
/// wants one (only where a rule allows them), else the bot whose turn it is.
/// `human` is a seat no bot plays for. `None` when it is the human's turn.
pub fn next_action(game: &mut Game, bots: &mut [Bot], human: Option<Seat>) -> Option<(Seat, Action)> {
    let to_act = game.to_act();
    // Someone left with one card and no UNO call can be caught until the
    // next turn action; the bots after the player to act look first.
    for exposed in (0..game.players()).filter(|&s| game.table().uno[s] == crate::table::Uno::Exposed) {
        for offset in 0..game.players() {
            let seat = (to_act + offset) % game.players();
            if seat != exposed && Some(seat) != human && bots[seat].catches() {
                return Some((seat, Action::Catch(exposed)));
            }
        }
    }
    if game.variant.has_hook(crate::variant::HookKind::CanPlayOutOfTurn) {
        for offset in 1..game.players() {
            let seat = (to_act + offset) % game.players();
            if Some(seat) == human {
                continue;
            }
            if let Some(action) = bots[seat].out_of_turn(game, seat) {
                return Some((seat, action));
            }
        }
    }
    if Some(to_act) == human {
        return None;
    }
    let action = bots[to_act].choose(game, to_act);
    Some((to_act, action))
}
