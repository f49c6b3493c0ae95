//! The words for seats in what one seat is told: "you" at its own seat,
//! with the verb after it in the second person ("p0 draws" is "you
//! draw", "p0's turn" is "your turn"), a player's name at a networked
//! table ("ann plays red 5"), and `pN` for the others. The core describes
//! events in seat numbers for every reader (transcripts, scenarios); this
//! is the REPL's dressing of those lines.

use crate::seat::Seat;

/// Who reads, and what each seat is called.
#[derive(Debug, Clone, Default)]
pub struct SeatWords {
    /// The seat that reads: called "you".
    pub viewer: Option<Seat>,
    /// A name a seat, where it has one (players who joined by name).
    pub names: Vec<Option<String>>,
}

/// A verb in the third person singular, in the second: `draws` is `draw`,
/// `passes` is `pass`, `is` is `are`. `None` for a word that is not such
/// a verb.
fn second_person(word: &str) -> Option<String> {
    if word.is_empty() || !word.bytes().all(|b| b.is_ascii_lowercase()) || !word.ends_with('s') {
        return None;
    }
    let irregular = match word {
        "is" => Some("are"),
        "has" => Some("have"),
        "does" => Some("do"),
        "was" => Some("were"),
        "goes" => Some("go"),
        _ => None,
    };
    if let Some(verb) = irregular {
        return Some(verb.into());
    }
    if word.ends_with("ss") || word.len() < 3 {
        return None;
    }
    for ending in ["sses", "shes", "ches", "xes", "zes"] {
        if word.ends_with(ending) {
            return Some(word[..word.len() - 2].to_string());
        }
    }
    if let Some(stem) = word.strip_suffix("ies")
        && stem.len() > 1
    {
        return Some(format!("{stem}y"));
    }
    Some(word[..word.len() - 1].to_string())
}

impl SeatWords {
    /// The words of a seat at a table with nobody reading as a seat.
    pub fn of_seat(viewer: Seat) -> SeatWords {
        SeatWords { viewer: Some(viewer), names: Vec::new() }
    }

    /// What `seat` is called: `you`, its name, or `pN`.
    pub fn name(&self, seat: Seat) -> String {
        if Some(seat) == self.viewer {
            return "you".into();
        }
        self.names.get(seat).cloned().flatten().unwrap_or_else(|| format!("p{seat}"))
    }

    /// A seat's name where it has one, else `pN`; never "you" (for lists
    /// where every seat is named, such as scores).
    pub fn label(&self, seat: Seat) -> String {
        self.names.get(seat).cloned().flatten().unwrap_or_else(|| format!("p{seat}"))
    }

