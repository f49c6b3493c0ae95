//! The match at a networked table: the game, synchronous, in a thread of
//! its own. Messages from the connections come in on one bounded channel
//! (`ToGame`); what each seat is told goes out on its connection's own
//! bounded channel (`Outgoing`). Every seat a person plays has a REPL
//! `Screen`, so it is told what `unolab play` would tell it, from its own
//! view (`Game::view` and `describe_for` for its seat). Bots play the other
//! seats, and a seat whose time runs out, for that one decision; their
//! choices come from the seed (`repl::bots_at`), whoever's clock ran out.

use std::io::Write as _;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use tokio::sync::mpsc::Sender;
use tokio::sync::mpsc::error::TrySendError;

use super::protocol::{self, HostMessage, SeatInfo, StyleWish, Words};
use crate::bot;
use crate::game::Game;
use crate::game::command::{ActCommand, CardRef, Command};
use crate::repl::command::{self, Input};
use crate::repl::record::{SavedGame, Setup};
use crate::repl::render::Style;
use crate::repl::screen::Screen;
use crate::repl::{bot_at, bots_at, undo_seat};
use crate::script::Runtime;
use crate::seat::Seat;

/// A connection's number, for the game thread.
pub type ConnId = u64;

/// What the game thread sends a connection.
#[derive(Debug)]
pub enum Outgoing {
    /// A message (JSON) to send.
    Send(String),
    /// Send `closing` with this reason, then close.
    Close(String),
}

/// A connection that gave the right code, and what its `hello` asked.
pub struct Hello {
    pub conn: ConnId,
    /// The protocol it speaks.
    pub version: u32,
    pub name: Option<String>,
    pub token: Option<String>,
    pub style: StyleWish,
    pub outbox: Sender<Outgoing>,
}

/// What reaches the game thread.
pub enum ToGame {
    /// A connection gave the right code: seat it (a new player by name, or
    /// the seat its token is for).
    Hello(Hello),
    /// A line its player typed.
    Line { conn: ConnId, text: String, seat: Option<Seat> },
    /// An action a rule declares, as protocol 2's `act` gives it.
    Act { conn: ConnId, name: String, card: Option<String>, target: Option<Seat>, seat: Option<Seat> },
    /// The connection is gone (closed, lost, or closed by the host).
    Gone { conn: ConnId },
    /// A command typed at the host.
    Host(String),
    /// The host is stopping (Ctrl-C, SIGTERM).
    Stop,
}

/// The host's commands, as its help line names them.
pub const HOST_COMMANDS: &str = "save FILE, seats, token SEAT, quit";

/// How the host set the table up.
pub struct TableSetup {
    pub setup: Setup,
    /// Seats people play: the first `humans`.
    pub humans: usize,
    /// The names of a resumed match, by seat: each seat is kept for its
    /// name (`None`: the first player without a kept name takes it).
    pub names: Vec<Option<String>>,
    /// `unolab join ADDR CODE`, to which a seat's token is added.
    pub join: String,
    pub turn_time: Duration,
    pub allow_undo: bool,
    /// Where the match is saved when it ends or the host stops.
    pub save_at_end: Option<std::path::PathBuf>,
}

/// A seat a person plays.
struct Person {
    name: Option<String>,
    token: String,
    conn: Option<(ConnId, Sender<Outgoing>)>,
    /// The protocol the connection speaks (what it is sent).
    version: u32,
    screen: Screen,
    /// Lines of the current connection carried out.
    lines: u64,
    /// The prompt last sent, not sent again unchanged.
    last_prompt: String,
    /// Since when play has waited for this seat, at which point of the
    /// history.
    waiting: Option<(usize, Instant)>,
    /// Someone has taken this seat (they may have lost the connection since).
    joined: bool,
    /// The events it had been shown when its connection was lost: back, it
    /// is told what happened since.
    gone_at: Option<usize>,
    /// Decisions a bot made for it, its time up, since its connection was
    /// lost: back, it is told.
    decided_away: usize,
    /// A connection the table stopped sending to (it was closed, or read
    /// too slowly) before its end was reported: the report still tells
    /// everyone it was lost.
    dropped: Option<ConnId>,
}

