//! The `unolab` command line (spec/cli.md): argument parsing with clap, one
//! function per subcommand, and the mapping of outcomes to exit codes:
//! 0 success, 1 a check, scenario or game that failed, 2 bad usage or input.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

use clap::{Args, Parser, Subcommand};
use serde_json::json;

use crate::bot::BotKind;
use crate::builtin;
use crate::game::Game;
use crate::limits;
use crate::loader::Disk;
use crate::repl::Session;
use crate::repl::input::{Piped, Terminal};
use crate::repl::record::Setup;
use crate::repl::render::Style;
use crate::ruleset::{self, LoadRequest};
use crate::scenario;
use crate::script::Runtime;
use crate::sim::{self, SimConfig};
use crate::variant::Variant;
use crate::variant::spec::LayerSpec;

/// Prints a line to standard output; a closed pipe (`| head`) is not an error.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// Prints a line to standard error; a closed pipe (`2>&1 | head`) is not
/// an error either.
macro_rules! complain {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

pub const SUCCESS: i32 = 0;
pub const FAILED: i32 = 1;
pub const BAD_INPUT: i32 = 2;

#[derive(Parser)]
#[command(
    name = "unolab",
    version,
    about = "A sandbox for the UNO family of card games: play, simulate and test variants and house rules."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Play against bots: seat 0 is you (reads commands from stdin without a terminal)
    Play(PlayArgs),
    /// List the built-in variants and house rules
    Variants,
    /// Show a variant's deck: every card with count and points
    Deck {
        #[command(flatten)]
        ruleset: Ruleset,
        /// Print one JSON object
        #[arg(long)]
        json: bool,
    },
    /// Validate variants: schema, deck, scripts, and a few seeded bot games
    Check {
        /// Built-in names or paths to variant YAML files, or house rules
        /// (names or files: checked on every built-in variant)
        #[arg(required = true, value_name = "VARIANT|PATH|RULE.yaml")]
        variants: Vec<String>,
        /// A house rule to check the variants with (built-in name or path); repeat for more
        #[arg(short = 'r', long = "rule", value_name = "RULE")]
        rules: Vec<String>,
        /// Set an option of the variant or a rule
        #[arg(long = "set", value_name = "KEY=VALUE", value_parser = parse_setting)]
        settings: Vec<(String, String)>,
    },
    /// Start a new variant or house rule: working files to edit
    New {
        #[command(subcommand)]
        what: NewWhat,
    },
    /// The rule sheet: what is in play, the table, and what each card does
    Rules {
        #[command(flatten)]
        ruleset: Ruleset,
    },
    /// Run scenario files and folders of them
    Scenario {
        /// Scenario files, and folders searched for them (*.yaml, *.yml)
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// Show the game log of each failing scenario (script prints included)
        #[arg(short, long)]
        verbose: bool,
    },
    /// Snapshot tests: play the seeded games that spec files
    /// (NAME.snapshots.yaml) list and compare their transcripts with the
    /// .snap files beside them
    Snapshot {
        /// Spec files, or folders to search for them
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// Make the new and changed transcripts the .snap files
        #[arg(long)]
        accept: bool,
    },
    /// Bot-vs-bot hands with statistics
    Sim(SimArgs),
    /// Add up the --json outputs of the shards of one run (sim --shard K/N)
    Merge {
        /// The shards' outputs (each of `sim --shard K/N --json`)
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Print the merged statistics as one JSON object
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum NewWhat {
    /// A variant: a copy of a built-in one with its scripts, and a scenario
    Variant {
        name: String,
        /// The built-in variant to start from (default: the default variant)
        #[arg(long)]
        from: Option<String>,
        /// Where to create the folder NAME/
        #[arg(long, default_value = ".")]
        dir: PathBuf,
    },
    /// A house rule: its YAML, a script and a scenario that passes
    Rule {
        name: String,
        /// Where to create the folder NAME/
        #[arg(long, default_value = ".")]
        dir: PathBuf,
    },
}

/// A variant with house rules and option settings.
#[derive(Args, Clone)]
struct Ruleset {
    /// Built-in variant name or path to a variant YAML (default: the built-in
    /// variant marked `default: true`)
    variant: Option<String>,
    /// A house rule (built-in name or path); repeat for more
    #[arg(short = 'r', long = "rule", value_name = "RULE")]
    rules: Vec<String>,
    /// Set an option of the variant or a rule, e.g. --set crossStack=true
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = parse_setting)]
    settings: Vec<(String, String)>,
}

fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let parsed = text.split_once('/').and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)));
    match parsed {
        Some((k, n)) if n > 0 && k < n => Ok((k, n)),
        _ => Err(format!("'{text}' is not K/N with 0 <= K < N (e.g. 0/4)")),
    }
}

fn parse_setting(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .filter(|(k, _)| !k.is_empty())
        .ok_or_else(|| format!("'{text}' is not KEY=VALUE"))
}

#[derive(Args)]
struct PlayArgs {
    #[command(flatten)]
    ruleset: Ruleset,
    /// Players at the table, you included
    #[arg(short, long, default_value_t = 4)]
    players: usize,
    /// Seed for every shuffle and bot choice (default: from the clock)
    #[arg(long)]
    seed: Option<u64>,
    #[arg(long, value_enum, default_value_t = BotKind::Random)]
    bot: BotKind,
    /// Mark every colour with a glyph, for colour-blind players
    #[arg(long)]
    glyphs: bool,
}

/// The REPL's `new [VARIANT] [-r RULE]... [-p N] [--seed S] [--bot KIND]`.
#[derive(Parser)]
#[command(name = "new", no_binary_name = true, disable_help_flag = true, disable_version_flag = true)]
struct NewArgs {
    #[command(flatten)]
    play: PlayArgs,
}

/// The setup a REPL `new` asks for: what is not given stays as in
/// `current` (a new seed unless one is given).
pub fn new_setup(current: &Setup, args: &[String]) -> Result<Setup, String> {
    let parsed = NewArgs::try_parse_from(args).map_err(|e| e.to_string())?.play;
    let given = |flag: &[&str]| {
        args.iter().any(|a| flag.contains(&a.as_str()) || flag.iter().any(|f| a.starts_with(&format!("{f}="))))
    };
    let mut setup = current.clone();
    if let Some(variant) = parsed.ruleset.variant {
        setup.request = LoadRequest { variant, rules: Vec::new(), settings: Vec::new() };
    }
    if given(&["-r", "--rule"]) {
        setup.request.rules = parsed.ruleset.rules;
        // Settings belong to the rules they were given with.
        setup.request.settings.clear();
    }
    if given(&["--set"]) {
        setup.request.settings = parsed.ruleset.settings;
    }
    if given(&["-p", "--players"]) {
        setup.players = parsed.players;
    }
    if given(&["--bot"]) {
        setup.bot = parsed.bot;
    }
    setup.seed = parsed.seed.unwrap_or_else(|| crate::sim::game_seed(current.seed, 1));
    Ok(setup)
}

#[derive(Args)]
struct SimArgs {
    #[command(flatten)]
    ruleset: Ruleset,
    /// Players at the table; a list (2,4) runs each and prints one table
    #[arg(short, long, value_delimiter = ',', default_value = "4")]
    players: Vec<usize>,
    /// Number of hands to play
    #[arg(short = 'n', long, default_value_t = 1000)]
    games: u64,
    /// The run's seed: the same seed and options play the same games on
    /// any machine and thread count
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The bots: one kind for every seat, or a list by seat (random,greedy,...)
    #[arg(long, value_enum, value_delimiter = ',', default_value = "random")]
    bot: Vec<BotKind>,
    /// Worker threads (results do not depend on it)
    #[arg(short = 'j', long, default_value_t = 1)]
    threads: usize,
    /// Print the statistics as one JSON object (for scripts, and for
    /// `unolab merge`)
    #[arg(long)]
    json: bool,
    /// Run every script every time instead of reusing the outcome of calls
    /// that read the same (the results are the same; this is for checking
    /// scripts and timing them)
    #[arg(long, alias = "no-effect-cache")]
    no_memo: bool,
    /// Print the transcript of game I of this run (same seed and options)
    #[arg(long, value_name = "I")]
    show: Option<u64>,
    /// Write a row per game to FILE (.csv, else JSON lines)
    #[arg(long, value_name = "FILE")]
    games_out: Option<PathBuf>,
    /// Draw a histogram of hand length and bars of wins by position to
    /// FILE.svg
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Play whole matches to the target score instead of single hands
    /// (-n counts matches): match wins by seat and hands per match
    #[arg(long)]
    matches: bool,
    /// Play only the games whose index is K modulo N (K from 0), so that N
    /// machines share a run; `unolab merge` adds their --json outputs up
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<(u64, u64)>,
    /// Compare with another configuration on the same seeds, e.g.
    /// --vs "-r stacking" or --vs "classic -p 3" (variant, players and bots
    /// default to this run's; rules and settings are only those given;
    /// quote a path with spaces as in a shell: --vs "-r 'my rules/a.yaml'")
    #[arg(long, value_name = "CONFIG", allow_hyphen_values = true)]
    vs: Option<String>,
}

