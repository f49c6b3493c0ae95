//! Bot-vs-bot simulation: many seeded hands, spread over threads, with
//! statistics gathered off the hot path (from the log's counts once a hand
//! is over). Game `i` is seeded from (seed, i) alone, so results are the
//! same for any thread count. Each thread compiles its own scripts once.
//! A hand is played out by `bot::playout`, as a search bot plays out the
//! positions it tries.
//! `report` turns the figures into intervals and tables.

pub mod json;
pub mod plot;
pub mod report;
pub mod watch;

use std::sync::Arc;
use std::time::Instant;

use crate::bot::{Bot, BotKind};
use crate::event::EVENT_KINDS;
use crate::game::{Game, OnFailure};
use crate::rng::game_seed;
use crate::rules::{RuleFailure, Rules};
use crate::script::{Runtime, Scripts};
use crate::variant::Variant;
use watch::Race;

#[derive(Debug, Clone)]
pub struct SimConfig {
    pub variant: Arc<Variant>,
    pub players: usize,
    pub games: u64,
    pub seed: u64,
    /// The bot of each seat, repeating when the list is shorter.
    pub bots: Vec<BotKind>,
    pub threads: usize,
    /// How the games are played: the memo on or off (the same results),
    /// the move generator's fast paths proven or not.
    pub engine: Engine,
    /// Keep a row per game (`--games-out`).
    pub rows: bool,
    /// Each game is a match played to the target score, not one hand.
    pub matches: bool,
    /// `(k, n)`: play only the games whose index is `k` modulo `n`
    /// (`--shard K/N`; `(0, 1)` plays them all).
    pub shard: (u64, u64),
}

/// A game that did not finish: a script failed, or it hit the action limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub index: u64,
    pub seed: u64,
    pub message: String,
    /// The rule's failure that stopped it, if one did (not kept by `--json`).
    pub cause: Option<RuleFailure>,
}

/// One game of a run, for `--games-out`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    pub index: u64,
    pub seed: u64,
    pub dealer: usize,
    /// The winner and their position from the dealer (0: first to play).
    pub winner: Option<(usize, usize)>,
    /// Turns (`watch::Race`: a turn counts when a seat ends it by acting),
    /// and every action.
    pub turns: u64,
    pub actions: u64,
    pub points: i64,
    /// How it ended, if not with a winner: "stuck" or "failed".
    pub failed: Option<&'static str>,
    pub counters: Vec<(String, u64)>,
    /// Events of each kind (`EVENT_KINDS`) in this game, their amounts,
    /// and the largest amount one of them had.
    pub events: Vec<u32>,
    pub amounts: Vec<u64>,
    pub peaks: Vec<u32>,
    /// The race: lead changes, the seat that first held one card (alone),
    /// whether the winner was last at some point, the winner's margin.
    pub lead_changes: u32,
    pub first_to_one: Option<usize>,
    pub comeback: bool,
    pub margin: i64,
    /// The longest chain of penalties (`longest_chain`).
    pub chain: u32,
}

