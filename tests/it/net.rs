//! Networked play through real sockets on loopback: each test starts
//! `unolab host` itself and joins it with WebSocket clients (a plain one
//! here, playing from the `view`'s moves as a program would, or `unolab
//! join` itself). A whole match with three clients, every byte each one
//! receives recorded and searched for the cards it may not see; reconnect
//! tokens, a seat whose time runs out, save and resume, the host
//! stopping; and the hostile clients of `tests/hostile/network.yaml`.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::{Message, WebSocket};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A host started by a test: its address and code, its stdin for host
/// commands, and the lines it prints.
pub struct Host {
    child: Child,
    pub addr: String,
    pub code: String,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Host {
    pub fn start(args: &[&str], dir: &std::path::Path) -> Host {
        let mut child = Command::new(env!("CARGO_BIN_EXE_unolab"))
            .arg("host")
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let first = lines.recv_timeout(Duration::from_secs(30)).expect("the host's first line");
        let join = first.split("join with: unolab join ").nth(1).expect("the command to join on the first line");
        let (addr, code) = join.split_once(' ').unwrap();
        assert!(addr.starts_with("127.0.0.1:"), "loopback unless told otherwise: {first}");
        let stdin = child.stdin.take().unwrap();
        Host { addr: addr.to_string(), code: code.to_string(), child, stdin, lines }
    }

    /// `unolab join` at this host as `name`, its standard streams piped
    /// (no colours).
    pub fn join(&self, name: &str) -> Child {
        Command::new(env!("CARGO_BIN_EXE_unolab"))
            .args(["join", &self.addr, &self.code, "--name", name])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env("NO_COLOR", "1")
            .spawn()
            .unwrap()
    }

    pub fn command(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Waits for a line of the host's containing `text`.
    pub fn wait_for(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            if let Ok(line) = self.lines.recv_timeout(Duration::from_millis(100))
                && line.contains(text)
            {
                return line;
            }
        }
        panic!("the host never said '{text}'");
    }

    /// Resident memory of the host process, in kB.
    pub fn memory_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    }

    pub fn wait(mut self) -> i32 {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the host did not stop");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A TCP stream that keeps every byte it reads.
pub struct Recorder {
    stream: TcpStream,
    pub bytes: Arc<Mutex<Vec<u8>>>,
}

impl Read for Recorder {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.stream.read(buf)?;
        self.bytes.lock().unwrap().extend_from_slice(&buf[..n]);
        Ok(n)
    }
}

impl Write for Recorder {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.stream.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.stream.flush()
    }
}

/// A WebSocket client that records what it receives.
pub struct Client {
    ws: WebSocket<Recorder>,
    pub bytes: Arc<Mutex<Vec<u8>>>,
    pub messages: Vec<Value>,
    pub sent: u64,
}

impl Client {
    pub fn connect(addr: &str) -> Result<Client, String> {
        let stream = TcpStream::connect(addr).map_err(|e| e.to_string())?;
        stream.set_read_timeout(Some(Duration::from_millis(200))).unwrap();
        let bytes = Arc::new(Mutex::new(Vec::new()));
        let recorder = Recorder { stream, bytes: bytes.clone() };
        // The stream's reads time out (200 ms), which interrupts a
        // handshake on a busy machine: it goes on where it stopped.
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut attempt = tungstenite::client::client(format!("ws://{addr}/"), recorder);
        let (ws, _) = loop {
            match attempt {
                Ok(done) => break done,
                Err(tungstenite::HandshakeError::Interrupted(mid)) if Instant::now() < deadline => {
                    attempt = mid.handshake();
                }
                Err(tungstenite::HandshakeError::Failure(tungstenite::Error::Http(response))) => {
                    let body = response.body().as_deref().map(String::from_utf8_lossy).unwrap_or_default().into_owned();
                    return Err(format!("{} {body}", response.status()));
                }
                Err(other) => return Err(other.to_string()),
            }
        };
        Ok(Client { ws, bytes, messages: Vec::new(), sent: 0 })
    }

    pub fn send(&mut self, value: &Value) {
        let _ = self.ws.send(Message::text(value.to_string()));
    }

    pub fn send_raw(&mut self, message: Message) -> Result<(), String> {
        self.ws.send(message).map_err(|e| e.to_string())
    }

    /// Says hello in protocol 1.
    pub fn hello(&mut self, code: &str, name: Option<&str>, token: Option<&str>) {
        self.hello_in(1, code, name, token);
    }

    pub fn hello_in(&mut self, version: u32, code: &str, name: Option<&str>, token: Option<&str>) {
        self.send(&json!({"type": "hello", "protocol": version, "code": code, "name": name, "token": token}));
    }

    pub fn line(&mut self, text: &str) {
        self.sent += 1;
        self.send(&json!({"type": "line", "text": text}));
    }

