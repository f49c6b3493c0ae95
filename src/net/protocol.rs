//! The messages of networked play (docs/protocol.md): JSON objects in
//! WebSocket text messages, each with a `type`. A client says `hello`
//! (the join code, a name, or the reconnect token of its seat), then sends
//! `line`s, the REPL's commands, for its seat (protocol 2: also `act`, an
//! action a rule declares, as data); the host answers with
//! `welcome`, then `output` (text for the seat to show), `prompt` (what
//! the seat is asked, and whether play waits for it), `view` (the seat's
//! view as data, with its legal moves as command lines, for programs, and
//! protocol 2: the rules' actions it may take as data), and
//! `refused` or `closing`, each with a reason.

use serde::{Deserialize, Serialize};

use crate::game::{Game, Moves};
use crate::rules::Rules;
use crate::seat::Seat;
use crate::view::PhaseView;

/// The protocol's newest version. A client says which it speaks; a host
/// takes every version from `OLDEST_PROTOCOL` to this one, and speaks to
/// each client in its own (2 adds the `act` message and a view's `acts`),
/// and refuses any other, naming them.
pub const PROTOCOL: u32 = 2;

/// The oldest version a host still speaks: a client of protocol 1 is sent
/// nothing protocol 1 did not have.
pub const OLDEST_PROTOCOL: u32 = 1;

/// The version `unolab join` speaks: it types lines, which every host
/// takes, so it joins hosts of every version.
pub const JOIN_PROTOCOL: u32 = 1;

/// How a client wants its text: the REPL's style.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct StyleWish {
    #[serde(default)]
    pub color: bool,
    #[serde(default)]
    pub glyphs: bool,
    /// Columns to wrap at (20 to 400; 80 if not given).
    #[serde(default)]
    pub width: Option<u16>,
}

/// What a client sends.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// The first message: join a seat with the code, or take one's seat
    /// back with its reconnect token.
    Hello {
        protocol: u32,
        code: String,
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        token: Option<String>,
        #[serde(default)]
        style: StyleWish,
    },
    /// A line typed at the seat: a REPL command (`play red 5`, `draw`,
    /// `log 5`, `rules`...). `seat`, if given, must be the client's own.
    Line {
        text: String,
        #[serde(default)]
        seat: Option<Seat>,
    },
    /// Protocol 2: an action a rule declares, taken by the client's seat
    /// (one of the view's `acts`): its name, the card of the seat's hand
    /// it takes (in card notation) and the seat it aims at, where it takes
    /// them. `seat`, if given, must be the client's own.
    Act {
        name: String,
        #[serde(default)]
        card: Option<String>,
        #[serde(default)]
        target: Option<Seat>,
        #[serde(default)]
        seat: Option<Seat>,
    },
    /// Leaving the table (the seat is kept for its token; a bot plays it
    /// when its time is up).
    Bye,
}

/// Protocol 2: an action a rule declares that the seat may take now, as
/// data (`ViewData::acts`), and the line that takes it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct ActData {
    pub name: String,
    /// The card of the seat's hand it takes, where it takes one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
    /// The seat it aims at, where it takes one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Seat>,
    /// Taken out of turn (not the seat's turn).
    pub out_of_turn: bool,
    /// The `line` that takes it (also among the view's `moves`).
    pub line: String,
}

/// A seat at the table as everyone sees it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct SeatInfo {
    pub seat: Seat,
    /// `pN`, or the name a player joined with (or, in a resumed match,
    /// that the seat is kept for).
    pub name: String,
    /// `human` or `bot`.
    pub kind: String,
    pub connected: bool,
}

/// The words Tab completes at the prompt.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Words {
    pub cards: Vec<String>,
    pub keywords: Vec<String>,
    pub colors: Vec<String>,
    pub seats: Vec<String>,
    /// The actions the rules declare (`act NAME`); left out when there are
    /// none (protocol 1 without actions).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<String>,
}

/// One opponent in a `view`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct OpponentData {
    pub seat: Seat,
    pub name: String,
    pub cards: usize,
    pub score: i64,
    pub called_uno: bool,
    pub playing: bool,
    /// The backs (inactive faces) of their cards, with a double-sided deck.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub backs: Vec<String>,
}