struct Table {
    setup: Setup,
    game: Game<Runtime>,
    /// The seats people play. One not taken yet with a name is kept for
    /// that name (a resumed match).
    people: Vec<Person>,
    /// `unolab join ADDR CODE`.
    join: String,
    turn_time: Duration,
    allow_undo: bool,
    /// Every person's seat has been taken once: play may go on.
    started: bool,
    /// The match is over, or the host stops.
    done: bool,
    /// The host typed `quit` while the match was under way, and is asked
    /// to say yes.
    quit_asked: bool,
}

/// A secret from the operating system's randomness (never the game's
/// seed: a code or token must not be guessable from it).
pub fn secret(chars: usize) -> String {
    use rand::RngExt as _;
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::rng();
    (0..chars).map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char).collect()
}

/// Host's log line, on its standard output.
fn log(text: &str) {
    let _ = writeln!(std::io::stdout().lock(), "{text}");
}

impl Person {
    /// Sends a message; a connection that does not keep up is let go (the
    /// seat is kept for its token).
    fn send(&mut self, message: &HostMessage) {
        let Some((_, outbox)) = &self.conn else { return };
        match outbox.try_send(Outgoing::Send(message.to_json())) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => {
                let _ = outbox
                    .try_send(Outgoing::Close("too many messages waiting: the connection reads too slowly".into()));
                self.disconnect();
            }
            Err(TrySendError::Closed(_)) => self.disconnect(),
        }
    }

    /// Stops sending to the connection; its end, reported later, tells
    /// everyone.
    fn disconnect(&mut self) {
        if let Some((conn, _)) = self.conn.take() {
            self.dropped = Some(conn);
            self.gone_at = Some(self.screen.shown);
        }
    }

    fn close(&mut self, reason: &str) {
        if let Some((_, outbox)) = self.conn.take() {
            let _ = outbox.try_send(Outgoing::Close(reason.into()));
            self.gone_at = Some(self.screen.shown);
        }
    }

    /// Text for the seat: in pieces that each fit a message, and no more
    /// than `limits::OUTPUT_BYTES` of it.
    fn output(&mut self, text: Vec<u8>, at: usize) {
        for text in pieces(&String::from_utf8_lossy(&text)) {
            self.send(&HostMessage::Output { text, at });
        }
    }
}

/// `text` in pieces of at most `limits::OUTPUT_PIECE` bytes, cut after a
/// line where one ends within a piece; past `limits::OUTPUT_BYTES`, the
/// rest is left out with a line that says so.
fn pieces(text: &str) -> Vec<String> {
    use crate::limits::{OUTPUT_BYTES, OUTPUT_PIECE};
    let mut text = text;
    let mut left_out = 0;
    if text.len() > OUTPUT_BYTES {
        let end = text[..text.floor_char_boundary(OUTPUT_BYTES)].rfind('\n').map_or(0, |i| i + 1);
        left_out = text[end..].lines().count();
        text = &text[..end];
    }
    let mut pieces = Vec::new();
    while !text.is_empty() {
        let mut end = text.len();
        if end > OUTPUT_PIECE {
            let cut = text.floor_char_boundary(OUTPUT_PIECE);
            end = text[..cut].rfind('\n').map_or(cut, |i| i + 1);
        }
        pieces.push(text[..end].to_string());
        text = &text[end..];
    }
    if left_out > 0 {
        pieces.push(format!(
            "({left_out} more lines left out: a seat is sent at most {} KiB at once; 'log N' shows fewer events)\n",
            OUTPUT_BYTES / 1024
        ));
    }
    pieces
}

