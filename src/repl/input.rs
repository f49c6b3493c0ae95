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
    /// The names of the actions the rules declare (`act NAME`).
    pub actions: Vec<String>,
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

/// Reads a line of at most `limit` bytes into `buffer`, its end (`\n`)
/// included; a longer line is read to its end and not kept (`Ok(Some(false))`),
/// so no line takes more memory than `limit`. `Ok(None)` at the end of the
/// input.
pub fn read_line_within(
    reader: &mut impl BufRead,
    buffer: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<Option<bool>> {
    buffer.clear();
    let (mut read, mut kept) = (false, true);
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(read.then_some(kept));
        }
        read = true;
        let (length, ends) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (available.len(), false),
        };
        if kept && buffer.len() + length <= limit + 1 {
            buffer.extend_from_slice(&available[..length]);
        } else {
            kept = false;
            buffer.clear();
        }
        reader.consume(length);
        if ends {
            return Ok(Some(kept));
        }
    }
}

impl<R: BufRead> LineSource for Piped<R> {
    fn read_line(&mut self, _prompt: &str) -> std::io::Result<Line> {
        match read_line_within(&mut self.reader, &mut self.buffer, LINE_BYTES)? {
            None => return Ok(Line::End),
            Some(false) => return Ok(Line::Unreadable),
            Some(true) => {}
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
    /// Shared, so that it can change while a line is typed (a networked
    /// seat's hand changes while it waits for the others).
    pub vocabulary: Words,
    pub color: bool,
    /// File names, for `save` and `load`.
    files: rustyline::completion::FilenameCompleter,
    /// What the prompt shows now, where it is no longer what the line was
    /// asked with.
    shown_prompt: ShownPrompt,
}

/// The prompt a line being typed shows now, if not the one it was asked
/// with (`None`): a networked seat's question may be gone, its time up,
/// before the line is typed. Shown on the next redraw of the line (text
/// printed above it redraws it).
pub type ShownPrompt = std::sync::Arc<std::sync::Mutex<Option<String>>>;

/// `shown` in the room the prompt `asked` takes on the screen, aligned
/// right (the line editor places the cursor by the prompt it was asked
/// with); a bare `> ` where it does not fit.
fn fitted(shown: &str, asked: &str) -> String {
    use unicode_width::UnicodeWidthStr as _;
    let room = asked.width();
    let shown = if shown.width() <= room { shown } else { "> " };
    format!("{}{shown}", " ".repeat(room.saturating_sub(shown.width())))
}

impl ReplHelper {
    /// What may follow the command word `command`.
    fn arguments(&self, command: &str) -> Vec<String> {
        let Ok(info) = command_named(command) else { return Vec::new() };
        let v = &*self.vocabulary.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        match info.name {
            "play" => {
                let mut words = v.cards.clone();
                words.extend(v.keywords.iter().cloned());
                words.extend(v.colors.iter().cloned());
                words
            }
            "color" => v.colors.clone(),
            "catch" => v.seats.clone(),
            // After the action's name (`Completer::complete` completes it).
            "act" => {
                let mut words = v.cards.clone();
                words.push("target".into());
                words.extend(v.seats.iter().cloned());
                words
            }
            "help" => COMMANDS.iter().map(|c| c.name.to_string()).collect(),
            "auto" => crate::bot::BotKind::names().map(str::to_string).collect(),
            _ => Vec::new(),
        }
    }

    /// The names of the actions in play that start with `typed`, each
    /// completed with the space after it.
    fn action_names(&self, typed: &str) -> Vec<Pair> {
        let v = self.vocabulary.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let names = v.actions.iter().filter(|name| name.starts_with(typed));
        names.map(|name| Pair { display: name.clone(), replacement: format!("{name} ") }).collect()
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
            // A command word is completed with the space after it.
            let names = COMMANDS
                .iter()
                .filter(|c| c.name.starts_with(&lower))
                .map(|c| Pair { display: c.name.to_string(), replacement: format!("{} ", c.name) })
                .collect();
            return Ok((0, names));
        };
        // After the command: a whole card name may have spaces in it, so
        // candidates are matched against everything typed since the last
        // finished word that is not part of one.
        let command = &before[..space];
        let mut args_start = space + before[space..].len() - before[space..].trim_start().len();
        if command_named(command).is_ok_and(|c| c.name == "act") {
            let name = &before[args_start..];
            match name.find(char::is_whitespace) {
                // The action's name, completed with the space after it.
                None => return Ok((args_start, self.action_names(&name.to_ascii_lowercase()))),
                // Its card, target...: matched from after the name.
                Some(end) => args_start += end + name[end..].len() - name[end..].trim_start().len(),
            }
        }
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
    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(&'s self, prompt: &'p str, _default: bool) -> Cow<'b, str> {
        match &*self.shown_prompt.lock().unwrap_or_else(std::sync::PoisonError::into_inner) {
            Some(shown) => Cow::Owned(fitted(shown, prompt)),
            None => Cow::Borrowed(prompt),
        }
    }

    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.color { Cow::Owned(format!("\x1b[2m{hint}\x1b[0m")) } else { Cow::Borrowed(hint) }
    }
}

