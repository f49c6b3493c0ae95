//! Host behaviour that scenario files cannot reach: dealing successive
//! hands, match scoring across them, and what a script failing midway
//! through an action leaves.

use std::sync::Arc;

use unolab::bot::{Bot, BotKind};
use unolab::card::{CardId, Side};
use unolab::game::{Action, Game, Moves, OnFailure, Play};
use unolab::loader::load;
use unolab::ruleset::LoadRequest;
use unolab::script::Runtime;
use unolab::sim::{HandResult, play_hand};
use unolab::variant::Variant;

fn game(players: usize, seed: u64) -> Game<Runtime> {
    let variant = Arc::new(load(&LoadRequest { variant: "classic".into(), ..LoadRequest::default() }).unwrap());
    Game::new(Runtime::new(variant).unwrap(), players, seed).unwrap()
}

#[test]
fn the_deal_passes_one_seat_to_the_left_each_hand() {
    let mut g = game(4, 17);
    let mut bots: Vec<Bot> = (0..4).map(|s| Bot::new(BotKind::Random, 17, s)).collect();
    play_hand(&mut g, &mut bots).unwrap();
    let first = g.table().dealer();
    play_hand(&mut g, &mut bots).unwrap();
    assert_eq!(g.table().dealer(), (first + 1) % 4);
    assert_eq!(g.table().hand_number(), 2);
}

#[test]
fn a_match_runs_hand_after_hand_until_someone_reaches_the_target() {
    let mut g = game(3, 5);
    let mut bots: Vec<Bot> = (0..3).map(|s| Bot::new(BotKind::Greedy, 5, s)).collect();
    let mut total = vec![0i64; 3];
    while g.table().match_winner().is_none() {
        match play_hand(&mut g, &mut bots).unwrap() {
            HandResult::Won { seat, points, .. } => total[seat] += points,
            HandResult::Stuck { .. } => panic!("a hand got stuck"),
        }
        assert!(g.table().hand_number() < 100, "the match ends");
    }
    assert_eq!(g.table().scores(), total);
    let winner = g.table().match_winner().unwrap();
    assert!(g.table().scores()[winner] >= 500);
    assert!(g.table().scores().iter().enumerate().all(|(s, &p)| s == winner || p < 500), "only the winner reached 500");
}

#[test]
fn every_hand_starts_on_the_light_side() {
    let variant = Arc::new(load(&LoadRequest { variant: "flip".into(), ..LoadRequest::default() }).unwrap());
    let mut g = Game::new(Runtime::new(variant).unwrap(), 3, 2).unwrap();
    g.deal().unwrap();
    let mut layout = g.table().layout();
    layout.side = unolab::card::Side::Dark;
    g.arrange(layout).unwrap();
    g.deal().unwrap();
    assert_eq!(g.table().side(), unolab::card::Side::Light, "or the first discard was a Flip");
}

#[test]
fn a_recorded_game_replays_event_for_event() {
    for (variant, rules, seed) in
        [("classic", vec![], 3u64), ("flip", vec!["stacking", "jump-in"], 8), ("flex", vec!["seven-o"], 5)]
    {
        let request = LoadRequest {
            variant: variant.into(),
            rules: rules.iter().map(|r| r.to_string()).collect(),
            ..LoadRequest::default()
        };
        let variant = Arc::new(load(&request).unwrap());
        let mut g = Game::new(Runtime::new(variant.clone()).unwrap(), 4, seed).unwrap();
        let mut bots: Vec<Bot> = (0..4).map(|s| Bot::new(BotKind::Random, seed, s)).collect();
        play_hand(&mut g, &mut bots).unwrap();
        play_hand(&mut g, &mut bots).unwrap();
        assert!(g.history().iter().filter(|r| **r == unolab::game::Record::Deal).count() == 2);
        let again = Game::replay(Runtime::new(variant).unwrap(), 4, seed, g.history()).unwrap();
        assert_eq!(again.events(), g.events());
        assert!(again.table() == g.table(), "the replayed table differs");
    }
}

/// The id of the first design that fits `name` (light side).
pub(super) fn card(variant: &Variant, name: &str) -> CardId {
    let pattern = variant.names.parse_pattern(name).unwrap();
    (0..variant.designs.len() as u16).map(CardId).find(|&c| pattern.matches(variant.design(c), Side::Light)).unwrap()
}