    /// The next message, if one comes within `wait`; `None` once closed.
    pub fn recv(&mut self, wait: Duration) -> Option<Value> {
        let deadline = Instant::now() + wait;
        while Instant::now() < deadline {
            match self.ws.read() {
                Ok(Message::Text(text)) => {
                    assert!(text.len() <= 8192, "a message past the protocol's bound: {} bytes", text.len());
                    let value: Value = serde_json::from_str(text.as_str()).expect("the host sends JSON");
                    self.messages.push(value.clone());
                    return Some(value);
                }
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
                Err(_) => return None,
            }
        }
        None
    }

    /// Reads until a message of `kind` for which `test` holds.
    pub fn until(&mut self, kind: &str, test: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            match self.recv(Duration::from_millis(500)) {
                Some(m) if m["type"] == kind && test(&m) => return m,
                Some(_) => {}
                None if self.closed() => panic!("closed while waiting for {kind}: {:?}", self.messages.last()),
                None => {}
            }
        }
        panic!("no {kind} came: {:?}", self.messages.last());
    }

    pub fn closed(&self) -> bool {
        !self.ws.can_read()
    }

    /// Everything shown as text so far.
    pub fn text(&self) -> String {
        self.messages.iter().filter(|m| m["type"] == "output").map(|m| m["text"].as_str().unwrap()).collect()
    }

    /// Plays from the view's moves, as a program would, until the host
    /// closes; returns the closing reason.
    pub fn play_to_the_end(&mut self) -> String {
        self.play(u64::MAX).expect("the host closes")
    }

    /// Plays `lines` lines from the view's moves, or until the host closes
    /// (then the closing reason).
    pub fn play(&mut self, lines: u64) -> Option<String> {
        let deadline = Instant::now() + Duration::from_secs(240);
        let stop = self.sent.saturating_add(lines);
        let mut ready_at = None;
        while Instant::now() < deadline {
            let Some(message) = self.recv(Duration::from_millis(500)) else {
                assert!(!self.closed(), "closed without a reason: {:?}", self.messages.last());
                continue;
            };
            match message["type"].as_str().unwrap() {
                "closing" => return Some(message["reason"].as_str().unwrap().to_string()),
                "prompt" => {
                    ready_at = (message["ready"] == true && message["lines"] == self.sent)
                        .then(|| message["at"].as_u64().unwrap());
                }
                "view" if ready_at == message["view"]["at"].as_u64() => {
                    ready_at = None;
                    let moves = message["view"]["moves"].as_array().unwrap();
                    let line = moves.first().and_then(Value::as_str).unwrap_or("").to_string();
                    self.line(&line);
                    if self.sent >= stop {
                        return None;
                    }
                }
                _ => {}
            }
        }
        panic!("the match did not end in time");
    }

    /// Reads what comes for `wait`.
    pub fn drain(&mut self, wait: Duration) {
        let deadline = Instant::now() + wait;
        while Instant::now() < deadline && !self.closed() {
            self.recv(Duration::from_millis(100));
        }
    }

    /// The reason of the `closing` this client was sent, if any.
    pub fn closing(&self) -> Option<String> {
        self.messages.iter().find(|m| m["type"] == "closing").map(|m| m["reason"].as_str().unwrap().to_string())
    }
}

/// A scratch folder with the unique deck.
fn unique() -> String {
    format!("{ROOT}/tests/net/unique.yaml")
}

/// What seat `seat` may not have seen after each record of a saved match:
/// the names of the cards in other hands and the draw pile that were never
/// face up (played, turned up, shown at a hand's end) and never its own.
fn hidden_from(saved: &std::path::Path, seat: usize) -> Vec<BTreeSet<String>> {
    use unolab::repl::record::{SavedGame, replay_line};
    let saved = SavedGame::read(saved).unwrap();
    let setup = saved.setup().unwrap();
    let variant = std::sync::Arc::new(unolab::loader::load(&setup.request).unwrap());
    let mut game =
        unolab::game::Game::new(unolab::script::Runtime::new(variant.clone()).unwrap(), setup.players, setup.seed)
            .unwrap();
    let name = |card| variant.names.format_face(variant.face(card, unolab::card::Side::Light));
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut hidden = Vec::new();
    let mut after = |game: &unolab::game::Game<unolab::script::Runtime>, seen: &mut BTreeSet<String>| {
        let table = game.table();
        seen.extend(table.discard_pile().iter().map(|&c| name(c)));
        seen.extend(table.hands()[seat].iter().map(|&c| name(c)));
        if game.hand_over() {
            for hand in table.hands().iter() {
                seen.extend(hand.iter().map(|&c| name(c)));
            }
        }
        let mut secret: BTreeSet<String> = table.draw_pile().iter().map(|&c| name(c)).collect();
        for (other, hand) in table.hands().iter().enumerate() {
            if other != seat {
                secret.extend(hand.iter().map(|&c| name(c)));
            }
        }
        secret.retain(|card| !seen.contains(card));
        hidden.push(secret);
    };
    after(&game, &mut seen);
    for line in &saved.history {
        replay_line(&mut game, line).unwrap();
        after(&game, &mut seen);
    }
    hidden
}