/// Runs the table until the match ends or the host stops; the first
/// `setup.humans` seats wait for people.
pub fn run(
    table_setup: TableSetup,
    variant: std::sync::Arc<crate::variant::Variant>,
    history: Vec<String>,
    inbox: Receiver<ToGame>,
) -> Result<(), String> {
    let TableSetup { setup, humans, names, join, turn_time, allow_undo, save_at_end } = table_setup;
    let load = move |_: &crate::ruleset::LoadRequest| Ok((*variant).clone());
    let lines = history.iter().map(String::as_str);
    let (game, problem) = crate::repl::rebuild(&setup, &load, lines).map_err(|p| p.join("\n"))?;
    if let Some((_, problem)) = problem {
        return Err(format!("the saved match does not replay: {problem}"));
    }
    let players = setup.players;
    let people = (0..humans)
        .map(|seat| Person {
            name: names.get(seat).cloned().flatten(),
            token: secret(24),
            conn: None,
            version: protocol::PROTOCOL,
            screen: Screen { can_restart: false, ..Screen::new(seat, players, Style::plain()) },
            lines: 0,
            last_prompt: String::new(),
            waiting: None,
            joined: false,
            gone_at: None,
            decided_away: 0,
            dropped: None,
        })
        .collect();
    let mut table =
        Table { setup, game, people, join, turn_time, allow_undo, started: false, done: false, quit_asked: false };
    for person in &mut table.people {
        person.screen.reset(&table.game);
    }
    let result = table.play(&inbox);
    if let Some(path) = save_at_end {
        table.save(&path.display().to_string());
    }
    result
}

impl Table {
    fn play(&mut self, inbox: &Receiver<ToGame>) -> Result<(), String> {
        let table = self;
        loop {
            if let Err(e) = table.advance() {
                log(&format!("error: {e}"));
                table.tell_all(&format!("the host's game failed: {e}"));
                table.close_all(&format!("the match cannot go on: {e}"));
                return Err(e);
            }
            table.update_all();
            if table.done {
                table.close_all("the match is over");
                return Ok(());
            }
            let message = match table.next_deadline() {
                Some(deadline) => match inbox.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                    Ok(message) => Some(message),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => return Ok(()),
                },
                None => match inbox.recv() {
                    Ok(message) => Some(message),
                    Err(_) => return Ok(()),
                },
            };
            match message {
                Some(ToGame::Stop) => {
                    table.stop();
                    return Ok(());
                }
                Some(message) => {
                    if table.handle(message) {
                        table.stop();
                        return Ok(());
                    }
                }
                None => table.time_out(),
            }
        }
    }

    fn save(&mut self, path: &str) {
        let mut saved = SavedGame::of(&self.setup, &self.game);
        saved.names = (self.people.iter().enumerate())
            .filter_map(|(seat, p)| p.name.clone().map(|name| (seat, crate::yaml::Placed::unplaced(name))))
            .collect();
        match saved.write(std::path::Path::new(path)) {
            Ok(()) => log(&format!("saved to {path} (continue it with: unolab host --resume {path})")),
            Err(e) => log(&format!("not saved: {e}")),
        }
    }
}

impl Table {
    fn name(&self, seat: Seat) -> String {
        self.people.get(seat).and_then(|p| p.name.clone()).unwrap_or_else(|| format!("p{seat}"))
    }

    fn names(&self) -> Vec<Option<String>> {
        (0..self.game.players()).map(|s| self.people.get(s).and_then(|p| p.name.clone())).collect()
    }

    fn humans_mask(&self) -> u32 {
        (0..self.people.len()).fold(0, |mask, seat| mask | 1 << seat)
    }

    fn seat_of(&self, conn: ConnId) -> Option<Seat> {
        self.people.iter().position(|p| p.conn.as_ref().is_some_and(|(c, _)| *c == conn))
    }

    fn seats(&self) -> Vec<SeatInfo> {
        (0..self.game.players())
            .map(|seat| match self.people.get(seat) {
                Some(person) => {
                    SeatInfo { seat, name: self.name(seat), kind: "human".into(), connected: person.conn.is_some() }
                }
                None => SeatInfo { seat, name: format!("p{seat}"), kind: "bot".into(), connected: true },
            })
            .collect()
    }

    /// A line for every person, each in their words.
    fn tell_all(&mut self, text: &str) {
        let at = self.game.history().len();
        for person in &mut self.people {
            let mut out = Vec::new();
            let _ = person.screen.say(&mut out, text);
            person.output(out, at);
        }
    }

    /// The host stops the match: once it is under way, everyone is told
    /// the scores so far (and the host's log has them); then why the
    /// connections close.
    fn stop(&mut self) {
        if self.started {
            let at = self.game.history().len();
            for person in &mut self.people {
                let mut out = Vec::new();
                let _ = person.screen.summary(&self.game, None, &mut out);
                person.output(out, at);
            }
            let scores: Vec<String> = (self.game.table().scores().iter().enumerate())
                .map(|(seat, points)| match self.people.get(seat).and_then(|p| p.name.as_ref()) {
                    Some(name) => format!("p{seat} ({name}) {points}"),
                    None => format!("p{seat} {points}"),
                })
                .collect();
            log(&format!("stopped; scores: {}", scores.join(", ")));
        } else {
            log("stopped");
        }
        self.close_all("the host stopped the match");
    }

