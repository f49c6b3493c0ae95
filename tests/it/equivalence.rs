//! The memo and the move generator's fast paths change how fast a game is
//! played, never what happens. Every scenario file, every transcript
//! snapshot and every set of at most three built-in rules (and a sample of
//! larger sets) on every variant plays the same with the memo on (the
//! default) and off (every script run every time), while every fast path
//! of the move generator is proven against its general checks as moves are
//! worked out (`Game::set_checks`). The engine's settings are explicit
//! here, so these prove the same in a release build (`cargo test --release`).

use std::path::Path;
use std::sync::Arc;

use unolab::bot::BotKind;
use unolab::builtin;
use unolab::loader::load;
use unolab::ruleset::LoadRequest;
use unolab::scenario::{Outcome, Scenario};
use unolab::sim::{Engine, transcript_with};
use unolab::snapshot::{self, Mode, Verdict};

const MEMO: Engine = Engine { memo: true, checks: true };
const NO_MEMO: Engine = Engine { memo: false, checks: true };

#[test]
fn every_scenario_plays_the_same_with_the_memo_off() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let (files, _) = unolab::scenario::collect(&[dir]).unwrap();
    assert!(files.len() > 200, "{} scenario files", files.len());
    for file in files {
        let scenario = Scenario::load(&file).unwrap_or_else(|e| panic!("{e}"));
        let (outcome, log) = scenario.run_logged_with(MEMO);
        assert_eq!(outcome, Outcome::Pass, "{}", file.display());
        let (without, log_without) = scenario.run_logged_with(NO_MEMO);
        assert_eq!(without, outcome, "{}: the outcome with the memo off", file.display());
        assert_eq!(log_without, log, "{}: the game with the memo off", file.display());
    }
}

#[test]
fn every_transcript_plays_the_same_with_the_memo_off() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let specs = snapshot::collect(&[dir]).unwrap();
    assert!(specs.len() >= 6, "{specs:?}");
    let mut differ = Vec::new();
    for spec in &specs {
        for engine in [MEMO, NO_MEMO] {
            let result = snapshot::run_spec_with(spec, Mode::Review, engine).unwrap_or_else(|e| panic!("{e}"));
            for game in result.games {
                if !matches!(game.verdict, Verdict::Same) {
                    differ.push(format!("{} ({engine:?}): {:?}", game.snap.display(), game.verdict));
                }
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// The built-in rules `mask` picks.
fn rules_of(mask: u32) -> Vec<String> {
    let rules = builtin::rule_names();
    rules.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, r)| r.to_string()).collect()
}

#[test]
fn every_small_set_of_rules_plays_the_same_with_the_memo_off() {
    let rules = builtin::rule_names().len() as u32;
    let mut masks: Vec<u32> = (0u32..(1 << rules)).filter(|m| m.count_ones() <= 3).collect();
    // Larger sets, sampled by a fixed stream so that every run tries the same.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let wanted = masks.len() + 24;
    while masks.len() < wanted {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let mask = (state >> 33) as u32 & ((1 << rules) - 1);
        if mask.count_ones() > 3 && !masks.contains(&mask) {
            masks.push(mask);
        }
    }
    std::thread::scope(|scope| {
        for variant in builtin::variant_names() {
            let masks = &masks;
            scope.spawn(move || {
                for (i, &mask) in masks.iter().enumerate() {
                    let chosen = rules_of(mask);
                    let request =
                        LoadRequest { variant: variant.into(), rules: chosen.clone(), ..LoadRequest::default() };
                    let Ok(loaded) = load(&request) else { continue };
                    let loaded = Arc::new(loaded);
                    let sizes: Vec<usize> = loaded.table_sizes().collect();
                    let players = sizes[i % sizes.len()];
                    let seed = u64::from(mask) + 1;
                    let with = transcript_with(loaded.clone(), players, seed, BotKind::Random, MEMO);
                    let without = transcript_with(loaded, players, seed, BotKind::Random, NO_MEMO);
                    assert_eq!(with, without, "{variant} {chosen:?}, {players} players, seed {seed}");
                }
            });
        }
    });
}
