//! The scenario file format (scenarios.md): the raw YAML, and steps and
//! expectations parsed against the variant's notation. A step that acts is
//! a `Command`, the language the line game speaks too.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::card::{Color, Direction, Side};
use crate::game::command::{ActCommand, CardRef, ChoiceRef, Command, PlayCommand};
use crate::notation::CardPattern;
use crate::seat::Seat;
use crate::source::Position;
use crate::turn::ScriptValue;
use crate::variant::Variant;
use crate::yaml::{Placed, Yaml, YamlValue};

/// A scenario file as written; every value a later check may refuse keeps
/// its place in the file (`Placed`), so its message names it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    pub name: Option<String>,
    pub variant: Placed<String>,
    #[serde(default)]
    pub rules: Vec<Placed<String>>,
    /// Settings of the variant's and rules' options (an extension).
    #[serde(default)]
    pub options: BTreeMap<Placed<String>, Yaml>,
    pub players: Option<Placed<usize>>,
    pub seed: Option<u64>,
    #[serde(default)]
    pub setup: RawSetup,
    #[serde(default)]
    pub steps: Vec<Yaml>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSetup {
    #[serde(default)]
    pub hands: BTreeMap<Placed<usize>, Vec<Placed<String>>>,
    pub discard: Option<Placed<Vec<Placed<String>>>>,
    #[serde(default)]
    pub draw: Vec<Placed<String>>,
    pub current: Option<Placed<usize>>,
    pub dealer: Option<Placed<usize>>,
    pub direction: Option<Placed<String>>,
    pub color: Option<Placed<String>>,
    pub side: Option<Placed<String>>,
    #[serde(default)]
    pub power: Placed<BTreeMap<Placed<usize>, Placed<String>>>,
    #[serde(default)]
    pub scores: BTreeMap<Placed<usize>, i64>,
    /// Values the rules keep (`state(name)`), as a rule's `set_state` would.
    #[serde(default)]
    pub state: BTreeMap<Placed<String>, Yaml>,
    /// Per-seat values the rules keep (`seat_state(p, name)`).
    #[serde(default)]
    pub seat_state: BTreeMap<Placed<usize>, BTreeMap<Placed<String>, Yaml>>,
    /// With a discard: `current`'s turn starts at the setup (its
    /// `on_turn_start` hooks run), instead of having started already.
    #[serde(default)]
    pub turn_starts: Placed<bool>,
}

#[derive(Debug, Clone)]
pub enum Step {
    Act(Command),
    Expect(Vec<Expect>),
    ExpectError(Box<Step>),
}

#[derive(Debug, Clone)]
pub enum Expect {
    Current(Seat),
    Direction(Direction),
    /// `None`: no colour in play (`color: none`).
    Color(Option<Color>),
    Top(CardPattern),
    Side(Side),
    HandSizes(BTreeMap<Seat, usize>),
    Hand(BTreeMap<Seat, Vec<CardPattern>>),
    DrawSize(usize),
    DiscardSize(usize),
    Power(BTreeMap<Seat, bool>),
    Winner(Seat),
    /// The match's winner (the first named, where a rule names several).
    MatchWinner(Seat),
    /// Exactly these seats won the match together.
    MatchWinners(Vec<Seat>),
    Scores(BTreeMap<Seat, i64>),
    /// Rules' values by name; `None` = not set.
    State(Vec<(String, Option<ScriptValue>)>),
    SeatState(BTreeMap<Seat, Vec<(String, Option<ScriptValue>)>>),
    /// Exactly these seats are still in the hand.
    Playing(Vec<Seat>),
    /// Cards out of play (`leave_hand(p, "aside")`).
    AsideSize(usize),
    /// Exactly these lines were logged since the previous expectation (or
    /// the setup), one per event, as `scenario --verbose` shows them.
    Log(Vec<String>),
    /// The same lines as each of these seats sees them (`Game::view`'s
    /// log: another seat's drawn cards and choices hidden).
    SeenLog(BTreeMap<Seat, Vec<String>>),
    /// Script expressions and the value each has now, in words
    /// (`Game::eval`).
    Eval(Vec<(String, String)>),
}

