//! Properties over many seeded games: cards are conserved at every step, a
//! refused action changes nothing (the whole table, its generator
//! included, compares equal), and results do not depend on threads.

use std::sync::Arc;

use proptest::prelude::*;
use unolab::bot::{Bot, BotKind};
use unolab::game::{Action, Game, Play};
use unolab::loader::load;
use unolab::rules::Rules;
use unolab::ruleset::LoadRequest;
use unolab::script::{Runtime, Scripts};
use unolab::sim::{Progress, SimConfig, run};
use unolab::variant::Variant;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// On every built-in variant with up to three built-in house rules; the
    /// history of what was accepted replays to the same game.
    #[test]
    fn cards_are_conserved_refusals_change_nothing_and_histories_replay(seed in any::<u64>(), players in 2usize..=10, noise in any::<u64>()) {
        let variants = unolab::builtin::variant_names();
        let rules: Vec<String> = unolab::builtin::rule_names()
            .into_iter()
            .enumerate()
            .filter(|(i, _)| (noise >> (i * 5)) % 4 == 0)
            .map(|(_, r)| r.to_string())
            .take(3)
            .collect();
        let request = LoadRequest { variant: variants[(seed % variants.len() as u64) as usize].into(), rules, ..LoadRequest::default() };
        let loaded = load(&request);
        prop_assume!(loaded.is_ok(), "rules that conflict: {:?}", request.rules);
        let variant = Arc::new(loaded.unwrap());
        let sizes: Vec<usize> = variant.table_sizes().collect();
        let players = sizes[players % sizes.len()];
        let mut game = Game::new(Runtime::new(variant.clone()).unwrap(), players, seed).unwrap();
        let mut bots: Vec<Bot> = (0..players).map(|s| Bot::new(BotKind::Random, seed, s as u64)).collect();
        game.deal().unwrap();
        prop_assert!(game.table().conserves(&variant));
        let mut step = 0u64;
        while !game.hand_over() && step < 3_000 {
            // An arbitrary action, legal or not: if refused, nothing moves.
            let mix = noise.rotate_left((step % 64) as u32) ^ step;
            let seat = (mix as usize) % players;
            let hand = &game.table().hands()[seat];
            let card = Action::Play(Play::new(seat, hand[(mix as usize / 7) % hand.len()]));
            let other = (seat + 1) % players;
            let arbitrary = [
                card,
                Action::Draw(seat),
                Action::Pass(seat),
                Action::Challenge(seat),
                Action::Accept(seat),
                Action::Catch { by: other, target: seat },
                Action::CallUno(seat),
                Action::NameColor(seat, (mix % 4) as u8),
            ][(mix % 8) as usize];
            let before = game.table().clone();
            let events = game.events().len();
            if game.apply(arbitrary).is_err() {
                prop_assert!(*game.table() == before, "a refused action changed the table");
                prop_assert_eq!(game.events().len(), events);
            }
            prop_assert!(game.table().conserves(&variant));
            if game.hand_over() { break; }
            let seat = game.to_act();
            let action = bots[seat].choose(&mut game, seat).unwrap();
            game.apply(action).unwrap();
            prop_assert!(game.table().conserves(&variant));
            step += 1;
        }
        // Its history, played again from the seed with every script run
        // (the memo off), is the same game.
        let scripts = Scripts::new(variant.clone()).unwrap();
        let again = Game::replay(scripts, players, seed, game.history()).unwrap();
        prop_assert!(again.events() == game.events(), "the replay's transcript differs");
        prop_assert!(again.table() == game.table(), "the replay's table differs");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever a scenario file says, loading and running it returns a
    /// result: a report or an error, never a panic.
    #[test]
    fn arbitrary_scenario_text_never_panics(
        lines in proptest::collection::vec(
            prop_oneof![
                Just("variant: classic".to_string()),
                Just("variant: flex".to_string()),
                Just("variant: flip".to_string()),
                Just("players: 3".to_string()),
                Just("players: 0".to_string()),
                Just("setup:".to_string()),
                Just("  hands: {0: [red 5, wild], 1: [blue 2]}".to_string()),
                Just("  discard: [red 2]".to_string()),
                Just("  discard: [wild]".to_string()),
                Just("  current: 7".to_string()),
                Just("  side: dark".to_string()),
                Just("  power: {0: red}".to_string()),
                Just("steps:".to_string()),
                Just("  - play: red 5".to_string()),
                Just("  - play: {card: wild, color: teal, target: 9, as: flex}".to_string()),
                Just("  - draw".to_string()),
                Just("  - catch: 99".to_string()),
                Just("  - expect: {hand_sizes: {42: 1}, power: {3: green}}".to_string()),
                Just("  - expect_error: {expect_error: pass}".to_string()),
                "[ -~]{0,30}",
            ],
            0..14,
        )
    ) {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let file = dir.join("case.yaml");
        std::fs::write(&file, lines.join("\n")).unwrap();
        if let Ok(scenario) = unolab::scenario::Scenario::load(&file) {
            let _ = scenario.run();
        }
    }
}

