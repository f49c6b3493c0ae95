//! Scripted REPL sessions, snapshotted: each file in `tests/sessions/`
//! holds the command line (`args: ...`) and the lines typed, and its
//! snapshot is everything the player saw. A new session is one new file.
//! They run in a fresh directory each, so `save` and `load` stay there.

use std::process::Command;

#[test]
fn scripted_sessions() {
    let root = env!("CARGO_MANIFEST_DIR");
    insta::glob!("../sessions", "*.session", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines = text.lines().filter(|l| !l.starts_with('#'));
        let args = lines.next().and_then(|l| l.strip_prefix("args: ")).expect("a first line 'args: ...'");
        let args: Vec<String> = args.split_whitespace().map(|a| a.replace("{root}", root)).collect();
        let input: String = lines.map(|l| format!("{l}\n")).collect();
        let mut command = Command::new(env!("CARGO_BIN_EXE_unolab"));
        // A directory of its own for the session's files.
        let scratch = tempfile::tempdir().unwrap();
        command.args(&args).current_dir(scratch.path()).env("NO_COLOR", "1");
        let output = super::cli::with_input(&mut command, &input);
        let mut seen = String::from_utf8(output.stdout).unwrap();
        let errors = String::from_utf8(output.stderr).unwrap();
        if !errors.is_empty() {
            seen += &format!("--- stderr\n{errors}");
        }
        seen += &format!("--- exit {}\n", output.status.code().unwrap_or(-1));
        insta::assert_snapshot!(seen.replace(root, "{root}"));
    });
}

/// `reload` after a rule file changed mid-game: the game is replayed under
/// the new rule, and the first move it refuses is named, the game staying
/// just before it. A rule that no longer loads changes nothing.
#[test]
fn reload_replays_under_the_edited_rules_and_stops_at_the_first_refused_move() {
    use std::sync::Arc;
    use unolab::bot::BotKind;
    use unolab::repl::Session;
    use unolab::repl::input::Piped;
    use unolab::repl::record::Setup;
    use unolab::repl::render::Style;
    use unolab::ruleset::LoadRequest;

    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let rule = dir.join("house.yaml");
    std::fs::write(&rule, "name: house\ndescription: Nothing yet.\n").unwrap();
    std::fs::write(dir.join("no-reds.rhai"), "fn no_reds(card) { \"no red cards\" }\n").unwrap();
    let request =
        LoadRequest { variant: "classic".into(), rules: vec![rule.display().to_string()], ..LoadRequest::default() };
    let load = |request: &LoadRequest| unolab::loader::load(request);
    let variant = Arc::new(load(&request).unwrap());
    let game = unolab::game::Game::new(unolab::script::Runtime::new(variant).unwrap(), 3, 237).unwrap();
    let setup = Setup { request, players: 3, seed: 237, bot: BotKind::Random };
    let mut session = Session::new(setup, game, Style::plain(), &load);
    let mut out = Vec::new();
    // Seed 237: p0 holds red 6 (and red skip), playable.
    session.run(&mut Piped::new(&b"play red 6\n"[..]), &mut out).unwrap();
    std::fs::write(&rule, "name: house\ndescription: No reds.\nscripts: [no-reds.rhai]\nhooks:\n  can_play:\n    - {match: red, call: no_reds}\n  bogus: 1\n").unwrap();
    session.run(&mut Piped::new(&b"reload\n"[..]), &mut out).unwrap();
    std::fs::write(&rule, "name: house\ndescription: No reds.\nscripts: [no-reds.rhai]\nhooks:\n  can_play:\n    - {match: red, call: no_reds}\n").unwrap();
    session.run(&mut Piped::new(&b"reload\nlog 1\n"[..]), &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("you play red 6"), "{out}");
    assert!(out.contains("not reloaded (the game goes on as it was):"), "{out}");
    assert!(out.contains("bogus"), "{out}");
    // The first red card played in the game was p0's (the red draw2 was
    // turned up, not played).
    assert!(out.contains("reloaded classic + house: 1 of 4 moves replayed\nmove 2 ('p0 play red 6'): refused: no red cards; staying at the last good point"), "{out}");
    assert!(!out.ends_with("you play red 6\n"), "{out}");
    // Going back changed the hands, and the reload says so.
    assert!(out.contains("p1's hand changed: 8 cards before, 7 cards now"), "{out}");
    assert!(out.contains("your hand changed: 6 cards ("), "{out}");
}

