//! The JSON of `sim --json` and `merge --json`: one versioned shape for
//! every kind of run (a run, a sweep, a comparison, a merge), described by
//! `docs/sim.schema.json`; and a shard read back for `unolab merge`,
//! trusting nothing.
//!
//! Every output is one object: `schema_version`, `kind`, the keys
//! docs/spec/cli.md promises (of the first run), `runs` (every
//! configuration played, in order) and `comparisons` (each `--vs` pair, by
//! index into `runs`). Keys are names, never display labels; option
//! values keep their types.

use serde_json::{Map, Value, json};

use super::report::{self, Paired, Share, at_least, mean_ci, turns, wilson};
use super::{SimConfig, SimStats};
use crate::bot::BotKind;
use crate::event::EVENT_KINDS;
use crate::limits;
use crate::source::Origin;
use crate::variant::OptionValue;

/// The version of the shape: raised when a key changes meaning or goes
/// (a key added keeps it).
pub const SCHEMA_VERSION: u64 = 2;

/// The keys docs/spec/cli.md promises at the top of `sim --json`: the
/// first run's.
pub const CONTRACT_KEYS: [&str; 9] =
    ["variant", "rules", "players", "games", "seed", "turns_mean", "wins", "elapsed_s", "games_per_s"];

/// The whole output: `kind` is `run`, `sweep`, `comparison` or
/// `sweep_comparison`; `runs` as `run` gives them; `comparisons` as
/// `comparison` gives them.
pub fn document(kind: &str, runs: Vec<Value>, comparisons: Vec<Value>) -> Value {
    let mut top = Map::new();
    top.insert("schema_version".into(), json!(SCHEMA_VERSION));
    top.insert("kind".into(), json!(kind));
    if let Some(first) = runs.first() {
        for key in CONTRACT_KEYS {
            top.insert(key.into(), first.get(key).cloned().unwrap_or(Value::Null));
        }
    }
    top.insert("runs".into(), Value::Array(runs));
    top.insert("comparisons".into(), Value::Array(comparisons));
    Value::Object(top)
}

/// The keys of a run that schema 1 (before `schema_version`) printed at
/// the top of a single run's output, beside the cli.md keys. Kept there,
/// deprecated, unless `--schema 2` is asked for.
pub const SCHEMA_1_KEYS: [&str; 22] = [
    "options",
    "finished",
    "partial",
    "bot",
    "turns_ci95",
    "turns_median",
    "turns_p90",
    "turns_max",
    "wins_by_seat",
    "wins_by_position",
    "points_mean",
    "events",
    "counters",
    "stuck",
    "stuck_games",
    "errors",
    "shard",
    "run_games",
    "raw",
    "matches",
    "match_wins",
    "hands_per_match_mean",
];

/// What the deprecated keys' warning says.
pub const SCHEMA_1_WARNING: &str = "warning: --json: the shape of schema 1 (a single run's figures at the top, \
--vs's 'a', 'b' and 'paired', a sweep's list, option values as strings) is deprecated and kept beside \
schema 2 for now; add --schema 2 for schema 2 alone (docs/simulation.md#json)";

/// What `merge` says of a shard of `bytes` bytes, more than a file may
/// hold (`limits::FILE_BYTES`), and `sim --shard` of one it writes: what
/// to do so that the shards of a run can be merged. A shard's size grows
/// with its hands (the length of each, `raw.turns`: at most 4 bytes a hand
/// of fewer than 1,000 turns), twice as fast without `--schema 2`, which
/// repeats the figures in schema 1's keys.
pub fn shard_too_large(bytes: u64) -> String {
    format!(
        "{:.1} MB, more than the {} MB a shard may hold: write each shard with --json --schema 2 (plain --json \
         repeats every figure in schema 1's keys, doubling the file), and split the run into more shards (a \
         larger N in --shard K/N) so that each holds fewer hands (about a million hands of fewer than 100 turns \
         fit with --schema 2, half as many without; docs/cluster.md)",
        bytes as f64 / (1024.0 * 1024.0),
        limits::FILE_BYTES / (1024 * 1024)
    )
}

/// A run as schema 1 gave it: its option values as strings (the run's
/// other keys are a superset of schema 1's).
fn schema_1_run(run: &Value) -> Value {
    let mut run = run.clone();
    if let Some(options) = run.get_mut("options").and_then(Value::as_object_mut) {
        for value in options.values_mut() {
            if !value.is_string() {
                *value = Value::String(value.to_string());
            }
        }
    }
    run
}

