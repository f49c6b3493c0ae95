//! `unolab check`: a variant, or a house rule on every built-in variant,
//! loaded, its scripts compiled, and seeded bot games played to the end
//! with every script run every time.

use std::sync::Arc;

use super::{BAD_INPUT, FAILED, SUCCESS, print_problems};
use crate::builtin;
use crate::loader::{Disk, Open};
use crate::ruleset::{self, LoadRequest};
use crate::script::Runtime;
use crate::sim::{self, SimConfig};
use unolab_load::spec::LayerSpec;

/// Seeded bot games `check` plays per variant.
const CHECK_GAMES: u64 = 20;

/// Is `target` a house rule (a built-in rule's name, or a YAML file with
/// no table of its own), rather than a variant? Its spec, if it is.
fn rule_target(target: &str) -> Option<LayerSpec> {
    if builtin::variant_names().contains(&target) {
        return None;
    }
    if builtin::rule_names().contains(&target) {
        return crate::builtin::spec(&format!("variants/rules/{target}.yaml"));
    }
    let file = crate::source::SourceFile::read(&Disk, std::path::Path::new(target)).ok()?;
    // A variant has a deck (even an empty one, which it is told is wrong);
    // a file without one is a rule (one that sets a table field by mistake
    // is then told so, with its place). A rule file that does not parse is
    // still checked as a rule, so that its problems are told against a
    // rule's fields, not a variant's.
    let yaml: crate::yaml::Yaml = crate::yaml::from_file(&file).ok()?;
    if yaml.as_mapping().is_none() || yaml.get("deck").is_some() {
        return None;
    }
    Some(unolab_load::build::parse_spec(&file).unwrap_or_default())
}

pub(super) fn check(targets: &[String], rules: &[String], settings: &[(String, String)]) -> i32 {
    // A house rule named with -r that does not exist is bad usage, not a
    // check that failed.
    for rule in rules {
        if let Err(e) = ruleset::open_rule(&Disk, rule) {
            complain!("error: {e}");
            return BAD_INPUT;
        }
    }
    let mut code = SUCCESS;
    let mut told = Told::default();
    for target in targets {
        if let Some(spec) = rule_target(target) {
            // A house rule: on every built-in variant (what it says cannot
            // trigger somewhere is noted; the rest of it still can).
            for variant in builtin::variant_names() {
                if let Some((_, why)) = spec.inert_in.iter().find(|(name, _)| name.as_str() == variant) {
                    say!("note {target} on {variant}: {why}");
                }
                let mut with = vec![target.clone()];
                with.extend(rules.iter().cloned());
                let request = LoadRequest { variant: variant.to_string(), rules: with, settings: settings.to_vec() };
                code = code.max(check_one(&request, &format!("{target} on {variant}"), &mut told));
            }
            continue;
        }
        if let Err(e) = ruleset::open_variant(&Disk, target) {
            complain!("error: {e}");
            code = code.max(BAD_INPUT);
            continue;
        }
        let request = LoadRequest { variant: target.clone(), rules: rules.to_vec(), settings: settings.to_vec() };
        let label =
            std::iter::once(target.clone()).chain(rules.iter().map(|r| format!("+ {r}"))).collect::<Vec<_>>().join(" ");
        code = code.max(check_one(&request, &label, &mut told));
    }
    for (error, also) in &told.script_errors {
        if !also.is_empty() {
            complain!("the same {error} also in: {}", also.join("; "));
        }
    }
    code
}

/// What `check` has told: a problem of a file once, though a rule is
/// checked on every variant; a script error once (where in which script
/// it happened, `RuleFailure::place`), with the other checks and table
/// sizes it also happened in, told once at the end.
#[derive(Default)]
struct Told {
    problems: std::collections::HashSet<String>,
    script_errors: Vec<(String, Vec<String>)>,
}

