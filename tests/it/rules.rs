//! House rules as layers: every combination of built-in variant and
//! built-in house rules plays seeded hands to the end, and conflicting rules
//! are refused at load naming both.

use std::sync::Arc;

use unolab::bot::BotKind;
use unolab::builtin;
use unolab::loader::load;
use unolab::ruleset::LoadRequest;
use unolab::sim::{SimConfig, run};

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
                    let players = [2, 3, 4][mask as usize % 3].min(loaded.max_players);
                    let config = SimConfig {
                        variant: loaded,
                        players,
                        games: 2,
                        seed: u64::from(mask),
                        bot: BotKind::Random,
                        threads: 1,
                        memo: true,
                    };
                    let stats = run(&config).unwrap();
                    assert!(stats.errors.is_empty(), "{variant} {chosen:?}: {:?}", stats.errors);
                    assert_eq!(stats.stuck, 0, "{variant} {chosen:?}: a hand did not end");
                }
            });
        }
    });
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
