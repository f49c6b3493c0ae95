//! The end of a hand: the winner is recorded, the hand is scored (by
//! default the winner scores every other hand, rules.md 1.7; a `score_hand`
//! hook may share points out differently), and the match is decided (by
//! default the first to the target; a `match_winner` hook may decide).

use rhai::Dynamic;

use crate::event::{Event, Seat};
use crate::game::Game;
use crate::script::{HookArg, ScriptFailure};
use crate::turn::Phase;
use crate::variant::HookKind;

fn failure(message: String) -> ScriptFailure {
    ScriptFailure(message)
}

/// A hook's list of numbers, one per seat.
fn seat_numbers(value: Dynamic, players: usize, hook: &str) -> Result<Vec<i64>, ScriptFailure> {
    let numbers: Option<Vec<i64>> = value.into_array().ok().and_then(|a| a.iter().map(|v| v.as_int().ok()).collect());
    match numbers {
        Some(list) if list.len() == players => Ok(list),
        _ => Err(failure(format!("{hook} must return one number per player ({players})"))),
    }
}

/// Seat numbers a hook returned, checked.
fn seats(list: &[i64], players: usize) -> Result<Vec<Seat>, ScriptFailure> {
    list.iter()
        .map(|&s| usize::try_from(s).ok().filter(|&s| s < players))
        .collect::<Option<Vec<Seat>>>()
        .ok_or_else(|| failure(format!("match_winner returned a seat that is not at the table: {list:?}")))
}

impl Game {
    /// `winner` went out: the hand is over and scored.
    pub(crate) fn end_hand(&mut self, winner: Seat) -> Result<(), ScriptFailure> {
        self.table.phase = Phase::Over { winner };
        self.table.owed.clear();
        let players = self.players();
        let gains = match self.last_global_answer(HookKind::ScoreHand, winner, HookArg::Seat(winner))? {
            Some(value) => seat_numbers(value, players, "score_hand")?,
            None => {
                let others: i64 =
                    (0..players).filter(|&s| s != winner).map(|s| self.table.hand_points(&self.variant, s)).sum();
                (0..players).map(|s| if s == winner { others } else { 0 }).collect()
            }
        };
        for (score, gain) in self.table.scores.iter_mut().zip(&gains) {
            *score += gain;
        }
        self.log.push(Event::HandWon { seat: winner, points: gains[winner] });
        if self.table.match_winner.is_some() {
            return Ok(());
        }
        let winners: Vec<Seat> = match self.last_global_answer(HookKind::MatchWinner, winner, HookArg::None)? {
            Some(value) if value.is_unit() => Vec::new(),
            Some(value) => match value.as_int() {
                Ok(seat) => seats(&[seat], players)?,
                Err(_) => {
                    let list: Option<Vec<i64>> =
                        value.into_array().ok().and_then(|a| a.iter().map(|v| v.as_int().ok()).collect());
                    let list =
                        list.ok_or_else(|| failure("match_winner must return a seat, a list of seats or ()".into()))?;
                    seats(&list, players)?
                }
            },
            None if self.table.scores[winner] >= self.variant.target_score => vec![winner],
            None => Vec::new(),
        };
        self.table.match_winner = winners.first().copied();
        for seat in winners {
            self.log.push(Event::MatchWon { seat });
        }
        Ok(())
    }
}