    fn close_all(&mut self, reason: &str) {
        for person in &mut self.people {
            person.close(reason);
        }
    }

    /// Plays the bots' moves until a person has something to decide, the
    /// hand to deal, the match to end; each person's screen is kept up.
    fn advance(&mut self) -> Result<(), String> {
        if !self.started {
            return Ok(());
        }
        let mut actions = 0;
        loop {
            self.show_events();
            for person in &mut self.people {
                person.screen.refresh_moves(&mut self.game);
            }
            let at = self.game.history().len();
            if self.game.table().match_winner().is_some() {
                for person in &mut self.people {
                    let mut out = Vec::new();
                    let _ = person.screen.announce_match_end(&self.game, &mut out);
                    let _ = person.screen.summary(&self.game, None, &mut out);
                    person.output(out, at);
                }
                log(&format!(
                    "match over: {}",
                    self.people.first().map(|p| p.screen.match_winners(&self.game)).unwrap_or_default()
                ));
                self.done = true;
                return Ok(());
            }
            if self.game.table().hand_number() == 0 || self.game.hand_over() {
                if self.game.hand_over() {
                    for person in &mut self.people {
                        let mut out = Vec::new();
                        let _ = person.screen.hand_summary(&self.game, &mut out);
                        person.output(out, at);
                    }
                }
                for person in &mut self.people {
                    person.screen.scores_at_deal = self.game.table().scores().to_vec();
                }
                self.game.deal().map_err(|e| e.to_string())?;
                continue;
            }
            if self.people.iter().any(|p| p.screen.holds_play(&self.game)) {
                return Ok(());
            }
            actions += 1;
            if actions > crate::limits::HAND_ACTIONS {
                return Err(format!("the bots made {} moves without the hand ending", crate::limits::HAND_ACTIONS));
            }
            let mut bots = bots_at(&self.setup, &self.game);
            let humans = self.humans_mask();
            match bot::next_action_among(&mut self.game, &mut bots, humans).map_err(|e| e.to_string())? {
                Some((seat, action)) => self.game.apply(action).map_err(|e| format!("p{seat} could not act: {e}"))?,
                None => return Ok(()),
            }
        }
    }

    fn show_events(&mut self) {
        let at = self.game.history().len();
        for person in &mut self.people {
            let mut out = Vec::new();
            let _ = person.screen.show_events(&self.game, &mut out);
            person.output(out, at);
        }
    }

    /// Each connected person gets what changed: events, the table, the
    /// prompt and the view.
    fn update_all(&mut self) {
        let now = Instant::now();
        let at = self.game.history().len();
        for seat in 0..self.people.len() {
            let person = &mut self.people[seat];
            let ready = self.started && person.screen.holds_play(&self.game);
            match person.waiting {
                Some((since, _)) if ready && since == at => {}
                _ => person.waiting = ready.then_some((at, now)),
            }
            if person.conn.is_none() {
                continue;
            }
            let mut out = Vec::new();
            let _ = person.screen.show_events(&self.game, &mut out);
            if self.started && !self.done && !person.screen.table_shown {
                let _ = person.screen.show_table(&self.game, &mut out);
            }
            person.output(out, at);
            let text = if self.started { person.screen.prompt(&self.game) } else { "waiting for players".into() };
            let key = format!("{ready} {} {text}", person.lines);
            if key == person.last_prompt {
                continue;
            }
            person.last_prompt = key;
            let vocabulary = person.screen.vocabulary(&self.game);
            let words = Words {
                cards: vocabulary.cards,
                keywords: vocabulary.keywords,
                colors: vocabulary.colors,
                seats: vocabulary.seats,
                actions: vocabulary.actions,
            };
            person.send(&HostMessage::Prompt { text, ready, lines: person.lines, at, words });
            if self.started {
                let names = (0..self.game.players()).map(|s| person.screen.words.label(s)).collect::<Vec<_>>();
                let moves = &person.screen.moves;
                let view = protocol::view_data(&self.game, seat, moves, person.version, |s| names[s].clone());
                person.send(&HostMessage::View { view: Box::new(view) });
            }
        }
    }