/// The words completion offers, as the line reader shares them.
pub type Words = std::sync::Arc<std::sync::Mutex<Vocabulary>>;

/// Where text that comes while a line may be being typed is shown.
pub type Printer = Box<dyn FnMut(String) + Send>;

/// A person at a terminal.
pub struct Terminal {
    editor: Editor<ReplHelper, FileHistory>,
    /// Where the line history is kept, while it can be (`None` once it
    /// could not be read or written: one warning, then no more tries).
    history: Option<PathBuf>,
    /// Lines typed since the history was last written.
    unsaved: Vec<String>,
}

/// Where the line history is kept: `UNOLAB_HISTORY`, else
/// `unolab/history.txt` in the user's data directory.
fn history_path() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("UNOLAB_HISTORY") {
        return (!path.is_empty()).then(|| PathBuf::from(path));
    }
    Some(dirs::data_dir()?.join("unolab").join("history.txt"))
}

/// The lines of a history file, oldest first, in rustyline's format: a
/// first line `#V2`, then a line per entry with `\n` and `\\` escaped (or, in
/// the older format, a line per entry as it is). Lines longer than a line
/// of input may be (`limits::REPL_LINE`) are left out.
fn parse_history(text: &str) -> Vec<String> {
    let mut lines = text.lines();
    let escaped = text.lines().next() == Some("#V2");
    if escaped {
        lines.next();
    }
    let unescape = |line: &str| {
        let mut out = String::with_capacity(line.len());
        let mut chars = line.chars();
        while let Some(c) = chars.next() {
            match (c, escaped) {
                ('\\', true) => match chars.next() {
                    Some('n') => out.push('\n'),
                    Some(other) => out.push(other),
                    None => {}
                },
                _ => out.push(c),
            }
        }
        out
    };
    // Only the newest lines are kept, so only they are made: from the end.
    let mut entries: Vec<String> = lines
        .rev()
        .filter(|line| !line.is_empty())
        .map(unescape)
        .filter(|entry| entry.chars().count() <= crate::limits::REPL_LINE)
        .take(crate::limits::HISTORY_LINES)
        .collect();
    entries.reverse();
    entries
}

/// A history file's text: rustyline's `#V2` format, so that either reads it.
fn history_text(entries: &[String]) -> String {
    let mut text = String::from("#V2\n");
    for entry in &entries[entries.len().saturating_sub(crate::limits::HISTORY_LINES)..] {
        text += &entry.replace('\\', "\\\\").replace('\n', "\\n");
        text.push('\n');
    }
    text
}