/// What is wrong with a step: each problem, and where it stands where
/// that is closer than the step (a value inside it).
#[derive(Debug, Default)]
pub struct StepProblems(pub Vec<(Option<Position>, String)>);

impl From<String> for StepProblems {
    fn from(message: String) -> StepProblems {
        StepProblems(vec![(None, message)])
    }
}

impl From<&str> for StepProblems {
    fn from(message: &str) -> StepProblems {
        StepProblems::from(message.to_string())
    }
}

/// A value for the rules' state, written in YAML: a number, text or
/// true/false; `~` (in expectations) means "not set".
pub fn script_value(value: &Yaml) -> Result<Option<ScriptValue>, String> {
    match &value.value {
        YamlValue::Null => Ok(None),
        YamlValue::Bool(b) => Ok(Some(ScriptValue::Bool(*b))),
        YamlValue::Int(n) => Ok(Some(ScriptValue::Int(*n))),
        YamlValue::Float(n) => {
            Err(format!("'{n}' is not a whole number: state values are whole numbers, text or true/false"))
        }
        YamlValue::Str(s) => Ok(Some(ScriptValue::Text(s.as_str().into()))),
        _ => Err(format!("'{value}' is not a number, text or true/false")),
    }
}

fn state_map(value: &Yaml) -> Result<Vec<(String, Option<ScriptValue>)>, String> {
    let map = value.as_mapping().ok_or_else(|| format!("'{}' must be a map of name -> value", value))?;
    map.iter()
        .map(|(k, v)| {
            let name = k.as_str().ok_or_else(|| format!("'{}' is not a name", k))?;
            Ok((name.to_string(), script_value(v)?))
        })
        .collect()
}

/// `eval: {EXPRESSION: VALUE}`: each value in words, as `eval` says it (a
/// number, true or false, text, `~` for `()`).
/// An expression that does not parse is a problem of the file, placed at
/// the expression.
fn eval_map(value: &Yaml) -> Result<Vec<(String, String)>, StepProblems> {
    let map = value.as_mapping().ok_or("eval: a map of script expression -> the value it has")?;
    map.iter()
        .map(|(k, v)| {
            let expression = k.scalar_text().ok_or_else(|| format!("eval: '{k}' is not a script expression"))?;
            if let Some(problem) = unolab_script::check::expression_problem(&expression) {
                return Err(StepProblems(vec![(
                    k.position(),
                    format!("eval: '{expression}' does not parse: {problem}"),
                )]));
            }
            let words = match &v.value {
                YamlValue::Null => "()".to_string(),
                YamlValue::Bool(b) => b.to_string(),
                YamlValue::Int(n) => n.to_string(),
                YamlValue::Str(s) => s.clone(),
                _ => return Err(format!("eval: '{v}' is not a value (a number, true or false, text or ~)").into()),
            };
            Ok((expression.into_owned(), words))
        })
        .collect()
}

/// Lines of the log, as an expectation lists them.
fn log_lines(value: &Yaml, what: &str) -> Result<Vec<String>, String> {
    value
        .as_sequence()
        .ok_or_else(|| format!("{what}: a list of the lines logged since the previous expectation"))?
        .iter()
        .map(|line| line.as_str().map(str::to_string).ok_or_else(|| format!("{what}: '{line}' is not a line of text")))
        .collect()
}

fn as_seat(value: &Yaml) -> Result<Seat, String> {
    value.as_u64().map(|n| n as Seat).ok_or_else(|| format!("'{}' is not a player number", value))
}

fn seat_map<T>(value: &Yaml, mut f: impl FnMut(&Yaml) -> Result<T, String>) -> Result<BTreeMap<Seat, T>, String> {
    let map = value.as_mapping().ok_or_else(|| format!("'{}' must be a map of player -> value", value))?;
    map.iter().map(|(k, v)| Ok((as_seat(k)?, f(v)?))).collect()
}

