//! The REPL: a match against bots with seat 0 at the keyboard, and the
//! workbench a rule designer uses mid-game (`undo`, `save`/`load`,
//! `reload`, `rules`, `log`). Bots wait while seat 0 has a move on the
//! same event (a catch, a jump-in, an UNO call): the prompt offers it
//! first. Input comes from a `LineSource` (a terminal or a pipe); nothing
//! typed can end the session except `quit` or the end of input.

pub mod command;
pub mod input;
pub mod record;
pub mod render;
pub mod screen;
pub mod setup;
pub mod words;

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use crate::bot::{self, Bot, BotKind};
use crate::game::{Game, Record};
use crate::rules::TraceSight;
use crate::script::Runtime;
use crate::variant::Variant;
use command::{Input, Pace};
use input::{Line, LineSource};
use record::{SavedGame, Setup};
use render::Style;
use screen::Screen;

/// The seat at the keyboard.
pub const HUMAN: usize = 0;

/// Loads a ruleset from disk (the CLI's loader, so that `reload` and `new`
/// read the same files `play` did). The warnings are printed by the caller.
pub type LoadFn = dyn Fn(&crate::ruleset::LoadRequest) -> Result<Variant, Vec<String>>;

/// A game in progress, and what seat 0 has been shown of it. The bots are
/// made anew for each decision (see `bots`).
pub struct Session<'a> {
    setup: Setup,
    game: Game<Runtime>,
    screen: Screen,
    load: &'a LoadFn,
    pace: Pace,
    /// Play waits for Enter (see `pace`).
    paused: bool,
    /// Enter was given: the next hand may be dealt.
    go_on: bool,
    /// The summary of the hand over was shown (before a pause).
    summarised: bool,
    /// A `new` or `load` that would throw the match away, asked about.
    confirm: Option<Box<Next>>,
    /// Hook calls are traced (`trace on`), as seat 0 may see them.
    tracing: bool,
}

/// What happened to a line.
enum Flow {
    Continue,
    Quit,
}

/// A path with a leading `~/` in the home directory.
fn home(path: &str) -> String {
    match (path.strip_prefix("~/"), dirs::home_dir()) {
        (Some(rest), Some(home)) => home.join(rest).display().to_string(),
        _ => path.to_string(),
    }
}

/// A heading and the problems under it, each with the source line it
/// points at.
fn list_problems(out: &mut dyn Write, heading: &str, problems: &[String]) -> std::io::Result<()> {
    writeln!(out, "{heading}")?;
    writeln!(out, "{}", crate::diagnostic::render_all(problems, &crate::loader::Disk, false, "  "))
}

/// A line of a history the rules refused: its index, and why.
type Refused = (usize, String);

/// Starts a game of `setup`.
fn start(setup: &Setup, load: &LoadFn) -> Result<(Arc<Variant>, Game<Runtime>), Vec<String>> {
    let variant = Arc::new(load(&setup.request)?);
    let runtime = Runtime::new(variant.clone())?;
    let game = Game::new(runtime, setup.players, setup.seed).map_err(|e| vec![e])?;
    Ok((variant, game))
}

/// The bots of a match, one a seat, for the decision now: they decide from
/// the seed and the point in the game (how many records the history
/// holds), so an undone move made again meets the same answers, as a
/// replayed or loaded game does.
pub fn bots_at(setup: &Setup, game: &Game<Runtime>) -> Vec<Bot> {
    (0..setup.players).map(|seat| bot_at(setup, game, seat, setup.bot)).collect()
}

/// The bot of `kind` that decides for `seat` now, seeded as `bots_at`
/// seeds them: `auto` for a seat, with the match's kind or another.
pub fn bot_at(setup: &Setup, game: &Game<Runtime>, seat: usize, kind: BotKind) -> Bot {
    let seed = crate::rng::game_seed(setup.seed, game.history().len() as u64);
    Bot::new(kind, seed, seat as u64)
}

