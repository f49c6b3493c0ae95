//! The fuzz corpus, replayed: every input under `fuzz/corpus/TARGET/` goes
//! through `unolab::fuzz::TARGET` as the fuzzer would give it, so what a
//! fuzzer once found stays fixed without a nightly toolchain in CI. A
//! target's function asserts what must hold; a panic fails the test, naming
//! the input.

use std::path::Path;

/// A target: takes any bytes, says whether it accepted them.
type Target = fn(&[u8]) -> bool;

const TARGETS: [(&str, Target); 8] = [
    ("card_notation", unolab::fuzz::card_notation),
    ("layer_yaml", unolab::fuzz::layer_yaml),
    ("hook_script", unolab::fuzz::hook_script),
    ("scenario_yaml", unolab::fuzz::scenario_yaml),
    ("repl_lines", unolab::fuzz::repl_lines),
    ("saved_game", unolab::fuzz::saved_game),
    ("snapshot_spec", unolab::fuzz::snapshot_spec),
    ("shard_json", unolab::fuzz::shard_json),
];

#[test]
fn the_fuzz_corpus_is_answered_without_a_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    for (name, target) in TARGETS {
        let dir = root.join("corpus").join(name);
        let mut inputs: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        inputs.sort();
        assert!(inputs.len() >= 5, "{name}: a corpus of a few inputs at least");
        let mut accepted = 0;
        for input in &inputs {
            let data = std::fs::read(input).unwrap();
            match std::panic::catch_unwind(|| target(&data)) {
                Ok(yes) => accepted += usize::from(yes),
                Err(_) => panic!("fuzz target {name} panicked on {}", input.display()),
            }
        }
        // Enough inputs get past the front door (a quarter at least), so the
        // checks behind it run.
        assert!(accepted * 4 >= inputs.len(), "{name}: only {accepted} of {} inputs accepted", inputs.len());
    }
}

/// Every target has its cargo-fuzz entry, and every entry is a target here.
#[test]
fn every_fuzz_target_is_replayed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/fuzz_targets");
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path().file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    found.sort();
    let mut replayed: Vec<String> = TARGETS.iter().map(|(name, _)| name.to_string()).collect();
    replayed.sort();
    assert_eq!(found, replayed);
}

/// A fuzzer's whole corpus (the directory `UNOLAB_FUZZ_CORPUS` names, with
/// a folder per target, as `cargo fuzz` keeps them; else `fuzz/corpus`),
/// replayed with a timer: no input panics, and the slowest of each target
/// are shown. Ignored: run it after fuzzing, in release, e.g.
/// `UNOLAB_FUZZ_CORPUS=DIR cargo test --release -- --ignored --nocapture
/// a_fuzzers_corpus`.
#[test]
#[ignore = "replays a fuzzer's corpus from UNOLAB_FUZZ_CORPUS"]
fn a_fuzzers_corpus_is_answered_without_a_panic() {
    let root = std::env::var_os("UNOLAB_FUZZ_CORPUS")
        .map_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus"), std::path::PathBuf::from);
    for (name, target) in TARGETS {
        let dir = Path::new(&root).join(name);
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut times = Vec::new();
        for input in entries.map(|e| e.unwrap().path()) {
            let data = std::fs::read(&input).unwrap();
            let started = std::time::Instant::now();
            if std::panic::catch_unwind(|| target(&data)).is_err() {
                panic!("fuzz target {name} panicked on {}", input.display());
            }
            times.push((started.elapsed(), input));
        }
        times.sort();
        let total: std::time::Duration = times.iter().map(|(t, _)| *t).sum();
        println!("{name}: {} inputs in {total:.1?}; slowest:", times.len());
        for (time, input) in times.iter().rev().take(3) {
            println!("  {time:.2?} {}", input.display());
        }
    }
}