/// A seat's view as data: what `Game::view` gives its seat (the same view
/// bots decide from), with the moves it may make as command lines.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct ViewData {
    /// Records in the game's history when the view was taken.
    pub at: usize,
    pub seat: Seat,
    pub hand_number: u32,
    pub hand: Vec<String>,
    pub top: Option<String>,
    pub color: Option<String>,
    pub direction: String,
    pub side: String,
    pub draw_size: usize,
    pub discard_size: usize,
    pub score: i64,
    pub to_act: Seat,
    /// `turn`, `drawn`, `name_color`, `answer`, `choose` or `over`.
    pub phase: String,
    pub opponents: Vec<OpponentData>,
    /// Every move the seat may make now, as a `line` would say it.
    pub moves: Vec<String>,
    /// Protocol 2: the actions the rules declare that the seat may take
    /// now, as data (left out where there are none, and for protocol 1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub acts: Vec<ActData>,
}

/// What the host sends.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum HostMessage {
    Welcome {
        protocol: u32,
        seat: Seat,
        name: String,
        /// Give it back in `hello` to take the seat again after a lost
        /// connection; it is good only while the seat is not connected.
        token: String,
        variant: String,
        players: usize,
        seats: Vec<SeatInfo>,
    },
    /// Text to show, in lines (ANSI colours only if the client asked).
    /// `at`: records in the game's history when it was sent.
    Output {
        text: String,
        at: usize,
    },
    /// What the seat is asked now. `ready`: play waits for this seat (its
    /// turn, a decision, or a chance out of turn). `lines`: how many of
    /// this connection's lines the host has carried out.
    Prompt {
        text: String,
        ready: bool,
        lines: u64,
        at: usize,
        words: Words,
    },
    View {
        view: Box<ViewData>,
    },
    /// A message the host did not carry out; the connection stays.
    Refused {
        reason: String,
    },
    /// The host closes the connection after this message.
    Closing {
        reason: String,
    },
}

impl HostMessage {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"type\":\"closing\",\"reason\":\"{e}\"}}"))
    }
}

/// The moves in `moves` as command lines.
pub fn move_lines(game: &Game<impl Rules>, moves: &Moves) -> Vec<String> {
    let names = &game.variant.names;
    let mut lines = Vec::new();
    for option in &moves.plays {
        let mut line = format!("play {}", names.format_face(&option.face));
        if option.as_flex {
            line += " flex";
        }
        if let Some(target) = option.target {
            line += &format!(" target {target}");
        }
        if option.names_color {
            for color in moves.colors_of_side.clone() {
                lines.push(format!("{line} {}", names.color_name(color)));
            }
        } else {
            lines.push(line);
        }
    }
    lines.dedup();
    for (allowed, word) in [
        (moves.draw, "draw"),
        (moves.pass, "pass"),
        (moves.accept, "accept"),
        (moves.challenge, "challenge"),
        (moves.call_uno, "uno"),
    ] {
        if allowed {
            lines.push(word.into());
        }
    }
    for color in moves.name_color.clone() {
        lines.push(format!("color {}", names.color_name(color)));
    }
    for n in 1..=moves.choose {
        lines.push(format!("choose {n}"));
    }
    for seat in &moves.catch {
        lines.push(format!("catch {seat}"));
    }
    lines.extend(act_data(game, moves).into_iter().map(|act| act.line));
    lines
}

/// The actions the rules declare in `moves`, as data, each with its line
/// (`act NAME [CARD] [target P]`).
pub fn act_data(game: &Game<impl Rules>, moves: &Moves) -> Vec<ActData> {
    let names = &game.variant.names;
    let out_of_turn = moves.seat != game.to_act();
    moves
        .acts
        .iter()
        .map(|option| {
            let name = game.variant.actions[usize::from(option.action)].name.clone();
            let card = option.face.map(|face| names.format_face(&face));
            let mut line = format!("act {name}");
            if let Some(card) = &card {
                line += &format!(" {card}");
            }
            if let Some(target) = option.target {
                line += &format!(" target {target}");
            }
            ActData { name, card, target: option.target, out_of_turn, line }
        })
        .collect()
}