/// A comparison as schema 1 gave it: `{a, b, paired}`, each figure by its
/// label (`figure`).
fn schema_1_comparison(runs: &[Value], comparison: &Value) -> Value {
    let run =
        |side: &str| comparison[side].as_u64().and_then(|i| runs.get(i as usize)).map_or(Value::Null, schema_1_run);
    let paired: Vec<Value> = comparison["figures"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|f| {
            json!({"figure": f["label"], "a": f["a"], "b": f["b"], "difference": f["difference"],
                   "low": f["low"], "high": f["high"], "significant": f["significant"]})
        })
        .collect();
    json!({"a": run("a"), "b": run("b"), "paired": paired})
}

/// `document` as a reader of schema 1 reads it too (the default of
/// `--json`, deprecated): a run keeps schema 1's keys at the top, a
/// comparison its `a`, `b` and `paired`, both beside schema 2's; a sweep
/// (a list in schema 1, which no object can be) is schema 1's list.
pub fn with_schema_1(document: Value) -> Value {
    let runs = document["runs"].as_array().cloned().unwrap_or_default();
    let comparisons = document["comparisons"].as_array().cloned().unwrap_or_default();
    let mut document = document;
    match document["kind"].as_str() {
        Some("run") => {
            if let (Some(top), Some(first)) = (document.as_object_mut(), runs.first()) {
                let first = schema_1_run(first);
                for key in SCHEMA_1_KEYS {
                    top.insert(key.into(), first[key].clone());
                }
            }
            document
        }
        Some("comparison") => {
            if let (Some(top), Some(comparison)) = (document.as_object_mut(), comparisons.first())
                && let Value::Object(old) = schema_1_comparison(&runs, comparison)
            {
                top.extend(old);
            }
            document
        }
        Some("sweep") => Value::Array(runs.iter().map(schema_1_run).collect()),
        Some("sweep_comparison") => Value::Array(comparisons.iter().map(|c| schema_1_comparison(&runs, c)).collect()),
        _ => document,
    }
}

/// An option's value as JSON, of its own type.
fn option_value(value: &OptionValue) -> Value {
    match value {
        OptionValue::Bool(b) => json!(b),
        OptionValue::Int(i) => json!(i),
        OptionValue::Text(t) => json!(t),
    }
}

fn share_json(s: &Share) -> Value {
    json!({"count": s.count, "of": s.of, "rate": s.rate, "low": s.low, "high": s.high})
}

/// One run: every figure, and the sums they come from (`raw`). `label`
/// names what a sweep set for it (`crossStack=true`), or is empty.
pub fn run(config: &SimConfig, stats: &SimStats, label: &str) -> Value {
    let finished = stats.finished();
    let t = turns(stats);
    let interval = |k: u64| {
        let (low, high) = wilson(k, finished);
        json!({"wins": k, "rate": k as f64 / finished.max(1) as f64, "low": low, "high": high})
    };
    let games = finished.max(1) as f64;
    let events: Map<String, Value> = EVENT_KINDS
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
                entry["largest_of_a_hand"] = json!(stats.peaks[kind] as f64 / stats.hands_with[kind].max(1) as f64);
                entry["largest_at_least"] = json!(at_least(&stats.sizes[kind], finished));
            }
            (name.to_string(), entry)
        })
        .collect();
    let race = report::race(stats);
    let by_position: Vec<Value> = race
        .by_position
        .iter()
        .map(|p| {
            json!({
                "first_to_one": share_json(&p.first_to_one),
                "first_to_one_wins": share_json(&p.first_to_one_wins),
                "comebacks": share_json(&p.comebacks),
                "margin_mean": p.margin,
            })
        })
        .collect();
    let failure = |f: &super::Failure| json!({"game": f.index, "seed": f.seed, "error": f.message});
    let mut run = Map::from_iter([("label".to_string(), json!(label))]);
    run.extend(configuration(config));
    let figures = json!({
        "games": stats.games,
        "finished": finished,
        "partial": stats.partial,
        "turns_mean": t.mean.mean,
        "turns_ci95": [t.mean.low, t.mean.high],
        "turns_median": t.median,
        "turns_p90": t.p90,
        "turns_max": t.max,
        "actions_mean": stats.actions as f64 / games,
        "points_mean": stats.points_total as f64 / games,
        "wins": stats.wins,
        "wins_by_seat": stats.wins.iter().map(|&k| interval(k)).collect::<Vec<_>>(),
        "wins_by_position": stats.wins_by_position.iter().map(|&k| interval(k)).collect::<Vec<_>>(),
        "wins_by_bot": report::wins_by_bot(config, stats).iter().map(|&(kind, seats, k)| {
            let mut entry = interval(k);
            entry["bot"] = json!(kind.to_string());
            entry["seats"] = json!(seats);
            entry["fair"] = json!(seats as f64 / config.players as f64);
            entry
        }).collect::<Vec<_>>(),
        "race": {
            "lead_changes_mean": race.lead_changes.mean,
            "lead_changes_ci95": [race.lead_changes.low, race.lead_changes.high],
            "first_to_one_wins": share_json(&race.first_to_one_wins),
            "comebacks": share_json(&race.comebacks),
            "margin_mean": race.margin.mean,
            "margin_ci95": [race.margin.low, race.margin.high],
            "by_position": by_position,
        },
        "chains_at_least": at_least(&stats.chains, finished),
        "events": events,
        "counters": stats.counters.iter().map(|(k, &n)| (k.clone(), json!({"total": n, "per_hand": n as f64 / games}))).collect::<Map<_, _>>(),
        "matches": stats.matches,
        "match_wins": stats.match_wins,
        "hands_per_match_mean": mean_ci(&stats.hands_per_match.iter().map(|&h| f64::from(h)).collect::<Vec<_>>()).mean,
        "stuck": stats.stuck.len(),
        "stuck_games": stats.stuck.iter().map(failure).collect::<Vec<_>>(),
        "errors": stats.failures.iter().map(failure).collect::<Vec<_>>(),
        "elapsed_s": stats.elapsed_s,
        "games_per_s": stats.games_per_s(),
        "raw": raw(stats),
    });
    if let Value::Object(figures) = figures {
        run.extend(figures);
    }
    Value::Object(run)
}

