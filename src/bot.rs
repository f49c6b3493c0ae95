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

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BotKind {
    Random,
    Greedy,
}

pub struct Bot {
    pub kind: BotKind,
    rng: ChaCha8Rng,
}

impl Bot {
    /// A bot whose choices come from stream `stream` of `seed`.
    pub fn new(kind: BotKind, seed: u64, stream: u64) -> Bot {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(stream + 1);
        Bot { kind, rng }
    }

    /// The colour `seat` holds most of, among the colours in play.
    fn favourite_color(&mut self, game: &Game, seat: Seat) -> Color {
        let colors = game.colors_in_play();
        let table = game.table();
        let mut counts = vec![0usize; game.variant.names.colors.len()];
        for &card in &table.hands[seat] {
            if let Some(c) = game.variant.face(card, table.side).color {
                counts[c as usize] += 1;
            }
        }
        let best = colors.iter().map(|&c| counts[c as usize]).max().unwrap_or(0);
        let tied: Vec<Color> = colors.iter().copied().filter(|&c| counts[c as usize] == best).collect();
        *tied.choose(&mut self.rng).unwrap_or(&0)
    }

    fn random_other(&mut self, game: &Game, seat: Seat) -> Seat {
        let others: Vec<Seat> = (0..game.players()).filter(|&s| s != seat).collect();
        *others.choose(&mut self.rng).unwrap_or(&seat)
    }

    /// The action `seat` takes now (`seat` must be `game.to_act()`).
    pub fn choose(&mut self, game: &mut Game, seat: Seat) -> Action {
        if let Some(Pending::Color { .. }) = game.table().pending {
            return Action::Color(self.favourite_color(game, seat));
        }
        let color = self.favourite_color(game, seat);
        let target = self.random_other(game, seat);
        let mut plays = game.legal_plays(seat, color, target);
        if game.table().hands[seat].len() == 2 {
            plays.iter_mut().for_each(|p| p.uno = true);
        }
        if let Some(Pending::Penalty(p)) = &game.table().pending {
            let can_challenge = p.challenge.is_some();
            if let Some(play) = self.pick(game, &plays) {
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
        if let Some(play) = self.pick(game, &plays) {
            return Action::Play(play);
        }
        if game.can_draw_now() { Action::Draw } else { Action::Pass }
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
