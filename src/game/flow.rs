//! Carrying out actions that were found legal, and the flow of a turn: a
//! card's effects become a `TurnPlan`; penalties pass through the rules'
//! hooks and are drawn at once or wait for an answer; decisions (colour
//! choices, answers) are owed in the order they arose; then the turn moves
//! on.

use crate::event::{Event, Seat};
use crate::game::{Action, Game, Play};
use crate::script::{CallInfo, ScriptFailure};
use crate::table::Uno;
use crate::turn::{Decision, DrawSpec, Landing, Penalty, Phase, Request, TurnPlan};
use crate::variant::HookKind;

impl Game {
    /// Carries out a legal action. A script may still fail midway; the
    /// caller restores the table then.
    pub(crate) fn carry_out(&mut self, action: Action) -> Result<(), ScriptFailure> {
        if action.is_turn_action() {
            self.table.close_uno_windows(action.seat());
            self.table.landing = Landing::Settled;
        }
        match action {
            Action::Play(play) => self.play(play)?,
            Action::Draw(seat) => self.draw(seat)?,
            Action::Pass(seat) => {
                self.log.push(Event::Passed { seat });
                self.table.current = self.table.seat_after(seat, 1);
                self.table.phase = Phase::Turn;
            }
            Action::Accept(seat) => {
                let penalty = self.take_penalty();
                self.log.push(Event::Accepted { seat });
                self.table.draw_cards(&self.variant, seat, penalty.draw, &mut self.log);
                self.lose_turn(seat);
                self.table.next_decision();
            }
            Action::Challenge(seat) => {
                let penalty = self.take_penalty();
                let challenge = penalty.challenge.expect("a challengeable penalty");
                self.log.push(Event::Challenged { challenger: seat, offender: penalty.by, guilty: challenge.guilty });
                if challenge.guilty {
                    self.table.draw_cards(&self.variant, penalty.by, challenge.success, &mut self.log);
                } else {
                    self.table.draw_cards(&self.variant, seat, challenge.fail, &mut self.log);
                    self.lose_turn(seat);
                }
                self.table.next_decision();
            }
            Action::NameColor(seat, color) => {
                self.table.color = Some(color);
                self.log.push(Event::ColorChosen { seat, color });
                self.table.next_decision();
            }
            Action::CallUno(seat) => {
                self.table.uno[seat] = Uno::Called;
                self.log.push(Event::UnoCalled { seat });
            }
            Action::Catch { target, .. } => {
                self.log.push(Event::Caught { seat: target });
                let spec = DrawSpec { count: self.variant.uno_penalty, until: None };
                self.table.draw_cards(&self.variant, target, spec, &mut self.log);
            }
        }
        self.table.update_uno();
        Ok(())
    }

    /// The penalty waiting for an answer (the action was found legal).
    fn take_penalty(&mut self) -> Penalty {
        match std::mem::take(&mut self.table.phase) {
            Phase::Answer(penalty) => penalty,
            other => unreachable!("an answer needs a waiting penalty, not {other:?}"),
        }
    }

    /// A penalty's victim who was to play next loses that turn.
    fn lose_turn(&mut self, victim: Seat) {
        if victim == self.table.current {
            self.table.current = self.table.seat_after(victim, 1);
        }
    }

