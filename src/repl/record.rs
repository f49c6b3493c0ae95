//! A game as text: its rules, seed and every move, each move a line in card
//! notation (`p1 play red 5 // pink 3 color blue`), so that a saved game
//! reads like a log, survives a change of deck order, and is replayed on
//! load or `reload` through the same legality checks as live play.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::bot::BotKind;
use crate::game::command::{ActCommand, CardRef, ChoiceRef, Command, PlayCommand, Sight};
use crate::game::{Action, Game, Record};
use crate::rules::Rules;
use crate::ruleset::LoadRequest;
use crate::source::Position;
use crate::yaml::Placed;

/// `file:line:column: message`, or `file: message` where the place is
/// unknown.
fn problem(file: &str, at: Option<Position>, message: impl std::fmt::Display) -> String {
    match at {
        Some(at) => format!("{file}:{}:{}: {message}", at.line, at.column),
        None => format!("{file}: {message}"),
    }
}

/// What a session was started with.
#[derive(Debug, Clone)]
pub struct Setup {
    pub request: LoadRequest,
    pub players: usize,
    pub seed: u64,
    pub bot: BotKind,
}

/// A saved game on disk. What is read keeps its place in the file, so a
/// setting, bot or move refused names its line.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedGame {
    /// The format's version.
    pub unolab_save: u32,
    pub variant: String,
    #[serde(default)]
    pub rules: Vec<String>,
    #[serde(default)]
    pub settings: Vec<Placed<String>>,
    pub players: usize,
    pub seed: u64,
    pub bot: Placed<String>,
    /// `deal`, or a seat's move.
    pub history: Vec<Placed<String>>,
    /// The names people played under at a networked table, by seat:
    /// `host --resume` keeps each seat for its name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub names: BTreeMap<usize, Placed<String>>,
    /// The file it was read from (`file:line:column` in messages).
    #[serde(skip)]
    pub file: String,
}

pub const SAVE_VERSION: u32 = 1;

/// A move as a line of text.
pub fn action_text(game: &Game<impl Rules>, action: &Action) -> String {
    let variant = &game.variant;
    let names = &variant.names;
    let seat = action.seat();
    let what = match *action {
        Action::Play(play) => {
            let mut text = format!("play {}", names.format_card(variant.design(play.card)));
            if let Some(c) = play.color {
                text += &format!(" color {}", names.color_name(c));
            }
            if play.as_flex {
                text += " flex";
            }
            if let Some(t) = play.target {
                text += &format!(" target {t}");
            }
            if play.uno {
                text += " uno";
            }
            text
        }
        Action::Draw(_) => "draw".into(),
        Action::Pass(_) => "pass".into(),
        Action::Accept(_) => "accept".into(),
        Action::Challenge(_) => "challenge".into(),
        Action::NameColor(_, c) => format!("color {}", names.color_name(c)),
        Action::Choose(_, index) => format!("choose {}", index + 1),
        Action::CallUno(_) => "uno".into(),
        Action::Catch { target, .. } => format!("catch {target}"),
        Action::Act(act) => {
            let mut text = format!("act {}", variant.actions.get(usize::from(act.action)).map_or("?", |a| &a.name));
            if let Some(card) = act.card {
                text += &format!(" {}", names.format_card(variant.design(card)));
            }
            if let Some(t) = act.target {
                text += &format!(" target {t}");
            }
            text
        }
    };
    format!("p{seat} {what}")
}

/// The history of `game` as lines.
pub fn history_text(game: &Game<impl Rules>, history: &[Record]) -> Vec<String> {
    history
        .iter()
        .map(|record| match record {
            Record::Deal => "deal".to_string(),
            Record::Act(action) => action_text(game, action),
        })
        .collect()
}

/// Carries out the lines of a history on `game`, in order; stops at the
/// first the rules refuse: its index and why.
pub fn replay<'a>(
    game: &mut Game<impl Rules>,
    lines: impl IntoIterator<Item = &'a str>,
) -> Result<(), (usize, String)> {
    for (index, line) in lines.into_iter().enumerate() {
        replay_line(game, line).map_err(|e| (index, format!("move {} ('{line}'): {e}", index + 1)))?;
    }
    Ok(())
}

