//! One seat's screen: what it has been shown of a game, and what it is
//! told next (events since, the table and its hand, the prompt, the words
//! Tab completes), with its moves kept up to date. The REPL has one, for
//! seat 0; a networked table has one for each seat a person plays. Seats
//! are told in their words (`words::SeatWords`): "you" at their own seat.

use std::io::Write;

use super::command::{self, Input};
use super::input::Vocabulary;
use super::render::{self, Style};
use super::words::SeatWords;
use crate::bot::Bot;
use crate::event::{Event, describe_for};
use crate::game::command::{CardRef, Command, PlayCommand, Sight};
use crate::game::{Action, Game, Moves, Play, Record};
use crate::rules::TraceLine;
use crate::script::Runtime;
use crate::seat::Seat;
use crate::turn::Phase;
use crate::variant::ActWhen;

/// What one seat has been shown, and its moves now.
pub struct Screen {
    pub seat: Seat,
    /// Events printed so far.
    pub shown: usize,
    /// The history length at which the seat last let an out-of-turn chance
    /// pass (so it is not offered again until something happens).
    pub passed_at: Option<usize>,
    /// The table was shown since the last event.
    pub table_shown: bool,
    /// The match end was announced.
    pub announced: bool,
    /// Scores when the current hand started, for the hand's summary.
    pub scores_at_deal: Vec<i64>,
    pub style: Style,
    pub moves: Moves,
    pub words: SeatWords,
    /// The seat can start a new match with `new` (not at a networked table).
    pub can_restart: bool,
    /// The seat has been told that a flex side leaves the colour in play.
    pub flex_told: bool,
    /// Lines of the trace of hook calls (`trace on`) not shown yet: shown
    /// among the events, each before those its call led to.
    pub trace: Vec<TraceLine>,
    /// A playable card played without the colour it names, and the length
    /// of the history then: the seat is asked for the colour, and a colour
    /// named before anything happens plays the card naming it.
    pub waiting_for_color: Option<(PlayCommand, usize)>,
}

impl Screen {
    pub fn new(seat: Seat, players: usize, style: Style) -> Screen {
        Screen {
            seat,
            shown: 0,
            passed_at: None,
            table_shown: false,
            announced: false,
            scores_at_deal: vec![0; players],
            style,
            moves: Moves::default(),
            words: SeatWords::of_seat(seat),
            can_restart: true,
            flex_told: false,
            trace: Vec::new(),
            waiting_for_color: None,
        }
    }

    /// A message, in the seat's words, wrapped at its width.
    pub fn say(&self, out: &mut dyn Write, text: &str) -> std::io::Result<()> {
        writeln!(out, "{}", render::wrap_text(&self.words.line(text), 2, self.style))
    }

    /// A game put in play (loaded, undone, reloaded): shown from where it is.
    pub fn reset(&mut self, game: &Game<Runtime>) {
        self.shown = game.events().len();
        self.passed_at = None;
        self.table_shown = false;
        self.announced = game.table().match_winner().is_some();
        self.scores_at_deal = game.table().scores().to_vec();
        self.waiting_for_color = None;
    }

    /// The play that waits for the seat to name a colour, if nothing has
    /// happened since it was asked.
    pub fn color_wanted(&self, game: &Game<impl crate::rules::Rules>) -> Option<&PlayCommand> {
        self.waiting_for_color.as_ref().filter(|(_, at)| *at == game.history().len()).map(|(play, _)| play)
    }

    /// Prints the events not yet shown, one line each, condensed (see
    /// `render::condense`).
    pub fn show_events(&mut self, game: &Game<Runtime>, out: &mut dyn Write) -> std::io::Result<()> {
        let events = &game.events()[self.shown.min(game.events().len())..];
        // The events of one action (the REPL shows them after each): the
        // action, then what followed from it, indented under it. A deal is
        // not an action.
        let one_action = !matches!(events.first(), Some(Event::HandStarted { .. }));
        // A play or pass right after the same seat drew (the record before
        // this action's) finishes its turn.
        let history = game.history();
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
        let mut trace = std::mem::take(&mut self.trace).into_iter().peekable();
        for (index, event) in events.iter().enumerate() {
            // The trace of the calls made before this event, as it was
            // told (not in the seat's words: it names seats as rules do).
            if trace.peek().is_some_and(|line| line.at_event <= self.shown + index) {
                self.write_events(std::mem::take(&mut lines), out)?;
                while let Some(line) = trace.next_if(|line| line.at_event <= self.shown + index) {
                    writeln!(out, "{}", line.text)?;
                }
            }
            if matches!(event, Event::HandStarted { .. }) {
                lines.push(String::new());
            }
            // The match's end is announced once, after the hand's summary.
            if matches!(event, Event::MatchWon { .. }) {
                continue;
            }
            let line = describe_for(event, &game.variant, Some(self.seat));
            let indent = if one_action && index > 0 { "  " } else { "" };
            lines.push(format!("{turn_indent}{indent}{line}"));
            lines.extend(self.note(game, events, index).map(|note| format!("{turn_indent}{indent}  ({note})")));
        }
        self.write_events(lines, out)?;
        for line in trace {
            writeln!(out, "{}", line.text)?;
        }
        if !events.is_empty() {
            self.table_shown = false;
        }
        self.shown = game.events().len();
        Ok(())
    }