/// Rearranges the dealt table: the named hands, `top` alone on the discard
/// pile, everything else in the draw pile; `current` to play. Cards only
/// move between piles, so the deck stays whole.
pub(super) fn arrange(g: &mut Game<Runtime>, hands: &[&[&str]], top: &str, current: usize) {
    let variant = g.variant.clone();
    let mut layout = g.table().layout();
    let mut all: Vec<_> = layout.hands.iter_mut().flat_map(std::mem::take).collect();
    all.append(&mut layout.discard);
    all.append(&mut layout.draw);
    let mut take = |name: &str| {
        let id = card(&variant, name);
        all.remove(all.iter().position(|&c| c == id).unwrap())
    };
    layout.hands = hands.iter().map(|names| names.iter().map(|n| take(n)).collect()).collect();
    layout.discard = vec![take(top)];
    layout.draw = all;
    layout.current = current;
    layout.phase = unolab::turn::Phase::Turn;
    layout.color = layout.discard.last().and_then(|&c| variant.face(c, Side::Light).color);
    g.arrange(layout).unwrap();
}

fn with_rules(variant: &str, rules: &[&str]) -> Arc<Variant> {
    let request = LoadRequest {
        variant: variant.into(),
        rules: rules.iter().map(|r| r.to_string()).collect(),
        ..LoadRequest::default()
    };
    Arc::new(load(&request).unwrap())
}

#[test]
fn a_tie_for_the_lowest_total_is_a_shared_win() {
    let variant = with_rules("classic", &["low-score"]);
    let mut g = Game::new(Runtime::new(variant.clone()).unwrap(), 3, 1).unwrap();
    g.deal().unwrap();
    arrange(&mut g, &[&["red 5"], &["blue 3"], &["green 3"]], "red 2", 0);
    let mut layout = g.table().layout();
    layout.scores = vec![600, 100, 100];
    g.arrange(layout).unwrap();
    g.apply(Action::Play(Play::new(0, card(&variant, "red 5")))).unwrap();
    let won: Vec<_> = g.events().iter().filter(|e| matches!(e, unolab::event::Event::MatchWon { .. })).collect();
    assert_eq!(won.len(), 2, "{won:?}");
    assert_eq!(g.table().match_winner(), Some(1));
    assert_eq!(g.table().scores(), vec![600, 103, 103]);
}

#[test]
fn a_new_hand_forgets_who_played_the_last_card() {
    // Multi-Play lets the player of the top card add more of its number out
    // of turn. The last hand's winner played its last card; in the next
    // hand that must not let it play onto the first discard.
    let variant = with_rules("classic", &["multi-play"]);
    let mut g = Game::new(Runtime::new(variant.clone()).unwrap(), 3, 2).unwrap();
    g.deal().unwrap();
    arrange(&mut g, &[&["red 5"], &["blue 3"], &["green 3"]], "red 2", 0);
    g.apply(Action::Play(Play::new(0, card(&variant, "red 5")))).unwrap();
    assert_eq!(g.table().winner(), Some(0));
    g.deal().unwrap();
    let current = g.table().current();
    assert_ne!(current, 0, "a seed where the last winner does not start");
    arrange(&mut g, &[&["red 5", "blue 9"], &["blue 3"], &["green 3"]], "red 5", current);
    let mut moves = Moves::default();
    for seat in (0..3).filter(|&s| s != current) {
        g.legal_moves(seat, &mut moves).unwrap();
        assert!(moves.plays.is_empty(), "p{seat} may play out of turn: {moves:?}");
    }
}

/// Ids from a library caller that name no seat, card or colour are refused
/// with a reason, never a panic, and change nothing.
#[test]
fn out_of_range_ids_are_refused_not_panics() {
    let mut g = game(3, 5);
    g.deal().unwrap();
    let before = g.table().clone();
    let refused = [
        Action::Play(Play::new(0, CardId(60_000))),
        Action::Play(Play::new(99, CardId(0))),
        Action::Draw(99),
        Action::Pass(7),
        Action::Catch { by: 0, target: 99 },
        Action::Catch { by: 99, target: 0 },
        Action::NameColor(0, 200),
        Action::CallUno(42),
        Action::Choose(0, 1_000),
    ];
    for action in refused {
        let error = g.apply(action).expect_err("refused");
        assert!(!error.to_string().is_empty(), "{action:?}");
        assert!(*g.table() == before, "{action:?} changed the table");
    }
    assert!(g.apply(Action::Play(Play::new(0, CardId(60_000)))).unwrap_err().to_string().contains("no card 60000"));
    let mut moves = Moves::default();
    g.legal_moves(99, &mut moves).unwrap();
    assert!(!moves.has_turn_action());
    assert!(g.view(99).hand.is_empty());
}

