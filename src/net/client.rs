//! `unolab join ADDR CODE`: a seat at a networked table, at the keyboard
//! as in `unolab play` (the same prompts, completion, colours, glyphs,
//! help, rules and log: the host's REPL for the seat), or from piped lines.
//! Lines are read in a thread of their own. At a terminal a line can be
//! typed at any time (`rules`, `log`, `help` while the others play; a move
//! out of turn is the host's to refuse), and what the host says is shown
//! above the line being typed; piped lines are read one each time the
//! host's prompt says play waits for this seat. A connection lost is tried
//! again with the seat's reconnect token.

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::sync::{Notify, mpsc};
use tokio_tungstenite::tungstenite::Message;

use super::protocol::{self, ClientMessage, HostMessage, StyleWish};
use crate::repl::input::{Line, LineSource, Piped, Printer, ShownPrompt, Terminal, Vocabulary, Words};

/// What `join` is given.
pub struct JoinOptions {
    pub addr: String,
    pub code: String,
    pub name: Option<String>,
    pub token: Option<String>,
    pub glyphs: bool,
}

/// A line to read, after this prompt.
struct Ask {
    prompt: String,
}

/// What the line reader gives back.
enum Typed {
    Line(String),
    End,
}

/// The URL for an address: `HOST:PORT` or a `ws://` URL as it is.
fn url(addr: &str) -> String {
    if addr.starts_with("ws://") || addr.starts_with("wss://") { addr.to_string() } else { format!("ws://{addr}/") }
}

/// How a session with the host ended.
enum Ended {
    /// The host closed it, with its reason (after a welcome or not).
    Closed { reason: String, welcomed: bool },
    /// The connection was lost (after a welcome or not).
    Lost { welcomed: bool, why: String },
    /// Input ended and the host let the seat go.
    Left,
}

/// The line reader, as the sessions see it: where to ask for a line, what
/// it typed, the words it completes, and what it says it shows.
struct Reader {
    terminal: bool,
    asks: Option<std::sync::mpsc::Sender<Ask>>,
    typed: mpsc::Receiver<Typed>,
    words: Option<Words>,
    /// What the prompt of the line being typed shows, where the host has
    /// moved on from what it was asked with.
    shown_prompt: Option<ShownPrompt>,
    /// A line is being read (asked for, not yet typed).
    asking: bool,
    /// The prompt it was asked with.
    asked: String,
    /// Set before the reader is stopped: a line cancelled then ends it.
    stopping: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// Shows what the host says, in a thread of its own (at a terminal,
/// through the line editor, which draws it above the line being typed).
struct Shown {
    lines: Option<std::sync::mpsc::Sender<String>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Shown {
    fn new(mut printer: Printer) -> Shown {
        let (lines, texts) = std::sync::mpsc::channel::<String>();
        let thread = std::thread::spawn(move || {
            for text in texts {
                printer(text);
            }
            // At a terminal this waits until the line editor has taken the
            // text before it (and shown it: it shows each as it takes it);
            // nothing is shown of it.
            printer(String::new());
        });
        Shown { lines: Some(lines), thread: Some(thread) }
    }

    fn print(&self, text: String) {
        if text.is_empty() {
            return;
        }
        if let Some(lines) = &self.lines {
            let _ = lines.send(text);
        }
    }

    /// Waits until everything given has been handed on, two seconds at
    /// most (a terminal that is gone may leave the line editor's printer
    /// waiting for ever).
    fn finish(&mut self) {
        self.lines = None;
        let Some(thread) = self.thread.take() else { return };
        let deadline = std::time::Instant::now() + Duration::from_secs(2);
        while !thread.is_finished() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        if thread.is_finished() {
            let _ = thread.join();
        }
    }
}

fn stdout_printer() -> Printer {
    Box::new(|text: String| {
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
    })
}

/// Runs the client; returns the exit code.
pub fn join(options: JoinOptions) -> i32 {
    let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let color = terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let width = if terminal { crate::repl::render::terminal_width() } else { 80 };
    let style = StyleWish { color, glyphs: options.glyphs, width: Some(width.min(400) as u16) };
    let interrupted = Arc::new(Notify::new());
    if terminal {
        // Ctrl-C between two lines, SIGTERM or SIGHUP: leave the table (at
        // the prompt, the line editor takes Ctrl-C: it clears the line).
        let interrupted = interrupted.clone();
        let _ = ctrlc::set_handler(move || interrupted.notify_one());
    }
    let (mut reader, printer) = Reader::start(terminal, color);
    let mut shown = Shown::new(printer.unwrap_or_else(stdout_printer));
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            complain(&format!("error: {e}"));
            return 1;
        }
    };
    let mut token = options.token.clone();
    let mut tries = 0;
    let (code, last_words) = loop {
        let ended = runtime.block_on(session(&options, &mut token, style, &mut reader, &shown, &interrupted));
        match ended {
            Ended::Left => break (0, None),
            Ended::Closed { reason, welcomed } => {
                break (if welcomed { 0 } else { 1 }, Some(format!("the host closed the connection: {reason}\n")));
            }
            Ended::Lost { welcomed: false, why } if token.is_none() => {
                complain(&format!("error: could not join {}: {why}", options.addr));
                break (1, None);
            }
            // Lost, or a try to take the seat back failed: tried again, a
            // second longer each time, up to `RECONNECT_TRIES` in a row.
            Ended::Lost { welcomed, why } => {
                if welcomed {
                    tries = 0;
                }
                tries += 1;
                if tries > crate::limits::RECONNECT_TRIES {
                    complain(&format!(
                        "error: could not take the seat back ({why}); to try again: unolab join {} {} --token {}",
                        options.addr,
                        options.code,
                        token.as_deref().unwrap_or_default()
                    ));
                    break (1, None);
                }
                shown.print(format!(
                    "the connection is lost ({why}); trying again ({tries} of {})\n",
                    crate::limits::RECONNECT_TRIES
                ));
                std::thread::sleep(Duration::from_secs(u64::from(tries)));
            }
        }
    };
    // What was shown is on the screen before the line editor lets go of
    // the terminal; the last words come after.
    shown.finish();
    reader.stop();
    if let Some(text) = last_words {
        stdout_printer()(text);
    }
    code
}