/// Three clients play a whole match on loopback; each receives only its
/// seat's view: in every message, no card it could not have seen at that
/// point of the game, and in all the bytes it received, none of the cards
/// it never saw.
#[test]
fn three_clients_play_a_match_to_its_end_and_see_only_their_own_cards() {
    let scratch = tempfile::tempdir().unwrap();
    let saved = scratch.path().join("match.yaml");
    let host = Host::start(
        &[&unique(), "-p", "4", "--humans", "3", "--seed", "11", "--save", saved.to_str().unwrap()],
        scratch.path(),
    );
    let names = ["ann", "bo", "cy"];
    let players: Vec<_> = names
        .iter()
        .map(|name| {
            let (addr, code, name) = (host.addr.clone(), host.code.clone(), name.to_string());
            std::thread::spawn(move || {
                let mut client = Client::connect(&addr).unwrap();
                client.hello(&code, Some(&name), None);
                let welcome = client.until("welcome", |_| true);
                let reason = client.play_to_the_end();
                let seat = welcome["seat"].as_u64().unwrap() as usize;
                assert_eq!(welcome["name"], name.as_str());
                (seat, reason, client)
            })
        })
        .collect();
    let results: Vec<_> = players.into_iter().map(|p| p.join().unwrap()).collect();
    assert_eq!(host.wait(), 0);
    for (seat, reason, client) in &results {
        assert_eq!(reason, "the match is over");
        let text = client.text();
        assert!(text.contains("match over: "), "seat {seat}:\n{text}");
        assert!(text.contains("you are p"), "{text}");
        let own =
            client.messages.iter().find(|m| m["type"] == "welcome").unwrap()["name"].as_str().unwrap().to_string();
        let others: Vec<&str> = names.iter().copied().filter(|n| *n != own).collect();
        assert!(others.iter().all(|n| text.contains(n)), "the other players by name: {text}");
        let hidden = hidden_from(&saved, *seat);
        let mut checks = 0;
        for message in &client.messages {
            let at = message.get("at").or_else(|| message.get("view").and_then(|v| v.get("at")));
            let Some(at) = at.and_then(Value::as_u64) else { continue };
            let body = message.to_string();
            for card in &hidden[at as usize] {
                assert!(!has_card(&body, card), "p{seat} was sent {card} at record {at}: {body}");
                checks += 1;
            }
        }
        assert!(checks > 1000, "{checks} checks");
        assert!(text.contains("hand 2:"), "more than one hand: {text}");
        let never: BTreeSet<&String> =
            hidden.last().unwrap().iter().filter(|c| hidden.iter().all(|h| h.contains(*c))).collect();
        let bytes = String::from_utf8_lossy(&client.bytes.lock().unwrap()).into_owned();
        assert!(!never.is_empty() || hidden.len() > 1);
        for card in never {
            assert!(!has_card(&bytes, card), "p{seat} received {card}, which it never saw");
        }
    }
}

/// Does `text` name `card` (and not a longer name that starts with it)?
fn has_card(text: &str, card: &str) -> bool {
    text.match_indices(card).any(|(at, _)| {
        let next = text[at + card.len()..].chars().next();
        !next.is_some_and(|c| c.is_ascii_alphanumeric())
    })
}

/// Joins `host` as `name` and waits for the welcome.
fn joined(host: &Host, name: &str) -> (Client, Value) {
    let mut client = Client::connect(&host.addr).unwrap();
    client.hello(&host.code, Some(name), None);
    let welcome = client.until("welcome", |_| true);
    (client, welcome)
}

/// A seat whose connection is lost is taken back with its reconnect
/// token, and everyone is told; the token is refused while its seat is
/// connected, and the seat's player plays on.
#[test]
fn a_reconnect_token_takes_a_seat_back_and_is_refused_while_the_seat_is_connected() {
    let scratch = tempfile::tempdir().unwrap();
    let host = Host::start(&[&unique(), "-p", "3", "--humans", "2", "--seed", "3"], scratch.path());
    let (mut ann, welcome) = joined(&host, "ann");
    let token = welcome["token"].as_str().unwrap().to_string();
    let (mut bo, _) = joined(&host, "bo");
    ann.until("prompt", |m| m["text"] != "waiting for players");
    let mut thief = Client::connect(&host.addr).unwrap();
    thief.hello(&host.code, None, Some(&token));
    let reason = thief.until("closing", |_| true)["reason"].as_str().unwrap().to_string();
    assert!(reason.contains("is connected"), "{reason}");
    ann.line("log 1");
    ann.until("prompt", |m| m["lines"] == 1);
    drop(ann);
    bo.until("output", |m| m["text"].as_str().unwrap().contains("ann lost the connection"));
    let mut back = Client::connect(&host.addr).unwrap();
    back.hello(&host.code, None, Some(&token));
    let again = back.until("welcome", |_| true);
    assert_eq!(again["seat"], welcome["seat"]);
    assert_eq!(again["name"], "ann");
    bo.until("output", |m| m["text"].as_str().unwrap().contains("ann is back"));
    back.until("view", |_| true);
    let wrong = {
        let mut stranger = Client::connect(&host.addr).unwrap();
        stranger.hello(&host.code, None, Some("NOT-A-TOKEN"));
        stranger.until("closing", |_| true)
    };
    assert!(wrong["reason"].as_str().unwrap().contains("no seat's"), "{wrong}");
}

