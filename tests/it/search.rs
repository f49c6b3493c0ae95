//! The search bot (`--bot search`): it decides from what its seat sees and
//! knows, never from hidden cards (two games that look the same from the
//! seat give the same decision, a bluff waiting to be challenged
//! included); it knows the hands it saw (swapped away, shown in a
//! challenge); it leaves the game as it found it; it is the same whatever
//! the thread count; and rules whose hands never end or whose scripts fail
//! are an error that says so, not a hang. Its strength is measured in the
//! README, not here (release builds, thousands of hands).

use std::sync::Arc;

use unolab::bot::{Bot, BotKind};
use unolab::card::{CardId, Side};
use unolab::game::{Action, Game, Play};
use unolab::loader::load;
use unolab::rng::rng;
use unolab::ruleset::LoadRequest;
use unolab::script::Runtime;
use unolab::sim::{Progress, SimConfig, run};
use unolab::turn::Phase;
use unolab::variant::Variant;

use super::game::{arrange, card};

/// A small budget: the tests' own code is a debug build.
const SMALL: BotKind = BotKind::Search { playouts: 40 };

fn variant(name: &str, rules: &[&str]) -> Arc<Variant> {
    let request = LoadRequest {
        variant: name.into(),
        rules: rules.iter().map(|r| r.to_string()).collect(),
        ..LoadRequest::default()
    };
    Arc::new(load(&request).unwrap())
}

fn game(variant: &Arc<Variant>, players: usize, seed: u64) -> Game<Runtime> {
    Game::new(Runtime::new(variant.clone()).unwrap(), players, seed).unwrap()
}

/// The search decides the same in two games that differ only in cards its
/// seat cannot see: two opponents' cards exchanged (of the same back, in
/// a double-sided deck).
#[test]
fn two_games_that_look_the_same_from_the_seat_give_the_same_decision() {
    for name in ["classic", "flip"] {
        let variant = variant(name, &[]);
        let mut compared = 0;
        for seed in 0..40u64 {
            let mut g = game(&variant, 3, seed);
            g.deal().unwrap();
            let mut bots: Vec<Bot> = (0..3).map(|s| Bot::new(BotKind::Random, seed, s)).collect();
            for _ in 0..(seed % 5) * 3 {
                if g.hand_over() {
                    break;
                }
                let seat = g.to_act();
                let action = bots[seat].choose(&mut g, seat).unwrap();
                g.apply(action).unwrap();
            }
            if g.hand_over() || !g.table().seen().is_empty() {
                continue;
            }
            let seat = g.to_act();
            let others: Vec<usize> = (0..3).filter(|&s| s != seat).collect();
            let mut layout = g.table().layout();
            let back = |card| variant.face(card, g.table().side().other());
            let (a, b) = (others[0], others[1]);
            let pair = (0..layout.hands[a].len()).flat_map(|i| (0..layout.hands[b].len()).map(move |j| (i, j))).find(
                |&(i, j)| {
                    let (x, y) = (layout.hands[a][i], layout.hands[b][j]);
                    x != y && (!variant.double_sided || back(x) == back(y))
                },
            );
            let Some((i, j)) = pair else { continue };
            let (x, y) = (layout.hands[a][i], layout.hands[b][j]);
            (layout.hands[a][i], layout.hands[b][j]) = (y, x);
            let mut twin = game(&variant, 3, seed);
            twin.set_position(g.position());
            twin.arrange(layout).unwrap();
            assert_eq!(g.view(seat), twin.view(seat), "{name} seed {seed}: the seat sees the same table");
            let one = Bot::new(SMALL, seed, seat as u64).choose(&mut g, seat).unwrap();
            let other = Bot::new(SMALL, seed, seat as u64).choose(&mut twin, seat).unwrap();
            assert_eq!(one, other, "{name} seed {seed}");
            compared += 1;
        }
        assert!(compared >= 8, "{name}: only {compared} positions compared");
    }
}

