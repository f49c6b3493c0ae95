//! Entry points for fuzzing: the cargo-fuzz targets under `fuzz/` call
//! them, and `tests/it/fuzz.rs` replays the checked-in corpus
//! (`fuzz/corpus/TARGET/`) through them, so CI needs no nightly toolchain.
//! Each takes any bytes and must return (whether it accepted them): no
//! panic, no hang. Where an input is accepted, what must hold of it is
//! asserted (a card name reads back as itself, cards are conserved, a
//! refused move changes nothing). Nothing here reads the disk: the files
//! come from memory, and the built-in files are found at their paths.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::bot::{self, Bot, BotKind};
use crate::game::Game;
use crate::game::command::Sight;
use crate::loader::Loader;
use crate::repl::command::{self, Input};
use crate::repl::record::{self, SavedGame, Setup};
use crate::repl::render::Style;
use crate::repl::screen::Screen;
use crate::ruleset::{self, LoadRequest};
use crate::scenario::Scenario;
use crate::script::Runtime;
use crate::sim::{SimStats, new_game};
use crate::snapshot::Spec;
use crate::source::{Origin, SourceFile};
use crate::variant::Variant;

/// Files in memory, and the built-in files at their paths
/// (`variants/rules/../../scripts/x.rhai` too); every other path is missing.
struct InMemory(Vec<(PathBuf, String)>);

impl InMemory {
    fn find(&self, path: &Path) -> Option<String> {
        if let Some((_, text)) = self.0.iter().find(|(p, _)| p == path) {
            return Some(text.clone());
        }
        let mut parts: Vec<&str> = Vec::new();
        for part in path.iter() {
            match part.to_str()? {
                "." => {}
                ".." => {
                    parts.pop()?;
                }
                name => parts.push(name),
            }
        }
        crate::builtin::file(&parts.join("/")).map(str::to_string)
    }
}

impl Loader for InMemory {
    fn read(&self, path: &Path) -> Result<String, String> {
        self.find(path).ok_or_else(|| "no such file".into())
    }

    fn exists(&self, path: &Path) -> bool {
        self.find(path).is_some()
    }
}

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// The built-in variants, loaded once.
fn builtins() -> &'static [Arc<Variant>] {
    static VARIANTS: OnceLock<Vec<Arc<Variant>>> = OnceLock::new();
    VARIANTS.get_or_init(|| {
        let names = crate::builtin::variant_names();
        let load = |name: &str| {
            let request = LoadRequest { variant: name.to_string(), ..LoadRequest::default() };
            ruleset::load(&request, &InMemory(Vec::new())).map(Arc::new).expect("a built-in variant loads")
        };
        names.into_iter().map(load).collect()
    })
}

fn default_variant() -> String {
    crate::ruleset::default_variant().expect("a built-in variant is the default").to_string()
}

/// A card name, in every built-in variant: what reads as a card or a face
/// is shown as a name that reads back as the same.
pub fn card_notation(data: &[u8]) -> bool {
    let text = text(data);
    let mut accepted = false;
    for variant in builtins() {
        let names = &variant.names;
        if let Ok(card) = names.parse_card(&text) {
            let shown = names.format_card(&card);
            assert_eq!(names.parse_card(&shown).as_ref(), Ok(&card), "{text:?} is shown as {shown:?}");
            accepted = true;
        }
        if let Ok(face) = names.parse_face(&text) {
            let shown = names.format_face(&face);
            assert_eq!(names.parse_face(&shown), Ok(face), "{text:?} is shown as {shown:?}");
            accepted = true;
        }
        accepted |= names.parse_pattern(&text).is_ok();
    }
    accepted
}

/// A variant or house rule file, beside the built-in ones (so that it may
/// name their scripts): loaded as a variant, and as a rule on the default
/// variant; what loads plays a seeded hand.
pub fn layer_yaml(data: &[u8]) -> bool {
    let (variant, rule) = ("variants/fuzz.yaml", "variants/rules/fuzz.yaml");
    let files = InMemory(vec![(variant.into(), text(data)), (rule.into(), text(data))]);
    let as_variant = LoadRequest { variant: variant.into(), ..LoadRequest::default() };
    let as_rule = LoadRequest { variant: default_variant(), rules: vec![rule.into()], ..LoadRequest::default() };
    let mut accepted = false;
    for request in [as_variant, as_rule] {
        if let Ok(variant) = ruleset::load(&request, &files) {
            play_hand(Arc::new(variant));
            accepted = true;
        }
    }
    accepted
}

/// A script whose `fuzz_play(card)` runs on every play and whose
/// `fuzz_can_play(card)` is asked of every card, as a house rule on the
/// default variant: what loads plays a seeded hand.
pub fn hook_script(data: &[u8]) -> bool {
    let rule = "name: fuzz\ndescription: a fuzzed script\nscripts: [fuzz.rhai]\nhooks:\n  \
                on_play: [{call: fuzz_play}]\n  can_play: [{call: fuzz_can_play}]\n";
    let files = InMemory(vec![("fuzz.yaml".into(), rule.into()), ("fuzz.rhai".into(), text(data))]);
    let request = LoadRequest { variant: default_variant(), rules: vec!["fuzz.yaml".into()], ..LoadRequest::default() };
    let Ok(variant) = ruleset::load(&request, &files) else { return false };
    play_hand(Arc::new(variant));
    true
}

