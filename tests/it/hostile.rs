//! Hostile inputs, as data: each case in `tests/hostile/cases.yaml` runs the
//! binary and must end within its processor time (and its memory, where it
//! gives one), with its exit code, saying what it says (and not what it
//! must not say, where a case gives `says_not`). No panic, no hang,
//! no machine's memory. The cases that need a fixture no file in the
//! repository can be (a named pipe, a symbolic link, a full disk, a signal)
//! make it at run time, in the tests below the table's.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn hostile_inputs_are_answered_within_their_bounds() {
    let root = env!("CARGO_MANIFEST_DIR");
    let cases = std::fs::read_to_string(format!("{root}/tests/hostile/cases.yaml")).unwrap();
    let cases: unolab::yaml::Yaml = unolab::yaml::from_str(&cases).unwrap();
    let cases = cases.as_sequence().expect("a list of cases");
    assert!(cases.len() >= 6);
    for case in cases {
        let run = case.get("run").and_then(|r| r.as_str()).expect("run:");
        let exit = case.get("exit").and_then(|e| e.as_i64()).expect("exit:");
        let says = case.get("says").and_then(|s| s.as_str()).expect("says:");
        let seconds = case.get("seconds").and_then(|s| s.as_u64()).unwrap_or(30);
        // The time is of the processor, not the wall: a loaded machine may
        // run a case slowly, but not make it spend more. Past it the program
        // is stopped. A memory bound is the address space the
        // program may take: past it, an allocation fails and the program
        // aborts (not exit 2).
        let mut limits = format!("ulimit -t {seconds}");
        if let Some(megabytes) = case.get("memory_mb").and_then(|m| m.as_u64()) {
            limits += &format!(" && ulimit -v {}", megabytes * 1024);
        }
        let mut command = Command::new("sh");
        command.arg("-c").arg(format!("{limits} && exec \"$0\" \"$@\"")).arg(env!("CARGO_BIN_EXE_unolab"));
        let mut child = command
            .args(run.split_whitespace())
            .current_dir(root)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The pipes are drained while the program runs, so that much output
        // cannot hold it up.
        let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                let _ = pipe.read_to_end(&mut bytes);
                bytes
            })
        };
        let stdout = drain(Box::new(child.stdout.take().unwrap()));
        let stderr = drain(Box::new(child.stderr.take().unwrap()));
        // A program that waits (on a pipe, say) spends no processor time:
        // the wall is a backstop, generous for a loaded machine.
        let backstop = Duration::from_secs(seconds.max(6) * 10);
        let deadline = Instant::now() + backstop;
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("{run}: still running after {} s, waiting", backstop.as_secs());
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let (stdout, stderr) = (stdout.join().unwrap(), stderr.join().unwrap());
        let text = format!("{}{}", String::from_utf8_lossy(&stdout), String::from_utf8_lossy(&stderr));
        use std::os::unix::process::ExitStatusExt as _;
        // SIGXCPU, or SIGKILL where the hard limit is met at once.
        let stopped = matches!(status.signal(), Some(9 | 24));
        assert!(!stopped, "{run}: took more than {seconds} s of processor time:\n{text}");
        assert_eq!(status.code(), Some(exit as i32), "{run}:\n{text}");
        assert!(text.contains(says), "{run}: does not say '{says}':\n{text}");
        if let Some(never) = case.get("says_not").and_then(|s| s.as_str()) {
            assert!(!text.contains(never), "{run}: says '{never}':\n{text}");
        }
        assert!(!text.contains("panicked"), "{run}:\n{text}");
    }
}

/// A named pipe is not read (opening it would wait for a writer for ever).
#[test]
fn a_named_pipe_is_refused_at_once() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let fifo = dir.join("pipe.yaml");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return; // no mkfifo here: nothing to try
    }
    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_unolab")).arg("check").arg(&fifo).output().unwrap();
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a regular file"));
}

/// A folder of scenarios that holds a link back to itself is read once:
/// the loop is not followed. The link is made here, not committed: a
/// checkout holding a file-system loop makes cargo warn on every build.
#[test]
fn a_symbolic_link_loop_is_not_followed() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("loop");
    std::fs::create_dir(&dir).unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    std::fs::copy(format!("{root}/tests/scenarios/classic/skip.yaml"), dir.join("skip.yaml")).unwrap();
    std::os::unix::fs::symlink("..", dir.join("back")).unwrap();
    let (code, text) = run_in(scratch.path(), &["scenario", "loop"], "", false, 10);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("1 passed, 0 failed"), "{text}");
}

