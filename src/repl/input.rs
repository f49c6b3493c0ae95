//! Where the REPL's lines come from: a terminal, through rustyline (line
//! editing, history kept in a file, Tab completion of commands, colours,
//! cards and seats, hints of a command's arguments, Ctrl-L, Ctrl-C, Ctrl-D),
//! or any other reader, line by line with no prompt.

use std::borrow::Cow;
use std::io::BufRead;
use std::path::PathBuf;

use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::FileHistory;
use rustyline::{Context, Editor, Helper, Validator};

use super::command::{COMMANDS, command_named};

/// One line of input.
pub enum Line {
    Text(String),
    /// Ctrl-C: the line was cancelled.
    Cancelled,
    /// The line was not text (not UTF-8).
    Unreadable,
    /// Ctrl-D or the end of the input.
    End,
}

/// The words that may come next, for completion: refreshed before each
/// prompt from what seat 0 sees.
#[derive(Debug, Clone, Default)]
pub struct Vocabulary {
    /// Card names in the hand (faces in play).
    pub cards: Vec<String>,
    /// The words a play may add (`uno`, and `flex`, `target` where a card
    /// takes them).
    pub keywords: Vec<String>,
    pub colors: Vec<String>,
    pub seats: Vec<String>,
}

pub trait LineSource {
    fn read_line(&mut self, prompt: &str) -> std::io::Result<Line>;
    /// Prompts are shown (a person is typing).
    fn interactive(&self) -> bool;
    fn set_vocabulary(&mut self, _vocabulary: Vocabulary) {}
}

/// Lines from a reader, with no prompts: scripted games and tests.
pub struct Piped<R> {
    reader: R,
    buffer: Vec<u8>,
}

impl<R: BufRead> Piped<R> {
    pub fn new(reader: R) -> Piped<R> {
        Piped { reader, buffer: Vec::new() }
    }
}

/// Bytes of a line read from a pipe: longer lines are refused whole (a
/// line of `limits::REPL_LINE` characters takes at most four bytes each).
const LINE_BYTES: usize = crate::limits::REPL_LINE * 4;

impl<R: BufRead> LineSource for Piped<R> {
    fn read_line(&mut self, _prompt: &str) -> std::io::Result<Line> {
        self.buffer.clear();
        if self.reader.read_until(b'\n', &mut self.buffer)? == 0 {
            return Ok(Line::End);
        }
        if self.buffer.len() > LINE_BYTES {
            return Ok(Line::Unreadable);
        }
        Ok(match std::str::from_utf8(&self.buffer) {
            Ok(text) => Line::Text(text.trim_end_matches(['\n', '\r']).to_string()),
            Err(_) => Line::Unreadable,
        })
    }

    fn interactive(&self) -> bool {
        false
    }
}

/// Completion and hints from the vocabulary.
#[derive(Helper, Validator)]
pub struct ReplHelper {
    pub vocabulary: Vocabulary,
    pub color: bool,
    /// File names, for `save` and `load`.
    files: rustyline::completion::FilenameCompleter,
}

impl ReplHelper {
    /// What may follow the command word `command`.
    fn arguments(&self, command: &str) -> Vec<String> {
        let Ok(info) = command_named(command) else { return Vec::new() };
        let v = &self.vocabulary;
        match info.name {
            "play" => {
                let mut words = v.cards.clone();
                words.extend(v.keywords.iter().cloned());
                words.extend(v.colors.iter().cloned());
                words
            }
            "color" => v.colors.clone(),
            "catch" => v.seats.clone(),
            "help" => COMMANDS.iter().map(|c| c.name.to_string()).collect(),
            _ => Vec::new(),
        }
    }
}

impl Completer for ReplHelper {
    type Candidate = Pair;