fn complain(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

impl Reader {
    /// Starts the reader's thread; at a terminal, also returns the printer
    /// that shows text above the line being typed.
    fn start(terminal: bool, color: bool) -> (Reader, Option<Printer>) {
        let (asks, ask_rx) = std::sync::mpsc::channel::<Ask>();
        let (typed_tx, typed) = mpsc::channel::<Typed>(4);
        let (given_tx, given) = std::sync::mpsc::channel::<Given>();
        let stopping = Arc::new(AtomicBool::new(false));
        let stop = stopping.clone();
        let thread = std::thread::spawn(move || read_lines(terminal, color, &ask_rx, &typed_tx, &given_tx, &stop));
        let (printer, words, shown_prompt) = given.recv().unwrap_or((None, None, None));
        let reader = Reader {
            terminal,
            asks: Some(asks),
            typed,
            words,
            shown_prompt,
            asking: false,
            asked: String::new(),
            stopping,
            thread: Some(thread),
        };
        (reader, printer)
    }

    /// Asks for a line after `prompt`.
    fn ask(&mut self, prompt: String) -> bool {
        self.show_prompt(None);
        self.asked = prompt.clone();
        self.asking = true;
        self.asks.as_ref().is_some_and(|asks| asks.send(Ask { prompt }).is_ok())
    }

    /// What the prompt of the line being typed shows from its next redraw:
    /// `None`, what it was asked with.
    fn show_prompt(&self, prompt: Option<String>) {
        if let Some(shared) = &self.shown_prompt {
            *shared.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = prompt;
        }
    }

    /// The words completion offers from now on.
    fn set_words(&self, words: protocol::Words) {
        if let Some(shared) = &self.words {
            *shared.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Vocabulary {
                cards: words.cards,
                keywords: words.keywords,
                colors: words.colors,
                seats: words.seats,
                actions: words.actions,
            };
        }
    }

    /// Ends the reader: a line being typed at a terminal is cancelled (the
    /// line editor gives the terminal back as it found it).
    fn stop(&mut self) {
        self.stopping.store(true, Ordering::SeqCst);
        self.asks = None;
        let Some(thread) = self.thread.take() else { return };
        if self.terminal {
            // The line editor takes SIGINT as Ctrl-C while it reads.
            let deadline = std::time::Instant::now() + Duration::from_secs(2);
            while !thread.is_finished() && std::time::Instant::now() < deadline {
                let _ = nix::sys::signal::raise(nix::sys::signal::Signal::SIGINT);
                std::thread::sleep(Duration::from_millis(20));
            }
            if thread.is_finished() {
                let _ = thread.join();
            }
        }
        // Piped input: the thread may wait for a line that never comes; it
        // ends with the process.
    }
}

/// What the line reader's thread gives the client: at a terminal, where to
/// show text above the line, the words it completes, and its prompt.
type Given = (Option<Printer>, Option<Words>, Option<ShownPrompt>);

/// Reads a line each time it is asked, until input ends or it is stopped.
fn read_lines(
    terminal: bool,
    color: bool,
    asks: &std::sync::mpsc::Receiver<Ask>,
    typed: &mpsc::Sender<Typed>,
    given: &std::sync::mpsc::Sender<Given>,
    stopping: &AtomicBool,
) {
    let mut source: Box<dyn LineSource> = if terminal {
        match Terminal::new(color) {
            Ok(mut terminal) => {
                let _ = given.send((terminal.printer(), terminal.words(), terminal.shown_prompt()));
                Box::new(terminal)
            }
            Err(e) => {
                complain(&format!("error: {e}"));
                let _ = given.send((None, None, None));
                let _ = typed.blocking_send(Typed::End);
                return;
            }
        }
    } else {
        let _ = given.send((None, None, None));
        Box::new(Piped::new(std::io::stdin().lock()))
    };
    let mut told_how_to_quit = false;
    while let Ok(Ask { prompt }) = asks.recv() {
        loop {
            let line = match source.read_line(&format!("{prompt}> ")) {
                Ok(Line::Text(text)) => Typed::Line(text),
                Ok(Line::Cancelled) if stopping.load(Ordering::SeqCst) => return,
                Ok(Line::Cancelled) => {
                    if !std::mem::replace(&mut told_how_to_quit, true) {
                        let _ = writeln!(
                            std::io::stdout().lock(),
                            "(Ctrl-C clears the line; 'quit' or Ctrl-D leaves the table)"
                        );
                    }
                    continue;
                }
                Ok(Line::Unreadable) => {
                    let _ = writeln!(
                        std::io::stdout().lock(),
                        "that line is not text this game can read (UTF-8, at most 4096 bytes); ignored"
                    );
                    continue;
                }
                Ok(Line::End) | Err(_) => Typed::End,
            };
            if typed.blocking_send(line).is_err() {
                return;
            }
            break;
        }
    }
}

/// How long what the host says is held for the message after it.
const HELD_AT_MOST: Duration = Duration::from_millis(150);

/// One connection to the host, until it ends.
async fn session(
    options: &JoinOptions,
    token: &mut Option<String>,
    style: StyleWish,
    reader: &mut Reader,
    shown: &Shown,
    interrupted: &Notify,
) -> Ended {
    let connected = tokio::time::timeout(
        Duration::from_secs(10),
        tokio_tungstenite::connect_async_with_config(url(&options.addr), Some(super::host::websocket_config()), false),
    )
    .await;
    let mut socket = match connected {
        Err(_) => return Ended::Lost { welcomed: false, why: "no answer within 10 s".into() },
        Ok(Err(tokio_tungstenite::tungstenite::Error::Http(response))) => {
            let body = response.body().as_deref().map(String::from_utf8_lossy).unwrap_or_default().into_owned();
            return Ended::Closed { reason: format!("{} {body}", response.status()), welcomed: false };
        }
        Ok(Err(e)) => return Ended::Lost { welcomed: false, why: e.to_string() },
        Ok(Ok((socket, _))) => socket,
    };
    let hello = ClientMessage::Hello {
        protocol: protocol::JOIN_PROTOCOL,
        code: options.code.clone(),
        name: options.name.clone(),
        token: token.clone(),
        style,
    };
    let hello = serde_json::to_string(&hello).unwrap_or_default();
    if let Err(e) = socket.send(Message::text(hello)).await {
        return Ended::Lost { welcomed: false, why: e.to_string() };
    }
    let mut welcomed = false;
    // Lines sent on this connection, and whether the seat is leaving.
    let (mut sent, mut leaving) = (0u64, false);
    // At a terminal, what the host says is held until its next message (a
    // moment at most): showing it redraws the line being typed below it,
    // and the prompt that comes with it is then the one drawn.
    let (mut held, mut held_since) = (String::new(), tokio::time::Instant::now());
    loop {
        let asking = reader.asking;
        let line = tokio::select! {
            incoming = socket.next() => {
                if !matches!(incoming, Some(Ok(_))) {
                    shown.print(std::mem::take(&mut held));
                }
                let text = match incoming {
                    None => return if leaving { Ended::Left } else { Ended::Lost { welcomed, why: "the host closed the connection".into() } },
                    Some(Err(e)) => return if leaving { Ended::Left } else { Ended::Lost { welcomed, why: e.to_string() } },
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(_)) => continue,
                };
                let Ok(message) = serde_json::from_str::<HostMessage>(text.as_str()) else { continue };
                match &message {
                    HostMessage::Output { .. } => {}
                    HostMessage::Prompt { text, ready, lines, .. } => {
                        if reader.asking && !leaving && *lines == sent {
                            // The prompt follows: bare while play waits
                            // for others (a question that is gone is not
                            // asked).
                            reader.show_prompt(match ready {
                                false => Some("> ".into()),
                                true if *text == reader.asked => None,
                                true => Some(format!("{text}> ")),
                            });
                        }
                        shown.print(std::mem::take(&mut held));
                    }
                    _ => shown.print(std::mem::take(&mut held)),
                }
                match message {
                    HostMessage::Welcome { seat, name, token: given, .. } => {
                        welcomed = true;
                        *token = Some(given.clone());
                        let you = if name == format!("p{seat}") { format!("p{seat}") } else { format!("p{seat} ({name})") };
                        shown.print(format!(
                            "joined {} as {you}; to take the seat back after a lost connection: unolab join {} {} --token {given}\n",
                            options.addr, options.addr, options.code
                        ));
                    }
                    HostMessage::Output { text, .. } if reader.terminal => {
                        if held.is_empty() {
                            held_since = tokio::time::Instant::now();
                        }
                        held += &text;
                    }
                    HostMessage::Output { text, .. } => shown.print(text),
                    HostMessage::Refused { reason } => shown.print(format!("refused: {reason}\n")),
                    HostMessage::Closing { reason } => {
                        if leaving {
                            shown.print(format!("{reason}\n"));
                            return Ended::Left;
                        }
                        return Ended::Closed { reason, welcomed };
                    }
                    HostMessage::View { .. } => {}
                    HostMessage::Prompt { text, ready, lines, words, .. } => {
                        if !reader.terminal && ready && text.starts_with("you may") {
                            shown.print(format!("{text}\n"));
                        }
                        reader.set_words(words);
                        if leaving || lines != sent {
                            continue;
                        }
                        if !reader.asking {
                            // At a terminal a line may be typed at any time
                            // (a bare prompt while play waits for others);
                            // piped lines are read when play waits for the seat.
                            let prompt = if ready { text } else { String::new() };
                            if (ready || reader.terminal) && !reader.ask(prompt) {
                                return Ended::Left;
                            }
                        } else if ready && text != reader.asked {
                            // What is asked now, above a line asked before.
                            shown.print(format!("{text}\n"));
                        }
                    }
                }
                continue;
            }
            () = tokio::time::sleep_until(held_since + HELD_AT_MOST), if !held.is_empty() => {
                shown.print(std::mem::take(&mut held));
                continue;
            }
            // Ctrl-C between two lines, SIGTERM, SIGHUP: as Ctrl-D.
            () = interrupted.notified() => None,
            typed = reader.typed.recv(), if asking => {
                reader.asking = false;
                typed
            }
        };
        let text = match line {
            Some(Typed::Line(text)) => text,
            Some(Typed::End) | None => {
                if !reader.terminal {
                    shown.print("input ended\n".into());
                }
                leaving = true;
                "quit".to_string()
            }
        };
        if !reader.terminal && !text.trim().is_empty() && !leaving {
            shown.print(format!("> {}\n", text.trim()));
        }
        if ["quit", "q", "exit"].iter().any(|word| text.trim().eq_ignore_ascii_case(word)) {
            leaving = true;
        }
        let line = serde_json::to_string(&ClientMessage::Line { text, seat: None }).unwrap_or_default();
        sent += 1;
        if socket.send(Message::text(line)).await.is_err() {
            return Ended::Lost { welcomed, why: "the connection broke".into() };
        }
    }
}