/// A scenario of 33,000 unknown cards (650 KB) is refused with each card's
/// line and column, in a bounded processor time: the places come from the
/// parser, so refusing is linear in the file (finding each card's place by
/// searching the file took 38 s and more of processor time in a release
/// build; this takes under a second in a debug build).
#[test]
fn a_large_scenario_of_unknown_cards_is_refused_in_linear_time() {
    let scratch = tempfile::tempdir().unwrap();
    let cards = 33_000;
    let mut text = String::from("variant: classic\nplayers: 4\nsetup:\n  hands:\n    0:\n");
    for i in 0..cards {
        text += &format!("      - mauve {i}\n");
    }
    assert!(text.len() > 560 * 1024);
    std::fs::write(scratch.path().join("unknown.yaml"), &text).unwrap();
    let (code, said) = run_limited(scratch.path(), &["scenario", "unknown.yaml"], 10, 1000);
    assert_eq!(code, Some(2), "{}", &said[..said.len().min(2000)]);
    for i in [0, cards / 2, cards - 1] {
        let told = format!("unknown.yaml:{}:9: 'mauve {i}': unknown colour 'mauve'", i + 6);
        assert!(said.contains(&told), "{told} is not told");
    }
    assert_eq!(said.matches(": 'mauve ").count(), cards, "one message a card");
}

/// A saved game whose move the rules refuse is not loaded, naming the
/// file's line of that move (not only its number).
#[test]
fn a_refused_load_names_the_line_of_the_move() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let input = "load tests/hostile/refused-move.save.yaml\nquit\n";
    let (code, said) = run_in(root, &["play", "classic", "--seed", "1"], input, false, 60);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("not loaded: tests/hostile/refused-move.save.yaml:16:3: move 7 ('p3 play red 9')"), "{said}");
}

/// The program run in `dir` with a bound on its processor time (`seconds`)
/// and address space (`megabytes`): its exit code (`None` where it was
/// stopped) and all it said.
fn run_limited(dir: &Path, args: &[&str], seconds: u64, megabytes: u64) -> (Option<i32>, String) {
    let limits = format!("ulimit -t {seconds} && ulimit -v {} && exec \"$0\" \"$@\"", megabytes * 1024);
    let output = Command::new("sh")
        .arg("-c")
        .arg(limits)
        .arg(env!("CARGO_BIN_EXE_unolab"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(!text.contains("panicked"), "{args:?}");
    (output.status.code(), text)
}

/// The program's exit code and all it said (stdout, then stderr), run in
/// `dir` with `stdin`; it must end within `seconds`. `limited`: with a file
/// size limit of 0 (as a full disk: every write to a file fails, and the
/// signal that would kill the program is ignored, so the write returns an
/// error as on a full disk).
fn run_in(dir: &Path, args: &[&str], stdin: &str, limited: bool, seconds: u64) -> (Option<i32>, String) {
    let mut command = if limited {
        let mut command = Command::new("sh");
        command.arg("-c").arg("trap '' XFSZ; ulimit -f 0 && exec \"$0\" \"$@\"").arg(env!("CARGO_BIN_EXE_unolab"));
        command
    } else {
        Command::new(env!("CARGO_BIN_EXE_unolab"))
    };
    let mut child = command
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_string();
    std::thread::spawn(move || {
        use std::io::Write as _;
        let _ = input.write_all(stdin.as_bytes());
    });
    let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{args:?}: still running after {seconds} s (waiting on a pipe?)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (stdout, stderr) = (stdout.join().unwrap(), stderr.join().unwrap());
    let text = format!("{}{}", String::from_utf8_lossy(&stdout), String::from_utf8_lossy(&stderr));
    assert!(!text.contains("panicked"), "{args:?}:\n{text}");
    (status.code(), text)
}

/// The names in a folder, sorted (a temporary file left behind shows).
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().to_string()).collect();
    names.sort();
    names
}

/// Makes a named pipe; false where there is no `mkfifo`.
fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo").arg(path).status().is_ok_and(|s| s.success())
}

fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt as _;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

