//! `unolab play`: a match against bots at the keyboard, or from piped lines.

use std::io::IsTerminal;

use super::{BAD_INPUT, FAILED, SUCCESS, load_request, request_for, runtime};
use crate::args::PlayArgs;
use crate::game::Game;
use crate::repl::Session;
use crate::repl::input::{Piped, Terminal};
use crate::repl::record::Setup;
use crate::repl::render::Style;
use crate::ruleset::LoadRequest;

pub(super) fn play(args: PlayArgs) -> i32 {
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
    // At a terminal, a pause before each hand unless told otherwise.
    let pace = args.pace.as_deref().and_then(crate::repl::command::Pace::parse);
    session.set_pace(pace.unwrap_or(if terminal {
        crate::repl::command::Pace::Hand
    } else {
        crate::repl::command::Pace::Off
    }));
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
