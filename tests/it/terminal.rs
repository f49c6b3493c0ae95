//! The REPL in a real terminal (a pty), as a person sees it: each file in
//! `tests/sessions/terminal/` gives the command line and the keys typed
//! (`keys: ...`, with `<Tab>`, `<Enter>`, `<Up>`, `<Left>`, `<C-a>`,
//! `<C-c>`, `<C-d>`...), and `screen` lines take what the screen (80x30,
//! or `size: COLSxROWS` after the command line) shows then (`screen
//! colours`: with each change of text colour marked). The snapshot is those
//! screens, in order.

use std::io::{Read, Write};
use std::process::Command;
use std::time::{Duration, Instant};

use expectrl::Session;

/// The bytes a key name stands for.
fn keys(text: &str) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('<') {
        bytes.extend(&rest.as_bytes()[..start]);
        let end = rest[start..].find('>').map(|e| start + e).expect("a key name ends with '>'");
        let key: &[u8] = match &rest[start + 1..end] {
            "Tab" => b"\t",
            "Enter" => b"\r",
            "Up" => b"\x1b[A",
            "Down" => b"\x1b[B",
            "Left" => b"\x1b[D",
            "Right" => b"\x1b[C",
            "Backspace" => b"\x7f",
            "C-a" => b"\x01",
            "C-c" => b"\x03",
            "C-d" => b"\x04",
            "C-l" => b"\x0c",
            other => panic!("unknown key <{other}>"),
        };
        bytes.extend(key);
        rest = &rest[end + 1..];
    }
    bytes.extend(rest.as_bytes());
    bytes
}

/// The screen's text with each change of text colour marked where it
/// happens: `{1}red 5{}` (a palette index; `{}` the default colour).
fn coloured(screen: &vt100::Screen) -> String {
    let (rows, cols) = screen.size();
    let mut out = String::new();
    for row in 0..rows.get() {
        let mut line = String::new();
        let mut current = vt100::Color::Default;
        for col in 0..cols.get() {
            let Some(cell) = screen.cell(row, col) else { continue };
            if cell.fgcolor() != current && !cell.contents().trim().is_empty() {
                current = cell.fgcolor();
                line += &match current {
                    vt100::Color::Default => "{}".to_string(),
                    vt100::Color::Idx(n) => format!("{{{n}}}"),
                    vt100::Color::Rgb(r, g, b) => format!("{{#{r:02x}{g:02x}{b:02x}}}"),
                };
            }
            line += if cell.has_contents() { cell.contents() } else { " " };
        }
        out += line.trim_end();
        out.push('\n');
    }
    out
}

/// Reads what the program writes until it has been quiet for a while and
/// none of its threads is running or waiting to run (a loaded machine can
/// hold a program back longer than the quiet asked for). `false` once its
/// output has ended.
fn settle(session: &mut expectrl::session::OsSession, screen: &mut vt100::Parser) -> bool {
    let pid = session.get_process().pid().as_raw();
    let start = Instant::now();
    let mut quiet_since = Instant::now();
    let mut buffer = [0u8; 4096];
    while start.elapsed() < Duration::from_secs(20) && (quiet_since.elapsed() < Duration::from_millis(400) || busy(pid))
    {
        match session.try_read(&mut buffer) {
            Ok(0) => return false,
            Ok(n) => {
                screen.process(&buffer[..n]);
                quiet_since = Instant::now();
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => std::thread::sleep(Duration::from_millis(20)),
            Err(_) => return false,
        }
    }
    true
}

/// Is a thread of process `pid` running, waiting to run, or waiting on
/// the disk (`/proc`; none where there is no `/proc`)?
fn busy(pid: i32) -> bool {
    let Ok(threads) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return false };
    threads.flatten().any(|thread| {
        let stat = std::fs::read_to_string(thread.path().join("stat")).unwrap_or_default();
        // The state comes after the command's name, in parentheses.
        let state = stat.rsplit_once(')').and_then(|(_, rest)| rest.trim_start().chars().next());
        matches!(state, Some('R' | 'D'))
    })
}

/// Settles until `done` holds of the screen, or the program's output ends,
/// or a minute passes: a program quiet for a while may still be waiting
/// for the host, which says more when the machine lets it.
fn settle_until(
    session: &mut expectrl::session::OsSession,
    screen: &mut vt100::Parser,
    done: impl Fn(&vt100::Parser) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while settle(session, screen) && !done(screen) && Instant::now() < deadline {}
}

