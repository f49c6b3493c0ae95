//! The REPL's command language: game moves in the scenario steps' words
//! (`play red 5`, `draw`, `catch 2`) with short forms and colour initials
//! (`p r5`, `d`, `c p2`, `color b`), the session's own commands (`undo`,
//! `save FILE`, `rules`...), help for each, and "did you mean" on typos.
//! Case does not matter, except in file names.

use std::ops::Range;

use super::screen::Screen;
use crate::card::{Color, Face, Value};
use crate::game::Game;
use crate::game::command::{ActCommand, CardRef, ChoiceRef, Command, PlayCommand};
use crate::notation::{CardPattern, Names};
use crate::rules::Rules;

/// What a line of input asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A move of seat 0. A hand position in a play counts in the order the
    /// hand is shown.
    Move(Command),
    /// An empty line: let play go on (or show the table again).
    GoOn,
    Help(Option<String>),
    Hand,
    Table,
    /// A bot decides for the seat: the match's kind, or the one named.
    Auto(Option<crate::bot::BotKind>),
    Log(usize),
    Rules,
    Undo,
    Save(String),
    Load(String),
    New(Vec<String>),
    Reload,
    /// A script expression to evaluate at the table (an author's tool).
    Eval(String),
    /// Trace hook calls (an author's tool): on, off, or say which.
    Trace(Option<bool>),
    /// Show or set how play is paced.
    Pace(Option<Pace>),
    Quit,
}

impl Input {
    /// The bot an `auto` line names, if it names one.
    pub fn auto_bot(&self) -> Option<crate::bot::BotKind> {
        match self {
            Input::Auto(kind) => *kind,
            _ => None,
        }
    }
}

/// How play is paced: at once, a pause before each deal, or a pause after
/// each move of the others (Enter goes on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pace {
    Off,
    Hand,
    Move,
}

impl Pace {
    pub const ALL: [Pace; 3] = [Pace::Off, Pace::Hand, Pace::Move];

    pub fn name(self) -> &'static str {
        match self {
            Pace::Off => "off",
            Pace::Hand => "hand",
            Pace::Move => "move",
        }
    }

    pub fn parse(word: &str) -> Option<Pace> {
        Pace::ALL.into_iter().find(|p| p.name() == word.to_ascii_lowercase())
    }
}

/// One command: its name, short forms, arguments and what it does.
pub struct CommandInfo {
    pub name: &'static str,
    pub short: &'static [&'static str],
    pub usage: &'static str,
    pub help: &'static str,
}