/// A snapshot spec of one game in `dir`: `x.snapshots.yaml`, whose game's
/// `.snap` is `x@2p-seed1.snap`.
fn snapshot_spec(dir: &Path) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("x.snapshots.yaml"), "variant: classic\nplayers: 2\nseeds: [1]\n").unwrap();
    dir.join("x@2p-seed1.snap")
}

/// Nothing is written to a named pipe (opening it would wait for a reader
/// for ever): the rows of games, a plot, a saved game, a pending snapshot.
/// Each is refused at once, naming the file; the pipe stays a pipe.
#[test]
fn a_named_pipe_is_not_written_to() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let fifo = dir.join("pipe");
    if !mkfifo(&fifo) {
        return; // no mkfifo here: nothing to try
    }
    for option in ["--games-out", "--plot"] {
        let (code, text) = run_in(dir, &["sim", "classic", "-n", "2", option, "pipe"], "", false, 20);
        assert_eq!(code, Some(2), "{option}: {text}");
        assert!(text.contains(&format!("error: {option} pipe: not a regular file")), "{option}: {text}");
        assert!(!text.contains("turns per hand"), "refused before the run: {text}");
    }
    let (code, text) = run_in(dir, &["play", "classic", "--seed", "1"], "save pipe\nquit\n", false, 20);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("not saved: pipe: not a regular file"), "{text}");
    let snap = snapshot_spec(&dir.join("snaps"));
    let pending = dir.join("snaps/x@2p-seed1.snap.new");
    assert!(mkfifo(&pending));
    let (code, text) = run_in(dir, &["snapshot", "snaps"], "", false, 20);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("x@2p-seed1.snap.new: not a regular file"), "{text}");
    assert!(is_fifo(&fifo) && is_fifo(&pending) && !snap.exists());
    assert_eq!(names_in(&dir.join("snaps")), ["x.snapshots.yaml", "x@2p-seed1.snap.new"]);
}

/// `unolab snapshot` on a checked-out folder writes only inside it: a
/// `.snap.new` (reviewing) or a `.snap` (accepting) that is a link to a
/// file outside is refused, naming it, and the file it names is unchanged.
#[test]
fn snapshot_does_not_write_through_links() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "keep me\n").unwrap();
    let snap = snapshot_spec(&dir.join("checkout"));
    let pending = dir.join("checkout/x@2p-seed1.snap.new");
    std::os::unix::fs::symlink("../victim.txt", &pending).unwrap();
    let (code, text) = run_in(dir, &["snapshot", "checkout"], "", false, 20);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("x@2p-seed1.snap.new: a symbolic link: not written through"), "{text}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me\n");
    std::fs::remove_file(&pending).unwrap();
    std::os::unix::fs::symlink("../victim.txt", &snap).unwrap();
    let (code, text) = run_in(dir, &["snapshot", "checkout", "--accept"], "", false, 20);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("x@2p-seed1.snap: a symbolic link: not written through"), "{text}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me\n");
    assert_eq!(names_in(&dir.join("checkout")), ["x.snapshots.yaml", "x@2p-seed1.snap"]);
    assert_eq!(names_in(dir), ["checkout", "victim.txt"]);
}

