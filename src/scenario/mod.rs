//! Scenario files (scenarios.md): `schema` is the format and its parsing,
//! `setup` builds the table a file describes, `run` plays the steps and
//! checks the expectations, `report` runs files and folders. A file that
//! cannot be read or parsed is bad input, reported with file, line and
//! column.

pub mod report;
mod run;
mod schema;
mod setup;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use crate::loader::Disk;
use crate::loader::{Loader, Open};
use crate::ruleset::{self, LoadRequest};
use crate::source::{Position, SourceFile};
use crate::variant::{OptionValue, Variant};
use crate::yaml::{Placed, Yaml, YamlValue};

pub use report::{Report, collect, collect_where, run_files};
use schema::{RawScenario, RawSetup, Step, parse_step};

/// The ending of a snapshot spec's name (`NAME.snapshots.yaml`): a file a
/// folder of scenarios may hold, which is not a scenario.
pub const SNAPSHOT_SPEC_SUFFIX: &str = ".snapshots.yaml";

/// A scenario ready to run.
pub struct Scenario {
    pub file: String,
    pub name: String,
    variant: Arc<Variant>,
    players: usize,
    seed: u64,
    setup: RawSetup,
    steps: Vec<(String, Step)>,
    source: SourceFile,
}

/// The outcome of one scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    Fail(String),
}

/// A variant or rule reference in a scenario: a built-in name, or a path
/// relative to the scenario file.
pub fn reference(name: &str, builtin_names: &[&str], scenario: &Path) -> String {
    let joined = scenario.parent().unwrap_or(Path::new(".")).join(name);
    let looks_like_name = !name.contains('/') && !name.ends_with(".yaml") && !name.ends_with(".yml");
    if builtin_names.contains(&name) || Path::new(name).is_absolute() || (looks_like_name && !joined.exists()) {
        name.to_string()
    } else {
        joined.display().to_string()
    }
}

/// Loads the ruleset a file names (`variant:`, `rules:` relative to the
/// file, `options:`); a problem points at what it is about: a setting at
/// its key, a rule at its entry in `rules:` (the first whose adding makes
/// the load fail), else the variant. A setting is of its option's type
/// (`limit: "2"`, text, is refused for a whole-number option), as
/// `--set K=V`, all text, cannot say.
pub fn load_named(
    loader: &dyn Loader,
    source: &SourceFile,
    path: &Path,
    variant: &Placed<String>,
    rules: &[Placed<String>],
    options: &BTreeMap<Placed<String>, Yaml>,
) -> Result<Arc<Variant>, String> {
    let request = |rules: &[Placed<String>], options: &BTreeMap<Placed<String>, Yaml>| LoadRequest {
        variant: reference(variant, &crate::builtin::variant_names(), path),
        rules: rules.iter().map(|r| reference(r, &crate::builtin::rule_names(), path)).collect(),
        settings: options.iter().map(|(k, v)| (k.value.clone(), setting(v))).collect(),
    };
    let loaded = ruleset::load(&request(rules, options), loader).map_err(|problems| {
        let told = problems.join("\n  ");
        // An unknown option at its key, a value refused at the value.
        let about = |key: &str| problems.iter().find(|p| p.contains(&format!("option '{key}'")));
        if let Some((key, value, problem)) = options.iter().find_map(|(k, v)| Some((k, v, about(k)?))) {
            let at =
                if problem.contains(&format!("unknown option '{key}'")) { key.position() } else { value.position() };
            return source.problem(at, format!("cannot load the variant:\n  {told}"));
        }
        let none = BTreeMap::new();
        let fails = |upto: usize| ruleset::load(&request(&rules[..upto], &none), loader).is_err();
        let failing = if fails(0) { None } else { (1..=rules.len()).find(|&upto| fails(upto)) };
        match failing {
            Some(upto) => source.problem(rules[upto - 1].position(), format!("cannot load the rule:\n  {told}")),
            None => source.problem(variant.position(), format!("cannot load the variant:\n  {told}")),
        }
    })?;
    let problems: Vec<String> = options
        .iter()
        .filter_map(|(key, value)| {
            let kind = match (loaded.options.get(key.as_str())?, &value.value) {
                (OptionValue::Int(_), YamlValue::Str(_)) => "a whole number",
                (OptionValue::Bool(_), YamlValue::Str(_)) => "true or false",
                _ => return None,
            };
            let told = format!("option '{key}' takes {kind}, not the text '{value}' (write it without quotes)");
            Some(source.problem(value.position(), told))
        })
        .collect();
    if !problems.is_empty() {
        return Err(problems.join("\n"));
    }
    Ok(Arc::new(loaded))
}