    /// Event lines, condensed, in the seat's words.
    fn write_events(&self, lines: Vec<String>, out: &mut dyn Write) -> std::io::Result<()> {
        for line in render::condense(lines) {
            writeln!(out, "{}", self.words.line(&line))?;
        }
        Ok(())
    }

    /// A word on an event a newcomer may not follow: a card turned up to
    /// start the hand that the rules set aside (the next one turned up
    /// over it), and, once, the colour in play after a flex side.
    fn note(&mut self, game: &Game<Runtime>, events: &[Event], index: usize) -> Option<String> {
        let names = &game.variant.names;
        match (&events[index], events.get(index + 1)) {
            (Event::TurnedUp { .. }, Some(Event::TurnedUp { .. })) => Some(
                "the rules set this card aside: it stays in the discard pile without effect, and the next is turned up"
                    .into(),
            ),
            (Event::Played { card, side, as_flex: true, .. }, _) if !self.flex_told => {
                let main = game.variant.face(*card, *side).color?;
                if !events[index + 1..].iter().all(|e| !matches!(e, Event::ColorChosen { .. })) {
                    return None;
                }
                self.flex_told = true;
                Some(format!(
                    "played on its flex side, the card keeps {} as the colour in play, its main colour (rules.md 3.4)",
                    names.color_name(main)
                ))
            }
            _ => None,
        }
    }

    /// The restricted cards the seat may play only as a bluff now: it holds
    /// a card of the colour in play (rules.md 1.4), so the player it hits
    /// may challenge it.
    pub fn bluffs(&self, game: &Game<Runtime>) -> Vec<crate::card::Face> {
        let (table, variant) = (game.table(), &game.variant);
        let Some(color) = table.color() else { return Vec::new() };
        let holds_colour = table.hands()[self.seat].iter().any(|&c| {
            let face = variant.face(c, table.side());
            face.color == Some(color) && !face.symbol().is_some_and(|s| variant.names.symbol_info(s).wild)
        });
        if !holds_colour {
            return Vec::new();
        }
        self.moves
            .plays
            .iter()
            .filter(|o| !o.as_flex && o.face.symbol().is_some_and(|s| variant.names.symbol_info(s).restricted))
            .map(|o| o.face)
            .collect()
    }

    pub fn refresh_moves(&mut self, game: &mut Game<Runtime>) {
        let mut moves = std::mem::take(&mut self.moves);
        if game.legal_moves(self.seat, &mut moves).is_err() {
            moves = Moves::default();
        }
        self.moves = moves;
    }

    /// The seat may do something now that is not a turn: play out of turn,
    /// take a rule's action out of turn, catch someone, or call UNO while
    /// it can be caught.
    pub fn has_chance(&self, game: &Game<Runtime>) -> bool {
        !self.moves.plays.is_empty()
            || !self.moves.acts.is_empty()
            || !self.moves.catch.is_empty()
            || self.uno_at_stake(game)
    }

