//! A run's figures as a rule designer reads them: means with 95%
//! confidence intervals, median, p90 and max of hand length, win rates by
//! seat and by position from the dealer with Wilson 95% intervals, events
//! per hand by kind, script counters; as text, JSON, or a row per game.

use serde_json::{Value, json};

use super::{GameRow, SimConfig, SimStats};
use crate::bot::BotKind;
use crate::event::EVENT_KINDS;

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

/// A mean with its 95% interval from a sum and a sum of squares over `n`
/// values (the normal approximation, as `mean_ci`).
pub fn mean_of_sums(sum: f64, squares: f64, n: u64) -> Mean {
    if n == 0 {
        return Mean { mean: 0.0, low: 0.0, high: 0.0 };
    }
    let n = n as f64;
    let mean = sum / n;
    let variance = if n > 1.0 { ((squares - sum * sum / n) / (n - 1.0)).max(0.0) } else { 0.0 };
    let half = Z95 * (variance / n).sqrt();
    Mean { mean, low: mean - half, high: mean + half }
}

/// A share of `n` with its Wilson interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Share {
    pub count: u64,
    pub of: u64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

pub fn share(count: u64, of: u64) -> Share {
    let (low, high) = wilson(count, of);
    Share { count, of, rate: count as f64 / of.max(1) as f64, low, high }
}