/// A setting's value as `--set K=V` gives it: a number as its value (`0x10`
/// is 16), anything else as written.
pub(crate) fn setting(value: &Yaml) -> String {
    match value.value {
        YamlValue::Int(n) => n.to_string(),
        _ => value.to_string(),
    }
}

/// The players at a scenario's table: `players:`, else one more than the
/// last hand named (`last_hand`), else 4; and whether the variant seats
/// them (else where and why not). A hand named past any table is told
/// with its own number, however large.
fn seats(
    variant: &Variant,
    players: Option<&Placed<usize>>,
    last_hand: Option<&Placed<usize>>,
) -> (usize, Result<(), (Option<Position>, String)>) {
    let Some(last) = last_hand.filter(|_| players.is_none()) else {
        let (n, at) = players.map_or((4, None), |p| (p.value, p.position()));
        let seated = variant.seats(n).map_err(|e| (at, format!("{e} (set 'players:' or name more hands)")));
        return (n, seated);
    };
    let needed = last.value as u128 + 1;
    let why = |e: String| (last.position(), format!("{e} (hands names player {last}; set 'players:' or name fewer)"));
    match usize::try_from(needed) {
        Ok(n) => (n, variant.seats(n).map_err(why)),
        Err(_) => {
            let e = format!("{} is for at most {} players, not {needed}", variant.title(), variant.max_players);
            (usize::MAX, Err(why(e)))
        }
    }
}

impl Scenario {
    /// Reads and parses a scenario file; errors are bad input (exit 2).
    pub fn load(path: &Path) -> Result<Scenario, String> {
        Scenario::parse(&Disk, SourceFile::read(&Disk, path)?, path)
    }

    /// Parses a scenario read from `path`, loading what it names through
    /// `loader`.
    pub fn parse(loader: &dyn Loader, source: SourceFile, path: &Path) -> Result<Scenario, String> {
        if source.text.trim().is_empty() {
            return Err(source.problem(None, "the file is empty"));
        }
        let raw: RawScenario = crate::yaml::from_file(&source)?;
        let variant = load_named(loader, &source, path, &raw.variant, &raw.rules, &raw.options)?;
        let mut problems = Vec::new();
        let (mut players, seated) = seats(&variant, raw.players.as_ref(), raw.setup.hands.keys().next_back());
        if let Err((at, e)) = seated {
            problems.push(source.problem(at, e));
            players = variant.table_sizes().min_by_key(|n| n.abs_diff(players)).unwrap_or(variant.min_players);
        }
        let mut steps = Vec::new();
        for value in &raw.steps {
            match parse_step(&variant, value) {
                Ok(step) => steps.push((value.to_string(), step)),
                Err(found) => {
                    problems.extend(found.0.into_iter().map(|(at, e)| source.problem(at.or(value.position()), e)))
                }
            }
        }
        let scenario = Scenario {
            file: source.name.clone(),
            name: raw.name.clone().unwrap_or_default(),
            variant,
            players,
            seed: raw.seed.unwrap_or(0),
            setup: raw.setup,
            steps,
            source,
        };
        problems.extend(scenario.check_setup());
        scenario.source.sort_problems(&mut problems);
        if problems.is_empty() { Ok(scenario) } else { Err(problems.join("\n")) }
    }
}
