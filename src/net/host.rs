//! `unolab host`: the network edge of a networked table. A tokio runtime
//! (one thread) accepts connections on the address given (loopback unless
//! `--listen` says otherwise), makes each a WebSocket, checks its `hello`
//! and passes what it says to the game thread (`table.rs`), and sends the
//! connection what the game thread has for it. Every connection is
//! bounded: the connections at once, the time to say hello, the size of a
//! message, messages a second, refused messages, and messages waiting to
//! be sent; each is closed with its reason when it goes past one.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::SyncSender;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use super::protocol::{self, ClientMessage, HostMessage};
use super::table::{ConnId, Hello, Outgoing, ToGame};
use crate::limits;

/// The WebSocket settings of both ends: no message or frame past
/// `limits::MESSAGE_BYTES`.
pub fn websocket_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .max_message_size(Some(limits::MESSAGE_BYTES))
        .max_frame_size(Some(limits::MESSAGE_BYTES))
        .max_write_buffer_size(limits::MESSAGE_BYTES * limits::OUTBOX_MESSAGES)
}

/// What every connection shares.
struct Edge {
    code: String,
    game: SyncSender<ToGame>,
    connections: AtomicUsize,
    next_conn: AtomicU64,
}

/// Accepts connections until `stop` fires, then waits (briefly) for the
/// connections to say their last words.
pub async fn serve(
    listener: TcpListener,
    code: String,
    game: SyncSender<ToGame>,
    stop: tokio::sync::oneshot::Receiver<()>,
) {
    let edge = Arc::new(Edge { code, game, connections: AtomicUsize::new(0), next_conn: AtomicU64::new(1) });
    tokio::pin!(stop);
    loop {
        tokio::select! {
            _ = &mut stop => break,
            accepted = listener.accept() => {
                let Ok((stream, peer)) = accepted else { continue };
                let edge = edge.clone();
                if edge.connections.fetch_add(1, Ordering::SeqCst) >= limits::CONNECTIONS {
                    tokio::spawn(async move {
                        refuse_busy(stream).await;
                        edge.connections.fetch_sub(1, Ordering::SeqCst);
                    });
                    continue;
                }
                tokio::spawn(async move {
                    connection(&edge, stream, peer).await;
                    edge.connections.fetch_sub(1, Ordering::SeqCst);
                });
            }
        }
    }
    drop(listener);
    // The game thread has told each connection why it closes; they send it.
    let deadline = Instant::now() + Duration::from_secs(2);
    while edge.connections.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// One connection too many: an HTTP answer that says so, and closed.
async fn refuse_busy(mut stream: TcpStream) {
    let reason = format!("the host serves {} connections at once: try again later", limits::CONNECTIONS);
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{reason}",
        reason.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), stream.write_all(answer.as_bytes())).await;
    let _ = stream.shutdown().await;
}

type Socket = tokio_tungstenite::WebSocketStream<TcpStream>;

/// Sends `closing` with its reason, then closes.
///
/// The closing handshake is finished before the socket is dropped: what the
/// client still sends is read and thrown away until its Close frame comes
/// back (or a second passes). Dropping a socket with unread data in it
/// resets the connection, and a client still writing then loses the
/// reason it was sent.
async fn close(socket: &mut Socket, reason: &str) {
    let message = HostMessage::Closing { reason: reason.to_string() }.to_json();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(1);
    let _ = tokio::time::timeout_at(deadline, socket.send(Message::text(message))).await;
    let _ = tokio::time::timeout_at(deadline, socket.close(None)).await;
    let drain = async { while let Some(Ok(_)) = socket.next().await {} };
    let _ = tokio::time::timeout_at(deadline + Duration::from_secs(1), drain).await;
}

/// What a message of the connection's own is, or why it is not one.
fn read(message: &Message) -> Result<Option<ClientMessage>, String> {
    match message {
        Message::Text(text) => serde_json::from_str(text.as_str())
            .map(Some)
            .map_err(|e| format!("not a message of the protocol (docs/protocol.md): {e}")),
        Message::Binary(_) => Err("binary messages are not of the protocol: send JSON as text".into()),
        Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => Ok(None),
        Message::Close(_) => Ok(None),
    }
}

/// A bucket of messages a connection may send: `MESSAGES_PER_SECOND`
/// come back each second, up to `MESSAGE_BURST`.
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn new() -> Bucket {
        Bucket { tokens: f64::from(limits::MESSAGE_BURST), at: Instant::now() }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() * f64::from(limits::MESSAGES_PER_SECOND);
        self.tokens = (self.tokens + refill).min(f64::from(limits::MESSAGE_BURST));
        self.at = now;
        if self.tokens < 1.0 {
            return false;
        }
        self.tokens -= 1.0;
        true
    }
}