pub const COMMANDS: &[CommandInfo] = &[
    CommandInfo {
        name: "play",
        short: &["p"],
        usage: "play CARD|N [COLOUR] [flex] [target P] [uno]",
        help: "Play a card, named ('play red 5', 'p r5', 'play +2', 'play wild blue') or by its number in your hand \
               ('play 3'). Name the colour for a wild, or be asked for it; 'flex' plays a Flex card's flex side; 'target 2' aims it at p2; \
               'uno' calls UNO with your second-to-last card.",
    },
    CommandInfo {
        name: "draw",
        short: &["d"],
        usage: "draw",
        help: "Draw a card. Facing a penalty, 'draw' accepts it: you draw what it owes.",
    },
    CommandInfo {
        name: "pass",
        short: &[],
        usage: "pass",
        help: "Keep the card you drew and end your turn (or pass when there is nothing to draw).",
    },
    CommandInfo {
        name: "uno",
        short: &["u"],
        usage: "uno",
        help: "Call UNO: you hold one card. Call it before the next player acts, or you can be caught.",
    },
    CommandInfo {
        name: "catch",
        short: &["c"],
        usage: "catch P",
        help: "Catch player P ('catch 2' or 'catch p2'), who holds one card and did not call UNO in time: they draw.",
    },
    CommandInfo {
        name: "challenge",
        short: &[],
        usage: "challenge",
        help: "Challenge the draw card played on you: if its player broke its rule, they draw; if not, you draw more.",
    },
    CommandInfo { name: "accept", short: &["a"], usage: "accept", help: "Take the penalty waiting on you." },
    CommandInfo {
        name: "color",
        short: &["colour"],
        usage: "color COLOUR",
        help: "Name the colour in play after a wild ('color blue', 'color b'), or for the wild you are playing.",
    },
    CommandInfo {
        name: "choose",
        short: &[],
        usage: "choose N|VALUE",
        help: "Answer a choice a rule asks of you, by the option's number or its value.",
    },
    CommandInfo {
        name: "act",
        short: &[],
        usage: "act NAME [CARD] [target P]",
        help: "Take an action the rules declare, on your turn instead of playing or drawing, or out of turn where \
               the rule says so ('act trade r5', 'act slap target 2'): 'help act' lists the actions of the rules \
               in play.",
    },
    CommandInfo {
        name: "eval",
        short: &[],
        usage: "eval EXPRESSION",
        help: "An author's tool: the value of a script expression at the table as it is, asked as a rule's \
               question is, for the seat to act ('eval hand_size(1)', 'eval count(me(), \"red\")', \
               'eval pending_penalty()'). It reads every hand and changes nothing.",
    },
    CommandInfo {
        name: "trace",
        short: &[],
        usage: "trace [on|off]",
        help: "An author's tool: with trace on, each hook call of the rules is shown before the events it led \
               to: the hook and what it was about, the rule and function, whether the memo or the script \
               answered, what it read and changed, and its reply. Calls about cards you cannot see are left \
               out, and what a call read of hidden cards is shown as (hidden).",
    },
    CommandInfo { name: "hand", short: &["h"], usage: "hand", help: "Show the table and your hand." },
    CommandInfo { name: "table", short: &["t"], usage: "table", help: "Show the table and your hand." },
    CommandInfo {
        name: "auto",
        short: &[],
        usage: "auto [BOT]",
        help: "Let a bot make this decision for you: one like the others at the table, or the one named \
               (easy, normal, hard; random, greedy, search or search:N, N playouts a decision).",
    },
    CommandInfo {
        name: "pace",
        short: &[],
        usage: "pace [off|hand|move]",
        help: "How play is paced: 'hand' waits for Enter before each new hand (the default at a terminal), \
               'move' after each move of the others, 'off' goes on at once. Without a word, says which.",
    },
    CommandInfo { name: "log", short: &["l"], usage: "log [N]", help: "The last N events of the game (default 20)." },
    CommandInfo {
        name: "rules",
        short: &[],
        usage: "rules",
        help: "The rule sheet: the variant, the house rules and options in force, and what each card does.",
    },
    CommandInfo {
        name: "undo",
        short: &[],
        usage: "undo",
        help: "Go back to before your previous decision (repeat to go further back).",
    },
    CommandInfo {
        name: "save",
        short: &[],
        usage: "save FILE",
        help: "Save the game (its rules, seed and every move) to FILE.",
    },
    CommandInfo {
        name: "load",
        short: &[],
        usage: "load FILE",
        help: "Load a saved game and play on from where it was saved.",
    },
    CommandInfo {
        name: "new",
        short: &[],
        usage: "new [VARIANT] [OPTIONS]",
        help: "Start a new match, with a new seed. Options as for 'unolab play': -r RULE (repeat), --set K=V, \
               -p N, --seed S, --bot KIND. What is not given stays as it was; a VARIANT starts without \
               the old rules and settings, and -r gives the whole list of rules (new -r RULE: that rule \
               alone) and clears the settings.",
    },
    CommandInfo {
        name: "reload",
        short: &[],
        usage: "reload",
        help: "Read the variant and rule files again from disk and replay the game so far with them.",
    },
    CommandInfo { name: "help", short: &["?"], usage: "help [COMMAND]", help: "The commands, or one in detail." },
    CommandInfo { name: "quit", short: &["q", "exit"], usage: "quit", help: "Leave, with a summary of the match." },
];