/// Checks one ruleset: it loads, its scripts compile, and seeded bot games
/// at the smallest and largest table end. Every problem is printed, a
/// failing game with the command that shows it.
fn check_one(request: &LoadRequest, label: &str, told: &mut Told) -> i32 {
    let tell_once = |problems: Vec<String>, told: &mut Told| {
        let new: Vec<String> = problems.into_iter().filter(|p| told.problems.insert(p.clone())).collect();
        print_problems(&new);
        FAILED
    };
    let variant = match crate::loader::load(request) {
        Ok(variant) => Arc::new(variant),
        // Where the files load without the settings, the settings are at
        // fault: bad usage (an unknown option, a value of the wrong kind),
        // as in every command, not a check that failed.
        Err(problems)
            if !request.settings.is_empty()
                && crate::loader::load(&LoadRequest { settings: Vec::new(), ..request.clone() }).is_ok() =>
        {
            tell_once(problems, told);
            return BAD_INPUT;
        }
        Err(problems) => return tell_once(problems, told),
    };
    for warning in &variant.warnings {
        if told.problems.insert(warning.clone()) {
            complain!("warning: {warning}");
        }
    }
    if let Err(problems) = Runtime::new(variant.clone()) {
        return tell_once(problems, told);
    }
    let arguments = request.arguments();
    let mut failures = Vec::new();
    // Script errors met in an earlier check, told at the end.
    let mut told_later = 0;
    let sizes: Vec<usize> = variant.table_sizes().collect();
    let (smallest, largest) = (sizes.first().copied().unwrap_or(2), sizes.last().copied().unwrap_or(2));
    for players in if smallest == largest { vec![smallest] } else { vec![smallest, largest] } {
        // A check runs every script every time.
        let engine = sim::Engine { memo: false, ..sim::Engine::default() };
        let config = SimConfig { engine, ..SimConfig::new(variant.clone(), players, CHECK_GAMES / 2, 1) };
        match sim::run(&config, &sim::Progress::default()) {
            Ok(stats) => {
                // The same script error in several games is one problem:
                // its first game, and how many more.
                let mut seen: Vec<(&str, &sim::Failure, usize)> = Vec::new();
                for f in stats.failures.iter().chain(&stats.stuck) {
                    let problem = f.cause.as_ref().map_or(f.message.as_str(), |cause| cause.message());
                    match seen.iter_mut().find(|(p, _, _)| *p == problem) {
                        Some((_, _, more)) => *more += 1,
                        None => seen.push((problem, f, 0)),
                    }
                }
                for (_, f, more) in seen {
                    // Met in an earlier check: said once, at the end. Where
                    // the interpreter knew no line, the error's words tell
                    // errors of one function apart.
                    let place = f.cause.as_ref().and_then(|cause| {
                        let place = cause.place()?;
                        Some(match place.script {
                            Some(_) => format!("script error in {place}"),
                            None => cause.message().to_string(),
                        })
                    });
                    if let Some(place) = place {
                        match told.script_errors.iter_mut().find(|(known, _)| *known == place) {
                            Some((_, also)) => {
                                also.push(format!("{label}, {players} players"));
                                told_later += 1;
                                continue;
                            }
                            None => told.script_errors.push((place, Vec::new())),
                        }
                    }
                    let also = if more > 0 { format!(" (and {more} more games)") } else { String::new() };
                    failures.push(format!(
                        "{players} players, game {} (seed {:#x}){also}: {}; see it: {}",
                        f.index,
                        f.seed,
                        f.message,
                        sim::report::show_command(&config, &arguments, f.index)
                    ));
                }
            }
            Err(e) => failures.push(e.to_string()),
        }
    }
    if failures.is_empty() && told_later == 0 {
        say!(
            "ok {label}: {} cards, {} layer(s), {CHECK_GAMES} seeded games played to the end",
            variant.total_cards(),
            variant.layers.len()
        );
        SUCCESS
    } else {
        let failures: Vec<String> = failures.iter().map(|f| format!("{label}: {f}")).collect();
        print_problems(&failures);
        FAILED
    }
}
