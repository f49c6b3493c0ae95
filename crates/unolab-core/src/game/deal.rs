//! Dealing: a new hand built whole, the deck shuffled and dealt, and the
//! first discard turned up under the variant's first-discard rule.

use crate::event::Event;
use crate::game::{ActionError, Game, Record};
use crate::rules::Rules;
use crate::rules::{CallInfo, RuleFailure};
use crate::seat::Seat;
use crate::turn::{FirstDiscard, Landing};
use crate::variant::HookKind;

impl<R: Rules> Game<R> {
    /// Deals a new hand: the dealer is random for the first hand and moves
    /// one seat to the left for each later one (rules.md 1.2 DEFAULT). If a
    /// script fails, nothing has changed.
    pub fn deal(&mut self) -> Result<(), ActionError> {
        self.transaction(true, |game| {
            let players = game.players();
            let dealer = if game.pos.table.hand_number == 0 {
                rand::RngExt::random_range(&mut game.pos.table.rng, 0..players)
            } else {
                (game.pos.table.dealer + 1) % players
            };
            game.setup_hand(dealer);
            game.pos.table.draw.extend_from_slice(&game.variant.deck);
            game.pos.table.shuffle_draw();
            for round in 0..game.variant.hand_size {
                for offset in 1..=players {
                    let seat = (dealer + offset) % players;
                    if let Some(card) = game.pos.table.draw.pop() {
                        game.pos.table.hands.push(seat, card);
                    }
                    if round + 1 == game.variant.hand_size {
                        game.pos.log.push(Event::Dealt { seat, cards: game.pos.table.hands[seat].len() });
                    }
                }
            }
            game.first_discard()?;
            game.after(0)
        })?;
        if self.pos.log.enabled {
            self.pos.history.push(Record::Deal);
        }
        Ok(())
    }

    /// Starts a hand with `dealer`: everything of the last hand is cleared;
    /// scores and the match carry on.
    pub fn setup_hand(&mut self, dealer: Seat) {
        self.pos.stamp = crate::rules::next_stamp();
        self.pos.table.start_hand(dealer);
        self.pos.log.push(Event::HandStarted { hand: self.pos.table.hand_number, dealer });
    }

    /// Turns up the first discard and applies the variant's first-discard
    /// rule (a scenario set up without a discard does this too).
    pub fn turn_first_discard(&mut self) -> Result<(), ActionError> {
        self.transaction(true, |game| {
            game.first_discard()?;
            game.after(0)
        })
    }

    fn first_discard(&mut self) -> Result<(), RuleFailure> {
        let dealer = self.pos.table.dealer;
        self.pos.table.current = self.pos.table.seat_after(dealer, 1);
        for _ in 0..self.variant.deck.len() * 2 {
            let Some(card) = self.pos.table.take_top(&mut self.pos.log) else { break };
            self.pos.table.discard.push(card);
            self.pos.table.landing = Landing::TurnedUp;
            self.pos.log.push(Event::TurnedUp { card });
            self.pos.table.color = self.variant.face(card, self.pos.table.side).color;
            let call = CallInfo::new(HookKind::FirstDiscard, dealer);
            let plan = self.run_effects(card, call)?;
            match plan.first_discard {
                FirstDiscard::Redraw => {
                    self.pos.table.discard.pop();
                    self.pos.table.draw.push(card);
                    self.pos.table.shuffle_draw();
                    self.pos.log.push(Event::Buried { card });
                }
                FirstDiscard::TurnNext => {}
                FirstDiscard::Keep => {
                    self.resolve_effects(dealer, plan, false, None)?;
                    break;
                }
            }
        }
        self.pos.table.update_uno();
        Ok(())
    }
}
