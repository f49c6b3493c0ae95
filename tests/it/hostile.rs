//! Hostile inputs, as data: each case in `tests/hostile/cases.yaml` runs the
//! binary and must end within its time, with its exit code, saying what it
//! says. No panic, no hang, no machine's memory.

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
        let mut child = Command::new(env!("CARGO_BIN_EXE_unolab"))
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
        let deadline = Instant::now() + Duration::from_secs(seconds);
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("{run}: still running after {seconds} s");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let (stdout, stderr) = (stdout.join().unwrap(), stderr.join().unwrap());
        let text = format!("{}{}", String::from_utf8_lossy(&stdout), String::from_utf8_lossy(&stderr));
        assert_eq!(status.code(), Some(exit as i32), "{run}:\n{text}");
        assert!(text.contains(says), "{run}: does not say '{says}':\n{text}");
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
