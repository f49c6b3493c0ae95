//! The model's parts that need a loaded variant to test: how a deck
//! selector picks faces, how the memo keeps and replays recorded calls
//! (`unolab::script::memo::Memo`), and table primitives on real decks.

use unolab::card::{CardId, Side};
use unolab::event::Log;
use unolab::loader::load;
use unolab::rng::rng;
use unolab::rules::read::{Answer, Read};
use unolab::rules::{CallInfo, HookArg, Lent, Open, Reply, Step, Verdict};
use unolab::ruleset::LoadRequest;
use unolab::script::memo::{Key, Memo, Returned};
use unolab::table::Table;
use unolab::turn::{Op, ScriptValue, TurnPlan};
use unolab::variant::selector::{DeckSelector, Selector, SelectorSpec};
use unolab::variant::{HookKind, Variant};

/// The first built-in variant.
fn a_variant() -> Variant {
    let name = unolab::builtin::variant_names()[0].to_string();
    load(&LoadRequest { variant: name, ..LoadRequest::default() }).expect("a built-in variant loads")
}

/// Replays `key` on `table` as a call `call`: where it returned.
fn replay(memo: &Memo, key: Key, variant: &Variant, call: &mut CallInfo, table: &mut Table) -> Option<Returned> {
    let (mut plan, mut log, mut trace) = (TurnPlan::default(), Log::new(false), Vec::new());
    memo.replay(key, &mut Lent::new(variant, call, table, &mut log, &mut plan, &mut trace))
}

/// A recorded call that keeps a new value read that there was room for
/// it: it is not replayed onto a table that keeps as many values as it
/// may (the rule runs and refuses).
#[test]
fn a_kept_value_past_the_bound_is_not_replayed() {
    let variant = a_variant();
    let mut memo = Memo::new(1, &variant);
    let arg = HookArg::None;
    let key = Key { function: 0, arg: &arg };
    let room = Read::StateRoom { seat: None, name: "new".into() };
    let keep = Op::SetState { seat: None, name: "new".into(), value: Some(ScriptValue::Int(1)) };
    memo.record(key, &[Step::Read(room, Answer::bool(true)), Step::Op(keep)], &Reply::Done);
    let call = &mut CallInfo::new(HookKind::OnPlay, 0);
    let keeping = |values: usize| {
        let mut game =
            unolab::game::Game::new(unolab::script::Runtime::new(std::sync::Arc::new(variant.clone())).unwrap(), 2, 1)
                .unwrap();
        game.deal().unwrap();
        let mut layout = game.table().layout();
        layout.state = (0..values).map(|n| (format!("v{n}").into(), ScriptValue::Int(0))).collect();
        game.arrange(layout).unwrap();
        game.table().clone()
    };
    let bound = unolab::limits::STATE_VALUES;
    let replayed = replay(&memo, key, &variant, call, &mut keeping(bound - 1));
    assert!(replayed.is_some(), "within the bound, the call is replayed");
    let mut table = keeping(bound);
    let before = table.state().clone();
    assert!(replay(&memo, key, &variant, call, &mut table).is_none());
    assert_eq!(*table.state(), before, "nothing was kept");
}

/// A question about the card a call is about names it by its place:
/// a call about another card at that place is answered by the same
/// path, as the question answers for that card.
#[test]
fn a_question_about_the_argument_holds_for_any_card() {
    use unolab::rules::read::{CardList, CardRef, CardSource};
    let variant = a_variant();
    let mut memo = Memo::new(1, &variant);
    let arg = HookArg::Card(CardId(0), Side::Light);
    let key = Key { function: 0, arg: &arg };
    let read = Read::Playable(CardRef::At(CardSource { list: CardList::Arg, index: 0 }));
    memo.record(key, &[Step::Read(read, Answer::bool(true))], &Reply::Verdict(Verdict::No(None)));
    let table = Table::new(2, false, rng(0));
    let about = |card: u16, playable: Vec<u16>| CallInfo {
        card: Some((CardId(card), Side::Light)),
        playable: Some(playable.into_iter().map(CardId).collect()),
        ..CallInfo::new(HookKind::DrawAgain, 0)
    };
    let known = |call: &CallInfo| memo.known_answer(0, Open::Nothing, &table, call, &variant).is_some();
    assert!(known(&about(0, vec![0])), "the call recorded");
    assert!(known(&about(5, vec![2, 5])), "another playable card takes the same path");
    assert!(!known(&about(5, vec![0])), "an unplayable one is not known");
    assert!(
        memo.known_answer(0, Open::Play, &table, &CallInfo::new(HookKind::DrawAgain, 0), &variant).is_none(),
        "with the card left open, the question is one about the card"
    );
}

