//! Scenario files (scenarios.md): parse one into a table set-up and steps,
//! play it, and report PASS or FAIL per file. A file that cannot be read or
//! parsed is bad input, reported with file, line and column.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use serde_yaml::Value as Yaml;

use crate::card::{CardId, Color, Direction, Side};
use crate::event::Seat;
use crate::game::{Action, ActionError, Game, Play};
use crate::notation::CardPattern;
use crate::script::Runtime;
use crate::source::SourceFile;
use crate::variant::{self, LoadRequest, Variant};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    name: Option<String>,
    variant: String,
    #[serde(default)]
    rules: Vec<String>,
    /// Settings of the variant's and rules' options (an extension).
    #[serde(default)]
    options: BTreeMap<String, Yaml>,
    players: Option<usize>,
    seed: Option<u64>,
    #[serde(default)]
    setup: RawSetup,
    #[serde(default)]
    steps: Vec<Yaml>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSetup {
    #[serde(default)]
    hands: BTreeMap<usize, Vec<String>>,
    discard: Option<Vec<String>>,
    #[serde(default)]
    draw: Vec<String>,
    current: Option<usize>,
    dealer: Option<usize>,
    direction: Option<String>,
    color: Option<String>,
    side: Option<String>,
    #[serde(default)]
    power: BTreeMap<usize, String>,
    #[serde(default)]
    scores: BTreeMap<usize, i64>,
}

#[derive(Debug, Clone)]
enum Step {
    Play {
        card: CardPattern,
        player: Option<Seat>,
        color: Option<Color>,
        as_flex: bool,
        target: Option<Seat>,
        uno: bool,
    },
    Draw,
    Pass,
    Uno(Option<Seat>),
    Catch(Seat),
    Challenge,
    Accept,
    Color(Color),
    Expect(Vec<Expect>),
    ExpectError(Box<Step>),
}

#[derive(Debug, Clone)]
enum Expect {
    Current(Seat),
    Direction(Direction),
    Color(Color),
    Top(CardPattern),
    Side(Side),
    HandSizes(BTreeMap<Seat, usize>),
    Hand(BTreeMap<Seat, Vec<CardPattern>>),
    DrawSize(usize),
    DiscardSize(usize),
    Power(BTreeMap<Seat, bool>),
    Winner(Seat),
    MatchWinner(Seat),
    Scores(BTreeMap<Seat, i64>),
}

/// A scenario ready to run.
pub struct Scenario {
    pub file: String,
    pub name: String,
    variant: Arc<Variant>,
    players: usize,
    seed: u64,
    setup: RawSetup,
    steps: Vec<(String, Step)>,
    source: SourceFile,
}

/// The outcome of one scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    Fail(String),
}

fn yaml_text(value: &Yaml) -> String {
    match value {
        Yaml::Null => "~".into(),
        Yaml::Bool(b) => b.to_string(),
        Yaml::Number(n) => n.to_string(),
        Yaml::String(s) => s.clone(),
        Yaml::Sequence(items) => format!("[{}]", items.iter().map(yaml_text).collect::<Vec<_>>().join(", ")),
        Yaml::Mapping(map) => format!(
            "{{{}}}",
            map.iter().map(|(k, v)| format!("{}: {}", yaml_text(k), yaml_text(v))).collect::<Vec<_>>().join(", ")
        ),
        Yaml::Tagged(t) => yaml_text(&t.value),
    }
}

fn as_seat(value: &Yaml) -> Result<Seat, String> {
    value.as_u64().map(|n| n as Seat).ok_or_else(|| format!("'{}' is not a player number", yaml_text(value)))
}

fn seat_map<T>(value: &Yaml, mut f: impl FnMut(&Yaml) -> Result<T, String>) -> Result<BTreeMap<Seat, T>, String> {
    let map = value.as_mapping().ok_or_else(|| format!("'{}' must be a map of player -> value", yaml_text(value)))?;
    map.iter().map(|(k, v)| Ok((as_seat(k)?, f(v)?))).collect()
}