impl<'a> Session<'a> {
    pub fn new(setup: Setup, game: Game<Runtime>, style: Style, load: &'a LoadFn) -> Session<'a> {
        let screen = Screen::new(HUMAN, setup.players, style);
        Session {
            setup,
            game,
            screen,
            load,
            pace: Pace::Off,
            paused: false,
            go_on: false,
            summarised: false,
            confirm: None,
            tracing: false,
        }
    }

    /// How play is paced (`Pace::Off` unless set).
    pub fn set_pace(&mut self, pace: Pace) {
        self.pace = pace;
    }

    /// Plays until `quit` or the end of input.
    pub fn run(&mut self, input: &mut dyn LineSource, out: &mut dyn Write) -> std::io::Result<()> {
        self.opening(out)?;
        // Ctrl-C clears the line; the first time, it says how to leave.
        let mut told_how_to_quit = false;
        loop {
            if input.interactive() {
                // The terminal may have been resized.
                self.screen.style.width = render::terminal_width();
            }
            if let Err(e) = self.advance(out) {
                let shown = crate::diagnostic::render(&format!("error: {e}"), &crate::loader::Disk, false);
                writeln!(out, "{shown}")?;
                writeln!(out, "that move was not made: fix the rules and 'reload', or 'undo', 'new' or 'quit'")?;
                self.screen.refresh_moves(&mut self.game);
            }
            if !self.screen.table_shown {
                self.screen.show_table(&self.game, out)?;
            }
            input.set_vocabulary(self.screen.vocabulary(&self.game));
            let prompt = if self.confirm.is_some() {
                "throw this match away? (yes/no)".to_string()
            } else if self.paused && self.game.hand_over() {
                format!("hand {} over: Enter deals the next hand", self.game.table().hand_number())
            } else if self.paused {
                "Enter: play goes on".to_string()
            } else {
                self.screen.prompt(&self.game)
            };
            if !input.interactive() {
                // Without prompts, a chance out of turn is still announced:
                // it changes what the next line means.
                if self.paused || self.screen.in_window(&self.game) && self.screen.has_chance(&self.game) {
                    writeln!(out, "{prompt}")?;
                }
                out.flush()?;
            }
            let line = match input.read_line(&format!("{prompt}> "))? {
                Line::Text(text) => text,
                Line::Cancelled => {
                    if !std::mem::replace(&mut told_how_to_quit, true) {
                        writeln!(out, "(Ctrl-C clears the line; 'quit' or Ctrl-D ends the game)")?;
                    }
                    continue;
                }
                Line::Unreadable => {
                    writeln!(out, "that line is not text this game can read (UTF-8, at most 4096 bytes); ignored")?;
                    continue;
                }
                Line::End => {
                    if !input.interactive() {
                        writeln!(out, "input ended")?;
                    }
                    self.screen.summary(&self.game, Some(self.setup.command()), out)?;
                    return Ok(());
                }
            };
            if !input.interactive() && !line.trim().is_empty() {
                writeln!(out, "> {}", line.trim())?;
            }
            match self.handle(&line, out)? {
                Flow::Continue => {}
                Flow::Quit => {
                    self.screen.summary(&self.game, Some(self.setup.command()), out)?;
                    return Ok(());
                }
            }
        }
    }

    fn opening(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let variant = &self.game.variant;
        let opening = format!(
            "unolab: {}, {} players, seed {}; you are p{HUMAN}. Type 'help' for commands.",
            variant.title(),
            self.setup.players,
            self.setup.seed
        );
        writeln!(out, "{}", render::wrap_text(&opening, 2, self.screen.style))?;
        // The options in force are the rule sheet's ('rules'); only those
        // set by hand are said here.
        let settings: Vec<String> = self.setup.request.settings.iter().map(|(k, v)| format!("{k}={v}")).collect();
        if !settings.is_empty() {
            writeln!(out, "settings: {}", settings.join(", "))?;
        }
        for note in variant.notes() {
            writeln!(out, "note: {note}")?;
        }
        for warning in &variant.warnings {
            writeln!(out, "warning: {warning}")?;
        }
        Ok(())
    }

    /// Plays the bots' moves until seat 0 has something to decide: its
    /// turn or decision, or a chance out of turn it has not let pass.
    /// Seat 0's moves are up to date when it returns `Ok`.
    fn advance(&mut self, out: &mut dyn Write) -> Result<(), String> {
        // Bots' actions since seat 0 last had a say: rules that never let a
        // hand end, or never give seat 0 a turn, are stopped, not followed
        // for ever.
        let mut actions = 0;
        if self.paused {
            return Ok(());
        }
        loop {
            self.show_and_refresh(out).map_err(|e| e.to_string())?;
            if self.game.table().match_winner().is_some() {
                self.screen.announce_match_end(&self.game, out).map_err(|e| e.to_string())?;
                return Ok(());
            }
            if self.game.table().hand_number() == 0 || self.game.hand_over() {
                if self.game.hand_over() {
                    if self.pace != Pace::Off && !std::mem::take(&mut self.go_on) {
                        // The summary, then a pause before the next deal.
                        if !std::mem::replace(&mut self.summarised, true) {
                            self.screen.hand_summary(&self.game, out).map_err(|e| e.to_string())?;
                        }
                        self.screen.table_shown = true;
                        self.paused = true;
                        return Ok(());
                    }
                    if !std::mem::take(&mut self.summarised) {
                        self.screen.hand_summary(&self.game, out).map_err(|e| e.to_string())?;
                    }
                }
                self.screen.scores_at_deal = self.game.table().scores().to_vec();
                self.game.deal().map_err(|e| e.to_string())?;
                continue;
            }
            if self.screen.holds_play(&self.game) {
                return Ok(());
            }
            actions += 1;
            if actions > crate::limits::HAND_ACTIONS {
                return Err(format!(
                    "the bots made {} moves without the hand ending or you having a say: the rules may never let it end",
                    crate::limits::HAND_ACTIONS
                ));
            }
            let mut bots = bots_at(&self.setup, &self.game);
            match bot::next_action(&mut self.game, &mut bots, Some(HUMAN)).map_err(|e| e.to_string())? {
                Some((seat, action)) => {
                    self.game.apply(action).map_err(|e| format!("p{seat} could not act: {e}"))?;
                    if self.pace == Pace::Move && !self.game.hand_over() {
                        self.show_and_refresh(out).map_err(|e| e.to_string())?;
                        if !self.screen.holds_play(&self.game) {
                            self.paused = true;
                            self.screen.table_shown = true;
                            return Ok(());
                        }
                    }
                }
                None => return Ok(()),
            }
        }
    }

    /// Carries out one line of input.
    fn handle(&mut self, line: &str, out: &mut dyn Write) -> std::io::Result<Flow> {
        if let Some(next) = self.confirm.take() {
            let answer = command::yes_or_no(line);
            if answer == Some(true) {
                self.put_in_play(*next, out)?;
                return Ok(Flow::Continue);
            }
            writeln!(out, "the match goes on")?;
            if answer == Some(false) {
                return Ok(Flow::Continue);
            }
        }
        if self.paused && line.trim().is_empty() {
            self.paused = false;
            self.go_on = self.game.hand_over();
            return Ok(Flow::Continue);
        }
        let input = match command::parse_at(&self.game, &self.screen, line) {
            Ok(input) => input,
            Err(e) => {
                self.screen.say(out, &e)?;
                return Ok(Flow::Continue);
            }
        };
        let (setup, game) = (&self.setup, &self.game);
        let bot = bot_at(setup, game, HUMAN, input.auto_bot().unwrap_or(setup.bot));
        if self.screen.handle(&mut self.game, &input, || bot, out)? {
            return Ok(Flow::Continue);
        }
        self.carry_out(input, out)
    }

    /// A match is in progress: seat 0 has made a decision, and nobody has
    /// won.
    fn in_progress(&self) -> bool {
        self.game.table().match_winner().is_none()
            && self.game.history().iter().any(|r| matches!(r, Record::Act(a) if a.seat() == HUMAN))
    }

    /// Carries out the session's own commands.
    fn carry_out(&mut self, input: Input, out: &mut dyn Write) -> std::io::Result<Flow> {
        match input {
            Input::Pace(None) => writeln!(out, "pace {} (off, hand or move)", self.pace.name())?,
            Input::Pace(Some(pace)) => {
                self.pace = pace;
                writeln!(out, "pace {}", pace.name())?;
            }
            Input::Undo => self.undo(out)?,
            Input::Save(path) => match SavedGame::of(&self.setup, &self.game).write(Path::new(&home(&path))) {
                Ok(()) => writeln!(out, "saved to {path}")?,
                Err(e) => writeln!(out, "not saved: {e}")?,
            },
            Input::Load(path) => self.load_file(&home(&path), out)?,
            Input::New(args) => self.new_match(&args, out)?,
            Input::Reload => self.reload(out)?,
            Input::Eval(expression) => match self.game.eval(&expression) {
                Ok(value) => writeln!(out, "{value}")?,
                Err(e) => writeln!(out, "error: {e}")?,
            },
            Input::Trace(None) => writeln!(out, "trace {} (on or off)", if self.tracing { "on" } else { "off" })?,
            Input::Trace(Some(on)) => {
                self.tracing = on;
                self.screen.trace.clear();
                self.game.set_trace(on.then_some(TraceSight::Seat(HUMAN)));
                writeln!(out, "trace {}", if on { "on" } else { "off" })?;
            }
            Input::Quit => return Ok(Flow::Quit),
            _ => {}
        }
        Ok(Flow::Continue)
    }

    /// Back to before seat 0's last decision: the game is replayed up to
    /// it.
    fn undo(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        match undo_seat(&self.setup, &self.game, HUMAN) {
            Ok((game, undone)) => {
                self.replace_game(game);
                self.screen.say(out, &format!("undone: {undone}"))?;
            }
            Err(e) => writeln!(out, "{e}")?,
        }
        Ok(())
    }

    /// Shows the events not shown yet, with the trace of the calls made
    /// since it was last shown.
    fn show_events(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        self.screen.trace.extend(self.game.take_trace());
        self.screen.show_events(&self.game, out)
    }

    /// Shows the events not shown yet, then works out seat 0's moves; with
    /// the trace on, the calls that worked them out are shown then too,
    /// not after the next command.
    fn show_and_refresh(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        self.show_events(out)?;
        self.screen.refresh_moves(&mut self.game);
        if self.tracing {
            self.show_events(out)?;
        }
        Ok(())
    }

    /// Puts `game` in play, and shows the table anew.
    fn replace_game(&mut self, game: Game<Runtime>) {
        self.game = game;
        if self.tracing {
            self.game.set_trace(Some(TraceSight::Seat(HUMAN)));
        }
        self.screen.trace.clear();
        self.screen.reset(&self.game);
    }

    fn load_file(&mut self, path: &str, out: &mut dyn Write) -> std::io::Result<()> {
        let saved = match SavedGame::read(Path::new(path)).and_then(|saved| Ok((saved.setup()?, saved))) {
            Ok(found) => found,
            Err(e) => {
                self.screen.say(out, &format!("not loaded: {e}"))?;
                return Ok(());
            }
        };
        let (setup, saved) = saved;
        match rebuild(&setup, self.load, saved.history.iter().map(|line| line.as_str())) {
            Ok((_, Some((index, problem)))) => {
                self.screen.say(out, &format!("not loaded: {}", saved.problem(&saved.history[index], problem)))?
            }
            Ok((game, None)) => {
                let said = format!("loaded {path}: {} moves replayed", saved.history.len());
                self.offer(Next { setup, game, said: Some(said), fresh: false }, out)?;
            }
            Err(problems) => list_problems(out, &format!("not loaded: {path}:"), &problems)?,
        }
        Ok(())
    }

    /// Puts a new match in play, or asks first where one is in progress.
    fn offer(&mut self, next: Next, out: &mut dyn Write) -> std::io::Result<()> {
        if self.in_progress() {
            let table = self.game.table();
            let line = format!(
                "this match is in progress (hand {}, your score {}): throw it away? (yes/no)",
                table.hand_number(),
                table.scores()[HUMAN]
            );
            self.screen.say(out, &line)?;
            self.confirm = Some(Box::new(next));
            return Ok(());
        }
        self.put_in_play(next, out)
    }

    fn put_in_play(&mut self, next: Next, out: &mut dyn Write) -> std::io::Result<()> {
        let Next { setup, game, said, fresh } = next;
        self.setup = setup;
        if fresh {
            self.screen = Screen::new(HUMAN, self.setup.players, self.screen.style);
        }
        self.replace_game(game);
        if fresh {
            self.screen.announced = false;
        }
        (self.paused, self.go_on, self.summarised) = (false, false, false);
        if let Some(said) = said {
            writeln!(out, "{said}")?;
        }
        self.opening(out)
    }

    fn reload(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let lines = record::history_text(&self.game, self.game.history());
        match rebuild(&self.setup, self.load, lines.iter().map(String::as_str)) {
            Ok((game, problem)) => {
                let (records, title) = (game.history().len(), game.variant.title());
                let before = self.hands_in_words();
                self.replace_game(game);
                writeln!(out, "reloaded {title}: {records} of {} moves replayed", lines.len())?;
                if let Some((_, problem)) = problem {
                    self.screen.say(out, &format!("{problem}; staying at the last good point"))?;
                }
                for (seat, (was, now)) in before.iter().zip(self.hands_in_words()).enumerate() {
                    if *was != now {
                        let line = format!("p{seat}'s hand changed: {was} before, {now} now");
                        self.screen.say(out, &line)?;
                    }
                }
            }
            Err(problems) => list_problems(out, "not reloaded (the game goes on as it was):", &problems)?,
        }
        Ok(())
    }

    /// Each seat's hand as seat 0 may know it: its own cards, the others'
    /// counts.
    fn hands_in_words(&self) -> Vec<String> {
        let (table, variant) = (self.game.table(), &self.game.variant);
        (0..self.game.players())
            .map(|seat| {
                let hand = &table.hands()[seat];
                let count = format!("{} card{}", hand.len(), if hand.len() == 1 { "" } else { "s" });
                if seat != HUMAN {
                    return count;
                }
                let mut cards: Vec<String> =
                    hand.iter().map(|&c| variant.names.format_face(variant.face(c, table.side()))).collect();
                cards.sort();
                format!("{count} ({})", cards.join(", "))
            })
            .collect()
    }

    fn new_match(&mut self, args: &[String], out: &mut dyn Write) -> std::io::Result<()> {
        let setup = match setup::new_setup(&self.setup, args) {
            Ok(setup) => setup,
            Err(e) => {
                self.screen.say(out, e.trim_end())?;
                return Ok(());
            }
        };
        match start(&setup, self.load) {
            Ok((_, game)) => self.offer(Next { setup, game, said: None, fresh: true }, out)?,
            Err(problems) => list_problems(out, "no new match:", &problems)?,
        }
        Ok(())
    }
}

/// A match `new` or `load` would put in play.
struct Next {
    setup: Setup,
    game: Game<Runtime>,
    /// What to say once it is in play.
    said: Option<String>,
    /// A new match (not a loaded one).
    fresh: bool,
}

/// Plays the lines of a history on a new game of `setup`; stops at the
/// first line the rules refuse, keeping the game before it (and the
/// line's index and why).
pub fn rebuild<'l>(
    setup: &Setup,
    load: &LoadFn,
    lines: impl IntoIterator<Item = &'l str>,
) -> Result<(Game<Runtime>, Option<Refused>), Vec<String>> {
    let (_, mut game) = start(setup, load)?;
    let refused = record::replay(&mut game, lines).err();
    Ok((game, refused))
}

/// The game back to before `seat`'s last decision (replayed up to it), and
/// that decision in words; or why not.
pub fn undo_seat(setup: &Setup, game: &Game<Runtime>, seat: usize) -> Result<(Game<Runtime>, String), String> {
    let history = game.history();
    let Some(at) = history.iter().rposition(|r| matches!(r, Record::Act(a) if a.seat() == seat)) else {
        return Err("nothing to undo: you have not decided anything yet".into());
    };
    let undone = match history[at] {
        Record::Act(action) => action.describe(&game.variant, game.table().side()),
        Record::Deal => unreachable!("a deal has no seat"),
    };
    let records = history[..at].to_vec();
    let replayed = Runtime::new(game.variant.clone())
        .map_err(|problems| problems.join("; "))
        .and_then(|runtime| Game::replay(runtime, setup.players, setup.seed, &records));
    match replayed {
        Ok(replayed) => Ok((replayed, undone)),
        Err(e) => Err(format!("cannot undo: {e}")),
    }
}
