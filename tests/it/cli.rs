//! The command line as a user meets it: names, formats and exit codes of
//! spec/cli.md.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use super::scratch_files;

fn unolab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_unolab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs")
}

/// Runs `command` with `input` on standard input.
pub(super) fn with_input(command: &mut Command, input: &str) -> Output {
    let mut child = command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// Runs `unolab ARGS` with `input` on standard input.
fn unolab_with_input(args: &[&str], input: &str) -> Output {
    with_input(Command::new(env!("CARGO_BIN_EXE_unolab")).args(args), input)
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

#[test]
fn scenario_command_reports_and_exits_by_outcome() {
    let pass = unolab(&["scenario", "tests/scenarios/classic/skip.yaml"]);
    assert_eq!(pass.status.code(), Some(0), "{}", text(&pass));
    assert!(text(&pass).contains("PASS tests/scenarios/classic/skip.yaml: Skip passes over the next player (2.2)"));
    assert!(text(&pass).contains("1 passed, 0 failed"));
    let bad = unolab(&["scenario", "tests/bad-input/unknown-card.yaml"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad).contains("tests/bad-input/unknown-card.yaml:4:22"), "{}", text(&bad));
    // The line the problem is on, with a caret under its column.
    assert!(
        text(&bad).contains("  4 |   hands: {0: [red 5, purple 7]}\n    |                      ^\n"),
        "{}",
        text(&bad)
    );
    // A script expression that does not parse is bad input too, not a
    // failed check.
    let eval = unolab(&["scenario", "tests/bad-input/eval-syntax-error.yaml"]);
    assert_eq!(eval.status.code(), Some(2), "{}", text(&eval));
    assert!(text(&eval).contains("ERROR tests/bad-input/eval-syntax-error.yaml:7:38: eval:"), "{}", text(&eval));
    let missing = unolab(&["scenario", "tests/no-such-folder"]);
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn sim_json_has_the_contract_fields() {
    let output = unolab(&["sim", "classic", "-n", "50", "--seed", "9", "-p", "3", "-j", "2", "--json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    for key in ["variant", "rules", "players", "games", "seed", "turns_mean", "wins", "elapsed_s", "games_per_s"] {
        assert!(json.get(key).is_some(), "missing {key}");
        // The first run's, as its own object gives it.
        assert_eq!(json[key], json["runs"][0][key], "{key}");
    }
    assert_eq!((&json["schema_version"], &json["kind"]), (&serde_json::json!(2), &serde_json::json!("run")));
    assert_eq!(json["games"], 50);
    assert_eq!(json["players"], 3);
    assert_eq!(json["wins"].as_array().unwrap().iter().map(|w| w.as_u64().unwrap()).sum::<u64>(), 50);
    // Schema 1's keys stay at the top, deprecated, option values as
    // strings, with a warning; --schema 2 prints schema 2 alone.
    assert!(String::from_utf8_lossy(&output.stderr).contains("warning: --json: the shape of schema 1"));
    for key in unolab::sim::json::SCHEMA_1_KEYS {
        assert!(json.get(key).is_some(), "missing {key}");
    }
    assert_eq!(json["turns_ci95"], json["runs"][0]["turns_ci95"]);
    assert_eq!(json["options"]["wildCountsAsColourMatch"], "false");
    assert_eq!(json["runs"][0]["options"]["wildCountsAsColourMatch"], false);
    let alone = unolab(&["sim", "classic", "-n", "50", "--seed", "9", "-p", "3", "--json", "--schema", "2"]);
    assert!(alone.stderr.is_empty(), "{}", text(&alone));
    let alone: serde_json::Value = serde_json::from_slice(&alone.stdout).unwrap();
    assert!(alone.get("turns_ci95").is_none() && alone.get("raw").is_none());
    assert_eq!(alone["runs"][0]["raw"], json["runs"][0]["raw"]);
    let other = unolab(&["sim", "classic", "-n", "5", "--json", "--schema", "1"]);
    assert_eq!(other.status.code(), Some(2), "{}", text(&other));
}

#[test]
fn check_reports_every_problem_with_its_place() {
    let good = unolab(&["check", "classic", "tests/variants/mini.yaml"]);
    assert_eq!(good.status.code(), Some(0), "{}", text(&good));
    let broken = unolab(&["check", "tests/variants/broken.yaml"]);
    assert_eq!(broken.status.code(), Some(1));
    let out = text(&broken);
    for problem in [
        "broken.yaml:3:15: colour 'red' is listed twice",
        "broken.yaml:8:31: symbol 'skip' matches unknown symbol 'nothing'",
        "'mauve 3': unknown colour 'mauve'",
        "hand_size 0 must be 1 to 100",
        "unknown hook 'on_turn'",
        "script not found",
    ] {
        assert!(out.contains(problem), "missing '{problem}' in:\n{out}");
    }
    // The missing script says it all: its hooks' functions are not told
    // to be defined by no script.
    assert!(!out.contains("which no script of 'broken' defines"), "{out}");
    let script = unolab(&["check", "tests/variants/bad-script.yaml"]);
    assert_eq!(script.status.code(), Some(1));
    assert!(text(&script).contains("bad-script.rhai:3:1"), "{}", text(&script));
    let sneaky = text(&unolab(&["check", "tests/variants/sneaky.yaml"]));
    assert!(sneaky.contains("sneaky-import.rhai:1:1: 'import' is a reserved keyword"), "{sneaky}");
    assert!(sneaky.contains("sneaky-eval.rhai:1:23: reserved keyword 'eval' is disabled"), "{sneaky}");
    let mismatched = text(&unolab(&["check", "tests/variants/mismatched.yaml"]));
    for problem in [
        "mismatched.yaml:19:14: hook can_draw calls 'no_such_function', which no script of 'mismatched' defines",
        "'play_skip' must take 1 parameter(s) to serve as on_play",
        "'sideways' is not a selector",
    ] {
        assert!(mismatched.contains(problem), "missing '{problem}' in:\n{mismatched}");
    }
    assert_eq!(mismatched.matches("must take 1 parameter").count(), 1, "each problem once:\n{mismatched}");
    let hostile = unolab(&["check", "tests/variants/hostile.yaml"]);
    assert_eq!(hostile.status.code(), Some(1));
    // Each bound in the words of the guide's Limits table, and no line
    // claimed where Rhai gives none.
    assert!(
        text(&hostile).contains(
            "spin, tests/variants/hostile.rhai:1): more than 200,000 Rhai operations, past the bound on one hook call \
             (see Limits in docs/authoring.md): a loop that never ends? (Rhai does not say on which line of spin)"
        ),
        "{}",
        text(&hostile)
    );
    assert!(
        text(&hostile).contains("calls nested more than 32 deep, past the bound on a script's call depth"),
        "{}",
        text(&hostile)
    );
}

#[test]
fn bad_usage_exits_2_without_a_panic() {
    for args in [
        &["sim", "classic", "-p", "1"][..],
        &["sim", "nope"],
        &["play", "classic", "-p", "11"],
        &["sim", "classic", "--set", "noSuchOption=1"],
        &["frobnicate"],
        &["sim", "classic", "-j", "0"],
    ] {
        let output = unolab(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", text(&output));
        assert!(!text(&output).contains("panicked"), "{args:?}");
    }
}

/// With no command, `unolab` takes `play`'s arguments; a word that is no
/// variant but close to a command is that command mistyped.
#[test]
fn unolab_alone_takes_the_arguments_of_play() {
    let output = unolab_with_input(&["--seed", "3", "-p", "2"], "quit\n");
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(text(&output).contains("unolab: classic, 2 players, seed 3"), "{}", text(&output));
    let output = unolab_with_input(&["flex", "--seed", "3", "-p", "3", "--bot", "hard"], "quit\n");
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(text(&output).contains("unolab: flex, 3 players, seed 3"), "{}", text(&output));
    for (args, said) in [
        (&["sims"][..], "unknown command 'sims'; did you mean 'sim'?"),
        (&["simm", "classic", "-n", "5"], "unknown command 'simm'; did you mean 'sim'?"),
        (&["flexx"], "unknown variant 'flexx' (built in: classic, express, flex, flip; or give a path"),
    ] {
        let output = unolab(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", text(&output));
        assert!(text(&output).contains(said), "{args:?}: {}", text(&output));
    }
}

#[test]
fn play_finishes_a_match_when_bots_play_every_seat_but_input_ends() {
    let output =
        Command::new(env!("CARGO_BIN_EXE_unolab")).args(["play", "--seed", "1"]).stdin(Stdio::null()).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(text(&output).contains("input ended"));
}

#[test]
fn variants_lists_every_variant_and_house_rule_with_one_line() {
    let output = unolab(&["variants"]);
    assert_eq!(output.status.code(), Some(0));
    let out = text(&output);
    for name in [
        "classic",
        "flex",
        "express",
        "stacking",
        "seven-o",
        "jump-in",
        "draw-to-match",
        "force-play",
        "no-bluffing",
        "deflect",
        "multi-play",
        "no-action-finish",
    ] {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("{name} missing:\n{out}"));
        assert!(line.split_whitespace().count() > 3, "{name} has a description");
    }
    assert!(out.contains("in express: never triggers (one copy of each coloured card)"));
    assert!(out.contains("in flex: the 0 half never triggers (no 0s)"));
    assert!(out.contains("options: crossStack=false"));
}

#[test]
fn the_rule_sheet_says_when_a_rule_cannot_trigger() {
    let output = unolab(&["deck", "express", "-r", "jump-in", "-r", "seven-o"]);
    assert_eq!(output.status.code(), Some(0));
    let out = text(&output);
    assert!(out.contains("+ jump-in: Play a card identical"), "{out}");
    assert!(out.contains("note: jump-in: never triggers (one copy of each coloured card)"), "{out}");
    assert!(out.contains("note: seven-o: the 0 half never triggers (no 0s)"), "{out}");
    let classic = text(&unolab(&["deck", "classic", "-r", "jump-in"]));
    assert!(!classic.contains("note:"), "{classic}");
}

#[test]
fn play_shows_each_event_as_the_human_seat_may_see_it() {
    let commands = "auto\n".repeat(12) + "quit\n";
    let flip = text(&unolab_with_input(&["play", "flip", "--seed", "5", "-p", "3"], &commands));
    assert!(!flip.contains(" // "), "no card is shown with both faces:\n{flip}");
    let others = |text: &str| -> Vec<String> {
        text.lines().filter(|l| l.starts_with("p1 draws") || l.starts_with("p2 draws")).map(String::from).collect()
    };
    assert!(flip.lines().any(|l| l.starts_with("you draw ") && !l.starts_with("you draw a card")), "{flip}");
    assert!(!others(&flip).is_empty(), "{flip}");
    assert!(others(&flip).iter().all(|l| l.contains("draws a card (its back: ")), "{flip}");
    let classic = text(&unolab_with_input(&["play", "classic", "--seed", "2", "-p", "3"], &commands));
    assert!(!others(&classic).is_empty(), "{classic}");
    let others_cards =
        others(&classic).into_iter().filter(|l| !l.starts_with("p1 draws a card") && !l.starts_with("p2 draws a card"));
    assert_eq!(others_cards.count(), 0, "{classic}");
}

#[test]
fn merged_shards_are_the_single_run() {
    let run = |extra: &[&str]| -> serde_json::Value {
        let mut args =
            vec!["sim", "classic", "-r", "stacking", "-n", "40", "--seed", "5", "-p", "3", "-j", "2", "--json"];
        args.extend(extra);
        let output = unolab(&args);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output));
        serde_json::from_slice(&output.stdout).unwrap()
    };
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let mut files = Vec::new();
    for k in 0..3 {
        let shard = run(&["--shard", &format!("{k}/3")]);
        assert!(shard["games"].as_u64().unwrap() < 40);
        let file = dir.join(format!("shard{k}.json"));
        std::fs::write(&file, shard.to_string()).unwrap();
        files.push(file.display().to_string());
    }
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    let output = unolab(&args);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let mut merged: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let mut single = run(&[]);
    // The merged run's time is the slowest shard's (shards run at once).
    let slowest = files
        .iter()
        .map(|f| serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(f).unwrap()).unwrap())
        .map(|shard| shard["elapsed_s"].as_f64().unwrap())
        .fold(0.0, f64::max);
    assert_eq!(merged["elapsed_s"].as_f64(), Some(slowest));
    for value in [&mut merged, &mut single] {
        for timing in ["elapsed_s", "games_per_s"] {
            value.as_object_mut().unwrap().remove(timing);
            value["runs"][0].as_object_mut().unwrap().remove(timing);
        }
    }
    assert_eq!(merged, single);
    // Two of three shards, or a shard of another run, are refused.
    let output = unolab(&["merge", &files[0], &files[1]]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output).contains("the shards given are 0/3, 1/3: 2/3 is missing (each of the 3 shards once)"),
        "{}",
        text(&output)
    );
    // A shard over the 4 MB a file may hold (its figures with 4 MB of
    // spaces after them) is refused, and the error says how to write
    // shards that merge reads.
    let mut padded = std::fs::read(&files[2]).unwrap();
    padded.resize(4 * 1024 * 1024 + 1, b' ');
    std::fs::write(&files[2], padded).unwrap();
    let output = unolab(&[&["merge"], &files.iter().map(String::as_str).collect::<Vec<_>>()[..]].concat());
    assert_eq!(output.status.code(), Some(2));
    let said = text(&output);
    let size = format!("{}: 4.0 MB, more than the 4 MB a shard may hold", files[2]);
    for part in [size.as_str(), "--json --schema 2", "--shard K/N"] {
        assert!(said.contains(part), "no '{part}' in {said}");
    }
}

/// Shards of a run whose rule is a file of the user's merge wherever
/// `merge` runs: each shard says which file it read (`files`), and merge
/// loads it from there (it loaded the rule's name, a built-in rule or a
/// path from where merge ran). A file gone by then is named.
#[test]
fn shards_of_a_rule_of_ones_own_merge_from_another_folder() {
    let scratch = tempfile::tempdir().unwrap();
    let in_dir = |dir: &std::path::Path, args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_unolab")).args(args).current_dir(dir).output().unwrap()
    };
    let made = in_dir(scratch.path(), &["new", "rule", "mine"]);
    assert_eq!(made.status.code(), Some(0), "{}", text(&made));
    let run = |extra: &[&str]| {
        let mut args =
            vec!["sim", "classic", "-r", "mine/mine.yaml", "-n", "30", "--seed", "3", "--json", "--schema", "2"];
        args.extend(extra);
        let output = in_dir(scratch.path(), &args);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output));
        serde_json::from_slice::<serde_json::Value>(&output.stdout).unwrap()
    };
    let mut files = Vec::new();
    for k in 0..2 {
        let shard = run(&["--shard", &format!("{k}/2")]);
        let file = scratch.path().join(format!("shard{k}.json"));
        std::fs::write(&file, shard.to_string()).unwrap();
        files.push(file.display().to_string());
    }
    let rule = scratch.path().join("mine/mine.yaml");
    let written = serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    assert_eq!(written["runs"][0]["files"]["rules"][0].as_str(), Some(rule.display().to_string().as_str()));
    assert_eq!(written["runs"][0]["files"]["variant"], serde_json::Value::Null);
    // Merged from the project's folder, where 'mine' means nothing.
    let output = unolab(&["merge", "--json", "--schema", "2", &files[0], &files[1]]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let mut merged: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let mut single = run(&[]);
    for value in [&mut merged, &mut single] {
        for timing in ["elapsed_s", "games_per_s"] {
            value.as_object_mut().unwrap().remove(timing);
            value["runs"][0].as_object_mut().unwrap().remove(timing);
        }
    }
    assert_eq!(merged, single);
    std::fs::rename(scratch.path().join("mine"), scratch.path().join("moved")).unwrap();
    let output = unolab(&["merge", &files[0], &files[1]]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output).contains(&rule.display().to_string()), "{}", text(&output));
}