/// The REPL's words for cards: colour initials of the side in play, a
/// symbol alone for the one card held, a marked number by its number.
#[test]
fn card_words_expand_against_the_side_and_the_hand() {
    use unolab::card::Side;
    use unolab::game::command::{CardRef, Command};
    use unolab::notation::CardPattern;
    use unolab::repl::command::{Context, Input, parse};
    let flip =
        unolab::loader::load(&unolab::ruleset::LoadRequest { variant: "flip".into(), ..Default::default() }).unwrap();
    let names = &flip.names;
    let face = |text: &str| names.parse_face(text).unwrap();
    let hand = [face("purple 9"), face("teal skip"), face("pink 2")];
    let dark = Context { names, colors: flip.colors_of(Side::Dark), hand: &hand, playable: &[], naming_color: false };
    let played = |line: &str| match parse(&dark, line) {
        Ok(Input::Move(Command::Play(play))) => match play.card {
            CardRef::Named(CardPattern::Face(f)) => Ok(names.format_face(&f)),
            other => Err(format!("{other:?}")),
        },
        other => Err(format!("{other:?}")),
    };
    assert_eq!(played("p pu9"), Ok("purple 9".into()));
    assert_eq!(played("play t skip"), Ok("teal skip".into()));
    assert_eq!(played("play skip"), Ok("teal skip".into()), "the one skip held");
    let ambiguous = parse(&dark, "play p9").unwrap_err();
    assert!(ambiguous.contains("could be pink or purple"), "{ambiguous}");
    let light = Context { names, colors: flip.colors_of(Side::Light), hand: &[], playable: &[], naming_color: false };
    assert!(parse(&light, "play p9").is_err(), "no light colour starts with p");
}

#[test]
fn event_lines_are_condensed_where_they_repeat() {
    use unolab::repl::render::condense;
    let lines = [
        "p1 draws a card",
        "p1 draws a card",
        "p1 draws a card",
        "p3 passes",
        "p3 passes",
        "every Power Card is red: they all turn green",
        "p0's Power Card turns green",
        "p1's Power Card turns green",
        "p2's Power Card turns green",
        "p2's Power Card turns red",
        "",
        "",
        "p3 passes",
        "p0 plays red skip-everyone",
        "  p1 is skipped",
        "  p2 is skipped",
        "p1 is dealt 7",
        "p2 is dealt 7",
        "p1's turn",
        "p2's turn",
    ];
    let condensed = condense(lines.iter().map(|l| l.to_string()).collect());
    assert_eq!(
        condensed,
        [
            "p1 draws 3 cards",
            "p3 passes (x2)",
            "every Power Card is red: they all turn green",
            "p0's, p1's and p2's Power Cards turn green",
            "p2's Power Card turns red",
            "",
            "",
            "p3 passes",
            "p0 plays red skip-everyone",
            "  p1 and p2 are skipped",
            "p1 and p2 are dealt 7",
            "p1's turn",
            "p2's turn",
        ]
    );
}

