//! Playing a hand in progress to its end with bots in every seat: what a
//! simulation does after each deal, and what the search bot does from each
//! position it tries. Bounded: a hand that does not end within
//! `limits::HAND_ACTIONS` actions is reported stuck, never followed for
//! ever.

use crate::bot::{Bot, next_action};
use crate::game::Game;
use crate::rules::Rules;
use crate::seat::Seat;

/// The result of one hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HandResult {
    Won { seat: usize, points: i64, actions: u64 },
    Stuck { actions: u64 },
}

/// Plays the hand in progress to its end with bots in every seat.
pub fn play_out(game: &mut Game<impl Rules>, bots: &mut [Bot]) -> Result<HandResult, String> {
    let before = game.table().scores().to_vec();
    let Some(actions) = finish(game, bots, crate::limits::HAND_ACTIONS)? else {
        return Ok(HandResult::Stuck { actions: crate::limits::HAND_ACTIONS });
    };
    let seat = game.table().winner().expect("hand over");
    let points = game.table().scores()[seat] - before[seat];
    Ok(HandResult::Won { seat, points, actions })
}

/// Plays the hand on with `bots` until it ends: how many actions that
/// took, or `None` if it did not end within `limit`. A rule that fails is
/// an error naming the hand (and the action it failed in).
pub fn finish(game: &mut Game<impl Rules>, bots: &mut [Bot], limit: u64) -> Result<Option<u64>, String> {
    let mut actions = 0;
    while !game.hand_over() {
        if actions >= limit {
            return Ok(None);
        }
        act(game, bots, None)?;
        actions += 1;
    }
    Ok(Some(actions))
}

/// The next bot action at the table, carried out (`next_action`; `human`
/// is a seat whose chances out of turn and catches are let pass, and whose
/// turn its own bot takes).
pub fn act(game: &mut Game<impl Rules>, bots: &mut [Bot], human: Option<Seat>) -> Result<(), String> {
    let hand = game.table().hand_number();
    let next = next_action(game, bots, human).map_err(|e| format!("hand {hand}: {e}"))?;
    let (_, action) = match next {
        Some(next) => next,
        None => {
            // The let-pass seat's turn: its bot takes it.
            let seat = game.to_act();
            let action = bots[seat].choose(game, seat).map_err(|e| format!("hand {hand}: {e}"))?;
            (seat, action)
        }
    };
    if let Err(e) = game.apply_unchecked(action) {
        return Err(format!("hand {hand}, {}: {e}", action.describe(&game.variant, game.table().side())));
    }
    Ok(())
}
