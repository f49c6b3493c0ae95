//! Every scenario file under `tests/scenarios/` must pass; every file under
//! `tests/bad-input/` must be rejected as bad input, naming file and place.

use std::path::Path;
use std::process::Command;

use unolab::scenario::{Outcome, Scenario};

#[test]
fn every_scenario_passes() {
    insta::glob!("../scenarios", "**/*.yaml", |path| {
        let scenario = Scenario::load(path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(scenario.run(), Outcome::Pass, "{}", path.display());
    });
}

fn rejection(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad-input").join(file);
    match Scenario::load(&path) {
        Ok(_) => panic!("{file} was accepted"),
        Err(e) => e,
    }
}

#[test]
fn bad_scenario_files_name_file_line_and_problem() {
    let cases = [
        ("unknown-card.yaml", "unknown-card.yaml:4:22: 'purple 7': unknown colour 'purple'"),
        ("too-many-copies.yaml", "too-many-copies.yaml:4:22: more copies of 'red 0' than the classic deck holds"),
        ("broken-yaml.yaml", "broken-yaml.yaml:4:6: illegal placement of ':' indicator"),
        ("unknown-variant.yaml", "unknown variant 'klassik'"),
        ("unknown-step.yaml", "unknown-step.yaml:3:5: unknown step 'jump'"),
        ("unknown-field.yaml", "unknown-field.yaml:4:3: unknown field `discrad`"),
        ("expect-error-around-a-check.yaml", "expect-error-around-a-check.yaml:7:5: expect_error: takes an action"),
        ("duplicate-key.yaml", "duplicate-key.yaml:5:3: duplicate mapping key: discard (each key once)"),
        ("empty-discard.yaml", "empty-discard.yaml:5:12: discard: [] names no card"),
        ("missing-seats.yaml", "missing-seats.yaml:7:5: there is no player 5 at a table of 3"),
        ("missing-seats.yaml", "missing-seats.yaml:8:12: there is no player 7 at a table of 3"),
        ("unknown-option.yaml", "unknown-option.yaml:3:11: cannot load the variant"),
        ("misspelt-option.yaml", "misspelt-option.yaml:4:11: cannot load the variant"),
        (
            "misspelt-option.yaml",
            "unknown option 'catchPenalti' (options here: catchPenalty, wildCountsAsColourMatch); did you mean 'catchPenalty'?",
        ),
        (
            "option-as-text.yaml",
            "option-as-text.yaml:4:25: option 'catchPenalty' takes a whole number, not the text '6' (write it without quotes)",
        ),
        (
            "option-as-text.yaml",
            "option-as-text.yaml:4:50: option 'sevenSwapMandatory' takes true or false, not the text 'true'",
        ),
        ("refused-option-value.yaml", "refused-option-value.yaml:4:25: cannot load the variant"),
        ("refused-option-value.yaml", "option 'catchPenalty' takes a value like '4', not 'six'"),
        ("unmarked-card.yaml", "unmarked-card.yaml:5:15: the flex deck has no card 'blue 1'; did you mean 'blue 1*'?"),
        ("marked-card.yaml", "marked-card.yaml:5:15: the flex deck has no card 'green 3*'; did you mean 'green 3'?"),
        (
            "step-as-words.yaml",
            "step-as-words.yaml:7:5: unknown step 'play blue 2': a step with an argument is a map, written {play: blue 2}",
        ),
        ("turn-starts-without-discard.yaml", "turn-starts-without-discard.yaml:5:16: turn_starts: needs a discard"),
        (
            "eval-syntax-error.yaml",
            "eval-syntax-error.yaml:7:38: eval: 'hand_size(1' does not parse: Expecting ')' to close the arguments list",
        ),
        ("unknown-expectations.yaml", "unknown-expectations.yaml:7:14: unknown expectation 'curent' ("),
        ("unknown-expectations.yaml", "; did you mean 'current'?"),
        ("unknown-expectations.yaml", "unknown-expectations.yaml:7:37: unknown expectation 'hnd_sizes' ("),
        ("unknown-expectations.yaml", "; did you mean 'hand_sizes'?"),
        ("unquoted-unknown-card.yaml", "unquoted-unknown-card.yaml:7:5: '+5': unknown card"),
    ];
    for (file, expected) in cases {
        let message = rejection(file);
        assert!(message.contains(expected), "{file}: {message}");
    }
}

/// A file's problems are told in the order of their places, whichever
/// part of the file (setup, steps) they were found in.
#[test]
fn problems_are_told_in_the_order_of_their_lines() {
    let message = rejection("problems-in-order.yaml");
    let places: Vec<&str> =
        message.lines().filter_map(|line| line.split("problems-in-order.yaml:").nth(1)?.split(": ").next()).collect();
    assert_eq!(places, ["5:13", "7:5", "9:5"], "{message}");
}

/// A rule of `rules:` that cannot be loaded (its script does not parse,
/// or it is not there) is told at its entry, not at `variant:`.
#[test]
fn a_rule_that_cannot_be_loaded_is_told_at_its_entry() {
    let (scratch, _) = super::scratch_files(&[
        ("broken.rhai", "fn f(card) { true\n"),
        (
            "broken.yaml",
            "name: broken\ndescription: Does not parse.\nscripts: [broken.rhai]\nhooks:\n  can_play:\n    - {match: 7, call: f}\n",
        ),
    ]);
    let file = scratch.path().join("s.yaml");
    for (rules, told) in [
        ("[stacking, broken.yaml]", "s.yaml:3:19: cannot load the rule:\n  "),
        ("[stacking, broken.yaml]", "broken.rhai:2:1: Expecting ';'"),
        ("[nothere.yaml, stacking]", "s.yaml:3:9: cannot load the rule:\n  "),
        ("[stacking, seven-o, sevn-o]", "s.yaml:3:28: cannot load the rule:\n  unknown house rule 'sevn-o'"),
    ] {
        std::fs::write(&file, format!("name: r\nvariant: classic\nrules: {rules}\nsteps:\n  - draw\n")).unwrap();
        let message = Scenario::load(&file).err().unwrap_or_else(|| panic!("{rules} was accepted"));
        assert!(message.contains(told), "{rules}: {message}");
    }
}

#[test]
fn a_failing_step_is_reported_with_expected_and_found() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let file = dir.join("fails.yaml");
    std::fs::write(
        &file,
        "name: wrong\nvariant: classic\nsetup:\n  hands: {0: [red 5, red 6], 1: [blue 1], 2: [blue 2], 3: [blue 3]}\n  discard: [red 2]\nsteps:\n  - play: red 5\n  - expect: {current: 3}\n",
    )
    .unwrap();
    let outcome = Scenario::load(&file).unwrap().run();
    assert_eq!(outcome, Outcome::Fail("step 2 ({expect: {current: 3}}): current: expected 3 / found 1".into()));
}

/// An expectation about a seat the table does not have fails saying so;
/// one that holds of an empty seat (a hand size of 0) passes, as it always
/// has.
#[test]
fn an_expectation_about_a_missing_seat_says_so() {
    let scratch = tempfile::tempdir().unwrap();
    let file = scratch.path().join("seats.yaml");
    let scenario = |expect: &str| format!("name: seats\nvariant: classic\nplayers: 3\nsteps:\n  - expect: {expect}\n");
    std::fs::write(&file, scenario("{hand_sizes: {9: 1}}")).unwrap();
    let run = || Command::new(env!("CARGO_BIN_EXE_unolab")).arg("scenario").arg(&file).output().unwrap();
    let failed = run();
    let out = String::from_utf8_lossy(&failed.stdout).to_string();
    assert_eq!(failed.status.code(), Some(1), "{out}");
    assert!(out.contains("p9's hand size: expected 1 / found 0 (there is no player 9 at a table of 3)"), "{out}");
    std::fs::write(&file, scenario("{hand_sizes: {9: 0}}")).unwrap();
    assert_eq!(run().status.code(), Some(0));
}