/// The command a word names: its full name, a short form, or a prefix of
/// only one name.
pub fn command_named(word: &str) -> Result<&'static CommandInfo, String> {
    let word = word.to_ascii_lowercase();
    if let Some(info) = COMMANDS.iter().find(|c| c.name == word || c.short.contains(&word.as_str())) {
        return Ok(info);
    }
    let prefixed: Vec<&CommandInfo> = COMMANDS.iter().filter(|c| c.name.starts_with(&word)).collect();
    match prefixed.as_slice() {
        [one] => Ok(one),
        [] if word.chars().count() > 40 => {
            let start: String = word.chars().take(20).collect();
            Err(format!("unknown command '{start}…' (type 'help')"))
        }
        // A card's number in the hand (not a card name such as '+2').
        [] if word.bytes().all(|b| b.is_ascii_digit()) && word.parse::<usize>().is_ok_and(|n| n > 0) => {
            Err(format!("unknown command '{word}': to play card {word} of your hand, type 'play {word}' (type 'help')"))
        }
        [] => match crate::source::closest(&word, COMMANDS.iter().map(|c| c.name)) {
            Some(name) => Err(format!("unknown command '{word}': did you mean '{name}'? (type 'help')")),
            None => Err(format!("unknown command '{word}' (type 'help')")),
        },
        many => {
            let names: Vec<&str> = many.iter().map(|c| c.name).collect();
            Err(format!("'{word}' could be {}", names.join(" or ")))
        }
    }
}

/// The help text: every command, or one in detail.
pub fn help(topic: Option<&str>) -> Result<String, String> {
    match topic {
        Some("all") => Ok(help_all()),
        Some(word) => {
            let info = command_named(word)?;
            let short = if info.short.is_empty() { String::new() } else { format!(" (or {})", info.short.join(", ")) };
            Ok(format!("{}{short}\n  {}", info.usage, info.help))
        }
        None => {
            let entry = |name: &str| {
                let info = COMMANDS.iter().find(|c| c.name == name).expect("a command of the list");
                match info.short.first() {
                    Some(short) => format!("{} [{short}]", info.usage),
                    None => info.usage.to_string(),
                }
            };
            let group = |names: &[&str]| names.iter().map(|n| entry(n)).collect::<Vec<_>>().join(", ");
            Ok(format!(
                "moves: {}\n\
                 the table: {}\n\
                 the match: {}\n\
                 cards: 'red 5', 'r5', 'blue skip', '+2', 'wild'; colours by initial ('b' for blue); \
                 'help COMMAND' says more, 'help all' lists every command",
                group(&["play", "draw", "pass", "uno", "catch", "challenge", "accept", "color", "choose"]),
                group(&["hand", "table", "log", "rules", "auto", "pace", "help"]),
                group(&["undo", "save", "load", "new", "reload", "quit"]),
            ))
        }
    }
}

/// Every command with a line of what it does: `help all`.
pub fn help_all() -> String {
    {
        {
            let mut text = String::from("commands (short forms in brackets; 'help COMMAND' for more):\n");
            for info in COMMANDS {
                let short = if info.short.is_empty() { String::new() } else { format!(" [{}]", info.short.join(", ")) };
                text += &format!("  {}{short}\n      {}\n", info.usage, first_sentence(info.help));
            }
            text += "cards: 'red 5', 'r5', 'blue skip', '+2', 'wild'; colours by initial ('b' for blue)";
            text
        }
    }
}

fn first_sentence(text: &str) -> &str {
    text.split_once(". ").map_or(text, |(first, _)| first)
}

/// What a line is read against: the colours of the side in play (which
/// initials stand for) and the faces the seat sees in its hand (which a
/// symbol alone, `+2`, may stand for).
pub struct Context<'a> {
    pub names: &'a Names,
    pub colors: Range<Color>,
    pub hand: &'a [Face],
    /// The faces the seat may play now: of two held cards a symbol alone
    /// could be (`+2` for a green and a blue one), it stands for the one
    /// that is playable.
    pub playable: &'a [Face],
    /// The seat is asked to name a colour (it owes the choice, or a card it
    /// played waits for one): a colour alone (`red`, `b`) names it.
    pub naming_color: bool,
}

/// A line typed at a yes/no question: `Some(true)` for yes (`y`),
/// `Some(false)` for no (`n`, or an empty line), `None` for anything else
/// (a command: the question is answered no, and the command carried out).
pub fn yes_or_no(line: &str) -> Option<bool> {
    match line.trim().to_ascii_lowercase().as_str() {
        "yes" | "y" => Some(true),
        "" | "no" | "n" => Some(false),
        _ => None,
    }
}