/// A variant or rule reference in a scenario: a built-in name, or a path
/// relative to the scenario file.
fn resolve(reference: &str, builtin_names: &[&str], scenario: &Path) -> String {
    let joined = scenario.parent().unwrap_or(Path::new(".")).join(reference);
    let looks_like_name = !reference.contains('/') && !reference.ends_with(".yaml") && !reference.ends_with(".yml");
    if builtin_names.contains(&reference) || Path::new(reference).is_absolute() || (looks_like_name && !joined.exists())
    {
        reference.to_string()
    } else {
        joined.display().to_string()
    }
}

impl Scenario {
    /// Reads and parses a scenario file; errors are bad input (exit 2).
    pub fn load(path: &Path) -> Result<Scenario, String> {
        let source = SourceFile::read(path)?;
        if source.text.trim().is_empty() {
            return Err(source.problem(None, "the file is empty"));
        }
        let raw: RawScenario = serde_yaml::from_str(&source.text).map_err(|e| source.yaml_error(&e))?;
        let settings: Vec<(String, String)> = raw.options.iter().map(|(k, v)| (k.clone(), yaml_text(v))).collect();
        let rule_names = crate::builtin::rule_names();
        let request = LoadRequest {
            variant: resolve(&raw.variant, &crate::builtin::variant_names(), path),
            rules: raw.rules.iter().map(|r| resolve(r, &rule_names, path)).collect(),
            settings,
        };
        let variant = variant::load(&request).map_err(|problems| {
            let at = source.locate(&raw.variant);
            source.problem(at, format!("cannot load the variant:\n  {}", problems.join("\n  ")))
        })?;
        let variant = Arc::new(variant);
        let mut problems = Vec::new();
        let mut players = raw.players.unwrap_or_else(|| raw.setup.hands.keys().max().map(|&m| m + 1).unwrap_or(4));
        if players < variant.min_players || players > variant.max_players {
            problems.push(source.problem_at(
                "players:",
                format!(
                    "{} is for {} to {} players, not {players} (set 'players:' or name more hands)",
                    variant.name, variant.min_players, variant.max_players
                ),
            ));
            players = players.clamp(variant.min_players, variant.max_players);
        }
        let mut steps = Vec::new();
        for value in &raw.steps {
            match parse_step(&variant, value) {
                Ok(step) => steps.push((yaml_text(value), step)),
                Err(e) => problems.push(source.problem_at(&first_scalar(value), e)),
            }
        }
        let scenario = Scenario {
            file: source.name.clone(),
            name: raw.name.clone().unwrap_or_default(),
            variant,
            players,
            seed: raw.seed.unwrap_or(0),
            setup: raw.setup,
            steps,
            source,
        };
        problems.extend(scenario.check_setup());
        if problems.is_empty() { Ok(scenario) } else { Err(problems.join("\n")) }
    }

    /// Checks the setup's cards and seats without building anything.
    fn check_setup(&self) -> Vec<String> {
        let mut problems = Vec::new();
        let _ = self.take_named_cards(&mut problems);
        let s = &self.setup;
        let seats =
            s.hands.keys().chain(s.power.keys()).chain(s.scores.keys()).chain(s.current.iter()).chain(s.dealer.iter());
        for &seat in seats {
            if seat >= self.players {
                problems.push(
                    self.source.problem(None, format!("player {seat} does not exist at a table of {}", self.players)),
                );
            }
        }
        if let Some(d) = &s.direction
            && Direction::parse(d).is_none()
        {
            problems.push(self.source.problem_at(d, format!("direction '{d}' must be clockwise or counterclockwise")));
        }
        if let Some(c) = &s.color
            && self.variant.names.color(c).is_none()
        {
            problems.push(self.source.problem_at(c, format!("unknown colour '{c}'")));
        }
        if let Some(side) = &s.side {
            match Side::parse(side) {
                None => problems.push(self.source.problem_at(side, format!("side '{side}' must be light or dark"))),
                Some(Side::Dark) if !self.variant.double_sided => {
                    problems.push(self.source.problem_at(side, format!("{} has one-sided cards", self.variant.name)))
                }
                _ => {}
            }
        }
        for value in s.power.values() {
            if !matches!(value.to_ascii_lowercase().as_str(), "green" | "red") {
                problems.push(self.source.problem_at(value, format!("Power Card side '{value}' must be green or red")));
            }
        }
        if !s.power.is_empty() && self.variant.power_cards == 0 {
            problems.push(self.source.problem_at("power:", format!("{} has no Power Cards", self.variant.name)));
        }
        problems
    }

