//! What the REPL shows: cards in their colours (or plain, or with a glyph
//! per colour for colour-blind players), the table as seat 0 sees it, and
//! the hand sorted and numbered with the playable cards marked. Lines wrap
//! between cards, never inside one, at the width given.

use crate::card::{Color, Face, Value};
use crate::game::Moves;
use crate::notation::Names;
use crate::view::{PhaseView, SeatView};

/// How text is dressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// ANSI colours (only on a terminal, and not with `NO_COLOR`).
    pub color: bool,
    /// A glyph per colour before each card, as the printed cards carry.
    pub glyphs: bool,
    /// Columns to wrap at.
    pub width: usize,
}

/// The terminal's width now: `COLUMNS` if set, else what the terminal
/// says, else 80 (never under 20).
pub fn terminal_width() -> usize {
    let columns = std::env::var("COLUMNS").ok().and_then(|c| c.trim().parse::<usize>().ok());
    columns.or_else(|| terminal_size::terminal_size().map(|(w, _)| usize::from(w.0))).unwrap_or(80).max(20)
}

impl Style {
    /// Plain text at 80 columns: what a pipe gets.
    pub fn plain() -> Style {
        Style { color: false, glyphs: false, width: 80 }
    }
}

/// 256-colour codes for the colour names the built-in variants use; other
/// colours take the palette in order.
const KNOWN_COLORS: [(&str, u8); 8] = [
    ("red", 9),
    ("blue", 12),
    ("green", 10),
    ("yellow", 11),
    ("pink", 13),
    ("teal", 14),
    ("orange", 208),
    ("purple", 135),
];

/// A glyph per colour index, for the colour-blind mode.
const GLYPHS: [char; 8] = ['●', '■', '▲', '◆', '✚', '★', '♥', '♣'];

fn ansi_code(names: &Names, color: Color) -> u8 {
    let name = names.color_name(color);
    KNOWN_COLORS
        .iter()
        .find(|(known, _)| known.eq_ignore_ascii_case(name))
        .map_or(KNOWN_COLORS[color as usize % KNOWN_COLORS.len()].1, |&(_, code)| code)
}

/// Text with its width on screen (escape codes take none).
#[derive(Debug, Clone, Default)]
pub struct Painted {
    pub text: String,
    pub width: usize,
}

impl Painted {
    pub fn plain(text: impl Into<String>) -> Painted {
        let text = text.into();
        Painted { width: text.chars().count(), text }
    }

    fn push(&mut self, other: &Painted) {
        self.text += &other.text;
        self.width += other.width;
    }
}

/// A face as the style shows it.
pub fn face(names: &Names, face: &Face, style: Style) -> Painted {
    let name = names.format_face(face);
    let mut painted = Painted::default();
    if style.glyphs {
        let marks: String = match (face.color, face.flex) {
            (None, _) => "◌".into(),
            (Some(c), None) => GLYPHS[c as usize % GLYPHS.len()].into(),
            (Some(c), Some(f)) => {
                [GLYPHS[c as usize % GLYPHS.len()], GLYPHS[f as usize % GLYPHS.len()]].iter().collect()
            }
        };
        painted.push(&Painted::plain(marks));
    }
    let width = name.chars().count();
    painted.text += &match (style.color, face.color) {
        (false, _) => name,
        (true, None) => format!("\x1b[1m{name}\x1b[0m"),
        (true, Some(c)) => format!("\x1b[1;38;5;{}m{name}\x1b[0m", ansi_code(names, c)),
    };
    painted.width += width;
    painted
}

/// Text in a quiet colour (hints, headings), plain without colour.
pub fn dim(text: &str, style: Style) -> String {
    if style.color { format!("\x1b[2m{text}\x1b[0m") } else { text.to_string() }
}

/// Items joined by two spaces, wrapped at the style's width after `indent`
/// spaces; an item is never split.
pub fn wrap(items: &[Painted], indent: usize, style: Style) -> String {
    let mut out = String::new();
    let mut column = 0;
    for item in items {
        if column > indent && column + 2 + item.width > style.width.max(indent + 1) {
            out.push('\n');
            column = 0;
        }
        if column == 0 {
            out += &" ".repeat(indent);
            column = indent;
        } else {
            out += "  ";
            column += 2;
        }
        out += &item.text;
        column += item.width;
    }
    out
}

