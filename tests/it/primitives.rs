//! The host primitives rule designers build on, where a scenario file
//! cannot reach: moment hooks agree with the game log over whole hands,
//! public state reaches the seats' views, and rule files are checked at
//! load (refused fields, unknown functions, `grants`, deprecations).

use std::path::Path;
use std::sync::Arc;

use unolab::bot::{Bot, BotKind};
use unolab::event::Event;
use unolab::game::{Action, Game, Record};
use unolab::loader::load;
use unolab::ruleset::LoadRequest;
use unolab::script::Runtime;
use unolab::sim::{HandResult, play_hand};
use unolab::turn::ScriptValue;
use unolab::variant::Variant;

fn host_rule(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/variants/host").join(name).display().to_string()
}

fn with_rule(variant: &str, rule: &str) -> Result<Variant, Vec<String>> {
    load(&LoadRequest { variant: variant.into(), rules: vec![host_rule(rule)], ..LoadRequest::default() })
}

fn counted(game: &Game<Runtime>, name: &str) -> i64 {
    match game.table().state().get(name) {
        Some(ScriptValue::Int(n)) => *n,
        None => 0,
        Some(other) => panic!("{name} = {other:?}"),
    }
}

#[test]
fn moment_hooks_run_once_per_moment_over_whole_hands() {
    let variant = Arc::new(with_rule("classic", "moments.yaml").unwrap());
    let mut reshuffled = false;
    for seed in 0..12 {
        let mut game = Game::new(Runtime::new(variant.clone()).unwrap(), 4, seed).unwrap();
        let mut bots: Vec<Bot> = (0..4).map(|s| Bot::new(BotKind::Random, seed, s)).collect();
        let HandResult::Won { seat, .. } = play_hand(&mut game, &mut bots).unwrap() else { panic!("stuck") };
        let events = game.events();
        let count = |f: fn(&Event) -> bool| events.iter().filter(|e| f(e)).count() as i64;
        let draws = game.history().iter().filter(|r| matches!(r, Record::Act(Action::Draw(_)))).count() as i64;
        assert_eq!(counted(&game, "uno"), count(|e| matches!(e, Event::UnoCalled { .. })), "seed {seed}");
        assert_eq!(
            counted(&game, "color"),
            count(|e| matches!(e, Event::ColorChosen { .. } | Event::Played { color: Some(_), .. })),
            "seed {seed}"
        );
        assert_eq!(counted(&game, "reshuffle"), count(|e| matches!(e, Event::Reshuffled { .. })), "seed {seed}");
        assert_eq!(counted(&game, "draw"), draws, "seed {seed}");
        assert_eq!(counted(&game, "turn_end"), counted(&game, "turn_start") - 1, "seed {seed}");
        assert_eq!(game.table().state().get("hand_won_by"), Some(&ScriptValue::Int(seat as i64)), "seed {seed}");
        reshuffled |= counted(&game, "reshuffle") > 0;
    }
    assert!(reshuffled, "no seed reshuffled: pick seeds that do");
}

#[test]
fn public_state_reaches_every_seat_and_the_rest_stays_hidden() {
    let variant = Arc::new(with_rule("classic", "tally.yaml").unwrap());
    let mut game = Game::new(Runtime::new(variant.clone()).unwrap(), 3, 5).unwrap();
    let mut bots: Vec<Bot> = (0..3).map(|s| Bot::new(BotKind::Random, 5, s)).collect();
    game.deal().unwrap();
    while counted(&game, "plays") < 3 {
        let (_, action) = unolab::bot::next_action(&mut game, &mut bots, None).unwrap().unwrap();
        game.apply(action).unwrap();
    }
    for seat in 0..3 {
        let view = game.view(seat);
        let names: Vec<&str> = view.state.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["plays"], "seat {seat} sees the public value only");
        for opponent in &view.opponents {
            let mine = game.table().seat_state()[opponent.seat].get("plays");
            assert_eq!(opponent.state.first().map(|(_, v)| v), mine, "seat {seat} sees {}'s plays", opponent.seat);
        }
    }
}

