//! Playing a scenario: each step's command is resolved and applied, each
//! expectation checked against the table, each `expect_error` step must be
//! refused and change nothing.

use crate::card::{CardId, Color};
use crate::game::command::{Command, Sight};
use crate::game::{Action, Game};
use crate::notation::CardPattern;
use crate::rules::{Rules, TraceSight};
use crate::scenario::schema::{Expect, Step};
use crate::scenario::{Outcome, Scenario};
use crate::seat::Seat;
use crate::sim::Engine;
use crate::table::State;
use crate::turn::ScriptValue;

impl Scenario {
    /// Plays the scenario.
    pub fn run(&self) -> Outcome {
        self.run_logged().0
    }

    /// Plays the scenario, and gives the game's log as far as it went: one
    /// line per event, then what scripts printed.
    pub fn run_logged(&self) -> (Outcome, Vec<String>) {
        self.run_logged_with(Engine::default())
    }

    /// `run_logged`, the engine run as `engine` says (the memo off, the
    /// move generator's fast paths proven: the same game).
    pub fn run_logged_with(&self, engine: Engine) -> (Outcome, Vec<String>) {
        let variant = self.variant.clone();
        let failed = |e: String| (Outcome::Fail(format!("setup: {e}")), Vec::new());
        let built = match engine.memo {
            true => {
                crate::script::Runtime::new(variant).map_err(|p| p.join("\n")).map(|rules| self.logged(rules, engine))
            }
            false => {
                crate::script::Scripts::new(variant).map_err(|p| p.join("\n")).map(|rules| self.logged(rules, engine))
            }
        };
        built.unwrap_or_else(failed)
    }

    /// Plays the scenario with every hook call traced: the outcome, and
    /// what happened, step by step: the calls (`Rules::set_trace`, seeing
    /// everything) among the events they led to.
    pub fn run_traced(&self) -> (Outcome, Vec<String>) {
        let mut rules = match crate::script::Runtime::new(self.variant.clone()) {
            Ok(rules) => rules,
            Err(problems) => return (Outcome::Fail(format!("setup: {}", problems.join("\n"))), Vec::new()),
        };
        rules.set_trace(Some(TraceSight::All));
        let mut told = Vec::new();
        let outcome = match self.build(rules) {
            Ok(mut game) => {
                told.push("setup:".to_string());
                tell(&mut game, 0, &mut told);
                self.play(&mut game, Some(&mut told))
            }
            Err(e) => Outcome::Fail(format!("setup: {e}")),
        };
        (outcome, told)
    }

    /// Plays the scenario on a game of `rules`.
    fn logged<R: Rules>(&self, rules: R, engine: Engine) -> (Outcome, Vec<String>) {
        let mut game = match self.build(rules) {
            Ok(g) => g,
            Err(e) => return (Outcome::Fail(format!("setup: {e}")), Vec::new()),
        };
        game.set_checks(engine.checks);
        let outcome = self.play(&mut game, None);
        let mut log: Vec<String> = game.events().iter().map(|e| crate::event::describe(e, &game.variant)).collect();
        log.extend(game.script_output().iter().map(|line| format!("print: {line}")));
        (outcome, log)
    }

    /// Plays the steps; `told`: each step, then what it did (the trace
    /// among the events), is told there.
    fn play(&self, game: &mut Game<impl Rules>, mut told: Option<&mut Vec<String>>) -> Outcome {
        let mut last_player: Option<Seat> = None;
        // Where the events since the previous expectation begin.
        let mut logged_from = game.events().len();
        for (index, (text, step)) in self.steps.iter().enumerate() {
            let fail = |why: String| Outcome::Fail(format!("step {} ({text}): {why}", index + 1));
            let step_from = game.events().len();
            let failed = match step {
                Step::Expect(checks) => {
                    let mut mismatches = check_expectations(game, checks, logged_from);
                    mismatches.extend(eval_mismatches(game, checks));
                    logged_from = game.events().len();
                    (!mismatches.is_empty()).then(|| fail(mismatches.join("; ")))
                }
                Step::ExpectError(inner) => {
                    let before = game.table().clone();
                    let events = game.events().len();
                    match perform(game, inner, &mut last_player) {
                        Ok(()) => Some(fail("expected the step to be refused / it was carried out".into())),
                        Err(_) if *game.table() != before || game.events().len() != events => {
                            Some(fail("expected the refused step to change nothing / the table changed".into()))
                        }
                        Err(_) => None,
                    }
                }
                Step::Act(_) => perform(game, step, &mut last_player)
                    .err()
                    .map(|e| fail(format!("expected the step to be carried out / {e}"))),
            };
            if let Some(told) = told.as_deref_mut() {
                told.push(format!("step {} ({text}):", index + 1));
                tell(game, step_from, told);
            }
            if let Some(failed) = failed {
                return failed;
            }
        }
        Outcome::Pass
    }
}