/// A player back with its token is told what happened while it was away:
/// here the moves a bot made for it when its time ran out, and bo's. Ann
/// leaves at once, while the table sends it the opening: the table stops
/// sending before the end of the connection is reported, and everyone is
/// still told (they were not).
#[test]
fn a_player_back_is_told_what_happened_while_it_was_away() {
    let scratch = tempfile::tempdir().unwrap();
    let host = Host::start(&[&unique(), "-p", "3", "--humans", "2", "--seed", "3", "--turn-time", "1"], scratch.path());
    let (ann, welcome) = joined(&host, "ann");
    let token = welcome["token"].as_str().unwrap().to_string();
    let (mut bo, _) = joined(&host, "bo");
    drop(ann);
    bo.until("output", |m| m["text"].as_str().unwrap().contains("ann lost the connection"));
    let deadline = Instant::now() + Duration::from_secs(60);
    while bo.text().matches("a bot decides for ann").count() < 2 && Instant::now() < deadline {
        bo.play(1);
    }
    let mut back = Client::connect(&host.addr).unwrap();
    back.hello(&host.code, None, Some(&token));
    back.until("welcome", |_| true);
    back.until("view", |_| true);
    let text = back.text();
    let (_, away) = text.split_once("while you were away (a bot decided for you ").unwrap_or_else(|| panic!("{text}"));
    assert!(away.contains("you play") || away.contains("you draw"), "{away}");
    assert!(away.contains("bo play") || away.contains("bo draw"), "{away}");
}

/// `unolab join` whose host is gone tries again, a second longer each
/// time: a try that fails is not its last (it gave up after the first).
#[test]
fn join_tries_again_after_a_try_that_fails() {
    let scratch = tempfile::tempdir().unwrap();
    let host = Host::start(&[&unique(), "-p", "2", "--humans", "1", "--seed", "3"], scratch.path());
    let mut join = host.join("ann");
    let (lines, seen) = channel();
    let stdout = join.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    let mut text = String::new();
    let read_until = |wanted: &str, text: &mut String| {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !text.contains(wanted) && Instant::now() < deadline {
            if let Ok(line) = seen.recv_timeout(Duration::from_millis(100)) {
                *text += &format!("{line}\n");
            }
        }
    };
    // The host is stopped once the client holds its token (the host logs
    // the seat taken before the welcome is sent: stopped then, the client
    // has no seat to take back).
    read_until("--token", &mut text);
    if !text.contains("--token") {
        let _ = join.kill();
        let mut err = String::new();
        join.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        panic!("no welcome: {text}{err}");
    }
    drop(host);
    read_until("trying again (2 of 5)", &mut text);
    assert!(text.contains("trying again (2 of 5)"), "{text}");
    assert!(join.try_wait().unwrap().is_none(), "join went on trying: {text}");
    let _ = join.kill();
    let _ = join.wait();
}

/// A seat that does not act in time is played by a bot for that one
/// decision, and everyone is told; the bot's choice comes from the seed,
/// so two hosts of the same seed make the same moves whenever the clock
/// runs out.
#[test]
fn a_seat_out_of_time_is_played_by_a_bot_from_the_seed_and_everyone_is_told() {
    let scratch = tempfile::tempdir().unwrap();
    let run = |name: &str| {
        let saved = scratch.path().join(name);
        let host = Host::start(
            &[
                &unique(),
                "-p",
                "3",
                "--humans",
                "2",
                "--seed",
                "9",
                "--turn-time",
                "1",
                "--save",
                saved.to_str().unwrap(),
            ],
            scratch.path(),
        );
        let (mut ann, _) = joined(&host, "ann");
        let (mut bo, _) = joined(&host, "bo");
        // Neither acts: the clock decides who plays, four times at least.
        let deadline = Instant::now() + Duration::from_secs(60);
        while ann.text().matches("a bot decides for").count() < 4 && Instant::now() < deadline {
            ann.recv(Duration::from_millis(200));
            bo.recv(Duration::from_millis(10));
        }
        let mut host = host;
        host.command("quit");
        host.command("yes");
        // Until each is closed, its closing read: the 30 s are only a safety
        // net (a loaded machine may take more than a few seconds to stop).
        ann.drain(Duration::from_secs(30));
        bo.drain(Duration::from_secs(30));
        assert_eq!(host.wait(), 0);
        (ann, bo, unolab::repl::record::SavedGame::read(&saved).unwrap().history)
    };
    let (ann, bo, first) = run("first.yaml");
    let told = |text: &str, who: &str| {
        text.contains(&format!("{who} did not act within 1 s: a bot decides for {who} this once"))
    };
    let (ann_text, bo_text) = (ann.text(), bo.text());
    assert!(told(&ann_text, "you") || told(&ann_text, "bo"), "{ann_text}");
    assert!(told(&bo_text, "you") || told(&bo_text, "ann"), "{bo_text}");
    assert_eq!(ann.closing().as_deref(), Some("the host stopped the match"));
    let (_, _, second) = run("second.yaml");
    let common = first.len().min(second.len());
    assert!(common > 4, "{first:?}");
    assert_eq!(first[..common], second[..common]);
}