    fn play(&mut self, play: Play) -> Result<(), ScriptFailure> {
        let seat = play.seat;
        let answering = match std::mem::take(&mut self.table.phase) {
            Phase::Answer(p) => Some(p),
            _ => None,
        };
        let out_of_turn = seat != self.table.current && answering.as_ref().is_none_or(|p| p.victim != seat);
        self.table.current = seat;
        let hand = &mut self.table.hands[seat];
        let index = hand.iter().position(|&c| c == play.card).expect("a legal play is held");
        hand.remove(index);
        self.table.discard.push(play.card);
        self.table.landing = Landing::PlayedBy(seat);
        let face = *self.variant.face(play.card, self.table.side);
        let prev_color = self.table.color;
        self.table.color = face.color.or(play.color);
        self.log.push(Event::Played {
            seat,
            card: play.card,
            side: self.table.side,
            as_flex: play.as_flex,
            color: if face.is_wild() { play.color } else { None },
            target: play.target,
            out_of_turn,
        });
        let going_out = self.table.hands[seat].is_empty();
        if play.uno && self.table.hands[seat].len() == 1 {
            self.table.uno[seat] = Uno::Called;
            self.log.push(Event::UnoCalled { seat });
        }
        let call = CallInfo {
            card: Some(play.card),
            as_flex: play.as_flex,
            target: play.target,
            going_out,
            prev_color,
            answering: answering.clone(),
            ..CallInfo::new(HookKind::OnPlay, seat)
        };
        let plan = self.run_effects(play.card, call)?;
        self.resolve_effects(seat, plan, going_out, answering)?;
        if going_out {
            self.end_hand(seat)?;
        }
        Ok(())
    }

    /// Resolves what a card's effects asked for, in the order asked, and
    /// moves the turn on: penalties pass through the rules' hooks and are
    /// drawn at once (a victim who was to play next loses that turn) or wait
    /// for an answer; colour choices wait. On a last card nothing waits.
    pub(crate) fn resolve_effects(
        &mut self,
        me: Seat,
        mut plan: TurnPlan,
        going_out: bool,
        answering: Option<Penalty>,
    ) -> Result<(), ScriptFailure> {
        let players = self.players();
        for request in std::mem::take(&mut plan.requests) {
            let penalty = match request {
                Request::AskColor(chooser) => {
                    self.table.owed.push_back(Decision::NameColor { chooser });
                    continue;
                }
                Request::Penalty(penalty) => penalty,
            };
            let mut penalty = self.penalty_hooks(me, penalty, answering.clone())?;
            if going_out {
                penalty.pending = false;
                penalty.challenge = None;
            }
            if penalty.challenge.is_some() {
                penalty.pending = true;
            }
            if penalty.pending {
                self.log.push(Event::PenaltyPending {
                    victim: penalty.victim,
                    count: penalty.draw.count,
                    until: penalty.draw.until,
                });
                self.table.owed.push_back(Decision::Answer(penalty));
            } else {
                self.table.draw_cards(&self.variant, penalty.victim, penalty.draw, &mut self.log);
                if plan.next.is_none() && penalty.victim == self.table.seat_after(me, plan.skips % players + 1) {
                    plan.skips += 1;
                }
            }
        }
        if going_out {
            return Ok(());
        }
        let next = match plan.next {
            Some(seat) => seat,
            None => {
                for step in 1..=plan.skips.min(players) {
                    let skipped = self.table.seat_after(me, step);
                    if skipped != me {
                        self.log.push(Event::Skipped { seat: skipped });
                    }
                }
                self.table.seat_after(me, plan.skips % players + 1)
            }
        };
        self.table.current = next;
        self.table.next_decision();
        Ok(())
    }

    fn draw(&mut self, seat: Seat) -> Result<(), ScriptFailure> {
        let mut card = self.take_card(seat);
        for _ in 0..self.variant.deck.len() {
            if !self.table.can_draw() || !self.draw_again(seat, card)? {
                break;
            }
            card = self.take_card(seat);
        }
        if self.can_play_card(seat, card)? {
            self.table.phase = Phase::Drawn(card);
        } else {
            self.table.current = self.table.seat_after(seat, 1);
        }
        Ok(())
    }

    /// `seat` takes the top card of the draw pile (there is one to take).
    fn take_card(&mut self, seat: Seat) -> crate::card::CardId {
        let card = self.table.take_top(&mut self.log).expect("drawing was found legal");
        self.table.hands[seat].push(card);
        self.log.push(Event::Drew { seat, card, side: self.table.side });
        card
    }
}
