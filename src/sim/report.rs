//! A run's figures as a rule designer reads them: means with 95%
//! confidence intervals, median, p90 and max of hand length, win rates by
//! seat and by position from the dealer with Wilson 95% intervals, events
//! per hand by kind, script counters; as text, JSON, or a row per game.

use serde_json::{Value, json};

use super::{GameRow, SimConfig, SimStats};
use crate::bot::BotKind;
use crate::event::EVENT_KINDS;
use crate::limits;

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// A mean with its 95% confidence interval (normal approximation).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mean {
    pub mean: f64,
    pub low: f64,
    pub high: f64,
}

pub fn mean_ci(values: &[f64]) -> Mean {
    let n = values.len() as f64;
    if values.is_empty() {
        return Mean { mean: 0.0, low: 0.0, high: 0.0 };
    }
    let mean = values.iter().sum::<f64>() / n;
    let variance =
        if values.len() > 1 { values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.0 };
    let half = Z95 * (variance / n).sqrt();
    Mean { mean, low: mean - half, high: mean + half }
}

/// The Wilson 95% interval of `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = Z95 * Z95;
    let center = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((center - half).max(0.0), (center + half).min(1.0))
}

/// The `q`-quantile (0 to 1) of sorted values, nearest rank.
pub fn quantile(sorted: &[u32], q: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Hand length: turns per finished hand.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Turns {
    pub mean: Mean,
    pub median: u32,
    pub p90: u32,
    pub max: u32,
}

pub fn turns(stats: &SimStats) -> Turns {
    let mut sorted = stats.turns.clone();
    sorted.sort_unstable();
    let values: Vec<f64> = sorted.iter().map(|&t| f64::from(t)).collect();
    Turns {
        mean: mean_ci(&values),
        median: quantile(&sorted, 0.5),
        p90: quantile(&sorted, 0.9),
        max: sorted.last().copied().unwrap_or(0),
    }
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The longest bar of a chart, in characters.
const BAR: u64 = 30;

/// Hand length as a terminal histogram: ten bins up to the 99th
/// percentile, the last one open.
pub fn histogram(turns: &[u32]) -> String {
    let mut sorted = turns.to_vec();
    sorted.sort_unstable();
    if sorted.is_empty() {
        return String::new();
    }
    let top = quantile(&sorted, 0.99).max(10);
    let width = top.div_ceil(10);
    let mut bins = [0u64; 10];
    for &t in &sorted {
        bins[((t / width) as usize).min(9)] += 1;
    }
    let most = bins.iter().copied().max().unwrap_or(1).max(1);
    let mut out = String::from("hand length (turns):\n");
    for (i, &count) in bins.iter().enumerate() {
        let low = i as u32 * width;
        let label = if i == 9 { format!("{low}+") } else { format!("{low}-{}", low + width - 1) };
        out += &format!("  {label:>9} {:<30} {count}\n", "#".repeat((BAR * count / most) as usize));
    }
    out
}

/// The options in force, as `name=value`.
pub fn options(config: &SimConfig) -> Vec<String> {
    config.variant.options.iter().map(|(name, value)| format!("{name}={value}")).collect()
}

fn rate(k: u64, n: u64) -> String {
    let (low, high) = wilson(k, n);
    format!("{:.1}% ({:.1}-{:.1})", 100.0 * k as f64 / n.max(1) as f64, 100.0 * low, 100.0 * high)
}

/// The command that prints game `index` of the run `config`, whose
/// ruleset is `arguments` (`classic -r stacking --set crossStack=true`).
pub fn show_command(config: &SimConfig, arguments: &str, index: u64) -> String {
    let mut command = format!("unolab sim {arguments} -p {}", config.players);
    if config.bots.iter().any(|&b| b != crate::bot::BotKind::Random) {
        command += &format!(" --bot {}", config.bot_names());
    }
    format!("{command} --seed {} --show {index}", config.seed)
}

/// The readable report. `arguments` is the ruleset as the command line
/// gave it (for the command that shows a failed game).
pub fn text(config: &SimConfig, stats: &SimStats, arguments: &str) -> String {
    let variant = &config.variant;
    let mut out = String::new();
    out += &format!(
        "{}, {} players, {} hands, seed {}, bots {}{}\n",
        variant.title(),
        config.players,
        stats.games,
        config.seed,
        config.bot_names(),
        if stats.partial { " (PARTIAL: stopped early)" } else { "" }
    );
    let options = options(config);
    if !options.is_empty() {
        out += &format!("  options: {}\n", options.join(", "));
    }
    for note in variant.notes() {
        out += &format!("  note: {note}\n");
    }
    let finished = stats.finished();
    if unfinished(stats).is_some() {
        out += &format!("  WARNING: the figures are of the {finished} hands that finished (the others: below)\n");
    }
    let t = turns(stats);
    out += &format!(
        "turns per hand: mean {:.1} (95% CI {:.1}-{:.1}), median {}, p90 {}, max {}\n",
        t.mean.mean, t.mean.low, t.mean.high, t.median, t.p90, t.max
    );
    out += &histogram(&stats.turns);
    out += &format!("points per hand: mean {:.1}\n", stats.points_total as f64 / finished.max(1) as f64);
    if stats.matches > 0 {
        let ended = stats.hands_per_match.len() as u64;
        let values: Vec<f64> = stats.hands_per_match.iter().map(|&h| f64::from(h)).collect();
        let m = mean_ci(&values);
        out += &format!(
            "matches: {} ({} ended); hands per match: mean {:.1} (95% CI {:.1}-{:.1}), median {}, max {}\n",
            stats.matches,
            ended,
            m.mean,
            m.low,
            m.high,
            quantile(&stats.hands_per_match, 0.5),
            stats.hands_per_match.last().copied().unwrap_or(0)
        );
        out += "match wins by seat (95% interval):\n";
        for (seat, &wins) in stats.match_wins.iter().enumerate() {
            out += &format!("  p{seat}  {}\n", rate(wins, ended));
        }
    }
    out += "wins by seat (95% interval):\n";
    for (seat, &wins) in stats.wins.iter().enumerate() {
        out += &format!("  p{seat}  {}\n", rate(wins, finished));
    }
    out += "wins by position from the dealer (1st = first to play):\n";
    let most = stats.wins_by_position.iter().copied().max().unwrap_or(0).max(1);
    for (position, &wins) in stats.wins_by_position.iter().enumerate() {
        let bar = "#".repeat((BAR * wins / most) as usize);
        out += &format!("  {:<4} {:<24} {bar}\n", ordinal(position + 1), rate(wins, finished));
    }
    out += "events per hand (share of hands with any):\n";
    let games = finished.max(1) as f64;
    for (kind, name) in EVENT_KINDS.iter().enumerate() {
        if stats.events[kind] == 0 || matches!(*name, "hand_started" | "dealt" | "hand_won") {
            continue;
        }
        let mut line = format!(
            "  {name:<20} {:>8.2}  ({:.0}%)",
            stats.events[kind] as f64 / games,
            100.0 * stats.hands_with[kind] as f64 / games
        );
        if stats.amounts[kind] > 0 {
            line += &format!(
                "  mean size {:.2}, largest of a hand {:.2} on average",
                stats.amounts[kind] as f64 / stats.events[kind] as f64,
                largest_of_a_hand(stats, kind)
            );
        }
        out += &line;
        out.push('\n');
    }
    if !stats.counters.is_empty() {
        out += "script counters per hand:\n";
        for (name, n) in &stats.counters {
            out += &format!("  {name:<20} {:>8.2}\n", *n as f64 / games);
        }
    }
    if let Some(unfinished) = unfinished(stats) {
        out += &format!("{unfinished}; first ones:\n");
        for f in stats.failures.iter().chain(&stats.stuck).take(5) {
            out += &format!("  game {} (seed {:#x}): {}\n", f.index, f.seed, f.message);
            out += &format!("    see it: {}\n", show_command(config, arguments, f.index));
        }
    }
    out += &format!("{:.2}s, {:.0} hands/s\n", stats.elapsed_s, stats.games_per_s());
    out
}

/// The largest size an event of `kind` had in a hand, averaged over the
/// hands that had one (`largest_per_hand` in JSON averages over every
/// hand).
fn largest_of_a_hand(stats: &SimStats, kind: usize) -> f64 {
    stats.peaks[kind] as f64 / stats.hands_with[kind].max(1) as f64
}

/// How many games did not finish and why, if any did not.
fn unfinished(stats: &SimStats) -> Option<String> {
    let failed = stats.stuck.len() + stats.failures.len();
    (failed > 0).then(|| {
        format!(
            "{failed} of {} games did not finish ({} stuck, {} script failures)",
            stats.games,
            stats.stuck.len(),
            stats.failures.len()
        )
    })
}

/// How many games did not finish, and the first of them, in a line.
fn unfinished_warning(stats: &SimStats) -> Option<String> {
    let f = stats.failures.iter().chain(&stats.stuck).min_by_key(|f| f.index)?;
    Some(format!("{}; first: game {} (seed {:#x}): {}", unfinished(stats)?, f.index, f.seed, f.message))
}

/// Every figure as one JSON object (the cli.md fields among them).
pub fn json(config: &SimConfig, stats: &SimStats) -> Value {
    let finished = stats.finished();
    let t = turns(stats);
    let interval = |k: u64| {
        let (low, high) = wilson(k, finished);
        json!({"wins": k, "rate": k as f64 / finished.max(1) as f64, "low": low, "high": high})
    };
    let games = stats.finished().max(1) as f64;
    let events: serde_json::Map<String, Value> = EVENT_KINDS
        .iter()
        .enumerate()
        .filter(|&(kind, _)| stats.events[kind] > 0)
        .map(|(kind, name)| {
            let count = stats.events[kind];
            let mut entry = json!({
                "total": count,
                "per_hand": count as f64 / games,
                "hands_with": stats.hands_with[kind],
            });
            if stats.amounts[kind] > 0 {
                entry["mean_size"] = json!(stats.amounts[kind] as f64 / count as f64);
                entry["largest_per_hand"] = json!(stats.peaks[kind] as f64 / games);
                entry["largest_of_a_hand"] = json!(largest_of_a_hand(stats, kind));
            }
            (name.to_string(), entry)
        })
        .collect();
    let failure = |f: &super::Failure| json!({"game": f.index, "seed": f.seed, "error": f.message});
    json!({
        "variant": config.variant.name,
        "rules": config.variant.rule_names(),
        "options": config.variant.options.iter().map(|(k, v)| (k.clone(), json!(v.to_string()))).collect::<serde_json::Map<_, _>>(),
        "players": config.players,
        "games": stats.games,
        "finished": finished,
        "partial": stats.partial,
        "seed": config.seed,
        "bot": config.bot_names(),
        "turns_mean": t.mean.mean,
        "turns_ci95": [t.mean.low, t.mean.high],
        "turns_median": t.median,
        "turns_p90": t.p90,
        "turns_max": t.max,
        "wins": stats.wins,
        "wins_by_seat": stats.wins.iter().map(|&k| interval(k)).collect::<Vec<_>>(),
        "wins_by_position": stats.wins_by_position.iter().map(|&k| interval(k)).collect::<Vec<_>>(),
        "points_mean": stats.points_total as f64 / finished.max(1) as f64,
        "events": events,
        "counters": stats.counters.iter().map(|(k, &n)| (k.clone(), json!({"total": n, "per_hand": n as f64 / games}))).collect::<serde_json::Map<_, _>>(),
        "stuck": stats.stuck.len(),
        "stuck_games": stats.stuck.iter().map(failure).collect::<Vec<_>>(),
        "errors": stats.failures.iter().map(failure).collect::<Vec<_>>(),
        "elapsed_s": stats.elapsed_s,
        "games_per_s": stats.games_per_s(),
        "shard": format!("{}/{}", config.shard.0, config.shard.1),
        "run_games": config.games,
        "raw": raw(stats),
        "matches": stats.matches,
        "match_wins": stats.match_wins,
        "hands_per_match_mean": mean_ci(&stats.hands_per_match.iter().map(|&h| f64::from(h)).collect::<Vec<_>>()).mean,
    })
}

/// The sums and lists every figure comes from: what `unolab merge` adds up.
fn raw(stats: &SimStats) -> Value {
    let failures =
        |list: &[super::Failure]| -> Vec<Value> { list.iter().map(|f| json!([f.index, f.seed, f.message])).collect() };
    json!({
        "games": stats.games,
        "partial": stats.partial,
        "wins": stats.wins,
        "wins_by_position": stats.wins_by_position,
        "turns": stats.turns,
        "points_total": stats.points_total,
        "events": stats.events,
        "amounts": stats.amounts,
        "hands_with": stats.hands_with,
        "peaks": stats.peaks,
        "counters": stats.counters,
        "stuck": failures(&stats.stuck),
        "failures": failures(&stats.failures),
        "matches": stats.matches,
        "match_wins": stats.match_wins,
        "hands_per_match": stats.hands_per_match,
    })
}

/// One shard's output (`sim --shard K/N --json`) as `unolab merge` reads
/// it: the run it is a share of, which share, and its figures.
#[derive(Debug, Clone)]
pub struct Shard {
    pub variant: String,
    pub rules: Vec<String>,
    /// The options in force, as `--set` takes them.
    pub settings: Vec<(String, String)>,
    pub players: usize,
    pub seed: u64,
    pub bots: Vec<BotKind>,
    /// The games (or matches) of the whole run (`-n`).
    pub run_games: u64,
    /// `(k, n)`: this shard plays the games whose index is `k` modulo `n`.
    pub shard: (u64, u64),
    pub elapsed_s: f64,
    pub stats: SimStats,
}

/// The value at `path` (`raw.wins`) of a JSON object.
fn at<'a>(value: &'a Value, path: &str) -> Result<&'a Value, String> {
    path.split('.').try_fold(value, |value, key| value.get(key)).ok_or_else(|| format!("no '{path}'"))
}