#[test]
fn a_script_failing_midway_restores_the_table_or_stops_the_game_as_asked() {
    // The on_penalty hook fails once the Draw Two is on the discard pile.
    let typo = format!("{}/tests/hostile/typo-penalty.yaml", env!("CARGO_MANIFEST_DIR"));
    let variant = with_rules("classic", &[&typo]);
    let draw_two = Action::Play(Play::new(0, card(&variant, "red draw2")));
    let failing = |on_failure| {
        let mut g = Game::new(Runtime::new(variant.clone()).unwrap(), 2, 1).unwrap();
        g.set_on_failure(on_failure);
        g.deal().unwrap();
        arrange(&mut g, &[&["red draw2", "red 5"], &["blue 3", "blue 4"]], "red 2", 0);
        let before = (g.table().clone(), g.events().len());
        let error = g.apply(draw_two).unwrap_err().to_string();
        assert!(error.contains("a penalty has no field 'drow'"), "{error}");
        (g, before)
    };

    let (mut g, (table, events)) = failing(OnFailure::Restore);
    assert_eq!((g.table(), g.events().len()), (&table, events), "restored as it was");
    assert!(g.is_legal(&draw_two).unwrap(), "the game goes on");

    let (mut g, (table, _)) = failing(OnFailure::Stop);
    assert_ne!(g.table().discard_pile(), table.discard_pile(), "left where the script failed");
    let stopped = |g: &mut Game<Runtime>| g.legal_moves(1, &mut Moves::default()).unwrap_err().to_string();
    assert!(stopped(&mut g).starts_with("the game stopped at a script error: "), "{}", stopped(&mut g));
    let refused = g.apply(Action::Draw(1)).unwrap_err().to_string();
    assert!(refused.contains("a penalty has no field 'drow'"), "{refused}");
    assert!(g.deal().is_err(), "not even a deal, until a restart");
    g.restart(1);
    g.deal().unwrap();
    g.legal_moves(g.to_act(), &mut Moves::default()).unwrap();
}

/// A table where a red 7 p0 played has just landed, p1 to play, at a game
/// of Classic with the slap rule (tests/variants/host/slap.yaml: any seat
/// may slap a fresh 7), seeded `seed`; of the hands only p2's red 5 matches.
fn fresh_seven(seed: u64) -> Game<Runtime> {
    let slap = format!("{}/tests/variants/host/slap.yaml", env!("CARGO_MANIFEST_DIR"));
    let mut g = Game::new(Runtime::new(with_rules("classic", &[&slap])).unwrap(), 4, seed).unwrap();
    g.deal().unwrap();
    let hands: [&[&str]; 4] =
        [&["blue 1", "blue 2"], &["yellow 3", "green 4"], &["red 5", "green 6"], &["yellow 8", "green 9"]];
    arrange(&mut g, &hands, "red 7", 1);
    let mut layout = g.table().layout();
    layout.landing = unolab::turn::Landing::PlayedBy(0);
    g.arrange(layout).unwrap();
    g
}

/// Bots take a rule's action out of turn. Where several seats may, the
/// bots are asked in turn order from the seat after the player to play,
/// and the first that wants to act does (a random bot takes half its
/// chances): over many seeds p2 slaps first most often, then p3, then p0.
#[test]
fn bots_take_an_action_out_of_turn_asked_in_turn_order_from_the_player_to_play() {
    let mut slaps = [0; 4];
    for seed in 0..200 {
        let mut g = fresh_seven(seed);
        let mut bots: Vec<Bot> = (0..4).map(|s| Bot::new(BotKind::Random, seed, s)).collect();
        let (seat, action) = unolab::bot::next_action(&mut g, &mut bots, None).unwrap().unwrap();
        if let Action::Act(act) = action {
            assert_eq!(act.seat, seat);
            slaps[seat] += 1;
            g.apply(action).unwrap();
            assert_eq!(g.table().current(), seat, "the slapper plays next");
            assert_eq!(g.table().hands()[1].len(), 2 + usize::from(seat != 1), "p1, whose turn it was, drew");
        }
    }
    assert!(slaps[2] > slaps[3] && slaps[3] > slaps[0] && slaps[0] > 0, "{slaps:?}");
}

/// A searching bot out of turn weighs a rule's action against letting the
/// chance pass: slapping a fresh 7 (it plays next, its red 5 on it, and
/// the player to play draws) is worth it.
#[test]
fn the_search_bot_takes_an_action_out_of_turn_that_pays() {
    let mut g = fresh_seven(3);
    let mut bots: Vec<Bot> = (0..4).map(|s| Bot::new(BotKind::Greedy, 3, s)).collect();
    let mut moves = Moves::default();
    g.legal_moves(2, &mut moves).unwrap();
    assert_eq!(moves.acts.len(), 1, "p2 may slap, out of turn");
    bots[2] = Bot::new(BotKind::Search { playouts: 200 }, 3, 2);
    let before = g.position().clone();
    let action = bots[2].out_of_turn(&mut g, 2, false).unwrap();
    assert!(g.position() == &before, "the search leaves the game as it found it");
    assert!(matches!(action, Some(Action::Act(act)) if act.seat == 2), "{action:?}");
}