/// What a run is, as a run's figures and a file of per-game rows (`meta`)
/// both say it: variant, rules, options, players, bots, seed, the run's
/// games and the shard.
fn configuration(config: &SimConfig) -> Map<String, Value> {
    let options = config.variant.options.iter().map(|(k, v)| (k.clone(), option_value(v)));
    // The file each of the variant and its rules was read from, where not
    // built in: `merge` loads them from there.
    let files: Vec<Option<String>> = (config.variant.layers.iter())
        .map(|layer| match &layer.source.origin {
            Origin::Disk(path) => {
                Some(std::path::absolute(path).unwrap_or_else(|_| path.clone()).display().to_string())
            }
            Origin::Builtin(_) => None,
        })
        .collect();
    Map::from_iter([
        ("variant".to_string(), json!(config.variant.name)),
        ("rules".to_string(), json!(config.variant.rule_names())),
        (
            "files".to_string(),
            json!({"variant": files.first().cloned().flatten(), "rules": files.get(1..).unwrap_or_default()}),
        ),
        ("options".to_string(), Value::Object(options.collect())),
        ("players".to_string(), json!(config.players)),
        ("bot".to_string(), json!(config.bot_names())),
        ("seed".to_string(), json!(config.seed)),
        ("run_games".to_string(), json!(config.games)),
        ("shard".to_string(), json!(format!("{}/{}", config.shard.0, config.shard.1))),
    ])
}

/// What run a file of per-game rows is of (`--games-out`'s first line):
/// the configuration, as a run gives it, and the command that plays it.
pub fn meta(config: &SimConfig, arguments: &str) -> Value {
    let mut command =
        format!("unolab sim {arguments} -p {} -n {} --seed {}", config.players, config.games, config.seed);
    if config.bots.iter().any(|&b| b != BotKind::Random) {
        command += &format!(" --bot {}", config.bot_names());
    }
    if config.matches {
        command += " --matches";
    }
    if config.shard != (0, 1) {
        command += &format!(" --shard {}/{}", config.shard.0, config.shard.1);
    }
    let mut meta = Map::from_iter([("schema_version".to_string(), json!(SCHEMA_VERSION))]);
    meta.extend(configuration(config));
    meta.insert("matches".into(), json!(config.matches));
    meta.insert("command".into(), json!(command));
    Value::Object(meta)
}

/// A comparison of runs `a` and `b` (indices into `runs`) on the same
/// seeds: each figure by its key, with its label as the text shows it.
pub fn comparison(a: usize, b: usize, games: u64, figures: &[Paired]) -> Value {
    let figures: Vec<Value> = figures
        .iter()
        .map(|p| {
            json!({"key": p.key, "label": p.name, "a": p.a, "b": p.b, "difference": p.difference.mean,
                   "low": p.difference.low, "high": p.difference.high, "significant": p.significant()})
        })
        .collect();
    json!({"a": a, "b": b, "games": games, "figures": figures})
}