fn parse_color(variant: &Variant, value: &Yaml) -> Result<Color, String> {
    let name = value.as_str().ok_or_else(|| format!("'{}' is not a colour", value))?;
    variant.names.color(name).ok_or_else(|| format!("unknown colour '{name}'"))
}

fn parse_pattern(variant: &Variant, value: &Yaml) -> Result<CardPattern, String> {
    // As written: `+4` is a card, though YAML reads it as a number.
    let text = value.scalar_text().ok_or_else(|| format!("'{value}' is not a card"))?;
    let pattern = variant.names.parse_pattern(&text)?;
    let exists = variant.designs.iter().any(|d| pattern.matches(d, Side::Light) || pattern.matches(d, Side::Dark));
    if !exists {
        return Err(no_card(variant, &text));
    }
    Ok(pattern)
}

/// That the deck of `variant` has no card `text`, with the one it looks
/// like (`blue 1*`, a Flex card marked with the flip icon, for `blue 1`).
pub fn no_card(variant: &Variant, text: &str) -> String {
    let faces: Vec<String> = variant
        .designs
        .iter()
        .flat_map(|d| std::iter::once(&d.light).chain(&d.dark))
        .map(|face| variant.names.format_face(face))
        .collect();
    // The same card with the flip icon (`*`) or without it first: a mark
    // is easily forgotten or added, and an edit away from other cards too.
    let bare = text.trim_end().trim_end_matches('*').trim_end();
    let toggled = faces.iter().find(|face| face.trim_end_matches('*').eq_ignore_ascii_case(bare));
    let hint = match toggled {
        Some(face) => format!("; did you mean '{face}'?"),
        None => crate::source::did_you_mean(text, faces.iter().map(String::as_str)),
    };
    format!("the {} deck has no card '{text}'{hint}", variant.name)
}

/// `choose: VALUE` (the option with that value) or `choose: {option: N}`
/// (the Nth option, counting from 1).
fn parse_choice(arg: &Yaml) -> Result<ChoiceRef, String> {
    if let Some(map) = arg.as_mapping() {
        return match (map.len(), arg.get("option").and_then(Yaml::as_u64)) {
            (1, Some(n)) => Ok(ChoiceRef::Place(n as usize)),
            _ => Err(format!("choose: takes a value or {{option: N}}, not '{}'", arg)),
        };
    }
    match arg.value {
        YamlValue::Null => Err("choose: which option?".into()),
        _ => Ok(ChoiceRef::Value(arg.to_string())),
    }
}

/// The steps a scenario takes.
const STEPS: &[&str] = &[
    "play",
    "draw",
    "pass",
    "uno",
    "catch",
    "challenge",
    "accept",
    "color",
    "choose",
    "act",
    "expect",
    "expect_error",
];

/// The fields of a long-form play.
const PLAY_FIELDS: &[&str] = &["card", "player", "color", "as", "target", "uno"];

/// The keys of an `expect:`.
const EXPECTATIONS: &[&str] = &[
    "current",
    "direction",
    "color",
    "top",
    "side",
    "hand_sizes",
    "hand",
    "draw_size",
    "discard_size",
    "power",
    "winner",
    "match_winner",
    "scores",
    "state",
    "seat_state",
    "playing",
    "aside_size",
    "log",
    "seen_log",
    "eval",
];

/// An unknown `what` of a scenario: the ones there are, and the one it
/// looks like a misspelling of.
fn unknown(what: &str, word: &str, known: &[&str]) -> String {
    format!(
        "unknown {what} '{word}' ({}){}",
        known.join(", "),
        crate::source::did_you_mean(word, known.iter().copied())
    )
}

