//! Snapshot tests for authors: a spec file (`NAME.snapshots.yaml`) lists
//! seeded bot games (a variant, house rules, option settings, player counts
//! and seeds); each game's transcript is kept in a `.snap` file beside the
//! spec, in insta's format (a YAML header between `---` lines, then the
//! body), so `cargo insta review` works on them too. A new or changed
//! transcript is written as a pending `.snap.new` next to it and shown as a
//! diff; accepting it makes it the `.snap`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;

use crate::bot::BotKind;
use crate::loader::{Disk, Loader, Open};
use crate::ruleset::LoadRequest;
use crate::sim::Engine;
use crate::source::{Position, SourceFile};
use crate::variant::Variant;
use crate::yaml::{Placed, Yaml};

/// What names a snapshot spec file.
pub use crate::scenario::SNAPSHOT_SPEC_SUFFIX as SPEC_SUFFIX;

/// A spec file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpec {
    /// What the games show, for the reader.
    #[serde(default)]
    description: Option<String>,
    variant: Placed<String>,
    #[serde(default)]
    rules: Vec<Placed<String>>,
    #[serde(default)]
    options: BTreeMap<Placed<String>, Yaml>,
    /// One player count or several: every seed is played at each.
    players: Option<Yaml>,
    seeds: Placed<Vec<Placed<u64>>>,
    /// The bots' kind (default random).
    bot: Option<Placed<String>>,
}

/// A spec file read and checked: the games it asks for.
pub struct Spec {
    raw: RawSpec,
    source: SourceFile,
    variant: Arc<Variant>,
    /// The table sizes, each with its place in the file.
    players: Vec<(usize, Option<Position>)>,
    bot: BotKind,
}

/// What became of one game's transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The same as its `.snap`.
    Same,
    /// No `.snap` yet.
    New,
    /// Different from its `.snap`: the diff, old to new.
    Changed(String),
    /// The game could not be played: why.
    Failed(String),
}

/// One game of a spec and how it compared.
#[derive(Debug, Clone)]
pub struct GameResult {
    /// The `.snap` file of the game.
    pub snap: PathBuf,
    pub verdict: Verdict,
}

/// Whether differences are kept pending or accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// A new or changed transcript is written as a pending `.snap.new`.
    Review,
    /// A new or changed transcript becomes the `.snap`.
    Accept,
}

/// Every spec file under the given files and folders (folders recursively,
/// files named `*.snapshots.yaml`).
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    crate::scenario::collect_where(paths, is_spec)
}

/// Is this a snapshot spec file (by its name)?
fn is_spec(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(SPEC_SUFFIX) && n.len() > SPEC_SUFFIX.len())
}

/// Plays the games of one spec file and compares each transcript with its
/// `.snap`. `Err`: the spec itself is bad input.
pub fn run_spec(path: &Path, mode: Mode) -> Result<SpecResult, String> {
    run_spec_with(path, mode, Engine::default())
}

/// `run_spec`, the engine run as `engine` says (the memo off, the move
/// generator's fast paths proven: the same games).
pub fn run_spec_with(path: &Path, mode: Mode, engine: Engine) -> Result<SpecResult, String> {
    let spec = Spec::parse(&Disk, SourceFile::read(&Disk, path)?, path)?;
    let (raw, source, bot) = (&spec.raw, &spec.source, spec.bot);
    let request = LoadRequest {
        variant: raw.variant.value.clone(),
        rules: raw.rules.iter().map(|r| r.value.clone()).collect(),
        settings: raw.options.iter().map(|(k, v)| (k.value.clone(), crate::scenario::setting(v))).collect(),
    };
    let stem = spec_stem(path);
    let dir = path.parent().unwrap_or(Path::new("."));
    let what = request.arguments();
    let mut results = Vec::new();
    let mut played = Vec::new();
    for n in spec.tables() {
        for seed in spec.seeds() {
            let snap = dir.join(format!("{stem}@{n}p-seed{seed}.snap"));
            let verdict = match spec.transcript(n, seed, engine) {
                Ok(body) => {
                    let description = format!("{what}, {n} players, seed {seed}, {bot} bots");
                    let file = SnapFile { source: source.name.clone(), description, body };
                    let verdict = compare(&snap, &file, mode)?;
                    played.push((n, seed, file.body));
                    verdict
                }
                Err(e) => Verdict::Failed(e),
            };
            results.push(GameResult { snap, verdict });
        }
    }
    // A rule whose games play the same without it is not tested by them.
    let mut untested = Vec::new();
    for (index, rule) in raw.rules.iter().enumerate() {
        let others: Vec<Placed<String>> =
            raw.rules.iter().enumerate().filter(|&(i, _)| i != index).map(|(_, r)| r.clone()).collect();
        if !played.is_empty() && plays_the_same_without(source, path, raw, &others, &played, bot) {
            untested.push(rule.value.clone());
        }
    }
    Ok(SpecResult { description: raw.description.clone().unwrap_or_default(), games: results, untested })
}