/// Classic, three players: p0 holds a Wild Draw Four and, as a bluff, a
/// card of the colour in play (`bluff`) or not, and plays the Wild Draw
/// Four at p1. The two games look the same to p1.
fn wild_draw_four_at(bluff: bool) -> (Arc<Variant>, Game<Runtime>) {
    let variant = variant("classic", &[]);
    let mut g = game(&variant, 3, 4);
    g.deal().unwrap();
    let held = if bluff { "red 3" } else { "green 3" };
    arrange(&mut g, &[&["wild-draw4", held, "blue 7"], &["blue 1", "yellow 2"], &["green 9"]], "red 2", 0);
    let wild = card(&variant, "wild-draw4");
    g.apply(Action::Play(Play { color: Some(3), ..Play::new(0, wild) })).unwrap();
    (variant, g)
}

fn guilty(g: &Game<impl unolab::rules::Rules>) -> bool {
    match g.table().phase() {
        Phase::Answer(penalty) => penalty.challenge.expect("challengeable").guilty,
        other => panic!("no penalty waits: {other:?}"),
    }
}

/// Whether a waiting Wild Draw Four was a bluff is a fact about its
/// player's hand, which the victim cannot see: a determinization works it
/// out again from the hand it deals, and the victim's decision is the same
/// whether the real card was a bluff or not.
#[test]
fn a_bluff_waiting_to_be_challenged_is_judged_from_the_hands_dealt_not_copied() {
    let (variant, mut bluffed) = wild_draw_four_at(true);
    let (_, mut honest) = wild_draw_four_at(false);
    assert!(guilty(&bluffed) && !guilty(&honest));
    assert_eq!(bluffed.view(1), honest.view(1), "p1 sees the same table");
    let red = variant.face(card(&variant, "red 3"), Side::Light).color;
    let mut verdicts = [0, 0];
    for seed in 0..40 {
        let dealt = bluffed.position().determinize(1, &variant, &mut rng(seed));
        let mut other = game(&variant, 3, 4);
        other.set_position(&dealt);
        other.work_out_hidden_facts(1).unwrap();
        let holds_red = other.table().hands()[0].iter().any(|&c| variant.face(c, Side::Light).color == red);
        assert_eq!(guilty(&other), holds_red, "seed {seed}: judged from the hand dealt");
        verdicts[usize::from(holds_red)] += 1;
        // The same deal from the honest game judges the same.
        let again = honest.position().determinize(1, &variant, &mut rng(seed));
        other.set_position(&again);
        other.work_out_hidden_facts(1).unwrap();
        assert_eq!(guilty(&other), holds_red, "seed {seed}: the real hand does not show through");
    }
    assert!(verdicts[0] > 0 && verdicts[1] > 0, "both verdicts come up: {verdicts:?}");
    for seed in 0..3 {
        let a = Bot::new(SMALL, seed, 1).choose(&mut bluffed, 1).unwrap();
        let b = Bot::new(SMALL, seed, 1).choose(&mut honest, 1).unwrap();
        assert_eq!(a, b, "seed {seed}");
    }
    // The player who made the penalty knows its own hand: its guilt stands.
    let mut other = game(&variant, 3, 4);
    other.set_position(&bluffed.position().determinize(0, &variant, &mut rng(1)));
    other.work_out_hidden_facts(0).unwrap();
    assert!(guilty(&other));
}

