//! `unolab merge`: the `--json` outputs of a run's shards added up into
//! the figures of the single run. A shard is read trusting nothing
//! (`sim::report::read_shard`); the shards must be of one run, each once,
//! and their sums must add up.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{BAD_INPUT, SUCCESS, Schema, load_request, request_for};
use crate::args::Ruleset;
use crate::sim::json::Shard;
use crate::sim::{self, SimConfig, SimStats};

/// The fields that say which run a shard belongs to.
const RUN_FIELDS: [&str; 7] = ["variant", "rules", "options", "players", "seed", "bot", "run_games"];

/// What says which run a shard is of: its `RUN_FIELDS`, as written.
type RunKey = Vec<Option<serde_json::Value>>;

/// One shard file, read and checked; an error names the file. Only the
/// shard's figures are kept, not its JSON.
fn read(path: &Path) -> Result<(RunKey, Shard), String> {
    // A shard too large to read is told how shards that can be merged are
    // written.
    let too_large = || {
        let bytes = std::fs::metadata(path).ok()?.len();
        (bytes > crate::limits::FILE_BYTES).then(|| sim::json::shard_too_large(bytes))
    };
    let unread = |e: std::io::Error| too_large().unwrap_or_else(|| e.to_string());
    let read = crate::loader::read_text(path).map_err(unread).and_then(|text| {
        let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let run = sim::json::shard_run(&value)?;
        let shard = sim::json::read_shard(run)?;
        Ok((RUN_FIELDS.iter().map(|f| run.get(*f).cloned()).collect(), shard))
    });
    read.map_err(|e| format!("{}: {e}", path.display()))
}

/// The times of the shards: the slowest one's (the wall clock of shards
/// run at once) and all of them added up (one machine's time, had it
/// played them one after another).
#[derive(Debug, Clone, Copy, Default)]
struct Times {
    slowest: f64,
    total: f64,
}

/// The shards added up, one file at a time (one file's figures in memory
/// besides the sums): the first shard (which says what the run is, its
/// figures taken out), the sums of all, and their times.
fn add_up(files: &[PathBuf]) -> Result<(Shard, SimStats, Times), String> {
    let (first_key, mut first) = read(&files[0])?;
    let mut first_stats = Some(std::mem::take(&mut first.stats));
    let n = first.shard.1;
    // The shards given, by K: as many as the files, whatever N says.
    let mut given: BTreeMap<u64, &Path> = BTreeMap::new();
    let mut total = SimStats::new(first.players);
    let mut times = Times::default();
    // Hands and matches are not shares of one run.
    let mut hands_from: Option<&Path> = None;
    let mut matches_from: Option<&Path> = None;
    for path in files {
        let (key, shard) = match first_stats.take() {
            Some(stats) => (first_key.clone(), Shard { stats, ..first.clone() }),
            None => read(path)?,
        };
        if let Some((field, _)) = RUN_FIELDS.iter().zip(first_key.iter().zip(&key)).find(|(_, (a, b))| a != b) {
            return Err(format!(
                "{}: '{field}' differs from {}: not a shard of the same run",
                path.display(),
                files[0].display()
            ));
        }
        let (k, of) = shard.shard;
        if of != n {
            return Err(format!(
                "{}: 'shard' {k}/{of} is not one of the {n} shards of {}",
                path.display(),
                files[0].display()
            ));
        }
        if let Some(before) = given.insert(k, path) {
            return Err(format!("shard {k}/{n} is given twice: {} and {}", before.display(), path.display()));
        }
        if shard.stats.matches > 0 {
            matches_from = Some(path);
        } else if shard.stats.games > 0 {
            hands_from = Some(path);
        }
        if let (Some(hands), Some(matches)) = (hands_from, matches_from) {
            return Err(format!(
                "{} played hands and {} matches (--matches): not shards of the same run",
                hands.display(),
                matches.display()
            ));
        }
        times.slowest = times.slowest.max(shard.elapsed_s);
        times.total += shard.elapsed_s;
        total.merge(shard.stats).map_err(|e| format!("{}: added to the shards before it, {e}", path.display()))?;
    }
    // Each shard given once; are they all there? (Looking for the missing
    // ones takes at most as many steps as there are files, and five more.)
    if given.len() as u64 != n {
        let shown = |k: &u64| format!("{k}/{n}");
        let missing: Vec<String> = (0..n).filter(|k| !given.contains_key(k)).take(5).map(|k| shown(&k)).collect();
        let more = n - given.len() as u64 - missing.len() as u64;
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        let are = if missing.len() == 1 && more.is_empty() { "is" } else { "are" };
        return Err(format!(
            "the shards given are {}: {}{more} {are} missing (each of the {n} shards once)",
            given.keys().map(shown).collect::<Vec<_>>().join(", "),
            missing.join(", "),
        ));
    }
    Ok((first, total, times))
}

/// `unolab merge`: the shards of one run added up, reported as the single
/// run would be.
pub(super) fn merge(files: &[PathBuf], as_json: bool, schema: Schema) -> i32 {
    let (first, mut total, times) = match add_up(files) {
        Ok(added) => added,
        Err(e) => {
            complain!("error: {e}");
            return BAD_INPUT;
        }
    };
    total.finish();
    // The run's time is the wall clock of its shards run at once: the
    // slowest one's (hands a second over it are the run's throughput).
    total.elapsed_s = times.slowest;
    let (variant, rules) = first.ruleset();
    let ruleset = Ruleset { variant: Some(variant), rules, settings: first.settings };
    let in_run = || {
        complain!(
            "  (the run of {}: merge loads its variant and rules again, from the files it read)",
            files[0].display()
        )
    };
    let Ok(request) = request_for(&ruleset) else { return BAD_INPUT };
    let Ok(variant) = load_request(&request) else {
        in_run();
        return BAD_INPUT;
    };
    if let Err(e) = variant.seats(first.players) {
        complain!("error: {}: 'players': {e}", files[0].display());
        return BAD_INPUT;
    }
    let config = SimConfig {
        bots: first.bots,
        matches: total.matches > 0,
        ..SimConfig::new(variant, first.players, first.run_games, first.seed)
    };
    if as_json {
        schema.print_json(sim::json::document("run", vec![sim::json::run(&config, &total, "")], Vec::new()));
    } else {
        let text = sim::report::text(&config, &total, &request.arguments());
        let shards = files.len();
        say!(
            "{}\n  ({shards} shards, run at once: the time is the slowest shard's; one after another they took {:.2}s, {:.0} hands/s)",
            text.trim_end(),
            times.total,
            total.games as f64 / times.total.max(f64::MIN_POSITIVE)
        );
    }
    SUCCESS
}