    /// The names of the actions the seat may take now, each once.
    fn act_names<'a>(&self, game: &'a Game<Runtime>) -> Vec<&'a str> {
        let mut names: Vec<&str> =
            self.moves.acts.iter().map(|o| game.variant.actions[usize::from(o.action)].name.as_str()).collect();
        names.dedup();
        names
    }

    /// The seat holds one card without having called UNO, and can be caught
    /// until it does, or a rule's `on_uno` hook may make something of a
    /// call. Once the window to catch it has closed, a call is still
    /// allowed, but without such a rule the host makes nothing of it, and
    /// play does not stop for it.
    pub fn uno_at_stake(&self, game: &Game<Runtime>) -> bool {
        self.moves.call_uno
            && (game.table().uno().get(self.seat) == crate::table::Uno::Exposed
                || game.variant.has_hook(crate::variant::HookKind::OnUno))
    }

    /// The seat is not deciding a turn, but may be offered a chance.
    pub fn in_window(&self, game: &Game<Runtime>) -> bool {
        game.to_act() != self.seat || !self.moves.has_turn_action()
    }

    /// Play waits for this seat: it has a turn to decide, or a chance out
    /// of turn it has not let pass.
    pub fn holds_play(&self, game: &Game<Runtime>) -> bool {
        if game.table().match_winner().is_some() || game.hand_over() || game.table().hand_number() == 0 {
            return false;
        }
        (game.to_act() == self.seat && self.moves.has_turn_action())
            || (self.has_chance(game) && self.passed_at != Some(game.history().len()))
    }

    /// The hand's end: what each seat scored, and the cards that were left.
    pub fn hand_summary(&mut self, game: &Game<Runtime>, out: &mut dyn Write) -> std::io::Result<()> {
        let table = game.table();
        let names = &game.variant.names;
        let mut parts = Vec::new();
        for seat in 0..game.players() {
            let gained = table.scores()[seat] - self.scores_at_deal.get(seat).copied().unwrap_or(0);
            let held = &table.hands()[seat];
            let cards: Vec<String> =
                held.iter().map(|&c| names.format_face(game.variant.face(c, table.side()))).collect();
            let left = if held.is_empty() {
                String::new()
            } else {
                let points = table.hand_points(&game.variant, seat);
                let unit = if points == 1 { "point" } else { "points" };
                format!(" (held {} = {points} {unit})", cards.join(", "))
            };
            parts.push(format!("  {}: +{gained}, total {}{left}", self.words.name(seat), table.scores()[seat]));
        }
        writeln!(out, "hand {} over; target {}:", table.hand_number(), game.variant.target_score)?;
        for part in parts {
            writeln!(out, "{}", render::wrap_text(&part, 4, self.style))?;
        }
        self.scores_at_deal = table.scores().to_vec();
        Ok(())
    }

    /// The match's end, once: the last hand's summary and who won.
    pub fn announce_match_end(&mut self, game: &Game<Runtime>, out: &mut dyn Write) -> std::io::Result<()> {
        if !std::mem::replace(&mut self.announced, true) {
            self.hand_summary(game, out)?;
            let again = if self.can_restart { " 'new' starts another match." } else { "" };
            let line = format!("match over: {}.{again}", self.match_winners(game));
            self.say(out, &line)?;
        }
        Ok(())
    }

    /// Who won the match, with their points: `you win with 510 points`,
    /// `p1 and p3 win with 566 points` (a team), or each one's points where
    /// they differ.
    pub fn match_winners(&self, game: &Game<Runtime>) -> String {
        let scores = &game.table().scores();
        let winners = game.match_winners();
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

    /// The scores and hands finished, and (where given) the command that
    /// plays the match again.
    pub fn summary(&self, game: &Game<Runtime>, command: Option<String>, out: &mut dyn Write) -> std::io::Result<()> {
        let table = game.table();
        let scores: Vec<String> =
            table.scores().iter().enumerate().map(|(s, p)| format!("{} {p}", self.words.label(s))).collect();
        let finished = match table.hand_number().saturating_sub(u32::from(!game.hand_over())) {
            0 => "no hand".to_string(),
            1 => "1 hand".to_string(),
            n => format!("{n} hands"),
        };
        let winner =
            if table.match_winner().is_some() { format!("{}; ", self.match_winners(game)) } else { String::new() };
        match command {
            Some(command) => {
                let line = format!("{winner}{finished} finished; scores: {}. Play it again:", scores.join(", "));
                self.say(out, &line)?;
                // The command whole, on a line of its own, to copy.
                writeln!(out, "  {command}")
            }
            None => self.say(out, &format!("{winner}{finished} finished; scores: {}.", scores.join(", "))),
        }
    }

    /// The order the seat's hand is shown in: indices into the hand.
    pub fn hand_order(&self, game: &Game<Runtime>) -> Vec<usize> {
        let table = game.table();
        let hand = &table.hands()[self.seat];
        let mut order: Vec<usize> = (0..hand.len()).collect();
        order.sort_by_key(|&i| render::sort_key(game.variant.face(hand[i], table.side())));
        order
    }

    pub fn show_table(&mut self, game: &Game<Runtime>, out: &mut dyn Write) -> std::io::Result<()> {
        let view = game.view(self.seat);
        let next = (!game.hand_over()).then(|| game.table().seat_after(game.table().current(), 1));
        let order = self.hand_order(game);
        let labels: Vec<String> = (0..game.players()).map(|s| self.words.label(s)).collect();
        let bluffs = self.bluffs(game);
        let shown = render::Shown { moves: &self.moves, bluffs: &bluffs, next, labels: &labels };
        let table = render::table(&game.variant.names, &view, &order, &shown, self.style);
        write!(out, "{table}")?;
        self.table_shown = true;
        Ok(())
    }

    /// The prompt: what the seat is asked now.
    pub fn prompt(&self, game: &Game<Runtime>) -> String {
        let names = &game.variant.names;
        if game.table().match_winner().is_some() {
            return "match over".into();
        }
        if self.in_window(game) {
            let mut offers = Vec::new();
            if !self.moves.plays.is_empty() {
                let mut cards: Vec<String> = self.moves.plays.iter().map(|o| names.format_face(&o.face)).collect();
                cards.dedup();
                offers.push(format!("play {} out of turn", cards.join(" or ")));
            }
            for name in self.act_names(game) {
                offers.push(format!("act {name}"));
            }
            for seat in &self.moves.catch {
                offers.push(format!("catch p{seat}"));
            }
            if self.uno_at_stake(game) {
                offers.push("call uno".into());
            }
            if offers.is_empty() {
                return "waiting".into();
            }
            return format!("you may {} (Enter: let play go on)", offers.join(", "));
        }
        let uno = if self.moves.call_uno { " (you hold one card: uno)" } else { "" };
        if self.color_wanted(game).is_some() {
            return format!("name its colour: {}", colors_in_play(game));
        }
        let text = match game.table().phase() {
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
                    .map(|(i, o)| format!("{}: {}", i + 1, o.name(&game.variant)))
                    .collect();
                format!("choose {} (choose N): {}", choice.tag, options.join(", "))
            }
            Phase::Turn | Phase::Over { .. } => {
                let view = game.view(self.seat);
                let top = view.top.map(|f| names.format_face(&f)).unwrap_or_default();
                let named = match (view.top, view.color) {
                    (Some(top), Some(color)) if top.color != Some(color) => format!(" ({})", names.color_name(color)),
                    _ => String::new(),
                };
                let acts = self.act_names(game);
                match acts.is_empty() {
                    true => format!("your turn on {top}{named}"),
                    false => format!("your turn on {top}{named} (or act: {})", acts.join(", ")),
                }
            }
        };
        format!("{text}{uno}")
    }

    /// The words Tab completes now.
    pub fn vocabulary(&self, game: &Game<Runtime>) -> Vocabulary {
        let table = game.table();
        let variant = &game.variant;
        let mut cards: Vec<String> = table.hands()[self.seat]
            .iter()
            .map(|&c| variant.names.format_face(variant.face(c, table.side())).to_ascii_lowercase())
            .collect();
        cards.sort();
        cards.dedup();
        let faces = || table.hands()[self.seat].iter().map(|&c| variant.face(c, table.side()));
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
            seats: (0..game.players()).filter(|&s| s != self.seat).map(|s| format!("p{s}")).collect(),
            actions: variant.actions.iter().map(|a| a.name.to_ascii_lowercase()).collect(),
        }
    }

    /// Carries out the inputs every seat has (moves, help, the table, the
    /// log, the rules, `auto` with `bot`); `false` for the others (undo,
    /// save, load, new, reload, quit), which are the session's.
    pub fn handle(
        &mut self,
        game: &mut Game<Runtime>,
        input: &Input,
        bot: impl FnOnce() -> Bot,
        out: &mut dyn Write,
    ) -> std::io::Result<bool> {
        match input {
            Input::GoOn => {
                if self.has_chance(game) && self.in_window(game) {
                    self.passed_at = Some(game.history().len());
                } else {
                    self.table_shown = false;
                }
            }
            Input::Move(command) => self.make_move(game, command.clone(), out)?,
            Input::Help(topic) => match command::help(topic.as_deref()) {
                Ok(text) => {
                    writeln!(out, "{}", render::wrap_text(&text, 2, self.style))?;
                    if matches!(topic.as_deref(), None | Some("all" | "act")) && !game.variant.actions.is_empty() {
                        writeln!(out, "{}", render::wrap_text(&actions_help(game), 2, self.style))?;
                    }
                }
                Err(e) => writeln!(out, "{e}")?,
            },
            Input::Hand | Input::Table => self.table_shown = false,
            Input::Auto(_) => self.auto(game, bot(), out)?,
            Input::Log(n) => {
                let events = game.events();
                for event in &events[events.len().saturating_sub(*n)..] {
                    let line = describe_for(event, &game.variant, Some(self.seat));
                    writeln!(out, "  {}", self.words.line(&line))?;
                }
            }
            Input::Rules => {
                for line in game.variant.rule_sheet(Some(game.players())) {
                    writeln!(out, "{}", render::wrap_text(&line, 4, self.style))?;
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    pub fn make_move(
        &mut self,
        game: &mut Game<Runtime>,
        mut command: Command,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        if game.table().match_winner().is_some() {
            writeln!(out, "the match is over: 'new' starts another, 'undo' goes back")?;
            return Ok(());
        }
        // Drawing the cards a penalty owes is accepting it.
        if command == Command::Draw && self.moves.accept {
            command = Command::Accept;
        }
        // A number counts in the order the hand is shown.
        let place = match &mut command {
            Command::Play(play) => Some(&mut play.card),
            Command::Act(act) => act.card.as_mut(),
            _ => None,
        };
        if let Some(card) = place
            && let CardRef::Position(n) = *card
        {
            let order = self.hand_order(game);
            match n.checked_sub(1).and_then(|i| order.get(i)) {
                Some(&index) => *card = CardRef::Position(index + 1),
                None => {
                    writeln!(out, "you hold {} cards: there is no card {n}", order.len())?;
                    return Ok(());
                }
            }
        }
        // A colour named for the card waiting for one plays it. (The card
        // waits until a move is made: a refused command leaves it waiting.)
        if let Command::Color(color) = command
            && let Some(play) = self.color_wanted(game)
        {
            command = Command::Play(PlayCommand { color: Some(color), ..play.clone() });
        }
        let mut resolved = game.resolve(&command, self.seat, Sight::Seat);
        // A card that names a colour, played without one.
        if let (Command::Play(asked), Ok(Action::Play(play))) = (&command, &mut resolved)
            && play.color.is_none()
            && let face = *game.variant.face(play.card, game.table().side())
            && game.variant.names.names_color(&face)
        {
            // Playable: the seat is asked for the colour.
            if self.moves.plays.iter().any(|o| o.names_color && o.face == face && o.as_flex == play.as_flex) {
                self.waiting_for_color = Some((asked.clone(), game.history().len()));
                let card = game.variant.names.format_face(&face);
                return self.say(out, &format!("which colour does your {card} name? {}", colors_in_play(game)));
            }
            // Not: it is refused for why it may not be played, not for the
            // colour it lacks (any colour of the side is named; the play is
            // refused whichever it names).
            play.color = game.color_range().next();
        }
        let result = match resolved {
            Ok(action) => self.apply_shown(game, action, out)?,
            Err(e) => Err(e),
        };
        if let Err(e) = result {
            self.say(out, &e)?;
            if let (Command::Play(_), Some(why)) = (&command, self.why_not_an_answer(game)) {
                self.say(out, &why)?;
            }
        }
        Ok(())
    }

    /// Why a card refused while a penalty waits on the seat could not
    /// answer it: which cards may (the rules in play decide what stacks).
    fn why_not_an_answer(&self, game: &Game<Runtime>) -> Option<String> {
        let Phase::Answer(penalty) = game.table().phase() else { return None };
        if penalty.victim != self.seat {
            return None;
        }
        let names = &game.variant.names;
        let top = game.table().top().map(|c| names.format_face(game.variant.face(c, game.table().side())))?;
        let mut answers: Vec<String> = self.moves.plays.iter().map(|o| names.format_face(&o.face)).collect();
        answers.dedup();
        let also = if penalty.challenge.is_some() { " or challenge it" } else { "" };
        Some(if answers.is_empty() {
            format!(
                "the {top} played on you waits for your answer: no card of yours may answer it ('rules' says what stacks): accept it{also}"
            )
        } else {
            format!(
                "the {top} played on you waits for your answer: only {} may answer it ('rules' says what stacks); or accept it{also}",
                answers.join(" or ")
            )
        })
    }

    /// Applies the seat's `action`, or says why not (the outer error: the
    /// output failed). A challenged player shows the challenger their
    /// hand (rules.md 1.4): as it was when challenged, after the
    /// challenge's events.
    pub fn apply_shown(
        &mut self,
        game: &mut Game<Runtime>,
        action: Action,
        out: &mut dyn Write,
    ) -> std::io::Result<Result<(), String>> {
        let shown = match action {
            Action::Challenge(_) => self.challenged_hand(game),
            _ => None,
        };
        if let Err(e) = game.apply(action) {
            return Ok(Err(e.to_string()));
        }
        if let Some((seat, hand)) = shown {
            self.trace.extend(game.take_trace());
            self.show_events(game, out)?;
            writeln!(out, "  {}'s hand, shown to you when challenged:", self.words.label(seat))?;
            writeln!(out, "{}", render::wrap(&hand, 4, self.style))?;
        }
        Ok(Ok(()))
    }

    /// The seat a challenge now would challenge, and its hand as shown.
    fn challenged_hand(&self, game: &Game<Runtime>) -> Option<(usize, Vec<render::Painted>)> {
        let Phase::Answer(penalty) = game.table().phase() else { return None };
        penalty.challenge.as_ref()?;
        let (names, side) = (&game.variant.names, game.table().side());
        let hand = game.table().hands()[penalty.by]
            .iter()
            .map(|&card| render::face(names, game.variant.face(card, side), self.style))
            .collect();
        Some((penalty.by, hand))
    }

    /// A bot decides for the seat: its turn, or whether to take a chance
    /// out of turn. Returns whether it acted (out: what went wrong).
    pub fn auto(&mut self, game: &mut Game<Runtime>, mut bot: Bot, out: &mut dyn Write) -> std::io::Result<()> {
        if game.table().match_winner().is_some() {
            writeln!(out, "the match is over: 'new' starts another, 'undo' goes back")?;
            return Ok(());
        }
        if game.hand_over() {
            // Paused after the hand's summary: there is nothing to decide.
            writeln!(out, "the hand is over: Enter deals the next hand")?;
            return Ok(());
        }
        let seat = self.seat;
        if self.in_window(game) {
            let taken = if self.uno_at_stake(game) {
                Ok(Some(Action::CallUno(seat)))
            } else {
                let chance = game.out_of_turn_chances() >> seat & 1 != 0;
                bot.out_of_turn(game, seat, chance).map_err(|e| e.to_string())
            };
            match taken {
                Ok(Some(action)) => {
                    if let Err(e) = game.apply(action) {
                        writeln!(out, "{e}")?;
                    }
                }
                Ok(None) => self.passed_at = Some(game.history().len()),
                Err(e) => writeln!(out, "{e}")?,
            }
            return Ok(());
        }
        // A bot playing for you never forgets to call UNO.
        let held = game.table().hands()[seat].len();
        let result = match bot.choose(game, seat) {
            Ok(Action::Play(play)) if held == 2 => {
                self.apply_shown(game, Action::Play(Play { uno: true, ..play }), out)?
            }
            Ok(action) => self.apply_shown(game, action, out)?,
            Err(e) => Err(e.to_string()),
        };
        if let Err(e) = result {
            writeln!(out, "{e}")?;
        }
        Ok(())
    }
}

/// The colours a wild may name now, for a prompt: "red, yellow, green or
/// blue".
fn colors_in_play(game: &Game<Runtime>) -> String {
    let names: Vec<&str> = game.color_range().map(|c| game.variant.names.color_name(c)).collect();
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The actions the rules in play declare, a line each: `act NAME [CARD]
/// [target P]` and what it does.
fn actions_help(game: &Game<Runtime>) -> String {
    let marked = if game.variant.has_out_of_turn_actions() { ", unless marked" } else { "" };
    let mut text = format!("actions of the rules in play ('act NAME ...' on your turn{marked}):");
    for action in &game.variant.actions {
        let card = if action.card { " CARD" } else { "" };
        let target = if action.target { " target P" } else { "" };
        let about = crate::source::without_controls(&action.description);
        let when = match action.when {
            ActWhen::Turn => "",
            ActWhen::OutOfTurn => " (out of turn)",
            ActWhen::AnySeat => " (in turn or out of turn)",
        };
        text +=
            &format!("\n  act {}{card}{target}{when}\n      {about}", crate::source::without_controls(&action.name));
    }
    text
}
