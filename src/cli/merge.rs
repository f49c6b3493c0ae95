//! `unolab merge`: the `--json` outputs of a run's shards added up into
//! the figures of the single run.

use std::path::PathBuf;

use super::{BAD_INPUT, SUCCESS, load_request, request_for};
use crate::args::Ruleset;
use crate::bot::BotKind;
use crate::sim::{self, SimConfig};

/// The fields that say which run a shard belongs to.
const RUN_FIELDS: [&str; 7] = ["variant", "rules", "options", "players", "seed", "bot", "run_games"];

/// `unolab merge`: the shards of one run added up, reported as the single
/// run would be.
pub(super) fn merge(files: &[PathBuf], as_json: bool) -> i32 {
    let mut shards = Vec::new();
    for path in files {
        let read = crate::loader::read_text(path).map_err(|e| e.to_string()).and_then(|text| {
            let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
            let stats = sim::report::from_raw(&value)?;
            Ok((value, stats))
        });
        match read {
            Ok(shard) => shards.push(shard),
            Err(e) => {
                complain!("error: {}: {e}", path.display());
                return BAD_INPUT;
            }
        }
    }
    let first = shards[0].0.clone();
    let first = &first;
    for (path, (value, _)) in files.iter().zip(&shards) {
        if let Some(field) = RUN_FIELDS.iter().find(|f| value.get(**f) != first.get(**f)) {
            complain!(
                "error: {}: '{field}' differs from {}: not a shard of the same run",
                path.display(),
                files[0].display()
            );
            return BAD_INPUT;
        }
    }
    let mut names: Vec<String> = shards.iter().map(|(v, _)| v["shard"].as_str().unwrap_or("0/1").to_string()).collect();
    names.sort();
    let n = names.first().and_then(|s| s.split_once('/')).and_then(|(_, n)| n.parse::<u64>().ok()).unwrap_or(1);
    let expected: Vec<String> = (0..n).map(|k| format!("{k}/{n}")).collect();
    let mut sorted_expected = expected.clone();
    sorted_expected.sort();
    if names != sorted_expected {
        complain!("error: the shards are {}, not {} (each once)", names.join(", "), expected.join(", "));
        return BAD_INPUT;
    }
    let players = first["players"].as_u64().unwrap_or(0) as usize;
    let mut total = sim::SimStats::new(players);
    let mut elapsed = 0.0;
    for (value, stats) in shards {
        elapsed += value["elapsed_s"].as_f64().unwrap_or(0.0);
        total.merge(stats);
    }
    total.finish();
    total.elapsed_s = elapsed;
    let string = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
    let rules: Vec<String> = first["rules"].as_array().map(|r| r.iter().map(string).collect()).unwrap_or_default();
    let settings: Vec<(String, String)> = first["options"]
        .as_object()
        .map(|o| o.iter().map(|(k, v)| (k.clone(), string(v))).collect())
        .unwrap_or_default();
    let ruleset = Ruleset { variant: Some(string(&first["variant"])), rules, settings };
    let Ok(request) = request_for(&ruleset) else { return BAD_INPUT };
    let Ok(variant) = load_request(&request) else { return BAD_INPUT };
    let bots: Vec<BotKind> =
        string(&first["bot"]).split(',').map(|b| BotKind::parse(b).unwrap_or(BotKind::Random)).collect();
    let games = first["run_games"].as_u64().unwrap_or(0);
    let config = SimConfig {
        bots,
        matches: first["matches"].as_u64().unwrap_or(0) > 0,
        ..SimConfig::new(variant, players, games, first["seed"].as_u64().unwrap_or(0))
    };
    if as_json {
        say!("{}", sim::report::json(&config, &total));
    } else {
        say!("{}", sim::report::text(&config, &total, &request.arguments()).trim_end());
    }
    SUCCESS
}
