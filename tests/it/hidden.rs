//! UNO Flip's hidden information (rules.md 4.3): a player sees the backs of
//! opponents' cards and of the draw pile's top card, never the backs of
//! their own. Bots decide only on what their seat can see.

use std::sync::Arc;

use unolab::bot::{Bot, BotKind};
use unolab::card::{CardId, Side};
use unolab::game::Game;
use unolab::loader::load;
use unolab::ruleset::LoadRequest;
use unolab::script::Runtime;
use unolab::variant::Variant;

fn flip() -> Arc<Variant> {
    Arc::new(load(&LoadRequest { variant: "flip".into(), ..LoadRequest::default() }).unwrap())
}

#[test]
fn a_seat_sees_opponents_backs_and_the_draw_piles_back_but_not_its_own() {
    let variant = flip();
    let mut game = Game::new(Runtime::new(variant.clone()).unwrap(), 3, 9).unwrap();
    game.deal().unwrap();
    let side = game.table().side();
    let view = game.view(0);
    let own: Vec<_> = game.table().hands()[0].iter().map(|&c| *variant.face(c, side)).collect();
    assert_eq!(view.hand, own);
    for opponent in &view.opponents {
        let backs: Vec<_> =
            game.table().hands()[opponent.seat].iter().map(|&c| *variant.face(c, side.other())).collect();
        assert_eq!(opponent.backs, backs);
        assert_eq!(opponent.cards, backs.len());
    }
    let top = *game.table().draw_pile().last().unwrap();
    assert_eq!(view.draw_top_back, Some(*variant.face(top, side.other())));
    assert_eq!(format!("{view:?}").matches("Face").count(), view.hand.len() + 2 * 7 + 2, "nothing else is shown");
}

/// Another design with the same face on `side` but a different back.
fn twin(variant: &Variant, card: CardId, side: Side) -> Option<CardId> {
    let face = variant.face(card, side);
    (0..variant.designs.len() as u16).map(CardId).find(|&c| c != card && variant.face(c, side) == face)
}

#[test]
fn bots_decide_the_same_whatever_the_hidden_backs_of_their_own_cards() {
    let variant = flip();
    let mut compared = 0;
    for seed in 0..60u64 {
        let mut game = Game::new(Runtime::new(variant.clone()).unwrap(), 3, seed).unwrap();
        game.deal().unwrap();
        if *game.table().phase() != unolab::turn::Phase::Turn {
            continue;
        }
        let seat = game.to_act();
        let side = game.table().side();
        // Swap one of the seat's cards with a twin from the draw pile below
        // its top: only hidden information changes.
        let swap = game.table().hands()[seat].iter().enumerate().find_map(|(i, &card)| {
            let twin = twin(&variant, card, side)?;
            let draw = &game.table().draw_pile();
            let at = draw[..draw.len() - 1].iter().position(|&c| c == twin)?;
            Some((i, at, card, twin))
        });
        let Some((i, at, card, twin)) = swap else { continue };
        let mut other = Game::new(Runtime::new(variant.clone()).unwrap(), 3, seed).unwrap();
        other.deal().unwrap();
        let mut layout = other.table().layout();
        layout.hands[seat][i] = twin;
        layout.draw[at] = card;
        other.arrange(layout).unwrap();
        assert_eq!(game.view(seat), other.view(seat), "the seat sees the same table");
        let a = Bot::new(BotKind::Random, seed, seat as u64).choose(&mut game, seat).unwrap();
        let b = Bot::new(BotKind::Random, seed, seat as u64).choose(&mut other, seat).unwrap();
        assert_eq!(a.describe(&variant, side), b.describe(&variant, side), "seed {seed}");
        compared += 1;
    }
    assert!(compared >= 10, "only {compared} positions compared");
}