impl Spec {
    /// Reads a spec read from `path` (what it names loaded through
    /// `loader`): its variant loads, its bot, table sizes and seeds are
    /// known, each once. `Err`: the spec is bad input, at its place.
    pub fn parse(loader: &dyn Loader, source: SourceFile, path: &Path) -> Result<Spec, String> {
        let raw: RawSpec = crate::yaml::from_file(&source)?;
        let variant = crate::scenario::load_named(loader, &source, path, &raw.variant, &raw.rules, &raw.options)?;
        let bot = match &raw.bot {
            None => BotKind::Random,
            Some(name) => BotKind::read(name).map_err(|e| source.problem(name.position(), e))?,
        };
        let players = match &raw.players {
            None => vec![(variant.table_sizes().find(|&n| n >= 4).unwrap_or(variant.min_players), None)],
            Some(node) => {
                let count = |n: &Yaml| n.as_u64().and_then(|c| usize::try_from(c).ok()).map(|c| (c, n.position()));
                let counts = match node.as_sequence() {
                    Some(items) => items.iter().map(count).collect::<Option<Vec<_>>>(),
                    None => count(node).map(|n| vec![n]),
                };
                counts.ok_or_else(|| {
                    source.problem(node.position(), format!("players: '{node}' is not a number or a list of numbers"))
                })?
            }
        };
        for &(n, at) in &players {
            variant.seats(n).map_err(|e| source.problem(at, e))?;
        }
        let players_at = raw.players.as_ref().and_then(Yaml::position);
        if raw.seeds.is_empty() || players.is_empty() {
            let at = if raw.seeds.is_empty() { raw.seeds.position() } else { players_at };
            return Err(source.problem(at, "list at least one seed and one player count"));
        }
        // Each game is one snapshot: a repeat would play and write it again.
        if let Some(seed) = crate::source::first_repeat(&raw.seeds.value) {
            return Err(source.problem(seed.position(), format!("seeds lists {seed} twice")));
        }
        let tables: Vec<usize> = players.iter().map(|&(n, _)| n).collect();
        if let Some(n) = crate::source::first_repeat(&tables) {
            let at = players.iter().rev().find(|(m, _)| m == n).and_then(|&(_, at)| at);
            return Err(source.problem(at, format!("players lists {n} twice")));
        }
        Ok(Spec { raw, source, variant, players, bot })
    }

    /// The table sizes, in the order written.
    pub fn tables(&self) -> impl Iterator<Item = usize> + '_ {
        self.players.iter().map(|&(n, _)| n)
    }

    /// The seeds, in the order written.
    pub fn seeds(&self) -> impl Iterator<Item = u64> + '_ {
        self.raw.seeds.iter().map(|seed| seed.value)
    }

    /// The transcript of the game of `players` and `seed`, or why it could
    /// not be played.
    pub fn transcript(&self, players: usize, seed: u64, engine: Engine) -> Result<String, String> {
        crate::sim::transcript_with(self.variant.clone(), players, seed, self.bot, engine)
    }
}