/// `act: NAME [CARD] [target P]`, or `act: {name: NAME, card: CARD,
/// target: P, player: P}`: an action a rule declares (by `player`, out of
/// turn).
fn parse_act(variant: &Variant, arg: &Yaml) -> Result<ActCommand, String> {
    let Some(map) = arg.as_mapping() else {
        let text =
            arg.as_str().ok_or_else(|| format!("act: takes an action's name (and card, target), not '{arg}'"))?;
        return ActCommand::parse(&variant.names, text);
    };
    let mut act = ActCommand { name: String::new(), card: None, target: None, player: None };
    for (k, v) in map {
        match k.as_str().unwrap_or_default() {
            "name" => act.name = v.as_str().ok_or("act: name is the action's name")?.to_string(),
            "card" => act.card = Some(CardRef::Named(parse_pattern(variant, v)?)),
            "target" => act.target = Some(as_seat(v)?),
            "player" => act.player = Some(as_seat(v)?),
            other => return Err(unknown("act field", other, &["name", "card", "target", "player"])),
        }
    }
    if act.name.is_empty() {
        return Err("act: needs the action's name".into());
    }
    Ok(act)
}

/// An unknown step written as one word: a step with an argument written
/// as words (`play blue 2`) is named in its map form (`{play: blue 2}`).
fn unknown_word_step(text: &str) -> String {
    match text.split_once(char::is_whitespace) {
        Some((step, rest)) if STEPS.contains(&step) => {
            format!("unknown step '{text}': a step with an argument is a map, written {{{step}: {}}}", rest.trim())
        }
        _ => unknown("step", text, STEPS),
    }
}

fn parse_play(variant: &Variant, arg: &Yaml) -> Result<Command, String> {
    let Some(m) = arg.as_mapping() else {
        return Ok(Command::Play(PlayCommand::of(CardRef::Named(parse_pattern(variant, arg)?))));
    };
    let mut card = None;
    let mut play = PlayCommand::of(CardRef::Position(0));
    for (k, v) in m {
        match k.as_str().unwrap_or_default() {
            "card" => card = Some(parse_pattern(variant, v)?),
            "player" => play.player = Some(as_seat(v)?),
            "color" => play.color = Some(parse_color(variant, v)?),
            "as" => match v.as_str() {
                Some("flex") => play.as_flex = true,
                Some("regular") => play.as_flex = false,
                _ => return Err(format!("as: '{}' must be flex or regular", v)),
            },
            "target" => play.target = Some(as_seat(v)?),
            "uno" => play.uno = v.as_bool().ok_or("uno: must be true or false")?,
            other => return Err(unknown("play field", other, PLAY_FIELDS)),
        }
    }
    play.card = CardRef::Named(card.ok_or("a long-form play needs 'card'")?);
    Ok(Command::Play(play))
}

pub fn parse_step(variant: &Variant, value: &Yaml) -> Result<Step, StepProblems> {
    if let Some(word) = value.as_str() {
        return match word.trim() {
            "draw" => Ok(Step::Act(Command::Draw)),
            "pass" => Ok(Step::Act(Command::Pass)),
            "challenge" => Ok(Step::Act(Command::Challenge)),
            "accept" => Ok(Step::Act(Command::Accept)),
            "uno" => Ok(Step::Act(Command::Uno(None))),
            other => Err(unknown_word_step(other).into()),
        };
    }
    let map = value.as_mapping().ok_or_else(|| format!("a step is a word or a one-key map, not '{}'", value))?;
    if map.len() != 1 {
        return Err(format!("a step has exactly one key: '{}'", value).into());
    }
    let (key, arg) = map.iter().next().expect("one entry");
    let key = key.as_str().unwrap_or_default();
    match key {
        "play" => Ok(parse_play(variant, arg).map(Step::Act)?),
        "uno" => Ok(Step::Act(Command::Uno(if arg.is_null() { None } else { Some(as_seat(arg)?) }))),
        "catch" => Ok(Step::Act(Command::Catch(as_seat(arg)?))),
        "color" => Ok(Step::Act(Command::Color(parse_color(variant, arg)?))),
        "choose" => Ok(Step::Act(Command::Choose(parse_choice(arg)?))),
        "act" => Ok(parse_act(variant, arg).map(|act| Step::Act(Command::Act(act)))?),
        "expect" => parse_expect(variant, arg).map(Step::Expect),
        "expect_error" => match parse_step(variant, arg)? {
            action @ Step::Act(_) => Ok(Step::ExpectError(Box::new(action))),
            _ => Err("expect_error: takes an action that must be refused (play, draw, pass...), not a check".into()),
        },
        "draw" | "pass" | "challenge" | "accept" if arg.is_null() => {
            parse_step(variant, &Yaml::unplaced(YamlValue::Str(key.into())))
        }
        other => Err(unknown("step", other, STEPS).into()),
    }
}