/// After a Seven-O swap each of the two knows the hand it gave away, and a
/// determinization keeps those cards where they are; a challenger is shown
/// the hand it challenged.
#[test]
fn a_seat_knows_the_hands_it_saw_and_keeps_them_where_they_are() {
    let variant = variant("classic", &["seven-o"]);
    let mut g = game(&variant, 3, 6);
    g.deal().unwrap();
    arrange(&mut g, &[&["red 7", "red 1", "green 2"], &["yellow 4", "yellow 5"], &["blue 9"]], "red 5", 0);
    let seven = card(&variant, "red 7");
    g.apply(Action::Play(Play { target: Some(1), ..Play::new(0, seven) })).unwrap();
    let mut known = Vec::new();
    g.table().seen().known_to(0, &mut known);
    known.sort();
    let mut given = vec![(1, card(&variant, "red 1")), (1, card(&variant, "green 2"))];
    given.sort();
    assert_eq!(known, given);
    g.table().seen().known_to(2, &mut known);
    assert!(known.is_empty(), "p2 saw nothing of either hand");
    for seed in 0..10 {
        let dealt = g.position().determinize(0, &variant, &mut rng(seed));
        let mut hand = dealt.table().hands()[1].to_vec();
        hand.sort();
        assert_eq!(hand, given.iter().map(|&(_, c)| c).collect::<Vec<_>>(), "seed {seed}");
    }
    // p1 plays one of them: p0 knows it is gone.
    g.apply(Action::Play(Play::new(1, card(&variant, "red 1")))).unwrap();
    g.table().seen().known_to(0, &mut known);
    assert_eq!(known, vec![(1, card(&variant, "green 2"))]);

    // A challenge shows the challenger the hand.
    let (_, mut bluffed) = wild_draw_four_at(true);
    bluffed.apply(Action::Challenge(1)).unwrap();
    bluffed.table().seen().known_to(1, &mut known);
    known.sort();
    let mut shown: Vec<(usize, CardId)> = bluffed.table().hands()[0][..2].iter().map(|&c| (0, c)).collect();
    shown.sort();
    assert_eq!(known, shown, "p1 saw p0's two cards; p0 then drew four it did not see");
}

/// A player who drew on its turn held nothing that matched the table:
/// positions dealt for another seat hold to that, for the cards it still
/// holds from then.
#[test]
fn a_player_who_drew_is_dealt_nothing_it_could_have_played() {
    let variant = variant("classic", &[]);
    let mut g = game(&variant, 3, 8);
    g.deal().unwrap();
    arrange(&mut g, &[&["blue 9", "green 1"], &["blue 1", "green 2", "yellow 3"], &["red 1"]], "red 5", 1);
    g.apply(Action::Draw(1)).unwrap();
    let mut beliefs = Vec::new();
    unolab::bot::search::beliefs(g.position(), 0, &variant, &mut beliefs);
    assert_eq!(beliefs.len(), 1);
    assert_eq!((beliefs[0].holder, beliefs[0].cards), (1, 3));
    let top = variant.face(card(&variant, "red 5"), Side::Light);
    let matches = |c: CardId| {
        let face = variant.face(c, Side::Light);
        face.is_wild() || face.color == top.color || face.value == top.value
    };
    let mut against = 0;
    for seed in 0..30 {
        let mut dealt = g.position().determinize(0, &variant, &mut rng(seed));
        against += dealt.table().hands()[1].iter().filter(|&&c| matches(c)).count();
        dealt.believe(0, &beliefs, &variant, &mut rng(seed));
        let hand = &dealt.table().hands()[1];
        assert_eq!(hand.len(), 4);
        assert!(hand.iter().filter(|&&c| matches(c)).count() <= 1, "seed {seed}: {hand:?}");
        assert!(dealt.table().conserves(&variant));
    }
    assert!(against > 30, "dealt at random, the hand would match more often: {against}");
}