/// The position a seat could be in looks the same to the seat as the real
/// one (its view is equal: its hand, the piles, every count and every back
/// it sees), keeps the deck, and depends on nothing the seat cannot see:
/// two games that differ only in hidden cards give the same position.
#[test]
fn a_determinized_position_is_what_the_seat_sees_and_nothing_more() {
    use unolab::rng::rng;
    for name in ["classic", "flip"] {
        let variant = Arc::new(load(&LoadRequest { variant: name.into(), ..LoadRequest::default() }).unwrap());
        let mut checked = 0;
        for seed in 0..30 {
            let mut game = Game::new(Runtime::new(variant.clone()).unwrap(), 3, seed).unwrap();
            game.deal().unwrap();
            let mut bots: Vec<Bot> = (0..3).map(|s| Bot::new(BotKind::Random, seed, s)).collect();
            for _ in 0..(seed % 7) * 3 {
                if game.hand_over() {
                    break;
                }
                let seat = game.to_act();
                let action = bots[seat].choose(&mut game, seat).unwrap();
                game.apply(action).unwrap();
            }
            if game.hand_over() {
                continue;
            }
            let seat = (game.to_act() + 1) % 3;
            let dealt = game.position().determinize(seat, &variant, &mut rng(seed));
            assert!(dealt.table().conserves(&variant), "{name} seed {seed}: the deck is kept");
            let mut other = Game::new(Runtime::new(variant.clone()).unwrap(), 3, seed).unwrap();
            other.set_position(&dealt);
            assert_eq!(game.view(seat), other.view(seat), "{name} seed {seed}: the seat sees the same table");
            assert_ne!(dealt.table().hands(), game.table().hands(), "{name} seed {seed}: hidden cards are dealt anew");
            // Another game that differs only in what the seat cannot see
            // (two cards it does not know of, exchanged): its
            // determinization with the same generator is the same.
            let mut shuffled = game.table().layout();
            let others: Vec<usize> = (0..3).filter(|&s| s != seat).collect();
            let (a, b) = (others[0], others[1]);
            let back = |card| variant.face(card, game.table().side().other());
            let mut known = Vec::new();
            game.table().seen().known_to(seat, &mut known);
            let unknown = |holder, card| !known.contains(&(holder, card));
            let (ha, hb) = (&shuffled.hands[a], &shuffled.hands[b]);
            let pair = (0..ha.len()).flat_map(|i| (0..hb.len()).map(move |j| (i, j))).find(|&(i, j)| {
                ha[i] != hb[j]
                    && unknown(a, ha[i])
                    && unknown(b, hb[j])
                    && (!variant.double_sided || back(ha[i]) == back(hb[j]))
            });
            let Some((i, j)) = pair else { continue };
            let (ca, cb) = (ha[i], hb[j]);
            shuffled.hands[a][i] = cb;
            shuffled.hands[b][j] = ca;
            let mut twin = Game::new(Runtime::new(variant.clone()).unwrap(), 3, seed).unwrap();
            twin.set_position(game.position());
            twin.arrange(shuffled).unwrap();
            assert_eq!(twin.view(seat), game.view(seat));
            let again = twin.position().determinize(seat, &variant, &mut rng(seed));
            assert_eq!(again.table(), dealt.table(), "{name} seed {seed}: the same position from the same view");
            checked += 1;
        }
        assert!(checked >= 5, "{name}: only {checked} positions compared");
    }
}

/// A choice among another seat's cards: the options are the chooser's
/// alone, in the view and in a determinization (which names the cards now
/// at the options' places, never the cards the chooser was offered).
#[test]
fn a_choice_is_seen_by_its_chooser_alone() {
    use unolab::game::command::{CardRef, Command, PlayCommand, Sight};
    use unolab::rng::rng;
    use unolab::turn::{ChoiceOption, Phase};
    use unolab::view::PhaseView;

    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/host/choose-private.yaml");
    let scenario = unolab::scenario::Scenario::load(&path).unwrap();
    let mut game = scenario.game().unwrap();
    let red9 = game.variant.names.parse_pattern("red 9").unwrap();
    let play = Command::Play(PlayCommand::of(CardRef::Named(red9)));
    let action = game.resolve(&play, 0, Sight::All).unwrap();
    game.apply(action).unwrap();
    let PhaseView::Choose { chooser: 1, options, .. } = game.view(1).phase else { panic!("p1 chooses") };
    assert_eq!(options.len(), 2, "the chooser sees its options");
    for seat in [0, 2, 3] {
        let PhaseView::Choose { chooser: 1, options, .. } = game.view(seat).phase else { panic!("p1 chooses") };
        assert!(options.is_empty(), "p{seat} sees p1's options: {options:?}");
    }
    // p2 knows nothing of p0's cards: in its determinizations the options
    // are the cards dealt to p0, whatever they are.
    let offered = |position: &unolab::game::Position| match position.table().phase() {
        Phase::Choose(choice) => choice.options.clone(),
        other => panic!("{other:?}"),
    };
    let mut differ = false;
    for seed in 0..20 {
        let dealt = game.position().determinize(2, &game.variant, &mut rng(seed));
        let options = offered(&dealt);
        for option in &options {
            let ChoiceOption::Card(card, _) = option else { panic!("cards") };
            assert!(dealt.table().hands()[0].contains(card), "an option is a card of p0's hand as dealt");
        }
        differ |= options != offered(game.position());
    }
    assert!(differ, "the options follow the cards dealt, not the cards offered");
    // p1 knows the options: they stay.
    let dealt = game.position().determinize(1, &game.variant, &mut rng(3));
    assert_eq!(offered(&dealt), offered(game.position()));
}