/// Runs the command line; returns the exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { BAD_INPUT } else { SUCCESS };
            let _ = e.print();
            return code;
        }
    };
    let command = cli.command.unwrap_or(Command::Play(PlayArgs {
        ruleset: Ruleset { variant: None, rules: Vec::new(), settings: Vec::new() },
        players: 4,
        seed: None,
        bot: BotKind::Random,
        glyphs: false,
    }));
    match command {
        Command::Play(args) => play(args),
        Command::Variants => variants(),
        Command::Deck { ruleset, json } => deck(&ruleset, json),
        Command::Check { variants, rules, settings } => check(&variants, &rules, &settings),
        Command::New { what } => scaffold(what),
        Command::Rules { ruleset } => {
            let Ok(variant) = load(&ruleset) else { return BAD_INPUT };
            for line in variant.rule_sheet(None) {
                say!("{line}");
            }
            SUCCESS
        }
        Command::Scenario { paths, verbose } => scenarios(&paths, verbose),
        Command::Snapshot { paths, accept } => snapshots(&paths, accept),
        Command::Sim(args) => simulate(args),
        Command::Merge { files, json } => merge(&files, json),
    }
}

fn request_for(ruleset: &Ruleset) -> Result<LoadRequest, i32> {
    let Some(name) = ruleset.variant.clone().or_else(|| builtin::default_variant().map(String::from)) else {
        complain!("error: name a variant (no built-in variant is marked as the default)");
        return Err(BAD_INPUT);
    };
    Ok(LoadRequest { variant: name, rules: ruleset.rules.clone(), settings: ruleset.settings.clone() })
}

fn load(ruleset: &Ruleset) -> Result<Arc<Variant>, i32> {
    load_request(&request_for(ruleset)?)
}

/// Loads a ruleset, printing its warnings, or its problems.
fn load_request(request: &LoadRequest) -> Result<Arc<Variant>, i32> {
    match crate::loader::load(request) {
        Ok(v) => {
            for warning in &v.warnings {
                complain!("warning: {warning}");
            }
            Ok(Arc::new(v))
        }
        Err(problems) => {
            print_problems(&problems);
            Err(BAD_INPUT)
        }
    }
}

/// Prints problems on stderr, each with the source line it points at.
fn print_problems(problems: &[String]) {
    use std::io::IsTerminal;
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    for p in problems {
        complain!("error: {}", crate::diagnostic::render(p, &crate::loader::Disk, color));
    }
}

fn runtime(variant: &Arc<Variant>) -> Result<Runtime, i32> {
    Runtime::new(variant.clone()).map_err(|problems| {
        print_problems(&problems);
        BAD_INPUT
    })
}

fn play(args: PlayArgs) -> i32 {
    let Ok(request) = request_for(&args.ruleset) else { return BAD_INPUT };
    let Ok(variant) = load_request(&request) else { return BAD_INPUT };
    let Ok(runtime) = runtime(&variant) else { return BAD_INPUT };
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
    });
    let game = match Game::new(runtime, args.players, seed) {
        Ok(g) => g,
        Err(e) => {
            complain!("error: {e}");
            return BAD_INPUT;
        }
    };
    let setup = Setup { request, players: args.players, seed, bot: args.bot };
    let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let style = Style {
        color: terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        glyphs: args.glyphs,
        width: if terminal { crate::repl::render::terminal_width() } else { 80 },
    };
    let load = |request: &LoadRequest| {
        let variant = crate::loader::load(request)?;
        Ok(variant)
    };
    let mut session = Session::new(setup, game, style, &load);
    let mut out = std::io::stdout().lock();
    let result = if terminal {
        match Terminal::new(style.color) {
            Ok(mut input) => session.run(&mut input, &mut out),
            Err(e) => {
                complain!("error: {e}");
                return FAILED;
            }
        }
    } else {
        session.run(&mut Piped::new(std::io::stdin().lock()), &mut out)
    };
    match result {
        Ok(()) => SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => SUCCESS,
        Err(e) => {
            complain!("error: {e}");
            FAILED
        }
    }
}