/// The host's `save` writes the match in the saved-game format, and `host
/// --resume FILE` continues it where it was; when the host stops, `unolab
/// join` is told why and exits cleanly.
#[test]
fn the_host_saves_and_resumes_a_match_and_its_players_are_told_when_it_stops() {
    let scratch = tempfile::tempdir().unwrap();
    let mut host = Host::start(&[&unique(), "-p", "3", "--humans", "1", "--seed", "21"], scratch.path());
    let (mut ann, _) = joined(&host, "ann");
    assert_eq!(ann.play(6), None);
    // A line too long for a command is told, and the next is read.
    host.command(&"x".repeat(1_000_000));
    host.command("save saved.yaml");
    host.wait_for("saved to saved.yaml");
    ann.until("output", |m| m["text"].as_str().unwrap().contains("the host saved the match"));
    // Quitting a match under way asks first; "no" lets it go on.
    host.command("quit");
    host.wait_for("end the match for every player? (yes/no; 'save FILE' first keeps it)");
    host.command("no");
    host.wait_for("the match goes on");
    host.command("quit");
    host.command("yes");
    assert_eq!(ann.until("closing", |_| true)["reason"], "the host stopped the match");
    assert_eq!(host.wait(), 0);
    let saved = unolab::repl::record::SavedGame::read(&scratch.path().join("saved.yaml")).unwrap();
    assert!(saved.history.len() > 6, "{:?}", saved.history);

    let host = Host::start(&["--resume", "saved.yaml", "--humans", "1"], scratch.path());
    host.wait_for(&format!("resumed after {} moves", saved.history.len()));
    let mut join = host.join("ann");
    host.wait_for("p0 (ann) joined");
    let mut watcher = Client::connect(&host.addr).unwrap();
    watcher.hello(&host.code, Some("late"), None);
    assert!(watcher.until("closing", |_| true)["reason"].as_str().unwrap().contains("every seat"));
    std::thread::sleep(Duration::from_millis(500));
    // SIGTERM stops the host as its 'quit' does: the players are told.
    let pid = host.child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    assert_eq!(host.wait(), 0);
    let stdin = join.stdin.take();
    let status = join.wait().unwrap();
    drop(stdin);
    let mut out = String::new();
    join.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    assert!(status.success(), "{out}");
    assert!(out.contains(&format!("hand {}", 1)) || out.contains("top "), "{out}");
    assert!(out.contains("the host closed the connection: the host stopped the match"), "{out}");
}

/// The host's `token SEAT` shows a seat's token, for a player who lost
/// it; stopped, it tells everyone the scores so far. A saved match keeps its players' names: resumed, each seat waits
/// for its name, whoever comes first, and a player of another name is
/// refused while the seats left are kept.
#[test]
fn the_host_shows_a_lost_token_tells_the_scores_when_stopped_and_a_resumed_match_keeps_seats_by_name() {
    let scratch = tempfile::tempdir().unwrap();
    let mut host = Host::start(&[&unique(), "-p", "3", "--humans", "2", "--seed", "3"], scratch.path());
    let (mut ann, _) = joined(&host, "ann");
    let (bo, welcome) = joined(&host, "bo");
    let token = welcome["token"].as_str().unwrap().to_string();
    host.command("token BO");
    let shown = host.wait_for("takes the seat back");
    let join = format!("unolab join {} {} --token {token}", host.addr, host.code);
    assert_eq!(shown, format!("p1 (bo) takes the seat back with (once its connection is gone): {join}"));
    host.command("token p2");
    host.wait_for("p2 is a bot's seat: it has no token");
    host.command("token zed");
    host.wait_for("no seat or player is called 'zed'");
    drop(bo);
    host.wait_for("p1 (bo) is gone");
    host.command("seats");
    host.wait_for("p0: ann (human)");
    assert_eq!(host.wait_for("p1:"), "p1: bo (human, not connected: 'token SEAT' shows its token)");
    host.command("token 1");
    assert_eq!(host.wait_for("takes the seat back"), format!("p1 (bo) takes the seat back with: {join}"));
    host.command("save saved.yaml");
    host.wait_for("saved to saved.yaml");
    // Stopped, the host and its players are told the scores so far.
    host.command("quit");
    host.command("yes");
    let stopped = host.wait_for("stopped");
    assert!(stopped.starts_with("stopped; scores: p0 (ann) 0, p1 (bo) 0, p2 0"), "{stopped}");
    ann.until("closing", |_| true);
    let told = ann.text();
    assert!(told.contains("no hand finished; scores: ann 0, bo 0, p2 0."), "{told}");
    assert_eq!(host.wait(), 0);
    let saved = std::fs::read_to_string(scratch.path().join("saved.yaml")).unwrap();
    assert!(saved.contains("names:\n  0: ann\n  1: bo\n"), "{saved}");

    let mut host = Host::start(&["--resume", "saved.yaml", "--humans", "2"], scratch.path());
    let (_bo, welcome) = joined(&host, "BO");
    assert_eq!(welcome["seat"], 1, "{welcome}");
    let mut stranger = Client::connect(&host.addr).unwrap();
    stranger.hello(&host.code, Some("cy"), None);
    let refused = stranger.until("closing", |_| true);
    assert!(refused["reason"].as_str().unwrap().contains("the seats left are kept for ann"), "{refused}");
    host.wait_for("refused a player: every seat is taken or kept for a name");
    let (_ann, welcome) = joined(&host, "ann");
    assert_eq!(welcome["seat"], 0, "{welcome}");
    host.command("seats");
    host.wait_for("p0: ann (human)");
    assert_eq!(host.wait_for("p1:"), "p1: BO (human)");
}