/// Parses a line the seat of `screen` typed at `game`: its cards are named
/// as the seat sees them, its colours are those of the side in play.
pub fn parse_at(game: &Game<impl Rules>, screen: &Screen, line: &str) -> Result<Input, String> {
    let (table, variant, seat) = (game.table(), &game.variant, screen.seat);
    let hand: Vec<Face> = table.hands()[seat].iter().map(|&c| *variant.face(c, table.side())).collect();
    let playable: Vec<Face> = screen.moves.plays.iter().map(|option| option.face).collect();
    let naming_color = matches!(table.phase(), crate::turn::Phase::NameColor { chooser } if *chooser == seat)
        || screen.color_wanted(game).is_some();
    let context = Context {
        names: &variant.names,
        colors: variant.colors_of(table.side()),
        hand: &hand,
        playable: &playable,
        naming_color,
    };
    parse(&context, line)
}

/// Parses a line.
pub fn parse(context: &Context, line: &str) -> Result<Input, String> {
    let Context { names, colors, .. } = context;
    let colors = colors.clone();
    let length = line.chars().count();
    if length > crate::limits::REPL_LINE {
        return Err(format!("that line is {length} characters long: commands are short (type 'help')"));
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = words.split_first() else { return Ok(Input::GoOn) };
    // Asked to name a colour, a colour alone names it.
    if context.naming_color && rest.is_empty() {
        let word = first.to_ascii_lowercase();
        match colors_named(names, colors.clone(), &word) {
            Ok(Some(color)) => return Ok(Input::Move(Command::Color(color))),
            // Not a command either: say which colours there are.
            Ok(None) if command_named(&word).is_err() => {
                return expand_color(names, colors.clone(), &word).map(|c| Input::Move(Command::Color(c)));
            }
            _ => {}
        }
    }
    let info = command_named(first)?;
    let lowered: Vec<String> = rest.iter().map(|w| w.to_ascii_lowercase()).collect();
    let args: Vec<&str> = lowered.iter().map(String::as_str).collect();
    let none = |input: Input| {
        if args.is_empty() {
            Ok(input)
        } else {
            Err(format!("'{}' takes no arguments (usage: {})", info.name, info.usage))
        }
    };
    let color = |word: &str| expand_color(names, colors.clone(), word);
    match info.name {
        "play" => parse_play(context, &args).map(|p| Input::Move(Command::Play(p))),
        "draw" => none(Input::Move(Command::Draw)),
        "pass" => none(Input::Move(Command::Pass)),
        "uno" => none(Input::Move(Command::Uno(None))),
        "challenge" => none(Input::Move(Command::Challenge)),
        "accept" => none(Input::Move(Command::Accept)),
        "catch" => match args.as_slice() {
            [seat] => seat_number(seat).map(|s| Input::Move(Command::Catch(s))),
            _ => Err("catch whom? e.g. 'catch 2' or 'catch p2'".into()),
        },
        "color" => match args.as_slice() {
            [word] => color(word).map(|c| Input::Move(Command::Color(c))),
            _ => Err(format!("name one colour: {}", color_list(names, colors))),
        },
        "choose" => {
            if args.is_empty() {
                return Err("choose which option? e.g. 'choose 1'".into());
            }
            let text = args.join(" ");
            let choice = match text.parse::<usize>() {
                Ok(n) if text.bytes().all(|b| b.is_ascii_digit()) => ChoiceRef::Place(n),
                _ => ChoiceRef::Value(text),
            };
            Ok(Input::Move(Command::Choose(choice)))
        }
        "act" => parse_act(context, &args).map(|act| Input::Move(Command::Act(act))),
        "hand" => none(Input::Hand),
        "table" => none(Input::Table),
        "auto" => match args.as_slice() {
            [] => Ok(Input::Auto(None)),
            [name] => crate::bot::BotKind::read(name).map(|kind| Input::Auto(Some(kind))),
            _ => Err(format!("usage: {}", info.usage)),
        },
        "log" => match args.as_slice() {
            [] => Ok(Input::Log(20)),
            [n] => n.parse().map(Input::Log).map_err(|_| format!("'{n}' is not a number of events")),
            _ => Err("usage: log [N]".into()),
        },
        "rules" => none(Input::Rules),
        "undo" => none(Input::Undo),
        "save" | "load" => {
            let path = line.trim_start()[first.len()..].trim();
            if path.is_empty() {
                return Err(format!("usage: {}", info.usage));
            }
            Ok(if info.name == "save" { Input::Save(path.into()) } else { Input::Load(path.into()) })
        }
        "new" => Ok(Input::New(rest.iter().map(|w| w.to_string()).collect())),
        "reload" => none(Input::Reload),
        "eval" => match line.trim_start()[first.len()..].trim() {
            "" => Err("eval what? e.g. 'eval hand_size(1)' or 'eval count(me(), \"red\")'".into()),
            expression => Ok(Input::Eval(expression.to_string())),
        },
        "trace" => match args.as_slice() {
            [] => Ok(Input::Trace(None)),
            [word] if word.eq_ignore_ascii_case("on") => Ok(Input::Trace(Some(true))),
            [word] if word.eq_ignore_ascii_case("off") => Ok(Input::Trace(Some(false))),
            [word] => Err(format!("'{word}': trace on or trace off")),
            _ => Err(format!("usage: {}", info.usage)),
        },
        "pace" => match args.as_slice() {
            [] => Ok(Input::Pace(None)),
            [word] => Pace::parse(word)
                .map(|p| Input::Pace(Some(p)))
                .ok_or_else(|| format!("'{word}' is not a pace (off, hand or move)")),
            _ => Err(format!("usage: {}", info.usage)),
        },
        "help" => match args.as_slice() {
            [] => Ok(Input::Help(None)),
            [topic] => Ok(Input::Help(Some(topic.to_string()))),
            _ => Err("usage: help [COMMAND]".into()),
        },
        "quit" => none(Input::Quit),
        other => unreachable!("command '{other}' has no parser"),
    }
}

/// A seat: `2` or `p2`.
fn seat_number(word: &str) -> Result<usize, String> {
    let digits = word.strip_prefix('p').unwrap_or(word);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("'{word}' is not a player (e.g. 2 or p2)"));
    }
    digits.parse().map_err(|_| format!("'{word}' is not a player (e.g. 2 or p2)"))
}