/// Do the games `played` (players, seed, transcript) play the same with
/// only the rules `others` (and the settings those still take)? False where
/// that cannot be loaded or played.
fn plays_the_same_without(
    source: &SourceFile,
    path: &Path,
    raw: &RawSpec,
    others: &[Placed<String>],
    played: &[(usize, u64, String)],
    bot: BotKind,
) -> bool {
    let load = |options: &BTreeMap<Placed<String>, Yaml>| {
        crate::scenario::load_named(&Disk, source, path, &raw.variant, others, options)
    };
    let Ok(without) = load(&BTreeMap::new()) else { return false };
    let kept: BTreeMap<Placed<String>, Yaml> = raw
        .options
        .iter()
        .filter(|(name, _)| without.options.contains_key(name.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let Ok(without) = (if kept.is_empty() { Ok(without) } else { load(&kept) }) else { return false };
    played.iter().all(|(n, seed, body)| {
        crate::sim::transcript(without.clone(), *n, *seed, bot).is_ok_and(|other| other == *body)
    })
}

/// The games of one spec file.
#[derive(Debug, Clone)]
pub struct SpecResult {
    /// The spec's `description:`.
    pub description: String,
    pub games: Vec<GameResult>,
    /// The spec's rules whose games play the same without them: the
    /// snapshots do not test them.
    pub untested: Vec<String>,
}

/// The name a spec's `.snap` files start with: `my-rule` for
/// `my-rule.snapshots.yaml`.
fn spec_stem(path: &Path) -> String {
    let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    name.strip_suffix(SPEC_SUFFIX).unwrap_or(&name).to_string()
}

/// A `.snap` file: the header insta writes, and the body.
struct SnapFile {
    /// The spec the game comes from.
    source: String,
    /// The game in words.
    description: String,
    body: String,
}

impl SnapFile {
    /// insta's format: the header is YAML between `---` lines (the values
    /// as JSON strings, which YAML reads as they are).
    fn render(&self) -> String {
        let quote = |s: &str| serde_json::to_string(s).unwrap_or_default();
        format!(
            "---\nsource: {}\ndescription: {}\nexpression: transcript\n---\n{}\n",
            quote(&self.source),
            quote(&self.description),
            self.body.trim_end_matches('\n')
        )
    }
}

/// The body of a `.snap` file's text: what follows the header.
fn snap_body(text: &str) -> &str {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(rest) = text.strip_prefix("---\n").or_else(|| text.strip_prefix("---\r\n")) else {
        return text;
    };
    match rest.find("\n---\n") {
        Some(end) => &rest[end + 5..],
        None => rest.strip_prefix("---\n").unwrap_or(""),
    }
}

/// Compares a transcript with its `.snap`, writing the pending or accepted
/// file as `mode` says. Writing errors are errors of the spec's run.
fn compare(snap: &Path, new: &SnapFile, mode: Mode) -> Result<Verdict, String> {
    let pending = pending_path(snap);
    let body = new.body.trim_end_matches('\n');
    let old = match crate::loader::read_text(snap) {
        Ok(text) => Some(snap_body(&text.replace("\r\n", "\n")).trim_end_matches('\n').to_string()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(format!("{}: cannot read: {e}", snap.display())),
    };
    let verdict = match &old {
        Some(old) if old == body => Verdict::Same,
        Some(old) => Verdict::Changed(diff(old, body)),
        None => Verdict::New,
    };
    // Whole, and only in the spec's folder: a link there is not written
    // through, a pipe is not opened.
    let write = |path: &Path, text: &str| crate::output::write(path, crate::output::FOLDER_FILE, text.as_bytes());
    let remove_pending = || match std::fs::remove_file(&pending) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(format!("{}: {e}", pending.display())),
        _ => Ok(()),
    };
    match (&verdict, mode) {
        (Verdict::Same, _) => remove_pending()?,
        (_, Mode::Accept) => {
            write(snap, &new.render())?;
            remove_pending()?;
        }
        (_, Mode::Review) => write(&pending, &new.render())?,
    }
    Ok(verdict)
}

/// Where the pending version of a `.snap` goes (insta's name for it).
pub fn pending_path(snap: &Path) -> PathBuf {
    let mut name = snap.as_os_str().to_owned();
    name.push(".new");
    PathBuf::from(name)
}

/// A unified diff of two transcripts, three lines of context.
fn diff(old: &str, new: &str) -> String {
    let old = format!("{old}\n");
    let new = format!("{new}\n");
    similar::TextDiff::from_lines(&old, &new).unified_diff().context_radius(3).header("old", "new").to_string()
}

/// Totals of a run over spec files, with the report lines.
#[derive(Debug, Default)]
pub struct Report {
    pub text: String,
    pub same: usize,
    pub new: usize,
    pub changed: usize,
    pub failed: usize,
    /// Spec files that are bad input.
    pub bad_input: usize,
    /// `.snap` files beside the specs that no spec lists (`unlisted`).
    pub unlisted: usize,
}

/// The `.snap` files in the folders of the specs run that no spec lists:
/// one named after a spec that was run but is not among its games (a seed
/// or player count taken out), or after a spec that is not there any more.
/// `ran`: each spec run well, and the `.snap` files its games have.
fn unlisted(ran: &[(PathBuf, Vec<PathBuf>)]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders: Vec<&Path> = ran.iter().map(|(spec, _)| spec.parent().unwrap_or(Path::new("."))).collect();
    folders.sort();
    folders.dedup();
    for folder in folders {
        let Ok(entries) = std::fs::read_dir(folder) else { continue };
        let mut snaps: Vec<PathBuf> = entries
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| path.extension().is_some_and(|e| e == "snap"))
            .collect();
        snaps.sort();
        for snap in snaps {
            let name = snap.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
            let Some((stem, _)) = name.rsplit_once('@') else { continue };
            let spec = folder.join(format!("{stem}{SPEC_SUFFIX}"));
            let listed = match ran.iter().find(|(path, _)| *path == spec) {
                Some((_, games)) => games.contains(&snap),
                // A spec not run now lists what it lists.
                None => spec.exists(),
            };
            if !listed {
                found.push(snap);
            }
        }
    }
    found
}

/// Runs every spec file, reporting each game that is not the same as its
/// `.snap` (and a line per spec).
pub fn run_files(files: &[PathBuf], mode: Mode) -> Report {
    let mut report = Report::default();
    let mut ran = Vec::new();
    for file in files {
        let spec = match run_spec(file, mode) {
            Ok(spec) => {
                ran.push((file.clone(), spec.games.iter().map(|game| game.snap.clone()).collect()));
                spec
            }
            Err(e) => {
                report.bad_input += 1;
                let _ = writeln!(report.text, "error: {}", crate::diagnostic::render_lines(&e, &Disk, false, "  "));
                continue;
            }
        };
        let about = if spec.description.is_empty() { String::new() } else { format!(" ({})", spec.description) };
        let games = match spec.games.len() {
            1 => "1 game".to_string(),
            n => format!("{n} games"),
        };
        let _ = writeln!(report.text, "{}{about}: {games}", file.display());
        for rule in &spec.untested {
            let _ = writeln!(
                report.text,
                "  note     these games play the same without {rule}, so they do not test it: add seeds (or player counts) where it takes effect, or test it with scenarios"
            );
        }
        for game in spec.games {
            let name = game.snap.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
            let accepted = if mode == Mode::Accept { " (accepted)" } else { "" };
            match game.verdict {
                Verdict::Same => report.same += 1,
                Verdict::New => {
                    report.new += 1;
                    let written = match mode {
                        Mode::Accept => " (accepted)".to_string(),
                        Mode::Review => format!(" (to read in {name}.new)"),
                    };
                    let _ = writeln!(report.text, "  new      {name}{written}");
                }
                Verdict::Changed(diff) => {
                    report.changed += 1;
                    let _ = writeln!(report.text, "  changed  {name}{accepted}");
                    for line in diff.lines().take(crate::limits::DIFF_LINES) {
                        let _ = writeln!(report.text, "    {line}");
                    }
                    let more = diff.lines().count().saturating_sub(crate::limits::DIFF_LINES);
                    if more > 0 {
                        let whole = match mode {
                            Mode::Accept => format!("the whole transcript is in {name}"),
                            Mode::Review => format!("the whole new transcript is in {name}.new"),
                        };
                        let _ = writeln!(report.text, "    ({more} more lines of diff; {whole})");
                    }
                }
                Verdict::Failed(why) => {
                    report.failed += 1;
                    let _ = writeln!(report.text, "  failed   {name}: {why}");
                }
            }
        }
    }
    for snap in unlisted(&ran) {
        report.unlisted += 1;
        let _ = writeln!(
            report.text,
            "unlisted {}: no spec lists this game (a seed, player count or spec taken out?): delete it if so",
            snap.display()
        );
    }
    let total = report.same + report.new + report.changed + report.failed;
    let _ = write!(
        report.text,
        "{total} snapshot{}: {} same, {} new, {} changed, {} failed",
        if total == 1 { "" } else { "s" },
        report.same,
        report.new,
        report.changed,
        report.failed
    );
    if mode == Mode::Review && report.new + report.changed > 0 {
        report.text += "\nthe new transcripts are in the .snap.new files beside them; when they are right, accept \
                        them with --accept (or `cargo insta review` inside a Rust project)";
    }
    report
}

impl Report {
    /// Do the snapshots stand as they should (nothing pending, nothing failed)?
    pub fn clean(&self, mode: Mode) -> bool {
        self.failed == 0 && self.bad_input == 0 && (mode == Mode::Accept || self.new + self.changed == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `.snap` checked out with Windows line ends is still the same.
    #[test]
    fn a_snap_with_crlf_line_ends_is_the_same() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let snap = dir.join("x@2p-seed1.snap");
        let new = SnapFile { source: "x.snapshots.yaml".into(), description: "x".into(), body: "a\nb".into() };
        std::fs::write(&snap, new.render().replace('\n', "\r\n")).unwrap();
        assert_eq!(compare(&snap, &new, Mode::Review).unwrap(), Verdict::Same);
        let changed = SnapFile { body: "a\nc".into(), ..new };
        assert!(matches!(compare(&snap, &changed, Mode::Review).unwrap(), Verdict::Changed(d) if d.contains("-b")));
    }
}