/// The trace taken from `game`'s rules among the events from `from` on,
/// each line indented, into `told`.
fn tell(game: &mut Game<impl Rules>, from: usize, told: &mut Vec<String>) {
    let trace = game.take_trace();
    let variant = game.variant.clone();
    let lines = crate::trace::among_events(trace, game.events(), from, |e| crate::event::describe(e, &variant));
    told.extend(lines.into_iter().map(|line| format!("  {line}")));
}

/// Carries out a step that acts: the command is for the seat to act (an
/// UNO call for the player who just played).
fn perform(game: &mut Game<impl Rules>, step: &Step, last_player: &mut Option<Seat>) -> Result<(), String> {
    let Step::Act(command) = step else {
        return Err("an expectation is not an action".into());
    };
    let actor = match command {
        Command::Uno(None) => last_player.unwrap_or_else(|| game.to_act()),
        // "Someone" catches: the seat to act, or the one after it where
        // that is the player caught.
        &Command::Catch(target) if target == game.to_act() => (target + 1) % game.players(),
        _ => game.to_act(),
    };
    let action = game.resolve(command, actor, Sight::All).map_err(|e| format!("refused: {e}"))?;
    if let Action::Play(play) = action {
        *last_player = Some(play.seat);
    }
    game.apply(action).map_err(|e| e.to_string())
}

/// The first named value that differs from what the state holds.
fn state_mismatch(state: &State, values: &[(String, Option<ScriptValue>)], what: &str) -> Option<String> {
    let shown = |v: Option<&ScriptValue>| match v {
        None => "not set".to_string(),
        Some(ScriptValue::Text(t)) => format!("'{t}'"),
        Some(v) => v.to_string(),
    };
    values.iter().find_map(|(name, want)| {
        let found = state.get(name.as_str());
        (found != want.as_ref())
            .then(|| format!("{what} {name}: expected {} / found {}", shown(want.as_ref()), shown(found)))
    })
}