fn color_list(names: &Names, colors: Range<Color>) -> String {
    colors.map(|c| names.color_name(c).to_string()).collect::<Vec<_>>().join(", ")
}

/// A colour by name, or by the start of the name of one colour in play
/// (`b` for blue).
fn expand_color(names: &Names, colors: Range<Color>, word: &str) -> Result<Color, String> {
    match colors_named(names, colors.clone(), word) {
        Ok(Some(color)) => Ok(color),
        Ok(None) => {
            let known: Vec<String> = colors.clone().map(|c| names.color_name(c).to_ascii_lowercase()).collect();
            let hint = crate::source::did_you_mean(word, known.iter().map(String::as_str));
            Err(format!("'{word}' is not a colour (colours: {}){hint}", color_list(names, colors)))
        }
        Err(ambiguous) => Err(ambiguous),
    }
}

/// The colour `word` names, or the one colour in play whose name starts
/// with it; `None` if no colour does; an error naming them if several do.
fn colors_named(names: &Names, colors: Range<Color>, word: &str) -> Result<Option<Color>, String> {
    if let Some(color) = names.color(word) {
        return Ok(Some(color));
    }
    let starting: Vec<Color> = colors.filter(|&c| names.color_name(c).to_ascii_lowercase().starts_with(word)).collect();
    match starting.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(*one)),
        many => {
            let names: Vec<&str> = many.iter().map(|&c| names.color_name(c)).collect();
            Err(format!("'{word}' could be {}", names.join(" or ")))
        }
    }
}