    fn complete(&self, line: &str, pos: usize, context: &Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..pos];
        if let Some((command, _)) = before.split_once(char::is_whitespace)
            && command_named(command).is_ok_and(|c| c.name == "save" || c.name == "load")
        {
            return self.files.complete(line, pos, context);
        }
        let pair = |text: &str| Pair { display: text.to_string(), replacement: text.to_string() };
        let Some(space) = before.find(char::is_whitespace) else {
            let lower = before.to_ascii_lowercase();
            let names = COMMANDS.iter().filter(|c| c.name.starts_with(&lower)).map(|c| pair(c.name)).collect();
            return Ok((0, names));
        };
        // After the command: a whole card name may have spaces in it, so
        // candidates are matched against everything typed since the last
        // finished word that is not part of one.
        let command = &before[..space];
        let args_start = space + before[space..].len() - before[space..].trim_start().len();
        let typed = before[args_start..].to_ascii_lowercase();
        let candidates = self.arguments(command);
        let phrase: Vec<Pair> = candidates.iter().filter(|c| c.starts_with(&typed)).map(|c| pair(c)).collect();
        if !phrase.is_empty() {
            return Ok((args_start, phrase));
        }
        let word_start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let word = before[word_start..].to_ascii_lowercase();
        let words = candidates.iter().filter(|c| c.starts_with(&word) && !c.contains(' ')).map(|c| pair(c)).collect();
        Ok((word_start, words))
    }
}

impl Hinter for ReplHelper {
    type Hint = String;

    /// The arguments a command takes, once its name is typed.
    fn hint(&self, line: &str, pos: usize, _: &Context<'_>) -> Option<String> {
        if pos < line.len() {
            return None;
        }
        let word = line.strip_suffix(' ')?;
        if word.contains(' ') {
            return None;
        }
        let info = command_named(word).ok()?;
        let args = info.usage.split_once(' ')?.1;
        Some(args.to_string())
    }
}

impl Highlighter for ReplHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.color { Cow::Owned(format!("\x1b[2m{hint}\x1b[0m")) } else { Cow::Borrowed(hint) }
    }
}

/// A person at a terminal.
pub struct Terminal {
    editor: Editor<ReplHelper, FileHistory>,
    history: Option<PathBuf>,
}

/// Where the line history is kept: `UNOLAB_HISTORY`, else
/// `unolab/history.txt` in the user's data directory.
fn history_path() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("UNOLAB_HISTORY") {
        return (!path.is_empty()).then(|| PathBuf::from(path));
    }
    Some(dirs::data_dir()?.join("unolab").join("history.txt"))
}

impl Terminal {
    pub fn new(color: bool) -> Result<Terminal, String> {
        let config = rustyline::Config::builder()
            .auto_add_history(true)
            .max_history_size(1000)
            .map_err(|e| e.to_string())?
            .completion_type(rustyline::CompletionType::List)
            .build();
        let mut editor = Editor::with_config(config).map_err(|e| format!("the terminal: {e}"))?;
        let files = rustyline::completion::FilenameCompleter::new();
        editor.set_helper(Some(ReplHelper { vocabulary: Vocabulary::default(), color, files }));
        let history = history_path();
        if let Some(path) = &history {
            // A missing history is a first session.
            let _ = editor.load_history(path);
        }
        Ok(Terminal { editor, history })
    }
}

impl LineSource for Terminal {
    fn read_line(&mut self, prompt: &str) -> std::io::Result<Line> {
        let line = match self.editor.readline(prompt) {
            Ok(text) => Line::Text(text),
            Err(ReadlineError::Interrupted) => Line::Cancelled,
            Err(ReadlineError::Eof) => Line::End,
            Err(ReadlineError::Io(e)) => return Err(e),
            Err(e) => return Err(std::io::Error::other(e.to_string())),
        };
        if let (Line::Text(_), Some(path)) = (&line, &self.history) {
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            // History is a convenience: a read-only home does not stop play.
            let _ = self.editor.append_history(path);
        }
        Ok(line)
    }

    fn interactive(&self) -> bool {
        true
    }

    fn set_vocabulary(&mut self, vocabulary: Vocabulary) {
        if let Some(helper) = self.editor.helper_mut() {
            helper.vocabulary = vocabulary;
        }
    }
}
