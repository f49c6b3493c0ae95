//! Bot-vs-bot simulation: many seeded hands, spread over threads, with
//! statistics. Game `i` is seeded from (seed, i) alone, so results are the
//! same for any thread count. Each thread compiles its own scripts once.

use std::sync::Arc;
use std::time::Instant;

use crate::bot::{Bot, BotKind};
use crate::game::Game;
use crate::script::Runtime;
use crate::variant::Variant;

/// Actions after which a hand that has not ended counts as stuck.
pub const ACTION_LIMIT: u64 = 20_000;

#[derive(Debug, Clone)]
pub struct SimConfig {
    pub variant: Arc<Variant>,
    pub players: usize,
    pub games: u64,
    pub seed: u64,
    pub bot: BotKind,
    pub threads: usize,
    /// Reuse the outcome of script calls that read the same (same results).
    pub memo: bool,
}

#[derive(Debug, Clone, Default)]
pub struct SimStats {
    pub games: u64,
    /// Hands won, by seat.
    pub wins: Vec<u64>,
    /// Hands that hit the action limit.
    pub stuck: u64,
    pub turns_total: u64,
    pub turns_max: u64,
    pub points_total: i64,
    /// Script failures: (game index, message); the first few.
    pub errors: Vec<(u64, String)>,
    pub elapsed_s: f64,
}

/// The seed of game `index`: SplitMix64 of the run's seed and the index.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The result of one hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HandResult {
    Won { seat: usize, points: i64, turns: u64 },
    Stuck { turns: u64 },
}

/// Deals and plays one hand with bots in every seat.
pub fn play_hand(game: &mut Game, bots: &mut [Bot]) -> Result<HandResult, String> {
    game.deal().map_err(|e| e.to_string())?;
    let before = game.table().scores.clone();
    let mut turns = 0;
    while !game.hand_over() {
        if turns >= ACTION_LIMIT {
            return Ok(HandResult::Stuck { turns });
        }
        let hand = game.table().hand_number;
        let next = crate::bot::next_action(game, bots, None).map_err(|e| format!("hand {hand}: {e}"))?;
        let Some((_, action)) = next else { unreachable!("bots play every seat") };
        if let Err(e) = game.apply_unchecked(action) {
            return Err(format!("hand {hand}, {}: {e}", action.describe(&game.variant, game.table().side)));
        }
        turns += 1;
    }
    let seat = game.table().winner().expect("hand over");
    let points = game.table().scores[seat] - before[seat];
    Ok(HandResult::Won { seat, points, turns })
}

fn run_share(config: &SimConfig, worker: usize) -> Result<SimStats, String> {
    let runtime = Runtime::new(config.variant.clone()).map_err(|p| p.join("\n"))?;
    let mut game = Game::new(runtime, config.players, config.seed)?;
    game.set_logging(false);
    game.set_memo(config.memo);
    let mut stats = SimStats { wins: vec![0; config.players], ..SimStats::default() };
    let mut index = worker as u64;
    while index < config.games {
        let seed = game_seed(config.seed, index);
        game.restart(seed);
        let mut bots: Vec<Bot> = (0..config.players).map(|s| Bot::new(config.bot, seed, s as u64)).collect();
        stats.games += 1;
        match play_hand(&mut game, &mut bots) {
            Ok(HandResult::Won { seat, points, turns }) => {
                stats.wins[seat] += 1;
                stats.turns_total += turns;
                stats.turns_max = stats.turns_max.max(turns);
                stats.points_total += points;
            }
            Ok(HandResult::Stuck { turns }) => {
                stats.stuck += 1;
                stats.turns_total += turns;
            }
            Err(e) => {
                if stats.errors.len() < 5 {
                    stats.errors.push((index, e));
                }
            }
        }
        index += config.threads as u64;
    }
    Ok(stats)
}

/// Runs the simulation on `config.threads` threads.
pub fn run(config: &SimConfig) -> Result<SimStats, String> {
    let start = Instant::now();
    let threads = config.threads.max(1);
    let config = SimConfig { threads, ..config.clone() };
    let shares: Vec<Result<SimStats, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|w| {
                let config = &config;
                scope.spawn(move || run_share(config, w))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("a simulation thread panicked".into()))).collect()
    });
    let mut total = SimStats { wins: vec![0; config.players], ..SimStats::default() };
    for share in shares {
        let share = share?;
        total.games += share.games;
        total.stuck += share.stuck;
        total.turns_total += share.turns_total;
        total.turns_max = total.turns_max.max(share.turns_max);
        total.points_total += share.points_total;
        for (w, s) in total.wins.iter_mut().zip(&share.wins) {
            *w += s;
        }
        total.errors.extend(share.errors);
    }
    total.errors.sort();
    total.errors.truncate(5);
    total.elapsed_s = start.elapsed().as_secs_f64();
    Ok(total)
}

impl SimStats {
    pub fn turns_mean(&self) -> f64 {
        if self.games == 0 { 0.0 } else { self.turns_total as f64 / self.games as f64 }
    }

    pub fn games_per_s(&self) -> f64 {
        if self.elapsed_s > 0.0 { self.games as f64 / self.elapsed_s } else { 0.0 }
    }
}

/// The full transcript of one seeded hand with bots: one line per event.
pub fn transcript(variant: Arc<Variant>, players: usize, seed: u64, bot: BotKind) -> Result<String, String> {
    let runtime = Runtime::new(variant.clone()).map_err(|p| p.join("\n"))?;
    let mut game = Game::new(runtime, players, seed)?;
    let mut bots: Vec<Bot> = (0..players).map(|s| Bot::new(bot, seed, s as u64)).collect();
    let result = play_hand(&mut game, &mut bots)?;
    let mut text: String =
        game.events().iter().map(|e| crate::event::describe(e, &variant)).collect::<Vec<_>>().join("\n");
    if let HandResult::Stuck { turns } = result {
        text += &format!("\nstuck after {turns} actions");
    }
    Ok(text)
}