/// Card words with colour initials written out: `r` is `red`, `r5` is
/// `red 5`, `b+2` is `blue +2`. A word that is already a colour, a symbol
/// or a number stays as it is. An initial that could be several colours
/// (`p` on Flip's dark side) is an error naming them.
fn expand_card_words(names: &Names, colors: Range<Color>, words: &[&str]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for &word in words {
        let known = names.color(word).is_some()
            || names.symbol(word).is_some()
            || word.bytes().all(|b| b.is_ascii_digit())
            || word.split_once('/').is_some_and(|(a, _)| names.color(a).is_some());
        if known {
            out.push(word.to_string());
            continue;
        }
        // `g/y2`: a two-colour card by its initials.
        if let Some((first, second)) = word.split_once('/')
            && !first.is_empty()
            && second.starts_with(|c: char| c.is_ascii_alphabetic())
            && let Some(regular) = colors_named(names, colors.clone(), first)?
        {
            let letters = second.bytes().take_while(u8::is_ascii_alphabetic).count();
            let (initial, value) = second.split_at(letters);
            if let Some(flex) = colors_named(names, 0..names.colors.len() as Color, initial)? {
                let pair = format!("{}/{}", names.color_name(regular), names.color_name(flex)).to_ascii_lowercase();
                out.push(pair);
                if !value.is_empty() {
                    out.push(value.to_string());
                }
                continue;
            }
        }
        let letters = word.bytes().take_while(u8::is_ascii_alphabetic).count();
        let (initial, value) = word.split_at(letters);
        if initial.is_empty() {
            out.push(word.to_string());
            continue;
        }
        match colors_named(names, colors.clone(), initial)? {
            Some(color) => {
                out.push(names.color_name(color).to_ascii_lowercase());
                if !value.is_empty() {
                    out.push(value.to_string());
                }
            }
            None => out.push(word.to_string()),
        }
    }
    Ok(out)
}

/// A symbol written in words, glued into its name: `wild draw 4` is
/// `wild-draw4`, `draw 2` is `draw2` (a number after a word is glued on,
/// words are joined by `-`), where the glued name is a symbol's.
fn glue_symbol_words(names: &Names, words: Vec<String>) -> Vec<String> {
    let glued = |parts: &[String]| {
        let mut name = String::new();
        for part in parts {
            let number = part.bytes().all(|b| b.is_ascii_digit());
            if !name.is_empty() && !number {
                name.push('-');
            }
            name += part;
        }
        name
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let longest = (i + 2..=words.len()).rev().find(|&end| names.symbol(&glued(&words[i..end])).is_some());
        match longest {
            Some(end) => {
                out.push(glued(&words[i..end]));
                i = end;
            }
            None => {
                out.push(words[i].clone());
                i += 1;
            }
        }
    }
    out
}

/// "; did you mean 'yellow'?" for a word of a card that is close to a
/// colour or a symbol's name, else nothing.
fn misspelt(context: &Context, words: &[String]) -> String {
    let names = context.names;
    let mut known: Vec<String> =
        (0..names.colors.len()).map(|c| names.color_name(c as Color).to_ascii_lowercase()).collect();
    known.extend(names.symbols.iter().map(|s| s.name.to_ascii_lowercase()));
    words
        .iter()
        .filter(|w| !known.contains(w) && !w.bytes().all(|b| b.is_ascii_digit()))
        .map(|w| crate::source::did_you_mean(w, known.iter().map(String::as_str)))
        .find(|hint| !hint.is_empty())
        .unwrap_or_default()
}

/// `act NAME [CARD] [target P]`: the card named as in a play.
fn parse_act(context: &Context, words: &[&str]) -> Result<ActCommand, String> {
    let Some((name, mut rest)) = words.split_first() else {
        return Err("which action? e.g. 'act trade r5' ('help act' lists them)".into());
    };
    let mut target = None;
    if let [before @ .., "target" | "at", seat] = rest {
        target = Some(seat_number(seat)?);
        rest = before;
    }
    let card = match rest {
        [] => None,
        words => Some(parse_play(context, words)?.card),
    };
    Ok(ActCommand { name: name.to_string(), card, target, player: None })
}