/// What a run gathered. Every figure is a sum or a list over games, so
/// shares of a run merge into the same figures whatever the thread count.
#[derive(Debug, Clone, Default)]
pub struct SimStats {
    pub games: u64,
    /// Hands won, by seat.
    pub wins: Vec<u64>,
    /// Hands won, by position from the dealer (0: the first to play).
    pub wins_by_position: Vec<u64>,
    /// Turns of each finished hand (`watch::Race`: a turn counts when a
    /// seat ends it by a play, a draw or a pass; one lost to a penalty or a
    /// skip is none).
    pub turns: Vec<u32>,
    /// Every action of the finished hands (answers, UNO calls, catches...).
    pub actions: u64,
    pub points_total: i64,
    /// Events of each kind (`EVENT_KINDS`) in finished hands, their
    /// amounts, and in how many hands each kind happened at all.
    pub events: Vec<u64>,
    pub amounts: Vec<u64>,
    pub hands_with: Vec<u64>,
    /// Per kind, the sum over finished hands of the largest amount one
    /// event had.
    pub peaks: Vec<u64>,
    /// Per kind, how many finished hands had each largest amount (index:
    /// the amount, the last one `limits::SIM_SIZES - 1` or more; hands
    /// without one are not counted; empty for kinds without amounts).
    pub sizes: Vec<Vec<u64>>,
    /// How many finished hands had each longest chain of penalties (index:
    /// its length as `sizes`; a hand without a penalty is at 0).
    pub chains: Vec<u64>,
    /// The race (`watch::Race`), of finished hands: lead changes summed,
    /// and their squares summed (for the interval).
    pub lead_changes: u64,
    pub lead_changes_sq: u64,
    /// By position from the dealer: hands whose first seat to hold one card
    /// (alone) was there, and of them the hands it won.
    pub first_to_one: Vec<u64>,
    pub first_to_one_won: Vec<u64>,
    /// By the winner's position: hands won by a seat that was last at some
    /// point, and the winner's margins summed; the margins' squares summed.
    pub comebacks: Vec<u64>,
    pub margins: Vec<i64>,
    pub margins_sq: u64,
    /// Script counters (`count(name)`) of finished hands, summed.
    pub counters: std::collections::BTreeMap<String, u64>,
    /// Hands that hit the action limit, and games a script failed in.
    pub stuck: Vec<Failure>,
    pub failures: Vec<Failure>,
    pub rows: Vec<GameRow>,
    pub elapsed_s: f64,
    /// Stopped before every game was played (Ctrl-C).
    pub partial: bool,
    /// With `matches`: matches played, won by seat, and their lengths in
    /// hands (matches that ended).
    pub matches: u64,
    pub match_wins: Vec<u64>,
    pub hands_per_match: Vec<u32>,
}

pub use crate::bot::playout::{HandFailure, HandResult, play_out};

/// Deals and plays one hand with bots in every seat.
pub fn play_hand(game: &mut Game<impl Rules>, bots: &mut [Bot]) -> Result<HandResult, HandFailure> {
    game.deal().map_err(|e| HandFailure::of(&e, e.to_string()))?;
    play_out(game, bots)
}

/// `play_hand`, `race` told of the deal and of every action.
pub fn play_hand_watched(
    game: &mut Game<impl Rules>,
    bots: &mut [Bot],
    race: &mut Race,
) -> Result<HandResult, HandFailure> {
    game.deal().map_err(|e| HandFailure::of(&e, e.to_string()))?;
    race.dealt(game.table());
    crate::bot::playout::play_out_watched(game, bots, |action, table| race.acted(action, table))
}

/// How a game's engine runs: with the memo in front of the scripts (what
/// users run) or every script every time (`--no-memo`, `check`: the same
/// games, slower); and whether the move generator proves its fast paths
/// against its general checks as it goes (`Game::set_checks`: tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Engine {
    pub memo: bool,
    pub checks: bool,
}

/// The memo on; the fast paths proven in debug builds (as their debug
/// assertions always were), not in release builds.
impl Default for Engine {
    fn default() -> Engine {
        Engine { memo: true, checks: cfg!(debug_assertions) }
    }
}

/// A table of `players` for `variant`, its scripts compiled, with the memo
/// in front of them.
pub(crate) fn new_game(variant: &Arc<Variant>, players: usize, seed: u64) -> Result<Game<Runtime>, String> {
    let runtime = Runtime::new(variant.clone()).map_err(|p| p.join("\n"))?;
    Game::new(runtime, players, seed)
}

/// A table of `players` for `variant` whose scripts run every time (no
/// memo: the same games, slower).
pub(crate) fn unmemoized_game(variant: &Arc<Variant>, players: usize, seed: u64) -> Result<Game<Scripts>, String> {
    let scripts = Scripts::new(variant.clone()).map_err(|p| p.join("\n"))?;
    Game::new(scripts, players, seed)
}

/// Sets `game` and `bots` (one per seat, reused) up for game `index` of a
/// run; returns the game's seed.
fn prepare(config: &SimConfig, game: &mut Game<impl Rules>, index: u64, bots: &mut Vec<Bot>) -> u64 {
    let seed = game_seed(config.seed, index);
    game.restart(seed);
    bots.truncate(config.players);
    for (seat, bot) in bots.iter_mut().enumerate() {
        bot.reseed(config.bot(seat), seed, seat as u64);
    }
    bots.extend((bots.len()..config.players).map(|s| Bot::new(config.bot(s), seed, s as u64)));
    seed
}

