//! A line-based game against bots: seat 0 is the person at the keyboard.
//! Commands are the scenario steps' language (`play red 5`, `draw`, `pass`,
//! `uno`, `catch 2`, `challenge`, `accept`, `color red`), resolved against
//! what seat 0 can see. A refused or mistyped command prints why and
//! changes nothing. Reads any `BufRead`, so a game can be scripted through
//! standard input.

use std::io::{BufRead, Write};

use crate::bot::{Bot, BotKind};
use crate::event::describe_for;
use crate::game::Game;
use crate::game::command::{CardRef, ChoiceRef, Command, PlayCommand, Sight};
use crate::notation::Names;
use crate::turn::Phase;

pub const HELP: &str = "\
commands:
  play CARD [COLOUR] [flex] [target N] [uno]   e.g. 'play red 5', 'play wild blue', 'play 3' (3rd card)
  draw | pass | uno | catch N | challenge | accept | color COLOUR | choose N
  hand (show the table) | help | quit";

const HUMAN: usize = 0;

/// What a line of input asks for.
enum Input {
    Do(Command),
    Show,
    Help,
    Quit,
}

fn parse_input(names: &Names, line: &str) -> Result<Input, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let color = |c: &str| names.color(c).ok_or_else(|| format!("unknown colour '{c}'"));
    match words.as_slice() {
        [] | ["hand"] | ["table"] => Ok(Input::Show),
        ["help"] | ["?"] => Ok(Input::Help),
        ["quit"] | ["exit"] | ["q"] => Ok(Input::Quit),
        ["draw"] | ["d"] => Ok(Input::Do(Command::Draw)),
        ["pass"] => Ok(Input::Do(Command::Pass)),
        ["uno"] => Ok(Input::Do(Command::Uno(None))),
        ["challenge"] => Ok(Input::Do(Command::Challenge)),
        ["accept"] => Ok(Input::Do(Command::Accept)),
        ["catch", n] => seat_number(n).map(|s| Input::Do(Command::Catch(s))),
        ["color" | "colour", c] => color(c).map(|c| Input::Do(Command::Color(c))),
        ["choose", option @ ..] if !option.is_empty() => {
            let text = option.join(" ");
            let choice = match text.parse::<usize>() {
                Ok(n) if text.bytes().all(|b| b.is_ascii_digit()) => ChoiceRef::Place(n),
                _ => ChoiceRef::Value(text),
            };
            Ok(Input::Do(Command::Choose(choice)))
        }
        ["play" | "p", rest @ ..] => parse_play(names, rest).map(|p| Input::Do(Command::Play(p))),
        _ => Err(format!("unknown command '{line}' (type 'help')")),
    }
}

fn seat_number(word: &str) -> Result<usize, String> {
    let digits = word.strip_prefix('p').unwrap_or(word);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("'{word}' is not a player number"));
    }
    digits.parse().map_err(|_| format!("'{word}' is not a player number"))
}

fn parse_play(names: &Names, words: &[&str]) -> Result<PlayCommand, String> {
    let mut card_words = Vec::new();
    let (mut color, mut as_flex, mut target, mut uno) = (None, false, None, false);
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "flex" => as_flex = true,
            "uno" => uno = true,
            "target" | "at" => {
                i += 1;
                target = Some(seat_number(words.get(i).ok_or("target needs a player number")?)?);
            }
            w if !card_words.is_empty()
                && names.color(w).is_some()
                && color.is_none()
                && is_card(names, &card_words) =>
            {
                color = names.color(w);
            }
            w => card_words.push(w),
        }
        i += 1;
    }
    if card_words.is_empty() {
        return Err("play which card? e.g. 'play red 5' or 'play 3'".into());
    }
    // A number is a place in the hand only when it is the whole card and
    // has no sign: `+2` is a card.
    let card = match card_words.as_slice() {
        [n] if n.bytes().all(|b| b.is_ascii_digit()) => {
            CardRef::Position(n.parse().map_err(|_| format!("'{n}' is not a place in your hand"))?)
        }
        _ => match names.parse_pattern(&card_words.join(" ")) {
            Ok(pattern) => CardRef::Named(pattern),
            // `play wild blu`: the card was whole, the colour is unknown.
            Err(_) if card_words.len() > 1 && is_card(names, &card_words[..card_words.len() - 1]) => {
                let word = card_words[card_words.len() - 1];
                let known: Vec<&str> = names.colors.iter().map(String::as_str).collect();
                return Err(format!("'{word}' is not a colour (colours: {})", known.join(", ")));
            }
            Err(e) => return Err(e),
        },
    };
    Ok(PlayCommand { card, player: None, color, as_flex, target, uno })
}

/// Do these words already name a whole card (so a following colour is the
/// colour named for a wild)?
fn is_card(names: &Names, words: &[&str]) -> bool {
    let text = words.join(" ");
    text.bytes().all(|b| b.is_ascii_digit()) || names.parse_pattern(&text).is_ok()
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
    match &game.table().phase {
        Phase::NameColor { .. } => "name a colour (color COLOUR)".into(),
        Phase::Answer(p) => format!(
            "you face drawing {}: accept{}",
            p.draw.count,
            if p.challenge.is_some() { " or challenge" } else { "" }
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
        Phase::Turn | Phase::Over { .. } => "your turn".into(),
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
        match crate::bot::next_action(&mut game, &mut bots, Some(HUMAN)) {
            Ok(Some((seat, action))) => {
                if let Err(e) = game.apply(action) {
                    writeln!(out, "error: p{seat} could not act: {e}")?;
                    return Ok(());
                }
                continue;
            }
            Ok(None) => {}
            Err(e) => {
                writeln!(out, "error: {e}")?;
                return Ok(());
            }
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
        let request = match parse_input(&game.variant.names, line.trim()) {
            Ok(request) => request,
            Err(e) => {
                writeln!(out, "{e}")?;
                continue;
            }
        };
        match request {
            Input::Quit => return Ok(()),
            Input::Help => writeln!(out, "{HELP}")?,
            Input::Show => table_shown_at = usize::MAX,
            Input::Do(command) => match game.resolve(&command, HUMAN, Sight::Seat) {
                Ok(action) => {
                    if let Err(e) = game.apply(action) {
                        writeln!(out, "{e}")?;
                    }
                }
                Err(e) => writeln!(out, "{e}")?,
            },
        }
    }
}
