//! The `unolab` command line (spec/cli.md): argument parsing with clap, one
//! function per subcommand, and the mapping of outcomes to exit codes:
//! 0 success, 1 a check, scenario or game that failed, 2 bad usage or input.
//! Each command lives in a module of its own; the argument groups the
//! REPL shares are in `crate::args`.

use std::sync::Arc;

use clap::{Parser, Subcommand};

use crate::args::{PlayArgs, Ruleset};
use crate::ruleset::LoadRequest;
use crate::script::Runtime;
use crate::variant::Variant;

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
/// A run stopped by Ctrl-C (SIGINT), SIGTERM or SIGHUP, its partial report
/// printed: 128 + SIGINT, as a shell says.
pub const STOPPED: i32 = 130;

/// `--schema VERSION`: the shape of `--json`, and whether `--games-out`
/// starts with a line naming the run.
#[derive(clap::Args, Clone, Copy, Debug)]
pub(crate) struct Schema {
    /// 2: --json prints schema 2 alone (docs/sim.schema.json) and
    /// --games-out starts with a line naming the run; without it --json
    /// keeps schema 1's deprecated keys beside schema 2 (a sweep: schema
    /// 1's list), with a warning
    #[arg(long = "schema", value_name = "VERSION", value_parser = clap::value_parser!(u64).range(2..=2))]
    version: Option<u64>,
}

impl Schema {
    /// Schema 2 alone, as asked.
    fn alone(self) -> bool {
        self.version.is_some()
    }

    /// Prints a `--json` output: schema 2 alone, or with schema 1 kept
    /// beside it and the warning that says so. Returns the bytes printed.
    fn print_json(self, document: serde_json::Value) -> u64 {
        let text = if self.alone() {
            document.to_string()
        } else {
            complain!("{}", crate::sim::json::SCHEMA_1_WARNING);
            crate::sim::json::with_schema_1(document).to_string()
        };
        say!("{text}");
        text.len() as u64 + 1
    }
}

/// Every exit code and what it means (the manual page's EXIT STATUS).
const EXIT_CODES: [(i32, &str); 4] = [
    (SUCCESS, "success"),
    (FAILED, "a check, scenario, snapshot or game that failed"),
    (BAD_INPUT, "bad usage or unreadable input, named with its file, line and column where there is one"),
    (STOPPED, "a simulation stopped by Ctrl-C, SIGTERM or SIGHUP, after its partial report"),
];

mod check;
mod info;
mod merge;
mod net;
mod new;
mod play;
mod shell;
mod sim;
mod tests;

#[derive(Parser)]
#[command(
    name = "unolab",
    version,
    about = "A sandbox for the UNO family of card games: play, simulate and test variants and house rules."
)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// With no command, `play`'s: `unolab --seed 3 -p 2` is `unolab play --seed 3 -p 2`.
    #[command(flatten)]
    play: PlayArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Play against bots: seat 0 is you (reads commands from stdin without a terminal)
    Play(PlayArgs),
    /// Host a match that people join from their own terminals (bots take the other seats)
    Host(net::HostArgs),
    /// Join a hosted match: the REPL of `play`, for your seat
    Join(net::JoinArgs),
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
        #[arg(long = "set", value_name = "KEY=VALUE", value_parser = crate::args::parse_setting)]
        settings: Vec<(String, String)>,
    },
    /// Start a new variant or house rule: working files to edit
    New {
        #[command(subcommand)]
        what: new::NewWhat,
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
        paths: Vec<std::path::PathBuf>,
        /// Show the game log of each failing scenario (script prints included)
        #[arg(short, long)]
        verbose: bool,
        /// Show every scenario's steps, each with the hook calls it made
        /// (arguments, memo or script, what they read and changed) among
        /// the events they led to
        #[arg(long)]
        trace: bool,
    },
    /// Snapshot tests: play the seeded games that spec files
    /// (NAME.snapshots.yaml) list and compare their transcripts with the
    /// .snap files beside them
    Snapshot {
        /// Spec files, or folders to search for them
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<std::path::PathBuf>,
        /// Make the new and changed transcripts the .snap files
        #[arg(long)]
        accept: bool,
    },
    /// Bot-vs-bot hands with statistics
    Sim(sim::SimArgs),
    /// Add up the --json outputs of the shards of one run (sim --shard K/N)
    // Merge writes no --games-out: its --schema says what it does here.
    #[command(mut_arg("version", |arg| arg.help(
        "2: --json prints schema 2 alone (docs/sim.schema.json); without it --json keeps schema 1's \
         deprecated keys beside schema 2, with a warning"
    )))]
    Merge {
        /// The shards' outputs (each of `sim --shard K/N --json --schema 2`)
        #[arg(required = true, value_name = "FILE")]
        files: Vec<std::path::PathBuf>,
        /// Print the merged statistics as one JSON object
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        schema: Schema,
    },
    /// Print a shell's completion script (e.g. `unolab completions bash > ~/.local/share/bash-completion/completions/unolab`)
    Completions {
        /// The shell to complete in
        shell: clap_complete::Shell,
    },
    /// Print the manual page as roff (`unolab man | man -l -`), or the page of one command (`unolab man sim`)
    Man {
        /// The command whose page to print
        #[arg(value_name = "COMMAND")]
        page: Option<String>,
    },
}

