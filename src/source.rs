//! Source files and positions: where a YAML or script file came from (disk
//! or built into the binary), how the files next to it are found, and how a
//! problem found after deserializing is pinned to a line and column for the
//! error message. Reading from disk goes through a `Loader` (the core never
//! touches the file system itself; `crate::loader` has the one on disk).

use std::fmt;
use std::path::{Path, PathBuf};

use crate::builtin;

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

/// Reads files for the core: variants, rules and their scripts.
pub trait Loader {
    /// The text of the file at `path`.
    fn read(&self, path: &Path) -> Result<String, String>;
    /// Is there a file at `path`?
    fn exists(&self, path: &Path) -> bool;
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
    /// Reads a file on disk through `loader`.
    pub fn read(loader: &dyn Loader, path: &Path) -> Result<SourceFile, String> {
        let text = loader.read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        Ok(SourceFile { name: path.display().to_string(), text, origin: Origin::Disk(path.to_path_buf()) })
    }

    /// A file built into the binary, by its path from the project root.
    pub fn builtin(path: &str) -> Option<SourceFile> {
        builtin::file(path).map(|text| SourceFile {
            name: format!("builtin:{path}"),
            text: text.to_string(),
            origin: Origin::Builtin(path.to_string()),
        })
    }

    /// Opens `relative` next to this file (on disk, or inside the binary).
    pub fn sibling(&self, loader: &dyn Loader, relative: &str) -> Result<SourceFile, String> {
        match &self.origin {
            Origin::Disk(path) => {
                let dir = path.parent().unwrap_or(Path::new("."));
                SourceFile::read(loader, &dir.join(relative))
            }
            Origin::Builtin(path) => {
                let joined = builtin::join(path, relative);
                SourceFile::builtin(&joined).ok_or_else(|| format!("builtin:{joined}: no such built-in file"))
            }
        }
    }

    /// The 1-based line and column of the first occurrence of `needle` as a
    /// YAML value (after `key:` or `- ` or inside a flow list), else anywhere.
    pub fn locate(&self, needle: &str) -> Option<Position> {
        if needle.is_empty() {
            return None;
        }
        let mut fallback = None;
        for (index, line) in self.text.lines().enumerate() {
            let code = line.split(" #").next().unwrap_or(line);
            let mut from = 0;
            while let Some(offset) = code[from..].find(needle) {
                let at = from + offset;
                let before = code[..at].trim_end_matches(['"', '\'']).trim_end();
                let after = code[at + needle.len()..].trim_start_matches(['"', '\'']);
                let bounded = (before.is_empty() || before.ends_with([':', '-', '[', ',', '{']))
                    && (after.trim().is_empty() || after.trim_start().starts_with([',', ']', '}', '#', ':']));
                let position = Position { line: index + 1, column: at + 1 };
                if bounded {
                    return Some(position);
                }
                fallback.get_or_insert(position);
                from = at + needle.len();
            }
        }
        fallback
    }

    /// `name:line:column: message`, or `name: message` where no place is known.
    pub fn problem(&self, at: Option<Position>, message: impl fmt::Display) -> String {
        match at {
            Some(p) => format!("{}:{}:{}: {message}", self.name, p.line, p.column),
            None => format!("{}: {message}", self.name),
        }
    }

    /// The place of the reference a loading problem is about: the first
    /// of `references` (a file's `variant:` and `rules:` entries, as
    /// written) that a problem names, else the first reference.
    pub fn place_of_reference(&self, references: &[&str], problems: &[String]) -> Option<Position> {
        let named = references.iter().find(|r| problems.iter().any(|p| p.contains(*r)));
        self.locate(named.or(references.first())?)
    }

    /// A problem about the value `needle`, located in the text.
    pub fn problem_at(&self, needle: &str, message: impl fmt::Display) -> String {
        self.problem(self.locate(needle), message)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