/// The value at `path`, read as a `T`.
fn typed<'a, T: serde::Deserialize<'a>>(value: &'a Value, path: &str) -> Result<T, String> {
    T::deserialize(at(value, path)?).map_err(|e| format!("'{path}': {e}"))
}

/// The sum of counts, where it is a count.
fn sum(values: impl IntoIterator<Item = u64>, path: &str) -> Result<u64, String> {
    values
        .into_iter()
        .try_fold(0u64, u64::checked_add)
        .ok_or_else(|| format!("'{path}' adds up past the largest count ({})", u64::MAX))
}

/// Reads a shard, trusting nothing: every number is within the bounds the
/// simulator keeps (`limits`), every list has the length of the table or
/// of the kinds of events, and the figures agree with each other and with
/// the share of the run the shard says it played (no more games than the
/// share has, every game counted once, failures at its own indices and
/// seeds). Each problem names its field; nothing is allocated by a count
/// read, only by what the file holds.
pub fn read_shard(value: &Value) -> Result<Shard, String> {
    if !value.is_object() || value.get("raw").is_none() {
        return Err("not the JSON of one run of 'unolab sim --json' (no 'raw' figures; a sweep or --vs prints several runs, and merge takes one)".into());
    }
    let players: u64 = typed(value, "players")?;
    if !(2..=limits::PLAYERS as u64).contains(&players) {
        return Err(format!("'players': {players} is not a table of 2 to {} players", limits::PLAYERS));
    }
    let players = players as usize;
    let run_games: u64 = typed(value, "run_games")?;
    if !(1..=limits::SIM_GAMES).contains(&run_games) {
        return Err(format!("'run_games': {run_games} is not 1 to {} games (sim -n)", limits::SIM_GAMES));
    }
    let shard = super::parse_shard(&typed::<String>(value, "shard")?).map_err(|e| format!("'shard': {e}"))?;
    let seed: u64 = typed(value, "seed")?;
    let bots = typed::<String>(value, "bot")?
        .split(',')
        .map(|name| BotKind::read(name).map_err(|e| format!("'bot': {e}")))
        .collect::<Result<Vec<BotKind>, String>>()?;
    if bots.len() > players {
        return Err(format!("'bot': {} bots for {players} players", bots.len()));
    }
    let settings = at(value, "options")?
        .as_object()
        .ok_or("'options' is not an object")?
        .iter()
        .map(|(name, v)| {
            v.as_str().map(|v| (name.clone(), v.to_string())).ok_or_else(|| format!("'options.{name}' is not a string"))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let elapsed_s: f64 = typed(value, "elapsed_s")?;
    if !(elapsed_s.is_finite() && elapsed_s >= 0.0) {
        return Err(format!("'elapsed_s': {elapsed_s} is not a time"));
    }
    let stats = raw_figures(value, players)?;
    check_figures(&stats, seed, run_games, shard)?;
    Ok(Shard {
        variant: typed(value, "variant")?,
        rules: typed(value, "rules")?,
        settings,
        players,
        seed,
        bots,
        run_games,
        shard,
        elapsed_s,
        stats,
    })
}

/// The figures of a run from its JSON's `raw` part, each list of the
/// length it must have.
fn raw_figures(value: &Value, players: usize) -> Result<SimStats, String> {
    let kinds = EVENT_KINDS.len();
    let list = |name: &str, length: usize, of: &str| -> Result<Vec<u64>, String> {
        let path = format!("raw.{name}");
        let list: Vec<u64> = typed(value, &path)?;
        if list.len() != length {
            return Err(format!("'{path}' has {} entries, not one for each of the {length} {of}", list.len()));
        }
        Ok(list)
    };
    // Kinds of event are only ever added at the end: a shard written when
    // there were fewer counts none of the later ones.
    let per_kind = |name: &str| -> Result<Vec<u64>, String> {
        let path = format!("raw.{name}");
        let mut list: Vec<u64> = typed(value, &path)?;
        if list.is_empty() || list.len() > kinds {
            return Err(format!("'{path}' has {} entries, not one for each of the {kinds} kinds of event", list.len()));
        }
        list.resize(kinds, 0);
        Ok(list)
    };
    let failures = |name: &str| -> Result<Vec<super::Failure>, String> {
        let rows: Vec<(u64, u64, String)> = typed(value, &format!("raw.{name}"))?;
        Ok(rows
            .into_iter()
            .map(|(index, seed, message)| super::Failure { index, seed, message, cause: None })
            .collect())
    };
    Ok(SimStats {
        games: typed(value, "raw.games")?,
        partial: typed(value, "raw.partial")?,
        wins: list("wins", players, "players")?,
        wins_by_position: list("wins_by_position", players, "players")?,
        turns: typed(value, "raw.turns")?,
        points_total: typed(value, "raw.points_total")?,
        events: per_kind("events")?,
        amounts: per_kind("amounts")?,
        hands_with: per_kind("hands_with")?,
        peaks: per_kind("peaks")?,
        counters: typed(value, "raw.counters")?,
        stuck: failures("stuck")?,
        failures: failures("failures")?,
        matches: typed(value, "raw.matches")?,
        match_wins: list("match_wins", players, "players")?,
        hands_per_match: typed(value, "raw.hands_per_match")?,
        ..SimStats::default()
    })
}

/// Do a shard's figures agree with each other and with its share of the
/// run (`run_games` games from `seed`, the share `shard`)?
fn check_figures(stats: &SimStats, seed: u64, run_games: u64, shard: (u64, u64)) -> Result<(), String> {
    let share = super::shard_games(run_games, shard);
    let (k, n) = shard;
    // Games are hands, or with --matches each match is a game of one or
    // more hands.
    let matches = stats.matches > 0;
    let (played, path) = if matches { (stats.matches, "raw.matches") } else { (stats.games, "raw.games") };
    if played > share || (played < share && !stats.partial) {
        let partial = if stats.partial { "at most " } else { "" };
        let what = if matches { "matches" } else { "games" };
        return Err(format!(
            "'{path}' is {played}, but shard {k}/{n} of a run of {run_games} {what} plays {partial}{share}"
        ));
    }
    let finished = stats.finished();
    let ended = sum([finished, stats.stuck.len() as u64, stats.failures.len() as u64], "raw.turns")?;
    if matches {
        // A match plays up to `MATCH_HANDS` hands; one that plays them all
        // without a winner is listed as stuck on top of its hands.
        let most = stats.matches.saturating_mul(u64::from(limits::MATCH_HANDS));
        if stats.games < stats.matches || stats.games > most {
            return Err(format!(
                "'raw.games': {} hands cannot be {} matches of 1 to {} hands",
                stats.games,
                stats.matches,
                limits::MATCH_HANDS
            ));
        }
        if ended < stats.games || ended > stats.games.saturating_add(stats.matches) {
            return Err(format!(
                "'raw.turns', 'raw.stuck' and 'raw.failures' count {ended} hands and matches that did not end, for {} hands",
                stats.games
            ));
        }
        if stats.hands_per_match.len() as u64 > stats.matches {
            return Err(format!("'raw.hands_per_match' lists more than the {} matches", stats.matches));
        }
        if let Some(hands) = stats.hands_per_match.iter().find(|&&h| h == 0 || h > limits::MATCH_HANDS) {
            return Err(format!("'raw.hands_per_match': a match of {hands} hands (1 to {})", limits::MATCH_HANDS));
        }
        if sum(stats.hands_per_match.iter().map(|&h| u64::from(h)), "raw.hands_per_match")? > stats.games {
            return Err(format!("'raw.hands_per_match' adds up to more than the {} hands", stats.games));
        }
    } else {
        if ended != stats.games {
            return Err(format!(
                "'raw.games' is {}, but 'raw.turns', 'raw.stuck' and 'raw.failures' list {ended} games",
                stats.games
            ));
        }
        if !stats.hands_per_match.is_empty() {
            return Err("'raw.hands_per_match' lists matches, but 'raw.matches' is 0".into());
        }
    }
    let ended_matches = stats.hands_per_match.len() as u64;
    if sum(stats.match_wins.iter().copied(), "raw.match_wins")? != ended_matches {
        return Err(format!("'raw.match_wins' does not add up to the {ended_matches} matches that ended"));
    }
    for path in ["raw.wins", "raw.wins_by_position"] {
        let list = if path == "raw.wins" { &stats.wins } else { &stats.wins_by_position };
        let wins = sum(list.iter().copied(), path)?;
        if wins != finished {
            return Err(format!("'{path}' adds up to {wins}, but {finished} hands were won ('raw.turns')"));
        }
    }
    for (kind, name) in EVENT_KINDS.iter().enumerate() {
        if stats.hands_with[kind] > finished.min(stats.events[kind]) {
            return Err(format!(
                "'raw.hands_with': {} hands with '{name}', but {finished} hands and {} such events",
                stats.hands_with[kind], stats.events[kind]
            ));
        }
        if stats.peaks[kind] > stats.amounts[kind] {
            return Err(format!("'raw.peaks': the largest '{name}' of each hand add up to more than all of them"));
        }
    }
    let mut indices = std::collections::BTreeSet::new();
    for (path, list) in [("raw.stuck", &stats.stuck), ("raw.failures", &stats.failures)] {
        for f in list {
            if f.index >= run_games || f.index % n != k {
                return Err(format!("'{path}': game {} is not one of shard {k}/{n} of a run of {run_games}", f.index));
            }
            if f.seed != crate::rng::game_seed(seed, f.index) {
                return Err(format!(
                    "'{path}': game {} has seed {:#x}, not the run's {:#x}",
                    f.index,
                    f.seed,
                    crate::rng::game_seed(seed, f.index)
                ));
            }
            if !indices.insert(f.index) {
                return Err(format!("'{path}': game {} is listed twice", f.index));
            }
        }
    }
    Ok(())
}

/// Per-game rows: CSV (`.csv`) or JSON lines (anything else).
pub fn rows(rows: &[GameRow], csv: bool) -> String {
    let mut names: Vec<&str> = rows.iter().flat_map(|r| r.counters.iter().map(|(n, _)| n.as_str())).collect();
    names.sort_unstable();
    names.dedup();
    let mut out = String::new();
    if csv {
        out += "game,seed,dealer,winner,position,turns,points,outcome";
        for name in &names {
            out += &format!(",{name}");
        }
        out.push('\n');
    }
    for row in rows {
        let count = |name: &str| row.counters.iter().find(|(n, _)| n == name).map_or(0, |(_, c)| *c);
        let outcome = row.failed.unwrap_or("won");
        if csv {
            let (winner, position) =
                row.winner.map_or((String::new(), String::new()), |(w, p)| (w.to_string(), (p + 1).to_string()));
            out += &format!(
                "{},{},{},{winner},{position},{},{},{outcome}",
                row.index, row.seed, row.dealer, row.turns, row.points
            );
            for name in &names {
                out += &format!(",{}", count(name));
            }
            out.push('\n');
        } else {
            let counters: serde_json::Map<String, Value> =
                names.iter().map(|n| (n.to_string(), json!(count(n)))).collect();
            let line = json!({
                "game": row.index,
                "seed": row.seed,
                "dealer": row.dealer,
                "winner": row.winner.map(|(w, _)| w),
                "position": row.winner.map(|(_, p)| p + 1),
                "turns": row.turns,
                "points": row.points,
                "outcome": outcome,
                "counters": counters,
            });
            out += &format!("{line}\n");
        }
    }
    out
}

/// The games of two runs on the same seeds that both finished, paired.
fn both_finished<'a>(a: &'a SimStats, b: &'a SimStats) -> impl Iterator<Item = (&'a GameRow, &'a GameRow)> {
    a.rows.iter().zip(&b.rows).filter(|(x, y)| x.index == y.index && x.failed.is_none() && y.failed.is_none())
}

/// One figure of two runs played on the same seeds: each run's mean and
/// the mean of the per-game differences (B - A) with its 95% interval.
#[derive(Debug, Clone, PartialEq)]
pub struct Paired {
    pub name: String,
    pub a: f64,
    pub b: f64,
    pub difference: Mean,
}

impl Paired {
    /// The interval leaves out zero.
    pub fn significant(&self) -> bool {
        self.difference.low > 0.0 || self.difference.high < 0.0
    }
}

/// Pairs the games two runs played on the same seeds and compares each
/// figure over the games both finished (a game one run cut short compares
/// nothing): turns and points per hand, wins by position, and every event
/// kind and counter either run saw.
pub fn paired(a: &SimStats, b: &SimStats) -> Vec<Paired> {
    let pairs: Vec<(&GameRow, &GameRow)> = both_finished(a, b).collect();
    let figure = |name: String, value: &dyn Fn(&GameRow) -> Option<f64>| {
        let (mut xs, mut ys, mut ds) = (Vec::new(), Vec::new(), Vec::new());
        for (x, y) in &pairs {
            if let (Some(vx), Some(vy)) = (value(x), value(y)) {
                xs.push(vx);
                ys.push(vy);
                ds.push(vy - vx);
            }
        }
        Paired { name, a: mean_ci(&xs).mean, b: mean_ci(&ys).mean, difference: mean_ci(&ds) }
    };
    let finished = |r: &GameRow| r.winner.is_some();
    let mut figures = vec![
        figure("turns per hand".into(), &|r| finished(r).then_some(r.turns as f64)),
        figure("points per hand".into(), &|r| finished(r).then_some(r.points as f64)),
    ];
    for position in 0..a.wins_by_position.len().min(b.wins_by_position.len()) {
        figures.push(figure(format!("wins, {} position (%)", ordinal(position + 1)), &|r| {
            finished(r).then(|| if r.winner.map(|w| w.1) == Some(position) { 100.0 } else { 0.0 })
        }));
    }
    for (kind, name) in EVENT_KINDS.iter().enumerate() {
        if a.events[kind] + b.events[kind] == 0 || matches!(*name, "hand_started" | "dealt" | "hand_won") {
            continue;
        }
        figures.push(figure(format!("{name} per hand"), &|r| r.events.get(kind).map(|&n| f64::from(n))));
        if a.amounts[kind] + b.amounts[kind] > 0 {
            figures.push(figure(format!("largest {name}"), &|r| r.peaks.get(kind).map(|&n| f64::from(n))));
        }
    }
    let counters: std::collections::BTreeSet<&String> = a.counters.keys().chain(b.counters.keys()).collect();
    for name in counters {
        figures.push(figure(format!("count {name} per hand"), &|r| {
            Some(r.counters.iter().find(|(n, _)| n == name).map_or(0.0, |(_, c)| *c as f64))
        }));
    }
    figures
}

/// The comparison as a table: A, B, B - A with its interval, `*` where
/// the interval leaves out zero.
pub fn compare_text(a: (&SimConfig, &SimStats), b: (&SimConfig, &SimStats)) -> String {
    let describe = |config: &SimConfig| {
        let options = options(config);
        let set = if options.is_empty() { String::new() } else { format!(" [{}]", options.join(", ")) };
        format!("{}, {} players, bots {}{set}", config.variant.title(), config.players, config.bot_names())
    };
    let mut out = format!(
        "A: {}\nB: {}\n{} games on the same seeds (seed {}); B - A is the mean of per-game differences, 95% interval; * = significant\n",
        describe(a.0),
        describe(b.0),
        a.1.games.min(b.1.games),
        a.0.seed
    );
    let warnings: Vec<String> = [("A", a.1), ("B", b.1)]
        .into_iter()
        .filter_map(|(which, stats)| unfinished_warning(stats).map(|warning| format!("WARNING {which}: {warning}\n")))
        .collect();
    if !warnings.is_empty() {
        out += &warnings.concat();
        out += &format!("the figures compare the {} games both finished\n", both_finished(a.1, b.1).count());
    }
    out += &format!("{:<32} {:>9} {:>9} {:>9}  {}\n", "", "A", "B", "B - A", "95% interval");
    let pairs = paired(a.1, b.1);
    for p in &pairs {
        out += &format!(
            "{:<32} {:>9.2} {:>9.2} {:>+9.2}  ({:+.2} to {:+.2}){}\n",
            p.name,
            p.a,
            p.b,
            p.difference.mean,
            p.difference.low,
            p.difference.high,
            if p.significant() { " *" } else { "" }
        );
    }
    if pairs.iter().any(|p| p.name.starts_with("largest ")) {
        // The plain report averages the largest over the hands that had
        // one; pairing needs a figure for every game.
        out += "largest X: the biggest X of a hand, as 0 in a hand without one (every game is paired)\n";
    }
    out
}

/// Several runs (a sweep) as one table: a row per configuration (with
/// its label: the settings swept), a column per figure, of the hands that
/// finished; a warning under it for each run where some did not.
pub fn sweep_table(runs: &[(&str, &SimConfig, &SimStats)]) -> String {
    let penalty = EVENT_KINDS.iter().position(|k| *k == "penalty");
    let names: Vec<String> = runs
        .iter()
        .map(|(label, config, _)| {
            let label = if label.is_empty() { String::new() } else { format!(" [{label}]") };
            format!("{}, {} players{label}", config.variant.title(), config.players)
        })
        .collect();
    let wide = names.iter().map(|n| n.chars().count()).max().unwrap_or(0).max(13);
    let mut out = format!(
        "{:<wide$} {:>7} {:>15} {:>6} {:>5} {:>14} {:>8} {:>9} {:>8}\n",
        "configuration", "hands", "turns (95% CI)", "median", "p90", "1st wins (%)", "points", "penalties", "largest"
    );
    for ((_, _, stats), name) in runs.iter().zip(&names) {
        let t = turns(stats);
        let finished = stats.finished();
        let first = stats.wins_by_position.first().copied().unwrap_or(0);
        let games = finished.max(1) as f64;
        let (penalties, largest) =
            penalty.map_or((0.0, 0.0), |k| (stats.events[k] as f64 / games, largest_of_a_hand(stats, k)));
        out += &format!(
            "{name:<wide$} {:>7} {:>15} {:>6} {:>5} {:>14} {:>8.1} {:>9.2} {:>8.2}\n",
            finished,
            format!("{:.1} ({:.1}-{:.1})", t.mean.mean, t.mean.low, t.mean.high),
            t.median,
            t.p90,
            format!(
                "{:.1} ({:.0}-{:.0})",
                100.0 * first as f64 / finished.max(1) as f64,
                100.0 * wilson(first, finished).0,
                100.0 * wilson(first, finished).1
            ),
            stats.points_total as f64 / finished.max(1) as f64,
            penalties,
            largest
        );
    }
    for ((_, _, stats), name) in runs.iter().zip(&names) {
        if let Some(warning) = unfinished_warning(stats) {
            out += &format!("WARNING {name}: {warning}\n");
        }
    }
    out
}