fn parse_expect(variant: &Variant, value: &Yaml) -> Result<Vec<Expect>, StepProblems> {
    let map = value.as_mapping().ok_or("expect: takes a map of checks")?;
    let (mut checks, mut problems) = (Vec::new(), StepProblems::default());
    for (k, v) in map {
        match parse_check(variant, k, v) {
            Ok(check) => checks.push(check),
            Err(found) => problems.0.extend(found.0),
        }
    }
    if problems.0.is_empty() { Ok(checks) } else { Err(problems) }
}

/// One check of an `expect:`, `key: v`; an unknown key is placed at itself.
fn parse_check(variant: &Variant, k: &Yaml, v: &Yaml) -> Result<Expect, StepProblems> {
    let key = k.scalar_text().unwrap_or_default();
    let key = key.as_ref();
    let count = |v: &Yaml| v.as_u64().map(|n| n as usize).ok_or_else(|| format!("{key}: '{}' is not a number", v));
    Ok(match key {
        "current" => Expect::Current(as_seat(v)?),
        "direction" => {
            Expect::Direction(v.as_str().and_then(Direction::parse).ok_or("direction: clockwise or counterclockwise")?)
        }
        "color" if v.as_str().is_some_and(|c| c.eq_ignore_ascii_case("none")) => Expect::Color(None),
        "color" => Expect::Color(Some(parse_color(variant, v)?)),
        "top" => Expect::Top(parse_pattern(variant, v)?),
        "side" => Expect::Side(v.as_str().and_then(Side::parse).ok_or("side: light or dark")?),
        "hand_sizes" => Expect::HandSizes(seat_map(v, count)?),
        "hand" => Expect::Hand(seat_map(v, |cards| {
            cards
                .as_sequence()
                .ok_or("hand: a list of cards per player")?
                .iter()
                .map(|c| parse_pattern(variant, c))
                .collect()
        })?),
        "draw_size" => Expect::DrawSize(count(v)?),
        "discard_size" => Expect::DiscardSize(count(v)?),
        "power" => Expect::Power(seat_map(v, |x| match x.as_str().map(str::to_ascii_lowercase).as_deref() {
            Some("green") => Ok(true),
            Some("red") => Ok(false),
            _ => Err(format!("power: '{}' must be green or red", x)),
        })?),
        "winner" => Expect::Winner(as_seat(v)?),
        "match_winner" => match v.as_sequence() {
            Some(seats) => Expect::MatchWinners(seats.iter().map(as_seat).collect::<Result<_, _>>()?),
            None => Expect::MatchWinner(as_seat(v)?),
        },
        "scores" => {
            Expect::Scores(seat_map(v, |x| x.as_i64().ok_or_else(|| format!("scores: '{}' is not a number", x)))?)
        }
        "state" => Expect::State(state_map(v)?),
        "seat_state" => Expect::SeatState(seat_map(v, state_map)?),
        "playing" => Expect::Playing(
            v.as_sequence()
                .ok_or("playing: a list of the seats still in the hand")?
                .iter()
                .map(as_seat)
                .collect::<Result<_, _>>()?,
        ),
        "aside_size" => Expect::AsideSize(count(v)?),
        "log" => Expect::Log(log_lines(v, "log")?),
        "eval" => Expect::Eval(eval_map(v)?),
        "seen_log" => Expect::SeenLog(seat_map(v, |lines| log_lines(lines, "seen_log"))?),
        other => return Err(StepProblems(vec![(k.position(), unknown("expectation", other, EXPECTATIONS))])),
    })
}
