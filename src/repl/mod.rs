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
pub mod setup;

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use crate::bot::{self, Bot};
use crate::event::{Event, describe_for};
use crate::game::command::{CardRef, Command, Sight};
use crate::game::{Action, Game, Moves, Play, Record};
use crate::script::Runtime;
use crate::turn::Phase;
use crate::variant::Variant;
use command::Input;
use input::{Line, LineSource, Vocabulary};
use record::{SavedGame, Setup};
use render::Style;

/// The seat at the keyboard.
pub const HUMAN: usize = 0;

/// Loads a ruleset from disk (the CLI's loader, so that `reload` and `new`
/// read the same files `play` did). The warnings are printed by the caller.
pub type LoadFn = dyn Fn(&crate::ruleset::LoadRequest) -> Result<Variant, Vec<String>>;

/// A game in progress, and what has been shown of it. The bots are made
/// anew for each decision (see `bots`).
pub struct Session<'a> {
    setup: Setup,
    game: Game<Runtime>,
    /// Events printed so far.
    shown: usize,
    /// The history length at which seat 0 last let an out-of-turn chance
    /// pass (so it is not offered again until something happens).
    passed_at: Option<usize>,
    /// The table was shown since the last event.
    table_shown: bool,
    /// The match end was announced.
    announced: bool,
    /// Scores when the current hand started, for the hand's summary.
    scores_at_deal: Vec<i64>,
    style: Style,
    load: &'a LoadFn,
    moves: Moves,
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