#[test]
fn a_rule_file_is_checked_at_load_with_its_places() {
    let fields = with_rule("classic", "bad-fields.yaml").unwrap_err().join("\n");
    assert!(fields.contains("bad-fields.yaml:5:1: a house rule cannot set 'hand_size'"), "{fields}");
    assert!(fields.contains("bad-fields.yaml:6:1: a house rule cannot set 'default'"), "{fields}");
    let calls = with_rule("flex", "bad-calls.yaml").unwrap_err().join("\n");
    assert!(calls.contains("bad-calls.rhai:2:5: no function 'frobnicate'"), "{calls}");
    assert!(calls.contains("bad-calls.rhai:3:5: discard_all() takes 2 argument(s), not 1"), "{calls}");
    // A name Rhai also has: the host's reverse() and Rhai's reverse(array).
    assert!(calls.contains("bad-calls.rhai:5:5: reverse() does not take (a number): it takes ("), "{calls}");
    assert!(
        calls.contains("bad-calls.rhai:13:8: no option 'sneezs' is declared on flex (declared: ")
            && calls.contains("; did you mean 'sneezes'?"),
        "{calls}"
    );
    // Those calls, and the options declared, are all it is told.
    assert_eq!(calls.lines().filter(|line| line.contains("bad-calls.rhai:")).count(), 4, "{calls}");
    let grants = with_rule("classic", "bad-grants.yaml").unwrap_err().join("\n");
    assert!(grants.contains("bad-grants.yaml:7:26: 'grants' is for can_play"), "{grants}");
    let top = with_rule("classic", "bad-top.yaml").unwrap_err().join("\n");
    assert!(top.contains("bad-top.yaml:7:13: a target is decided once, at load"), "{top}");
    assert!(top.contains("bad-top.yaml:10:15: on_play is asked about the card on top"), "{top}");
    let flex = with_rule("flex", "bad-flex.yaml").unwrap_err().join("\n");
    assert!(flex.contains("bad-flex.yaml:7:38: 'flex' is for can_play, can_respond"), "{flex}");
    assert!(flex.contains("not draw_again"), "{flex}");
    let actions = with_rule("classic", "bad-actions.yaml").unwrap_err().join("\n");
    assert!(actions.contains("bad-actions.yaml:7:12: action 'draw' would be named as a move of the game"), "{actions}");
    assert!(
        actions.contains("bad-actions.yaml:7:24: 'two_params' must take 1 parameter to serve action 'draw'"),
        "{actions}"
    );
    assert!(actions.contains("bad-actions.yaml:8:23: action 'bid' call: 'nowhere', which no script"), "{actions}");
    assert!(actions.contains("action 'bid' is declared twice"), "{actions}");
    assert!(
        actions.contains(
            "bad-actions.yaml:10:35: an action's 'when:' is 'turn', 'out of turn', 'any seat' (not 'sometimes')"
        ),
        "{actions}"
    );
    let old = with_rule("classic", "old-state.yaml").unwrap();
    assert!(
        old.warnings.iter().any(|w| w.contains("old-state.rhai:2:5") && w.contains("set_state")),
        "{:?}",
        old.warnings
    );
    let names_color = load(&LoadRequest { variant: host_rule("bad-names-color.yaml"), ..LoadRequest::default() });
    let names_color = names_color.unwrap_err().join("\n");
    assert!(names_color.contains("bad-names-color.yaml:8:3: symbol 'hush' sets names_color: false"), "{names_color}");
    let penalty = with_rule("express", "harsh-catch.yaml").unwrap();
    assert_eq!(penalty.uno_penalty, 4);
}

#[test]
fn a_wrong_answer_names_the_hook_the_script_and_the_line() {
    let variant = Arc::new(with_rule("classic", "typed-answers.yaml").unwrap());
    let mut game = Game::new(Runtime::new(variant).unwrap(), 2, 1).unwrap();
    game.deal().unwrap();
    let before = game.table().clone();
    let error = game.apply(Action::Draw(game.to_act())).unwrap_err().to_string();
    assert!(
        error.starts_with("script error in typed-answers (can_draw hook nothing, /")
            && error.contains("typed-answers.rhai:3): it returned nothing"),
        "{error}"
    );
    assert!(error.contains("it must return true, false or a reason why not"), "{error}");
    assert_eq!(*game.table(), before, "the refused draw changed nothing");
}