/// A write that fails (a full disk: here, a file size limit of 0) leaves
/// the file that was there as it was, and nothing half-written beside it:
/// rows of games, a plot, a saved game, an accepted snapshot.
#[test]
fn a_failed_write_leaves_the_old_file_whole() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    for (option, file) in [("--games-out", "games.csv"), ("--plot", "hands.svg")] {
        let (code, text) = run_in(dir, &["sim", "classic", "-n", "20", option, file], "", false, 60);
        assert_eq!(code, Some(0), "{text}");
        let good = std::fs::read(dir.join(file)).unwrap();
        assert!(good.len() > 200);
        let (code, text) = run_in(dir, &["sim", "classic", "-n", "30", "--seed", "9", option, file], "", true, 60);
        assert_eq!(code, Some(2), "{text}");
        assert!(text.contains(&format!("error: {option} {file}: not written (")), "{text}");
        assert!(text.contains(&format!("{file} is as it was")), "{text}");
        assert_eq!(std::fs::read(dir.join(file)).unwrap(), good, "{option}");
    }
    let (code, text) = run_in(dir, &["play", "classic", "--seed", "1"], "save game.yaml\nquit\n", false, 20);
    assert_eq!(code, Some(0), "{text}");
    let good = std::fs::read_to_string(dir.join("game.yaml")).unwrap();
    let (code, text) = run_in(dir, &["play", "classic", "--seed", "2"], "draw\nsave game.yaml\nquit\n", true, 20);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("not saved: game.yaml: not written ("), "{text}");
    assert_eq!(std::fs::read_to_string(dir.join("game.yaml")).unwrap(), good);
    let snap = snapshot_spec(&dir.join("snaps"));
    let (code, text) = run_in(dir, &["snapshot", "snaps", "--accept"], "", false, 20);
    assert_eq!(code, Some(0), "{text}");
    let changed = std::fs::read_to_string(&snap).unwrap().replacen(" deals\n", " deals\nsomething else\n", 1);
    std::fs::write(&snap, &changed).unwrap();
    let (code, text) = run_in(dir, &["snapshot", "snaps", "--accept"], "", true, 20);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("x@2p-seed1.snap: not written ("), "{text}");
    assert_eq!(std::fs::read_to_string(&snap).unwrap(), changed);
    assert_eq!(names_in(&dir.join("snaps")), ["x.snapshots.yaml", "x@2p-seed1.snap"]);
    assert_eq!(names_in(dir), ["game.yaml", "games.csv", "hands.svg", "snaps"]);
}

/// `unolab new` makes its folder whole or not at all: on a full disk
/// nothing is left (and it then makes it once there is room); a file where
/// a folder of it goes is named, and nothing is written.
#[test]
fn new_makes_its_folder_whole_or_not_at_all() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let (code, text) = run_in(dir, &["new", "rule", "mine"], "", true, 20);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("mine/mine.yaml: File too large"), "{text}");
    assert!(text.contains("nothing was written"), "{text}");
    assert!(names_in(dir).is_empty(), "{:?}", names_in(dir));
    let (code, text) = run_in(dir, &["new", "rule", "mine"], "", false, 20);
    assert_eq!(code, Some(0), "{text}");
    assert!(dir.join("mine/scenarios/mine.yaml").is_file());
    std::fs::create_dir(dir.join("blocked")).unwrap();
    std::fs::write(dir.join("blocked/scenarios"), "a file where a folder goes").unwrap();
    let (code, text) = run_in(dir, &["new", "rule", "blocked"], "", false, 20);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("error: ./blocked exists already and is not empty; nothing was written"), "{text}");
    assert_eq!(names_in(&dir.join("blocked")), ["scenarios"]);
    assert_eq!(names_in(dir), ["blocked", "mine"]);
}