impl SimConfig {
    /// `games` hands of `variant` from `seed`: random bots, one thread,
    /// the memo on, no rows, no shards.
    pub fn new(variant: Arc<Variant>, players: usize, games: u64, seed: u64) -> SimConfig {
        SimConfig {
            variant,
            players,
            games,
            seed,
            bots: vec![BotKind::Random],
            threads: 1,
            engine: Engine::default(),
            rows: false,
            matches: false,
            shard: (0, 1),
        }
    }

    /// The bot of `seat`.
    pub fn bot(&self, seat: usize) -> BotKind {
        self.bots.get(seat % self.bots.len().max(1)).copied().unwrap_or(BotKind::Random)
    }

    /// The bots in words: `random`, or one per seat (`random,greedy`).
    pub fn bot_names(&self) -> String {
        let mut names: Vec<String> = self.bots.iter().map(|b| b.to_string()).collect();
        names.dedup();
        if names.len() <= 1 {
            names.pop().unwrap_or_else(|| BotKind::Random.to_string())
        } else {
            (0..self.players).map(|s| self.bot(s).to_string()).collect::<Vec<_>>().join(",")
        }
    }
}

impl SimStats {
    pub fn new(players: usize) -> SimStats {
        let kinds = EVENT_KINDS.len();
        SimStats {
            wins: vec![0; players],
            wins_by_position: vec![0; players],
            events: vec![0; kinds],
            amounts: vec![0; kinds],
            hands_with: vec![0; kinds],
            peaks: vec![0; kinds],
            sizes: vec![Vec::new(); kinds],
            first_to_one: vec![0; players],
            first_to_one_won: vec![0; players],
            comebacks: vec![0; players],
            margins: vec![0; players],
            match_wins: vec![0; players],
            ..SimStats::default()
        }
    }

    pub fn games_per_s(&self) -> f64 {
        if self.elapsed_s > 0.0 { self.games as f64 / self.elapsed_s } else { 0.0 }
    }

    /// Hands that ended with a winner.
    pub fn finished(&self) -> u64 {
        self.turns.len() as u64
    }

    /// Adds game `index`, just played on `game`, whose race `race` saw. A
    /// hand the clock stopped is not added: it has no result, and the run
    /// stops (`Err`, saying so), since its figures would depend on the
    /// machine's speed.
    fn add(
        &mut self,
        config: &SimConfig,
        index: u64,
        seed: u64,
        game: &Game<impl Rules>,
        result: Result<HandResult, HandFailure>,
        race: &mut Race,
    ) -> Result<(), RunError> {
        if let Err(failure) = &result
            && failure.cause.as_ref().is_some_and(RuleFailure::by_clock)
        {
            return Err(RunError::Clock(format!(
                "game {index} (seed {seed:#x}): {failure}\nthe run is stopped, its figures not reported: they would \
                 depend on this machine's speed (run it again, or on a less busy machine)"
            )));
        }
        self.games += 1;
        let log = game.log();
        let table = game.table();
        let players = config.players;
        race.end();
        let chain = longest_chain(&log.counts, &log.amounts, &log.peaks);
        let mut row = GameRow {
            index,
            seed,
            dealer: table.dealer(),
            winner: None,
            turns: u64::from(race.turns),
            actions: u64::from(race.actions),
            points: 0,
            failed: None,
            counters: Vec::new(),
            events: Vec::new(),
            amounts: Vec::new(),
            peaks: Vec::new(),
            lead_changes: race.lead_changes,
            first_to_one: race.first_to_one_seat(),
            comeback: false,
            margin: 0,
            chain,
        };
        if config.rows {
            row.counters = log.counters.iter().map(|(n, c)| (n.to_string(), *c)).collect();
            (row.events, row.amounts, row.peaks) = (log.counts.to_vec(), log.amounts.to_vec(), log.peaks.to_vec());
        }
        match result {
            Ok(HandResult::Won { seat, points, .. }) => {
                // The figures are of hands that finished (as turns and
                // points are): a hand cut short by a failing script would
                // count half a hand.
                for kind in 0..EVENT_KINDS.len() {
                    self.events[kind] += u64::from(log.counts[kind]);
                    self.amounts[kind] += log.amounts[kind];
                    self.hands_with[kind] += u64::from(log.counts[kind] > 0);
                    self.peaks[kind] += u64::from(log.peaks[kind]);
                    if log.peaks[kind] > 0 {
                        tally(&mut self.sizes[kind], log.peaks[kind]);
                    }
                }
                tally(&mut self.chains, chain);
                for (name, n) in &log.counters {
                    *self.counters.entry(name.to_string()).or_default() += n;
                }
                let position = |seat: usize| (seat + players - table.dealer() - 1) % players;
                let at = position(seat);
                self.wins[seat] += 1;
                self.wins_by_position[at] += 1;
                self.turns.push(race.turns);
                self.actions += u64::from(race.actions);
                self.points_total = self.points_total.saturating_add(points);
                let changes = u64::from(race.lead_changes);
                self.lead_changes += changes;
                self.lead_changes_sq += changes * changes;
                if let Some(first) = race.first_to_one_seat() {
                    self.first_to_one[position(first)] += 1;
                    self.first_to_one_won[position(first)] += u64::from(first == seat);
                }
                row.comeback = race.was_last(seat);
                self.comebacks[at] += u64::from(row.comeback);
                row.margin = watch::margin(table, seat);
                self.margins[at] += row.margin;
                self.margins_sq += row.margin.unsigned_abs().pow(2);
                (row.winner, row.points) = (Some((seat, at)), points);
            }
            Ok(HandResult::Stuck { actions }) => {
                let message = format!("did not end within {actions} actions");
                self.stuck.push(Failure { index, seed, message, cause: None });
                row.failed = Some("stuck");
            }
            Err(HandFailure { message, cause }) => {
                self.failures.push(Failure { index, seed, message, cause });
                row.failed = Some("failed");
            }
        }
        if config.rows {
            self.rows.push(row);
        }
        Ok(())
    }