    /// When the first seat's time to act runs out.
    fn next_deadline(&self) -> Option<Instant> {
        (0..self.people.len())
            .filter_map(|seat| self.people[seat].waiting.map(|(_, since)| since + self.time_for(seat)))
            .min()
    }

    /// The time `seat` has now: its turn time, or less for a chance out of
    /// turn (play need not wait long for a catch nobody takes).
    fn time_for(&self, seat: Seat) -> Duration {
        if self.people[seat].screen.in_window(&self.game) {
            self.turn_time.min(Duration::from_secs(crate::limits::CHANCE_SECONDS))
        } else {
            self.turn_time
        }
    }

    /// A bot decides for each seat whose time ran out, and everyone is told.
    fn time_out(&mut self) {
        let now = Instant::now();
        for seat in 0..self.people.len() {
            let time = self.time_for(seat);
            let late = self.people[seat]
                .waiting
                .is_some_and(|(at, since)| at == self.game.history().len() && since + time <= now);
            if !late || !self.people[seat].screen.holds_play(&self.game) {
                continue;
            }
            self.people[seat].waiting = None;
            if self.people[seat].conn.is_none() {
                self.people[seat].decided_away += 1;
            }
            let seconds = time.as_secs_f64();
            log(&format!("p{seat} did not act within {seconds} s: a bot decided for them"));
            self.tell_all(&format!("p{seat} did not act within {seconds} s: a bot decides for p{seat} this once"));
            let bot = bots_at(&self.setup, &self.game).swap_remove(seat);
            let mut out = Vec::new();
            let _ = self.people[seat].screen.auto(&mut self.game, bot, &mut out);
            let at = self.game.history().len();
            self.people[seat].output(out, at);
            // One decision at a time: the others' clocks start again.
            break;
        }
    }

    /// Carries out a message; `true` when the host is to stop.
    fn handle(&mut self, message: ToGame) -> bool {
        match message {
            ToGame::Hello(hello) => self.hello(hello),
            ToGame::Line { conn, text, seat } => {
                if let Some(own) = self.seat_of(conn) {
                    self.line(own, seat, |game, screen| command::parse_at(game, screen, &text));
                }
            }
            ToGame::Act { conn, name, card, target, seat } => {
                if let Some(own) = self.seat_of(conn) {
                    self.line(own, seat, |game, _| {
                        let card = card.as_deref().map(|card| game.variant.names.parse_pattern(card)).transpose()?;
                        let card = card.map(CardRef::Named);
                        Ok(Input::Move(Command::Act(ActCommand { name, card, target, player: None })))
                    });
                }
            }
            ToGame::Gone { conn } => {
                let dropped = || self.people.iter().position(|p| p.dropped == Some(conn));
                if let Some(seat) = self.seat_of(conn).or_else(dropped) {
                    self.people[seat].disconnect();
                    self.people[seat].dropped = None;
                    log(&format!("p{seat} ({}) is gone", self.name(seat)));
                    if !self.done {
                        self.tell_all(&format!(
                            "p{seat} lost the connection; the seat waits for them (a bot decides when their time is up)"
                        ));
                    }
                }
            }
            ToGame::Host(line) => return self.host_command(&line),
            ToGame::Stop => return true,
        }
        false
    }