/// A long answer (`log` of a whole match, `help all`) reaches `unolab
/// join` in pieces that each fit the protocol's bound on a message, and
/// the connection stays.
#[test]
fn a_long_answer_reaches_join_in_pieces_and_the_connection_stays() {
    let scratch = tempfile::tempdir().unwrap();
    let host = Host::start(&["classic", "-p", "4", "--humans", "1", "--seed", "5"], scratch.path());
    let mut join = host.join("ann");
    let mut lines = "auto\n".repeat(100);
    lines += "log 100000\nhelp all\nquit\n";
    join.stdin.take().unwrap().write_all(lines.as_bytes()).unwrap();
    let output = join.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{out}");
    assert!(!out.contains("connection is lost"), "{out}");
    assert_eq!(out.matches("joined 127.0.0.1").count(), 1, "joined once, never again: {out}");
    let log = out.split("> log 100000\n").nth(1).unwrap().split("> help all\n").next().unwrap();
    assert!(log.len() > 8192, "{log}");
    assert!(log.starts_with("  hand 1: "), "the whole match: {log}");
    assert!(out.contains("left the table"), "{out}");
    // The way back, with the token it was given on joining.
    let token = out.split("--token ").nth(1).unwrap().split_whitespace().next().unwrap();
    assert!(out.contains(&format!("join again with --token {token})")), "{out}");
}

