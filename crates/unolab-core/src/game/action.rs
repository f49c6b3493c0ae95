//! Actions: everything a seat can do at the table, each naming the seat that
//! does it, and the history entries a game is replayed from.

use crate::card::{CardId, Color};
use crate::seat::Seat;
use crate::variant::Variant;

/// A card played by `seat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Play {
    pub seat: Seat,
    pub card: CardId,
    /// The colour named for a wild.
    pub color: Option<Color>,
    /// Played on its flex side.
    pub as_flex: bool,
    /// The player it is aimed at, for faces that take one.
    pub target: Option<Seat>,
    /// Call UNO with it (when it leaves one card).
    pub uno: bool,
}

impl Play {
    pub fn new(seat: Seat, card: CardId) -> Play {
        Play { seat, card, color: None, as_flex: false, target: None, uno: false }
    }
}

/// An action a rule declares (`Variant::actions[action]`), taken by
/// `seat` with the card and the target it takes, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Act {
    pub seat: Seat,
    pub action: u8,
    pub card: Option<CardId>,
    pub target: Option<Seat>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    Play(Play),
    Draw(Seat),
    Pass(Seat),
    Accept(Seat),
    Challenge(Seat),
    NameColor(Seat, Color),
    /// The seat picks option `index` of the choice it owes.
    Choose(Seat, usize),
    CallUno(Seat),
    /// `by` catches `target`, who did not call UNO in time.
    Catch {
        by: Seat,
        target: Seat,
    },
    /// An action a rule declares.
    Act(Act),
}

impl Action {
    /// The seat that acts.
    pub fn seat(&self) -> Seat {
        match *self {
            Action::Play(play) => play.seat,
            Action::Draw(seat)
            | Action::Pass(seat)
            | Action::Accept(seat)
            | Action::Challenge(seat)
            | Action::NameColor(seat, _)
            | Action::Choose(seat, _)
            | Action::CallUno(seat) => seat,
            Action::Catch { by, .. } => by,
            Action::Act(act) => act.seat,
        }
    }

    /// Is this a turn action, which closes the windows a card opened
    /// (rather than an UNO call or a catch, which may come at any time)?
    pub fn is_turn_action(&self) -> bool {
        !matches!(self, Action::CallUno(_) | Action::Catch { .. })
    }

    /// The action in words and card notation, for messages and logs.
    pub fn describe(&self, variant: &Variant, side: crate::card::Side) -> String {
        let names = &variant.names;
        match self {
            Action::Play(p) => {
                let mut text = format!("p{} plays {}", p.seat, variant.face_name(p.card, side));
                if let Some(c) = p.color {
                    text += &format!(" naming {}", names.color_name(c));
                }
                if p.as_flex {
                    text += " as flex";
                }
                if let Some(t) = p.target {
                    text += &format!(" at p{t}");
                }
                text
            }
            Action::Draw(s) => format!("p{s} draws"),
            Action::Pass(s) => format!("p{s} passes"),
            Action::Accept(s) => format!("p{s} accepts"),
            Action::Challenge(s) => format!("p{s} challenges"),
            Action::NameColor(s, c) => format!("p{s} names {}", names.color_name(*c)),
            Action::Choose(s, i) => format!("p{s} chooses option {}", i + 1),
            Action::CallUno(s) => format!("p{s} calls UNO"),
            Action::Catch { by, target } => format!("p{by} catches p{target}"),
            Action::Act(act) => crate::event::acted(
                variant,
                act.seat,
                act.action,
                act.card.map(|card| variant.face_name(card, side)),
                act.target,
                false,
            ),
        }
    }
}

/// One entry of a game's history: what `Game::replay` needs to play it again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Record {
    Deal,
    Act(Action),
}