    fn hello(&mut self, Hello { conn, version, name, token, style, outbox }: Hello) {
        let refuse = |reason: String| {
            let _ = outbox.try_send(Outgoing::Close(reason));
        };
        let seat = match &token {
            Some(token) => match self.people.iter().position(|p| p.token == *token) {
                None => return refuse("that reconnect token is no seat's at this table".into()),
                Some(seat) if self.people[seat].conn.is_some() => {
                    log(&format!("refused a connection with p{seat}'s token: the seat is connected"));
                    return refuse(format!(
                        "seat p{seat} is connected: its token takes the seat back only once its connection is gone"
                    ));
                }
                Some(seat) => seat,
            },
            None => {
                let name = match name.as_deref().map(protocol::check_name) {
                    None => None,
                    Some(Ok(name)) => Some(name),
                    Some(Err(e)) => return refuse(e),
                };
                // A seat kept for the name, else the first not kept for one.
                let seat = match name.as_deref().and_then(|name| self.seat_named(name)) {
                    Some(seat) if self.people[seat].joined => {
                        let name = name.unwrap_or_default();
                        log(&format!("refused a player named {name}: the name is taken"));
                        return refuse(format!("the name '{name}' is taken at this table"));
                    }
                    Some(seat) => Some(seat),
                    None => self.people.iter().position(|p| !p.joined && p.name.is_none()),
                };
                match seat {
                    Some(seat) => {
                        if name.is_some() {
                            self.people[seat].name = name;
                        }
                        seat
                    }
                    None => {
                        let kept: Vec<String> =
                            self.people.iter().filter(|p| !p.joined).filter_map(|p| p.name.clone()).collect();
                        log("refused a player: every seat is taken or kept for a name");
                        if kept.is_empty() {
                            return refuse(
                                "every seat for a player is taken (a player who lost the connection joins with their token)"
                                    .into(),
                            );
                        }
                        return refuse(format!(
                            "the seats left are kept for {}, the names of the saved match: join with one of them (--name)",
                            kept.join(", ")
                        ));
                    }
                }
            }
        };
        let names = self.names();
        let person = &mut self.people[seat];
        person.conn = Some((conn, outbox));
        person.dropped = None;
        person.version = version;
        person.joined = true;
        person.lines = 0;
        person.last_prompt.clear();
        person.screen.style = Style {
            color: style.color,
            glyphs: style.glyphs,
            width: style.width.map_or(80, |w| usize::from(w).clamp(20, 400)),
        };
        person.screen.table_shown = false;
        let events = self.game.events().len();
        // Back after a lost connection, the events since (the last of them).
        let missed = person.gone_at.take().filter(|_| token.is_some()).map(|shown| {
            // (An undo since may have taken events back.)
            let shown = shown.min(events);
            let told = shown.max(events.saturating_sub(crate::limits::MISSED_EVENTS));
            (told - shown, told)
        });
        person.screen.shown = missed.map_or(events, |(_, told)| told);
        person.screen.passed_at = None;
        for person in &mut self.people {
            person.screen.words.names = names.clone();
        }
        let welcome = HostMessage::Welcome {
            protocol: version,
            seat,
            name: self.name(seat),
            token: self.people[seat].token.clone(),
            variant: self.game.variant.title(),
            players: self.game.players(),
            seats: self.seats(),
        };
        self.people[seat].send(&welcome);
        let back = token.is_some();
        let at = self.game.history().len();
        log(&format!("p{seat} ({}) {}", self.name(seat), if back { "is back" } else { "joined" }));
        let mut opening = Vec::new();
        let _ = writeln!(
            opening,
            "unolab: {}, {} players, seed {}; you are p{seat}. Type 'help' for commands.",
            self.game.variant.title(),
            self.game.players(),
            self.setup.seed
        );
        for note in self.game.variant.notes() {
            let _ = writeln!(opening, "note: {note}");
        }
        let decided = std::mem::take(&mut self.people[seat].decided_away);
        if let Some((left_out, told)) = missed.filter(|&(_, told)| told < events) {
            match decided {
                0 => {
                    let _ = writeln!(opening, "while you were away:");
                }
                n => {
                    let times = if n == 1 { "once".to_string() } else { format!("{n} times") };
                    let _ = writeln!(opening, "while you were away (a bot decided for you {times}, your time up):");
                }
            }
            if left_out > 0 {
                let _ = writeln!(
                    opening,
                    "  ({left_out} events before these: 'log {}' shows them all)",
                    events - told + left_out
                );
            }
            let _ = self.people[seat].screen.show_events(&self.game, &mut opening);
        }
        self.people[seat].output(opening, at);
        let others = format!("p{seat} {}", if back { "is back" } else { "joined the table" });
        for (other, person) in self.people.iter_mut().enumerate() {
            if other != seat {
                let mut out = Vec::new();
                let _ = person.screen.say(&mut out, &others);
                person.output(out, at);
            }
        }
        if !self.started {
            let missing = self.people.iter().filter(|p| !p.joined).count();
            if missing == 0 {
                self.started = true;
                log("every player is here: the match starts");
                self.tell_all("every player is here: the match starts");
            } else {
                let line = format!("waiting for {missing} more player{}", if missing == 1 { "" } else { "s" });
                self.tell_all(&line);
            }
        }
    }

