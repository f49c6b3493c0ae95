//! Simulation speed: seeded bot hands of the configurations whose figures
//! the README quotes (one thread; the memo warmed up by the first hands,
//! as in a long run, and no backups, as in `sim`); and what a bot that
//! searches pays for each line it tries: copying a mid-hand position,
//! dealing what a seat cannot see anew, and one random playout from it.
//! And what the search bot costs (`search`): the time of a decision at
//! its default budget, and playouts a second, for every built-in variant
//! and Classic with stacking, Seven-O and Jump-In.
//! `cargo bench`; for ratios measured against the hand-coded reference,
//! run `../shared/bench/ratio.sh`; for instruction counts,
//! `benches/instructions.sh`.

use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use unolab::bot::{Bot, BotKind};
use unolab::game::{Game, OnFailure};
use unolab::loader::load;
use unolab::rng::game_seed;
use unolab::rng::rng;
use unolab::ruleset::LoadRequest;
use unolab::script::Runtime;
use unolab::sim::{play_hand, play_out};

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

/// A 4-player game of the built-in `variant` with the built-in `rules`,
/// seeded 7, with no backups (`OnFailure::Stop`), as `sim` plays.
fn game(variant: &str, rules: &[&str]) -> Game<Runtime> {
    let request = LoadRequest {
        variant: variant.to_string(),
        rules: rules.iter().map(|r| r.to_string()).collect(),
        ..LoadRequest::default()
    };
    let loaded = Arc::new(load(&request).expect("built-in rules load"));
    let mut game = Game::new(Runtime::new(loaded).expect("scripts compile"), 4, 7).expect("4 players");
    game.set_on_failure(OnFailure::Stop);
    game
}

fn hands(c: &mut Criterion) {
    let mut group = c.benchmark_group("hands");
    group.throughput(Throughput::Elements(HANDS));
    for (variant, rules) in CONFIGS {
        let mut game = game(variant, rules);
        game.set_logging(false);
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

/// A 4-player Classic hand some twenty actions in, as a bot would search
/// it: the game's logging off.
fn mid_hand() -> Game<Runtime> {
    let mut game = game("classic", &[]);
    game.set_logging(false);
    game.deal().expect("deals");
    let mut bots: Vec<Bot> = (0..4).map(|s| Bot::new(BotKind::Random, 7, s)).collect();
    for _ in 0..20 {
        let seat = game.to_act();
        let action = bots[seat].choose(&mut game, seat).expect("a bot decides");
        game.apply(action).expect("a legal move");
    }
    assert!(!game.hand_over(), "still mid-hand");
    game
}

fn positions(c: &mut Criterion) {
    let mut group = c.benchmark_group("position");
    let mut game = mid_hand();
    let position = game.position().clone();
    let variant = game.variant.clone();
    group.bench_function("clone", |b| b.iter(|| std::hint::black_box(position.clone())));
    let mut copy = position.clone();
    group.bench_function("clone_into", |b| b.iter(|| copy.clone_from(std::hint::black_box(&position))));
    let mut seed = 0;
    group.bench_function("determinize", |b| {
        b.iter(|| {
            seed += 1;
            std::hint::black_box(position.determinize(0, &variant, &mut rng(seed)))
        })
    });
    let mut bots: Vec<Bot> = (0..4).map(|s| Bot::new(BotKind::Random, 7, s)).collect();
    let mut playout = 0;
    group.bench_function("random_playout", |b| {
        b.iter(|| {
            playout += 1;
            game.set_position(&position);
            for (seat, bot) in bots.iter_mut().enumerate() {
                bot.reseed(BotKind::Random, playout, seat as u64);
            }
            play_out(&mut game, &mut bots).expect("the hand plays out")
        })
    });
    group.finish();
}

/// Positions of 4-player hands where seat 0 has a choice to make (two
/// options or more), from hands greedy bots play with `rules` (seeded).
fn choices(variant: &str, rules: &[&str], count: usize) -> (Game<Runtime>, Vec<unolab::game::Position>) {
    let mut game = game(variant, rules);
    let mut positions = Vec::new();
    let mut moves = unolab::game::Moves::default();
    let mut actions = Vec::new();
    for hand in 0.. {
        let seed = game_seed(11, hand);
        game.restart(seed);
        game.deal().expect("deals");
        let mut bots: Vec<Bot> = (0..4).map(|s| Bot::new(BotKind::Greedy, seed, s)).collect();
        while !game.hand_over() {
            if game.to_act() == 0 {
                game.legal_moves(0, &mut moves).expect("moves");
                unolab::bot::search::plays(&moves, &mut actions);
                let others = [moves.draw, moves.pass, moves.accept, moves.challenge].iter().filter(|&&m| m).count();
                let options = actions.len() + others + moves.name_color.len() + moves.choose;
                if options >= 2 {
                    positions.push(game.position().clone());
                    if positions.len() == count {
                        return (game, positions);
                    }
                }
            }
            unolab::bot::playout::act(&mut game, &mut bots, None).expect("the hand plays");
        }
    }
    unreachable!()
}

/// A search decision at the default budget, over decisions of seat 0
/// (`decision`: its time, elements = decisions), and the playouts they
/// take (`playouts`: elements = playouts).
fn search(c: &mut Criterion) {
    let configs: &[(&str, &[&str])] = &[
        ("classic", &[]),
        ("flex", &[]),
        ("flip", &[]),
        ("express", &[]),
        ("classic", &["stacking", "seven-o", "jump-in"]),
    ];
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (variant, rules) in configs {
        let name = if rules.is_empty() { variant.to_string() } else { format!("{variant}+{}", rules.join("+")) };
        let (mut game, positions) = choices(variant, rules, 20);
        let mut bot = Bot::new(BotKind::SEARCH, 7, 0);
        let decide = |game: &mut Game<Runtime>, bot: &mut Bot| {
            for position in &positions {
                game.set_position(position);
                std::hint::black_box(bot.choose(game, 0).expect("the search decides"));
            }
        };
        // One pass first: the memo learns, and the playouts are counted.
        decide(&mut game, &mut bot);
        let playouts = bot.tally().playouts;
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_function(format!("decision/{name}"), |b| b.iter(|| decide(&mut game, &mut bot)));
        group.throughput(Throughput::Elements(playouts));
        group.bench_function(format!("playouts/{name}"), |b| b.iter(|| decide(&mut game, &mut bot)));
    }
    group.finish();
}

criterion_group!(benches, hands, positions, search);
criterion_main!(benches);