    /// Takes the named cards out of the deck: the hands, discard and draw
    /// cards named, and the cards left over.
    fn take_named_cards(&self, problems: &mut Vec<String>) -> NamedCards {
        let mut left = self.variant.deck.clone();
        let side = self.setup.side.as_deref().and_then(Side::parse).unwrap_or_default();
        let mut take = |text: &str, problems: &mut Vec<String>| -> Option<CardId> {
            let pattern = match self.variant.names.parse_pattern(text) {
                Ok(p) => p,
                Err(e) => {
                    problems.push(self.source.problem_at(text, e));
                    return None;
                }
            };
            let exists = self.variant.designs.iter().any(|d| pattern.matches(d, side));
            match left.iter().position(|&id| pattern.matches(self.variant.design(id), side)) {
                Some(i) => Some(left.swap_remove(i)),
                None if exists => {
                    problems.push(self.source.problem_at(
                        text,
                        format!("more copies of '{text}' than the {} deck holds", self.variant.name),
                    ));
                    None
                }
                None => {
                    problems.push(
                        self.source.problem_at(text, format!("the {} deck has no card '{text}'", self.variant.name)),
                    );
                    None
                }
            }
        };
        let mut hands = BTreeMap::new();
        for (&seat, cards) in &self.setup.hands {
            let hand: Vec<CardId> = cards.iter().filter_map(|c| take(c, problems)).collect();
            hands.insert(seat, hand);
        }
        let discard: Vec<CardId> = self.setup.discard.iter().flatten().filter_map(|c| take(c, problems)).collect();
        let draw: Vec<CardId> = self.setup.draw.iter().filter_map(|c| take(c, problems)).collect();
        left.sort_unstable();
        NamedCards { hands, discard, draw, left }
    }