/// The sums and lists every figure comes from: what `unolab merge` adds up.
fn raw(stats: &SimStats) -> Value {
    let failures =
        |list: &[super::Failure]| -> Vec<Value> { list.iter().map(|f| json!([f.index, f.seed, f.message])).collect() };
    let sizes: Map<String, Value> = EVENT_KINDS
        .iter()
        .zip(&stats.sizes)
        .filter(|(_, bins)| !bins.is_empty())
        .map(|(name, bins)| (name.to_string(), json!(bins)))
        .collect();
    json!({
        "games": stats.games,
        "partial": stats.partial,
        "wins": stats.wins,
        "wins_by_position": stats.wins_by_position,
        "turns": stats.turns,
        "actions": stats.actions,
        "points_total": stats.points_total,
        "events": stats.events,
        "amounts": stats.amounts,
        "hands_with": stats.hands_with,
        "peaks": stats.peaks,
        "sizes": sizes,
        "chains": stats.chains,
        "lead_changes": stats.lead_changes,
        "lead_changes_sq": stats.lead_changes_sq,
        "first_to_one": stats.first_to_one,
        "first_to_one_won": stats.first_to_one_won,
        "comebacks": stats.comebacks,
        "margins": stats.margins,
        "margins_sq": stats.margins_sq,
        "counters": stats.counters,
        "stuck": failures(&stats.stuck),
        "failures": failures(&stats.failures),
        "matches": stats.matches,
        "match_wins": stats.match_wins,
        "hands_per_match": stats.hands_per_match,
    })
}

/// The one run of a shard's output (`sim --shard K/N --json`): an output
/// of this `schema_version` whose `kind` is `run`.
pub fn shard_run(value: &Value) -> Result<&Value, String> {
    let version = value.get("schema_version").ok_or(
        "no 'schema_version': not the JSON of 'unolab sim --json', or of a version before 2 (run the shard again)",
    )?;
    if version.as_u64() != Some(SCHEMA_VERSION) {
        return Err(format!(
            "'schema_version' is {version}, not {SCHEMA_VERSION}: a shard of another version of unolab (run it again with this one)"
        ));
    }
    match value.get("kind").and_then(Value::as_str) {
        Some("run") => {}
        Some(kind) => return Err(format!("'kind' is {kind}: merge takes the shards of one run, not a {kind}")),
        None => return Err("no 'kind'".into()),
    }
    match value.get("runs").and_then(Value::as_array).map(Vec::as_slice) {
        Some([run]) => Ok(run),
        _ => Err("'runs' does not hold the one run of a shard".into()),
    }
}

/// One shard's output (`sim --shard K/N --json`) as `unolab merge` reads
/// it: the run it is a share of, which share, and its figures.
#[derive(Debug, Clone)]
pub struct Shard {
    pub variant: String,
    pub rules: Vec<String>,
    /// The files the variant and each rule were read from (`None`: built
    /// in, or a shard that does not say).
    pub files: Files,
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

/// Where a run's variant and rules were read from: a path, or `None` for
/// one built in.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Files {
    pub variant: Option<String>,
    pub rules: Vec<Option<String>>,
}