    /// Puts the lists in one order, whatever order the shares came in.
    pub fn finish(&mut self) {
        self.turns.sort_unstable();
        self.hands_per_match.sort_unstable();
        self.stuck.sort_by_key(|f| f.index);
        self.failures.sort_by_key(|f| f.index);
        self.rows.sort_by_key(|r| r.index);
    }

    /// Adds the figures of another share of the same run (a thread's, or a
    /// shard's): the sums add, the lists join. A sum that would pass the
    /// largest number, or a list by seat or by kind of another length, is
    /// an error naming the figure as `--json` names it (a forged shard; the
    /// figures as far as they were added are not to be used then).
    pub fn merge(&mut self, share: SimStats) -> Result<(), String> {
        fn add(to: &mut [u64], from: &[u64], name: &str) -> Result<(), String> {
            if to.len() != from.len() {
                return Err(format!("'{name}' has {} entries, not {}", from.len(), to.len()));
            }
            for (t, f) in to.iter_mut().zip(from) {
                *t = t.checked_add(*f).ok_or_else(|| too_large(name))?;
            }
            Ok(())
        }
        self.games = self.games.checked_add(share.games).ok_or_else(|| too_large("raw.games"))?;
        add(&mut self.wins, &share.wins, "raw.wins")?;
        add(&mut self.wins_by_position, &share.wins_by_position, "raw.wins_by_position")?;
        add(&mut self.events, &share.events, "raw.events")?;
        add(&mut self.amounts, &share.amounts, "raw.amounts")?;
        add(&mut self.hands_with, &share.hands_with, "raw.hands_with")?;
        add(&mut self.peaks, &share.peaks, "raw.peaks")?;
        if self.sizes.len() != share.sizes.len() {
            return Err(format!("'raw.sizes' has {} kinds, not {}", share.sizes.len(), self.sizes.len()));
        }
        for (to, from) in self.sizes.iter_mut().zip(&share.sizes) {
            add_bins(to, from, "raw.sizes")?;
        }
        add_bins(&mut self.chains, &share.chains, "raw.chains")?;
        self.actions = self.actions.checked_add(share.actions).ok_or_else(|| too_large("raw.actions"))?;
        self.lead_changes =
            self.lead_changes.checked_add(share.lead_changes).ok_or_else(|| too_large("raw.lead_changes"))?;
        self.lead_changes_sq =
            self.lead_changes_sq.checked_add(share.lead_changes_sq).ok_or_else(|| too_large("raw.lead_changes_sq"))?;
        add(&mut self.first_to_one, &share.first_to_one, "raw.first_to_one")?;
        add(&mut self.first_to_one_won, &share.first_to_one_won, "raw.first_to_one_won")?;
        add(&mut self.comebacks, &share.comebacks, "raw.comebacks")?;
        if self.margins.len() != share.margins.len() {
            return Err(format!("'raw.margins' has {} entries, not {}", share.margins.len(), self.margins.len()));
        }
        for (t, f) in self.margins.iter_mut().zip(&share.margins) {
            *t = t.checked_add(*f).ok_or_else(|| too_large("raw.margins"))?;
        }
        self.margins_sq = self.margins_sq.checked_add(share.margins_sq).ok_or_else(|| too_large("raw.margins_sq"))?;
        self.turns.extend(share.turns);
        self.points_total =
            self.points_total.checked_add(share.points_total).ok_or_else(|| too_large("raw.points_total"))?;
        for (name, n) in share.counters {
            let total = self.counters.entry(name).or_default();
            *total = total.checked_add(n).ok_or_else(|| too_large("raw.counters"))?;
        }
        self.matches = self.matches.checked_add(share.matches).ok_or_else(|| too_large("raw.matches"))?;
        add(&mut self.match_wins, &share.match_wins, "raw.match_wins")?;
        self.hands_per_match.extend(share.hands_per_match);
        self.stuck.extend(share.stuck);
        self.failures.extend(share.failures);
        self.rows.extend(share.rows);
        self.partial |= share.partial;
        Ok(())
    }
}

