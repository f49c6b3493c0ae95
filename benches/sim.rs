//! Simulation speed: seeded bot hands of the configurations whose figures
//! the README quotes (one thread; the memo warmed up by the first hands,
//! as in a long run, and no backups, as in `sim`). `cargo bench`; for
//! ratios measured against the hand-coded reference, run
//! `../shared/bench/ratio.sh`.

use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use unolab::bot::{Bot, BotKind};
use unolab::game::{Game, OnFailure};
use unolab::loader::load;
use unolab::rng::game_seed;
use unolab::ruleset::LoadRequest;
use unolab::script::Runtime;
use unolab::sim::play_hand;

const CONFIGS: &[(&str, &[&str])] = &[
    ("classic", &[]),
    ("classic", &["stacking", "seven-o", "jump-in"]),
    ("flex", &[]),
    ("flip", &[]),
    ("express", &[]),
    (
        "classic",
        &["stacking", "seven-o", "jump-in", "draw-to-match", "force-play", "deflect", "multi-play", "no-action-finish"],
    ),
];

/// Hands played per measured iteration.
const HANDS: u64 = 100;

fn hands(c: &mut Criterion) {
    let mut group = c.benchmark_group("hands");
    group.throughput(Throughput::Elements(HANDS));
    for (variant, rules) in CONFIGS {
        let request = LoadRequest {
            variant: variant.to_string(),
            rules: rules.iter().map(|r| r.to_string()).collect(),
            ..LoadRequest::default()
        };
        let loaded = Arc::new(load(&request).expect("built-in rules load"));
        let mut game = Game::new(Runtime::new(loaded).expect("scripts compile"), 4, 7).expect("4 players");
        game.set_logging(false);
        game.set_on_failure(OnFailure::Stop);
        let mut index = 0;
        let name = if rules.is_empty() { variant.to_string() } else { format!("{variant}+{}", rules.join("+")) };
        group.bench_function(name, |b| {
            b.iter(|| {
                for _ in 0..HANDS {
                    let seed = game_seed(7, index);
                    index += 1;
                    game.restart(seed);
                    let mut bots: Vec<Bot> = (0..4).map(|s| Bot::new(BotKind::Random, seed, s)).collect();
                    play_hand(&mut game, &mut bots).expect("the hand plays");
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, hands);
criterion_main!(benches);
