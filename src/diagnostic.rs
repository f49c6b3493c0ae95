//! Problems as people read them: a problem that names a place in a file
//! (`path:line:column: message`, as the core reports it) is shown with the
//! line it points at and a caret under the column (annotate-snippets), in
//! colour only on a terminal. The file is read again here, at the edge:
//! the core never reads files itself.

use std::collections::HashMap;
use std::path::Path;

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

use crate::loader::{Loader, Open};
use crate::source::SourceFile;

/// `problem`, and under it the source line it points at, if it points at
/// one that can be read (on disk, or built into the binary).
pub fn render(problem: &str, loader: &dyn Loader, color: bool) -> String {
    render_with(problem, &mut Files::new(loader), color)
}

fn render_with(problem: &str, files: &mut Files, color: bool) -> String {
    match snippet(problem, files, color) {
        Some(snippet) => format!("{problem}\n{snippet}"),
        None => problem.to_string(),
    }
}

/// Files read to show problems, each read once, with where each of its
/// lines starts (so that showing many problems of a file is linear in it).
struct Files<'a> {
    loader: &'a dyn Loader,
    read: HashMap<String, Option<(SourceFile, Vec<usize>)>>,
}

impl<'a> Files<'a> {
    fn new(loader: &'a dyn Loader) -> Files<'a> {
        Files { loader, read: HashMap::new() }
    }

    /// The file named, and the byte offset where each line starts.
    fn open(&mut self, name: &str) -> Option<&(SourceFile, Vec<usize>)> {
        let loader = self.loader;
        self.read
            .entry(name.to_string())
            .or_insert_with(|| {
                let file = match name.strip_prefix("builtin:") {
                    Some(path) => SourceFile::builtin(path),
                    None => SourceFile::read(loader, Path::new(name)).ok(),
                }?;
                let starts = std::iter::once(0).chain(file.text.match_indices('\n').map(|(i, _)| i + 1)).collect();
                Some((file, starts))
            })
            .as_ref()
    }
}

/// Every line of every problem after the first indented by `indent`, as a
/// list under a heading shows them.
pub fn render_all(problems: &[String], loader: &dyn Loader, color: bool, indent: &str) -> String {
    let mut files = Files::new(loader);
    problems
        .iter()
        .map(|p| {
            let shown = render_with(p, &mut files, color);
            shown.lines().map(|line| format!("{indent}{line}")).collect::<Vec<_>>().join("\n")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A message of several problems, one a line (as a file that cannot be
/// loaded reports them), each shown with its source line; every line after
/// the first indented by `indent`.
pub fn render_lines(message: &str, loader: &dyn Loader, color: bool, indent: &str) -> String {
    let problems: Vec<String> = message.lines().map(String::from).collect();
    render_all(&problems, loader, color, indent).trim_start().to_string()
}

/// The place a problem names: its file, line and column.
fn place(problem: &str) -> Option<(&str, usize, usize)> {
    // The first ":LINE:COLUMN: " after a file name (which may itself hold
    // a colon, as `builtin:variants/classic.yaml` does).
    let mut from = 0;
    while let Some(offset) = problem[from..].find(':') {
        let at = from + offset;
        let rest = &problem[at + 1..];
        let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
        let line_len = digits(rest);
        if at > 0 && line_len > 0 && rest[line_len..].starts_with(':') {
            let after_line = &rest[line_len + 1..];
            let column_len = digits(after_line);
            if column_len > 0 && after_line[column_len..].starts_with(": ") {
                let line = rest[..line_len].parse().ok()?;
                let column = after_line[..column_len].parse().ok()?;
                return Some((&problem[..at], line, column));
            }
        }
        from = at + 1;
    }
    None
}

fn snippet(problem: &str, files: &mut Files, color: bool) -> Option<String> {
    let (name, line, column) = place(problem)?;
    // The place may follow words about it (`... in rule (hook f): x.rhai:3:5:`):
    // then the file is what follows one of the spaces (a path may hold
    // spaces too), the longest name that can be read.
    let starts = std::iter::once(0).chain(name.match_indices(' ').map(|(i, _)| i + 1));
    let start = starts.into_iter().find(|&start| start < name.len() && files.open(&name[start..]).is_some())?;
    let (file, starts) = files.open(&name[start..])?;
    let start = *starts.get(line.checked_sub(1)?)?;
    let source_line = file.text[start..].lines().next()?;
    if source_line.len() > 200 {
        return None;
    }
    // Columns count characters; the span is in bytes within the line.
    let offset = source_line.char_indices().nth(column.saturating_sub(1)).map_or(source_line.len(), |(i, _)| i);
    let end = source_line[offset..].chars().next().map_or(offset, |c| offset + c.len_utf8());
    let report = &[Group::with_level(Level::ERROR)
        .element(Snippet::source(source_line).line_start(line).annotation(AnnotationKind::Primary.span(offset..end)))];
    let renderer = if color { Renderer::styled() } else { Renderer::plain() };
    Some(renderer.render(report))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_place_is_the_first_line_and_column_after_a_name() {
        assert_eq!(place("a.yaml:4:22: 'x': unknown"), Some(("a.yaml", 4, 22)));
        assert_eq!(place("builtin:variants/v.yaml:3:1: bad"), Some(("builtin:variants/v.yaml", 3, 1)));
        assert_eq!(place("no place: here 4:5"), None);
        assert_eq!(place("a.yaml: no line"), None);
    }

    #[test]
    fn a_built_in_file_is_shown_with_a_caret_under_the_column() {
        struct Nothing;
        impl Loader for Nothing {
            fn read(&self, _: &Path) -> Result<String, String> {
                Err("no files here".into())
            }
            fn exists(&self, _: &Path) -> bool {
                false
            }
        }
        let path = format!("variants/{}.yaml", crate::ruleset::default_variant().unwrap());
        let file = SourceFile::builtin(&path).unwrap();
        let (line, text) = file.text.lines().enumerate().find(|(_, l)| l.starts_with("hand_size:")).unwrap();
        let problem = format!("builtin:{path}:{}:12: too many", line + 1);
        let shown = render(&problem, &Nothing, false);
        let mut lines = shown.lines();
        assert_eq!(lines.next(), Some(problem.as_str()));
        let rest: Vec<&str> = lines.collect();
        assert!(rest.iter().any(|l| l.ends_with(text)), "{shown}");
        let caret = rest.iter().find(|l| l.trim_end().ends_with('^')).unwrap();
        let bar = rest.iter().find(|l| l.ends_with(text)).unwrap().find(text).unwrap();
        assert_eq!(caret.find('^').unwrap() - bar, 11, "{shown}");
        assert_eq!(render("a.yaml:1:1: gone", &Nothing, false), "a.yaml:1:1: gone");
    }
}