fn parse_play(context: &Context, words: &[&str]) -> Result<PlayCommand, String> {
    let (names, colors) = (context.names, context.colors.clone());
    let mut card_words = Vec::new();
    let (mut color, mut as_flex, mut target, mut uno) = (None, false, None, false);
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "flex" => as_flex = true,
            "uno" => uno = true,
            "target" | "at" => {
                i += 1;
                target = Some(seat_number(words.get(i).ok_or("target needs a player, e.g. 'target 2'")?)?);
            }
            word => card_words.push(word),
        }
        i += 1;
    }
    if card_words.is_empty() {
        return Err("play which card? e.g. 'play red 5', 'p r5' or 'play 3' (the 3rd card of your hand)".into());
    }
    // A number is a place in the hand only when it is the whole card and
    // has no sign: `+2` is a card.
    // `play 7 blue`: the 7th card, naming blue.
    if let [n, named] = card_words.as_slice()
        && n.bytes().all(|b| b.is_ascii_digit())
    {
        color = Some(expand_color(names, colors.clone(), named)?);
        card_words.pop();
    }
    if let [n] = card_words.as_slice()
        && n.bytes().all(|b| b.is_ascii_digit())
    {
        let place = n.parse().map_err(|_| format!("'{n}' is not a place in your hand"))?;
        return Ok(PlayCommand { card: CardRef::Position(place), player: None, color, as_flex, target, uno });
    }
    let mut expanded = glue_symbol_words(names, expand_card_words(names, colors.clone(), &card_words)?);
    // A coloured symbol alone (`+2`, `skip`) stands for the one such card in
    // the hand, or, of several, for the one playable now.
    if let [word] = expanded.as_slice()
        && let Some(symbol) = names.symbol(word)
        && !names.symbol_info(symbol).wild
    {
        let mut held: Vec<Face> = context.hand.iter().copied().filter(|f| f.value == Value::Symbol(symbol)).collect();
        held.sort_by_key(|f| (f.color, f.flex));
        held.dedup();
        let playable: Vec<Face> = held.iter().copied().filter(|f| context.playable.contains(f)).collect();
        let face = match (held.as_slice(), playable.as_slice()) {
            ([face], _) | (_, [face]) => *face,
            ([], _) => return Err(format!("you hold no {}", names.symbol_info(symbol).name)),
            (many, []) => {
                let faces: Vec<String> = many.iter().map(|f| names.format_face(f)).collect();
                let symbol = &names.symbol_info(symbol).name;
                return Err(format!("no {symbol} of yours may be played now ({})", faces.join(", ")));
            }
            (many, _) => {
                let faces: Vec<String> = many.iter().map(|f| names.format_face(f)).collect();
                return Err(format!("'{word}' could be {}: name the colour", faces.join(" or ")));
            }
        };
        return Ok(PlayCommand {
            card: CardRef::Named(CardPattern::Face(face)),
            player: None,
            color,
            as_flex,
            target,
            uno,
        });
    }
    // A last word that is a colour after a whole card names the colour for
    // a wild: `play wild blue`, `play wild b`.
    if expanded.len() > 1 {
        let (card, last) = expanded.split_at(expanded.len() - 1);
        if names.parse_pattern(&card.join(" ")).is_ok() {
            match expand_color(names, colors.clone(), &last[0]) {
                Ok(c) => {
                    color = Some(c);
                    expanded.pop();
                }
                Err(e) if names.parse_pattern(&expanded.join(" ")).is_err() => return Err(e),
                Err(_) => {}
            }
        }
    }
    let mut pattern =
        names.parse_pattern(&expanded.join(" ")).map_err(|e| format!("{e}{}", misspelt(context, &expanded)))?;
    // `r6` for the one red 6 held when it has more than it says: a mark
    // (`red 6*`) or a flex colour (`red/blue 6`).
    if let CardPattern::Face(face) = &mut pattern
        && !context.hand.contains(face)
    {
        let mut fuller: Vec<Face> = context
            .hand
            .iter()
            .copied()
            .filter(|held| {
                held.color == face.color
                    && held.value == face.value
                    && (face.flex.is_none() || held.flex == face.flex)
                    && (!face.marked || held.marked)
            })
            .collect();
        fuller.sort_by_key(|f| (f.flex, f.marked));
        fuller.dedup();
        if let [one] = fuller.as_slice() {
            *face = *one;
        }
    }
    Ok(PlayCommand { card: CardRef::Named(pattern), player: None, color, as_flex, target, uno })
}