/// A question that leaves the play's target open is answered only by a
/// path that does not read the target; one that leaves nothing open is
/// answered by the path its target takes.
#[test]
fn an_open_target_is_known_only_where_no_path_reads_it() {
    let variant = a_variant();
    let mut memo = Memo::new(1, &variant);
    let arg = HookArg::Card(CardId(0), Side::Light);
    let key = Key { function: 0, arg: &arg };
    let untargeted = Read::Target.answer(&Table::new(2, false, rng(0)), &CallInfo::new(HookKind::CanPlay, 0), &variant);
    let untargeted = untargeted.expect("the target is a read of the call");
    memo.record(key, &[Step::Read(Read::Target, untargeted)], &Reply::Verdict(Verdict::No(None)));
    let table = Table::new(2, false, rng(0));
    let call = CallInfo { card: Some((CardId(0), Side::Light)), ..CallInfo::new(HookKind::CanPlay, 0) };
    let no = Reply::Verdict(Verdict::No(None));
    let known = |open| memo.known_answer(0, open, &table, &call, &variant);
    assert_eq!(known(Open::Nothing), Some(&no), "the untargeted play was recorded");
    assert_eq!(known(Open::Aim { side: true, target: false }), Some(&no), "the card has no target to choose");
    assert_eq!(known(Open::Aim { side: false, target: true }), None, "another target may answer otherwise");
    let targeted = CallInfo { target: Some(1), ..call.clone() };
    assert!(memo.known_answer(0, Open::Nothing, &table, &targeted, &variant).is_none(), "never asked");
}

/// A selector decided for the deck picks what it picks face by face,
/// on both sides of every built-in deck; one that relates faces to the
/// top card is asked face by face.
#[test]
fn a_deck_selector_picks_as_its_selector() {
    for name in unolab::builtin::variant_names() {
        let request = LoadRequest { variant: name.to_string(), ..LoadRequest::default() };
        let variant = load(&request).expect("a built-in variant loads");
        let top = variant.face(CardId(0), Side::Light);
        for text in
            ["red", "wild", "number + marked", "skip", "7", "action", "flex", "draws", "top:color", "action + top"]
        {
            let selector = Selector::parse(&variant.names, Some(&SelectorSpec::One(text.into()))).unwrap();
            let deck = DeckSelector::new(selector.clone(), text, &variant);
            assert_eq!(deck.written(), text);
            assert_eq!(deck.decided(), !selector.reads_top(), "{text}");
            for id in 0..variant.designs.len() {
                for side in [Side::Light, Side::Dark] {
                    let card = CardId(id as u16);
                    let face = variant.face(card, side);
                    assert_eq!(
                        deck.picks(&variant, card, side, Some(top)),
                        selector.selects(&variant.names, face, Some(top)),
                        "{name}: {text} of card {id} on {side:?}"
                    );
                }
            }
        }
        // `draws` picks the faces that make someone draw, and only those.
        let draws = Selector::parse(&variant.names, Some(&SelectorSpec::One("draws".into()))).unwrap();
        let faces = || unolab::variant::faces_by_slot(&variant.designs).map(|(_, face)| face);
        assert!(faces().any(|face| draws.selects(&variant.names, face, None)), "{name}: no face draws");
        for face in faces() {
            let draws_cards = face.symbol().is_some_and(|s| variant.names.symbol_info(s).draws > 0);
            assert_eq!(draws.selects(&variant.names, face, None), draws_cards, "{name}: {face:?}");
        }
    }
}

/// The first built-in variant of a kind (one- or double-sided).
fn variant_of_kind(double_sided: bool) -> Variant {
    unolab::builtin::variant_names()
        .into_iter()
        .map(|name| load(&LoadRequest { variant: name.into(), ..LoadRequest::default() }).unwrap())
        .find(|v| v.double_sided == double_sided)
        .expect("a built-in variant of that kind")
}

/// A table of `variant` laid out with `draw` and `discard` as given (the
/// rest of the deck in the first hand), to work primitives on.
fn laid_out(variant: Variant, draw: Vec<CardId>, discard: Vec<CardId>) -> Table {
    let variant = std::sync::Arc::new(variant);
    let mut game = unolab::game::Game::new(unolab::script::Runtime::new(variant.clone()).unwrap(), 2, 1).unwrap();
    let mut layout = game.table().layout();
    let mut rest = variant.deck.clone();
    for card in draw.iter().chain(&discard) {
        rest.remove(rest.iter().position(|c| c == card).unwrap());
    }
    layout.hands = vec![rest, Vec::new()];
    (layout.draw, layout.discard) = (draw, discard);
    game.arrange(layout).unwrap();
    game.table().clone()
}

#[test]
fn a_flip_turns_both_piles_over_and_the_side() {
    let variant = variant_of_kind(true);
    let mut t = laid_out(variant.clone(), vec![CardId(5), CardId(6), CardId(7)], vec![CardId(0), CardId(1), CardId(2)]);
    t.flip(&variant, &mut Log::new(false));
    assert_eq!(t.discard_pile(), [CardId(2), CardId(1), CardId(0)]);
    assert_eq!(t.draw_pile(), [CardId(7), CardId(6), CardId(5)]);
    assert_eq!(t.side(), Side::Dark);
    assert_eq!(t.color(), variant.face(CardId(0), Side::Dark).color);
}

#[test]
fn drawing_until_a_colour_stops_when_both_piles_are_spent() {
    let variant = variant_of_kind(false);
    // Cards of the first colour, drawn until the second.
    let of_first: Vec<CardId> = (0..variant.designs.len() as u16)
        .map(CardId)
        .filter(|&c| variant.design(c).light.color == Some(0))
        .take(3)
        .collect();
    assert_eq!(of_first.len(), 3);
    let mut t = laid_out(variant.clone(), of_first[1..].to_vec(), vec![of_first[0]]);
    let spec = unolab::turn::DrawSpec { count: 2, until: Some(1) };
    let drawn = t.draw_cards(&variant, 1, spec, &mut Log::new(false));
    assert_eq!(drawn, 2, "draws all there is and stops");
    assert!(t.draw_pile().is_empty());
    assert_eq!(t.hands()[1].len(), 2);
}