/// Bots decide from the seed and the point in the game: a decision undone
/// and made again meets the same answers (one seed, the same game).
#[test]
fn a_decision_made_again_after_undo_meets_the_same_bot_moves() {
    let output = super::cli::with_input(
        Command::new(env!("CARGO_BIN_EXE_unolab")).args(["play", "classic", "--seed", "8"]),
        "auto\nundo\nauto\nquit\n",
    );
    let text = String::from_utf8_lossy(&output.stdout);
    let after = |from: usize, to: &str| {
        let start = text[from..].find("> auto\n").map(|i| from + i).expect("the command is echoed");
        let end = text[start..].find(to).map_or(text.len(), |i| start + i);
        (text[start..end].to_string(), end)
    };
    let (first, end) = after(0, "> undo");
    let (again, _) = after(end, "> quit");
    assert!(first.lines().count() > 3, "{text}");
    assert_eq!(first, again, "{text}");
}

/// A Partners match is won by the team: the match end names both partners,
/// once, and the summary on leaving names them too.
#[test]
fn a_partners_match_is_announced_for_the_team() {
    let output = super::cli::with_input(
        Command::new(env!("CARGO_BIN_EXE_unolab")).args(["play", "-r", "partners", "--seed", "5"]),
        &"auto\n".repeat(600),
    );
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(text.matches("match over: ").count(), 1, "{text}");
    assert!(text.contains("match over: you and p2 win with 530 points."), "{text}");
    assert!(text.contains("you and p2 win with 530 points; "), "{text}");
}

/// A card refused while a penalty waits on you is told why: which cards
/// may answer it (under stacking, a +2 does not stack on a +4).
#[test]
fn a_card_that_cannot_answer_a_penalty_is_told_which_may() {
    let output = super::cli::with_input(
        Command::new(env!("CARGO_BIN_EXE_unolab"))
            .args(["play", "classic", "-r", "stacking", "--seed", "3", "-p", "3"]),
        &"play +2\nauto\n".repeat(200),
    );
    let text = String::from_utf8_lossy(&output.stdout).replace("\n  ", " ");
    assert!(
        text.contains("the wild-draw4 played on you waits for your answer: only wild-draw4 may answer it"),
        "{text}"
    );
}

/// `trace on` at the keyboard keeps to seat 0's sight: no call about
/// another seat's card (a card it may play, answer with, jump in with or
/// drew) is shown, and what a call read of another hand is `(hidden)`, as
/// is the reply of a call that read it, and what it asked after that. The same rules traced by the
/// author's tool, which sees everything, do show such calls.
#[test]
fn the_trace_at_the_keyboard_keeps_to_the_seats_sight() {
    let rules = ["-r", "stacking", "-r", "jump-in", "-r", "seven-o"];
    let mut args = vec!["play", "classic", "--seed", "5"];
    args.extend(rules);
    let input = format!("trace on\n{}quit\n", "auto\n".repeat(40));
    let mut command = Command::new(env!("CARGO_BIN_EXE_unolab"));
    command.args(&args).env("NO_COLOR", "1");
    let output = super::cli::with_input(&mut command, &input);
    let seen = String::from_utf8(output.stdout).unwrap();
    let traced: Vec<&str> = seen.lines().filter(|line| line.starts_with("trace:")).collect();
    assert!(traced.iter().any(|line| line.contains(" for p0: ")), "{seen}");
    assert!(traced.iter().any(|line| line.contains(", memo -> ")), "{seen}");
    let about_their_cards = |line: &str| {
        ["can_play(", "can_respond(", "can_play_out_of_turn(", "draw_again(", "available("]
            .iter()
            .any(|hook| line.starts_with(&format!("trace: {hook}")))
            && !line.contains(" for p0: ")
    };
    let reads_their_hand = |line: &str| {
        (1..4).any(|seat| {
            [format!("hand({seat})["), format!("holds({seat}, "), format!("count({seat}, "), format!("points({seat})")]
                .iter()
                .any(|read| line.contains(read.as_str()))
        }) && !line.ends_with("= (hidden)")
    };
    // After a hidden answer, which questions a call asks may tell it: they
    // are not told.
    let mut after_hidden = false;
    for line in &traced {
        assert!(!about_their_cards(line), "{line}\n{seen}");
        assert!(!reads_their_hand(line), "{line}\n{seen}");
        let told_read = line.starts_with("trace:   read ") && !line.starts_with("trace:   read ... (hidden");
        assert!(!(after_hidden && told_read), "a question after a hidden answer: {line}\n{seen}");
        after_hidden = (after_hidden && line.starts_with("trace:   ")) || line.ends_with("= (hidden)");
    }
    assert!(traced.iter().any(|line| line.starts_with("trace:   read ... (hidden: ")), "{seen}");
    assert!(traced.iter().any(|line| line.ends_with("= (hidden)")), "{seen}");
    // Nor is whether the memo answered a call that read a hidden answer:
    // it would say the answer was as before.
    let mut head = "";
    for line in &traced {
        if !line.starts_with("trace:   ") {
            head = line;
        } else if line.ends_with("= (hidden)") {
            assert!(head.contains(", script or memo -> "), "{head}\n{seen}");
        }
    }
    let mut sim = Command::new(env!("CARGO_BIN_EXE_unolab"));
    sim.args(["sim", "classic", "-n", "1", "--show", "0", "--trace", "--seed", "5"]).args(rules);
    let all = String::from_utf8(sim.output().unwrap().stdout).unwrap();
    assert!(all.lines().any(about_their_cards), "{all}");
}