#[test]
fn every_variant_simulates_across_its_player_range() {
    for name in unolab::builtin::variant_names() {
        let variant = Arc::new(load(&LoadRequest { variant: name.into(), ..LoadRequest::default() }).unwrap());
        for players in variant.min_players..=variant.max_players {
            let config = SimConfig {
                bots: vec![BotKind::Greedy],
                ..SimConfig::new(variant.clone(), players, 2, players as u64)
            };
            let stats = run(&config, &Progress::default()).unwrap();
            assert!(stats.failures.is_empty() && stats.stuck.is_empty(), "{name} with {players}: {stats:?}");
        }
    }
}

/// The game log of `hands` seeded hands with bots, with the memo on or off.
fn hands_played(
    variant: &Arc<Variant>,
    players: usize,
    seed: u64,
    hands: usize,
    memo: bool,
) -> Vec<unolab::event::Event> {
    fn play<R: Rules>(mut game: Game<R>, players: usize, seed: u64, hands: usize) -> Vec<unolab::event::Event> {
        let mut bots: Vec<Bot> = (0..players).map(|s| Bot::new(BotKind::Random, seed, s as u64)).collect();
        for _ in 0..hands {
            unolab::sim::play_hand(&mut game, &mut bots).unwrap();
        }
        game.events().to_vec()
    }
    match memo {
        true => play(Game::new(Runtime::new(variant.clone()).unwrap(), players, seed).unwrap(), players, seed, hands),
        false => play(Game::new(Scripts::new(variant.clone()).unwrap(), players, seed).unwrap(), players, seed, hands),
    }
}

/// Variant `name` with `rules`, loaded.
fn with_rules(name: &str, rules: &[&str]) -> Arc<Variant> {
    let request = LoadRequest {
        variant: name.into(),
        rules: rules.iter().map(|r| r.to_string()).collect(),
        ..LoadRequest::default()
    };
    Arc::new(load(&request).unwrap())
}

/// A refusal says the same whether its rule's answer was recorded or ran:
/// a reason that names a card (`refusal(text, card)`) names the card of
/// this call, not of the call it was recorded from.
#[test]
fn refusals_say_the_same_with_the_memo_off() {
    let cases: [(&str, &[&str]); 3] = [
        ("classic", &["force-play", "no-action-finish", "no-bluffing"]),
        ("flex", &["force-play", "no-bluffing"]),
        ("flip", &["force-play", "no-action-finish"]),
    ];
    let mut named = 0;
    for (name, rules) in cases {
        let variant = with_rules(name, rules);
        for seed in 0..3 {
            let mut with = Game::new(Runtime::new(variant.clone()).unwrap(), 4, seed).unwrap();
            let mut without = Game::new(Scripts::new(variant.clone()).unwrap(), 4, seed).unwrap();
            with.deal().unwrap();
            without.deal().unwrap();
            let [mut bots, mut again] =
                [(); 2].map(|()| (0..4).map(|s| Bot::new(BotKind::Random, seed, s)).collect::<Vec<_>>());
            while !with.hand_over() {
                let seat = with.to_act();
                let hand = with.table().hands()[seat].clone();
                let tries = hand.iter().map(|&card| Action::Play(Play::new(seat, card)));
                for action in tries.chain([Action::Draw(seat), Action::Pass(seat)]) {
                    if with.is_legal(&action).unwrap() {
                        continue;
                    }
                    let said = with.apply(action).unwrap_err().to_string();
                    let said_without = without.apply(action).unwrap_err().to_string();
                    assert_eq!(said, said_without, "{name} {rules:?} seed {seed}");
                    named += usize::from(said.contains("play it") || said.contains("is not allowed"));
                }
                let action = bots[seat].choose(&mut with, seat).unwrap();
                assert_eq!(action, again[seat].choose(&mut without, seat).unwrap());
                with.apply(action).unwrap();
                without.apply(action).unwrap();
            }
        }
    }
    assert!(named > 20, "rules named cards in their refusals ({named} times)");
}

#[test]
fn the_memo_changes_nothing_but_speed() {
    let cases: [(&str, &[&str]); 9] = [
        ("classic", &[]),
        ("classic", &["stacking", "seven-o", "jump-in", "deflect"]),
        ("classic", &["draw-to-match", "force-play", "multi-play", "no-action-finish", "no-bluffing"]),
        ("flex", &[]),
        ("flex", &["stacking", "multi-play", "no-bluffing", "jump-in"]),
        ("flip", &[]),
        ("flip", &["stacking", "seven-o", "force-play", "partners"]),
        ("express", &["draw-to-match", "low-score", "no-action-finish"]),
        // Choices that offer cards of a hand (the cards are what is read).
        ("classic", &["tests/variants/host/offer.yaml"]),
    ];
    for (name, rules) in cases {
        let variant = with_rules(name, rules);
        let players = 4.min(variant.max_players);
        for seed in 0..4 {
            let with = hands_played(&variant, players, seed, 3, true);
            let without = hands_played(&variant, players, seed, 3, false);
            assert!(with.len() > 100, "{name} {rules:?}: whole hands were played");
            assert!(with == without, "{name} {rules:?} seed {seed}: the memo changed the game");
        }
    }
}
