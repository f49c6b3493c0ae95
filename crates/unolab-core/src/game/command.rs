//! The command language shared by the line game and scenario steps: what a
//! person or a scenario asks for (`play red 5`, `draw`, `catch 2`), before
//! it is resolved against the table into an `Action` of one seat.

use crate::card::Color;
use crate::game::{Action, Game, Play};
use crate::notation::CardPattern;
use crate::rules::Rules;
use crate::seat::Seat;
use crate::turn::Phase;

/// A card as a command names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CardRef {
    /// By notation: the first card in the hand that fits.
    Named(CardPattern),
    /// By its place in the hand, counting from 1.
    Position(usize),
}

/// A play as a command asks for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayCommand {
    pub card: CardRef,
    /// The seat that plays, if not the one the command is for.
    pub player: Option<Seat>,
    pub color: Option<Color>,
    pub as_flex: bool,
    pub target: Option<Seat>,
    pub uno: bool,
}

impl PlayCommand {
    pub fn of(card: CardRef) -> PlayCommand {
        PlayCommand { card, player: None, color: None, as_flex: false, target: None, uno: false }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Play(PlayCommand),
    Draw,
    Pass,
    /// Call UNO (for the given seat, else the seat the command is for).
    Uno(Option<Seat>),
    Catch(Seat),
    Challenge,
    Accept,
    Color(Color),
    /// Pick an option of the choice owed: by its place, counting from 1, or
    /// by its value.
    Choose(ChoiceRef),
    /// Take an action a rule declares, by its name.
    Act(ActCommand),
}

/// An action a rule declares, as a command asks for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActCommand {
    pub name: String,
    pub card: Option<CardRef>,
    pub target: Option<Seat>,
    /// The seat that takes it, if not the one the command is for (out of
    /// turn, in a scenario).
    pub player: Option<Seat>,
}

impl ActCommand {
    /// `NAME [CARD] [target P]`: the card in card notation (`names`) or by
    /// its place in the hand (`3`), the target by its number (`2`, `p2`).
    pub fn parse(names: &crate::notation::Names, text: &str) -> Result<ActCommand, String> {
        let mut words: Vec<&str> = text.split_whitespace().collect();
        if words.is_empty() {
            return Err("which action? (act NAME [CARD] [target P])".into());
        }
        let name = words.remove(0).to_string();
        let mut target = None;
        if let [.., "target" | "at", seat] = words.as_slice() {
            let number = seat.trim_start_matches(['p', 'P']);
            target = Some(number.parse().map_err(|_| format!("'{seat}' is not a player (target 2, or p2)"))?);
            words.truncate(words.len() - 2);
        }
        let card = match words.as_slice() {
            [] => None,
            [n] if n.bytes().all(|b| b.is_ascii_digit()) => {
                Some(CardRef::Position(n.parse().map_err(|_| format!("'{n}' is not a place in the hand"))?))
            }
            _ => Some(CardRef::Named(names.parse_pattern(&words.join(" "))?)),
        };
        Ok(ActCommand { name, card, target, player: None })
    }
}

/// An option of a choice, as a command names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChoiceRef {
    Place(usize),
    Value(String),
}

/// What the one who gives a command may see of the cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sight {
    /// Everything (a scenario's author): `a // b` names both faces.
    All,
    /// A player's own hand, by the faces in play only.
    Seat,
}

impl<R: Rules> Game<R> {
    /// The action `command` asks `actor` to take. Cards are looked up in
    /// the hand; with `Sight::Seat` only by the faces the seat can see.
    pub fn resolve(&self, command: &Command, actor: Seat, sight: Sight) -> Result<Action, String> {
        let players = self.players();
        let seat_ok = |seat: Seat| if seat < players { Ok(seat) } else { Err(format!("there is no player {seat}")) };
        let actor = seat_ok(actor)?;
        Ok(match command {
            Command::Play(play) => {
                let seat = seat_ok(play.player.unwrap_or(actor))?;
                let card = self.find_card(seat, &play.card, sight)?;
                Action::Play(Play {
                    seat,
                    card,
                    color: play.color,
                    as_flex: play.as_flex,
                    target: play.target,
                    uno: play.uno,
                })
            }
            Command::Draw => Action::Draw(actor),
            Command::Pass => Action::Pass(actor),
            Command::Uno(seat) => Action::CallUno(seat_ok(seat.unwrap_or(actor))?),
            Command::Catch(target) => Action::Catch { by: actor, target: seat_ok(*target)? },
            Command::Challenge => Action::Challenge(actor),
            Command::Accept => Action::Accept(actor),
            Command::Color(color) => Action::NameColor(actor, *color),
            Command::Choose(choice) => {
                let Phase::Choose(owed) = &self.table().phase() else {
                    return Err("there is no choice to make now".into());
                };
                let index = match choice {
                    ChoiceRef::Place(n) => n.checked_sub(1).filter(|&i| i < owed.options.len()),
                    ChoiceRef::Value(text) => {
                        owed.options.iter().position(|o| o.name(&self.variant).eq_ignore_ascii_case(text.trim()))
                    }
                };
                let index = index.ok_or_else(|| {
                    let options: Vec<String> = owed
                        .options
                        .iter()
                        .enumerate()
                        .map(|(i, o)| format!("{}: {}", i + 1, o.name(&self.variant)))
                        .collect();
                    format!("no such option (options: {})", options.join(", "))
                })?;
                Action::Choose(actor, index)
            }
            Command::Act(act) => {
                let actions = &self.variant.actions;
                let index = self.variant.action_named(&act.name).ok_or_else(|| {
                    let names: Vec<&str> = actions.iter().map(|a| a.name.as_str()).collect();
                    match names.is_empty() {
                        true => format!("the rules declare no action '{}' (they declare none)", act.name),
                        false => format!(
                            "the rules declare no action '{}' ({}){}",
                            act.name,
                            names.join(", "),
                            crate::source::did_you_mean(&act.name, names.iter().copied())
                        ),
                    }
                })?;
                let seat = seat_ok(act.player.unwrap_or(actor))?;
                let card = match &act.card {
                    Some(card) => Some(self.find_card(seat, card, sight)?),
                    None => None,
                };
                Action::Act(crate::game::Act { seat, action: index as u8, card, target: act.target })
            }
        })
    }

    fn find_card(&self, seat: Seat, card: &CardRef, sight: Sight) -> Result<crate::card::CardId, String> {
        let hand = &self.table().hands[seat];
        let side = self.table().side;
        match card {
            CardRef::Position(n) => match n.checked_sub(1).and_then(|i| hand.get(i)) {
                Some(&card) => Ok(card),
                None => Err(format!("p{seat} holds {} cards: there is no card {n}", hand.len())),
            },
            CardRef::Named(CardPattern::Card(_)) if sight == Sight::Seat => {
                Err("name a card by the face you can see; the other side is hidden".into())
            }
            CardRef::Named(pattern) => {
                hand.iter().copied().find(|&id| pattern.matches(self.variant.design(id), side)).ok_or_else(|| {
                    let name = match pattern {
                        CardPattern::Face(f) => self.variant.names.format_face(f),
                        CardPattern::Card(c) => self.variant.names.format_card(c),
                    };
                    format!("p{seat} holds no {name}")
                })
            }
        }
    }
}