impl<'a> Session<'a> {
    pub fn new(setup: Setup, game: Game<Runtime>, style: Style, load: &'a LoadFn) -> Session<'a> {
        let players = setup.players;
        Session {
            setup,
            game,
            shown: 0,
            passed_at: None,
            table_shown: false,
            announced: false,
            scores_at_deal: vec![0; players],
            style,
            load,
            moves: Moves::default(),
        }
    }

    /// Plays until `quit` or the end of input.
    pub fn run(&mut self, input: &mut dyn LineSource, out: &mut dyn Write) -> std::io::Result<()> {
        self.opening(out)?;
        // Ctrl-C clears the line; the first time, it says how to leave.
        let mut told_how_to_quit = false;
        loop {
            if input.interactive() {
                // The terminal may have been resized.
                self.style.width = render::terminal_width();
            }
            if let Err(e) = self.advance(out) {
                let shown = crate::diagnostic::render(&format!("error: {e}"), &crate::loader::Disk, false);
                writeln!(out, "{shown}")?;
                writeln!(out, "that move was not made: fix the rules and 'reload', or 'undo', 'new' or 'quit'")?;
                self.refresh_moves();
            }
            if !self.table_shown {
                self.show_table(out)?;
            }
            input.set_vocabulary(self.vocabulary());
            let prompt = self.prompt();
            if !input.interactive() {
                // Without prompts, a chance out of turn is still announced:
                // it changes what the next line means.
                if self.in_window() && self.has_chance() {
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
                    self.summary(out)?;
                    return Ok(());
                }
            };
            if !input.interactive() && !line.trim().is_empty() {
                writeln!(out, "> {}", line.trim())?;
            }
            match self.handle(&line, out)? {
                Flow::Continue => {}
                Flow::Quit => {
                    self.summary(out)?;
                    return Ok(());
                }
            }
        }
    }

    /// A message, wrapped at the terminal's width.
    fn say(&self, out: &mut dyn Write, text: &str) -> std::io::Result<()> {
        writeln!(out, "{}", render::wrap_text(text, 2, self.style))
    }

    fn opening(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let variant = &self.game.variant;
        let opening = format!(
            "unolab: {}, {} players, seed {}; you are p{HUMAN}. Type 'help' for commands.",
            variant.title(),
            self.setup.players,
            self.setup.seed
        );
        self.say(out, &opening)?;
        for line in variant.options_in_words() {
            writeln!(out, "{line}")?;
        }
        for note in variant.notes() {
            writeln!(out, "note: {note}")?;
        }
        for warning in &variant.warnings {
            writeln!(out, "warning: {warning}")?;
        }
        Ok(())
    }

    /// Prints the events not yet shown, one line each, condensed (see
    /// `render::condense`).
    fn show_events(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let events = &self.game.events()[self.shown..];
        // The events of one action (the REPL shows them after each): the
        // action, then what followed from it, indented under it. A deal is
        // not an action.
        let one_action = !matches!(events.first(), Some(Event::HandStarted { .. }));
        // A play or pass right after the same seat drew (the record before
        // this action's) finishes its turn.
        let history = self.game.history();
        let drew = match history.len().checked_sub(2).map(|i| &history[i]) {
            Some(Record::Act(Action::Draw(seat))) => Some(*seat),
            _ => None,
        };
        let same_turn = match events.first() {
            Some(Event::Played { seat, out_of_turn: false, .. } | Event::Passed { seat }) => Some(*seat) == drew,
            _ => false,
        };
        let turn_indent = if same_turn { "  " } else { "" };
        let mut lines = Vec::with_capacity(events.len());
        for (index, event) in events.iter().enumerate() {
            if matches!(event, Event::HandStarted { .. }) {
                lines.push(String::new());
            }
            // The match's end is announced once, after the hand's summary.
            if matches!(event, Event::MatchWon { .. }) {
                continue;
            }
            let line = describe_for(event, &self.game.variant, Some(HUMAN));
            let indent = if one_action && index > 0 { "  " } else { "" };
            lines.push(format!("{turn_indent}{indent}{line}"));
        }
        for line in render::condense(lines) {
            writeln!(out, "{line}")?;
        }
        if !events.is_empty() {
            self.table_shown = false;
        }
        self.shown = self.game.events().len();
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
        loop {
            self.show_events(out).map_err(|e| e.to_string())?;
            self.refresh_moves();
            if self.game.table().match_winner().is_some() {
                if !self.announced {
                    self.announced = true;
                    self.hand_summary(out).map_err(|e| e.to_string())?;
                    let line = format!("match over: {}. 'new' starts another match.", self.match_winners());
                    self.say(out, &line).map_err(|e| e.to_string())?;
                }
                return Ok(());
            }
            if self.game.table().hand_number() == 0 || self.game.hand_over() {
                if self.game.hand_over() {
                    self.hand_summary(out).map_err(|e| e.to_string())?;
                }
                self.scores_at_deal = self.game.table().scores().to_vec();
                self.game.deal().map_err(|e| e.to_string())?;
                continue;
            }
            let to_act = self.game.to_act();
            if to_act == HUMAN && self.moves.has_turn_action() {
                return Ok(());
            }
            if self.has_chance() && self.passed_at != Some(self.game.history().len()) {
                return Ok(());
            }
            actions += 1;
            if actions > crate::limits::HAND_ACTIONS {
                return Err(format!(
                    "the bots made {} moves without the hand ending or you having a say: the rules may never let it end",
                    crate::limits::HAND_ACTIONS
                ));
            }
            let mut bots = self.bots();
            match bot::next_action(&mut self.game, &mut bots, Some(HUMAN)).map_err(|e| e.to_string())? {
                Some((seat, action)) => {
                    self.game.apply(action).map_err(|e| format!("p{seat} could not act: {e}"))?;
                }
                None => return Ok(()),
            }
        }
    }

    /// The bots, one a seat, for the decision now: they decide from the
    /// seed and the point in the game (how many records the history holds),
    /// so an undone move made again meets the same answers, as a replayed or
    /// loaded game does.
    fn bots(&self) -> Vec<Bot> {
        let seed = crate::rng::game_seed(self.setup.seed, self.game.history().len() as u64);
        (0..self.setup.players).map(|seat| Bot::new(self.setup.bot, seed, seat as u64)).collect()
    }

    /// Seat 0 may do something now that is not a turn: play out of turn,
    /// catch someone, or call UNO while it can be caught.
    fn has_chance(&self) -> bool {
        !self.moves.plays.is_empty() || !self.moves.catch.is_empty() || self.uno_at_stake()
    }

    /// Seat 0 holds one card without having called UNO, and can be caught
    /// until it does, or a rule's `on_uno` hook may make something of a
    /// call. Once the window to catch it has closed, a call is still
    /// allowed, but without such a rule the host makes nothing of it, and
    /// play does not stop for it.
    fn uno_at_stake(&self) -> bool {
        self.moves.call_uno
            && (self.game.table().uno().get(HUMAN) == crate::table::Uno::Exposed
                || self.game.variant.has_hook(crate::variant::HookKind::OnUno))
    }

    /// Seat 0 is not deciding a turn, but may be offered a chance.
    fn in_window(&self) -> bool {
        self.game.to_act() != HUMAN || !self.moves.has_turn_action()
    }

    fn refresh_moves(&mut self) {
        let mut moves = std::mem::take(&mut self.moves);
        if self.game.legal_moves(HUMAN, &mut moves).is_err() {
            moves = Moves::default();
        }
        self.moves = moves;
    }

    /// The hand's end: what each seat scored, and the cards that were left.
    fn hand_summary(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let table = self.game.table();
        let names = &self.game.variant.names;
        let mut parts = Vec::new();
        for seat in 0..self.game.players() {
            let gained = table.scores()[seat] - self.scores_at_deal.get(seat).copied().unwrap_or(0);
            let held = &table.hands()[seat];
            let cards: Vec<String> =
                held.iter().map(|&c| names.format_face(self.game.variant.face(c, table.side()))).collect();
            let left = if held.is_empty() {
                String::new()
            } else {
                let points = table.hand_points(&self.game.variant, seat);
                let unit = if points == 1 { "point" } else { "points" };
                format!(" (held {} = {points} {unit})", cards.join(", "))
            };
            parts.push(format!("  p{seat}: +{gained}, total {}{left}", table.scores()[seat]));
        }
        writeln!(out, "hand {} over; target {}:", table.hand_number(), self.game.variant.target_score)?;
        for part in parts {
            writeln!(out, "{}", render::wrap_text(&part, 4, self.style))?;
        }
        self.scores_at_deal = table.scores().to_vec();
        Ok(())
    }

    /// Who won the match, with their points: `p0 wins with 510 points`,
    /// `p1 and p3 win with 566 points` (a team), or each one's points where
    /// they differ.
    fn match_winners(&self) -> String {
        let scores = &self.game.table().scores();
        let winners = self.game.match_winners();
        let same = winners.windows(2).all(|pair| scores[pair[0]] == scores[pair[1]]);
        let names: Vec<String> = winners
            .iter()
            .map(|&s| if same { format!("p{s}") } else { format!("p{s} ({} points)", scores[s]) })
            .collect();
        let who = names.join(" and ");
        match (winners.first(), winners.len()) {
            (None, _) => "nobody has won".into(),
            (Some(&first), 1) => format!("{who} wins with {} points", scores[first]),
            (Some(&first), _) if same => format!("{who} win with {} points", scores[first]),
            _ => format!("{who} win"),
        }
    }

    fn summary(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let table = self.game.table();
        let scores: Vec<String> = table.scores().iter().enumerate().map(|(s, p)| format!("p{s} {p}")).collect();
        let finished = match table.hand_number().saturating_sub(u32::from(!self.game.hand_over())) {
            0 => "no hand".to_string(),
            1 => "1 hand".to_string(),
            n => format!("{n} hands"),
        };
        let winner = if table.match_winner().is_some() { format!("{}; ", self.match_winners()) } else { String::new() };
        let line = format!("{winner}{finished} finished; scores: {}. Play it again:", scores.join(", "));
        self.say(out, &line)?;
        // The command whole, on a line of its own, to copy.
        writeln!(out, "  {}", self.setup.command())
    }

    /// The order seat 0's hand is shown in: indices into the hand.
    fn hand_order(&self) -> Vec<usize> {
        let table = self.game.table();
        let hand = &table.hands()[HUMAN];
        let mut order: Vec<usize> = (0..hand.len()).collect();
        order.sort_by_key(|&i| render::sort_key(self.game.variant.face(hand[i], table.side())));
        order
    }

    fn show_table(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let view = self.game.view(HUMAN);
        let next = (!self.game.hand_over()).then(|| self.game.table().seat_after(self.game.table().current(), 1));
        let order = self.hand_order();
        write!(out, "{}", render::table(&self.game.variant.names, &view, &order, &self.moves, next, self.style))?;
        self.table_shown = true;
        Ok(())
    }

    fn prompt(&self) -> String {
        let names = &self.game.variant.names;
        if self.game.table().match_winner().is_some() {
            return "match over".into();
        }
        if self.in_window() {
            let mut offers = Vec::new();
            if !self.moves.plays.is_empty() {
                let names = &self.game.variant.names;
                let mut cards: Vec<String> = self.moves.plays.iter().map(|o| names.format_face(&o.face)).collect();
                cards.dedup();
                offers.push(format!("play {} out of turn", cards.join(" or ")));
            }
            for seat in &self.moves.catch {
                offers.push(format!("catch p{seat}"));
            }
            if self.uno_at_stake() {
                offers.push("call uno".into());
            }
            if offers.is_empty() {
                return "waiting".into();
            }
            return format!("you may {} (Enter: let play go on)", offers.join(", "));
        }
        let uno = if self.moves.call_uno { " (you hold one card: uno)" } else { "" };
        let text = match self.game.table().phase() {
            Phase::NameColor { .. } => "name a colour (color C)".to_string(),
            Phase::Answer(p) => format!(
                "you face drawing {}: accept{}{}",
                match p.draw.until {
                    Some(color) => format!("until {}", names.color_name(color)),
                    None => p.draw.count.to_string(),
                },
                if p.challenge.is_some() { ", challenge" } else { "" },
                if self.moves.plays.is_empty() { "" } else { " or play" }
            ),
            Phase::Drawn(_) => "play the drawn card or pass".into(),
            Phase::Choose(choice) => {
                let options: Vec<String> = choice
                    .options
                    .iter()
                    .enumerate()
                    .map(|(i, o)| format!("{}: {}", i + 1, o.name(&self.game.variant)))
                    .collect();
                format!("choose {} (choose N): {}", choice.tag, options.join(", "))
            }
            Phase::Turn | Phase::Over { .. } => {
                let view = self.game.view(HUMAN);
                let top = view.top.map(|f| names.format_face(&f)).unwrap_or_default();
                let named = match (view.top, view.color) {
                    (Some(top), Some(color)) if top.color != Some(color) => format!(" ({})", names.color_name(color)),
                    _ => String::new(),
                };
                format!("your turn on {top}{named}")
            }
        };
        format!("{text}{uno}")
    }

    fn vocabulary(&self) -> Vocabulary {
        let table = self.game.table();
        let variant = &self.game.variant;
        let mut cards: Vec<String> = table.hands()[HUMAN]
            .iter()
            .map(|&c| variant.names.format_face(variant.face(c, table.side())).to_ascii_lowercase())
            .collect();
        cards.sort();
        cards.dedup();
        let faces = || table.hands()[HUMAN].iter().map(|&c| variant.face(c, table.side()));
        let mut keywords = vec!["uno".to_string()];
        if faces().any(|f| variant.names.has_flex_side(f)) {
            keywords.push("flex".into());
        }
        if self.moves.plays.iter().any(|o| o.target.is_some()) {
            keywords.push("target".into());
        }
        Vocabulary {
            cards,
            keywords,
            colors: variant.colors_of(table.side()).map(|c| variant.names.color_name(c).to_ascii_lowercase()).collect(),
            seats: (0..self.game.players()).filter(|&s| s != HUMAN).map(|s| format!("p{s}")).collect(),
        }
    }

    /// Carries out one line of input.
    fn handle(&mut self, line: &str, out: &mut dyn Write) -> std::io::Result<Flow> {
        let input = match command::parse_at(&self.game, HUMAN, line) {
            Ok(input) => input,
            Err(e) => {
                self.say(out, &e)?;
                return Ok(Flow::Continue);
            }
        };
        match input {
            Input::GoOn => {
                if self.has_chance() && self.in_window() {
                    self.passed_at = Some(self.game.history().len());
                } else {
                    self.table_shown = false;
                }
            }
            Input::Move(command) => self.make_move(command, out)?,
            Input::Help(topic) => match command::help(topic.as_deref()) {
                Ok(text) => writeln!(out, "{}", render::wrap_text(&text, 2, self.style))?,
                Err(e) => writeln!(out, "{e}")?,
            },
            Input::Hand | Input::Table => self.table_shown = false,
            Input::Auto => self.auto(out)?,
            Input::Log(n) => {
                let events = self.game.events();
                for event in &events[events.len().saturating_sub(n)..] {
                    writeln!(out, "  {}", describe_for(event, &self.game.variant, Some(HUMAN)))?;
                }
            }
            Input::Rules => self.rules(out)?,
            Input::Undo => self.undo(out)?,
            Input::Save(path) => match SavedGame::of(&self.setup, &self.game).write(Path::new(&home(&path))) {
                Ok(()) => writeln!(out, "saved to {path}")?,
                Err(e) => writeln!(out, "not saved: {e}")?,
            },
            Input::Load(path) => self.load_file(&home(&path), out)?,
            Input::New(args) => self.new_match(&args, out)?,
            Input::Reload => self.reload(out)?,
            Input::Quit => return Ok(Flow::Quit),
        }
        Ok(Flow::Continue)
    }

    fn make_move(&mut self, mut command: Command, out: &mut dyn Write) -> std::io::Result<()> {
        if self.game.table().match_winner().is_some() {
            writeln!(out, "the match is over: 'new' starts another, 'undo' goes back")?;
            return Ok(());
        }
        // Drawing the cards a penalty owes is accepting it.
        if command == Command::Draw && self.moves.accept {
            command = Command::Accept;
        }
        // A number counts in the order the hand is shown.
        if let Command::Play(play) = &mut command
            && let CardRef::Position(n) = play.card
        {
            let order = self.hand_order();
            match n.checked_sub(1).and_then(|i| order.get(i)) {
                Some(&index) => play.card = CardRef::Position(index + 1),
                None => {
                    writeln!(out, "you hold {} cards: there is no card {n}", order.len())?;
                    return Ok(());
                }
            }
        }
        let result = match self.game.resolve(&command, HUMAN, Sight::Seat) {
            Ok(action) => self.apply_shown(action, out)?,
            Err(e) => Err(e),
        };
        if let Err(e) = result {
            self.say(out, &e)?;
        }
        Ok(())
    }

    /// Applies seat 0's `action`, or says why not (the outer error: the
    /// terminal failed). A challenged player shows the challenger their
    /// hand (rules.md 1.4): as it was when challenged, after the
    /// challenge's events.
    fn apply_shown(&mut self, action: Action, out: &mut dyn Write) -> std::io::Result<Result<(), String>> {
        let shown = match action {
            Action::Challenge(_) => self.challenged_hand(),
            _ => None,
        };
        if let Err(e) = self.game.apply(action) {
            return Ok(Err(e.to_string()));
        }
        if let Some((seat, hand)) = shown {
            self.show_events(out)?;
            writeln!(out, "  p{seat}'s hand, shown to you when challenged:")?;
            writeln!(out, "{}", render::wrap(&hand, 4, self.style))?;
        }
        Ok(Ok(()))
    }

    /// The seat a challenge now would challenge, and its hand as shown.
    fn challenged_hand(&self) -> Option<(usize, Vec<render::Painted>)> {
        let Phase::Answer(penalty) = self.game.table().phase() else { return None };
        penalty.challenge.as_ref()?;
        let (names, side) = (&self.game.variant.names, self.game.table().side());
        let hand = self.game.table().hands()[penalty.by]
            .iter()
            .map(|&card| render::face(names, self.game.variant.face(card, side), self.style))
            .collect();
        Some((penalty.by, hand))
    }

    /// A bot decides for seat 0: its turn, or whether to take a chance
    /// out of turn.
    fn auto(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        if self.game.table().match_winner().is_some() {
            writeln!(out, "the match is over: 'new' starts another, 'undo' goes back")?;
            return Ok(());
        }
        let mut bot = self.bots().swap_remove(HUMAN);
        if self.in_window() {
            let taken = if self.uno_at_stake() {
                Ok(Some(crate::game::Action::CallUno(HUMAN)))
            } else {
                let chance = self.game.out_of_turn_chances() >> HUMAN & 1 != 0;
                bot.out_of_turn(&mut self.game, HUMAN, chance).map_err(|e| e.to_string())
            };
            match taken {
                Ok(Some(action)) => {
                    if let Err(e) = self.game.apply(action) {
                        writeln!(out, "{e}")?;
                    }
                }
                Ok(None) => self.passed_at = Some(self.game.history().len()),
                Err(e) => writeln!(out, "{e}")?,
            }
            return Ok(());
        }
        // A bot playing for you never forgets to call UNO.
        let held = self.game.table().hands()[HUMAN].len();
        let result = match bot.choose(&mut self.game, HUMAN) {
            Ok(Action::Play(play)) if held == 2 => self.apply_shown(Action::Play(Play { uno: true, ..play }), out)?,
            Ok(action) => self.apply_shown(action, out)?,
            Err(e) => Err(e.to_string()),
        };
        if let Err(e) = result {
            writeln!(out, "{e}")?;
        }
        Ok(())
    }

    fn rules(&self, out: &mut dyn Write) -> std::io::Result<()> {
        for line in self.game.variant.rule_sheet(Some(self.game.players())) {
            writeln!(out, "{}", render::wrap_text(&line, 4, self.style))?;
        }
        Ok(())
    }

    /// Back to before seat 0's last decision: the game is replayed up to
    /// it.
    fn undo(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let history = self.game.history();
        let Some(at) = history.iter().rposition(|r| matches!(r, Record::Act(a) if a.seat() == HUMAN)) else {
            writeln!(out, "nothing to undo: you have not decided anything yet")?;
            return Ok(());
        };
        let undone = match history[at] {
            Record::Act(action) => action.describe(&self.game.variant, self.game.table().side()),
            Record::Deal => unreachable!("a deal has no seat"),
        };
        let records = history[..at].to_vec();
        let replayed = Runtime::new(self.game.variant.clone())
            .map_err(|problems| problems.join("; "))
            .and_then(|runtime| Game::replay(runtime, self.setup.players, self.setup.seed, &records));
        match replayed {
            Ok(game) => {
                self.replace_game(game);
                writeln!(out, "undone: {undone}")?;
            }
            Err(e) => writeln!(out, "cannot undo: {e}")?,
        }
        Ok(())
    }

    /// Puts `game` in play, and shows the table anew.
    fn replace_game(&mut self, game: Game<Runtime>) {
        self.game = game;
        self.shown = self.game.events().len();
        self.passed_at = None;
        self.table_shown = false;
        self.announced = self.game.table().match_winner().is_some();
        self.scores_at_deal = self.game.table().scores().to_vec();
    }

    /// Plays the lines of a history on a new game of `setup`; stops at the
    /// first line the rules refuse, keeping the game before it (and the
    /// line's index and why).
    fn rebuild<'l>(
        &self,
        setup: &Setup,
        lines: impl IntoIterator<Item = &'l str>,
    ) -> Result<(Game<Runtime>, Option<Refused>), Vec<String>> {
        let (_, mut game) = start(setup, self.load)?;
        let refused = record::replay(&mut game, lines).err();
        Ok((game, refused))
    }