/// A player who played a card on its turn held nothing that matched the
/// table and that greedy would have played first (a higher-scoring card;
/// anything but a wild, before a wild); what an earlier choice's cards
/// exclude includes what every later choice excludes.
#[test]
fn a_player_who_played_held_nothing_greedy_would_have_played_first() {
    let variant = variant("classic", &[]);
    let mut g = game(&variant, 3, 8);
    g.deal().unwrap();
    arrange(&mut g, &[&["blue 9"], &["red 3", "green 1", "yellow 4", "blue 2"], &["red 1"]], "red 5", 1);
    // Each draws and keeps the card drawn.
    for seat in [1, 2, 0] {
        g.apply(Action::Draw(seat)).unwrap();
        if g.to_act() == seat {
            g.apply(Action::Pass(seat)).unwrap();
        }
    }
    g.apply(Action::Play(Play::new(1, card(&variant, "red 3")))).unwrap();
    let mut beliefs = Vec::new();
    unolab::bot::search::beliefs(g.position(), 0, &variant, &mut beliefs);
    let of_p1: Vec<_> = beliefs.iter().filter(|b| b.holder == 1).collect();
    assert_eq!(
        of_p1.iter().map(|b| b.cards).collect::<Vec<_>>(),
        vec![3, 4],
        "the draw (the card played may be one of its 4), then the play"
    );
    let excluded = |b: &unolab::game::Belief, name: &str| b.unlikely[usize::from(card(&variant, name).0)];
    let (drew, played) = (of_p1[0], of_p1[1]);
    for name in ["red 4", "red 9", "red skip", "blue 5"] {
        assert!(excluded(played, name) && excluded(drew, name), "{name}");
    }
    // Greedy plays a 3 before these, or they did not match.
    for name in ["red 1", "red 2", "wild", "blue 3", "green 7"] {
        assert!(!excluded(played, name), "{name}");
    }
    // When it drew, a wild or a red card would have matched.
    assert!(excluded(drew, "wild") && excluded(drew, "red 1") && !excluded(drew, "green 7"));
}

/// A Wild Draw Four from a player who, as greedy plays, had nothing else to
/// play cannot be a bluff: in the positions the search deals it never is,
/// though a hand dealt at random would nearly always have held the colour.
#[test]
fn a_wild_draw_four_played_as_a_last_resort_is_never_a_bluff_in_the_deals() {
    let variant = variant("classic", &[]);
    let mut g = game(&variant, 3, 2);
    g.deal().unwrap();
    let p0 = ["wild-draw4", "green 3", "blue 7", "yellow 8", "green 9", "blue 4", "yellow 6", "green 2", "blue 1"];
    arrange(&mut g, &[&p0, &["blue 3", "yellow 2"], &["green 6"]], "red 5", 0);
    let wild = card(&variant, "wild-draw4");
    g.apply(Action::Play(Play { color: Some(3), ..Play::new(0, wild) })).unwrap();
    assert!(!guilty(&g));
    let mut beliefs = Vec::new();
    unolab::bot::search::beliefs(g.position(), 1, &variant, &mut beliefs);
    let mut at_random = 0;
    for seed in 0..30 {
        let mut dealt = g.position().determinize(1, &variant, &mut rng(seed));
        let mut other = game(&variant, 3, 2);
        other.set_position(&dealt);
        other.work_out_hidden_facts(1).unwrap();
        at_random += usize::from(guilty(&other));
        dealt.believe(1, &beliefs, &variant, &mut rng(seed));
        other.set_position(&dealt);
        other.work_out_hidden_facts(1).unwrap();
        assert!(!guilty(&other), "seed {seed}: {:?}", other.table().hands()[0]);
    }
    assert!(at_random > 20, "dealt at random, it would mostly look like a bluff: {at_random} of 30");
}

/// A search puts back everything it touched: the position, log and
/// history, and what the game does when a script fails.
#[test]
fn the_search_leaves_the_game_as_it_found_it() {
    let variant = variant("classic", &["stacking", "seven-o", "jump-in"]);
    let mut g = game(&variant, 4, 12);
    g.deal().unwrap();
    let mut bots: Vec<Bot> = (0..4).map(|s| Bot::new(SMALL, 12, s)).collect();
    for _ in 0..12 {
        if g.hand_over() {
            break;
        }
        let before = g.position().clone();
        let (events, history) = (g.events().len(), g.history().len());
        let (_, action) = unolab::bot::next_action(&mut g, &mut bots, None).unwrap().unwrap();
        assert!(g.position() == &before && g.events().len() == events && g.history().len() == history);
        assert_eq!(g.on_failure(), unolab::game::OnFailure::Restore);
        g.apply(action).unwrap();
    }
}

/// Rules whose hands never end: the last card may never be played.
const NO_GOING_OUT: (&str, &str) = (
    "no-going-out.yaml",
    "name: no-going-out\ndescription: The last card may never be played.\nscripts: [no-going-out.rhai]\nhooks:\n  can_play:\n    - {call: not_last}\n",
);

