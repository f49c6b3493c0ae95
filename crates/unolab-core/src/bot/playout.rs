//! Playing a hand in progress to its end with bots in every seat: what a
//! simulation does after each deal, and what the search bot does from each
//! position it tries. Bounded: a hand that does not end within
//! `limits::HAND_ACTIONS` actions is reported stuck, never followed for
//! ever.

use crate::bot::{Bot, next_action};
use crate::game::{Action, ActionError, Game};
use crate::rules::{RuleFailure, Rules};
use crate::seat::Seat;
use crate::table::Table;

/// The result of one hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HandResult {
    Won { seat: usize, points: i64, actions: u64 },
    Stuck { actions: u64 },
}

/// Why a hand could not be played to its end: in words (which hand, which
/// action), and the rule's failure that stopped it, if one did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandFailure {
    pub message: String,
    pub cause: Option<RuleFailure>,
}

impl HandFailure {
    /// The hand stopped at `error`, told in `words`.
    pub fn of(error: &ActionError, words: String) -> HandFailure {
        let cause = match error {
            ActionError::Rule(failure) => Some(failure.clone()),
            ActionError::Refused { .. } => None,
        };
        HandFailure { message: words, cause }
    }
}

impl std::fmt::Display for HandFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<HandFailure> for String {
    fn from(failure: HandFailure) -> String {
        failure.message
    }
}

/// The hand's failure as the rules' (where it happened kept): what a
/// search that met it fails with.
impl From<HandFailure> for RuleFailure {
    fn from(failure: HandFailure) -> RuleFailure {
        match failure.cause.as_ref().and_then(RuleFailure::place) {
            Some(place) => RuleFailure::at(place.clone(), failure.message),
            None => RuleFailure::new(failure.message),
        }
    }
}

/// Plays the hand in progress to its end with bots in every seat.
pub fn play_out(game: &mut Game<impl Rules>, bots: &mut [Bot]) -> Result<HandResult, HandFailure> {
    play_out_watched(game, bots, |_, _| {})
}

/// `play_out`, `watch` told of each action carried out, with the table
/// after it (what the simulator's figures of a hand look at).
pub fn play_out_watched(
    game: &mut Game<impl Rules>,
    bots: &mut [Bot],
    watch: impl FnMut(&Action, &Table),
) -> Result<HandResult, HandFailure> {
    let before = game.table().scores().to_vec();
    let Some(actions) = finish_watched(game, bots, crate::limits::HAND_ACTIONS, watch)? else {
        return Ok(HandResult::Stuck { actions: crate::limits::HAND_ACTIONS });
    };
    let seat = game.table().winner().expect("hand over");
    let points = game.table().scores()[seat] - before[seat];
    Ok(HandResult::Won { seat, points, actions })
}

/// Plays the hand on with `bots` until it ends: how many actions that
/// took, or `None` if it did not end within `limit`. A rule that fails is
/// an error naming the hand (and the action it failed in).
pub fn finish(game: &mut Game<impl Rules>, bots: &mut [Bot], limit: u64) -> Result<Option<u64>, HandFailure> {
    finish_watched(game, bots, limit, |_, _| {})
}

fn finish_watched(
    game: &mut Game<impl Rules>,
    bots: &mut [Bot],
    limit: u64,
    mut watch: impl FnMut(&Action, &Table),
) -> Result<Option<u64>, HandFailure> {
    let mut actions = 0;
    while !game.hand_over() {
        if actions >= limit {
            return Ok(None);
        }
        let action = act(game, bots, None)?;
        watch(&action, game.table());
        actions += 1;
    }
    Ok(Some(actions))
}

/// The next bot action at the table, carried out (`next_action`; `human`
/// is a seat whose chances out of turn and catches are let pass, and whose
/// turn its own bot takes). Returns the action.
pub fn act(game: &mut Game<impl Rules>, bots: &mut [Bot], human: Option<Seat>) -> Result<Action, HandFailure> {
    let hand = game.table().hand_number();
    let failed = |e: RuleFailure| HandFailure { message: format!("hand {hand}: {e}"), cause: Some(e) };
    let (_, action) = match next_action(game, bots, human).map_err(failed)? {
        Some(next) => next,
        None => {
            // The let-pass seat's turn: its bot takes it.
            let seat = game.to_act();
            (seat, bots[seat].choose(game, seat).map_err(failed)?)
        }
    };
    if let Err(e) = game.apply_unchecked(action) {
        let words = format!("hand {hand}, {}: {e}", action.describe(&game.variant, game.table().side()));
        return Err(HandFailure::of(&e, words));
    }
    Ok(action)
}