/// The actions a rule declares reach a networked seat: among its view's
/// `moves` as lines in either version of the protocol, and as data
/// (`acts`) in protocol 2 only; a protocol 2 client takes one with an
/// `act` message, which the host carries out as the line (a refused one
/// is told and changes nothing). A protocol 1 client plays on as before.
#[test]
fn a_rules_action_is_among_a_seats_moves_and_a_protocol_2_client_takes_it_with_an_act_message() {
    let scratch = tempfile::tempdir().unwrap();
    let trade = format!("{ROOT}/tests/variants/host/trade.yaml");
    let mut host = Host::start(&[&unique(), "-r", &trade, "-p", "3", "--humans", "2", "--seed", "8"], scratch.path());
    let mut ann = Client::connect(&host.addr).unwrap();
    ann.hello_in(2, &host.code, Some("ann"), None);
    assert_eq!(ann.until("welcome", |_| true)["protocol"], 2);
    let (addr, code) = (host.addr.clone(), host.code.clone());
    let bo = std::thread::spawn(move || {
        let mut bo = Client::connect(&addr).unwrap();
        bo.hello(&code, Some("bo"), None);
        assert_eq!(bo.until("welcome", |_| true)["protocol"], 1);
        bo.play_to_the_end();
        bo
    });
    // Ann's first turn where it may trade, from the view.
    let view = loop {
        let sent = ann.sent;
        let prompt = ann.until("prompt", |m| m["ready"] == true && m["lines"] == sent);
        let view = ann.until("view", |m| m["view"]["at"] == prompt["at"]);
        if view["view"]["acts"].as_array().is_some_and(|acts| !acts.is_empty()) {
            break view["view"].clone();
        }
        let first = view["view"]["moves"][0].as_str().unwrap().to_string();
        ann.line(&first);
    };
    let acts = view["acts"].as_array().unwrap();
    let moves: Vec<&str> = view["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    let hand: Vec<&str> = view["hand"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
    assert_eq!(acts.len(), hand.len(), "a trade with each card of the hand: {acts:?}");
    for act in acts {
        assert_eq!(act["name"], "trade");
        assert_eq!(act["out_of_turn"], false);
        assert!(act.get("target").is_none(), "{act}");
        let card = act["card"].as_str().unwrap();
        assert!(hand.contains(&card), "{act}");
        assert_eq!(act["line"], format!("act trade {card}"));
        assert!(moves.contains(&act["line"].as_str().unwrap()), "{moves:?}");
    }
    // A card the seat does not hold: refused, told, nothing changes.
    let at = view["at"].as_u64().unwrap();
    let missing = ["red 0", "red 1", "red 2"].into_iter().find(|c| !hand.contains(c)).unwrap();
    ann.sent += 1;
    ann.send(&json!({"type": "act", "name": "trade", "card": missing}));
    ann.until("output", |m| m["text"].as_str().unwrap().contains(&format!("hold no {missing}")));
    let sent = ann.sent;
    let prompt = ann.until("prompt", |m| m["lines"] == sent);
    assert_eq!(prompt["at"], at, "a refused action changes nothing");
    // The first trade, as data.
    let card = acts[0]["card"].as_str().unwrap().to_string();
    ann.sent += 1;
    ann.send(&json!({"type": "act", "name": "trade", "card": card, "target": null}));
    ann.until("output", |m| m["text"].as_str().unwrap().contains(&format!("trade with {card}")));
    let view = ann.until("view", |m| m["view"]["at"].as_u64() > Some(at))["view"].clone();
    assert!(!view["hand"].as_array().unwrap().iter().any(|c| c == card.as_str()), "{view}");
    assert!(view.get("acts").is_none(), "the turn moved on: {view}");
    // Bo has had a turn by the time play waits for ann again.
    let after = view["at"].as_u64();
    let sent = ann.sent;
    ann.until("prompt", |m| m["ready"] == true && m["lines"] == sent && m["at"].as_u64() > after);
    host.command("quit");
    host.command("yes");
    let bo = bo.join().unwrap();
    assert_eq!(host.wait(), 0);
    // Protocol 1: the trade among the moves as lines, never as data.
    let views: Vec<&Value> = bo.messages.iter().filter(|m| m["type"] == "view").collect();
    assert!(views.iter().all(|v| v["view"].get("acts").is_none()), "protocol 1 is sent no acts");
    let lines = views.iter().flat_map(|v| v["view"]["moves"].as_array().unwrap());
    assert!(lines.filter_map(Value::as_str).any(|l| l.starts_with("act trade ")), "{views:?}");
}

/// An action out of turn at a networked seat: a protocol 2 client sees it
/// among its view's `acts` (`out_of_turn`) while another seat is to play,
/// play waits for it (`ready`), and its `act` message is carried out at
/// once, as a scenario's `act: {name, player}` is: the log says `(out of
/// turn)` and the card goes to the player to play. On the client's own
/// turn the action is refused, told, and changes nothing.
#[test]
fn a_protocol_2_client_takes_an_action_out_of_turn_with_an_act_message() {
    let scratch = tempfile::tempdir().unwrap();
    let interrupt = format!("{ROOT}/tests/variants/host/interrupt.yaml");
    let host = Host::start(&["classic", "-r", &interrupt, "-p", "3", "--humans", "1", "--seed", "4"], scratch.path());
    let mut ann = Client::connect(&host.addr).unwrap();
    ann.hello_in(2, &host.code, Some("ann"), None);
    let seat = ann.until("welcome", |_| true)["seat"].as_u64().unwrap();
    // Ann plays her turns from the view until another seat is to play and
    // she may interrupt.
    let view = loop {
        let sent = ann.sent;
        let prompt = ann.until("prompt", |m| m["ready"] == true && m["lines"] == sent);
        let view = ann.until("view", |m| m["view"]["at"] == prompt["at"])["view"].clone();
        if view["acts"].as_array().is_some_and(|acts| acts.iter().any(|act| act["out_of_turn"] == true)) {
            break view;
        }
        let first = view["moves"][0].as_str().unwrap().to_string();
        ann.line(&first);
    };
    let to_act = view["to_act"].as_u64().unwrap();
    assert_ne!(to_act, seat, "out of turn: {view}");
    let acts = view["acts"].as_array().unwrap();
    let color = view["color"].as_str().unwrap();
    for act in acts {
        assert_eq!((&act["name"], &act["out_of_turn"]), (&json!("interrupt"), &json!(true)), "{act}");
        let card = act["card"].as_str().unwrap();
        assert!(card.starts_with(color), "only a card of the colour in play: {act}");
        assert_eq!(act["line"], format!("act interrupt {card}"));
    }
    let held = |view: &Value, card: &str| view["hand"].as_array().unwrap().iter().filter(|c| *c == card).count();
    let card = acts[0]["card"].as_str().unwrap().to_string();
    let at = view["at"].as_u64();
    ann.sent += 1;
    ann.send(&json!({"type": "act", "name": "interrupt", "card": card}));
    let told = ann.until("output", |m| m["text"].as_str().unwrap().contains("interrupt with"))["text"].clone();
    let told = told.as_str().unwrap();
    assert!(
        told.contains(&format!("you take interrupt with {card} (out of turn)\n  you give p{to_act} {card}\n")),
        "{told}"
    );
    let after = ann.until("view", |m| m["view"]["at"].as_u64() > at)["view"].clone();
    assert_eq!(held(&after, &card), held(&view, &card) - 1, "{after}");
    // On her own turn it is refused, told, and changes nothing.
    assert_eq!(after["to_act"].as_u64(), Some(seat), "{after}");
    let other = after["hand"][0].as_str().unwrap();
    ann.sent += 1;
    ann.send(&json!({"type": "act", "name": "interrupt", "card": other}));
    let refused = ann.until("output", |_| true)["text"].clone();
    assert!(refused.as_str().unwrap().contains("you may take this action only when it is not your turn"), "{refused}");
    let sent = ann.sent;
    assert_eq!(ann.until("prompt", |m| m["lines"] == sent)["at"], after["at"], "a refused action changes nothing");
    drop(host);
}

/// The hostile clients of tests/hostile/network.yaml, each against a host
/// of its own, all at once.
#[test]
fn hostile_clients_are_refused_or_closed_with_a_reason_and_the_match_goes_on() {
    let text = std::fs::read_to_string(format!("{ROOT}/tests/hostile/network.yaml")).unwrap();
    let cases: Vec<Value> = unolab::yaml::from_str(&text).map_err(|(_, e)| e).unwrap();
    assert!(cases.len() >= 15);
    let runs: Vec<_> = cases.into_iter().map(|case| std::thread::spawn(move || hostile_case(&case))).collect();
    let failures: Vec<String> = runs.into_iter().filter_map(|run| run.join().unwrap().err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn hostile_case(case: &Value) -> Result<(), String> {
    let name = case["name"].as_str().unwrap();
    let seated = case["seated"] == true;
    let scratch = tempfile::tempdir().unwrap();
    let humans = if seated { "2" } else { "1" };
    let host =
        Host::start(&[&unique(), "-p", "3", "--humans", humans, "--seed", "5", "--turn-time", "1"], scratch.path());
    let (mut ann, welcome) = joined(&host, "ann");
    let token = welcome["token"].as_str().unwrap().to_string();
    let mut client = None;
    let mut http_errors = Vec::new();
    if seated {
        let (mallory, _) = joined(&host, "mallory");
        client = Some(mallory);
    }
    let mut last: Option<Value> = None;
    for step in case["steps"].as_array().unwrap() {
        let (kind, arg) = step.as_object().unwrap().iter().next().unwrap();
        let times = if kind == "repeat" { arg.as_u64().unwrap() } else { 1 };
        let (kind, arg) = if kind == "repeat" {
            let previous = last.clone().unwrap();
            let (k, a) = previous.as_object().unwrap().iter().next().unwrap();
            (k.clone(), a.clone())
        } else {
            last = Some(step.clone());
            (kind.clone(), arg.clone())
        };
        if kind == "connections" {
            let many: Vec<_> = (0..arg.as_u64().unwrap())
                .map(|_| {
                    let addr = host.addr.clone();
                    std::thread::spawn(move || Client::connect(&addr))
                })
                .collect();
            let opened: Vec<_> = many.into_iter().map(|t| t.join().unwrap()).collect();
            http_errors = opened.iter().filter_map(|c| c.as_ref().err().cloned()).collect();
            drop(opened);
            continue;
        }
        let c = client.get_or_insert_with(|| Client::connect(&host.addr).unwrap());
        for _ in 0..times {
            match kind.as_str() {
                "hello" => {
                    let code = arg["code"].as_str().unwrap_or(&host.code);
                    let token = match arg["token"].as_str() {
                        Some("ann") => Some(token.clone()),
                        other => other.map(String::from),
                    };
                    let protocol = arg["protocol"].as_u64().unwrap_or(1);
                    c.send(&json!({"type": "hello", "protocol": protocol, "code": code, "name": arg["name"], "token": token}));
                }
                "line" => c.send(&json!({"type": "line", "text": arg["text"], "seat": arg["seat"]})),
                "text" => {
                    let _ = c.send_raw(Message::text(arg.as_str().unwrap()));
                }
                "bytes" => {
                    let _ = c.send_raw(Message::text("x".repeat(arg.as_u64().unwrap() as usize)));
                }
                "binary" => {
                    let _ = c.send_raw(Message::binary(vec![7u8; arg.as_u64().unwrap() as usize]));
                }
                "silent" => std::thread::sleep(Duration::from_millis(arg.as_u64().unwrap())),
                other => return Err(format!("{name}: unknown step {other}")),
            }
        }
    }
    let expect = case["expect"].as_object().unwrap();
    let (kind, says) = expect.iter().next().unwrap();
    let says = says.as_str().unwrap();
    if kind == "http" {
        if !http_errors.iter().any(|e| e.contains("503") && e.contains(says)) {
            return Err(format!("{name}: no HTTP refusal saying '{says}': {:?}", http_errors.first()));
        }
    } else {
        let c = client.as_mut().unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        let found = loop {
            if let Some(m) = c.messages.iter().find(|m| m["type"] == kind.as_str()) {
                break Some(m["reason"].as_str().unwrap().to_string());
            }
            if Instant::now() > deadline || (c.recv(Duration::from_millis(200)).is_none() && c.closed()) {
                break c.messages.iter().find(|m| m["type"] == kind.as_str()).map(|m| m["reason"].to_string());
            }
        };
        match found {
            Some(reason) if reason.contains(says) => {}
            other => return Err(format!("{name}: wanted {kind} '{says}', got {other:?} ({:?})", c.messages.last())),
        }
    }
    // The match goes on.
    drop(client);
    if ann.play(3).is_some() || ann.closed() {
        return Err(format!("{name}: ann could not play on: {:?}", ann.messages.last()));
    }
    let memory = host.memory_kb() / 1024;
    let bound = case["memory_mb"].as_u64().unwrap_or(64);
    if memory > bound {
        return Err(format!("{name}: the host holds {memory} MB, more than {bound}"));
    }
    Ok(())
}
