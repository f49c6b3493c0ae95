//! Source files and positions: a YAML or script file's text and where it
//! came from (disk or built into the binary), and a problem's message at a
//! line and column the parser gave (never found by searching the text); and
//! the words of messages about what someone wrote (did you mean...). The
//! core never opens a file: loading (the `unolab-load` crate) reads them.

use std::fmt;
use std::path::PathBuf;

/// Of `candidates`, the one `word` is likely a misspelling of: one edit
/// away (two in a word of five letters or more), the nearest first.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|candidate| (strsim::damerau_levenshtein(word, candidate), candidate))
        .filter(|&(distance, _)| distance <= 1 || (distance == 2 && word.chars().count() >= 5))
        .min()
        .map(|(_, candidate)| candidate)
}

/// `: did you mean 'NAME'?` where `word` looks like a misspelling of one
/// of `candidates` (`closest`), else nothing.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(word, candidates).map_or_else(String::new, |name| format!("; did you mean '{name}'?"))
}

/// The first item of a list someone gave that repeats an earlier one.
pub fn first_repeat<T: PartialEq>(items: &[T]) -> Option<&T> {
    items.iter().enumerate().find(|&(i, item)| items[..i].contains(item)).map(|(_, item)| item)
}

/// Text with its control characters shown as escapes (`\u{1b}`), so that
/// what a file or a script says cannot drive the terminal.
pub fn without_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .map(|c| if c.is_control() { c.escape_unicode().to_string() } else { c.to_string() })
        .collect::<String>()
        .into()
}

/// A file's text and the name to show in messages.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Shown in messages: a path, or `builtin:variants/classic.yaml`.
    pub name: String,
    pub text: String,
    /// Where relative paths inside the file are resolved.
    pub origin: Origin,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    Disk(PathBuf),
    Builtin(String),
}

impl SourceFile {
    /// `name:line:column: message`, or `name: message` where no place is known.
    pub fn problem(&self, at: Option<Position>, message: impl fmt::Display) -> String {
        match at {
            Some(p) => format!("{}:{}:{}: {message}", self.name, p.line, p.column),
            None => format!("{}: {message}", self.name),
        }
    }

    /// The place a problem of this file (`problem`'s form) names; `None`
    /// for one that names no place, or another file.
    pub fn place_of(&self, problem: &str) -> Option<Position> {
        let rest = problem.strip_prefix(self.name.as_str())?.strip_prefix(':')?;
        let (line, rest) = rest.split_once(':')?;
        let (column, _) = rest.split_once(": ")?;
        Some(Position { line: line.parse().ok()?, column: column.parse().ok()? })
    }

    /// Problems of this file in the order of the places they name (those
    /// that name none first), as a reader goes through the file.
    pub fn sort_problems(&self, problems: &mut [String]) {
        problems.sort_by_key(|problem| self.place_of(problem).map(|p| (p.line, p.column)));
    }
}

/// A line and column (1-based) in a file; line 0 where the place is
/// unknown (`Default`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_misspelling_is_matched_to_the_word_meant_and_nothing_else_is() {
        let words = ["hooks", "hands", "color", "play"];
        assert_eq!(closest("hoks", words), Some("hooks"));
        assert_eq!(closest("colour", words), Some("color"));
        assert_eq!(closest("plya", words), Some("play"));
        assert_eq!(closest("xyz", words), None);
        // Two edits only in a longer word: "pa" is not "play".
        assert_eq!(closest("pa", words), None);
        assert_eq!(did_you_mean("hnads", words), "; did you mean 'hands'?");
        assert_eq!(did_you_mean("deck", words), "");
    }
}