/// Adds the counts of one histogram to another's, bin by bin (the longer
/// one's length).
fn add_bins(to: &mut Vec<u64>, from: &[u64], name: &str) -> Result<(), String> {
    if to.len() < from.len() {
        to.resize(from.len(), 0);
    }
    for (t, f) in to.iter_mut().zip(from) {
        *t = t.checked_add(*f).ok_or_else(|| too_large(name))?;
    }
    Ok(())
}

/// One more hand at `value` in a histogram (the last bin open).
fn tally(bins: &mut Vec<u64>, value: u32) {
    let bin = (value as usize).min(crate::limits::SIM_SIZES - 1);
    if bins.len() <= bin {
        bins.resize(bin + 1, 0);
    }
    bins[bin] += 1;
}

/// The longest chain of penalties of a hand, from its log's counts: the
/// most penalties laid on one another before one was answered (accepted or
/// challenged: the amount the log gives those); a penalty drawn at once is
/// a chain of one, so a rule that only makes a penalty wait to be accepted
/// changes no chain. 0: no penalty.
pub fn longest_chain(counts: &[u32], amounts: &[u64], peaks: &[u32]) -> u32 {
    use crate::event::Event;
    // The kinds, by the events themselves (no lookup by name per hand).
    let answers = [
        Event::Accepted { seat: 0 }.kind(),
        Event::Challenged { challenger: 0, offender: 0, guilty: true }.kind(),
        Event::Challenged { challenger: 0, offender: 0, guilty: false }.kind(),
    ];
    let penalty = Event::PenaltyPending { victim: 0, count: 0, until: None }.kind();
    let longest = answers.iter().map(|&k| peaks[k]).max().unwrap_or(0);
    let answered: u64 = answers.iter().map(|&k| amounts[k]).sum();
    // Penalties beyond those the answers ended were drawn at once.
    let at_once = u64::from(counts[penalty]) > answered;
    longest.max(u32::from(at_once))
}

/// A sum past the largest number.
fn too_large(name: &str) -> String {
    format!("'{name}' adds up past the largest count ({})", u64::MAX)
}

/// `K/N` (`--shard`): 0 <= K < N.
pub fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let parsed = text.split_once('/').and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)));
    match parsed {
        Some((k, n)) if n > 0 && k < n => Ok((k, n)),
        _ => Err(format!("'{text}' is not K/N with 0 <= K < N (e.g. 0/4)")),
    }
}

/// How many of a run's `games` shard `(k, n)` plays: those whose index is
/// `k` modulo `n`.
pub fn shard_games(games: u64, (k, n): (u64, u64)) -> u64 {
    if k >= games || n == 0 { 0 } else { (games - 1 - k) / n + 1 }
}

/// Why a run has no figures to report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// It could not start, or its figures could not be added up.
    Failed(String),
    /// The clock stopped a hook (a safety net, not a rule): no result.
    Clock(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Failed(message) | RunError::Clock(message) => f.write_str(message),
        }
    }
}

impl From<String> for RunError {
    fn from(message: String) -> RunError {
        RunError::Failed(message)
    }
}