/// `trace on` against the search bot tells of the game's hook calls, not
/// of the ones its search makes in the positions it deals and plays out
/// (thousands a move, of games that never happened).
#[test]
fn the_trace_leaves_out_the_search_bots_playouts() {
    let mut command = Command::new(env!("CARGO_BIN_EXE_unolab"));
    command.args(["play", "classic", "-p", "3", "--seed", "5", "--bot", "hard"]).env("NO_COLOR", "1");
    let output = super::cli::with_input(&mut command, &format!("trace on\n{}quit\n", "auto\n".repeat(6)));
    let seen = String::from_utf8(output.stdout).unwrap();
    let lines = seen.lines().filter(|line| line.starts_with("trace:")).count();
    let plays = seen.lines().filter(|line| line.contains(" plays ") || line.starts_with("you play ")).count();
    assert!(plays > 3, "{seen}");
    // A play calls a hook or two; the search's playouts called thousands.
    assert!(lines > 0 && lines < 12 * plays, "{lines} trace lines for {plays} plays:\n{seen}");
}

/// A call that reads another hand only after the 40 steps the trace
/// tells of still keeps its reply, and who answered it, from `trace on`;
/// `sim --trace`, which sees everything, tells both.
#[test]
fn the_trace_at_the_keyboard_hides_a_reply_that_read_a_hand_late() {
    let scratch = tempfile::tempdir().unwrap();
    std::fs::write(
        scratch.path().join("late.yaml"),
        "name: late\ndescription: asks about p1's hand after 42 other questions\n\
         scripts: [late.rhai]\nhooks:\n  can_play:\n    - {call: peek}\n",
    )
    .unwrap();
    std::fs::write(
        scratch.path().join("late.rhai"),
        "fn peek(card) {\n    let n = hand_size(0) + hand_size(1);\n    \
         for c in [\"red\", \"green\", \"blue\", \"yellow\"] { for k in 0..10 { n += count(0, `${c} + ${k}`); } }\n    \
         let red = holds(1, \"red\");\n    n > 0\n}\n",
    )
    .unwrap();
    let rule = scratch.path().join("late.yaml");
    let rules = ["-r", rule.to_str().unwrap()];
    let mut command = Command::new(env!("CARGO_BIN_EXE_unolab"));
    command.args(["play", "classic", "--seed", "5", "-p", "2"]).args(rules).env("NO_COLOR", "1");
    let output = super::cli::with_input(&mut command, "trace on\nauto\nauto\nquit\n");
    let seen = String::from_utf8(output.stdout).unwrap();
    let heads: Vec<&str> = seen.lines().filter(|line| line.starts_with("trace: can_play(")).collect();
    assert!(!heads.is_empty(), "{seen}");
    for head in &heads {
        assert!(head.ends_with(": late fn peek, script or memo -> (hidden)"), "{head}\n{seen}");
    }
    assert!(seen.contains("trace:   ... more reads and changes\n"), "{seen}");
    let mut sim = Command::new(env!("CARGO_BIN_EXE_unolab"));
    sim.args(["sim", "classic", "-p", "2", "-n", "1", "--show", "0", "--trace", "--seed", "5"]).args(rules);
    let all = String::from_utf8(sim.output().unwrap().stdout).unwrap();
    assert!(all.lines().any(|line| line.contains(": late fn peek, script -> true")), "{all}");
    assert!(all.contains("trace:   ... 3 more reads and changes\n"), "{all}");
}