    /// A line with its seats in these words.
    pub fn line(&self, line: &str) -> String {
        if self.viewer.is_none() && self.names.iter().all(Option::is_none) {
            return line.to_string();
        }
        let bytes = line.as_bytes();
        let mut out = String::with_capacity(line.len() + 8);
        let mut i = 0;
        // The verb after "you" to put in the second person, where "you" is
        // a subject; and whether the clause is still about "you" (a verb
        // after its "and" is put in the second person too).
        let mut conjugate = false;
        let mut clause_you = false;
        while i < bytes.len() {
            let boundary = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
            let digits = bytes[i + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
            let after = i + 1 + digits;
            let ends = after == bytes.len() || !(bytes[after].is_ascii_alphanumeric() || bytes[after] == b'_');
            // A seat in quotes is a command or a saved move as written.
            let quoted = i > 0 && bytes[i - 1] == b'\'';
            if bytes[i] == b'p' && boundary && digits > 0 && ends && !quoted {
                let seat: Seat = line[i + 1..after].parse().unwrap_or(usize::MAX);
                let possessive = line[after..].starts_with("'s");
                let before = out.trim_end();
                let subject = before.is_empty() || before.ends_with([':', ';', ',', '(']);
                if Some(seat) == self.viewer {
                    if possessive {
                        // "p0's turn" is "your turn", "p0's, p1's ... cards" "your, ...";
                        // "not p0's" at the end of a clause is "not yours".
                        let rest = &line[after + 2..];
                        out += if rest.is_empty() || rest.starts_with(['.', ';', ':', ')', '?', '!']) {
                            "yours"
                        } else {
                            "your"
                        };
                        i = after + 2;
                        continue;
                    }
                    out += "you";
                    conjugate = subject;
                } else {
                    out += &self.name(seat);
                }
                i = after;
                continue;
            }
            if (conjugate || clause_you && line[i..].starts_with(" and ")) && bytes[i] == b' ' {
                let start = if conjugate { i + 1 } else { i + 5 };
                out += &line[i..start];
                let end = line[start..].find([' ', ',', ':', ';', ')']).map_or(line.len(), |e| start + e);
                let word = &line[start..end];
                match second_person(word) {
                    Some(verb) => out += &verb,
                    None if word == "themselves" => out += "yourself",
                    None => out += word,
                }
                clause_you = conjugate;
                conjugate = false;
                i = end;
                continue;
            }
            if matches!(bytes[i], b',' | b':' | b';') {
                clause_you = false;
            }
            if clause_you && line[i..].starts_with(" themselves") {
                out += " yourself";
                i += " themselves".len();
                continue;
            }
            if clause_you && line[i..].starts_with(" their ") {
                out += " your";
                i += " their".len();
                continue;
            }
            conjugate = false;
            let c = line[i..].chars().next().expect("within the line");
            out.push(c);
            i += c.len_utf8();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn your_own_seat_is_you_and_its_verbs_follow() {
        let words = SeatWords::of_seat(0);
        assert_eq!(words.line("p0 draws red 5"), "you draw red 5");
        assert_eq!(words.line("  p0 is skipped"), "  you are skipped");
        assert_eq!(words.line("p1 catches p0: p0 draws 2"), "p1 catches you: you draw 2");
        assert_eq!(words.line("p0's turn"), "your turn");
        assert_eq!(words.line("it is p1's turn, not p0's"), "it is p1's turn, not yours");
        assert_eq!(words.line("not p0's: p1's"), "not yours: p1's");
        assert_eq!(words.line("p0's, p1's and p2's cards"), "your, p1's and p2's cards");
        assert_eq!(words.line("p0 passes"), "you pass");
        assert_eq!(words.line("p0 holds no blue 9"), "you hold no blue 9");
        assert_eq!(words.line("p2, p0 and p1 are dealt 7"), "p2, you and p1 are dealt 7");
        assert_eq!(words.line("match over: p0 wins with 510 points"), "match over: you win with 510 points");
        assert_eq!(words.line("p1 gives p0 a card"), "p1 gives you a card");
        assert_eq!(words.line("p10 plays wild-draw4"), "p10 plays wild-draw4");
        assert_eq!(words.line("top p0x"), "top p0x");
        assert_eq!(words.line("  p0 goes out and scores 8"), "  you go out and score 8");
        assert_eq!(words.line("p0 cannot catch themselves"), "you cannot catch yourself");
        assert_eq!(
            words.line("p0 may take this action only when it is not their turn"),
            "you may take this action only when it is not your turn"
        );
        assert_eq!(
            words.line("p1 may take this action only on their turn"),
            "p1 may take this action only on their turn"
        );
        assert_eq!(words.line("move 2 ('p0 play red 6'): refused"), "move 2 ('p0 play red 6'): refused");
        assert_eq!(words.line("p0 plays red 5, p1 and p2 are skipped"), "you play red 5, p1 and p2 are skipped");
    }

    #[test]
    fn a_networked_table_names_its_players() {
        let words = SeatWords { viewer: Some(1), names: vec![Some("ann".into()), Some("bo".into()), None] };
        assert_eq!(words.line("p0 plays red 5"), "ann plays red 5");
        assert_eq!(words.line("p0's Power Card turns green"), "ann's Power Card turns green");
        assert_eq!(words.line("p2 catches p1"), "p2 catches you");
        assert_eq!(words.line("p1 carries on"), "you carry on");
    }
}