/// Every expectation that does not hold, as `what: expected X / found Y`.
/// `logged_from`: the first event since the previous expectation.
fn check_expectations(game: &Game<impl Rules>, checks: &[Expect], logged_from: usize) -> Vec<String> {
    let t = game.table();
    let v = &game.variant;
    let color_name = |c: Option<Color>| c.map(|c| v.names.color_name(c).to_string()).unwrap_or_else(|| "none".into());
    let pattern_name = |p: &CardPattern| match p {
        CardPattern::Face(f) => v.names.format_face(f),
        CardPattern::Card(c) => v.names.format_card(c),
    };
    // A seat the table does not have, said where an expectation about it
    // fails (one that holds of an empty seat, such as a hand size of 0,
    // passes as it always has).
    let absent = |seat: Seat| {
        if seat < t.players() {
            String::new()
        } else {
            format!(" (there is no player {seat} at a table of {})", t.players())
        }
    };
    let mut mismatches = Vec::new();
    for check in checks {
        let mismatch = match check {
            Expect::Current(s) => {
                (game.to_act() != *s).then(|| format!("current: expected {s} / found {}", game.to_act()))
            }
            Expect::Direction(d) => (t.direction() != *d)
                .then(|| format!("direction: expected {} / found {}", d.name(), t.direction().name())),
            Expect::Color(c) => (t.color() != *c)
                .then(|| format!("color: expected {} / found {}", color_name(*c), color_name(t.color()))),
            Expect::Side(s) => {
                (t.side() != *s).then(|| format!("side: expected {} / found {}", s.name(), t.side().name()))
            }
            Expect::Top(p) => {
                let ok = t.top().is_some_and(|top| p.matches(v.design(top), t.side()));
                let found = t.top().map(|top| v.face_name(top, t.side())).unwrap_or_else(|| "nothing".into());
                (!ok).then(|| format!("top: expected {} / found {found}", pattern_name(p)))
            }
            Expect::HandSizes(sizes) => sizes.iter().find_map(|(&seat, &size)| {
                let found = t.hands().get(seat).map_or(0, Vec::len);
                (found != size).then(|| format!("p{seat}'s hand size: expected {size} / found {found}{}", absent(seat)))
            }),
            Expect::Hand(hands) => hands.iter().find_map(|(&seat, expected)| {
                let mut held: Vec<CardId> = t.hands().get(seat).cloned().unwrap_or_default();
                let all = held.iter().map(|&c| v.face_name(c, t.side())).collect::<Vec<_>>().join(", ");
                let mut ok = held.len() == expected.len();
                for p in expected {
                    match held.iter().position(|&c| p.matches(v.design(c), t.side())) {
                        Some(i) => {
                            held.swap_remove(i);
                        }
                        None => ok = false,
                    }
                }
                (!ok).then(|| {
                    format!(
                        "p{seat}'s hand: expected [{}] / found [{all}]{}",
                        expected.iter().map(pattern_name).collect::<Vec<_>>().join(", "),
                        absent(seat)
                    )
                })
            }),
            Expect::DrawSize(n) => {
                (t.draw_pile().len() != *n).then(|| format!("draw_size: expected {n} / found {}", t.draw_pile().len()))
            }
            Expect::DiscardSize(n) => (t.discard_pile().len() != *n)
                .then(|| format!("discard_size: expected {n} / found {}", t.discard_pile().len())),
            Expect::Power(power) => power.iter().find_map(|(&seat, &green)| {
                let found = t.power().get(seat).copied();
                let name = |g: Option<bool>| match g {
                    Some(true) => "green",
                    Some(false) => "red",
                    None => "none",
                };
                (found != Some(green)).then(|| {
                    format!(
                        "p{seat}'s Power Card: expected {} / found {}{}",
                        name(Some(green)),
                        name(found),
                        absent(seat)
                    )
                })
            }),
            Expect::Winner(s) => (t.winner() != Some(*s)).then(|| {
                format!("winner: expected {s} / found {}", t.winner().map_or("nobody".into(), |w| w.to_string()))
            }),
            Expect::MatchWinner(s) => (t.match_winner() != Some(*s)).then(|| {
                format!(
                    "match_winner: expected {s} / found {}",
                    t.match_winner().map_or("nobody".into(), |w| w.to_string())
                )
            }),
            Expect::MatchWinners(seats) => {
                let won = game.match_winners();
                let sorted = |seats: &[Seat]| {
                    let mut seats = seats.to_vec();
                    seats.sort_unstable();
                    seats.dedup();
                    seats
                };
                let (expected, found) = (sorted(seats), sorted(&won));
                (expected != found).then(|| format!("match_winner: expected {expected:?} / found {found:?}"))
            }
            Expect::Scores(scores) => scores.iter().find_map(|(&seat, &score)| {
                let found = t.scores().get(seat).copied().unwrap_or(0);
                (found != score).then(|| format!("p{seat}'s score: expected {score} / found {found}{}", absent(seat)))
            }),
            Expect::State(values) => state_mismatch(t.state(), values, "state"),
            Expect::SeatState(seats) => seats.iter().find_map(|(&seat, values)| match t.seat_state().get(seat) {
                Some(state) => state_mismatch(state, values, &format!("p{seat}'s seat_state")),
                None => Some(format!("p{seat}'s seat_state: there is no seat {seat}")),
            }),
            Expect::Playing(seats) => {
                let found: Vec<Seat> = (0..t.players()).filter(|&s| t.playing(s)).collect();
                let mut expected = seats.clone();
                expected.sort_unstable();
                expected.dedup();
                (found != expected).then(|| format!("playing: expected {expected:?} / found {found:?}"))
            }
            Expect::AsideSize(n) => {
                (t.aside().len() != *n).then(|| format!("aside_size: expected {n} / found {}", t.aside().len()))
            }
            Expect::Log(lines) => {
                let found = logged(game, logged_from, None);
                (found != *lines).then(|| format!("log: expected {lines:?} / found {found:?}"))
            }
            // Asked of the rules (`eval_mismatches`).
            Expect::Eval(_) => None,
            Expect::SeenLog(seats) => seats.iter().find_map(|(&seat, lines)| {
                let found = logged(game, logged_from, Some(seat));
                (found != *lines).then(|| format!("seen_log of p{seat}: expected {lines:?} / found {found:?}"))
            }),
        };
        mismatches.extend(mismatch);
    }
    mismatches
}

/// The lines logged from event `from` on, as `viewer` sees them (`None`:
/// everything).
fn logged(game: &Game<impl Rules>, from: usize, viewer: Option<Seat>) -> Vec<String> {
    let events = game.events().get(from..).unwrap_or_default();
    events.iter().map(|e| crate::event::describe_for(e, &game.variant, viewer)).collect()
}

/// The `eval` expectations that do not hold: each expression is asked of
/// the rules at the table as it is.
fn eval_mismatches(game: &mut Game<impl Rules>, checks: &[Expect]) -> Vec<String> {
    let mut mismatches = Vec::new();
    for check in checks {
        let Expect::Eval(pairs) = check else { continue };
        for (expression, expected) in pairs {
            match game.eval(expression) {
                Ok(found) if found == *expected => {}
                Ok(found) => mismatches.push(format!("eval {expression}: expected {expected} / found {found}")),
                Err(e) => mismatches.push(format!("eval {expression}: {e}")),
            }
        }
    }
    mismatches
}