/// A value a rule keeps is shown by `trace on` only where the rule
/// declares it public (`public_state`), as the seat's view shows it: a
/// rule that notes each seat's first card in its state keeps it from
/// seat 0's trace (the reads, the changes, and the replies that read it),
/// while `sim --trace`, which sees everything, shows it.
#[test]
fn the_trace_at_the_keyboard_hides_state_the_rules_keep_private() {
    let scratch = tempfile::tempdir().unwrap();
    std::fs::write(
        scratch.path().join("secret.yaml"),
        "name: secret\ndescription: notes each seat's first card, in secret, and counts turns in public\n\
         scripts: [secret.rhai]\npublic_state: [turns]\nhooks:\n  on_turn_start:\n    - {call: note}\n",
    )
    .unwrap();
    std::fs::write(
        scratch.path().join("secret.rhai"),
        "fn note(seat) {\n    let card = hand(seat)[0].name;\n    set_state(\"first\", card);\n    \
         set_seat_state(seat, \"mine\", card);\n    let turns = state(\"turns\");\n    \
         set_state(\"turns\", if turns == () { 1 } else { turns + 1 });\n    let now = state(\"first\");\n}\n",
    )
    .unwrap();
    let rule = scratch.path().join("secret.yaml");
    let rules = ["-r", rule.to_str().unwrap()];
    let mut command = Command::new(env!("CARGO_BIN_EXE_unolab"));
    command.args(["play", "classic", "--seed", "5"]).args(rules).env("NO_COLOR", "1");
    let output = super::cli::with_input(&mut command, &format!("trace on\n{}quit\n", "auto\n".repeat(12)));
    let seen = String::from_utf8(output.stdout).unwrap();
    let traced: Vec<&str> = seen.lines().filter(|line| line.starts_with("trace:")).collect();
    let secret = ["state(\"first\") = ", "state 'first' = ", "seat_state(", "state 'mine' = ", "room to keep 'first'"];
    let told: Vec<&str> = traced.iter().copied().filter(|line| secret.iter().any(|read| line.contains(read))).collect();
    assert!(told.len() > 4, "{seen}");
    for line in told {
        assert!(line.ends_with("= (hidden)"), "{line}\n{seen}");
    }
    assert!(traced.iter().any(|line| line.contains("change: state 'turns' = 3")), "{seen}");
    // A hand is told by its size (it read as 0 cards).
    assert!(traced.iter().any(|line| line.contains("read hand(0) = 7 cards")), "{seen}");
    assert!(traced.iter().any(|line| line.contains("note, script or memo -> done")), "{seen}");
    let mut sim = Command::new(env!("CARGO_BIN_EXE_unolab"));
    sim.args(["sim", "classic", "-n", "1", "--show", "0", "--trace", "--seed", "5"]).args(rules);
    let all = String::from_utf8(sim.output().unwrap().stdout).unwrap();
    let shown = |change: &str| all.lines().any(|line| line.contains(change) && !line.ends_with("(hidden)"));
    assert!(shown("change: state 'first' = ") && shown("'s state 'mine' = "), "{all}");
    assert!(shown("read state(\"first\") = "), "{all}");
}