/// The race's figures (`watch::Race`), of the finished hands.
#[derive(Debug, Clone, PartialEq)]
pub struct RaceFigures {
    /// Lead changes per hand.
    pub lead_changes: Mean,
    /// Of the hands where one seat first held one card, the share it won.
    pub first_to_one_wins: Share,
    /// The share of hands won by a seat that was last at some point.
    pub comebacks: Share,
    /// Cards between the winner and the closest other seat at the end.
    pub margin: Mean,
    /// By position from the dealer: the first to one card there (a share
    /// of the hands) and how often it won; the winners there who came
    /// back (a share of their wins) and their mean margin.
    pub by_position: Vec<PositionRace>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PositionRace {
    pub first_to_one: Share,
    pub first_to_one_wins: Share,
    pub comebacks: Share,
    pub margin: f64,
}

pub fn race(stats: &SimStats) -> RaceFigures {
    let finished = stats.finished();
    let first: u64 = stats.first_to_one.iter().sum();
    let first_won: u64 = stats.first_to_one_won.iter().sum();
    let margins: i64 = stats.margins.iter().sum();
    RaceFigures {
        lead_changes: mean_of_sums(stats.lead_changes as f64, stats.lead_changes_sq as f64, finished),
        first_to_one_wins: share(first_won, first),
        comebacks: share(stats.comebacks.iter().sum(), finished),
        margin: mean_of_sums(margins as f64, stats.margins_sq as f64, finished),
        by_position: (0..stats.wins_by_position.len())
            .map(|p| PositionRace {
                first_to_one: share(stats.first_to_one[p], finished),
                first_to_one_wins: share(stats.first_to_one_won[p], stats.first_to_one[p]),
                comebacks: share(stats.comebacks[p], stats.wins_by_position[p]),
                margin: stats.margins[p] as f64 / stats.wins_by_position[p].max(1) as f64,
            })
            .collect(),
    }
}

/// From a histogram of hands by size (`SimStats::sizes`, `chains`): the
/// share of the `hands` with one of at least k, for k = 1 up to the
/// largest size seen.
pub fn at_least(bins: &[u64], hands: u64) -> Vec<f64> {
    let mut shares: Vec<f64> = Vec::with_capacity(bins.len());
    let mut above = 0u64;
    for &count in bins.iter().skip(1).rev() {
        above += count;
        shares.push(above as f64 / hands.max(1) as f64);
    }
    shares.reverse();
    let seen = bins.iter().rposition(|&c| c > 0).unwrap_or(0);
    shares.truncate(seen);
    shares
}

/// A distribution as text: `>=1 98.5%  >=2 12.1% ...`, up to `limit`
/// entries (the largest sizes in the last).
fn at_least_text(shares: &[f64]) -> String {
    let shown: Vec<(usize, f64)> = if shares.len() <= 12 {
        shares.iter().copied().enumerate().map(|(k, s)| (k + 1, s)).collect()
    } else {
        // Steps that keep twelve entries, the largest size last.
        let step = shares.len().div_ceil(12);
        let mut picked: Vec<(usize, f64)> =
            shares.iter().copied().enumerate().step_by(step).map(|(k, s)| (k + 1, s)).collect();
        if picked.last().map(|p| p.0) != Some(shares.len()) {
            picked.push((shares.len(), shares[shares.len() - 1]));
        }
        picked
    };
    shown.iter().map(|(k, s)| format!(">={k} {}", percent(*s))).collect::<Vec<_>>().join("  ")
}

/// A share as a percentage with the precision it needs.
fn percent(share: f64) -> String {
    let p = 100.0 * share;
    if p == 0.0 || p >= 10.0 {
        format!("{p:.0}%")
    } else if p >= 0.1 {
        format!("{p:.1}%")
    } else {
        format!("{p:.2}%")
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

/// The hands won by the seats each kind of bot plays (`--bot
/// search,random`), kinds in the order of their first seat: the kind, how
/// many seats it plays, and their wins. One entry when every seat has the
/// same bot.
pub fn wins_by_bot(config: &SimConfig, stats: &SimStats) -> Vec<(BotKind, usize, u64)> {
    let seats = |kind: BotKind| (0..config.players).filter(move |&seat| config.bot(seat) == kind);
    let wins = |seat: usize| stats.wins.get(seat).copied().unwrap_or(0);
    seated_kinds(&[config]).into_iter().map(|kind| (kind, seats(kind).count(), seats(kind).map(wins).sum())).collect()
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
    if unfinished(stats).is_some() && finished > 0 {
        out += &format!("  WARNING: the figures are of the {finished} hands that finished (the others: below)\n");
    }
    if finished > 0 || stats.games == 0 {
        out += &figures_text(config, stats);
    } else {
        out += "no hand finished, so there are no figures (why: below)\n";
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

/// Every figure of the hands that finished.
fn figures_text(config: &SimConfig, stats: &SimStats) -> String {
    let mut out = String::new();
    let finished = stats.finished();
    let t = turns(stats);
    out += &format!(
        "turns per hand: mean {:.1} (95% CI {:.1}-{:.1}), median {}, p90 {}, max {}\n",
        t.mean.mean, t.mean.low, t.mean.high, t.median, t.p90, t.max
    );
    out += &histogram(&stats.turns);
    out += &format!("points per hand: mean {:.1}\n", stats.points_total as f64 / finished.max(1) as f64);
    out += &format!(
        "actions per hand: mean {:.1} (every decision: answers, colours, UNO calls and catches too)\n",
        stats.actions as f64 / finished.max(1) as f64
    );
    out += &race_text(stats);
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
    let bots = wins_by_bot(config, stats);
    if bots.len() > 1 {
        out += "wins by bot (95% interval; fair: the share of its seats, as if every bot played alike):\n";
        for (kind, seats, wins) in &bots {
            let fair = 100.0 * *seats as f64 / stats.wins.len().max(1) as f64;
            out += &format!("  {:<11} {}  fair {fair:.1}%\n", kind.to_string(), rate(*wins, finished));
        }
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
    out += &sizes_text(stats);
    if !stats.counters.is_empty() {
        out += "script counters per hand:\n";
        for (name, n) in &stats.counters {
            out += &format!("  {name:<20} {:>8.2}\n", *n as f64 / games);
        }
    }
    out
}

/// The race as text: lead changes, the first to one card, comebacks and
/// margins, overall and by position.
fn race_text(stats: &SimStats) -> String {
    let r = race(stats);
    let pct = |s: &Share| format!("{:.1}% ({:.1}-{:.1})", 100.0 * s.rate, 100.0 * s.low, 100.0 * s.high);
    let mut out = String::from("the race (leader: the one seat with the fewest cards; last: the one with the most):\n");
    out += &format!(
        "  lead changes per hand: mean {:.2} (95% CI {:.2}-{:.2})\n",
        r.lead_changes.mean, r.lead_changes.low, r.lead_changes.high
    );
    out += &format!(
        "  the first to hold one card wins: {} of {} hands\n",
        pct(&r.first_to_one_wins),
        r.first_to_one_wins.of
    );
    out += &format!("  comebacks (the winner was last at some point): {}\n", pct(&r.comebacks));
    out += &format!(
        "  winner's margin (cards the closest other seat holds): mean {:.2} (95% CI {:.2}-{:.2})\n",
        r.margin.mean, r.margin.low, r.margin.high
    );
    out += &format!(
        "  {:<8} {:>13} {:>18} {:>18} {:>8}\n",
        "position", "first to one", "of them won", "comebacks of wins", "margin"
    );
    for (position, p) in r.by_position.iter().enumerate() {
        out += &format!(
            "  {:<8} {:>13} {:>18} {:>18} {:>8.2}\n",
            ordinal(position + 1),
            format!("{:.1}%", 100.0 * p.first_to_one.rate),
            pct(&p.first_to_one_wins),
            pct(&p.comebacks),
            p.margin
        );
    }
    out
}

/// The distributions of sizes as text: the longest chain of penalties and
/// the largest event of each kind with a size, as the share of hands with
/// one of at least k.
fn sizes_text(stats: &SimStats) -> String {
    let finished = stats.finished();
    let mut out = String::new();
    let chains = at_least(&stats.chains, finished);
    if !chains.is_empty() {
        out += "share of hands with a chain of at least k penalties (one drawn at once is a chain of 1):\n";
        out += &format!("  {}\n", at_least_text(&chains));
    }
    for (kind, name) in EVENT_KINDS.iter().enumerate() {
        // An answer's size is the chain it ends (the line above); a
        // reshuffle's is the deck's business (its distribution is in JSON).
        if *name != "penalty" {
            continue;
        }
        let shares = at_least(&stats.sizes[kind], finished);
        if !shares.is_empty() {
            out += &format!("share of hands whose largest {name} is at least k: {}\n", at_least_text(&shares));
        }
    }
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

/// The kinds of event a per-game row shows: those any game had, but the
/// ones every hand has once (its start, deal and win).
fn row_kinds(rows: &[GameRow]) -> Vec<usize> {
    (0..EVENT_KINDS.len())
        .filter(|&kind| !matches!(EVENT_KINDS[kind], "hand_started" | "dealt" | "hand_won"))
        .filter(|&kind| rows.iter().any(|r| r.events.get(kind).is_some_and(|&n| n > 0)))
        .collect()
}

/// Per-game rows: CSV (`.csv`) or JSON lines (anything else). With `meta`
/// (the configuration and `schema_version`) the first line says what run
/// they are of: in CSV a comment line (`# ` and the JSON), in JSON lines
/// an object `{"meta": ...}`. Each row: the game's seed, dealer, winner
/// and position, turns, points, outcome (the columns of schema 1, in their
/// order), actions, the race (lead changes, the first seat to one card,
/// comeback, margin, longest chain), every kind of event any game had,
/// with its total size and largest one where it has a size, and script
/// counters.
pub fn rows(meta: Option<&Value>, rows: &[GameRow], csv: bool) -> String {
    let mut names: Vec<&str> = rows.iter().flat_map(|r| r.counters.iter().map(|(n, _)| n.as_str())).collect();
    names.sort_unstable();
    names.dedup();
    let kinds = row_kinds(rows);
    let sized: Vec<bool> =
        kinds.iter().map(|&k| rows.iter().any(|r| r.amounts.get(k).is_some_and(|&a| a > 0))).collect();
    let mut out = String::new();
    if csv {
        if let Some(meta) = meta {
            out += &format!("# {}\n", json!({ "meta": meta }));
        }
        let mut columns: Vec<String> = [
            "game",
            "seed",
            "dealer",
            "winner",
            "position",
            "turns",
            "points",
            "outcome",
            "actions",
            "lead_changes",
            "first_to_one",
            "comeback",
            "margin",
            "chain",
        ]
        .iter()
        .map(|c| c.to_string())
        .collect();
        for (&kind, &sized) in kinds.iter().zip(&sized) {
            let name = EVENT_KINDS[kind];
            columns.push(name.to_string());
            if sized {
                columns.extend([format!("{name}_size"), format!("{name}_largest")]);
            }
        }
        for name in &names {
            // A counter named as a column is told apart.
            let taken = columns.iter().any(|c| c == name);
            columns.push(if taken { format!("count:{name}") } else { name.to_string() });
        }
        out += &columns.join(",");
        out.push('\n');
    } else if let Some(meta) = meta {
        out += &format!("{}\n", json!({ "meta": meta }));
    }
    for row in rows {
        let count = |name: &str| row.counters.iter().find(|(n, _)| n == name).map_or(0, |(_, c)| *c);
        let outcome = row.failed.unwrap_or("won");
        let event = |kind: usize| row.events.get(kind).copied().unwrap_or(0);
        let amount = |kind: usize| row.amounts.get(kind).copied().unwrap_or(0);
        let peak = |kind: usize| row.peaks.get(kind).copied().unwrap_or(0);
        if csv {
            let (winner, position) =
                row.winner.map_or((String::new(), String::new()), |(w, p)| (w.to_string(), (p + 1).to_string()));
            let first = row.first_to_one.map_or(String::new(), |s| s.to_string());
            out += &format!(
                "{},{},{},{winner},{position},{},{},{outcome},{},{},{first},{},{},{}",
                row.index,
                row.seed,
                row.dealer,
                row.turns,
                row.points,
                row.actions,
                row.lead_changes,
                u8::from(row.comeback),
                row.margin,
                row.chain
            );
            for (&kind, &sized) in kinds.iter().zip(&sized) {
                out += &format!(",{}", event(kind));
                if sized {
                    out += &format!(",{},{}", amount(kind), peak(kind));
                }
            }
            for name in &names {
                out += &format!(",{}", count(name));
            }
            out.push('\n');
        } else {
            let counters: serde_json::Map<String, Value> =
                names.iter().map(|n| (n.to_string(), json!(count(n)))).collect();
            let events: serde_json::Map<String, Value> = kinds
                .iter()
                .zip(&sized)
                .map(|(&kind, &sized)| {
                    let entry = if sized {
                        json!({"count": event(kind), "size": amount(kind), "largest": peak(kind)})
                    } else {
                        json!({"count": event(kind)})
                    };
                    (EVENT_KINDS[kind].to_string(), entry)
                })
                .collect();
            let line = json!({
                "game": row.index,
                "seed": row.seed,
                "dealer": row.dealer,
                "winner": row.winner.map(|(w, _)| w),
                "position": row.winner.map(|(_, p)| p + 1),
                "turns": row.turns,
                "actions": row.actions,
                "points": row.points,
                "outcome": outcome,
                "lead_changes": row.lead_changes,
                "first_to_one": row.first_to_one,
                "comeback": row.comeback,
                "margin": row.margin,
                "chain": row.chain,
                "events": events,
                "counters": counters,
            });
            out += &format!("{line}\n");
        }
    }
    out
}

/// How many games two runs on the same seeds both finished.
pub fn both_finished_count(a: &SimStats, b: &SimStats) -> u64 {
    both_finished(a, b).count() as u64
}

/// The games of two runs on the same seeds that both finished, paired.
fn both_finished<'a>(a: &'a SimStats, b: &'a SimStats) -> impl Iterator<Item = (&'a GameRow, &'a GameRow)> {
    a.rows.iter().zip(&b.rows).filter(|(x, y)| x.index == y.index && x.failed.is_none() && y.failed.is_none())
}

/// One figure of two runs played on the same seeds: each run's mean and
/// the mean of the per-game differences (B - A) with its 95% interval.
#[derive(Debug, Clone, PartialEq)]
pub struct Paired {
    /// The figure's stable name (`turns`, `wins.position_1`,
    /// `events.penalty`), and its label in the text.
    pub key: String,
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

/// The kinds of bot that play the seats of `configs`, in the order of
/// their first seat (A's seats, then B's), as the report lists them.
fn seated_kinds(configs: &[&SimConfig]) -> Vec<BotKind> {
    let mut kinds = Vec::new();
    for config in configs {
        for kind in (0..config.players).map(|seat| config.bot(seat)) {
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
    }
    kinds
}

/// Pairs the games two runs played on the same seeds and compares each
/// figure over the games both finished (a game one run cut short compares
/// nothing): turns and points per hand, wins by position and by kind of
/// bot, and every event kind and counter either run saw.
pub fn paired(a: (&SimConfig, &SimStats), b: (&SimConfig, &SimStats)) -> Vec<Paired> {
    let kinds = seated_kinds(&[a.0, b.0]);
    // Positions of tables of different sizes have different fair shares.
    let positions = if a.0.players == b.0.players { a.0.players } else { 0 };
    let (a, b) = (a.1, b.1);
    let pairs: Vec<(&GameRow, &GameRow)> = both_finished(a, b).collect();
    let figure = |key: String, name: String, value: &dyn Fn(&GameRow) -> Option<f64>| {
        let (mut xs, mut ys, mut ds) = (Vec::new(), Vec::new(), Vec::new());
        for (x, y) in &pairs {
            if let (Some(vx), Some(vy)) = (value(x), value(y)) {
                xs.push(vx);
                ys.push(vy);
                ds.push(vy - vx);
            }
        }
        Paired { key, name, a: mean_ci(&xs).mean, b: mean_ci(&ys).mean, difference: mean_ci(&ds) }
    };
    let finished = |r: &GameRow| r.winner.is_some();
    let percent = |yes: bool| if yes { 100.0 } else { 0.0 };
    let mut figures = vec![
        figure("turns".into(), "turns per hand".into(), &|r| finished(r).then_some(r.turns as f64)),
        figure("points".into(), "points per hand".into(), &|r| finished(r).then_some(r.points as f64)),
    ];
    for position in 0..positions {
        let (key, name) =
            (format!("wins.position_{}", position + 1), format!("wins, {} position (%)", ordinal(position + 1)));
        figures.push(figure(key, name, &|r| finished(r).then(|| percent(r.winner.map(|w| w.1) == Some(position)))));
    }
    // How the seats of each kind of bot fare (a rule that rewards skill
    // lets the better bot win more), when more than one kind plays: every
    // kind seated, in the report's order, one that won nothing as 0.
    for kind in kinds.iter().copied().filter(|_| kinds.len() > 1) {
        let (key, name) = (format!("wins.bot_{kind}"), format!("wins, {kind} seats (%)"));
        figures.push(figure(key, name, &|r| finished(r).then(|| percent(r.winner_bot == Some(kind)))));
    }
    figures.extend([
        figure("lead_changes".into(), "lead changes per hand".into(), &|r| {
            finished(r).then_some(f64::from(r.lead_changes))
        }),
        figure("first_to_one_wins".into(), "first to one card wins (%)".into(), &|r| {
            r.first_to_one.filter(|_| finished(r)).map(|first| percent(r.winner.map(|w| w.0) == Some(first)))
        }),
        figure("comebacks".into(), "comebacks (%)".into(), &|r| finished(r).then(|| percent(r.comeback))),
        figure("margin".into(), "winner's margin (cards)".into(), &|r| finished(r).then_some(r.margin as f64)),
        figure("chain".into(), "longest chain".into(), &|r| finished(r).then_some(f64::from(r.chain))),
        figure("actions".into(), "actions per hand".into(), &|r| finished(r).then_some(r.actions as f64)),
    ]);
    for (kind, name) in EVENT_KINDS.iter().enumerate() {
        if a.events[kind] + b.events[kind] == 0 || matches!(*name, "hand_started" | "dealt" | "hand_won") {
            continue;
        }
        figures.push(figure(format!("events.{name}"), format!("{name} per hand"), &|r| {
            r.events.get(kind).map(|&n| f64::from(n))
        }));
        if a.amounts[kind] + b.amounts[kind] > 0 {
            figures.push(figure(format!("largest.{name}"), format!("largest {name}"), &|r| {
                r.peaks.get(kind).map(|&n| f64::from(n))
            }));
        }
    }
    let counters: std::collections::BTreeSet<&String> = a.counters.keys().chain(b.counters.keys()).collect();
    for name in counters {
        figures.push(figure(format!("counters.{name}"), format!("count {name} per hand"), &|r| {
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
    let pairs = paired(a, b);
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
    if a.0.players != b.0.players {
        out += &format!(
            "wins by position are not compared: A seats {} players, B {} (each position's fair share differs)\n",
            a.0.players, b.0.players
        );
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
    // With --matches, the matches' figures too.
    let matches = runs.iter().any(|(_, _, stats)| stats.matches > 0);
    let mut out = format!(
        "{:<wide$} {:>7} {:>15} {:>6} {:>5} {:>14} {:>8} {:>9} {:>8} {:>6} {:>9}",
        "configuration",
        "hands",
        "turns (95% CI)",
        "median",
        "p90",
        "1st wins (%)",
        "points",
        "penalties",
        "largest",
        "leads",
        "1st to 1"
    );
    if matches {
        out += &format!(" {:>7} {:>21}", "matches", "hands/match (95% CI)");
    }
    out.push('\n');
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
        let r = race(stats);
        out.insert_str(
            out.len() - 1,
            &format!(" {:>6.2} {:>8.1}%", r.lead_changes.mean, 100.0 * r.first_to_one_wins.rate),
        );
        if matches {
            let m = mean_ci(&stats.hands_per_match.iter().map(|&h| f64::from(h)).collect::<Vec<_>>());
            out.insert_str(
                out.len() - 1,
                &format!(" {:>7} {:>21}", stats.matches, format!("{:.1} ({:.1}-{:.1})", m.mean, m.low, m.high)),
            );
        }
    }
    if matches {
        out += "matches: played to the target score (hands: all their hands); hands/match: of the matches that ended\n";
    }
    out += "leads: lead changes per hand; 1st to 1: how often the first seat to hold one card won\n";
    for ((_, _, stats), name) in runs.iter().zip(&names) {
        if let Some(warning) = unfinished_warning(stats) {
            out += &format!("WARNING {name}: {warning}\n");
        }
    }
    out
}
