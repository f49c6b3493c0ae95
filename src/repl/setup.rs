//! The REPL's `new [VARIANT] [-r RULE]... [-p N] [--seed S] [--bot KIND]`:
//! the setup of the next match, read with the command line's own arguments.

use clap::Parser;

use crate::args::PlayArgs;
use crate::repl::record::Setup;
use crate::ruleset::LoadRequest;

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
    setup.seed = parsed.seed.unwrap_or_else(|| crate::rng::game_seed(current.seed, 1));
    Ok(setup)
}