/// The history at `path`: `Ok(None)` where there is none yet. Only a
/// regular file is read, and only up to `limits::FILE_BYTES` (a device, a
/// pipe or a huge file is an error at once, not read until memory runs out
/// or a writer comes).
fn read_history(path: &std::path::Path) -> Result<Option<Vec<String>>, String> {
    match crate::loader::read_text(path) {
        Ok(text) => Ok(Some(parse_history(&text))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// A warning on stderr, between two prompts.
fn warn(text: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr().lock(), "warning: {text}");
}

impl Terminal {
    pub fn new(color: bool) -> Result<Terminal, String> {
        let config = rustyline::Config::builder()
            .auto_add_history(true)
            .max_history_size(crate::limits::HISTORY_LINES)
            .map_err(|e| e.to_string())?
            .completion_type(rustyline::CompletionType::List)
            // The helper draws the prompt (which may change while a line
            // is typed) and colours hints only where colour is wanted: the
            // line editor must not leave it out under NO_COLOR.
            .color_mode(rustyline::ColorMode::Forced)
            .build();
        let mut editor = Editor::with_config(config).map_err(|e| format!("the terminal: {e}"))?;
        let files = rustyline::completion::FilenameCompleter::new();
        editor.set_helper(Some(ReplHelper {
            vocabulary: Words::default(),
            color,
            files,
            shown_prompt: ShownPrompt::default(),
        }));
        let mut history = history_path();
        if let Some(path) = &history {
            // A missing history is a first session; one that cannot be read
            // is left alone, neither read nor written.
            match read_history(path) {
                Ok(lines) => {
                    for line in lines.unwrap_or_default() {
                        let _ = editor.add_history_entry(line);
                    }
                }
                Err(e) => {
                    warn(&format!("line history {e}; not used this session"));
                    history = None;
                }
            }
        }
        Ok(Terminal { editor, history, unsaved: Vec::new() })
    }

    /// A printer that shows text above the line being typed (and the
    /// line again below it), or as it is between two lines; `None` where
    /// the terminal cannot.
    pub fn printer(&mut self) -> Option<Printer> {
        use rustyline::ExternalPrinter as _;
        let mut printer = self.editor.create_external_printer().ok()?;
        Some(Box::new(move |text: String| {
            let _ = printer.print(text);
        }))
    }

    /// The words completion offers, to change them while a line is typed.
    pub fn words(&self) -> Option<Words> {
        self.editor.helper().map(|helper| helper.vocabulary.clone())
    }

    /// What the prompt of the line being typed shows, to change it.
    pub fn shown_prompt(&self) -> Option<ShownPrompt> {
        self.editor.helper().map(|helper| helper.shown_prompt.clone())
    }

    /// Adds the lines typed since to the history file as it is now (another
    /// session may have added to it), written whole. A history that cannot
    /// be read or written any more is warned of once, and left alone.
    fn save_history(&mut self) {
        let Some(path) = &self.history else { return };
        let saved = read_history(path).and_then(|lines| {
            let mut lines = lines.unwrap_or_default();
            lines.append(&mut self.unsaved);
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            }
            crate::output::write(path, crate::output::PRIVATE_FILE, history_text(&lines).as_bytes())
        });
        // History is a convenience: a read-only home does not stop play.
        if let Err(e) = saved {
            warn(&format!("line history {e}; not kept this session"));
            self.history = None;
        }
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
        if let Line::Text(text) = &line
            && !text.trim().is_empty()
            && text.chars().count() <= crate::limits::REPL_LINE
        {
            self.unsaved.push(text.clone());
            self.save_history();
        }
        Ok(line)
    }

    fn interactive(&self) -> bool {
        true
    }

    fn set_vocabulary(&mut self, vocabulary: Vocabulary) {
        if let Some(words) = self.words() {
            *words.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = vocabulary;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_read_within_its_bound_and_a_longer_one_is_dropped_whole() {
        let text = format!("play red 5\n{}\ndraw\r\nlast", "x".repeat(100_000));
        // A reader that gives a few bytes at a time, as a pipe may.
        let mut reader = std::io::BufReader::with_capacity(7, text.as_bytes());
        let mut buffer = Vec::new();
        let mut lines = Vec::new();
        while let Some(kept) = read_line_within(&mut reader, &mut buffer, 16).unwrap() {
            assert!(buffer.capacity() < 64, "{}", buffer.capacity());
            lines.push(kept.then(|| String::from_utf8(buffer.clone()).unwrap()));
        }
        assert_eq!(lines, [Some("play red 5\n".into()), None, Some("draw\r\n".into()), Some("last".into())]);
        // A line of exactly the bound, its end not counted.
        let mut exact = "0123456789abcdef\n".as_bytes();
        assert_eq!(read_line_within(&mut exact, &mut buffer, 16).unwrap(), Some(true));
    }

    #[test]
    fn the_history_reads_back_as_written_and_as_rustyline_writes_it() {
        let entries = vec!["p r5".to_string(), r"save C:\games\a.yaml".to_string(), "two\nlines".to_string()];
        let text = history_text(&entries);
        assert_eq!(text, "#V2\np r5\nsave C:\\\\games\\\\a.yaml\ntwo\\nlines\n");
        assert_eq!(parse_history(&text), entries);
        // The older format: a line per entry, nothing escaped.
        assert_eq!(parse_history("p r5\n\ndraw\n"), ["p r5", "draw"]);
        // The newest lines are kept, and no line longer than input may be.
        let many: Vec<String> = (0..crate::limits::HISTORY_LINES + 5).map(|i| format!("log {i}")).collect();
        let kept = parse_history(&history_text(&many));
        assert_eq!(kept.len(), crate::limits::HISTORY_LINES);
        assert_eq!(kept.last().unwrap(), &format!("log {}", crate::limits::HISTORY_LINES + 4));
        let long = "x".repeat(crate::limits::REPL_LINE + 1);
        assert_eq!(parse_history(&format!("#V2\n{long}\np\n")), ["p"]);
    }

    /// A history that is not a regular file of bounded size is not read:
    /// an error at once (a pipe would wait for a writer for ever, a device
    /// would be read until memory runs out).
    #[test]
    fn a_history_that_is_not_a_bounded_regular_file_is_refused_at_once() {
        let scratch = tempfile::tempdir().unwrap();
        assert_eq!(read_history(&scratch.path().join("none.txt")).unwrap(), None);
        for device in ["/dev/zero", "/dev/full"] {
            if std::path::Path::new(device).exists() {
                let e = read_history(std::path::Path::new(device)).unwrap_err();
                assert!(e.contains("not a regular file"), "{e}");
            }
        }
        let fifo = scratch.path().join("fifo");
        if std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()) {
            assert!(read_history(&fifo).unwrap_err().contains("not a regular file"));
        }
        let big = scratch.path().join("big.txt");
        std::fs::write(&big, "p r5\n".repeat(crate::limits::FILE_BYTES as usize / 5 + 1)).unwrap();
        assert!(read_history(&big).unwrap_err().contains("larger than"));
    }
}