/// `seat`'s view as data, named with `label` for each seat, for a client
/// of protocol `version`.
pub fn view_data(
    game: &Game<impl Rules>,
    seat: Seat,
    moves: &Moves,
    version: u32,
    label: impl Fn(Seat) -> String,
) -> ViewData {
    let view = game.view(seat);
    let names = &game.variant.names;
    let phase = match view.phase {
        PhaseView::Turn => "turn",
        PhaseView::Drawn(_) => "drawn",
        PhaseView::NameColor { .. } => "name_color",
        PhaseView::Answer { .. } => "answer",
        PhaseView::Choose { .. } => "choose",
        PhaseView::Over { .. } => "over",
    };
    ViewData {
        at: game.history().len(),
        seat,
        hand_number: game.table().hand_number(),
        hand: view.hand.iter().map(|f| names.format_face(f)).collect(),
        top: view.top.map(|f| names.format_face(&f)),
        color: view.color.map(|c| names.color_name(c).to_string()),
        direction: view.direction.name().to_string(),
        side: view.side.name().to_string(),
        draw_size: view.draw_size,
        discard_size: view.discard_size,
        score: view.score,
        to_act: view.to_act,
        phase: phase.into(),
        opponents: view
            .opponents
            .iter()
            .map(|o| OpponentData {
                seat: o.seat,
                name: label(o.seat),
                cards: o.cards,
                score: o.score,
                called_uno: o.called_uno,
                playing: o.playing,
                backs: o.backs.iter().map(|f| names.format_face(f)).collect(),
            })
            .collect(),
        moves: move_lines(game, moves),
        acts: if version >= 2 { act_data(game, moves) } else { Vec::new() },
    }
}

/// A player's name as a host accepts it: 1 to `limits::NAME_CHARS`
/// letters, digits, `-` or `_`, not `you` and not a seat's `pN`.
pub fn check_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    let chars = name.chars().count();
    if chars == 0 || chars > crate::limits::NAME_CHARS {
        return Err(format!("a name is 1 to {} characters", crate::limits::NAME_CHARS));
    }
    if !name.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_') {
        return Err("a name is letters, digits, '-' and '_'".into());
    }
    let lower = name.to_lowercase();
    let seat_like = lower.strip_prefix('p').is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    if lower == "you" || seat_like {
        return Err(format!("'{name}' would be taken for a seat: choose another name"));
    }
    Ok(name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_as_documented() {
        let hello: ClientMessage =
            serde_json::from_str(r#"{"type":"hello","protocol":1,"code":"AB12","name":"ann"}"#).unwrap();
        assert_eq!(
            hello,
            ClientMessage::Hello {
                protocol: 1,
                code: "AB12".into(),
                name: Some("ann".into()),
                token: None,
                style: StyleWish::default()
            }
        );
        let line: ClientMessage = serde_json::from_str(r#"{"type":"line","text":"play red 5"}"#).unwrap();
        assert_eq!(line, ClientMessage::Line { text: "play red 5".into(), seat: None });
        assert!(serde_json::from_str::<ClientMessage>(r#"{"type":"line","text":"x","extra":1}"#).is_err());
        assert!(serde_json::from_str::<ClientMessage>(r#"{"type":"shout"}"#).is_err());
        let act: ClientMessage = serde_json::from_str(r#"{"type":"act","name":"trade","card":"blue 7"}"#).unwrap();
        assert_eq!(
            act,
            ClientMessage::Act { name: "trade".into(), card: Some("blue 7".into()), target: None, seat: None }
        );
        assert!(serde_json::from_str::<ClientMessage>(r#"{"type":"act","name":"x","cards":1}"#).is_err());
        let closing = HostMessage::Closing { reason: "the host stopped".into() }.to_json();
        assert_eq!(closing, r#"{"type":"closing","reason":"the host stopped"}"#);
    }

    #[test]
    fn names_are_checked() {
        assert_eq!(check_name(" ann "), Ok("ann".into()));
        assert!(check_name("p2").is_err());
        assert!(check_name("You").is_err());
        assert!(check_name("a b").is_err());
        assert!(check_name(&"x".repeat(100)).is_err());
    }
}