/// SIGTERM stops a run as Ctrl-C does: the games played are reported
/// (marked partial), every row of them is written, and the exit status is
/// 130. The signal is sent
/// once the program is seen to catch it (`/proc`), whenever that is.
#[test]
fn sigterm_stops_a_run_and_keeps_what_it_played() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    if !Path::new("/proc/self/status").exists() {
        return; // no /proc here: nothing to watch
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_unolab"))
        .args(["sim", "classic", "-n", "1000000000", "--games-out", "rows.csv"])
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let catches_sigterm = || {
        let text = std::fs::read_to_string(&status).unwrap_or_default();
        let caught = text.lines().find_map(|l| l.strip_prefix("SigCgt:")).unwrap_or("0");
        u64::from_str_radix(caught.trim(), 16).is_ok_and(|mask| mask & (1 << (15 - 1)) != 0)
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    let caught = loop {
        if catches_sigterm() {
            break true;
        }
        if child.try_wait().unwrap().is_some() || Instant::now() > deadline {
            break false;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    if !caught {
        let _ = child.kill();
        let _ = child.wait();
        panic!("SIGTERM is not caught (or the run ended before it was sent)");
    }
    assert!(Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap().success());
    let output = child.wait_with_output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    // Stopped: 130, as Ctrl-C (128 + SIGINT), the partial report printed.
    assert_eq!(output.status.code(), Some(130), "{text}");
    assert!(text.contains("(PARTIAL: stopped early)"), "{text}");
    let hands: usize = text.split(" hands, seed").next().and_then(|t| t.rsplit(' ').next()).unwrap().parse().unwrap();
    let rows = std::fs::read_to_string(dir.join("rows.csv")).unwrap();
    let mut lines = rows.lines();
    let header = lines.next().unwrap().split(',').count();
    assert!(lines.clone().all(|l| l.split(',').count() == header), "{rows}");
    assert_eq!(lines.count(), hands, "{rows}");
}

/// A game at a terminal (a pty) with its line history at `history`: one
/// draw, then quit. Everything shown, up to the first prompt and after it.
/// (The address space is bounded, so that reading `/dev/zero` without end
/// fails instead of taking the machine's memory.)
fn draw_and_quit_at_a_terminal(history: &Path) -> (String, String) {
    use expectrl::Expect as _;
    let mut command = Command::new("sh");
    command.arg("-c").arg("ulimit -v 1000000 && exec \"$0\" \"$@\"").arg(env!("CARGO_BIN_EXE_unolab"));
    command.args(["play", "classic", "--seed", "1"]).env("UNOLAB_HISTORY", history).env("NO_COLOR", "1");
    let mut session = expectrl::Session::spawn(command).unwrap();
    session.set_expect_timeout(Some(Duration::from_secs(20)));
    let shown = session.expect("your turn").unwrap_or_else(|e| panic!("{}: no prompt: {e}", history.display()));
    // A line at a time: the editor may drop what is typed ahead.
    session.send_line("draw").unwrap();
    let drawn = session.expect("your turn").unwrap_or_else(|e| panic!("{}: no prompt: {e}", history.display()));
    session.send_line("quit").unwrap();
    let end = session.expect(expectrl::Eof).unwrap_or_else(|e| panic!("{}: no end: {e}", history.display()));
    let rest = format!("{}{}", String::from_utf8_lossy(drawn.before()), String::from_utf8_lossy(end.before()));
    assert!(rest.contains("you draw"), "the game went on:\n{rest}");
    (String::from_utf8_lossy(shown.before()).to_string(), rest)
}

/// A line history that is not a regular file of bounded size (`/dev/zero`,
/// `/dev/full`, a named pipe, a file of more than 4 MB) is skipped with one
/// warning, and the prompt comes at once; the file is left as it is.
#[test]
fn a_history_that_is_not_a_bounded_regular_file_is_skipped_with_one_warning() {
    let scratch = tempfile::tempdir().unwrap();
    let fifo = scratch.path().join("history-pipe");
    let huge = scratch.path().join("huge-history.txt");
    let lines = "p r5\n".repeat(1_000_000);
    std::fs::write(&huge, &lines).unwrap();
    let mut histories = vec![(huge.clone(), "larger than 4 MB")];
    if mkfifo(&fifo) {
        histories.push((fifo.clone(), "not a regular file"));
    }
    for device in ["/dev/zero", "/dev/full"].map(Path::new).into_iter().filter(|p| p.exists()) {
        histories.push((device.to_path_buf(), "not a regular file"));
    }
    for (history, why) in histories {
        let (before, rest) = draw_and_quit_at_a_terminal(&history);
        let warning = format!("warning: line history {}: {why}; not used this session", history.display());
        assert!(before.contains(&warning), "{}:\n{before}", history.display());
        assert_eq!(format!("{before}{rest}").matches("warning:").count(), 1, "{before}{rest}");
    }
    assert!(is_fifo(&fifo));
    assert!(std::fs::read_to_string(&huge).unwrap() == lines);
}

/// The lines typed are added to the history file, written whole; a new one
/// is for its owner's eyes only.
#[test]
fn the_history_keeps_the_lines_typed() {
    use std::os::unix::fs::PermissionsExt as _;
    let scratch = tempfile::tempdir().unwrap();
    let history = scratch.path().join("data/history.txt");
    let (before, rest) = draw_and_quit_at_a_terminal(&history);
    assert!(!format!("{before}{rest}").contains("warning"), "{before}{rest}");
    assert_eq!(std::fs::read_to_string(&history).unwrap(), "#V2\ndraw\nquit\n");
    assert_eq!(std::fs::metadata(&history).unwrap().permissions().mode() & 0o777, 0o600);
    // An older history (rustyline's first format) is read and kept.
    std::fs::write(&history, "p r5\n").unwrap();
    draw_and_quit_at_a_terminal(&history);
    assert_eq!(std::fs::read_to_string(&history).unwrap(), "#V2\np r5\ndraw\nquit\n");
    assert_eq!(names_in(&scratch.path().join("data")), ["history.txt"]);
}