/// Plain text wrapped at the style's width: each line of `text` on its
/// own, continued lines indented by `indent` more than the line's own
/// indentation.
pub fn wrap_text(text: &str, indent: usize, style: Style) -> String {
    let mut out = Vec::new();
    for line in text.lines() {
        let own = line.len() - line.trim_start().len();
        let mut current = " ".repeat(own);
        let (mut width, mut fresh) = (own, true);
        for word in line.split_whitespace() {
            let w = word.chars().count();
            if !fresh && width + 1 + w > style.width {
                out.push(std::mem::replace(&mut current, " ".repeat(own + indent)));
                (width, fresh) = (own + indent, true);
            }
            if !fresh {
                current.push(' ');
                width += 1;
            }
            current += word;
            (width, fresh) = (width + w, false);
        }
        out.push(current);
    }
    out.join("\n")
}

/// The order a hand is shown in: by colour (wilds last), then numbers
/// before symbols, then value.
pub fn sort_key(face: &Face) -> (u16, u16, u16, bool) {
    let color = face.color.map_or(u16::MAX, u16::from);
    let flex = face.flex.map_or(0, |f| u16::from(f) + 1);
    let value = match face.value {
        Value::Number(n) => u16::from(n),
        Value::Symbol(s) => 256 + u16::from(s),
    };
    (color, value, flex, face.marked)
}

/// The table as `view`'s seat sees it: top card and colour, direction,
/// side, piles, each seat's cards, score and Power Card, whose turn it is
/// and who is next, then the hand (in `order`), numbered, with the cards
/// `moves` allows marked.
/// What the table shows besides the view: the seat's moves, the plays
/// that are bluffs, who is next, and what each seat is called.
pub struct Shown<'a> {
    pub moves: &'a Moves,
    pub bluffs: &'a [Face],
    pub next: Option<usize>,
    pub labels: &'a [String],
}

pub fn table(names: &Names, view: &SeatView, order: &[usize], shown: &Shown, style: Style) -> String {
    let Shown { moves, bluffs, next, labels } = *shown;
    let mut out = String::new();
    let mut facts = Vec::new();
    let top = view.top.map_or_else(|| Painted::plain("none"), |f| face(names, &f, style));
    let mut top_fact = Painted::plain("top ");
    top_fact.push(&top);
    facts.push(top_fact);
    let color = view.color.map_or("none", |c| names.color_name(c));
    facts.push(Painted::plain(format!("colour {color}")));
    facts.push(Painted::plain(view.direction.name()));
    if let Some(back) = view.draw_top_back {
        let mut side = Painted::plain(format!("{} side up; next draw's back ", view.side.name()));
        side.push(&face(names, &back, style));
        facts.push(side);
    }
    facts.push(Painted::plain(format!("draw pile {}, discard {}", view.draw_size, view.discard_size)));
    out += &wrap(&facts, 0, style);
    out.push('\n');
    if !view.state.is_empty() {
        out += &format!("  table: {}\n", state_words(&view.state));
    }
    let seat_line = |seat: usize, cards: usize, score: i64, power: Option<bool>, uno: bool, playing: bool| {
        let number = format!("p{seat}");
        let label = match labels.get(seat) {
            Some(name) if *name != number => format!("{name} {number}"),
            _ => number,
        };
        let mut words = vec![if seat == view.seat { format!("you {label}") } else { label }];
        if !playing {
            words.push("left the hand".into());
        } else {
            words.push(format!("{cards} card{}", if cards == 1 { "" } else { "s" }));
        }
        words.push(format!("score {score}"));
        match power {
            Some(true) => words.push("power green".into()),
            Some(false) => words.push("power red".into()),
            None => {}
        }
        if uno {
            words.push("UNO".into());
        }
        if seat == view.dealer {
            words.push("dealer".into());
        }
        if seat == view.to_act && !matches!(view.phase, PhaseView::Over { .. }) {
            words.push("<- to act".into());
        } else if Some(seat) == next {
            words.push("next".into());
        }
        words.join(", ")
    };
    let mut seats: Vec<(usize, String)> = view
        .opponents
        .iter()
        .map(|o| {
            let mut line = seat_line(o.seat, o.cards, o.score, o.power, o.called_uno, o.playing);
            if !o.state.is_empty() {
                line += &format!("; {}", state_words(&o.state));
            }
            (o.seat, line)
        })
        .collect();
    let mut own = seat_line(view.seat, view.hand.len(), view.score, view.power, view.called_uno, true);
    if !view.own_state.is_empty() {
        own += &format!("; {}", state_words(&view.own_state));
    }
    seats.push((view.seat, own));
    seats.sort_by_key(|(seat, _)| *seat);
    for (seat, line) in seats {
        out += &format!("{}\n", wrap_text(&format!("  {line}"), 4, style));
        if let Some(o) = view.opponents.iter().find(|o| o.seat == seat && !o.backs.is_empty()) {
            let mut backs = vec![Painted::plain("backs:")];
            backs.extend(o.backs.iter().map(|b| face(names, b, style)));
            out += &format!("{}\n", wrap(&backs, 4, style));
        }
    }
    let playable = |f: &Face| moves.plays.iter().any(|option| option.face == *f);
    let cards: Vec<Painted> = order
        .iter()
        .enumerate()
        .map(|(shown, &index)| {
            let f = &view.hand[index];
            let mark = if bluffs.contains(f) {
                "?"
            } else if playable(f) {
                ">"
            } else {
                " "
            };
            let mut item = Painted::plain(format!("{mark}{}:", shown + 1));
            item.push(&face(names, f, style));
            item
        })
        .collect();
    out += "your hand";
    if moves.plays.iter().any(|o| o.target.is_some()) {
        // At a narrow width the hint goes on a line of its own.
        let hint = "(> playable; aim with 'target N')";
        let glue = if "your hand ".len() + hint.len() + 1 > style.width { "\n  " } else { " " };
        out += &dim(&format!("{glue}{hint}"), style);
    } else if !bluffs.is_empty() {
        out += &dim(" (> playable; ? a bluff: it may be challenged)", style);
    } else if !moves.plays.is_empty() {
        out += &dim(" (> playable)", style);
    }
    out += ":\n";
    out += &wrap(&cards, 2, style);
    out.push('\n');
    out
}

