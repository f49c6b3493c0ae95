//! House rules as layers: every combination of built-in variant and
//! built-in house rules plays seeded hands to the end, and conflicting rules
//! are refused at load naming both.

use std::sync::Arc;

use unolab::builtin;
use unolab::loader::load;
use unolab::ruleset::LoadRequest;
use unolab::sim::{Progress, SimConfig, run};

#[test]
fn every_combination_of_variant_and_house_rules_plays_to_the_end() {
    let rules = builtin::rule_names();
    assert!(rules.len() >= 9, "{rules:?}");
    let variants = builtin::variant_names();
    assert!(variants.len() >= 4, "{variants:?}");
    std::thread::scope(|scope| {
        for variant in variants {
            let rules = &rules;
            scope.spawn(move || {
                for mask in 0u32..(1 << rules.len()) {
                    let chosen: Vec<String> = rules
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| mask & (1 << i) != 0)
                        .map(|(_, r)| r.to_string())
                        .collect();
                    let request =
                        LoadRequest { variant: variant.into(), rules: chosen.clone(), ..LoadRequest::default() };
                    let loaded = Arc::new(load(&request).unwrap_or_else(|e| panic!("{variant} {chosen:?}: {e:?}")));
                    // Two to four players, as many as the rules seat.
                    let sizes: Vec<usize> = loaded.table_sizes().filter(|&n| n <= 4).collect();
                    let players = sizes[mask as usize % sizes.len()];
                    let config = SimConfig::new(loaded, players, 2, u64::from(mask));
                    let stats = run(&config, &Progress::default()).unwrap();
                    assert!(stats.failures.is_empty(), "{variant} {chosen:?}: {:?}", stats.failures);
                    assert!(stats.stuck.is_empty(), "{variant} {chosen:?}: a hand did not end");
                }
            });
        }
    });
}

/// Plays seeded hands of a loaded ruleset; every one must end cleanly.
fn plays_to_the_end(request: &LoadRequest, players: usize, games: u64) {
    let what = format!("{} {:?}", request.variant, request.rules);
    let variant = Arc::new(load(request).unwrap_or_else(|e| panic!("{what}: {e:?}")));
    let sizes: Vec<usize> = variant.table_sizes().filter(|&n| n >= players && n <= 6).collect();
    for players in [sizes[0], sizes[sizes.len() - 1]] {
        let config = SimConfig::new(variant.clone(), players, games, 11);
        let stats = run(&config, &Progress::default()).unwrap();
        assert!(stats.failures.is_empty(), "{what}, {players} players: {:?}", stats.failures);
        assert!(stats.stuck.is_empty(), "{what}, {players} players: a hand did not end");
        assert_eq!(stats.wins.iter().sum::<u64>(), games, "{what}: every hand has a winner");
    }
}

/// The rules and variants in `tests/variants/designer/` were written from
/// docs/authoring.md alone: each rule on every built-in variant, each variant on its own, plays seeded hands to the end.
#[test]
fn every_rule_written_from_the_docs_plays_to_the_end() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/variants/designer");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "{files:?}");
    for file in files {
        let path = file.display().to_string();
        let text = std::fs::read_to_string(&file).unwrap();
        if text.lines().any(|l| l.starts_with("deck:")) {
            plays_to_the_end(&LoadRequest { variant: path, ..LoadRequest::default() }, 2, 20);
            continue;
        }
        for variant in builtin::variant_names() {
            let request = LoadRequest { variant: variant.into(), rules: vec![path.clone()], ..LoadRequest::default() };
            plays_to_the_end(&request, 3, 20);
        }
    }
}

#[test]
fn conflicting_rules_are_refused_naming_both() {
    let rule = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/variants/rules/sevens-skip.yaml");
    let request =
        LoadRequest { variant: "classic".into(), rules: vec!["seven-o".into(), rule.into()], ..LoadRequest::default() };
    let problems = load(&request).unwrap_err();
    assert_eq!(problems, vec!["house rules 'seven-o' and 'sevens-skip' conflict and cannot be combined".to_string()]);
    let twice = LoadRequest {
        variant: "classic".into(),
        rules: vec!["stacking".into(), "stacking".into()],
        ..LoadRequest::default()
    };
    assert_eq!(load(&twice).unwrap_err(), vec!["house rule 'stacking' is given twice".to_string()]);
}

#[test]
fn options_are_checked_by_name_and_type() {
    let request = |settings: &[(&str, &str)]| LoadRequest {
        variant: "classic".into(),
        rules: vec!["stacking".into()],
        settings: settings.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
    };
    assert!(
        load(&request(&[("crossStack", "true")])).unwrap().options["crossStack"]
            == unolab::variant::OptionValue::Bool(true)
    );
    assert!(load(&request(&[("crossStack", "maybe")])).unwrap_err()[0].contains("takes a value like 'false'"));
    assert!(load(&request(&[("crosStack", "true")])).unwrap_err()[0].contains("unknown option 'crosStack'"));
}
