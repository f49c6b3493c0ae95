//! `unolab join ADDR CODE`: a seat at a networked table, at the keyboard
//! as in `unolab play` (the same prompts, completion, colours, glyphs,
//! help, rules and log: the host's REPL for the seat), or from piped lines.
//! Lines are read in a thread of their own, one each time the host's
//! prompt says play waits for this seat; what the host says is printed as
//! it comes (above the line being typed, at a terminal). A connection lost
//! is tried again with the seat's reconnect token.

use std::io::{IsTerminal, Write};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

use super::protocol::{self, ClientMessage, HostMessage, StyleWish};
use crate::repl::input::{Line, LineSource, Piped, Terminal, Vocabulary};

/// Where what the host says is printed.
type Printer = Box<dyn FnMut(String) + Send>;

/// What `join` is given.
pub struct JoinOptions {
    pub addr: String,
    pub code: String,
    pub name: Option<String>,
    pub token: Option<String>,
    pub glyphs: bool,
}

/// What the line reader is asked to do.
enum Ask {
    Line { prompt: String, words: Vocabulary },
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

/// Runs the client; returns the exit code.
pub fn join(options: JoinOptions) -> i32 {
    let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let color = terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let width = if terminal { crate::repl::render::terminal_width() } else { 80 };
    let style = StyleWish { color, glyphs: options.glyphs, width: Some(width.min(400) as u16) };
    // The line reader: a terminal (rustyline) or piped lines.
    let (ask_tx, ask_rx) = std::sync::mpsc::channel::<Ask>();
    let (typed_tx, mut typed_rx) = mpsc::channel::<Typed>(4);
    std::thread::spawn(move || read_lines(terminal, color, ask_rx, typed_tx));
    // What the host says is printed as it comes. (rustyline's external
    // printer would draw it above a line being typed, but it leaves keys
    // that come together unread until the next one: a line is read only
    // while play waits for this seat, when the host has little to say.)
    let mut printer: Printer = Box::new(|text: String| {
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
    });
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            complain(&format!("error: {e}"));
            return 1;
        }
    };
    let mut token = options.token.clone();
    let mut tries = 0;
    loop {
        let ended =
            runtime.block_on(session(&options, &mut token, style, terminal, &ask_tx, &mut typed_rx, &mut printer));
        match ended {
            Ended::Left => return 0,
            Ended::Closed { reason, welcomed } => {
                printer(format!("the host closed the connection: {reason}\n"));
                return if welcomed { 0 } else { 1 };
            }
            Ended::Lost { welcomed: false, why } if token.is_none() || tries > 0 => {
                if tries > 0 {
                    complain(&format!("error: could not take the seat back: {why}"));
                } else {
                    complain(&format!("error: could not join {}: {why}", options.addr));
                }
                return 1;
            }
            Ended::Lost { why, .. } => {
                tries += 1;
                if tries > crate::limits::RECONNECT_TRIES {
                    complain(&format!("error: the connection is lost ({why}); join again with your token"));
                    return 1;
                }
                printer(format!(
                    "the connection is lost ({why}); trying again ({tries} of {})\n",
                    crate::limits::RECONNECT_TRIES
                ));
                std::thread::sleep(Duration::from_secs(1));
            }
        }
    }
}

fn complain(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// Reads a line each time it is asked, until input ends.
fn read_lines(terminal: bool, color: bool, asks: std::sync::mpsc::Receiver<Ask>, typed: mpsc::Sender<Typed>) {
    let mut source: Box<dyn LineSource> = if terminal {
        match Terminal::new(color) {
            Ok(terminal) => Box::new(terminal),
            Err(e) => {
                complain(&format!("error: {e}"));
                let _ = typed.blocking_send(Typed::End);
                return;
            }
        }
    } else {
        Box::new(Piped::new(std::io::stdin().lock()))
    };
    let mut told_how_to_quit = false;
    while let Ok(Ask::Line { prompt, words }) = asks.recv() {
        source.set_vocabulary(words);
        loop {
            let line = match source.read_line(&format!("{prompt}> ")) {
                Ok(Line::Text(text)) => Typed::Line(text),
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

/// One connection to the host, until it ends.
async fn session(
    options: &JoinOptions,
    token: &mut Option<String>,
    style: StyleWish,
    terminal: bool,
    asks: &std::sync::mpsc::Sender<Ask>,
    typed: &mut mpsc::Receiver<Typed>,
    printer: &mut Printer,
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
        protocol: protocol::PROTOCOL,
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
    // Lines sent on this connection, and whether the reader is at work.
    let (mut sent, mut asking, mut leaving) = (0u64, false, false);
    loop {
        tokio::select! {
            incoming = socket.next() => {
                let text = match incoming {
                    None => return if leaving { Ended::Left } else { Ended::Lost { welcomed, why: "the host closed the connection".into() } },
                    Some(Err(e)) => return if leaving { Ended::Left } else { Ended::Lost { welcomed, why: e.to_string() } },
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(_)) => continue,
                };
                let Ok(message) = serde_json::from_str::<HostMessage>(text.as_str()) else { continue };
                match message {
                    HostMessage::Welcome { seat, name, token: given, .. } => {
                        welcomed = true;
                        *token = Some(given.clone());
                        let you = if name == format!("p{seat}") { format!("p{seat}") } else { format!("p{seat} ({name})") };
                        printer(format!(
                            "joined {} as {you}; to take the seat back after a lost connection: unolab join {} {} --token {given}\n",
                            options.addr, options.addr, options.code
                        ));
                    }
                    HostMessage::Output { text, .. } => printer(text),
                    HostMessage::Refused { reason } => printer(format!("refused: {reason}\n")),
                    HostMessage::Closing { reason } => {
                        if leaving {
                            printer(format!("{reason}\n"));
                            return Ended::Left;
                        }
                        return Ended::Closed { reason, welcomed };
                    }
                    HostMessage::View { .. } => {}
                    HostMessage::Prompt { text, ready, lines, words, .. } => {
                        if !terminal && ready && text.starts_with("you may") {
                            printer(format!("{text}\n"));
                        }
                        if ready && lines == sent && !asking && !leaving {
                            let words = Vocabulary {
                                cards: words.cards,
                                keywords: words.keywords,
                                colors: words.colors,
                                seats: words.seats,
                                actions: words.actions,
                            };
                            if asks.send(Ask::Line { prompt: text, words }).is_err() {
                                return Ended::Left;
                            }
                            asking = true;
                        }
                    }
                }
            }
            line = typed.recv(), if asking => {
                asking = false;
                let text = match line {
                    Some(Typed::Line(text)) => text,
                    Some(Typed::End) | None => {
                        if !terminal {
                            printer("input ended\n".into());
                        }
                        leaving = true;
                        "quit".to_string()
                    }
                };
                if !terminal && !text.trim().is_empty() && !leaving {
                    printer(format!("> {}\n", text.trim()));
                }
                if text.trim().eq_ignore_ascii_case("quit") || text.trim().eq_ignore_ascii_case("q") || text.trim().eq_ignore_ascii_case("exit") {
                    leaving = true;
                }
                let line = serde_json::to_string(&ClientMessage::Line { text, seat: None }).unwrap_or_default();
                sent += 1;
                if socket.send(Message::text(line)).await.is_err() {
                    return Ended::Lost { welcomed, why: "the connection broke".into() };
                }
            }
        }
    }
}
