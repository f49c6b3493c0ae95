//! `host` and `join`: a match whose seats people play from their own
//! terminals, over the network (see `crate::net` and docs/protocol.md).

use std::time::Duration;

use clap::Args;

use super::{BAD_INPUT, request_for};
use crate::args::Ruleset;
use crate::bot::BotKind;
use crate::net::client::JoinOptions;
use crate::net::{HostOptions, host};
use crate::repl::record::Setup;

#[derive(Args)]
pub struct HostArgs {
    #[command(flatten)]
    pub ruleset: Ruleset,
    /// Players at the table, people and bots
    #[arg(short, long, default_value_t = 4)]
    pub players: usize,
    /// People to wait for (they take the first seats); bots play the others
    #[arg(long, default_value_t = 2)]
    pub humans: usize,
    /// The address to listen on, HOST:PORT or a port on loopback (port 0: a free one)
    #[arg(long, default_value = "127.0.0.1:0", value_name = "ADDR")]
    pub listen: String,
    /// Seed for every shuffle and bot choice (default: from the clock)
    #[arg(long)]
    pub seed: Option<u64>,
    /// The bots at the seats not for people, which also decide for a seat
    /// whose time is up: random, greedy or search[:N], or easy, normal or hard
    #[arg(long, value_parser = crate::args::bot_kind(), default_value_t = BotKind::Random)]
    pub bot: BotKind,
    /// Seconds a seat has to act before a bot decides for it, that once
    #[arg(long, default_value_t = crate::limits::TURN_SECONDS, value_name = "SECONDS")]
    pub turn_time: u64,
    /// Let players take back their decisions with `undo`
    #[arg(long)]
    pub allow_undo: bool,
    /// Save the match to FILE when it ends or the host stops
    #[arg(long = "save", value_name = "FILE")]
    pub save_at_end: Option<std::path::PathBuf>,
    /// Continue a match saved with the host's `save FILE` (or the REPL's)
    #[arg(long, value_name = "FILE", conflicts_with_all = ["variant", "rules", "settings", "players", "seed", "bot"])]
    pub resume: Option<std::path::PathBuf>,
}

#[derive(Args)]
pub struct JoinArgs {
    /// The host's address, as its first line prints it (HOST:PORT)
    pub addr: String,
    /// The join code the host printed
    pub code: String,
    /// Your name at the table
    #[arg(long)]
    pub name: Option<String>,
    /// Take your seat back after a lost connection (the token you were given)
    #[arg(long)]
    pub token: Option<String>,
    /// Mark every colour with a glyph, for colour-blind players
    #[arg(long)]
    pub glyphs: bool,
}

pub(super) fn run_host(args: HostArgs) -> i32 {
    if args.turn_time == 0 || args.turn_time > crate::limits::TURN_SECONDS_MOST {
        complain!("error: --turn-time is 1 to {} seconds", crate::limits::TURN_SECONDS_MOST);
        return BAD_INPUT;
    }
    let setup = if args.resume.is_some() {
        None
    } else {
        let Ok(request) = request_for(&args.ruleset) else { return BAD_INPUT };
        let seed = args.seed.unwrap_or_else(|| {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
        });
        Some(Setup { request, players: args.players, seed, bot: args.bot })
    };
    host(HostOptions {
        setup,
        resume: args.resume,
        humans: args.humans,
        listen: args.listen,
        turn_time: Duration::from_secs(args.turn_time),
        allow_undo: args.allow_undo,
        save_at_end: args.save_at_end,
    })
}

pub(super) fn run_join(args: JoinArgs) -> i32 {
    crate::net::client::join(JoinOptions {
        addr: args.addr,
        code: args.code,
        name: args.name,
        token: args.token,
        glyphs: args.glyphs,
    })
}
