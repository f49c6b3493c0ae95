//! Seeded full hands with bots, snapshotted event by event: any change to a
//! rule, the deal or the RNG shows up here. Each file in `tests/transcripts/`
//! names a variant, a player count and a seed.

use std::sync::Arc;

use serde::Deserialize;
use unolab::bot::BotKind;
use unolab::loader::load;
use unolab::ruleset::LoadRequest;
use unolab::sim::transcript;

#[derive(Deserialize)]
struct Spec {
    variant: String,
    players: usize,
    seed: u64,
    #[serde(default)]
    rules: Vec<String>,
}

#[test]
fn seeded_hands() {
    insta::glob!("../transcripts", "*.yaml", |path| {
        let spec: Spec = serde_yaml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let request = LoadRequest { variant: spec.variant, rules: spec.rules, ..LoadRequest::default() };
        let variant = Arc::new(load(&request).unwrap());
        let text = transcript(variant.clone(), spec.players, spec.seed, BotKind::Random).unwrap();
        assert!(text.contains("goes out"), "the hand ended");
        insta::assert_snapshot!(text);
        // The same seed gives the same hand.
        assert_eq!(transcript(variant, spec.players, spec.seed, BotKind::Random).unwrap(), text);
    });
}