fn variants() -> i32 {
    say!("variants:");
    // Descriptions come from the YAML alone; `unolab check` validates.
    for name in builtin::variant_names() {
        match builtin::spec(&format!("variants/{name}.yaml")) {
            Some(spec) => say!("  {name:<18} {}", spec.description),
            None => say!("  {name:<18} (does not load: run 'unolab check {name}')"),
        }
    }
    say!("house rules (-r NAME):");
    for name in builtin::rule_names() {
        let Some(spec) = builtin::spec(&format!("variants/rules/{name}.yaml")) else {
            say!("  {name:<18} (does not load)");
            continue;
        };
        say!("  {name:<18} {}", spec.description);
        let options: Vec<String> = spec.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        if !options.is_empty() {
            say!("  {:<18}   options: {}", "", options.join(", "));
        }
        for (variant, why) in &spec.inert_in {
            say!("  {:<18}   in {variant}: {why}", "");
        }
    }
    SUCCESS
}

fn deck(ruleset: &Ruleset, as_json: bool) -> i32 {
    let Ok(variant) = load(ruleset) else { return BAD_INPUT };
    let names = &variant.names;
    let mut cards = Vec::new();
    for (index, design) in variant.designs.iter().enumerate() {
        let points = if variant.double_sided {
            json!([names.points(&design.light), names.points(design.dark.as_ref().unwrap_or(&design.light))])
        } else {
            json!(names.points(&design.light))
        };
        cards.push(json!({"card": names.format_card(design), "count": variant.copies[index], "points": points}));
    }
    if variant.power_cards > 0 {
        cards.push(json!({"card": "power", "count": variant.power_cards, "points": 0}));
    }
    if as_json {
        let out = json!({"variant": variant.name, "total": variant.total_cards(), "cards": cards});
        say!("{out}");
        return SUCCESS;
    }
    for line in variant.summary() {
        say!("{line}");
    }
    say!("{} cards", variant.total_cards());
    for card in &cards {
        let points = match &card["points"] {
            serde_json::Value::Array(p) => format!("{} / {} points", p[0], p[1]),
            p if p.as_i64() == Some(1) => "1 point".to_string(),
            p => format!("{p} points"),
        };
        say!("  {:>3} x {:<40} {points}", card["count"], card["card"].as_str().unwrap_or_default());
    }
    say!("total {}", variant.total_cards());
    SUCCESS
}

/// Seeded bot games `check` plays per variant.
const CHECK_GAMES: u64 = 20;