async fn connection(edge: &Edge, stream: TcpStream, peer: SocketAddr) {
    let hello_by = tokio::time::Instant::now() + Duration::from_millis(limits::HELLO_MILLIS);
    let accepted = tokio::time::timeout_at(
        hello_by,
        tokio_tungstenite::accept_async_with_config(stream, Some(websocket_config())),
    )
    .await;
    let Ok(Ok(mut socket)) = accepted else { return };
    // The hello: the code, then a seat.
    let hello = loop {
        let next = match tokio::time::timeout_at(hello_by, socket.next()).await {
            Err(_) => return close(&mut socket, "no hello within the time a connection has to say it").await,
            Ok(None) => return,
            Ok(Some(Err(e))) => return close(&mut socket, &receive_error(&e)).await,
            Ok(Some(Ok(message))) => message,
        };
        match read(&next) {
            Ok(None) => continue,
            Ok(Some(message)) => break message,
            Err(e) => return close(&mut socket, &e).await,
        }
    };
    let ClientMessage::Hello { protocol: version, code, name, token, style } = hello else {
        return close(&mut socket, "say hello first (with the join code)").await;
    };
    if !(protocol::OLDEST_PROTOCOL..=protocol::PROTOCOL).contains(&version) {
        let reason =
            format!("this host speaks protocol {} to {}, not {version}", protocol::OLDEST_PROTOCOL, protocol::PROTOCOL);
        return close(&mut socket, &reason).await;
    }
    if !same_secret(&code, &edge.code) {
        eprintln_peer(peer, "gave a wrong join code");
        return close(&mut socket, "wrong join code").await;
    }
    let conn: ConnId = edge.next_conn.fetch_add(1, Ordering::SeqCst);
    let (outbox, mut outgoing) = mpsc::channel::<Outgoing>(limits::OUTBOX_MESSAGES);
    if edge.game.try_send(ToGame::Hello(Hello { conn, version, name, token, style, outbox })).is_err() {
        return close(&mut socket, "the host is busy or stopping: try again").await;
    }
    let reason = session(edge, conn, version, &mut socket, &mut outgoing).await;
    // Said even when the game's queue is full, or the seat would stay
    // connected to nobody (and its token refused).
    let game = edge.game.clone();
    let _ = tokio::task::spawn_blocking(move || game.send(ToGame::Gone { conn })).await;
    if let Some(reason) = reason {
        close(&mut socket, &reason).await;
    }
}

/// The seat's connection, of protocol `version`: lines (and actions) in,
/// what the game has for it out. Returns the reason to close with, if the
/// host closes it.
async fn session(
    edge: &Edge,
    conn: ConnId,
    version: u32,
    socket: &mut Socket,
    outgoing: &mut mpsc::Receiver<Outgoing>,
) -> Option<String> {
    let mut bucket = Bucket::new();
    let mut refused = 0;
    loop {
        tokio::select! {
            out = outgoing.recv() => match out {
                Some(Outgoing::Send(json)) => {
                    let sent = tokio::time::timeout(Duration::from_secs(10), socket.send(Message::text(json))).await;
                    if !matches!(sent, Ok(Ok(()))) {
                        return None;
                    }
                }
                Some(Outgoing::Close(reason)) => return Some(reason),
                None => return Some("the host stopped".into()),
            },
            incoming = socket.next() => {
                let message = match incoming {
                    None => return None,
                    Some(Err(e)) => return Some(receive_error(&e)),
                    Some(Ok(message)) => message,
                };
                if matches!(message, Message::Close(_)) {
                    return None;
                }
                if !bucket.take() {
                    return Some(format!(
                        "too many messages: at most {} a second (bursts of {})",
                        limits::MESSAGES_PER_SECOND,
                        limits::MESSAGE_BURST
                    ));
                }
                let refusal = match read(&message) {
                    Ok(None) => continue,
                    Ok(Some(ClientMessage::Line { text, seat })) => {
                        match edge.game.try_send(ToGame::Line { conn, text, seat }) {
                            Ok(()) => continue,
                            Err(_) => "the host is busy: say it again".to_string(),
                        }
                    }
                    Ok(Some(ClientMessage::Act { .. })) if version < 2 => format!(
                        "'act' is a message of protocol 2, and this connection said hello in protocol {version}: \
                         send the line 'act NAME ...', or say hello in protocol 2"
                    ),
                    Ok(Some(ClientMessage::Act { name, card, target, seat })) => {
                        match edge.game.try_send(ToGame::Act { conn, name, card, target, seat }) {
                            Ok(()) => continue,
                            Err(_) => "the host is busy: say it again".to_string(),
                        }
                    }
                    Ok(Some(ClientMessage::Bye)) => return Some("goodbye: your seat waits for you".into()),
                    Ok(Some(ClientMessage::Hello { .. })) => "you have a seat already: hello is said once".into(),
                    Err(e) => e,
                };
                refused += 1;
                if refused > limits::REFUSED_MESSAGES {
                    return Some(format!("{refused} messages refused: {refusal}"));
                }
                let json = HostMessage::Refused { reason: refusal }.to_json();
                if socket.send(Message::text(json)).await.is_err() {
                    return None;
                }
            }
        }
    }
}

/// Why a message could not be read, as a reason to close with.
fn receive_error(e: &tokio_tungstenite::tungstenite::Error) -> String {
    use tokio_tungstenite::tungstenite::Error;
    match e {
        Error::Capacity(_) => format!("a message longer than {} bytes", limits::MESSAGE_BYTES),
        Error::Utf8(_) => "a text message that is not UTF-8".into(),
        other => format!("a broken message: {other}"),
    }
}

/// Compares two secrets in time that does not depend on where they differ.
fn same_secret(given: &str, secret: &str) -> bool {
    let (a, b) = (given.trim().to_ascii_uppercase().into_bytes(), secret.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A line on the host's standard error about a peer.
fn eprintln_peer(peer: SocketAddr, what: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr().lock(), "refused {peer}: {what}");
}
