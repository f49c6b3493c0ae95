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
    let side = game.table().side;
    let view = game.view(0);
    let own: Vec<_> = game.table().hands[0].iter().map(|&c| *variant.face(c, side)).collect();
    assert_eq!(view.hand, own);
    for opponent in &view.opponents {
        let backs: Vec<_> = game.table().hands[opponent.seat].iter().map(|&c| *variant.face(c, side.other())).collect();
        assert_eq!(opponent.backs, backs);
        assert_eq!(opponent.cards, backs.len());
    }
    let top = *game.table().draw.last().unwrap();
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
        if game.table().phase != unolab::turn::Phase::Turn {
            continue;
        }
        let seat = game.to_act();
        let side = game.table().side;
        // Swap one of the seat's cards with a twin from the draw pile below
        // its top: only hidden information changes.
        let swap = game.table().hands[seat].iter().enumerate().find_map(|(i, &card)| {
            let twin = twin(&variant, card, side)?;
            let draw = &game.table().draw;
            let at = draw[..draw.len() - 1].iter().position(|&c| c == twin)?;
            Some((i, at, card, twin))
        });
        let Some((i, at, card, twin)) = swap else { continue };
        let mut other = Game::new(Runtime::new(variant.clone()).unwrap(), 3, seed).unwrap();
        other.deal().unwrap();
        other.place(|t| {
            t.hands[seat][i] = twin;
            t.draw[at] = card;
        });
        assert_eq!(game.view(seat), other.view(seat), "the seat sees the same table");
        let a = Bot::new(BotKind::Random, seed, seat as u64).choose(&mut game, seat).unwrap();
        let b = Bot::new(BotKind::Random, seed, seat as u64).choose(&mut other, seat).unwrap();
        assert_eq!(a.describe(&variant, side), b.describe(&variant, side), "seed {seed}");
        compared += 1;
    }
    assert!(compared >= 10, "only {compared} positions compared");
}
