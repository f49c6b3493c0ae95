//! A line-based game against bots: seat 0 is the person at the keyboard.
//! Commands mirror scenario steps (`play red 5`, `draw`, `pass`, `uno`,
//! `catch 2`, `challenge`, `accept`, `color red`). A refused or mistyped
//! command prints why and changes nothing. Reads any `BufRead`, so a game
//! can be scripted through standard input.

use std::io::{BufRead, Write};

use crate::bot::{Bot, BotKind};
use crate::event::describe_for;
use crate::game::{Action, Game, Play};
use crate::notation::CardPattern;
use crate::table::Pending;

pub const HELP: &str = "\
commands:
  play CARD [COLOUR] [flex] [target N] [uno]   e.g. 'play red 5', 'play wild blue', 'play 3' (3rd card)
  draw | pass | uno | catch N | challenge | accept | color COLOUR
  hand (show the table) | help | quit";

const HUMAN: usize = 0;

/// What a line of input asks for.
enum Command {
    Act(Action),
    Show,
    Help,
    Quit,
}

fn parse_command(game: &Game, line: &str) -> Result<Command, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let names = &game.variant.names;
    match words.as_slice() {
        [] | ["hand"] | ["table"] => Ok(Command::Show),
        ["help"] | ["?"] => Ok(Command::Help),
        ["quit"] | ["exit"] | ["q"] => Ok(Command::Quit),
        ["draw"] | ["d"] => Ok(Command::Act(Action::Draw)),
        ["pass"] => Ok(Command::Act(Action::Pass)),
        ["uno"] => Ok(Command::Act(Action::Uno(HUMAN))),
        ["challenge"] => Ok(Command::Act(Action::Challenge)),
        ["accept"] => Ok(Command::Act(Action::Accept)),
        ["catch", n] => {
            n.parse().map(|s| Command::Act(Action::Catch(s))).map_err(|_| format!("'{n}' is not a player number"))
        }
        ["color" | "colour", c] => {
            names.color(c).map(|c| Command::Act(Action::Color(c))).ok_or_else(|| format!("unknown colour '{c}'"))
        }
        ["play" | "p", rest @ ..] => parse_play(game, rest).map(|p| Command::Act(Action::Play(p))),
        _ => Err(format!("unknown command '{line}' (type 'help')")),
    }
}

fn parse_play(game: &Game, words: &[&str]) -> Result<Play, String> {
    let names = &game.variant.names;
    let hand = &game.table().hands[HUMAN];
    let mut card_words = Vec::new();
    let (mut color, mut as_flex, mut target, mut uno) = (None, false, None, false);
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "flex" => as_flex = true,
            "uno" => uno = true,
            "target" | "at" => {
                i += 1;
                let n = words.get(i).ok_or("target needs a player number")?;
                target = Some(n.parse().map_err(|_| format!("'{n}' is not a player number"))?);
            }
            w if !card_words.is_empty()
                && names.color(w).is_some()
                && color.is_none()
                && is_complete(game, &card_words) =>
            {
                color = names.color(w);
            }
            w => card_words.push(w),
        }
        i += 1;
    }
    let text = card_words.join(" ");
    let card = if let Ok(index) = text.parse::<usize>()
        && index >= 1
        && index <= hand.len()
        && card_words.len() == 1
    {
        hand[index - 1]
    } else {
        let pattern: CardPattern = names.parse_pattern(&text)?;
        game.find_in_hand(HUMAN, &pattern).ok_or_else(|| format!("you hold no {text}"))?
    };
    Ok(Play { player: Some(HUMAN), card, color, as_flex, target, uno })
}

/// Do these words already name a whole card (so a following colour is the
/// colour named for a wild)?
fn is_complete(game: &Game, words: &[&str]) -> bool {
    let text = words.join(" ");
    text.parse::<usize>().is_ok() || game.variant.names.parse_pattern(&text).is_ok()
}