/// The games of one worker, on a game of `config` (its memo on or off).
fn run_share(config: &SimConfig, worker: usize, progress: &Progress) -> Result<SimStats, RunError> {
    let (variant, players, seed) = (&config.variant, config.players, config.seed);
    match config.engine.memo {
        true => play_share(config, worker, progress, new_game(variant, players, seed)?),
        false => play_share(config, worker, progress, unmemoized_game(variant, players, seed)?),
    }
}

/// The games of one worker; `Err` where the clock stopped one (and then
/// the whole run is asked to stop).
fn play_share<R: Rules>(
    config: &SimConfig,
    worker: usize,
    progress: &Progress,
    mut game: Game<R>,
) -> Result<SimStats, RunError> {
    game.set_logging(false);
    game.set_checks(config.engine.checks);
    // A hand whose script fails is counted as failed and put down.
    game.set_on_failure(OnFailure::Stop);
    let mut stats = SimStats::new(config.players);
    let mut bots = Vec::new();
    let mut race;
    let (k, n) = config.shard;
    let mut index = k + n * worker as u64;
    while index < config.games {
        if progress.stopped() {
            stats.partial = true;
            break;
        }
        let seed = prepare(config, &mut game, index, &mut bots);
        if config.matches {
            stats.matches += 1;
            for hands in 1..=crate::limits::MATCH_HANDS {
                race = Race::default();
                let result = play_hand_watched(&mut game, &mut bots, &mut race);
                let ended = !matches!(result, Ok(HandResult::Won { .. }));
                stats.add(config, index, seed, &game, result, &mut race).inspect_err(|_| progress.halt())?;
                game.clear_counts();
                if let Some(winner) = game.table().match_winner() {
                    stats.match_wins[winner] += 1;
                    stats.hands_per_match.push(hands);
                    break;
                }
                if ended {
                    break;
                }
                if hands == crate::limits::MATCH_HANDS {
                    let message = format!("the match did not end within {} hands", crate::limits::MATCH_HANDS);
                    stats.stuck.push(Failure { index, seed, message, cause: None });
                }
            }
        } else {
            race = Race::default();
            let result = play_hand_watched(&mut game, &mut bots, &mut race);
            stats.add(config, index, seed, &game, result, &mut race).inspect_err(|_| progress.halt())?;
        }
        progress.advance();
        index += n * config.threads as u64;
    }
    Ok(stats)
}

/// How far a run is, shared by its threads: games done, and whether it was
/// asked to stop.
#[derive(Debug, Default)]
pub struct Progress {
    pub done: std::sync::atomic::AtomicU64,
    pub stop: std::sync::atomic::AtomicBool,
}

impl Progress {
    fn advance(&self) {
        self.done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// Asks every thread of the run to stop.
    fn halt(&self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    fn stopped(&self) -> bool {
        self.stop.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// Runs the simulation on `config.threads` threads; `progress` counts the
/// games done and stops the run when asked.
pub fn run(config: &SimConfig, progress: &Progress) -> Result<SimStats, RunError> {
    let start = Instant::now();
    let threads = config.threads.max(1);
    let config = SimConfig { threads, ..config.clone() };
    let shares: Vec<Result<SimStats, RunError>> = std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for w in 0..threads {
            let config = &config;
            let spawned = std::thread::Builder::new().spawn_scoped(scope, move || run_share(config, w, progress));
            match spawned {
                Ok(handle) => handles.push(handle),
                Err(e) => {
                    progress.stop.store(true, std::sync::atomic::Ordering::Relaxed);
                    return vec![Err(RunError::Failed(format!("cannot start simulation thread {}: {e}", w + 1)))];
                }
            }
        }
        let failed = || Err(RunError::Failed("a simulation thread panicked".into()));
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| failed())).collect()
    });
    let mut total = SimStats::new(config.players);
    for share in shares {
        total.merge(share?)?;
    }
    total.finish();
    total.elapsed_s = start.elapsed().as_secs_f64();
    Ok(total)
}

/// Game `index` of a run, as `sim --show` prints it.
pub struct Shown {
    /// The transcript, and how the game ended.
    pub text: String,
    /// Did the hand end (not failed in a script, not stuck)?
    pub ended: bool,
}