/// Is `target` a house rule (a built-in rule's name, or a YAML file with
/// no table of its own), rather than a variant? Its spec, if it is.
fn rule_target(target: &str) -> Option<LayerSpec> {
    if builtin::variant_names().contains(&target) {
        return None;
    }
    if builtin::rule_names().contains(&target) {
        return builtin::spec(&format!("variants/rules/{target}.yaml"));
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
    Some(crate::variant::build::parse_spec(&file).unwrap_or_default())
}

fn check(targets: &[String], rules: &[String], settings: &[(String, String)]) -> i32 {
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
                if let Some(why) = spec.inert_in.get(variant) {
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
/// it happened, `script_error_place`), with the other checks and table
/// sizes it also happened in, told once at the end.
#[derive(Default)]
struct Told {
    problems: std::collections::HashSet<String>,
    script_errors: Vec<(String, Vec<String>)>,
}

/// Where a failure's script error happened, in words that do not depend
/// on the table (`script error in LAYER (HOOK FUNCTION): SCRIPT:LINE:COLUMN`),
/// if it is one.
fn script_error_place(message: &str) -> Option<String> {
    let error = &message[message.find("script error in ")?..];
    let mut parts = error.splitn(3, ": ");
    Some(format!("{}: {}", parts.next()?, parts.next()?))
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
        let config = SimConfig { memo: false, ..SimConfig::new(variant.clone(), players, CHECK_GAMES / 2, 1) };
        match sim::run(&config, &sim::Progress::default()) {
            Ok(stats) => {
                // The same script error in several games is one problem:
                // its first game, and how many more.
                let mut seen: Vec<(&str, &sim::Failure, usize)> = Vec::new();
                for f in stats.failures.iter().chain(&stats.stuck) {
                    let problem = f.message.find("script error").map_or(f.message.as_str(), |at| &f.message[at..]);
                    match seen.iter_mut().find(|(p, _, _)| *p == problem) {
                        Some((_, _, more)) => *more += 1,
                        None => seen.push((problem, f, 0)),
                    }
                }
                for (_, f, more) in seen {
                    // Met in an earlier check: said once, at the end.
                    if let Some(place) = script_error_place(&f.message) {
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
            Err(e) => failures.push(e),
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

fn scenarios(paths: &[PathBuf], verbose: bool) -> i32 {
    let (files, skipped) = match scenario::collect(paths) {
        Ok(found) => found,
        Err(e) => {
            complain!("error: {e}");
            return BAD_INPUT;
        }
    };
    // Skipped files are said aside: the report is a line per scenario.
    for line in &skipped {
        complain!("{line}");
    }
    if files.is_empty() {
        let skipped =
            if skipped.is_empty() { String::new() } else { format!(" ({} other YAML files skipped)", skipped.len()) };
        complain!("error: no scenario file (*.yaml, *.yml) in the paths given{skipped}");
        return BAD_INPUT;
    }
    let report = scenario::run_files(&files, verbose);
    say!("{}", report.text.trim_end());
    if report.bad_input > 0 {
        BAD_INPUT
    } else if report.failed > 0 {
        FAILED
    } else {
        SUCCESS
    }
}

fn snapshots(paths: &[PathBuf], accept: bool) -> i32 {
    let files = match crate::snapshot::collect(paths) {
        Ok(files) if files.is_empty() => {
            complain!("error: no snapshot spec (a file named NAME{}) in the paths given", crate::snapshot::SPEC_SUFFIX);
            return BAD_INPUT;
        }
        Ok(files) => files,
        Err(e) => {
            complain!("error: {e}");
            return BAD_INPUT;
        }
    };
    let mode = if accept { crate::snapshot::Mode::Accept } else { crate::snapshot::Mode::Review };
    let report = crate::snapshot::run_files(&files, mode);
    say!("{}", report.text.trim_end());
    if report.bad_input > 0 {
        BAD_INPUT
    } else if report.clean(mode) {
        SUCCESS
    } else {
        FAILED
    }
}

/// A configuration to compare with (`sim --vs "-r seven-o -p 3"`): the
/// variant, players and bots default to the main run's; rules and settings
/// are only those given.
#[derive(Parser)]
#[command(name = "--vs", no_binary_name = true, disable_help_flag = true, disable_version_flag = true)]
struct VsArgs {
    #[command(flatten)]
    ruleset: Ruleset,
    #[arg(short, long)]
    players: Option<usize>,
    #[arg(long, value_enum, value_delimiter = ',')]
    bot: Vec<BotKind>,
}

/// The simulation of `ruleset` with `players`, checked.
fn sim_config(args: &SimArgs, request: &LoadRequest, players: usize, bots: &[BotKind]) -> Result<SimConfig, i32> {
    let variant = load_request(request)?;
    if let Err(e) = variant.seats(players) {
        complain!("error: {e}");
        return Err(BAD_INPUT);
    }
    Ok(SimConfig {
        variant,
        players,
        games: args.games,
        seed: args.seed,
        bots: bots.to_vec(),
        threads: args.threads,
        memo: !args.no_memo,
        rows: args.games_out.is_some() || args.vs.is_some(),
        shard: args.shard.unwrap_or((0, 1)),
        matches: args.matches,
    })
}

/// Runs `config`, showing progress in `bar` (its position advanced by the
/// games done) and stopping early when `progress` is told to.
fn run_shown(
    config: &SimConfig,
    progress: &sim::Progress,
    bar: Option<&indicatif::ProgressBar>,
) -> Result<sim::SimStats, String> {
    let base = bar.map_or(0, indicatif::ProgressBar::position);
    progress.done.store(0, std::sync::atomic::Ordering::Relaxed);
    let finished = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        if let Some(bar) = bar {
            let finished = &finished;
            scope.spawn(move || {
                while !finished.load(std::sync::atomic::Ordering::Relaxed) {
                    bar.set_position(base + progress.done.load(std::sync::atomic::Ordering::Relaxed));
                    std::thread::sleep(std::time::Duration::from_millis(100));
                }
            });
        }
        let stats = sim::run(config, progress);
        finished.store(true, std::sync::atomic::Ordering::Relaxed);
        stats
    })
}

fn simulate(args: SimArgs) -> i32 {
    if !(1..=limits::SIM_THREADS).contains(&args.threads) {
        complain!("error: -j takes 1 to {} threads, not {}", limits::SIM_THREADS, args.threads);
        return BAD_INPUT;
    }
    if !(1..=limits::SIM_GAMES).contains(&args.games) {
        complain!("error: -n takes 1 to {} games, not {}", limits::SIM_GAMES, args.games);
        return BAD_INPUT;
    }
    if args.show.is_some() && (args.json || args.vs.is_some()) {
        complain!("error: --show prints one game's transcript: it does not combine with --json or --vs");
        return BAD_INPUT;
    }
    if let Some(index) = args.show.filter(|&index| index >= args.games) {
        complain!("error: --show {index}: the run plays games 0 to {} (-n {})", args.games - 1, args.games);
        return BAD_INPUT;
    }
    if let Some(twice) = crate::source::first_repeat(&args.players) {
        complain!("error: -p lists {twice} twice");
        return BAD_INPUT;
    }
    let sweep = args.players.len() > 1 || args.ruleset.settings.iter().any(|(_, values)| values.contains(','));
    if args.matches && (args.vs.is_some() || args.games_out.is_some() || args.show.is_some()) {
        complain!("error: --matches does not combine with --vs, --games-out or --show yet");
        return BAD_INPUT;
    }
    if sweep && (args.games_out.is_some() || args.show.is_some() || args.plot.is_some()) {
        complain!("error: --games-out, --plot and --show take one player count, not a list");
        return BAD_INPUT;
    }
    for (option, path) in [("--games-out", &args.games_out), ("--plot", &args.plot)] {
        if let Some(Err(e)) = path.as_deref().map(|path| check_output(option, path)) {
            complain!("error: {e}");
            return BAD_INPUT;
        }
    }
    let versus = match &args.vs {
        Some(spec) => match shell_words::split(spec)
            .map_err(|e| format!("{e} (quote a path with spaces as in a shell: 'my rules/house.yaml')"))
            .and_then(|words| VsArgs::try_parse_from(words).map_err(|e| e.to_string()))
        {
            Ok(mut vs) => {
                if vs.ruleset.variant.is_none() {
                    vs.ruleset.variant = args.ruleset.variant.clone();
                }
                Some(vs)
            }
            Err(e) => {
                // Clap's first line, without its "error: ", its tips and
                // usage (written for a command line, not for --vs), and
                // what --vs takes.
                let e = e.to_string();
                let e = e.strip_prefix("error: ").unwrap_or(&e);
                let e = e.lines().next().unwrap_or(e).trim_end();
                complain!(
                    "error: --vs \"{spec}\": {e}\n  (--vs takes a variant, -r RULE, --set K=V, -p N and --bot KIND)"
                );
                return BAD_INPUT;
            }
        },
        None => None,
    };
    // A setting with a list of values (`--set crossStack=true,false`) is
    // swept like a list of player counts: every combination is a run.
    let mut combos: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for (name, values) in &args.ruleset.settings {
        combos = combos
            .into_iter()
            .flat_map(|combo| {
                values.split(',').map(move |value| {
                    let mut combo = combo.clone();
                    combo.push((name.clone(), value.trim().to_string()));
                    combo
                })
            })
            .collect();
    }
    let swept: Vec<&String> =
        args.ruleset.settings.iter().filter(|(_, values)| values.contains(',')).map(|(name, _)| name).collect();
    let mut plans = Vec::new();
    let mut labels = Vec::new();
    let mut arguments = Vec::new();
    for (combo, &players) in combos.iter().flat_map(|c| args.players.iter().map(move |p| (c, p))) {
        let ruleset = Ruleset { settings: combo.clone(), ..args.ruleset.clone() };
        let label: Vec<String> = combo
            .iter()
            .filter(|(name, _)| swept.contains(&name))
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        labels.push(label.join(", "));
        let Ok(request) = request_for(&ruleset) else { return BAD_INPUT };
        arguments.push(request.arguments());
        let Ok(config) = sim_config(&args, &request, players, &args.bot) else { return BAD_INPUT };
        let other = match &versus {
            Some(vs) => {
                let players = vs.players.unwrap_or(players);
                let bots = if vs.bot.is_empty() { &args.bot } else { &vs.bot };
                let Ok(other) = request_for(&vs.ruleset).and_then(|request| sim_config(&args, &request, players, bots))
                else {
                    complain!("  (in --vs \"{}\")", args.vs.as_deref().unwrap_or_default());
                    return BAD_INPUT;
                };
                Some(other)
            }
            None => None,
        };
        plans.push((config, other));
    }
    // A list of bots repeats at a larger table; one longer than every
    // table of the run would be cut everywhere.
    let main_seats = plans.iter().map(|(config, _)| config.players).max().unwrap_or(0);
    let vs_seats = plans.iter().filter_map(|(_, other)| other.as_ref().map(|o| o.players)).max().unwrap_or(0);
    let vs_bots = versus.as_ref().map_or(0, |vs| vs.bot.len());
    for (bots, seats, whose) in [(args.bot.len(), main_seats, "--bot"), (vs_bots, vs_seats, "--vs's --bot")] {
        if bots > seats.max(1) {
            complain!(
                "error: {whose} names {bots} bots, more than the {seats} seats of the largest table (a shorter list repeats)"
            );
            return BAD_INPUT;
        }
    }
    if let Some(index) = args.show {
        return match sim::show(&plans[0].0, index) {
            // A game that failed or got stuck is shown, and is a game
            // that failed (1).
            Ok(shown) => {
                say!("{}", shown.text.trim_end());
                if shown.ended { SUCCESS } else { FAILED }
            }
            Err(e) => {
                complain!("error: {e}");
                BAD_INPUT
            }
        };
    }
    let progress = Arc::new(sim::Progress::default());
    let watcher = Arc::clone(&progress);
    // Ctrl-C stops the run; what was gathered is reported, marked partial.
    // (A second handler cannot be installed; then Ctrl-C simply ends.)
    let _ = ctrlc::set_handler(move || watcher.stop.store(true, std::sync::atomic::Ordering::Relaxed));
    let runs = plans.len() as u64 * if versus.is_some() { 2 } else { 1 };
    let bar = progress_bar(args.games * runs);
    let mut results: Vec<(sim::SimStats, Option<sim::SimStats>)> = Vec::new();
    let mut done = 0;
    for (config, other) in &plans {
        let mut run = |config: &SimConfig| {
            let stats = run_shown(config, &progress, bar.as_ref());
            done += args.games;
            if let Some(bar) = &bar {
                bar.set_position(done);
            }
            stats
        };
        let stats = run(config).and_then(|a| Ok((a, other.as_ref().map(&mut run).transpose()?)));
        match stats {
            Ok(pair) => results.push(pair),
            Err(e) => {
                complain!("error: {e}");
                return BAD_INPUT;
            }
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let mut texts = Vec::new();
    let mut objects = Vec::new();
    for (((config, other), (stats, versus)), arguments) in plans.iter().zip(&results).zip(&arguments) {
        match (other, versus) {
            (Some(other), Some(versus)) => {
                texts.push(sim::report::compare_text((config, stats), (other, versus)));
                let paired: Vec<_> = sim::report::paired(stats, versus)
                    .iter()
                    .map(|p| {
                        json!({"figure": p.name, "a": p.a, "b": p.b, "difference": p.difference.mean,
                               "low": p.difference.low, "high": p.difference.high, "significant": p.significant()})
                    })
                    .collect();
                objects.push(json!({
                    "a": sim::report::json(config, stats),
                    "b": sim::report::json(other, versus),
                    "paired": paired,
                }));
            }
            _ => {
                texts.push(sim::report::text(config, stats, arguments));
                objects.push(sim::report::json(config, stats));
            }
        }
    }
    if args.json {
        match objects.len() {
            1 => say!("{}", objects[0]),
            _ => say!("{}", serde_json::Value::Array(objects)),
        }
    } else if sweep && versus.is_none() {
        let runs: Vec<(&str, &SimConfig, &sim::SimStats)> =
            plans.iter().zip(&results).zip(&labels).map(|(((c, _), (s, _)), l)| (l.as_str(), c, s)).collect();
        say!("{}", sim::report::sweep_table(&runs).trim_end());
    } else {
        say!("{}", texts.join("\n").trim_end());
    }
    // The files come after the report: a file that cannot be written
    // loses nothing of the run.
    if let Some(path) = &args.games_out {
        let csv = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("csv"));
        if let Err(e) = std::fs::write(path, sim::report::rows(&results[0].0.rows, csv)) {
            complain!("error: {}: {e}", path.display());
            return BAD_INPUT;
        }
    }
    if let Some(path) = &args.plot {
        let (config, stats) = (&plans[0].0, &results[0].0);
        let title = format!(
            "{}, {} players, {} hands, seed {}",
            config.variant.title(),
            config.players,
            stats.games,
            config.seed
        );
        if let Err(e) = sim::plot::svg(stats, &title, path) {
            complain!("error: {e}");
            return BAD_INPUT;
        }
    }
    let failed = results
        .iter()
        .flat_map(|(a, b)| std::iter::once(a).chain(b))
        .any(|s| !s.failures.is_empty() || !s.stuck.is_empty());
    if failed { FAILED } else { SUCCESS }
}

/// A file a run is to write, checked before the run: its folder exists.
fn check_output(option: &str, path: &std::path::Path) -> Result<(), String> {
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    if path.is_dir() {
        return Err(format!("{option} {}: that is a folder; name a file", path.display()));
    }
    if !folder.is_dir() {
        return Err(format!("{option} {}: there is no folder {}", path.display(), folder.display()));
    }
    Ok(())
}

/// A progress bar with rate and ETA on stderr, when it is a terminal.
fn progress_bar(games: u64) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(games);
    let style = indicatif::ProgressStyle::with_template(
        "{bar:40} {pos}/{len} hands, {rate}, ETA {eta} (Ctrl-C: stop and report)",
    )
    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
    .with_key("rate", |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
        let _ = write!(w, "{:.0} hands/s", state.per_sec());
    });
    bar.set_style(style);
    Some(bar)
}

/// The fields that say which run a shard belongs to.
const RUN_FIELDS: [&str; 7] = ["variant", "rules", "options", "players", "seed", "bot", "run_games"];

/// `unolab merge`: the shards of one run added up, reported as the single
/// run would be.
fn merge(files: &[PathBuf], as_json: bool) -> i32 {
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
    let bots: Vec<BotKind> = string(&first["bot"])
        .split(',')
        .map(|b| <BotKind as clap::ValueEnum>::from_str(b, true).unwrap_or(BotKind::Random))
        .collect();
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

/// `unolab new`: writes the starting files, never over existing ones.
fn scaffold(what: NewWhat) -> i32 {
    let from = match &what {
        NewWhat::Variant { from: Some(from), .. } => from.clone(),
        _ => builtin::default_variant().unwrap_or_default().to_string(),
    };
    if !builtin::variant_names().contains(&from.as_str()) {
        complain!("error: --from takes a built-in variant ({}), not '{from}'", builtin::variant_names().join(", "));
        return BAD_INPUT;
    }
    let ruleset = Ruleset { variant: Some(from.clone()), rules: Vec::new(), settings: Vec::new() };
    let Ok(variant) = load(&ruleset) else { return BAD_INPUT };
    let (files, rule) = match &what {
        NewWhat::Rule { name, dir } => (crate::scaffold::rule(dir, name, &variant, &from), true),
        NewWhat::Variant { name, dir, .. } => (crate::scaffold::variant(dir, name, &variant, &from), false),
    };
    let files = match files {
        Ok(files) => files,
        Err(e) => {
            complain!("error: {e}");
            return BAD_INPUT;
        }
    };
    if let Some(existing) = files.iter().find(|f| f.path.exists()) {
        complain!("error: {} exists already; nothing was written", existing.path.display());
        return BAD_INPUT;
    }
    for file in &files {
        let written = file
            .path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&file.path, &file.text));
        if let Err(e) = written {
            complain!("error: {}: {e}", file.path.display());
            return BAD_INPUT;
        }
        say!("created {}", file.path.display());
    }
    say!("{}", crate::scaffold::next_steps(&files, rule));
    let (name, builtins) = match &what {
        NewWhat::Rule { name, .. } => (name, builtin::rule_names()),
        NewWhat::Variant { name, .. } => (name, builtin::variant_names()),
    };
    if builtins.contains(&name.as_str()) {
        if rule {
            complain!(
                "warning: a built-in house rule is also named '{name}': the two cannot be used together (layers are told apart by name; 'name:' in its YAML renames yours)"
            );
        } else {
            complain!(
                "warning: a built-in variant is also named '{name}': name yours by its path (a bare name is the built-in one)"
            );
        }
    }
    SUCCESS
}