/// Rule state values as `name value` pairs.
fn state_words(state: &[(crate::text::Text, crate::turn::ScriptValue)]) -> String {
    state.iter().map(|(name, value)| format!("{name} {value}")).collect::<Vec<_>>().join(", ")
}

/// Event lines made easier to follow: a line repeated at once is shown once
/// with a count (`p1 is skipped (x2)`; `p1 draws 4 cards` for `p1 draws a
/// card` four times), and lines that differ only in
/// whose it is become one: `p0's Power Card turns green`, `p1's ...` as
/// `p0's, p1's and p2's Power Cards turn green`; `p1 is skipped`, `p2 is
/// skipped` as `p1 and p2 are skipped`. Lines keep their indentation and
/// only lines of the same indentation are joined.
pub fn condense(lines: Vec<String>) -> Vec<String> {
    /// A line about one seat, `pN's rest` or `pN is rest`: its indentation,
    /// the seat, and the rest.
    fn about_a_seat(line: &str) -> Option<(&str, &str, &str)> {
        let body = line.trim_start_matches(' ');
        let indent = &line[..line.len() - body.len()];
        let rest = body.strip_prefix('p')?;
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let tail = &rest[digits..];
        (digits > 0 && (tail.starts_with("'s ") || tail.starts_with(" is "))).then(|| (indent, &rest[..digits], tail))
    }
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = &lines[i];
        let mut j = i + 1;
        while j < lines.len() && lines[j] == *line && !line.trim().is_empty() {
            j += 1;
        }
        if j - i > 1 {
            out.push(match line.strip_suffix(" draws a card") {
                Some(who) => format!("{who} draws {} cards", j - i),
                None => format!("{line} (x{})", j - i),
            });
            i = j;
            continue;
        }
        if let Some((indent, _, rest)) = about_a_seat(line) {
            let mut seats = Vec::new();
            let mut k = i;
            while let Some((other_indent, seat, other)) = lines.get(k).and_then(|l| about_a_seat(l)) {
                if other != rest || other_indent != indent {
                    break;
                }
                seats.push(seat);
                k += 1;
            }
            let joined = match rest.strip_prefix(" is ") {
                Some(what) => Some(("", format!(" are {what}"))),
                None => rest.strip_prefix("'s ").and_then(plural).map(|rest| ("'s", format!(" {rest}"))),
            };
            if seats.len() > 1
                && let Some((possessive, rest)) = joined
            {
                let named: Vec<String> = seats.iter().map(|s| format!("p{s}{possessive}")).collect();
                let (last, first) = named.split_last().expect("two seats or more");
                out.push(format!("{indent}{} and {last}{rest}", first.join(", ")));
                i = k;
                continue;
            }
        }
        out.push(line.clone());
        i += 1;
    }
    out
}

/// What several seats' things do, from what one seat's does: `Power Card
/// turns green` as `Power Cards turn green` (the subject before the first
/// verb ending in `s`, one word or more). `None` where the line has no such
/// shape.
fn plural(one: &str) -> Option<String> {
    let words: Vec<&str> = one.split(' ').collect();
    let verb = words.iter().position(|w| w.len() > 1 && w.ends_with('s')).filter(|&at| at > 0)?;
    let plural_verb = match words[verb] {
        "is" => "are".to_string(),
        "has" => "have".to_string(),
        word => word[..word.len() - 1].to_string(),
    };
    let subject = words[..verb].join(" ");
    let rest = words[verb + 1..].iter().map(|w| format!(" {w}")).collect::<String>();
    Some(format!("{subject}s {plural_verb}{rest}"))
}