/// The transcript of game `index` of a run: what `sim --show` prints;
/// `trace`: with the hook calls among the events (`Rules::set_trace`,
/// seeing everything).
pub fn show(config: &SimConfig, index: u64, trace: bool) -> Result<Shown, String> {
    let (variant, players, seed) = (&config.variant, config.players, config.seed);
    Ok(match config.engine.memo {
        true => show_game(config, index, trace, new_game(variant, players, seed)?),
        false => show_game(config, index, trace, unmemoized_game(variant, players, seed)?),
    })
}

fn show_game<R: Rules>(config: &SimConfig, index: u64, trace: bool, mut game: Game<R>) -> Shown {
    game.set_checks(config.engine.checks);
    if trace {
        game.set_trace(Some(crate::rules::TraceSight::All));
    }
    let mut bots = Vec::new();
    let seed = prepare(config, &mut game, index, &mut bots);
    let result = play_hand(&mut game, &mut bots);
    let mut text = format!("game {index} (seed {seed:#x}):\n");
    let told = game.take_trace();
    for line in crate::trace::among_events(told, game.events(), 0, |e| crate::event::describe(e, &config.variant)) {
        text += &line;
        text.push('\n');
    }
    match &result {
        Ok(HandResult::Won { .. }) => {}
        Ok(HandResult::Stuck { actions }) => text += &format!("stuck: no end within {actions} actions\n"),
        Err(e) => text += &format!("failed: {e}\n"),
    }
    Shown { text, ended: matches!(result, Ok(HandResult::Won { .. })) }
}

/// The full transcript of one seeded hand with bots: one line per event.
/// A hand that does not end (or fails) is an error, with what it says.
pub fn transcript(variant: Arc<Variant>, players: usize, seed: u64, bot: BotKind) -> Result<String, String> {
    transcript_with(variant, players, seed, bot, Engine::default())
}

/// `transcript`, the engine run as `engine` says.
pub fn transcript_with(
    variant: Arc<Variant>,
    players: usize,
    seed: u64,
    bot: BotKind,
    engine: Engine,
) -> Result<String, String> {
    match engine.memo {
        true => transcript_of(new_game(&variant, players, seed)?, seed, bot, engine.checks),
        false => transcript_of(unmemoized_game(&variant, players, seed)?, seed, bot, engine.checks),
    }
}

fn transcript_of<R: Rules>(mut game: Game<R>, seed: u64, bot: BotKind, checks: bool) -> Result<String, String> {
    game.set_checks(checks);
    let players = game.players();
    let mut bots: Vec<Bot> = (0..players).map(|s| Bot::new(bot, seed, s as u64)).collect();
    let result = play_hand(&mut game, &mut bots)?;
    if let HandResult::Stuck { actions } = result {
        return Err(format!("the hand did not end within {actions} actions"));
    }
    Ok(game.events().iter().map(|e| crate::event::describe(e, &game.variant)).collect::<Vec<_>>().join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand the clock stopped is no result: it is not counted (not as a
    /// failed game either), and the run stops saying it was the clock; a
    /// hand a rule failed is counted as failed.
    #[test]
    fn the_clock_stops_a_run_and_never_counts_in_its_figures() {
        let default = crate::ruleset::default_variant().unwrap().to_string();
        let request = crate::ruleset::LoadRequest { variant: default, ..Default::default() };
        let variant = Arc::new(crate::loader::load(&request).unwrap());
        let config = SimConfig::new(variant.clone(), 4, 2, 0);
        let game = new_game(&variant, 4, 0).unwrap();
        let failed = |cause: RuleFailure| Err(HandFailure { message: format!("hand 1: {cause}"), cause: Some(cause) });
        let mut stats = SimStats::new(4);
        let by_rule = RuleFailure::new("too many operations");
        assert_eq!(stats.add(&config, 0, 1, &game, failed(by_rule), &mut Race::default()), Ok(()));
        assert_eq!((stats.games, stats.failures.len()), (1, 1));
        let by_clock = RuleFailure::new("stopped by the clock: the hook ran longer than 2000 ms").stopped_by_clock();
        let stopped = stats.add(&config, 1, 2, &game, failed(by_clock), &mut Race::default());
        let Err(RunError::Clock(why)) = stopped else { panic!("{stopped:?}") };
        assert!(why.contains("game 1 (seed 0x2): hand 1: stopped by the clock"), "{why}");
        assert!(why.contains("figures not reported"), "{why}");
        assert_eq!((stats.games, stats.failures.len()), (1, 1), "the stopped hand is not counted");
    }
}