#[test]
fn sim_draws_its_pictures_to_an_svg_file() {
    let scratch = tempfile::tempdir().unwrap();
    let path = scratch.path().join("plot.svg");
    let output = unolab(&["sim", "classic", "-n", "60", "-p", "3", "--plot", &path.display().to_string()]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..100.min(svg.len())]);
    for caption in
        ["hand length (turns)", "wins by position from the dealer (%)", "classic, 3 players, 60 hands, seed 0"]
    {
        assert!(svg.contains(caption), "no '{caption}'");
    }
    assert!(svg.contains("fair share"), "no fair share of wins");
    // 20 bins at most and a bar per position, besides the background and
    // the legend's box and swatch (B's nowhere: there is no B).
    let rects = svg.matches("<rect").count();
    assert!(rects > 3 + 1 && rects <= 20 + 3 + 1 + 3, "{rects} rectangles");
    assert!(!svg.contains("B - A"), "a single run has no differences");
    // A file named as another format is refused, not written as SVG.
    let png = scratch.path().join("plot.png");
    let output = unolab(&["sim", "classic", "-n", "5", "--plot", &png.display().to_string()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output).contains("the plot is drawn as SVG: name the file .svg"), "{}", text(&output));
    assert!(!png.exists());
}

/// With --vs the plot draws A and B together and their paired
/// differences; a sweep draws a panel per configuration.
#[test]
fn sim_plots_both_sides_of_a_comparison_a_panel_per_configuration() {
    let scratch = tempfile::tempdir().unwrap();
    let path = scratch.path().join("ab.svg");
    let output = unolab(&[
        "sim",
        "classic",
        "-n",
        "40",
        "-p",
        "2,3",
        "--vs",
        "-r stacking",
        "--plot",
        &path.display().to_string(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let svg = std::fs::read_to_string(&path).unwrap();
    for caption in [
        "A: classic, 2 players   B: classic + stacking, 2 players",
        "A: classic, 3 players   B: classic + stacking, 3 players",
        "B - A, % of A (95% interval)",
        "40 hands each, seed 0",
    ] {
        assert!(svg.contains(caption), "no '{caption}'");
    }
    // Both sides in each panel's two charts, a legend naming them.
    assert_eq!(svg.matches("hand length (turns)").count(), 2);
    let legend = |side: &str| svg.lines().filter(|l| l.trim() == side).count();
    assert!(legend("A") >= 4 && legend("B") >= 4, "A and B not both drawn");
    // A sweep without --vs: a panel per configuration.
    let path = scratch.path().join("sweep.svg");
    let output = unolab(&["sim", "express", "-n", "20", "-p", "2,3,4", "--plot", &path.display().to_string()]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let svg = std::fs::read_to_string(&path).unwrap();
    for players in 2..=4 {
        assert!(svg.contains(&format!("express, {players} players")), "no panel of {players} players");
    }
}

#[test]
fn a_sweep_over_players_and_option_values_is_one_table() {
    let output =
        unolab(&["sim", "classic", "-r", "stacking", "--set", "crossStack=false,true", "-p", "2,3", "-n", "20"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let out = text(&output);
    let rows: Vec<&str> = out.lines().skip(1).filter(|l| l.starts_with("classic")).collect();
    assert_eq!(rows.len(), 4, "{out}");
    for (row, (players, cross)) in rows.iter().zip([(2, false), (3, false), (2, true), (3, true)]) {
        assert!(row.starts_with(&format!("classic + stacking, {players} players [crossStack={cross}]")), "{row}");
    }
    let sweep = ["sim", "classic", "-r", "stacking", "--set", "crossStack=false,true", "-n", "10", "--json"];
    // Schema 1's list of runs, deprecated: option values as strings.
    let old: serde_json::Value = serde_json::from_slice(&unolab(&sweep).stdout).unwrap();
    let options: Vec<&str> =
        old.as_array().unwrap().iter().map(|r| r["options"]["crossStack"].as_str().unwrap()).collect();
    assert_eq!(options, ["false", "true"]);
    let json: serde_json::Value =
        serde_json::from_slice(&unolab(&[&sweep[..], &["--schema", "2"]].concat()).stdout).unwrap();
    // Schema 2: one object, a run per configuration; option values keep
    // their type.
    assert_eq!(json["kind"], "sweep");
    let options: Vec<bool> =
        json["runs"].as_array().unwrap().iter().map(|r| r["options"]["crossStack"].as_bool().unwrap()).collect();
    assert_eq!(options, [false, true]);
    let labels: Vec<&str> = json["runs"].as_array().unwrap().iter().map(|r| r["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["crossStack=false", "crossStack=true"]);
}

#[test]
fn check_takes_house_rules_alone_or_with_a_variant() {
    let with = unolab(&["check", "classic", "-r", "stacking", "--set", "crossStack=true"]);
    assert_eq!(with.status.code(), Some(0), "{}", text(&with));
    assert!(text(&with).contains("ok classic + stacking: 108 cards, 2 layer(s)"), "{}", text(&with));
    // A rule alone is checked on every built-in variant.
    let alone = unolab(&["check", "seven-o"]);
    assert_eq!(alone.status.code(), Some(0), "{}", text(&alone));
    for variant in unolab::builtin::variant_names() {
        assert!(text(&alone).contains(&format!("ok seven-o on {variant}:")), "{}", text(&alone));
    }
    assert!(text(&alone).contains("note seven-o on flex: the 0 half never triggers"), "{}", text(&alone));
    // A house rule that does not exist is bad usage (2), as in every
    // command, not a check that failed (1).
    let unknown = unolab(&["check", "classic", "-r", "nope"]);
    assert_eq!(unknown.status.code(), Some(2), "{}", text(&unknown));
    assert!(text(&unknown).contains("unknown house rule 'nope'"), "{}", text(&unknown));
    for (args, meant) in [(vec!["check", "clasic"], "classic"), (vec!["sim", "classic", "-r", "stackin"], "stacking")] {
        let misspelt = unolab(&args);
        assert_eq!(misspelt.status.code(), Some(2), "{}", text(&misspelt));
        assert!(text(&misspelt).contains(&format!("did you mean '{meant}'?")), "{}", text(&misspelt));
    }
    // So is a setting the files do not take; the check itself still runs
    // with the settings it does take (above).
    for setting in ["noSuchOption=1", "crossStack=maybe"] {
        let bad = unolab(&["check", "classic", "-r", "stacking", "--set", setting]);
        assert_eq!(bad.status.code(), Some(2), "{setting}: {}", text(&bad));
        assert!(!text(&bad).contains("ok classic"), "{}", text(&bad));
    }
    let unknown_option = unolab(&["check", "classic", "-r", "stacking", "--set", "noSuchOption=1"]);
    assert!(text(&unknown_option).contains("unknown option 'noSuchOption'"), "{}", text(&unknown_option));
    // A rule file that fails in play: each problem once, with the command
    // that shows the game.
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    std::fs::write(dir.join("bad.rhai"), "fn oops(card) { let x = [1]; x[5] }\n").unwrap();
    let rule = dir.join("bad.yaml");
    std::fs::write(&rule, "name: bad\ndescription: Breaks on a 5.\nscripts: [bad.rhai]\nhooks:\n  on_play:\n    - {match: \"5\", call: oops}\n").unwrap();
    let rule = rule.display().to_string();
    let broken = unolab(&["check", &rule]);
    assert_eq!(broken.status.code(), Some(1));
    let out = text(&broken);
    let classic_two: Vec<&str> = out.lines().filter(|l| l.contains("on classic: 2 players")).collect();
    assert_eq!(classic_two.len(), 1, "one line per problem:\n{out}");
    assert!(
        classic_two[0].contains("more games)") && classic_two[0].contains("bad.rhai:1:32: Array index 5 out of bounds"),
        "{out}"
    );
    // The script's line, with a caret where it broke.
    assert!(out.contains("1 | fn oops(card) { let x = [1]; x[5] }\n  |                                ^\n"), "{out}");
    let show = classic_two[0].split("see it: ").nth(1).unwrap();
    let args: Vec<&str> = show.split_whitespace().skip(1).collect();
    let shown = unolab(&args);
    assert_eq!(shown.status.code(), Some(1), "the game shown failed");
    let shown = text(&shown);
    assert!(shown.contains("failed: hand 1") && shown.contains("Array index 5 out of bounds"), "{shown}");
    // A rule file with a misspelt field is told against a rule's fields,
    // not a variant's.
    std::fs::write(
        dir.join("typo.yaml"),
        "name: typo
hoks:
  on_play: []
",
    )
    .unwrap();
    let typo = unolab(&["check", &dir.join("typo.yaml").display().to_string()]);
    assert_eq!(typo.status.code(), Some(1), "{}", text(&typo));
    assert!(text(&typo).contains("typo.yaml:2:1: unknown field `hoks`, a house rule's fields are"), "{}", text(&typo));
    assert!(!text(&typo).contains("deck"), "{}", text(&typo));
    assert!(text(&typo).contains("did you mean 'hooks'?"), "{}", text(&typo));
    // A card property that does not exist: the ones there are, and the
    // one meant.
    std::fs::write(dir.join("colour.rhai"), "fn f(card) { if card.colour == 0 { skip(1); } }\n").unwrap();
    std::fs::write(
        dir.join("colour.yaml"),
        "name: colour\ndescription: x\nscripts: [colour.rhai]\nhooks:\n  on_play:\n    - {match: number, call: f}\n",
    )
    .unwrap();
    let colour = text(&unolab(&["check", &dir.join("colour.yaml").display().to_string()]));
    assert!(
        colour.contains("(a card's properties: color, flex_color,") && colour.contains("did you mean 'color'?"),
        "{colour}"
    );
}

#[test]
fn the_rules_command_prints_the_rule_sheet_from_the_files() {
    let output = unolab(&["rules", "classic", "-r", "stacking"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let out = text(&output);
    assert!(out.starts_with("classic: "), "{out}");
    assert!(out.contains("  + stacking: "), "{out}");
    assert!(out.contains("  option crossStack = false"), "{out}");
    assert!(
        out.contains("2 to 10 players, 7 cards each, first to 500 points wins the match; 108 cards in the box"),
        "{out}"
    );
    // Every symbol of the deck, with how many faces carry it.
    let variant =
        unolab::loader::load(&unolab::ruleset::LoadRequest { variant: "classic".into(), ..Default::default() })
            .unwrap();
    for symbol in &variant.names.symbols {
        assert!(out.contains(&format!("  {} (", symbol.name)), "no line for {}: {out}", symbol.name);
    }
    assert!(out.contains("  numbers (76 faces)"), "{out}");
    assert!(out.contains("  wild-draw4 (4 faces, 50 points)"), "{out}");
}

/// Writes a rule (its script and its YAML) and a scenario that uses it into
/// `dir`; returns the scenario's path.
fn scenario_with_rule(dir: &std::path::Path, rule: [(&str, &str); 2], scenario: &str) -> String {
    for (name, text) in rule {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let path = dir.join("s.yaml");
    std::fs::write(&path, scenario).unwrap();
    path.display().to_string()
}

#[test]
fn a_failing_scenario_says_what_was_expected_and_verbose_shows_the_game() {
    let scratch = tempfile::tempdir().unwrap();
    let path = scenario_with_rule(
        scratch.path(),
        [
            ("loud.rhai", "fn loud(card) { print(\"asked about \" + card.name); true }\n"),
            (
                "loud.yaml",
                "name: loud\ndescription: Prints.\nscripts: [loud.rhai]\nhooks:\n  can_play:\n    - {match: \"5\", call: loud}\n",
            ),
        ],
        "name: fails\nvariant: classic\nrules: [loud.yaml]\nsetup:\n  hands: {0: [red 5, red 6], 1: [blue 1], 2: [red 4], 3: [green 3]}\n  discard: [red 2]\nsteps:\n  - play: red 5\n  - expect: {current: 3, hand_sizes: {0: 2}}\n",
    );
    let quiet = text(&unolab(&["scenario", &path]));
    assert!(quiet.contains("current: expected 3 / found 1; p0's hand size: expected 2 / found 1"), "{quiet}");
    assert!(!quiet.contains("asked about"), "{quiet}");
    let output = unolab(&["scenario", "--verbose", &path]);
    assert_eq!(output.status.code(), Some(1));
    let verbose = text(&output);
    assert!(verbose.contains("  the game so far:\n    hand 1: p3 deals\n    p0 plays red 5\n"), "{verbose}");
    assert!(verbose.contains("    print: asked about red 5"), "{verbose}");
}

/// `scenario --trace` tells each step's hook calls among its events: the
/// hook and its card, the rule and function, whether the script ran or
/// the memo replayed a call that read the same, each read with its answer
/// (a selector as the script wrote it) and each change. `sim --trace`
/// needs `--show`, and shows a game's calls.
#[test]
fn the_trace_tells_which_hooks_ran_for_what_and_who_answered() {
    let scratch = tempfile::tempdir().unwrap();
    let path = scenario_with_rule(
        scratch.path(),
        [
            (
                "noted.rhai",
                "fn noted(card) {\n    if hand_size(next_player()) > 1 && count(me(), \"green + 4\") < 2 {\n        log(\"a skip, and p\" + next_player() + \" has cards\");\n    }\n}\n",
            ),
            (
                "noted.yaml",
                "name: noted\ndescription: Logs skips.\nscripts: [noted.rhai]\nhooks:\n  on_play:\n    - {match: skip, call: noted}\n",
            ),
        ],
        "name: skips are noted\nvariant: classic\nrules: [noted.yaml]\nsetup:\n  hands: {0: [red skip, red 5], 1: [blue 1, blue 2], 2: [blue skip, green 4], 3: [green 3, green 5]}\n  discard: [red 2]\nsteps:\n  - play: red skip\n  - play: blue skip\n  - expect: {current: 0}\n",
    );
    let quiet = text(&unolab(&["scenario", &path]));
    assert!(!quiet.contains("trace"), "{quiet}");
    let output = unolab(&["scenario", "--trace", &path]);
    assert_eq!(output.status.code(), Some(0));
    let traced = String::from_utf8_lossy(&output.stdout).replace(&path, "s.yaml");
    let expected = "\
PASS s.yaml: skips are noted
  setup:
    hand 1: p3 deals
  step 1 ({play: red skip}):
    p0 plays red skip
    trace: on_play(red skip) for p0: classic fn play_skip, script -> done
    trace:   read going_out() = false
    trace:   change: skip 1
    trace: on_play(red skip) for p0: noted fn noted, script -> done
    trace:   read next_player() = 1
    trace:   read hand_size(1) = 2
    trace:   read me() = 0
    trace:   read count(0, \"green + 4\") = 0
    trace:   read next_player() = 1
    trace:   change: log \"a skip, and p1 has cards\"
    note: a skip, and p1 has cards
    p1 is skipped
  step 2 ({play: blue skip}):
    p2 plays blue skip
    trace: on_play(blue skip) for p2: classic fn play_skip, memo -> done
    trace:   read going_out() = false
    trace:   change: skip 1
    trace: on_play(blue skip) for p2: noted fn noted, script -> done
    trace:   read next_player() = 3
    trace:   read hand_size(3) = 2
    trace:   read me() = 2
    trace:   read count(2, \"green + 4\") = 1
    trace:   read next_player() = 3
    trace:   change: log \"a skip, and p3 has cards\"
    note: a skip, and p3 has cards
    p3 is skipped
  step 3 ({expect: {current: 0}}):
1 passed, 0 failed
";
    assert_eq!(traced, expected);

    let alone = unolab(&["sim", "classic", "-n", "3", "--trace"]);
    assert_eq!(alone.status.code(), Some(2));
    assert!(text(&alone).contains("--trace shows the hook calls of one game: it needs --show I"), "{}", text(&alone));
    let shown = text(&unolab(&["sim", "classic", "-r", "stacking", "-n", "3", "--show", "1"]));
    let traced = text(&unolab(&["sim", "classic", "-r", "stacking", "-n", "3", "--show", "1", "--trace"]));
    assert!(!shown.contains("trace:"), "{shown}");
    // The same game, the calls among its events.
    let untraced: Vec<&str> = traced.lines().filter(|line| !line.starts_with("trace:")).collect();
    assert_eq!(untraced, shown.lines().collect::<Vec<_>>());
    assert!(traced.contains("trace: on_penalty(p0 draws 2 (by p3, group 'draw2')) for p3: stacking fn stack_penalty, script -> p0 draws 2 (by p3, group 'draw2', waiting for an answer)\ntrace:   read answering() = ()\n"), "{traced}");
    assert!(traced.contains(", memo -> "), "{traced}");
}

#[test]
fn new_scaffolds_files_that_check_and_pass_as_written() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_unolab")).args(args).current_dir(dir).output().unwrap();
    for (args, yaml, scenario) in [
        (vec!["new", "rule", "five"], "five/five.yaml", "five/scenarios/"),
        (vec!["new", "variant", "mine", "--from", "flip"], "mine/mine.yaml", "mine/scenarios/"),
    ] {
        let made = run(&args);
        assert_eq!(made.status.code(), Some(0), "{}", text(&made));
        assert!(text(&made).contains(&format!("unolab check ./{yaml}")), "{}", text(&made));
        let checked = run(&["check", yaml]);
        assert_eq!(checked.status.code(), Some(0), "{}", text(&checked));
        let passed = run(&["scenario", scenario]);
        assert_eq!(passed.status.code(), Some(0), "{}", text(&passed));
        // The whole folder: its own YAML and snapshot spec are named and
        // left to `check` and `snapshot`; its scenarios run.
        let folder = yaml.split('/').next().unwrap();
        let whole = run(&["scenario", folder]);
        assert_eq!(whole.status.code(), Some(0), "{}", text(&whole));
        assert!(text(&whole).contains(&format!("skipped {yaml}: a variant or house rule")), "{}", text(&whole));
        assert!(text(&whole).contains(&format!("skipped {folder}/snapshots/{folder}.snapshots.yaml: a snapshot spec")));
        assert_eq!(text(&whole).matches("PASS").count(), text(&passed).matches("PASS").count());
        // The snapshot workflow: new transcripts are pending (exit 1) until
        // accepted; then they stand, and a change shows as a diff.
        let snapshots = format!("{}/snapshots/", yaml.split('/').next().unwrap());
        let pending = run(&["snapshot", &snapshots]);
        assert_eq!(pending.status.code(), Some(1), "{}", text(&pending));
        assert!(text(&pending).contains("3 snapshots: 0 same, 3 new"), "{}", text(&pending));
        let accepted = run(&["snapshot", &snapshots, "--accept"]);
        assert_eq!(accepted.status.code(), Some(0), "{}", text(&accepted));
        let same = run(&["snapshot", &snapshots]);
        assert_eq!(same.status.code(), Some(0), "{}", text(&same));
        assert!(text(&same).contains("3 snapshots: 3 same"), "{}", text(&same));
        assert!(!text(&same).contains("do not test"), "the scaffold's games play its rule:\n{}", text(&same));
        assert!(text(&made).contains(&format!("unolab snapshot ./{snapshots} --accept")), "{}", text(&made));
    }
    // A changed transcript is shown as a diff and kept pending beside the
    // .snap; accepting it replaces the .snap.
    let snap = dir.join("five/snapshots/five@3p-seed1.snap");
    let kept = std::fs::read_to_string(&snap).unwrap();
    std::fs::write(&snap, kept.replacen(" deals\n", " deals\nsomething else\n", 1)).unwrap();
    let changed = run(&["snapshot", "five/snapshots/five.snapshots.yaml"]);
    assert_eq!(changed.status.code(), Some(1), "{}", text(&changed));
    assert!(text(&changed).contains("changed  five@3p-seed1.snap"), "{}", text(&changed));
    assert!(text(&changed).contains("-something else"), "{}", text(&changed));
    assert_eq!(std::fs::read_to_string(snap.with_extension("snap.new")).unwrap(), kept);
    assert_eq!(run(&["snapshot", "five/snapshots", "--accept"]).status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&snap).unwrap(), kept);
    assert!(!snap.with_extension("snap.new").exists());
    // A transcript changed throughout shows the start of its diff, and how
    // much more there is.
    let rewritten: String = kept.lines().map(|line| format!("x{line}\n")).collect();
    std::fs::write(&snap, rewritten).unwrap();
    let long = text(&run(&["snapshot", "five/snapshots/five.snapshots.yaml"]));
    let more = "more lines of diff; the whole new transcript is in five@3p-seed1.snap.new)";
    assert!(long.contains(more), "{long}");
    let shown = long.lines().filter(|l| l.starts_with("    -") || l.starts_with("    +")).count();
    assert!(shown > 10 && shown <= 60, "{shown} lines of diff shown:\n{long}");
    assert_eq!(run(&["snapshot", "five/snapshots", "--accept"]).status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&snap).unwrap(), kept);
    // Games that play the same without a rule of the spec do not test it,
    // and are noted (the bots never draw while they could play, so
    // force-play never changes their games); a rule they play is not.
    std::fs::write(
        dir.join("five/snapshots/both.snapshots.yaml"),
        "variant: classic\nrules: [../five.yaml, force-play]\nplayers: 3\nseeds: [1]\n",
    )
    .unwrap();
    let noted = text(&run(&["snapshot", "five/snapshots/both.snapshots.yaml", "--accept"]));
    assert!(noted.contains("play the same without force-play, so they do not test it"), "{noted}");
    assert!(!noted.contains("without ../five.yaml"), "{noted}");
    // Nothing is overwritten; a bad name is refused.
    let again = run(&["new", "rule", "five"]);
    assert_eq!(again.status.code(), Some(2));
    assert!(text(&again).contains("five exists already and is not empty; nothing was written"), "{}", text(&again));
    assert_eq!(run(&["new", "rule", "../escape"]).status.code(), Some(2));
    // A folder without a scenario passes nothing: bad usage, not a pass.
    std::fs::create_dir(dir.join("empty")).unwrap();
    let nothing = run(&["scenario", "empty"]);
    assert_eq!(nothing.status.code(), Some(2), "{}", text(&nothing));
    assert!(text(&nothing).contains("no scenario file"), "{}", text(&nothing));
}

/// `merge --help` says what --schema does to merge, which writes no
/// --games-out; `sim --help` says what it does to both.
#[test]
fn schema_help_names_only_the_commands_own_options() {
    let help = |command: &str| {
        let out = text(&unolab(&[command, "--help"]));
        out.lines().find(|line| line.trim_start().starts_with("--schema")).map(str::to_string).unwrap_or_default()
    };
    let (merge, sim) = (help("merge"), help("sim"));
    assert!(merge.contains("--json prints schema 2 alone") && !merge.contains("--games-out"), "{merge}");
    assert!(sim.contains("--games-out starts with a line naming the run"), "{sim}");
    assert!(text(&unolab(&["sim", "--help"])).contains("--games-out <FILE>"));
    assert!(!text(&unolab(&["merge", "--help"])).contains("--games-out"));
}

/// The commands `new` prints next can be pasted into a shell where the
/// folder has a space in its name: each path is quoted.
#[test]
fn new_prints_commands_that_can_be_pasted() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("my rules");
    let run = |args: &[String]| Command::new(env!("CARGO_BIN_EXE_unolab")).args(args).output().unwrap();
    let made = run(&["new".into(), "rule".into(), "spaced".into(), "--dir".into(), dir.display().to_string()]);
    assert_eq!(made.status.code(), Some(0), "{}", text(&made));
    let printed = text(&made);
    let commands: Vec<Vec<String>> = printed
        .lines()
        .filter_map(|line| line.trim().strip_prefix("unolab "))
        .filter(|line| line.starts_with("check") || line.starts_with("scenario"))
        .map(|line| shell_words::split(line).unwrap())
        .collect();
    assert_eq!(commands.len(), 2, "{printed}");
    for command in commands {
        assert!(command.iter().any(|word| word.contains("my rules")), "{command:?} in {printed}");
        let ran = run(&command);
        assert_eq!(ran.status.code(), Some(0), "{command:?}: {}", text(&ran));
    }
}

/// `new variant` writes a variant of the user's own: its name, a
/// description to fill in, no `default:` (built-in variants only), and
/// `check` says nothing of it; a variant of one's own that sets `default:`
/// is warned, at its place, that it does nothing.
#[test]
fn a_new_variant_is_no_built_in_one() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_unolab")).args(args).current_dir(dir).output().unwrap();
    let default = unolab::ruleset::default_variant().unwrap();
    let made = run(&["new", "variant", "mini"]);
    assert_eq!(made.status.code(), Some(0), "{}", text(&made));
    let yaml = std::fs::read_to_string(dir.join("mini/mini.yaml")).unwrap();
    assert!(!yaml.lines().any(|line| line.starts_with("default:")), "{yaml}");
    let original = unolab::builtin::spec(&format!("variants/{default}.yaml")).unwrap().description;
    assert!(!yaml.contains(&original), "{yaml}");
    assert!(yaml.contains(&format!("description: mini, a variant started from {default}")), "{yaml}");
    let checked = run(&["check", "mini/mini.yaml"]);
    assert_eq!(checked.status.code(), Some(0), "{}", text(&checked));
    assert!(!text(&checked).contains("warning"), "{}", text(&checked));
    std::fs::write(dir.join("mini/mini.yaml"), yaml.replacen("\nname: mini\n", "\nname: mini\ndefault: true\n", 1))
        .unwrap();
    let line = yaml.lines().position(|line| line == "name: mini").unwrap() + 2;
    let warned = run(&["check", "mini/mini.yaml"]);
    assert_eq!(warned.status.code(), Some(0), "{}", text(&warned));
    assert!(
        text(&warned).contains(&format!("warning: mini/mini.yaml:{line}:1: 'default' is for built-in variants only")),
        "{}",
        text(&warned)
    );
}

/// An action other seats may take at any moment can keep a hand from ever
/// ending (docs/authoring.md, "Actions"): `check` fails, names the games
/// that did not end at each table size, and the command it gives shows
/// one of them stuck.
#[test]
fn check_names_the_games_an_endless_out_of_turn_action_keeps_going() {
    let checked = unolab(&["check", "classic", "-r", "tests/variants/host/poke.yaml"]);
    let said = text(&checked);
    assert_eq!(checked.status.code(), Some(1), "{said}");
    let stuck: Vec<&str> = said.lines().filter(|line| line.contains("did not end within 20000 actions")).collect();
    assert_eq!(stuck.len(), 2, "the smallest and the largest table: {said}");
    assert!(stuck[0].starts_with("error: classic + tests/variants/host/poke.yaml: 2 players, game "), "{said}");
    assert!(stuck[1].contains(": 10 players, game "), "{said}");
    let (_, see) = stuck[0].split_once("; see it: unolab ").expect("a command to see it");
    let shown = unolab(&see.split_whitespace().collect::<Vec<_>>());
    assert_eq!(shown.status.code(), Some(1), "{}", text(&shown));
    assert!(text(&shown).contains("takes poke (out of turn)"), "{}", text(&shown));
    assert!(text(&shown).contains("stuck: no end within 20000 actions"), "{}", text(&shown));
    // Bounded as the guide says (here: one poke a seat, counted in
    // `seat_state`), it passes.
    let scratch = tempfile::tempdir().unwrap();
    let bounded = scratch.path().join("poke.yaml");
    let yaml = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/variants/host/poke.yaml")).unwrap();
    std::fs::write(&bounded, yaml.replace("    call: poke\n", "    call: poke_once\n    available: unpoked\n"))
        .unwrap();
    let script =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/variants/host/poke.rhai")).unwrap();
    let once = "fn unpoked(seat) { seat_state(seat, \"poked\") == () }\n\
                fn poke_once(seat) { set_seat_state(seat, \"poked\", true); poke(seat); }\n";
    std::fs::write(scratch.path().join("poke.rhai"), format!("{script}\n{once}")).unwrap();
    let passed = unolab(&["check", "classic", "-r", &bounded.display().to_string()]);
    assert_eq!(passed.status.code(), Some(0), "{}", text(&passed));
}

#[test]
fn a_byte_order_mark_does_not_make_a_file_unreadable() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let rule = dir.join("bom.yaml");
    std::fs::write(&rule, "\u{feff}name: bom\ndescription: Saved by an editor that writes a BOM.\n").unwrap();
    let output = unolab(&["check", "classic", "-r", &rule.display().to_string()]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
}

#[test]
fn a_rule_can_require_a_multiple_of_players() {
    let odd = unolab(&["play", "-r", "partners", "-p", "3"]);
    assert_eq!(odd.status.code(), Some(2));
    assert!(text(&odd).contains("classic + partners is for 2 to 10 players, a multiple of 2, not 3"), "{}", text(&odd));
    assert_eq!(unolab(&["sim", "classic", "-r", "partners", "-p", "5", "-n", "5"]).status.code(), Some(2));
    let even = unolab(&["sim", "classic", "-r", "partners", "-p", "4", "-n", "5"]);
    assert_eq!(even.status.code(), Some(0), "{}", text(&even));
    assert!(text(&unolab(&["rules", "classic", "-r", "partners"])).contains("2 to 10 players (a multiple of 2)"));
}

/// The worked example of docs/authoring.md, followed as a reader would:
/// `unolab new rule eights`, the files as the guide shows them, then check,
/// scenario and snapshot.
#[test]
fn the_guides_worked_example_works_as_written() {
    let guide = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/authoring.md")).unwrap();
    let section = guide.split("## A worked example").nth(1).unwrap().split("\n## ").next().unwrap();
    // Fenced blocks whose first line names a file: `# eights/x.yaml`.
    let mut files = Vec::new();
    for block in section.split("```").skip(1).step_by(2) {
        let body = block.split_once('\n').map_or("", |(_, body)| body);
        let first = body.lines().next().unwrap_or_default();
        let named = first.strip_prefix("# ").or_else(|| first.strip_prefix("// "));
        if let Some(path) = named.filter(|p| p.starts_with("eights/")) {
            files.push((path.to_string(), body.to_string()));
        }
    }
    assert_eq!(files.len(), 3, "the YAML, the script and the scenario: {files:?}");
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_unolab")).args(args).current_dir(dir).output().unwrap();
    assert_eq!(run(&["new", "rule", "eights"]).status.code(), Some(0));
    for (path, body) in &files {
        std::fs::write(dir.join(path), body).unwrap();
    }
    for (args, code) in [
        (vec!["check", "eights/eights.yaml"], 0),
        (vec!["scenario", "eights/scenarios/"], 0),
        (vec!["snapshot", "eights/snapshots/"], 1),
        (vec!["snapshot", "eights/snapshots/", "--accept"], 0),
        (vec!["snapshot", "eights/snapshots/"], 0),
    ] {
        let output = run(&args);
        assert_eq!(output.status.code(), Some(code), "{args:?}: {}", text(&output));
    }
    let snap = std::fs::read_to_string(dir.join("eights/snapshots/eights@3p-seed1.snap")).unwrap();
    assert!(snap.contains("play runs counterclockwise"), "{snap}");
}

/// Every variant and house rule of the repository meant to work passes
/// `check` (the built-in ones, and those of tests/variants/designer/): a new
/// file there is checked without a new test.
#[test]
fn every_variant_and_rule_file_passes_check() {
    let mut targets: Vec<String> = unolab::builtin::variant_names().iter().map(|n| n.to_string()).collect();
    targets.extend(unolab::builtin::rule_names().iter().map(|n| n.to_string()));
    let designer = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/variants/designer");
    let mut files: Vec<String> = std::fs::read_dir(designer)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .map(|p| p.display().to_string())
        .collect();
    files.sort();
    targets.extend(files);
    let mut args = vec!["check"];
    args.extend(targets.iter().map(String::as_str));
    let output = unolab(&args);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(!text(&output).contains("error"), "{}", text(&output));
    assert!(text(&output).lines().filter(|l| l.starts_with("ok ")).count() >= targets.len(), "{}", text(&output));
}

/// Standard error closed early (`2>&1 | head -1`): the error is lost, not
/// turned into a crash, and the exit code stays the command's.
#[test]
fn a_closed_standard_error_changes_nothing_but_the_message() {
    for (args, code) in [(&["deck", "nonsense"][..], 2), (&["check", "no/such/file.yaml"][..], 2)] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let mut command = Command::new(env!("CARGO_BIN_EXE_unolab"));
        let status = command.args(args).stdout(Stdio::null()).stderr(writer).status().unwrap();
        assert_eq!(status.code(), Some(code), "{args:?}");
    }
}

/// `--vs` reads its configuration as a shell would: a quoted path may hold
/// spaces; an unclosed quote is bad usage.
#[test]
fn vs_takes_quoted_paths() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("my rules");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("s.rhai"), "fn f(card) { true }\n").unwrap();
    std::fs::write(dir.join("r.yaml"), "name: spaced\ndescription: A path with a space.\nscripts: [s.rhai]\nhooks:\n  can_play:\n    - {match: red, call: f}\n").unwrap();
    let vs = format!("-r '{}'", dir.join("r.yaml").display());
    let output = unolab(&["sim", "classic", "-n", "20", "--vs", &vs]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(text(&output).contains("B: classic + spaced"), "{}", text(&output));
    let unclosed = unolab(&["sim", "classic", "-n", "20", "--vs", "-r 'unclosed"]);
    assert_eq!(unclosed.status.code(), Some(2));
    assert!(text(&unclosed).contains("missing closing quote"), "{}", text(&unclosed));
    // What --vs does not take, and a rule it names that does not exist,
    // are told as --vs's.
    let json = text(&unolab(&["sim", "classic", "-n", "20", "--vs", "--json"]));
    assert!(json.contains("error: --vs \"--json\": unexpected argument '--json' found\n  (--vs takes"), "{json}");
    assert!(!json.contains("Usage:") && !json.contains("tip:"), "{json}");
    let unknown = text(&unolab(&["sim", "classic", "-n", "20", "--vs", "-r nosuch"]));
    assert!(
        unknown.contains("unknown house rule 'nosuch'") && unknown.contains("(in --vs \"-r nosuch\")"),
        "{unknown}"
    );
}

/// An option may list the values it takes (`{default: V, values: [...]}`):
/// a setting outside them is refused, not played as some other value, and
/// a declaration that contradicts itself is named where it stands.
#[test]
fn an_option_with_listed_values_refuses_any_other() {
    let bogus = unolab(&["rules", "flip", "--set", "flipFirstDiscard=Redraw"]);
    assert_eq!(bogus.status.code(), Some(2), "{}", text(&bogus));
    assert!(
        text(&bogus).contains("option 'flipFirstDiscard' takes one of apply, redraw, not 'Redraw'"),
        "{}",
        text(&bogus)
    );
    let listed = unolab(&["rules", "flip", "--set", "flipFirstDiscard=redraw"]);
    assert!(text(&listed).contains("option flipFirstDiscard = redraw (of apply, redraw)"), "{}", text(&listed));
    let scratch = tempfile::tempdir().unwrap();
    let rule = scratch.path().join("modes.yaml");
    let declarations = "name: modes\ndescription: Options.\noptions:\n  flipFirstDiscard: sometimes\n  \
                        mode: {default: c, values: [a, b]}\n  size: {default: 1, values: [1, two]}\n";
    std::fs::write(&rule, declarations).unwrap();
    let checked = unolab(&["check", "flip", "-r", &rule.display().to_string()]);
    let out = text(&checked);
    assert_ne!(checked.status.code(), Some(0), "{out}");
    assert!(
        out.contains("modes.yaml:4:21: option 'flipFirstDiscard' takes one of apply, redraw, not 'sometimes'"),
        "{out}"
    );
    assert!(out.contains("modes.yaml:5:19: option 'mode': the default 'c' is not among its values (a, b)"), "{out}");
    assert!(out.contains("modes.yaml:6:34: option 'size': every value is of the default's type, like '1'"), "{out}");
}

/// A file `sim` is to write is checked before the run: a missing folder is
/// bad usage at once, not after every hand was played.
#[test]
fn sim_checks_where_it_writes_before_it_plays() {
    let scratch = tempfile::tempdir().unwrap();
    let missing = scratch.path().join("missing").join("plot.svg");
    let out = unolab(&["sim", "classic", "-n", "10", "--plot", &missing.display().to_string()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("there is no folder"), "{}", text(&out));
    assert!(!text(&out).contains("turns per hand"), "nothing was played: {}", text(&out));
    let folder = unolab(&["sim", "classic", "-n", "10", "--games-out", &scratch.path().display().to_string()]);
    assert_eq!(folder.status.code(), Some(2), "{}", text(&folder));
    assert!(text(&folder).contains("that is a folder; name a file"), "{}", text(&folder));
}

/// `check` tells a variant from a house rule by its deck: a variant whose
/// deck is empty is told about its deck, not that a rule cannot set its
/// table; a rule that sets a table field is told so, and what a variant
/// needs.
#[test]
fn check_tells_a_variant_with_an_empty_deck_from_a_rule() {
    let scratch = tempfile::tempdir().unwrap();
    let table =
        "name: bare\ndescription: A table.\ncolors: [red, blue]\nhand_size: 7\nplayers: [2, 4]\ntarget_score: 100\n";
    let variant = scratch.path().join("bare.yaml");
    std::fs::write(&variant, format!("{table}deck: []\n")).unwrap();
    let out = text(&unolab(&["check", &variant.display().to_string()]));
    assert!(out.contains("bare.yaml:7:1: 'deck' is empty: a variant needs it"), "{out}");
    assert!(!out.contains("house rule"), "{out}");
    let rule = scratch.path().join("rule.yaml");
    std::fs::write(&rule, table).unwrap();
    let out = text(&unolab(&["check", &rule.display().to_string()]));
    assert!(
        out.contains(
            "rule.yaml:3:1: a house rule cannot set 'colors'; that belongs to a variant (which needs a 'deck')"
        ),
        "{out}"
    );
}

/// A call to a function that does not exist is told with the one it looks
/// like; a call with arguments its function does not take is told in a
/// script author's words, not Rhai's types.
#[test]
fn a_call_no_function_takes_is_told_in_an_authors_words() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let rule = dir.join("calls.yaml");
    std::fs::write(&rule, "name: calls\ndescription: Calls.\nscripts: [calls.rhai]\nhooks:\n  on_play:\n    - {match: \"5\", call: bad}\n").unwrap();
    let rule = rule.display().to_string();
    std::fs::write(dir.join("calls.rhai"), "fn bad(card) {\n    drawx(me(), 2);\n}\n").unwrap();
    let misspelt = text(&unolab(&["check", "classic", "-r", &rule]));
    assert!(misspelt.contains("calls.rhai:2:5: no function 'drawx'"), "{misspelt}");
    assert!(misspelt.contains("did you mean 'draw'?"), "{misspelt}");
    std::fs::write(dir.join("calls.rhai"), "fn bad(card) {\n    draw(me(), \"lots\");\n}\n").unwrap();
    let mistyped = text(&unolab(&["check", "classic", "-r", &rule]));
    assert!(mistyped.contains("calls.rhai:2:5: draw() does not take (a number, text)"), "{mistyped}");
    assert!(!mistyped.contains("ImmutableString"), "{mistyped}");
    std::fs::write(dir.join("calls.rhai"), "fn bad(card) {\n    let g = Fn(\"nope\"); g.call(1);\n}\n").unwrap();
    let missing = text(&unolab(&["check", "classic", "-r", &rule]));
    assert!(missing.contains("no function 'nope' (called with (a number))"), "{missing}");
}

/// A misspelt hook is told by its name first even where its value has the
/// wrong shape too (a map, not a list of bindings).
#[test]
fn a_misspelt_hook_is_told_by_its_name_first() {
    let scratch = tempfile::tempdir().unwrap();
    let rule = scratch.path().join("hooked.yaml");
    std::fs::write(&rule, "name: hooked\ndescription: Hooks.\nhooks:\n  on_ply: {call: x}\n").unwrap();
    let out = text(&unolab(&["check", &rule.display().to_string()]));
    assert!(out.contains("hooked.yaml:4:3: unknown hook 'on_ply'"), "{out}");
    assert!(out.contains("did you mean 'on_play'?"), "{out}");
    // The parser's own problem follows, as it may be elsewhere.
    let (name, shape) = (out.find("unknown hook").unwrap(), out.find("a list is needed").unwrap());
    assert!(name < shape, "{out}");
}

/// A rule missing one of its scripts is told so where the script is
/// named, and nothing that follows from it: not that its hooks call
/// functions no script defines, nor that the scripts it has call them.
#[test]
fn a_missing_script_is_told_alone() {
    let (_scratch, paths) = scratch_files(&[
        ("a.rhai", "fn f(card) { helper(card) }\n"),
        (
            "r.yaml",
            "name: r\ndescription: R.\nscripts: [a.rhai, missing.rhai]\nhooks:\n  can_play:\n    - {call: f}\n  on_play:\n    - {call: g}\n",
        ),
    ]);
    let checked = unolab(&["check", "classic", "-r", &paths[1]]);
    assert_eq!(checked.status.code(), Some(1));
    let out = text(&checked);
    assert!(out.contains("r.yaml:3:19: script not found"), "{out}");
    assert_eq!(out.lines().filter(|l| l.starts_with("error: ")).count(), 1, "{out}");
}

/// A rule checked on every variant and table size that fails the same
/// way in each is told the script error once, in full, and then where else
/// it happened, in one line; no check it failed in says ok.
#[test]
fn a_script_error_met_in_every_check_is_told_once() {
    let (_scratch, paths) = scratch_files(&[
        ("e.rhai", "fn f(card) { draw(42, 1); }\n"),
        (
            "e.yaml",
            "name: e\ndescription: Errs.\nscripts: [e.rhai]\nhooks:\n  on_play:\n    - {match: \"7\", call: f}\n",
        ),
    ]);
    let checked = unolab(&["check", &paths[1]]);
    assert_eq!(checked.status.code(), Some(1));
    let out = text(&checked);
    assert_eq!(out.lines().filter(|l| l.starts_with("error: ")).count(), 1, "{out}");
    assert_eq!(out.matches("no player 42").count(), 1, "{out}");
    let also = out.lines().find(|l| {
        l.starts_with("the same script error in e (on_play hook f): ") && l.contains("e.rhai:1:14 also in: ")
    });
    let also = also.unwrap_or_else(|| panic!("{out}"));
    assert_eq!(also.matches(" players").count(), 7, "four variants, two table sizes each: {out}");
    assert!(!out.lines().any(|l| l.starts_with("ok ")), "{out}");
}

/// A house rule's misspelt field is told the names there are where it is
/// written: at the top, a rule's fields; in a hook's binding, a binding's,
/// as in a variant. Each problem is told on its own, with its place.
#[test]
fn a_rule_s_misspelt_field_is_told_the_fields_where_it_is() {
    let (_scratch, paths) = scratch_files(&[
        ("s.rhai", "fn f(card) { true }\n"),
        (
            "typos.yaml",
            "name: typos\ndescription: Typos.\nscripts: [s.rhai]\nhooks:\n  on_play:\n    - {match: \"7\", cal: f}\n  on_plya:\n    - {call: f}\n",
        ),
    ]);
    let checked = unolab(&["check", "classic", "-r", &paths[1]]);
    let out = text(&checked);
    assert!(out.contains("typos.yaml:7:3: unknown hook 'on_plya'"), "{out}");
    assert!(
        out.contains(
            "typos.yaml:6:20: unknown field `cal`, expected one of call, match, grants, flex; did you mean 'call'?"
        ),
        "{out}"
    );
    assert!(!out.contains("a house rule's fields are"), "{out}");
    assert_eq!(out.matches("error: ").count(), 2, "each problem on its own: {out}");
    std::fs::write(&paths[1], "name: typos\ndescription: Typos.\nhoks: {}\n").unwrap();
    let out = text(&unolab(&["check", "classic", "-r", &paths[1]]));
    assert!(out.contains("typos.yaml:3:1: unknown field `hoks`, a house rule's fields are name, description"), "{out}");
    assert!(out.contains("did you mean 'hooks'?"), "{out}");
}

/// Two different rule files with one name are told as a clash of names,
/// not as one rule given twice; `new` warns of a built-in's name.
#[test]
fn rules_that_share_a_name_are_told_apart_from_a_repeat() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let made =
        Command::new(env!("CARGO_BIN_EXE_unolab")).args(["new", "rule", "stacking"]).current_dir(dir).output().unwrap();
    assert_eq!(made.status.code(), Some(0), "{}", text(&made));
    assert!(text(&made).contains("warning: a built-in house rule is also named 'stacking'"), "{}", text(&made));
    let mine = dir.join("stacking/stacking.yaml").display().to_string();
    let clash = text(&unolab(&["sim", "classic", "-n", "1", "-r", "stacking", "-r", &mine]));
    assert!(clash.contains("two layers are named 'stacking'"), "{clash}");
    let repeat = text(&unolab(&["sim", "classic", "-n", "1", "-r", "stacking", "-r", "stacking"]));
    assert!(repeat.contains("house rule 'stacking' is given twice"), "{repeat}");
}

/// `sim` refuses what it would otherwise cut or repeat silently: a game
/// the run does not play, more bots than any table seats, a player count
/// twice. A list of bots for the largest table of a sweep also serves the
/// smaller ones.
#[test]
fn sim_refuses_arguments_it_would_ignore() {
    let sweep = unolab(&["sim", "classic", "-n", "5", "-p", "2,4", "--bot", "greedy,random,random,random"]);
    assert_eq!(sweep.status.code(), Some(0), "{}", text(&sweep));
    for (args, said) in [
        (vec!["sim", "classic", "-n", "10", "--show", "10"], "--show 10: the run plays games 0 to 9"),
        (
            vec!["sim", "classic", "-n", "10", "-p", "2", "--bot", "random,greedy,random"],
            "--bot names 3 bots, more than the 2 seats",
        ),
        (vec!["sim", "classic", "-n", "10", "-p", "4,4"], "-p lists 4 twice"),
        (vec!["sim", "classic", "-n", "10", "--show", "1", "--json"], "--show prints one game's transcript"),
    ] {
        let out = unolab(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
        assert!(text(&out).contains(said), "{args:?}: {}", text(&out));
    }
}

/// A snapshot spec that lists a seed twice is refused, naming it, rather
/// than playing and writing the same game twice.
#[test]
fn a_snapshot_spec_lists_each_game_once() {
    let scratch = tempfile::tempdir().unwrap();
    let spec = scratch.path().join("twice.snapshots.yaml");
    std::fs::write(&spec, "variant: classic\nplayers: 3\nseeds: [1, 1]\n").unwrap();
    let out = unolab(&["snapshot", &spec.display().to_string()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("twice.snapshots.yaml:3:12: seeds lists 1 twice"), "{}", text(&out));
    assert_eq!(std::fs::read_dir(scratch.path()).unwrap().count(), 1, "nothing was written");
}

/// `--games-out` rows carry each game's events, their sizes and longest
/// chain, agreeing with the run's figures; the columns of schema 1 come
/// first, in their order. With `--schema 2` the first line names the run,
/// and its command plays the same rows again.
#[test]
fn per_game_rows_carry_events_and_name_their_run() {
    let scratch = tempfile::tempdir().unwrap();
    let csv = scratch.path().join("rows.csv");
    let args = ["sim", "classic", "-r", "stacking", "-n", "60", "--seed", "4", "-p", "3"];
    let output = unolab(&[&args[..], &["--games-out", &csv.display().to_string(), "--json"]].concat());
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let run: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let rows = std::fs::read_to_string(&csv).unwrap();
    let mut lines = rows.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header[..8], ["game", "seed", "dealer", "winner", "position", "turns", "points", "outcome"]);
    for column in ["actions", "lead_changes", "chain", "penalty", "penalty_size", "penalty_largest", "accepted"] {
        assert!(header.contains(&column), "no column {column}: {header:?}");
    }
    let column = |name: &str| header.iter().position(|c| *c == name).unwrap();
    let rows: Vec<Vec<u64>> = lines
        .map(|l| {
            l.split(',')
                .enumerate()
                .filter(|(i, _)| *i != column("outcome"))
                .map(|(_, v)| v.parse().unwrap_or(0))
                .collect()
        })
        .collect();
    assert_eq!(rows.len(), 60);
    // Columns after "outcome" are one to the left in `rows`.
    let at = |row: &Vec<u64>, name: &str| row[column(name) - usize::from(column(name) > column("outcome"))];
    let penalties: u64 = rows.iter().map(|r| at(r, "penalty")).sum();
    assert_eq!(serde_json::json!(penalties), run["runs"][0]["events"]["penalty"]["total"]);
    // The share of hands with a chain of at least 2, from the rows and
    // from the run.
    let long = rows.iter().filter(|r| at(r, "chain") >= 2).count() as f64 / 60.0;
    assert_eq!(run["runs"][0]["chains_at_least"][1].as_f64(), Some(long));
    assert!(rows.iter().all(|r| (at(r, "penalty") > 0) == (at(r, "chain") > 0)));
    assert!(rows.iter().all(|r| at(r, "penalty_largest") <= at(r, "penalty_size")));

    // Schema 2: the run named on the first line, whose command plays the
    // same rows.
    let jsonl = scratch.path().join("rows.jsonl");
    let output = unolab(&[&args[..], &["--games-out", &jsonl.display().to_string(), "--schema", "2"]].concat());
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let first = std::fs::read_to_string(&jsonl).unwrap();
    let meta: serde_json::Value = serde_json::from_str(first.lines().next().unwrap()).unwrap();
    let meta = &meta["meta"];
    assert_eq!(
        (&meta["schema_version"], &meta["variant"], &meta["seed"]),
        (&serde_json::json!(2), &serde_json::json!("classic"), &serde_json::json!(4))
    );
    assert_eq!(meta["rules"], serde_json::json!(["stacking"]));
    let command = meta["command"].as_str().unwrap();
    let again = scratch.path().join("again.jsonl");
    let words: Vec<&str> = command.split(' ').skip(1).collect();
    let output = unolab(&[&words[..], &["--games-out", &again.display().to_string(), "--schema", "2"]].concat());
    assert_eq!(output.status.code(), Some(0), "{command}: {}", text(&output));
    assert_eq!(std::fs::read_to_string(&again).unwrap(), first, "{command}");
    let row: serde_json::Value = serde_json::from_str(first.lines().nth(1).unwrap()).unwrap();
    assert!(row["events"]["played"]["count"].as_u64().unwrap() > 0, "{row}");
}

/// Completion scripts and manual pages come from the command line's own
/// definition: each shell's script names every command, each page is roff
/// with the exit status, and an unknown page is bad usage.
#[test]
fn completions_and_manual_pages_know_every_command() {
    let commands = ["play", "variants", "deck", "check", "new", "rules", "scenario", "snapshot", "sim", "merge"];
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let output = unolab(&["completions", shell]);
        assert!(output.status.success(), "{shell}: {}", text(&output));
        let script = String::from_utf8_lossy(&output.stdout);
        for command in commands {
            assert!(script.contains(command), "{shell} completes no '{command}'");
        }
    }
    assert_eq!(unolab(&["completions", "tcsh"]).status.code(), Some(2));
    let page = String::from_utf8(unolab(&["man"]).stdout).unwrap();
    assert!(page.starts_with(".ie") && page.contains(".TH unolab 1"), "{page}");
    for command in commands {
        assert!(page.contains(&format!("unolab\\-{command}(1)")), "the page lists no '{command}'");
    }
    assert!(page.contains(".SH \"EXIT STATUS\"") || page.contains(".SH EXIT STATUS"), "{page}");
    let sim = String::from_utf8(unolab(&["man", "sim"]).stdout).unwrap();
    assert!(sim.contains(".TH unolab-sim 1") && sim.contains("\\-\\-vs"), "{sim}");
    let unknown = unolab(&["man", "simulate"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(text(&unknown).contains("no command 'simulate'"), "{}", text(&unknown));
}

/// The JSON (schema 2) of `sim` run as `args` say, against Seven-O added.
fn seven_o_compared(args: &[&str]) -> serde_json::Value {
    let output = unolab(&[args, &["--vs", "-r seven-o", "--json", "--schema", "2"]].concat());
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The skill a rule rewards: the better bot's seats win more than their
/// fair share, reported by kind of bot, and compared under A and B on the
/// same seeds (`wins.bot_KIND`), as docs/simulation.md's recipe says.
#[test]
fn wins_by_bot_measure_the_skill_a_rule_rewards() {
    let json = seven_o_compared(&["sim", "classic", "-n", "300", "--seed", "2", "--bot", "greedy,random", "-j", "2"]);
    let bots = json["runs"][0]["wins_by_bot"].as_array().unwrap();
    let names: Vec<&str> = bots.iter().map(|b| b["bot"].as_str().unwrap()).collect();
    assert_eq!(names, ["greedy", "random"]);
    let greedy = &bots[0];
    assert_eq!((greedy["seats"].as_u64(), greedy["fair"].as_f64()), (Some(2), Some(0.5)));
    // The greedy bot beats the random one, with no doubt at 300 hands.
    assert!(greedy["low"].as_f64().unwrap() > 0.5, "{greedy}");
    let wins: u64 = bots.iter().map(|b| b["wins"].as_u64().unwrap()).sum();
    assert_eq!(wins, json["runs"][0]["finished"].as_u64().unwrap());
    let figure = json["comparisons"][0]["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["key"] == "wins.bot_greedy")
        .expect("the greedy seats' wins compared");
    assert!((figure["a"].as_f64().unwrap() - 100.0 * greedy["rate"].as_f64().unwrap()).abs() < 1e-9, "{figure}");
    // The text says it too; a table of one kind of bot does not.
    let shown = text(&unolab(&["sim", "classic", "-n", "40", "--bot", "greedy,random"]));
    assert!(shown.contains("wins by bot (95% interval") && shown.contains("  greedy "), "{shown}");
    assert!(!text(&unolab(&["sim", "classic", "-n", "10"])).contains("wins by bot"));
}

/// Every kind of bot seated has its `wins.bot_KIND` figure, in the order
/// the report lists the kinds (by their first seat), a kind that won no
/// hand in either run as 0 (0 to 0): one hand a run, three kinds, so one
/// kind at least won nothing.
#[test]
fn every_kind_of_bot_seated_is_compared_in_the_reports_order() {
    let args = ["sim", "classic", "-p", "3", "-n", "1", "--seed", "4", "--bot", "random,search:1,greedy"];
    let json = seven_o_compared(&args);
    let reported: Vec<String> = json["runs"][0]["wins_by_bot"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| format!("wins.bot_{}", b["bot"].as_str().unwrap()))
        .collect();
    assert_eq!(reported, ["wins.bot_random", "wins.bot_search:1", "wins.bot_greedy"]);
    let figures = json["comparisons"][0]["figures"].as_array().unwrap();
    let compared: Vec<&serde_json::Value> =
        figures.iter().filter(|f| f["key"].as_str().unwrap().starts_with("wins.bot_")).collect();
    let keys: Vec<&str> = compared.iter().map(|f| f["key"].as_str().unwrap()).collect();
    assert_eq!(keys, reported);
    let never = compared.iter().find(|f| f["a"] == 0.0 && f["b"] == 0.0).expect("a kind that won no hand");
    assert_eq!(
        (&never["difference"], &never["low"], &never["high"]),
        (&0.0.into(), &0.0.into(), &0.0.into()),
        "{never}"
    );
    // The text lists them in that order too.
    let shown = text(&unolab(&[&args[..], &["--vs", "-r seven-o"]].concat()));
    let at = |name: &str| shown.find(&format!("wins, {name} seats (%)")).unwrap_or_else(|| panic!("{name}: {shown}"));
    assert!(at("random") < at("search:1") && at("search:1") < at("greedy"), "{shown}");
}