/// The command of `cli` that `word`, given where a command or a variant
/// to play may stand (`unolab WORD`), is likely a misspelling of: none for
/// a command, a built-in variant or what reads as a path.
fn mistyped_command<'c>(cli: &'c clap::Command, word: &str) -> Option<&'c str> {
    let path = word.contains('/') || word.ends_with(".yaml") || word.ends_with(".yml");
    if word.starts_with('-') || path || crate::builtin::variant_names().contains(&word) {
        return None;
    }
    let names: Vec<&str> = cli.get_subcommands().map(clap::Command::get_name).chain(["help"]).collect();
    if names.contains(&word) || std::path::Path::new(word).exists() {
        return None;
    }
    crate::source::closest(word, names)
}

/// Runs the command line; returns the exit code.
pub fn main() -> i32 {
    let command = <Cli as clap::CommandFactory>::command();
    // `unolab WORD` plays the variant WORD; a word that is no variant but
    // close to a command's name is that command mistyped.
    let first = std::env::args_os().nth(1);
    if let Some(word) = first.as_ref().and_then(|w| w.to_str())
        && let Some(name) = mistyped_command(&command, word)
    {
        complain!(
            "error: unknown command '{word}'; did you mean '{name}'? (a variant to play is a built-in name or a \
             path to a YAML file; 'unolab --help' lists the commands)"
        );
        return BAD_INPUT;
    }
    let parsed =
        command.try_get_matches().and_then(|matches| <Cli as clap::FromArgMatches>::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { BAD_INPUT } else { SUCCESS };
            let _ = e.print();
            return code;
        }
    };
    let command = cli.command.unwrap_or(Command::Play(cli.play));
    match command {
        Command::Play(args) => play::play(args),
        Command::Host(args) => net::run_host(args),
        Command::Join(args) => net::run_join(args),
        Command::Variants => info::variants(),
        Command::Deck { ruleset, json } => info::deck(&ruleset, json),
        Command::Check { variants, rules, settings } => check::check(&variants, &rules, &settings),
        Command::New { what } => new::scaffold(what),
        Command::Rules { ruleset } => info::rules(&ruleset),
        Command::Scenario { paths, verbose, trace } => tests::scenarios(&paths, verbose, trace),
        Command::Snapshot { paths, accept } => tests::snapshots(&paths, accept),
        Command::Sim(args) => sim::simulate(args),
        Command::Merge { files, json, schema } => merge::merge(&files, json, schema),
        Command::Completions { shell } => shell::completions(shell),
        Command::Man { page } => shell::manual(page.as_deref()),
    }
}

pub(crate) fn request_for(ruleset: &Ruleset) -> Result<LoadRequest, i32> {
    let Some(name) = ruleset.variant.clone().or_else(|| crate::ruleset::default_variant().map(String::from)) else {
        complain!("error: name a variant (no built-in variant is marked as the default)");
        return Err(BAD_INPUT);
    };
    Ok(LoadRequest { variant: name, rules: ruleset.rules.clone(), settings: ruleset.settings.clone() })
}

pub(crate) fn load(ruleset: &Ruleset) -> Result<Arc<Variant>, i32> {
    load_request(&request_for(ruleset)?)
}

/// Loads a ruleset, printing its warnings, or its problems.
pub(crate) fn load_request(request: &LoadRequest) -> Result<Arc<Variant>, i32> {
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
pub(crate) fn print_problems(problems: &[String]) {
    use std::io::IsTerminal;
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    for p in problems {
        complain!("error: {}", crate::diagnostic::render(p, &crate::loader::Disk, color));
    }
}

pub(crate) fn runtime(variant: &Arc<Variant>) -> Result<Runtime, i32> {
    Runtime::new(variant.clone()).map_err(|problems| {
        print_problems(&problems);
        BAD_INPUT
    })
}
