//! Networked play: `unolab host` runs a match whose seats people join
//! from their own terminals with `unolab join`, over WebSocket messages in
//! JSON (`protocol`, documented in docs/protocol.md). The game stays
//! synchronous, in a thread of its own (`table`); the network is at the
//! edge (`host`, on a one-thread tokio runtime), and the two talk through
//! bounded channels. `client` is `join`.

pub mod client;
pub mod host;
pub mod protocol;
pub mod table;

use std::io::Write as _;
use std::sync::Arc;
use std::time::Duration;

use crate::repl::record::{SavedGame, Setup};
use table::{HOST_COMMANDS, TableSetup, ToGame};

/// What `host` is given.
pub struct HostOptions {
    /// The match: a new one, or one resumed from a saved game.
    pub setup: Option<Setup>,
    pub resume: Option<std::path::PathBuf>,
    pub humans: usize,
    pub listen: String,
    pub turn_time: Duration,
    pub allow_undo: bool,
    /// Where to save the match when it ends or the host stops.
    pub save_at_end: Option<std::path::PathBuf>,
}

fn complain(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// The names of a saved match, by seat, for the seats people play (a
/// name at a bot's seat now is told and left out); a name that is not one
/// or stands at no seat is refused where it is written.
fn kept_names(saved: &SavedGame, players: usize, humans: usize) -> Result<Vec<Option<String>>, String> {
    let mut names = vec![None; humans];
    let mut taken: Vec<String> = Vec::new();
    for (&seat, name) in &saved.names {
        if seat >= players {
            return Err(saved.problem(name, format!("p{seat} is no seat of a match of {players} players")));
        }
        let checked = protocol::check_name(name).map_err(|e| saved.problem(name, e))?;
        if taken.iter().any(|t| t.eq_ignore_ascii_case(&checked)) {
            return Err(saved.problem(name, format!("the name '{checked}' stands at two seats")));
        }
        taken.push(checked.clone());
        match names.get_mut(seat) {
            Some(kept) => *kept = Some(checked),
            None => complain(&format!(
                "warning: {}",
                saved.problem(
                    name,
                    format!("{checked} played p{seat}, a bot's seat with --humans {humans}: a bot plays it")
                )
            )),
        }
    }
    Ok(names)
}

/// Runs a host; returns the exit code.
pub fn host(options: HostOptions) -> i32 {
    let (setup, saved) = match (&options.resume, options.setup) {
        (Some(path), _) => match SavedGame::read(path).and_then(|saved| Ok((saved.setup()?, Some(saved)))) {
            Ok(found) => found,
            Err(e) => {
                complain(&format!("error: {e}"));
                return 2;
            }
        },
        (None, Some(setup)) => (setup, None),
        (None, None) => {
            complain("error: name a variant, or --resume FILE");
            return 2;
        }
    };
    let variant = match crate::loader::load(&setup.request) {
        Ok(variant) => Arc::new(variant),
        Err(problems) => {
            for problem in &problems {
                complain(&format!("error: {}", crate::diagnostic::render(problem, &crate::loader::Disk, false)));
            }
            return 2;
        }
    };
    for warning in &variant.warnings {
        complain(&format!("warning: {warning}"));
    }
    if options.humans == 0 || options.humans > setup.players {
        complain(&format!(
            "error: --humans {} is not a number of people at a table of {}",
            options.humans, setup.players
        ));
        return 2;
    }
    if let Err(e) = variant.seats(setup.players) {
        complain(&format!("error: {e}"));
        return 2;
    }
    // A saved match whose moves do not replay is refused here, naming the
    // line of the move the rules refuse.
    if let Some(saved) = &saved {
        let loaded = variant.clone();
        let load = move |_: &crate::ruleset::LoadRequest| Ok((*loaded).clone());
        if let Ok((_, Some((index, problem)))) =
            crate::repl::rebuild(&setup, &load, saved.history.iter().map(|line| line.as_str()))
        {
            complain(&format!(
                "error: the saved match does not replay: {}",
                saved.problem(&saved.history[index], problem)
            ));
            return 2;
        }
    }
    let names = match saved.as_ref().map_or(Ok(Vec::new()), |saved| kept_names(saved, setup.players, options.humans)) {
        Ok(names) => names,
        Err(e) => {
            complain(&format!("error: {e}"));
            return 2;
        }
    };
    let history = saved.map(|saved| saved.lines()).unwrap_or_default();
    // A port alone is a port on loopback.
    let listen = match options.listen.parse::<u16>() {
        Ok(port) => format!("127.0.0.1:{port}"),
        Err(_) => options.listen.clone(),
    };
    let listener = match std::net::TcpListener::bind(&listen) {
        Ok(listener) => listener,
        Err(e) => {
            complain(&format!("error: cannot listen on {listen}: {e}"));
            return 2;
        }
    };
    let addr = match listener.local_addr() {
        Ok(addr) => addr,
        Err(e) => {
            complain(&format!("error: {e}"));
            return 2;
        }
    };
    if listener.set_nonblocking(true).is_err() {
        complain("error: cannot listen without blocking");
        return 2;
    }
    let code = table::secret(8);
    let join = format!("unolab join {addr} {code}");
    {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "listening on {addr}; join with: {join}");
        let _ = writeln!(
            out,
            "{}, {} players ({} for people), seed {}{}; host commands: {HOST_COMMANDS}",
            variant.title(),
            setup.players,
            options.humans,
            setup.seed,
            if history.is_empty() { String::new() } else { format!(", resumed after {} moves", history.len()) }
        );
        let _ = out.flush();
    }
    let (to_game, inbox) = std::sync::mpsc::sync_channel::<ToGame>(crate::limits::GAME_QUEUE);
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let table_setup = TableSetup {
        setup,
        humans: options.humans,
        names,
        join,
        turn_time: options.turn_time,
        allow_undo: options.allow_undo,
        save_at_end: options.save_at_end,
    };
    let game = std::thread::spawn(move || {
        let result = table::run(table_setup, variant, history, inbox);
        let _ = stop_tx.send(());
        result
    });
    // Commands typed at the host.
    let commands = to_game.clone();
    std::thread::spawn(move || {
        let mut line = Vec::new();
        let mut stdin = std::io::stdin().lock();
        let limit = crate::limits::REPL_LINE * 4;
        loop {
            let command = match crate::repl::input::read_line_within(&mut stdin, &mut line, limit) {
                Ok(None) | Err(_) => return,
                Ok(Some(true)) => String::from_utf8_lossy(&line).into_owned(),
                Ok(Some(false)) => {
                    // Told, and the next line read as ever.
                    complain(&format!("that line is longer than {limit} bytes: host commands are {HOST_COMMANDS}"));
                    continue;
                }
            };
            if commands.send(ToGame::Host(command)).is_err() {
                return;
            }
        }
    });
    let stopper = to_game.clone();
    let _ = ctrlc::set_handler(move || {
        let _ = stopper.try_send(ToGame::Stop);
    });
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            complain(&format!("error: {e}"));
            return 1;
        }
    };
    runtime.block_on(async move {
        match tokio::net::TcpListener::from_std(listener) {
            Ok(listener) => host::serve(listener, code, to_game, stop_rx).await,
            Err(e) => complain(&format!("error: {e}")),
        }
    });
    match game.join() {
        Ok(Ok(())) => 0,
        Ok(Err(_)) => 1,
        Err(_) => 1,
    }
}