#[test]
fn terminal_sessions() {
    insta::glob!("../sessions/terminal", "*.keys", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines = text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).peekable();
        let args = lines.next().and_then(|l| l.strip_prefix("args: ")).expect("a first line 'args: ...'");
        let (cols, rows) = match lines.peek().and_then(|l| l.strip_prefix("size: ")) {
            Some(size) => {
                let (cols, rows) = size.split_once('x').expect("size: COLSxROWS");
                lines.next();
                (cols.parse::<u16>().unwrap(), rows.parse::<u16>().unwrap())
            }
            None => (80, 30),
        };
        let scratch = tempfile::tempdir().unwrap();
        let history = scratch.path().join("history.txt");
        let mut command = Command::new(env!("CARGO_BIN_EXE_unolab"));
        command.args(args.split_whitespace()).env("UNOLAB_HISTORY", &history).env("TERM", "xterm-256color");
        command.env_remove("NO_COLOR").env("COLUMNS", cols.to_string());
        let mut session = Session::spawn(command).unwrap();
        session.get_process_mut().set_window_size(cols, rows).unwrap();
        let size = |n: u16| std::num::NonZero::new(n).unwrap();
        let mut screen = vt100::Parser::new(size(rows), size(cols), 0);
        settle(&mut session, &mut screen);
        let mut seen = String::new();
        for line in lines {
            if line == "screen" {
                let contents = screen.screen().contents();
                let rows: Vec<&str> = contents.lines().map(str::trim_end).collect();
                seen += &format!("--- screen\n{}\n", rows.join("\n").trim_end());
            } else if line == "screen colours" {
                seen += &format!("--- screen, colours as {{colour}}\n{}\n", coloured(screen.screen()).trim_end());
            } else if let Some(typed) = line.strip_prefix("keys: ") {
                session.write_all(&keys(typed)).unwrap();
                session.flush().unwrap();
                settle(&mut session, &mut screen);
            } else {
                panic!("a line is 'keys: ...' or 'screen', not '{line}'");
            }
        }
        let mut rest = Vec::new();
        let _ = session.read_to_end(&mut rest);
        insta::assert_snapshot!(seen);
    });
}

/// `unolab join` as `name` at a terminal of 80 by 30 (in colour or under
/// `NO_COLOR`), and the screen it draws, once the host has seated it.
fn joined_at_a_terminal(
    host: &super::net::Host,
    scratch: &std::path::Path,
    name: &str,
    color: bool,
) -> (expectrl::session::OsSession, vt100::Parser) {
    let size = |n: u16| std::num::NonZero::new(n).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_unolab"));
    command.args(["join", &host.addr, &host.code, "--name", name]);
    command.env("UNOLAB_HISTORY", scratch.join(format!("{name}.txt"))).env("TERM", "xterm-256color");
    if color {
        command.env_remove("NO_COLOR");
    } else {
        command.env("NO_COLOR", "1");
    }
    command.env("COLUMNS", "80");
    let mut session = Session::spawn(command).unwrap();
    session.get_process_mut().set_window_size(80, 30).unwrap();
    let mut screen = vt100::Parser::new(size(30), size(80), 0);
    settle(&mut session, &mut screen);
    host.wait_for(&format!("({name}) joined"));
    (session, screen)
}

/// The last line of the screen with anything on it.
fn last_line(screen: &vt100::Parser) -> String {
    screen.screen().contents().lines().map(str::trim_end).rfind(|l| !l.is_empty()).unwrap_or("").to_string()
}

