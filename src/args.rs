//! Command-line argument groups shared by the `unolab` commands and the
//! REPL's `new`: a ruleset (variant, house rules, option settings) and the
//! setup of a game at the keyboard.

use clap::Args;

use crate::bot::BotKind;

/// A variant with house rules and option settings.
#[derive(Args, Clone)]
pub struct Ruleset {
    /// Built-in variant name or path to a variant YAML (default: the built-in
    /// variant marked `default: true`)
    pub variant: Option<String>,
    /// A house rule (built-in name or path); repeat for more
    #[arg(short = 'r', long = "rule", value_name = "RULE")]
    pub rules: Vec<String>,
    /// Set an option of the variant or a rule, e.g. --set crossStack=true
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = parse_setting)]
    pub settings: Vec<(String, String)>,
}

pub fn parse_setting(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .filter(|(k, _)| !k.is_empty())
        .ok_or_else(|| format!("'{text}' is not KEY=VALUE"))
}

#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub ruleset: Ruleset,
    /// Players at the table, you included
    #[arg(short, long, default_value_t = 4)]
    pub players: usize,
    /// Seed for every shuffle and bot choice (default: from the clock)
    #[arg(long)]
    pub seed: Option<u64>,
    /// The bots: random, greedy or search[:N] (N playouts a decision), or
    /// by difficulty easy, normal or hard
    #[arg(long, value_parser = bot_kind(), default_value_t = BotKind::Random)]
    pub bot: BotKind,
    /// Mark every colour with a glyph, for colour-blind players
    #[arg(long)]
    pub glyphs: bool,
    /// Pace play: wait for Enter before each hand (hand, the default at a
    /// terminal), after each move of the others (move), or never (off)
    #[arg(long, value_parser = ["off", "hand", "move"])]
    pub pace: Option<String>,
}

/// Reads a bot's name (`--bot greedy`, `--bot search:500`, `--bot hard`):
/// see `BotKind::read`, which says what is wrong with a name it does not
/// take.
pub fn bot_kind() -> fn(&str) -> Result<BotKind, String> {
    BotKind::read
}
