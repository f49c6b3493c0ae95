//! `unolab sim`: bot-vs-bot hands with statistics, a comparison on the
//! same seeds (`--vs`), sweeps of player counts and option values, one
//! game's transcript (`--show`), rows per game and plots.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

use clap::{Args, Parser};

use super::{BAD_INPUT, FAILED, STOPPED, SUCCESS, Schema, load_request, request_for};
use crate::args::Ruleset;
use crate::bot::BotKind;
use crate::limits;
use crate::output;
use crate::ruleset::LoadRequest;
use crate::sim::{self, SimConfig};

#[derive(Args)]
pub(super) struct SimArgs {
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
    #[arg(long, value_parser = crate::args::bot_kind(), value_delimiter = ',', default_value = "random")]
    bot: Vec<BotKind>,
    /// Worker threads (results do not depend on it)
    #[arg(short = 'j', long, default_value_t = 1)]
    threads: usize,
    /// Print the statistics as one JSON object (for scripts, and for
    /// `unolab merge`)
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    schema: Schema,
    /// Run every script every time instead of reusing the outcome of calls
    /// that read the same (the results are the same; this is for checking
    /// scripts and timing them)
    #[arg(long, alias = "no-effect-cache")]
    no_memo: bool,
    /// Print the transcript of game I of this run (same seed and options)
    #[arg(long, value_name = "I")]
    show: Option<u64>,
    /// With --show: the hook calls among the events (arguments, memo or
    /// script, what they read and changed), every hand seen
    #[arg(long)]
    trace: bool,
    /// Write a row per game to FILE (.csv, else JSON lines)
    #[arg(long, value_name = "FILE")]
    games_out: Option<PathBuf>,
    /// Draw a histogram of hand length and bars of wins by position to
    /// FILE.svg: a panel per configuration of a sweep, A and B together
    /// with --vs (and their paired differences)
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Play whole matches to the target score instead of single hands
    /// (-n counts matches): match wins by seat and hands per match
    #[arg(long)]
    matches: bool,
    /// Play only the games whose index is K modulo N (K from 0), so that N
    /// machines share a run; `unolab merge` adds their outputs up (write
    /// them with --json --schema 2: a shard may hold 4 MB)
    #[arg(long, value_name = "K/N", value_parser = sim::parse_shard)]
    shard: Option<(u64, u64)>,
    /// Compare with another configuration on the same seeds, e.g.
    /// --vs "-r stacking" or --vs "classic -p 3" (variant, players and bots
    /// default to this run's; rules and settings are only those given;
    /// quote a path with spaces as in a shell: --vs "-r 'my rules/a.yaml'")
    #[arg(long, value_name = "CONFIG", allow_hyphen_values = true)]
    vs: Option<String>,
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
    #[arg(long, value_parser = crate::args::bot_kind(), value_delimiter = ',')]
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
        engine: sim::Engine { memo: !args.no_memo, ..sim::Engine::default() },
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
) -> Result<sim::SimStats, sim::RunError> {
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

pub(super) fn simulate(args: SimArgs) -> i32 {
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
    if args.trace && args.show.is_none() {
        complain!("error: --trace shows the hook calls of one game: it needs --show I (the game's index)");
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
    if sweep && (args.games_out.is_some() || args.show.is_some()) {
        complain!("error: --games-out and --show take one player count, not a list");
        return BAD_INPUT;
    }
    if let Some(path) = &args.plot
        && path.extension().is_some_and(|e| !e.eq_ignore_ascii_case("svg"))
    {
        complain!("error: --plot {}: the plot is drawn as SVG: name the file .svg", path.display());
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
        return match sim::show(&plans[0].0, index, args.trace) {
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
    // Ctrl-C stops the run; what was gathered is reported, marked partial,
    // and the files are written. So do SIGTERM (a batch system's, `kill`'s)
    // and SIGHUP (the terminal closed). (A second handler cannot be
    // installed; then Ctrl-C simply ends.)
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
            // The clock stopped a hook: no figures (a rule's failure would
            // be one of them), and not bad input either.
            Err(e @ sim::RunError::Clock(_)) => {
                complain!("error: {e}");
                return FAILED;
            }
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
    let mut runs = Vec::new();
    let mut comparisons = Vec::new();
    for ((((config, other), (stats, versus)), arguments), label) in
        plans.iter().zip(&results).zip(&arguments).zip(&labels)
    {
        let a = runs.len();
        runs.push(sim::json::run(config, stats, label));
        match (other, versus) {
            (Some(other), Some(versus)) => {
                texts.push(sim::report::compare_text((config, stats), (other, versus)));
                runs.push(sim::json::run(other, versus, label));
                let figures = sim::report::paired((config, stats), (other, versus));
                let games = sim::report::both_finished_count(stats, versus);
                comparisons.push(sim::json::comparison(a, a + 1, games, &figures));
            }
            _ => texts.push(sim::report::text(config, stats, arguments)),
        }
    }
    if args.json {
        let kind = match (sweep, versus.is_some()) {
            (false, false) => "run",
            (true, false) => "sweep",
            (false, true) => "comparison",
            (true, true) => "sweep_comparison",
        };
        let bytes = args.schema.print_json(sim::json::document(kind, runs, comparisons));
        // Said now, not when the shards are merged.
        if args.shard.is_some() && bytes > limits::FILE_BYTES {
            complain!("warning: this shard's JSON is {}", sim::json::shard_too_large(bytes));
        }
    } else if sweep && versus.is_none() {
        let runs: Vec<(&str, &SimConfig, &sim::SimStats)> =
            plans.iter().zip(&results).zip(&labels).map(|(((c, _), (s, _)), l)| (l.as_str(), c, s)).collect();
        say!("{}", sim::report::sweep_table(&runs).trim_end());
    } else {
        say!("{}", texts.join("\n").trim_end());
    }
    // The files come after the report: a file that cannot be written
    // loses nothing of the run. Each is written whole or not at all: a
    // file there already is replaced only by a complete one.
    if let Some(path) = &args.games_out {
        let csv = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("csv"));
        // The line naming the run is schema 2's (a reader of the rows as
        // they were finds the columns' names first).
        let meta = args.schema.alone().then(|| sim::json::meta(&plans[0].0, &arguments[0]));
        let rows = sim::report::rows(meta.as_ref(), &results[0].0.rows, csv);
        if let Err(e) = output::write(path, output::USER_FILE, rows.as_bytes()) {
            complain!("error: --games-out {e}");
            return BAD_INPUT;
        }
    }
    if let Some(path) = &args.plot {
        let describe = |config: &SimConfig, label: &str| {
            let label = if label.is_empty() { String::new() } else { format!(" [{label}]") };
            format!("{}, {} players{label}", config.variant.title(), config.players)
        };
        let panels: Vec<sim::plot::Panel> = plans
            .iter()
            .zip(&results)
            .zip(&labels)
            .map(|(((config, other), (stats, versus)), label)| sim::plot::Panel {
                title: match other {
                    Some(other) => format!("A: {}   B: {}", describe(config, label), describe(other, label)),
                    None => describe(config, label),
                },
                a: (config, stats),
                b: other.as_ref().zip(versus.as_ref()),
            })
            .collect();
        let (config, stats) = (&plans[0].0, &results[0].0);
        let title = if panels.len() == 1 && versus.is_none() {
            format!("{}, {} hands, seed {}", describe(config, ""), stats.games, config.seed)
        } else {
            format!("{} hands each, seed {}", stats.games, config.seed)
        };
        let written = sim::plot::svg(&title, &panels)
            .map_err(|e| format!("{}: {e}", path.display()))
            .and_then(|svg| output::write(path, output::USER_FILE, svg.as_bytes()));
        if let Err(e) = written {
            complain!("error: --plot {e}");
            return BAD_INPUT;
        }
    }
    let failed = results
        .iter()
        .flat_map(|(a, b)| std::iter::once(a).chain(b))
        .any(|s| !s.failures.is_empty() || !s.stuck.is_empty());
    // Stopped by Ctrl-C (or SIGTERM, SIGHUP): the partial report is out
    // and the files written; the exit status says it was cut short, as a
    // shell's 128 + SIGINT.
    if progress.stop.load(std::sync::atomic::Ordering::Relaxed) {
        STOPPED
    } else if failed {
        FAILED
    } else {
        SUCCESS
    }
}

/// A file a run is to write, checked before the run: a regular file or
/// none (not a folder, a pipe or a device), in a folder that exists.
fn check_output(option: &str, path: &std::path::Path) -> Result<(), String> {
    let target = output::destination(path, output::USER_FILE).map_err(|e| format!("{option} {e}"))?;
    let folder = target.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
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