/// Two people, each at a terminal of their own, play each other through a
/// host on loopback: the prompt, completion and colours of `play`, each
/// seeing the other by name, until the host stops and both are told.
#[test]
fn two_terminals_play_each_other_through_a_host() {
    let scratch = tempfile::tempdir().unwrap();
    let mut host = super::net::Host::start(&["classic", "-p", "2", "--humans", "2", "--seed", "4"], scratch.path());
    let mut players = ["ann", "bo"].map(|name| joined_at_a_terminal(&host, scratch.path(), name, true));
    let contents = |screen: &vt100::Parser| screen.screen().contents();
    // The host logs a player joined before it sends the table: each screen
    // is waited for until it shows the table and a prompt.
    let started = |screen: &vt100::Parser| contents(screen).contains("<- to act") && last_line(screen).ends_with('>');
    for (session, screen) in &mut players {
        settle_until(session, screen, started);
    }
    // While the other plays, a bare prompt takes any line: 'log' answers
    // at once.
    let to_act =
        |screen: &vt100::Parser| contents(screen).lines().any(|l| l.starts_with("  you ") && l.ends_with("<- to act"));
    let waiting = players.iter().position(|(_, screen)| !to_act(screen)).expect("a seat waits");
    assert_eq!(last_line(&players[waiting].1), ">", "{}", contents(&players[waiting].1));
    let (session, screen) = &mut players[waiting];
    session.write_all(b"log 2\r").unwrap();
    let answer = |text: &str| text.split("> log 2\n").nth(1).unwrap_or_default().to_string();
    settle_until(session, screen, |s| answer(&contents(s)).lines().count() >= 2 && last_line(s) == ">");
    let text = contents(screen);
    let answer = answer(&text);
    assert!(answer.lines().take(2).all(|l| l.starts_with("  ")) && answer.lines().count() >= 2, "{text}");
    assert_eq!(last_line(screen), ">", "{text}");
    // Whoever is asked plays (a bot decides for them), until each has
    // played five times; `auto` at a bare prompt is told nothing waits.
    let mut turns = [0, 0];
    let deadline = Instant::now() + Duration::from_secs(240);
    while turns.iter().any(|&t| t < 5) && Instant::now() < deadline {
        for (i, (session, screen)) in players.iter_mut().enumerate() {
            settle(session, screen);
            let last = last_line(screen);
            if last.ends_with('>') && !last.contains("match over") {
                // Tab completes the command word with its space.
                session.write_all(b"au\t").unwrap();
                // The hint after it: what it may take.
                let hinted = |s: &vt100::Parser| contents(s).lines().any(|l| l.trim_end().ends_with("> auto [BOT]"));
                settle_until(session, screen, hinted);
                assert!(hinted(screen), "{}", contents(screen));
                session.write_all(b"\r").unwrap();
                if last.trim_start() != ">" {
                    turns[i] += 1;
                }
            }
        }
    }
    assert!(turns.iter().all(|&t| t >= 5), "{turns:?}");
    for (session, screen) in &mut players {
        settle(session, screen);
    }
    let (ann, bo) = (contents(&players[0].1), contents(&players[1].1));
    assert!(ann.contains("bo play") || ann.contains("bo draw"), "{ann}");
    assert!(bo.contains("ann play") || bo.contains("ann draw"), "{bo}");
    assert!(ann.contains("you play") || ann.contains("you draw"), "{ann}");
    // Colours: a card in the hand is drawn in its colour.
    let colours = coloured(players[0].1.screen());
    assert!(
        colours.contains("{9}") || colours.contains("{12}") || colours.contains("{10}") || colours.contains("{11}"),
        "{colours}"
    );
    host.command("quit");
    host.command("yes");
    assert_eq!(host.wait(), 0);
    for (session, screen) in &mut players {
        settle_until(session, screen, |s| contents(s).contains("the host closed the connection"));
        let text = contents(screen);
        assert!(text.contains("the host closed the connection: the host stopped the match"), "{text}");
        let status = format!("{:?}", session.get_process_mut().wait().unwrap());
        assert!(status.starts_with("Exited(") && status.ends_with(", 0)"), "{status}");
    }
}

/// A question that goes while its answer is typed leaves the prompt: the
/// seat's time runs out, a bot decides for it, and play waits for the
/// other player; the line being typed stays, after a bare `>`.
#[test]
fn a_question_gone_while_its_answer_is_typed_leaves_the_prompt() {
    let scratch = tempfile::tempdir().unwrap();
    // The seat's time (10 s) runs from the match's start, and has to outlast
    // the steps below up to typing `hel`: each waits for its screen to be
    // quiet (400 ms) on a machine that may be slow; the test waits it out.
    let args = ["classic", "-p", "2", "--humans", "2", "--seed", "4", "--turn-time", "10"];
    let host = super::net::Host::start(&args, scratch.path());
    let mut players = ["ann", "bo"].map(|name| joined_at_a_terminal(&host, scratch.path(), name, false));
    // The host logs a player joined before it sends the table.
    let started =
        |screen: &vt100::Parser| screen.screen().contents().contains("<- to act") && last_line(screen).ends_with('>');
    for (session, screen) in &mut players {
        settle_until(session, screen, started);
    }
    let to_act = |screen: &vt100::Parser| {
        screen.screen().contents().lines().any(|l| l.starts_with("  you ") && l.ends_with("<- to act"))
    };
    let asked = players.iter().position(|(_, screen)| to_act(screen)).expect("a seat is asked");
    let (session, screen) = &mut players[asked];
    // A line typed on the seat's turn: the next is asked with the question.
    session.write_all(b"hand\r").unwrap();
    settle_until(session, screen, |s| last_line(s).ends_with('>'));
    let question = last_line(screen);
    assert!(question.starts_with("your turn on ") && question.ends_with('>'), "{question}");
    session.write_all(b"hel").unwrap();
    // The time runs out: a bot decides, and play waits for the other.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !screen.screen().contents().contains("a bot decides for you") && Instant::now() < deadline {
        settle(session, screen);
    }
    settle(session, screen);
    let text = screen.screen().contents();
    assert!(text.contains("a bot decides for you"), "{text}");
    let gone = last_line(screen);
    let width = question.len() + 1;
    assert_eq!(gone, format!("{:>width$}hel", "> "), "{text}");
}