/// A scenario file (naming built-in variants and rules only): parsed, and
/// run if it parses.
pub fn scenario_yaml(data: &[u8]) -> bool {
    let path = Path::new("fuzz.yaml");
    let source = SourceFile { name: "fuzz.yaml".into(), text: text(data), origin: Origin::Disk(path.into()) };
    let Ok(scenario) = Scenario::parse(&InMemory(Vec::new()), source, path) else { return false };
    let _ = scenario.run();
    true
}

/// Lines typed at the REPL, as seat 0 of a built-in variant (the first byte
/// picks which), bots playing the other seats: each line is parsed, and a
/// move is made; a refused move leaves the table as it was.
pub fn repl_lines(data: &[u8]) -> bool {
    let Some((&pick, rest)) = data.split_first() else { return false };
    let variant = &builtins()[usize::from(pick) % builtins().len()];
    let players = variant.min_players.max(3).min(variant.max_players);
    let Ok(mut game) = new_game(variant, players, 1) else { return false };
    if game.deal().is_err() {
        return false;
    }
    let mut moves = 0;
    let mut bots = random_bots(players);
    let mut screen = Screen::new(0, players, Style::plain());
    for line in text(rest).lines() {
        // The bots play until seat 0 has a say (or the hand ends).
        for _ in 0..crate::limits::HAND_ACTIONS {
            if game.hand_over() && game.table().match_winner().is_none() && game.deal().is_err() {
                return moves > 0;
            }
            match bot::next_action(&mut game, &mut bots, Some(0)) {
                Ok(Some((_, action))) if game.apply(action).is_ok() => {}
                _ => break,
            }
        }
        screen.refresh_moves(&mut game);
        let Ok(Input::Move(command)) = command::parse_at(&game, &screen, line) else { continue };
        let Ok(action) = game.resolve(&command, 0, Sight::Seat) else { continue };
        let before = game.table().clone();
        moves += 1;
        if game.apply(action).is_err() {
            assert!(game.table() == &before, "{line:?} was refused but changed the table");
        }
        assert!(game.table().conserves(variant), "{line:?}: cards were lost or made");
    }
    moves > 0
}

/// A saved game (naming built-in variants and rules only): read, and its
/// moves replayed up to the first one refused; what was replayed is
/// conserved (once dealt), and saved again it reads and replays to the
/// same table.
pub fn saved_game(data: &[u8]) -> bool {
    let replayed = |saved: &SavedGame| -> Option<(Setup, Arc<Variant>, Game<Runtime>)> {
        let setup = saved.setup().ok()?;
        let variant = Arc::new(ruleset::load(&setup.request, &InMemory(Vec::new())).ok()?);
        let mut game = new_game(&variant, setup.players, setup.seed).ok()?;
        let _ = record::replay(&mut game, saved.history.iter().map(|line| line.as_str()));
        Some((setup, variant, game))
    };
    let Ok(saved) = SavedGame::parse("fuzz.yaml", &text(data)) else { return false };
    let Some((setup, variant, game)) = replayed(&saved) else { return false };
    // The cards are on the table once it is dealt (a history's first line).
    let dealt = !game.history().is_empty();
    assert!(!dealt || game.table().conserves(&variant), "cards were lost or made");
    let text = SavedGame::of(&setup, &game).text().expect("a game replayed can be saved");
    let again = SavedGame::parse("again.yaml", &text).unwrap_or_else(|e| panic!("a save does not read back: {e}"));
    let (_, _, reloaded) = replayed(&again).expect("a save loads back");
    assert!(reloaded.table() == game.table(), "a save loads back to another table:\n{text}");
    true
}

/// A snapshot spec (naming built-in variants and rules only): read, and
/// its first game played to its transcript (a spec's games are that one
/// many times over).
pub fn snapshot_spec(data: &[u8]) -> bool {
    let path = Path::new("fuzz.snapshots.yaml");
    let source = SourceFile { name: "fuzz.snapshots.yaml".into(), text: text(data), origin: Origin::Disk(path.into()) };
    let Ok(spec) = Spec::parse(&InMemory(Vec::new()), source, path) else { return false };
    let (Some(players), Some(seed)) = (spec.tables().next(), spec.seeds().next()) else {
        panic!("a spec was accepted with no game to play");
    };
    let _ = spec.transcript(players, seed, crate::sim::Engine::default());
    true
}

/// The JSON of a shard of a run (`sim --json --shard K/N`): read trusting
/// nothing; one accepted adds up (to itself too, or it says why not).
pub fn shard_json(data: &[u8]) -> bool {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else { return false };
    let Ok(shard) = crate::sim::json::shard_run(&value).and_then(crate::sim::json::read_shard) else { return false };
    let mut total = SimStats::new(shard.players);
    total.merge(shard.stats.clone()).expect("a shard read adds to nothing");
    let _ = total.merge(shard.stats);
    total.finish();
    let _ = crate::sim::report::turns(&total);
    true
}

/// Seeded random bots for every seat.
fn random_bots(players: usize) -> Vec<Bot> {
    (0..players).map(|s| Bot::new(BotKind::Random, 1, s as u64)).collect()
}

/// One seeded hand of bots: it ends or fails with an error, and the cards
/// are all there after it.
fn play_hand(variant: Arc<Variant>) {
    let players = variant.min_players;
    let Ok(mut game) = new_game(&variant, players, 1) else { return };
    let _ = crate::sim::play_hand(&mut game, &mut random_bots(players));
    assert!(game.table().conserves(&variant), "cards were lost or made");
}
