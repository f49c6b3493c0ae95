//! Seeded full hands with bots, snapshotted event by event through
//! `unolab snapshot`'s own code: any change to a rule, the deal or the RNG
//! shows up here. Each `*.snapshots.yaml` under `tests/transcripts/` lists
//! games; a new spec file needs no Rust. A difference is left as a pending
//! `.snap.new` beside the `.snap`: review it with `cargo insta review`, or
//! accept every one with `unolab snapshot tests/transcripts --accept`.

use std::path::{Path, PathBuf};

use unolab::snapshot::{self, Mode, Verdict};

fn specs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    snapshot::collect(&[dir]).unwrap()
}

#[test]
fn seeded_hands_match_their_snapshots() {
    let specs = specs();
    assert!(specs.len() >= 6, "{specs:?}");
    let mut differ = Vec::new();
    for spec in &specs {
        let result = snapshot::run_spec(spec, Mode::Review).unwrap_or_else(|e| panic!("{e}"));
        assert!(!result.games.is_empty(), "{}", spec.display());
        for game in result.games {
            match game.verdict {
                Verdict::Same => {}
                Verdict::New => differ.push(format!("new: {}", game.snap.display())),
                Verdict::Changed(diff) => differ.push(format!("changed: {}\n{diff}", game.snap.display())),
                Verdict::Failed(why) => differ.push(format!("failed: {}: {why}", game.snap.display())),
            }
        }
    }
    assert!(
        differ.is_empty(),
        "{}\nreview with `cargo insta review`, or accept with `unolab snapshot tests/transcripts --accept`",
        differ.join("\n")
    );
}

/// Every built-in variant and house rule, and every file of
/// `tests/variants/designer/`, is played by some spec, so a new file is
/// covered once a spec names it (data, not Rust).
#[test]
fn every_built_in_variant_and_rule_has_a_snapshot_spec() {
    let mut named = Vec::new();
    for spec in specs() {
        let yaml: unolab::yaml::Yaml = unolab::yaml::from_str(&std::fs::read_to_string(spec).unwrap()).unwrap();
        named.extend(yaml.get("variant").and_then(|v| v.as_str()).map(String::from));
        let rules = yaml.get("rules").and_then(|r| r.as_sequence()).unwrap_or_default();
        named.extend(rules.iter().filter_map(|r| r.as_str().map(String::from)));
    }
    for name in unolab::builtin::variant_names().into_iter().chain(unolab::builtin::rule_names()) {
        assert!(named.iter().any(|n| n == name), "no spec in tests/transcripts/ plays '{name}'");
    }
    // The rules and variants written from the guide alone, by file.
    let designer = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/variants/designer");
    for entry in std::fs::read_dir(designer).unwrap() {
        let file = entry.unwrap().file_name().to_string_lossy().to_string();
        if file.ends_with(".yaml") {
            assert!(named.iter().any(|n| n.ends_with(&format!("/{file}"))), "no spec plays designer/{file}");
        }
    }
}

/// The transcripts kept here are each listed by a spec: a `.snap` no spec
/// lists (a seed taken out of a spec, a spec deleted) is reported by
/// `unolab snapshot`, naming it.
#[test]
fn a_snap_that_no_spec_lists_is_reported() {
    let report = snapshot::run_files(&specs(), Mode::Review);
    assert_eq!(report.unlisted, 0, "{}", report.text);
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let spec = dir.join("two.snapshots.yaml");
    std::fs::write(&spec, "variant: classic\nplayers: 2\nseeds: [1, 2]\n").unwrap();
    let accepted = snapshot::run_files(std::slice::from_ref(&spec), Mode::Accept);
    assert_eq!((accepted.new, accepted.unlisted), (2, 0), "{}", accepted.text);
    std::fs::write(&spec, "variant: classic\nplayers: 2\nseeds: [1]\n").unwrap();
    std::fs::copy(dir.join("two@2p-seed1.snap"), dir.join("gone@2p-seed1.snap")).unwrap();
    let report = snapshot::run_files(&[spec], Mode::Review);
    assert_eq!((report.same, report.unlisted), (1, 2), "{}", report.text);
    assert!(
        report
            .text
            .contains(&format!("unlisted {}: no spec lists this game", dir.join("gone@2p-seed1.snap").display()))
    );
    assert!(report.text.contains("two@2p-seed2.snap: no spec lists this game"), "{}", report.text);
}