#[test]
fn a_refusal_naming_a_card_must_say_where_its_name_goes() {
    let variant = Arc::new(with_rule("classic", "refusal-slot.yaml").unwrap());
    let mut game = Game::new(Runtime::new(variant).unwrap(), 2, 1).unwrap();
    game.deal().unwrap();
    let before = game.table().clone();
    let error = game.apply(Action::Draw(game.to_act())).unwrap_err().to_string();
    assert!(error.starts_with("script error in refusal-slot (can_draw hook no_slot): /"), "{error}");
    assert!(error.contains("refusal-slot.rhai:2:5"), "{error}");
    assert!(error.contains("the text must say where the card's name goes ({card})"), "{error}");
    assert_eq!(*game.table(), before, "the refused draw changed nothing");
}

#[test]
fn rule_state_is_rebuilt_when_a_saved_game_is_replayed() {
    let variant = Arc::new(with_rule("classic", "tally.yaml").unwrap());
    let mut game = Game::new(Runtime::new(variant.clone()).unwrap(), 3, 11).unwrap();
    let mut bots: Vec<Bot> = (0..3).map(|s| Bot::new(BotKind::Random, 11, s)).collect();
    play_hand(&mut game, &mut bots).unwrap();
    play_hand(&mut game, &mut bots).unwrap();
    assert!(counted(&game, "plays") > 0);
    let again = Game::replay(Runtime::new(variant).unwrap(), 3, 11, game.history()).unwrap();
    assert_eq!(again.table().state(), game.table().state());
    assert_eq!(again.table().seat_state(), game.table().seat_state());
}

/// A hook may do only what its mode lets it: a predicate that changes the
/// game, or a transform that changes more than the value it returns, fails
/// naming the hook, and the game is as it was.
#[test]
fn a_hook_that_changes_what_its_mode_may_not_fails_naming_it() {
    let (_scratch, paths) = super::scratch_files(&[
        ("m.rhai", "fn ask(card) { skip(1); true }\n"),
        (
            "m.yaml",
            "name: m\ndescription: A predicate that changes the game.\nscripts: [m.rhai]\nhooks:\n  can_play:\n    - {call: ask}\n",
        ),
    ]);
    let request = LoadRequest { variant: "classic".into(), rules: vec![paths[1].clone()], ..LoadRequest::default() };
    let variant = Arc::new(load(&request).unwrap());
    let mut game = Game::new(Runtime::new(variant.clone()).unwrap(), 3, 4).unwrap();
    game.deal().unwrap();
    let seat = game.to_act();
    let failure = game.legal_moves(seat, &mut unolab::game::Moves::default()).unwrap_err();
    let said = failure.to_string();
    assert!(said.contains("skip() changes the game; can_play hooks only answer a question"), "{said}");
    assert_eq!(failure.place().map(|p| (p.hook, p.function.as_str())), Some(("can_play", "ask")));
    // A transform: on_penalty may change only the penalty it returns.
    let (_scratch, paths) = super::scratch_files(&[
        ("t.rhai", "fn pass_on(p) { reverse(); p }\n"),
        (
            "t.yaml",
            "name: t\ndescription: A transform that changes the table.\nscripts: [t.rhai]\nhooks:\n  on_penalty:\n    - {call: pass_on}\n",
        ),
    ]);
    let request = LoadRequest { variant: "classic".into(), rules: vec![paths[1].clone()], ..LoadRequest::default() };
    let variant = Arc::new(load(&request).unwrap());
    let config = unolab::sim::SimConfig::new(variant, 3, 20, 1);
    let stats = unolab::sim::run(&config, &unolab::sim::Progress::default()).unwrap();
    let failure = stats.failures.first().expect("a draw penalty was met in 20 hands");
    assert!(
        failure.message.contains("reverse() changes the game; on_penalty hooks may change only the value they return"),
        "{}",
        failure.message
    );
}

/// `eval` asks as a predicate does: a change is refused, naming what it
/// would change, and the table stays as it was.
#[test]
fn eval_reads_and_changes_nothing() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/host/eval.yaml");
    let scenario = unolab::scenario::Scenario::load(&path).unwrap();
    let mut game = scenario.game().unwrap();
    let before = (game.table().clone(), game.events().len());
    let refused = game.eval("draw(0, 2)").unwrap_err().to_string();
    assert!(refused.contains("draw() changes the game"), "{refused}");
    assert_eq!(game.eval("hand_size(0)").unwrap(), "2");
    assert!(game.eval("hand_size(").is_err());
    assert_eq!((game.table().clone(), game.events().len()), before);
}