impl Shard {
    /// The variant and rules to load the run again: each from its file
    /// where it was read from one, else by name.
    pub fn ruleset(&self) -> (String, Vec<String>) {
        let variant = self.files.variant.clone().unwrap_or_else(|| self.variant.clone());
        let rules =
            self.rules.iter().zip(&self.files.rules).map(|(name, file)| file.clone().unwrap_or_else(|| name.clone()));
        (variant, rules.collect())
    }
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
        return Err("not a run of 'unolab sim --json' (no 'raw' figures)".into());
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
            let text = match v {
                Value::Bool(b) => b.to_string(),
                Value::Number(n) if n.is_i64() => n.to_string(),
                Value::String(s) => s.clone(),
                _ => return Err(format!("'options.{name}' is not a true or false, a whole number or a string")),
            };
            Ok((name.clone(), text))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let elapsed_s: f64 = typed(value, "elapsed_s")?;
    if !(elapsed_s.is_finite() && elapsed_s >= 0.0) {
        return Err(format!("'elapsed_s': {elapsed_s} is not a time"));
    }
    let stats = raw_figures(value, players)?;
    check_figures(&stats, seed, run_games, shard)?;
    let rules: Vec<String> = typed(value, "rules")?;
    let files = match value.get("files") {
        None => Files { variant: None, rules: vec![None; rules.len()] },
        Some(_) => typed::<Files>(value, "files")?,
    };
    if files.rules.len() != rules.len() {
        return Err(format!(
            "'files.rules' has {} entries, not one for each of the {} rules",
            files.rules.len(),
            rules.len()
        ));
    }
    Ok(Shard {
        variant: typed(value, "variant")?,
        rules,
        files,
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
    // A histogram has a bin per size up to `limits::SIM_SIZES`.
    let bins = |path: &str, bins: Vec<u64>| -> Result<Vec<u64>, String> {
        if bins.len() > limits::SIM_SIZES {
            return Err(format!("'{path}' has {} bins, more than {}", bins.len(), limits::SIM_SIZES));
        }
        Ok(bins)
    };
    let mut sizes = vec![Vec::new(); kinds];
    for (name, list) in typed::<std::collections::BTreeMap<String, Vec<u64>>>(value, "raw.sizes")? {
        let kind = EVENT_KINDS
            .iter()
            .position(|k| *k == name)
            .ok_or_else(|| format!("'raw.sizes': '{name}' is not a kind of event"))?;
        sizes[kind] = bins(&format!("raw.sizes.{name}"), list)?;
    }
    let margins: Vec<i64> = typed(value, "raw.margins")?;
    if margins.len() != players {
        return Err(format!("'raw.margins' has {} entries, not one for each of the {players} players", margins.len()));
    }
    Ok(SimStats {
        games: typed(value, "raw.games")?,
        partial: typed(value, "raw.partial")?,
        wins: list("wins", players, "players")?,
        wins_by_position: list("wins_by_position", players, "players")?,
        turns: typed(value, "raw.turns")?,
        actions: typed(value, "raw.actions")?,
        points_total: typed(value, "raw.points_total")?,
        events: per_kind("events")?,
        amounts: per_kind("amounts")?,
        hands_with: per_kind("hands_with")?,
        peaks: per_kind("peaks")?,
        sizes,
        chains: bins("raw.chains", typed(value, "raw.chains")?)?,
        lead_changes: typed(value, "raw.lead_changes")?,
        lead_changes_sq: typed(value, "raw.lead_changes_sq")?,
        first_to_one: list("first_to_one", players, "positions")?,
        first_to_one_won: list("first_to_one_won", players, "positions")?,
        comebacks: list("comebacks", players, "positions")?,
        margins,
        margins_sq: typed(value, "raw.margins_sq")?,
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
    check_race(stats, finished)?;
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

/// Do the race's and the histograms' figures agree with the hands won?
fn check_race(stats: &SimStats, finished: u64) -> Result<(), String> {
    let turns = sum(stats.turns.iter().map(|&t| u64::from(t)), "raw.turns")?;
    if stats.actions < turns {
        return Err(format!("'raw.actions' is {}, fewer than the {turns} turns ('raw.turns')", stats.actions));
    }
    if stats.lead_changes > stats.actions {
        return Err(format!("'raw.lead_changes' is {}, more than the {} actions", stats.lead_changes, stats.actions));
    }
    let most = stats.lead_changes.saturating_mul(limits::HAND_ACTIONS);
    if stats.lead_changes_sq < stats.lead_changes || stats.lead_changes_sq > most {
        return Err("'raw.lead_changes_sq' cannot be the squares of 'raw.lead_changes' summed".into());
    }
    let hands = sum(stats.chains.iter().copied(), "raw.chains")?;
    if hands != finished {
        return Err(format!("'raw.chains' counts {hands} hands, but {finished} were won"));
    }
    for (kind, name) in EVENT_KINDS.iter().enumerate() {
        let hands = sum(stats.sizes[kind].iter().copied(), "raw.sizes")?;
        if hands > stats.hands_with[kind] || stats.sizes[kind].first().is_some_and(|&n| n > 0) {
            return Err(format!("'raw.sizes.{name}' counts {hands} hands, not those with a '{name}' of some size"));
        }
    }
    if sum(stats.first_to_one.iter().copied(), "raw.first_to_one")? > finished {
        return Err(format!("'raw.first_to_one' counts more than the {finished} hands won"));
    }
    for position in 0..stats.wins_by_position.len() {
        if stats.first_to_one_won[position] > stats.first_to_one[position] {
            return Err(format!("'raw.first_to_one_won': more wins than hands at position {}", position + 1));
        }
        if stats.comebacks[position] > stats.wins_by_position[position] {
            return Err(format!("'raw.comebacks': more comebacks than wins at position {}", position + 1));
        }
    }
    let margins = stats.margins.iter().try_fold(0u64, |total, m| total.checked_add(m.unsigned_abs()));
    if margins.is_none_or(|m| m > stats.margins_sq) {
        return Err("'raw.margins_sq' cannot be the squares of 'raw.margins' summed".into());
    }
    Ok(())
}