/// Rules whose script fails whenever a 5 is played.
const OOPS: (&str, &str) = (
    "oops.yaml",
    "name: oops\ndescription: Fails on a 5.\nscripts: [oops.rhai]\nhooks:\n  on_play:\n    - {match: \"5\", call: oops}\n",
);

fn with_rule(files: &[(&str, &str)]) -> (tempfile::TempDir, Arc<Variant>) {
    let (scratch, paths) = super::scratch_files(files);
    let request = LoadRequest { variant: "classic".into(), rules: vec![paths[0].clone()], ..LoadRequest::default() };
    (scratch, Arc::new(load(&request).unwrap()))
}

/// A search whose playouts never end, or meet a script that fails, is an
/// error that says so (and how far it got), never a hang; the game is as
/// it was.
#[test]
fn rules_whose_hands_never_end_or_whose_scripts_fail_are_an_error_not_a_hang() {
    let (_scratch, endless) =
        with_rule(&[NO_GOING_OUT, ("no-going-out.rhai", "fn not_last(card) { hand_size(me()) > 1 }\n")]);
    let mut g = game(&endless, 2, 3);
    g.deal().unwrap();
    arrange(&mut g, &[&["red 1", "red 2", "blue 3"], &["blue 4", "green 5"]], "red 9", 0);
    let before = g.position().clone();
    let error = Bot::new(SMALL, 1, 0).choose(&mut g, 0).unwrap_err().to_string();
    assert!(error.contains("p0's search: a playout did not end within 20000 actions"), "{error}");
    assert!(g.position() == &before);

    let (_scratch, failing) = with_rule(&[OOPS, ("oops.rhai", "fn oops(card) { let x = [1]; x[5] }\n")]);
    let mut g = game(&failing, 2, 3);
    g.deal().unwrap();
    arrange(&mut g, &[&["red 1", "red 2", "blue 5"], &["blue 4", "green 5"]], "red 9", 0);
    let error = Bot::new(SMALL, 1, 0).choose(&mut g, 0).unwrap_err().to_string();
    assert!(error.starts_with("p0's search: ") && error.contains("oops"), "{error}");
    assert!(error.contains("plays blue 5") || error.contains("plays green 5"), "the play it failed in: {error}");
}

/// Search bots in a simulation: the same games on one thread or two.
#[test]
fn search_bots_play_the_same_games_on_any_thread_count() {
    let variant = variant("flex", &[]);
    let mut config = SimConfig::new(variant, 3, 4, 9);
    config.bots = vec![BotKind::Search { playouts: 12 }, BotKind::Greedy];
    config.rows = true;
    let one = run(&config, &Progress::default()).unwrap();
    config.threads = 2;
    let two = run(&config, &Progress::default()).unwrap();
    assert!(one.failures.is_empty() && one.stuck.is_empty(), "{:?}", one.failures);
    assert_eq!((one.wins, one.turns, one.rows), (two.wins, two.turns, two.rows));
}

#[test]
fn bots_are_named_by_kind_budget_or_difficulty() {
    assert_eq!(BotKind::parse("Search"), Some(BotKind::SEARCH));
    assert_eq!(BotKind::parse("search:250"), Some(BotKind::Search { playouts: 250 }));
    assert_eq!(BotKind::parse("hard"), Some(BotKind::SEARCH));
    assert_eq!(BotKind::parse("easy"), Some(BotKind::Random));
    assert_eq!(BotKind::parse("normal"), Some(BotKind::Greedy));
    assert_eq!(BotKind::Search { playouts: 250 }.to_string(), "search:250");
    assert_eq!(BotKind::SEARCH.to_string(), "search");
    for kind in BotKind::ALL.into_iter().chain([BotKind::Search { playouts: 7 }]) {
        assert_eq!(BotKind::parse(&kind.to_string()), Some(kind));
    }
    let error = BotKind::read("search:0").unwrap_err();
    assert!(error.contains("from 1 to"), "{error}");
    let error = BotKind::read("clever").unwrap_err();
    assert!(error.contains("unknown bot 'clever'") && error.contains("hard"), "{error}");
}