    fn load_file(&mut self, path: &str, out: &mut dyn Write) -> std::io::Result<()> {
        let saved = match SavedGame::read(Path::new(path)).and_then(|saved| Ok((saved.setup()?, saved))) {
            Ok(found) => found,
            Err(e) => {
                self.say(out, &format!("not loaded: {e}"))?;
                return Ok(());
            }
        };
        let (setup, saved) = saved;
        match self.rebuild(&setup, saved.history.iter().map(|line| line.as_str())) {
            Ok((_, Some((index, problem)))) => {
                self.say(out, &format!("not loaded: {}", saved.problem(&saved.history[index], problem)))?
            }
            Ok((game, None)) => {
                self.setup = setup;
                self.replace_game(game);
                writeln!(out, "loaded {path}: {} moves replayed", saved.history.len())?;
                self.opening(out)?;
            }
            Err(problems) => list_problems(out, &format!("not loaded: {path}:"), &problems)?,
        }
        Ok(())
    }

    fn reload(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let lines = record::history_text(&self.game, self.game.history());
        match self.rebuild(&self.setup.clone(), lines.iter().map(String::as_str)) {
            Ok((game, problem)) => {
                let (records, title) = (game.history().len(), game.variant.title());
                self.replace_game(game);
                writeln!(out, "reloaded {title}: {records} of {} moves replayed", lines.len())?;
                if let Some((_, problem)) = problem {
                    self.say(out, &format!("{problem}; staying at the last good point"))?;
                }
            }
            Err(problems) => list_problems(out, "not reloaded (the game goes on as it was):", &problems)?,
        }
        Ok(())
    }

    fn new_match(&mut self, args: &[String], out: &mut dyn Write) -> std::io::Result<()> {
        let setup = match setup::new_setup(&self.setup, args) {
            Ok(setup) => setup,
            Err(e) => {
                self.say(out, e.trim_end())?;
                return Ok(());
            }
        };
        match start(&setup, self.load) {
            Ok((_, game)) => {
                self.setup = setup;
                self.replace_game(game);
                self.announced = false;
                self.opening(out)?;
            }
            Err(problems) => list_problems(out, "no new match:", &problems)?,
        }
        Ok(())
    }
}