    /// Builds the table the setup describes.
    fn build(&self) -> Result<Game, String> {
        let runtime = Runtime::new(self.variant.clone()).map_err(|p| p.join("\n"))?;
        let mut game = Game::new(runtime, self.players, self.seed)?;
        let mut problems = Vec::new();
        let NamedCards { hands: named_hands, discard, draw: named_draw, mut left } =
            self.take_named_cards(&mut problems);
        if !problems.is_empty() {
            return Err(problems.join("\n"));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        left.shuffle(&mut rng);
        let s = &self.setup;
        let current = s.current.unwrap_or(0);
        let dealer = s.dealer.unwrap_or((current + self.players - 1) % self.players);
        let variant = self.variant.clone();
        let mut hands = vec![Vec::new(); self.players];
        for (seat, hand) in hands.iter_mut().enumerate() {
            match named_hands.get(&seat) {
                Some(named) => *hand = named.clone(),
                None => {
                    for _ in 0..variant.hand_size {
                        hand.extend(left.pop());
                    }
                }
            }
        }
        // The draw pile: the listed cards on top (first listed = top).
        let mut draw = left;
        draw.extend(named_draw.iter().rev());
        game.setup_hand(dealer);
        let side = s.side.as_deref().and_then(Side::parse).unwrap_or_default();
        let color_named = s.color.as_deref().and_then(|c| variant.names.color(c));
        game.place(|t| {
            t.hands = hands;
            t.draw = draw;
            t.discard = discard.clone();
            t.side = side;
            t.current = current;
            if let Some(d) = s.direction.as_deref().and_then(Direction::parse) {
                t.direction = d;
            }
            for (&seat, value) in &s.power {
                t.power[seat] = value.eq_ignore_ascii_case("green");
            }
            for (&seat, &score) in &s.scores {
                t.scores[seat] = score;
            }
            t.color = color_named.or_else(|| t.top().and_then(|top| variant.face(top, side).color));
        });
        if discard.is_empty() {
            game.turn_first_discard().map_err(|e| e.to_string())?;
            if let Some(c) = color_named {
                game.place(|t| t.color = Some(c));
            }
        } else if game.table().color.is_none() {
            return Err(self
                .source
                .problem_at("discard:", "the top discard is wild: say which colour is in play with 'color:'"));
        }
        Ok(game)
    }

    /// Plays the scenario.
    pub fn run(&self) -> Outcome {
        let mut game = match self.build() {
            Ok(g) => g,
            Err(e) => return Outcome::Fail(format!("setup: {e}")),
        };
        let mut last_player: Option<Seat> = None;
        for (index, (text, step)) in self.steps.iter().enumerate() {
            let fail = |why: String| Outcome::Fail(format!("step {} ({text}): {why}", index + 1));
            match step {
                Step::Expect(checks) => {
                    if let Some(mismatch) = check_expectations(&game, checks) {
                        return fail(mismatch);
                    }
                }
                Step::ExpectError(inner) => {
                    let before = fingerprint(&game);
                    let events = game.events().len();
                    match perform(&mut game, inner, &mut last_player) {
                        Ok(()) => return fail("expected the step to be refused / it was carried out".into()),
                        Err(_) if fingerprint(&game) != before || game.events().len() != events => {
                            return fail("expected the refused step to change nothing / the table changed".into());
                        }
                        Err(_) => {}
                    }
                }
                _ => {
                    if let Err(e) = perform(&mut game, step, &mut last_player) {
                        return fail(format!("expected the step to be carried out / {e}"));
                    }
                }
            }
        }
        Outcome::Pass
    }
}

/// The cards a setup names, taken out of the deck, and what is left.
struct NamedCards {
    hands: BTreeMap<Seat, Vec<CardId>>,
    discard: Vec<CardId>,
    draw: Vec<CardId>,
    left: Vec<CardId>,
}

fn first_scalar(value: &Yaml) -> String {
    match value {
        Yaml::Mapping(map) => map.iter().next().map(|(_, v)| first_scalar(v)).unwrap_or_default(),
        Yaml::Sequence(items) => items.first().map(first_scalar).unwrap_or_default(),
        other => yaml_text(other),
    }
}

fn fingerprint(game: &Game) -> String {
    let t = game.table();
    format!(
        "{:?}{:?}",
        (&t.hands, &t.draw, &t.discard, t.current, t.direction, t.color, t.side),
        (&t.power, &t.uno, &t.pending, t.drawn, &t.scores, t.winner, &t.vars)
    )
}

fn perform(game: &mut Game, step: &Step, last_player: &mut Option<Seat>) -> Result<(), ActionError> {
    let action = match step {
        Step::Play { card, player, color, as_flex, target, uno } => {
            let seat = player.unwrap_or_else(|| game.to_act());
            let Some(id) = game.find_in_hand(seat, card) else {
                let name = match card {
                    CardPattern::Face(f) => game.variant.names.format_face(f),
                    CardPattern::Card(c) => game.variant.names.format_card(c),
                };
                return Err(ActionError::Refused(format!("p{seat} holds no {name}")));
            };
            *last_player = Some(seat);
            Action::Play(Play {
                player: *player,
                card: id,
                color: *color,
                as_flex: *as_flex,
                target: *target,
                uno: *uno,
            })
        }
        Step::Draw => Action::Draw,
        Step::Pass => Action::Pass,
        Step::Uno(seat) => Action::Uno(seat.or(*last_player).unwrap_or_else(|| game.to_act())),
        Step::Catch(seat) => Action::Catch(*seat),
        Step::Challenge => Action::Challenge,
        Step::Accept => Action::Accept,
        Step::Color(c) => Action::Color(*c),
        Step::Expect(_) | Step::ExpectError(_) => {
            return Err(ActionError::Refused("an expectation is not an action".into()));
        }
    };
    game.apply(action)
}

fn check_expectations(game: &Game, checks: &[Expect]) -> Option<String> {
    let t = game.table();
    let v = &game.variant;
    let color_name = |c: Option<Color>| c.map(|c| v.names.color_name(c).to_string()).unwrap_or_else(|| "none".into());
    let pattern_name = |p: &CardPattern| match p {
        CardPattern::Face(f) => v.names.format_face(f),
        CardPattern::Card(c) => v.names.format_card(c),
    };
    for check in checks {
        let mismatch = match check {
            Expect::Current(s) => (game.to_act() != *s).then(|| format!("current {s} / {}", game.to_act())),
            Expect::Direction(d) => {
                (t.direction != *d).then(|| format!("direction {} / {}", d.name(), t.direction.name()))
            }
            Expect::Color(c) => {
                (t.color != Some(*c)).then(|| format!("color {} / {}", color_name(Some(*c)), color_name(t.color)))
            }
            Expect::Side(s) => (t.side != *s).then(|| format!("side {} / {}", s.name(), t.side.name())),
            Expect::Top(p) => {
                let ok = t.top().is_some_and(|top| p.matches(v.design(top), t.side));
                let found = t.top().map(|top| v.face_name(top, t.side)).unwrap_or_else(|| "nothing".into());
                (!ok).then(|| format!("top {} / {found}", pattern_name(p)))
            }
            Expect::HandSizes(sizes) => sizes.iter().find_map(|(&seat, &size)| {
                let found = t.hands.get(seat).map_or(0, Vec::len);
                (found != size).then(|| format!("p{seat} holds {size} cards / {found}"))
            }),
            Expect::Hand(hands) => hands.iter().find_map(|(&seat, expected)| {
                let mut held: Vec<CardId> = t.hands.get(seat).cloned().unwrap_or_default();
                let all = held.iter().map(|&c| v.face_name(c, t.side)).collect::<Vec<_>>().join(", ");
                let mut ok = held.len() == expected.len();
                for p in expected {
                    match held.iter().position(|&c| p.matches(v.design(c), t.side)) {
                        Some(i) => {
                            held.swap_remove(i);
                        }
                        None => ok = false,
                    }
                }
                (!ok).then(|| {
                    format!(
                        "p{seat} holds [{}] / [{all}]",
                        expected.iter().map(pattern_name).collect::<Vec<_>>().join(", ")
                    )
                })
            }),
            Expect::DrawSize(n) => (t.draw.len() != *n).then(|| format!("draw_size {n} / {}", t.draw.len())),
            Expect::DiscardSize(n) => {
                (t.discard.len() != *n).then(|| format!("discard_size {n} / {}", t.discard.len()))
            }
            Expect::Power(power) => power.iter().find_map(|(&seat, &green)| {
                let found = t.power.get(seat).copied();
                let name = |g: Option<bool>| match g {
                    Some(true) => "green",
                    Some(false) => "red",
                    None => "none",
                };
                (found != Some(green)).then(|| format!("p{seat}'s Power Card {} / {}", name(Some(green)), name(found)))
            }),
            Expect::Winner(s) => (t.winner != Some(*s))
                .then(|| format!("winner {s} / {}", t.winner.map_or("nobody".into(), |w| w.to_string()))),
            Expect::MatchWinner(s) => (t.match_winner != Some(*s))
                .then(|| format!("match_winner {s} / {}", t.match_winner.map_or("nobody".into(), |w| w.to_string()))),
            Expect::Scores(scores) => scores.iter().find_map(|(&seat, &score)| {
                let found = t.scores.get(seat).copied().unwrap_or(0);
                (found != score).then(|| format!("p{seat} scores {score} / {found}"))
            }),
        };
        if mismatch.is_some() {
            return mismatch;
        }
    }
    None
}

fn parse_color(variant: &Variant, value: &Yaml) -> Result<Color, String> {
    let name = value.as_str().ok_or_else(|| format!("'{}' is not a colour", yaml_text(value)))?;
    variant.names.color(name).ok_or_else(|| format!("unknown colour '{name}'"))
}

fn parse_pattern(variant: &Variant, value: &Yaml) -> Result<CardPattern, String> {
    let text = match value {
        Yaml::String(s) => s.clone(),
        Yaml::Number(n) => n.to_string(),
        other => return Err(format!("'{}' is not a card", yaml_text(other))),
    };
    let pattern = variant.names.parse_pattern(&text)?;
    let exists = variant.designs.iter().any(|d| pattern.matches(d, Side::Light) || pattern.matches(d, Side::Dark));
    if !exists {
        return Err(format!("the {} deck has no card '{text}'", variant.name));
    }
    Ok(pattern)
}

fn parse_play(variant: &Variant, arg: &Yaml) -> Result<Step, String> {
    let Yaml::Mapping(m) = arg else {
        return Ok(Step::Play {
            card: parse_pattern(variant, arg)?,
            player: None,
            color: None,
            as_flex: false,
            target: None,
            uno: false,
        });
    };
    let (mut card, mut player, mut color, mut as_flex, mut target, mut uno) = (None, None, None, false, None, false);
    for (k, v) in m {
        match k.as_str().unwrap_or_default() {
            "card" => card = Some(parse_pattern(variant, v)?),
            "player" => player = Some(as_seat(v)?),
            "color" => color = Some(parse_color(variant, v)?),
            "as" => match v.as_str() {
                Some("flex") => as_flex = true,
                Some("regular") => as_flex = false,
                _ => return Err(format!("as: '{}' must be flex or regular", yaml_text(v))),
            },
            "target" => target = Some(as_seat(v)?),
            "uno" => uno = v.as_bool().ok_or("uno: must be true or false")?,
            other => return Err(format!("unknown play field '{other}' (card, player, color, as, target, uno)")),
        }
    }
    let card = card.ok_or("a long-form play needs 'card'")?;
    Ok(Step::Play { card, player, color, as_flex, target, uno })
}

fn parse_step(variant: &Variant, value: &Yaml) -> Result<Step, String> {
    if let Some(word) = value.as_str() {
        return match word.trim() {
            "draw" => Ok(Step::Draw),
            "pass" => Ok(Step::Pass),
            "challenge" => Ok(Step::Challenge),
            "accept" => Ok(Step::Accept),
            "uno" => Ok(Step::Uno(None)),
            other => Err(format!(
                "unknown step '{other}' (steps: play, draw, pass, uno, catch, challenge, accept, color, expect, expect_error)"
            )),
        };
    }
    let map =
        value.as_mapping().ok_or_else(|| format!("a step is a word or a one-key map, not '{}'", yaml_text(value)))?;
    if map.len() != 1 {
        return Err(format!("a step has exactly one key: '{}'", yaml_text(value)));
    }
    let (key, arg) = map.iter().next().expect("one entry");
    let key = key.as_str().unwrap_or_default();
    match key {
        "play" => parse_play(variant, arg),
        "uno" => Ok(Step::Uno(if arg.is_null() { None } else { Some(as_seat(arg)?) })),
        "catch" => Ok(Step::Catch(as_seat(arg)?)),
        "color" => Ok(Step::Color(parse_color(variant, arg)?)),
        "expect" => parse_expect(variant, arg).map(Step::Expect),
        "expect_error" => Ok(Step::ExpectError(Box::new(parse_step(variant, arg)?))),
        "draw" | "pass" | "challenge" | "accept" if arg.is_null() => parse_step(variant, &Yaml::String(key.into())),
        other => Err(format!("unknown step '{other}'")),
    }
}

fn parse_expect(variant: &Variant, value: &Yaml) -> Result<Vec<Expect>, String> {
    let map = value.as_mapping().ok_or("expect: takes a map of checks")?;
    let mut checks = Vec::new();
    for (k, v) in map {
        let key = k.as_str().unwrap_or_default();
        let count = |v: &Yaml| {
            v.as_u64().map(|n| n as usize).ok_or_else(|| format!("{key}: '{}' is not a number", yaml_text(v)))
        };
        checks.push(match key {
            "current" => Expect::Current(as_seat(v)?),
            "direction" => Expect::Direction(v.as_str().and_then(Direction::parse).ok_or("direction: clockwise or counterclockwise")?),
            "color" => Expect::Color(parse_color(variant, v)?),
            "top" => Expect::Top(parse_pattern(variant, v)?),
            "side" => Expect::Side(v.as_str().and_then(Side::parse).ok_or("side: light or dark")?),
            "hand_sizes" => Expect::HandSizes(seat_map(v, count)?),
            "hand" => Expect::Hand(seat_map(v, |cards| {
                cards.as_sequence().ok_or("hand: a list of cards per player")?.iter().map(|c| parse_pattern(variant, c)).collect()
            })?),
            "draw_size" => Expect::DrawSize(count(v)?),
            "discard_size" => Expect::DiscardSize(count(v)?),
            "power" => Expect::Power(seat_map(v, |x| match x.as_str().map(str::to_ascii_lowercase).as_deref() {
                Some("green") => Ok(true),
                Some("red") => Ok(false),
                _ => Err(format!("power: '{}' must be green or red", yaml_text(x))),
            })?),
            "winner" => Expect::Winner(as_seat(v)?),
            "match_winner" => Expect::MatchWinner(as_seat(v)?),
            "scores" => Expect::Scores(seat_map(v, |x| x.as_i64().ok_or_else(|| format!("scores: '{}' is not a number", yaml_text(x))))?),
            other => {
                return Err(format!(
                    "unknown expectation '{other}' (current, direction, color, top, side, hand_sizes, hand, draw_size, discard_size, power, winner, match_winner, scores)"
                ));
            }
        });
    }
    Ok(checks)
}

/// Every scenario file under the given files and folders (folders recursively).
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            walk(path, &mut files).map_err(|e| format!("{}: {e}", path.display()))?;
        } else if path.exists() {
            files.push(path.clone());
        } else {
            return Err(format!("{}: no such file or folder", path.display()));
        }
    }
    Ok(files)
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?.map(|e| e.map(|e| e.path())).collect::<Result<_, _>>()?;
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, files)?;
        } else if matches!(path.extension().and_then(|e| e.to_str()), Some("yaml" | "yml")) {
            files.push(path);
        }
    }
    Ok(())
}

/// Totals of a run of scenario files, with the report lines.
#[derive(Debug, Default)]
pub struct Report {
    pub passed: usize,
    pub failed: usize,
    pub bad_input: usize,
    pub text: String,
}

/// Runs files; each gets a PASS or FAIL line, unreadable ones an error line.
pub fn run_files(files: &[PathBuf]) -> Report {
    let mut report = Report::default();
    for path in files {
        match Scenario::load(path) {
            Err(e) => {
                report.bad_input += 1;
                let _ = writeln!(report.text, "ERROR {e}");
            }
            Ok(scenario) => {
                // `<file>: <name>`, or the file alone for a scenario without a name.
                let title = match scenario.name.as_str() {
                    "" => scenario.file.clone(),
                    name => format!("{}: {name}", scenario.file),
                };
                match scenario.run() {
                    Outcome::Pass => {
                        report.passed += 1;
                        let _ = writeln!(report.text, "PASS {title}");
                    }
                    Outcome::Fail(why) => {
                        report.failed += 1;
                        let _ = writeln!(report.text, "FAIL {title}: {why}");
                    }
                }
            }
        }
    }
    let _ = writeln!(report.text, "{} passed, {} failed", report.passed, report.failed + report.bad_input);
    report
}