/// Carries out one line of a history on `game`: a deal, or a move resolved
/// against the table (the card by its full notation, so the very card).
pub fn replay_line(game: &mut Game<impl Rules>, line: &str) -> Result<(), String> {
    let line = line.trim();
    if line == "deal" {
        return game.deal().map_err(|e| e.to_string());
    }
    let (seat, what) = line.split_once(' ').ok_or_else(|| format!("'{line}' is not a move"))?;
    let seat: usize = seat
        .strip_prefix('p')
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("'{line}' does not start with a seat (p0, p1...)"))?;
    let (verb, rest) = what.split_once(' ').unwrap_or((what, ""));
    let names = &game.variant.names;
    let command = match verb {
        "play" => {
            let mut words: Vec<&str> = rest.split_whitespace().collect();
            let mut play = PlayCommand::of(CardRef::Position(0));
            play.player = Some(seat);
            loop {
                match words.as_slice() {
                    [.., "uno"] => play.uno = true,
                    [.., "flex"] => play.as_flex = true,
                    [.., "target", t] => {
                        play.target = Some(t.parse().map_err(|_| format!("'{t}' is not a seat"))?);
                        words.pop();
                    }
                    [.., "color", c] => {
                        play.color = Some(names.color(c).ok_or_else(|| format!("unknown colour '{c}'"))?);
                        words.pop();
                    }
                    _ => break,
                }
                words.pop();
            }
            play.card = CardRef::Named(names.parse_pattern(&words.join(" "))?);
            Command::Play(play)
        }
        "draw" => Command::Draw,
        "pass" => Command::Pass,
        "accept" => Command::Accept,
        "challenge" => Command::Challenge,
        "uno" => Command::Uno(None),
        "color" => Command::Color(names.color(rest).ok_or_else(|| format!("unknown colour '{rest}'"))?),
        "choose" => Command::Choose(ChoiceRef::Place(rest.parse().map_err(|_| format!("'{rest}' is not an option"))?)),
        "catch" => Command::Catch(rest.parse().map_err(|_| format!("'{rest}' is not a seat"))?),
        "act" => Command::Act(ActCommand::parse(names, rest)?),
        other => return Err(format!("unknown move '{other}'")),
    };
    let action = game.resolve(&command, seat, Sight::All)?;
    game.apply(action).map_err(|e| e.to_string())
}

impl Setup {
    /// The `unolab play` command line that starts this match again.
    pub fn command(&self) -> String {
        let mut command = format!("unolab play {} -p {} --seed {}", self.request.arguments(), self.players, self.seed);
        if self.bot != BotKind::Random {
            command += &format!(" --bot {}", self.bot);
        }
        command
    }
}

/// A variant or rule as a saved game names it: a built-in name as it is, a
/// file by its absolute path, so the save loads from anywhere.
fn lasting(reference: &str) -> String {
    let path = Path::new(reference);
    if path.is_file()
        && let Ok(absolute) = path.canonicalize()
    {
        return absolute.display().to_string();
    }
    reference.to_string()
}

impl SavedGame {
    pub fn of(setup: &Setup, game: &Game<impl Rules>) -> SavedGame {
        SavedGame {
            unolab_save: SAVE_VERSION,
            variant: lasting(&setup.request.variant),
            rules: setup.request.rules.iter().map(|r| lasting(r)).collect(),
            settings: setup.request.settings.iter().map(|(k, v)| Placed::unplaced(format!("{k}={v}"))).collect(),
            players: setup.players,
            seed: setup.seed,
            bot: Placed::unplaced(setup.bot.to_string()),
            history: history_text(game, game.history()).into_iter().map(Placed::unplaced).collect(),
            names: BTreeMap::new(),
            file: String::new(),
        }
    }

    /// Reads a saved game: YAML, with the place of any problem.
    pub fn read(path: &Path) -> Result<SavedGame, String> {
        let text = crate::loader::read_text(path).map_err(|e| format!("{}: {e}", path.display()))?;
        SavedGame::parse(&path.display().to_string(), &text)
    }

    /// A saved game's text, read from `file` (named in messages).
    pub fn parse(file: &str, text: &str) -> Result<SavedGame, String> {
        let at_place = |(at, e): (Option<Position>, String)| problem(file, at, e);
        // A file that reads as YAML but is not a save (a variant, a list...)
        // is named as such; one that does not read says where it breaks.
        let node: crate::yaml::Yaml = crate::yaml::from_str(text).map_err(at_place)?;
        if node.get("unolab_save").is_none() {
            return Err(format!("{file}: not a saved game of unolab (`save FILE` writes them)"));
        }
        let mut saved: SavedGame = crate::yaml::from_str(text).map_err(at_place)?;
        if saved.unolab_save != SAVE_VERSION {
            return Err(format!(
                "{file}: saved by another version of unolab (format {}, this one reads {SAVE_VERSION})",
                saved.unolab_save
            ));
        }
        saved.file = file.to_string();
        Ok(saved)
    }

    /// The moves, as lines.
    pub fn lines(&self) -> Vec<String> {
        self.history.iter().map(|line| line.value.clone()).collect()
    }

    /// `file:line:column: message` at a value of the file.
    pub fn problem<T>(&self, value: &Placed<T>, message: impl std::fmt::Display) -> String {
        problem(&self.file, value.position(), message)
    }

    pub fn setup(&self) -> Result<Setup, String> {
        let settings = self
            .settings
            .iter()
            .map(|s| {
                s.split_once('=')
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .ok_or_else(|| self.problem(s, format!("setting '{s}' is not KEY=VALUE")))
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(Setup {
            request: LoadRequest { variant: self.variant.clone(), rules: self.rules.clone(), settings },
            players: self.players,
            seed: self.seed,
            bot: BotKind::read(&self.bot).map_err(|e| self.problem(&self.bot, e))?,
        })
    }

    /// The file's text.
    pub fn text(&self) -> Result<String, String> {
        let text = crate::yaml::to_string(self)?;
        Ok(format!("# unolab saved game: load it with 'load FILE' in 'unolab play'\n{text}"))
    }

    pub fn write(&self, path: &Path) -> Result<(), String> {
        let text = self.text()?;
        // Whole or not at all: a save that fails leaves the one before.
        crate::output::write(path, crate::output::USER_FILE, text.as_bytes())
    }
}