fn show_table(game: &Game, out: &mut impl Write) -> std::io::Result<()> {
    let view = game.view(HUMAN);
    let names = &game.variant.names;
    let faces = |faces: &[crate::card::Face]| faces.iter().map(|f| names.format_face(f)).collect::<Vec<_>>().join(", ");
    let top = view.top.map(|f| names.format_face(&f)).unwrap_or_default();
    let color = view.color.map(|c| names.color_name(c)).unwrap_or("none");
    write!(out, "top: {top} (colour {color}), {}, draw pile {}", view.direction.name(), view.draw_size)?;
    if game.variant.double_sided {
        write!(out, ", {} side up", view.side.name())?;
        if let Some(back) = view.draw_top_back {
            write!(out, "; its top card's back: {}", names.format_face(&back))?;
        }
    }
    writeln!(out)?;
    for opponent in &view.opponents {
        let power = match opponent.power {
            Some(true) => ", power green",
            Some(false) => ", power red",
            None => "",
        };
        let uno = if opponent.called_uno { ", UNO" } else { "" };
        write!(out, "  p{}: {} cards{power}{uno} (score {})", opponent.seat, opponent.cards, opponent.score)?;
        if !opponent.backs.is_empty() {
            write!(out, " - backs: {}", faces(&opponent.backs))?;
        }
        writeln!(out)?;
    }
    let hand: Vec<String> =
        view.hand.iter().enumerate().map(|(i, f)| format!("{}:{}", i + 1, names.format_face(f))).collect();
    writeln!(out, "your hand: {}", hand.join("  "))?;
    if let Some(green) = view.power {
        writeln!(out, "your Power Card: {}", if green { "green" } else { "red" })?;
    }
    Ok(())
}

fn prompt_text(game: &Game) -> String {
    match &game.table().pending {
        Some(Pending::Color { .. }) => "name a colour (color COLOUR)".into(),
        Some(Pending::Penalty(p)) => format!(
            "you face drawing {}: accept{}",
            p.draw.count,
            if p.challenge.is_some() { " or challenge" } else { "" }
        ),
        None if game.table().drawn.is_some() => "play the drawn card or pass".into(),
        None => "your turn".into(),
    }
}

/// Plays a match to the target score. Returns when it is won or input ends.
pub fn run(
    mut game: Game,
    bot: BotKind,
    seed: u64,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let mut bots: Vec<Bot> = (0..game.players()).map(|s| Bot::new(bot, seed, s as u64)).collect();
    writeln!(
        out,
        "unolab: {} with {} players; you are p0. Type 'help' for commands.",
        game.variant.name,
        game.players()
    )?;
    for note in game.variant.notes() {
        writeln!(out, "note: {note}")?;
    }
    let mut shown = 0;
    let mut table_shown_at = usize::MAX;
    let mut line = String::new();
    loop {
        for event in &game.events()[shown..] {
            writeln!(out, "{}", describe_for(event, &game.variant, Some(HUMAN)))?;
        }
        shown = game.events().len();
        if let Some(winner) = game.table().match_winner {
            writeln!(out, "match over: p{winner} wins with {} points", game.table().scores[winner])?;
            return Ok(());
        }
        if game.table().hand_number == 0 || game.hand_over() {
            if game.hand_over() {
                let scores: Vec<String> =
                    game.table().scores.iter().enumerate().map(|(s, p)| format!("p{s} {p}")).collect();
                writeln!(out, "scores: {}", scores.join(", "))?;
            }
            if let Err(e) = game.deal() {
                writeln!(out, "error: {e}")?;
                return Ok(());
            }
            continue;
        }
        if let Some((seat, action)) = crate::bot::next_action(&mut game, &mut bots, Some(HUMAN)) {
            if let Err(e) = game.apply(action) {
                writeln!(out, "error: p{seat} could not act: {e}")?;
                return Ok(());
            }
            continue;
        }
        if shown != table_shown_at {
            show_table(&game, out)?;
            table_shown_at = shown;
        }
        write!(out, "{}> ", prompt_text(&game))?;
        out.flush()?;
        line.clear();
        if input.read_line(&mut line)? == 0 {
            writeln!(out, "\ninput ended")?;
            return Ok(());
        }
        match parse_command(&game, line.trim()) {
            Ok(Command::Quit) => return Ok(()),
            Ok(Command::Help) => writeln!(out, "{HELP}")?,
            Ok(Command::Show) => table_shown_at = usize::MAX,
            Ok(Command::Act(action)) => {
                if let Err(e) = game.apply(action) {
                    writeln!(out, "{e}")?;
                }
            }
            Err(e) => writeln!(out, "{e}")?,
        }
    }
}