    /// Carries out a line the seat sent, or protocol 2's `act` (what
    /// `read` makes of it: the input it is, or why it is none), counted
    /// among its lines. `claimed`: the seat the message says it is for.
    fn line(
        &mut self,
        seat: Seat,
        claimed: Option<Seat>,
        read: impl FnOnce(&Game<Runtime>, &Screen) -> Result<Input, String>,
    ) {
        self.people[seat].lines += 1;
        let at = self.game.history().len();
        let mut out = Vec::new();
        if let Some(claimed) = claimed.filter(|&c| c != seat) {
            let reason = format!("you play seat p{seat}: a line for p{claimed} is not yours to send");
            self.people[seat].send(&HostMessage::Refused { reason });
            return;
        }
        if !self.started {
            let _ = writeln!(out, "the match has not started: waiting for players");
            self.people[seat].output(out, at);
            return;
        }
        let input = match read(&self.game, &self.people[seat].screen) {
            Ok(input) => input,
            Err(e) => {
                let _ = self.people[seat].screen.say(&mut out, &e);
                self.people[seat].output(out, at);
                return;
            }
        };
        if matches!(input, Input::Auto(_)) && !self.people[seat].screen.holds_play(&self.game) {
            let waiting = format!("nothing waits for you now: p{} is to act", self.game.to_act());
            let _ = self.people[seat].screen.say(&mut out, &waiting);
            self.people[seat].output(out, at);
            return;
        }
        let bot = bot_at(&self.setup, &self.game, seat, input.auto_bot().unwrap_or(self.setup.bot));
        let handled = self.people[seat].screen.handle(&mut self.game, &input, || bot, &mut out).unwrap_or(true);
        let at = self.game.history().len();
        if handled {
            self.people[seat].output(out, at);
            return;
        }
        match input {
            Input::Undo if self.allow_undo => match undo_seat(&self.setup, &self.game, seat) {
                Ok((game, undone)) => {
                    self.game = game;
                    for person in &mut self.people {
                        person.screen.reset(&self.game);
                    }
                    log(&format!("p{seat} undid: {undone}"));
                    self.tell_all(&format!("p{seat} took back a decision: {undone}"));
                }
                Err(e) => {
                    let _ = self.people[seat].screen.say(&mut out, &e);
                }
            },
            Input::Undo => {
                let _ = writeln!(out, "undo is the host's to allow, and this host does not (unolab host --allow-undo)");
            }
            Input::Pace(_) => {
                let _ = writeln!(out, "a networked table goes at its players' pace: the bots play at once");
            }
            Input::Eval(_) => {
                let _ = writeln!(out, "eval reads every hand: it is for a table of your own (unolab play)");
            }
            Input::Trace(_) => {
                let _ = writeln!(out, "trace is for a table of your own (unolab play): the host's rules are shared");
            }
            Input::Save(_) | Input::Load(_) | Input::New(_) | Input::Reload => {
                let _ = writeln!(out, "save, load, new and reload are the host's at a networked table");
            }
            Input::Quit => {
                let mut summary = Vec::new();
                let _ = self.people[seat].screen.summary(&self.game, None, &mut summary);
                self.people[seat].output(summary, at);
                let token = self.people[seat].token.clone();
                self.people[seat]
                    .close(&format!("you left the table; your seat waits for you (join again with --token {token})"));
                log(&format!("p{seat} ({}) left", self.name(seat)));
                self.tell_all(&format!("p{seat} left the table; the seat waits for them"));
                return;
            }
            _ => {}
        }
        self.people[seat].output(out, at);
    }

    /// The seat of the person of this name (taken, or kept for it), in any
    /// case.
    fn seat_named(&self, name: &str) -> Option<Seat> {
        self.people.iter().position(|p| p.name.as_deref().is_some_and(|n| n.eq_ignore_ascii_case(name)))
    }

