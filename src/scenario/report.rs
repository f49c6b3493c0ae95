//! Running scenario files and folders: collecting the files, one PASS or
//! FAIL line per scenario (an error line for a file that cannot be read),
//! and the totals.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::scenario::{Outcome, Scenario};

/// The scenario files under the given files and folders: folders
/// recursively, every `*.yaml` / `*.yml` (scenarios.md), but for the files
/// that are plainly something else, which are named with what they are:
/// snapshot specs (`*.snapshots.yaml`) and variants or house rules (a
/// `description`, `deck` or `hooks` and no `steps`), as `unolab new` lays
/// them out beside their scenarios. A file given by name is always run.
pub fn collect(paths: &[PathBuf]) -> Result<(Vec<PathBuf>, Vec<String>), String> {
    let mut skipped = Vec::new();
    let files = collect_where(paths, |path| {
        if !matches!(path.extension().and_then(|e| e.to_str()), Some("yaml" | "yml")) {
            return false;
        }
        let what = if path.to_string_lossy().ends_with(crate::scenario::SNAPSHOT_SPEC_SUFFIX) {
            Some("a snapshot spec (unolab snapshot runs it)")
        } else if is_layer(path) {
            Some("a variant or house rule (unolab check checks it)")
        } else {
            None
        };
        if let Some(what) = what {
            skipped.push(format!("skipped {}: {what}", path.display()));
        }
        what.is_none()
    })?;
    Ok((files, skipped))
}

/// Is the file at `path` a variant or a house rule rather than a scenario:
/// a map with a `description`, `deck` or `hooks` and no `steps`? A file
/// that cannot be read or parsed is not: it is run, and its error told.
fn is_layer(path: &Path) -> bool {
    let Ok(file) = <crate::source::SourceFile as crate::loader::Open>::read(&crate::loader::Disk, path) else {
        return false;
    };
    let Ok(yaml) = crate::yaml::from_file::<crate::yaml::Yaml>(&file) else { return false };
    yaml.as_mapping().is_some()
        && yaml.get("steps").is_none()
        && ["description", "deck", "hooks"].iter().any(|key| yaml.get(key).is_some())
}

/// The files given, and the files under the folders given that `wanted`
/// picks, in name order.
pub fn collect_where(paths: &[PathBuf], mut wanted: impl FnMut(&Path) -> bool) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            walk(path, &mut wanted, &mut files).map_err(|e| format!("{}: {e}", path.display()))?;
        } else if path.exists() {
            files.push(path.clone());
        } else {
            return Err(format!("{}: no such file or folder", path.display()));
        }
    }
    Ok(files)
}

fn walk(dir: &Path, wanted: &mut dyn FnMut(&Path) -> bool, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?.map(|e| e.map(|e| e.path())).collect::<Result<_, _>>()?;
    entries.sort();
    for path in entries {
        // A link to a folder is not followed: a link back up would be a
        // loop without end.
        let linked = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
        if path.is_dir() && !linked {
            walk(&path, wanted, files)?;
        } else if path.is_dir() {
            continue;
        } else if wanted(&path) {
            files.push(path);
        }
    }
    Ok(())
}

/// Totals of a run of scenario files, with the report lines.
#[derive(Debug, Default)]
pub struct Report {
    pub passed: usize,
    pub failed: usize,
    pub bad_input: usize,
    pub text: String,
}

/// Runs files; each gets a PASS or FAIL line, unreadable ones an error line.
/// `verbose`: a failing scenario's game log follows its line (events, and
/// what scripts printed). `trace`: every scenario's steps follow its line,
/// each with the hook calls it made among the events (`Scenario::run_traced`).
pub fn run_files(files: &[PathBuf], verbose: bool, trace: bool) -> Report {
    let mut report = Report::default();
    for path in files {
        match Scenario::load(path) {
            Err(e) => {
                report.bad_input += 1;
                let shown = crate::diagnostic::render_lines(&e, &crate::loader::Disk, false, "  ");
                let _ = writeln!(report.text, "ERROR {shown}");
            }
            Ok(scenario) => {
                // `<file>: <name>`, or the file alone for a scenario without a name.
                let title = match scenario.name.as_str() {
                    "" => scenario.file.clone(),
                    name => format!("{}: {name}", scenario.file),
                };
                let (outcome, log) = if trace { scenario.run_traced() } else { scenario.run_logged() };
                match outcome {
                    Outcome::Pass => {
                        report.passed += 1;
                        let _ = writeln!(report.text, "PASS {title}");
                        if trace {
                            told(&mut report.text, &log);
                        }
                    }
                    Outcome::Fail(why) => {
                        report.failed += 1;
                        // A script error in it is shown with its line.
                        let failed = format!("FAIL {title}: {why}");
                        let _ = writeln!(
                            report.text,
                            "{}",
                            crate::diagnostic::render(&failed, &crate::loader::Disk, false)
                        );
                        if trace {
                            told(&mut report.text, &log);
                        } else if verbose {
                            let _ = writeln!(report.text, "  the game so far:");
                            for line in log {
                                let _ = writeln!(report.text, "    {line}");
                            }
                        }
                    }
                }
            }
        }
    }
    let _ = writeln!(report.text, "{} passed, {} failed", report.passed, report.failed + report.bad_input);
    report
}

/// A traced scenario's steps, under its line.
fn told(text: &mut String, lines: &[String]) {
    for line in lines {
        let _ = writeln!(text, "  {line}");
    }
}