    /// The seat a person plays, by `pN`, its number or its player's name.
    fn seat_called(&self, called: &str) -> Result<Seat, String> {
        if called.is_empty() {
            return Err("token SEAT: name the seat (p1, 1, or its player's name)".into());
        }
        let number = called.strip_prefix(['p', 'P']).unwrap_or(called).parse::<Seat>().ok();
        let seat = number.or_else(|| self.seat_named(called));
        match seat {
            Some(seat) if seat < self.people.len() => Ok(seat),
            Some(seat) if seat < self.game.players() => Err(format!("p{seat} is a bot's seat: it has no token")),
            _ => Err(format!("no seat or player is called '{called}' ('seats' lists them)")),
        }
    }

    /// A command typed at the host (`HOST_COMMANDS`). `true` when the host
    /// is to stop. `quit` while the match is under way asks first: "yes"
    /// ends it; anything else lets it go on, and a command is carried out.
    fn host_command(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        if std::mem::take(&mut self.quit_asked) {
            let answer = command::yes_or_no(line);
            if answer == Some(true) {
                return true;
            }
            log("the match goes on");
            if answer == Some(false) {
                return false;
            }
        }
        match word {
            "" => {}
            "save" if !rest.trim().is_empty() => {
                self.save(rest.trim());
                self.tell_all("the host saved the match");
            }
            "seats" => {
                for info in self.seats() {
                    let seat = info.seat;
                    let state = match self.people.get(seat) {
                        None => "",
                        Some(p) if !p.joined && p.name.is_some() => ", not joined yet: kept for this name",
                        Some(p) if !p.joined => ", not joined yet",
                        Some(p) if p.conn.is_none() => ", not connected: 'token SEAT' shows its token",
                        Some(_) => "",
                    };
                    log(&format!("p{seat}: {} ({}{state})", info.name, info.kind));
                }
            }
            "token" => match self.seat_called(rest.trim()) {
                Ok(seat) => {
                    let person = &self.people[seat];
                    let connected = if person.conn.is_some() { " (once its connection is gone)" } else { "" };
                    log(&format!(
                        "p{seat} ({}) takes the seat back with{connected}: {} --token {}",
                        self.name(seat),
                        self.join,
                        person.token
                    ));
                }
                Err(e) => log(&e),
            },
            "quit" | "stop" | "exit" if self.started && !self.done => {
                self.quit_asked = true;
                log("end the match for every player? (yes/no; 'save FILE' first keeps it)");
            }
            "quit" | "stop" | "exit" => return true,
            _ => log(&format!("host commands: {HOST_COMMANDS}")),
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::pieces;
    use crate::limits::{MESSAGE_BYTES, OUTPUT_BYTES, OUTPUT_PIECE};
    use crate::net::protocol::HostMessage;

    #[test]
    fn long_text_goes_in_pieces_that_each_fit_a_message() {
        let line = "  p2 plays red 5 \u{1b}[31m\"é\"\u{1b}[0m\n";
        let text = line.repeat(400);
        let sent = pieces(&text);
        assert!(sent.len() > 1);
        assert_eq!(sent.concat(), text);
        for piece in &sent {
            assert!(piece.len() <= OUTPUT_PIECE && piece.ends_with('\n'), "{piece:?}");
            let json = HostMessage::Output { text: piece.clone(), at: 0 }.to_json();
            assert!(json.len() <= MESSAGE_BYTES, "{}", json.len());
        }
        // The worst case: every byte escaped, no line ends.
        let escapes = pieces(&"\u{1}".repeat(5000));
        assert!(
            escapes.iter().all(|p| HostMessage::Output { text: p.clone(), at: 0 }.to_json().len() <= MESSAGE_BYTES)
        );
        assert_eq!(escapes.concat().len(), 5000);
    }

    #[test]
    fn text_past_the_bound_is_left_out_and_the_seat_told() {
        let text = "0123456789\n".repeat(OUTPUT_BYTES / 11 + 100);
        let sent = pieces(&text);
        let last = sent.last().unwrap();
        assert!(last.contains("more lines left out"), "{last}");
        let kept: usize = sent[..sent.len() - 1].iter().map(String::len).sum();
        assert!(kept <= OUTPUT_BYTES && kept > OUTPUT_BYTES - 11);
        assert!(last.starts_with(&format!("({} more lines", (text.len() - kept) / 11)), "{last}");
    }
}
