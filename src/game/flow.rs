//! Carrying out actions that were found legal, and the flow of a turn: a
//! card's effects become a `TurnPlan`; penalties pass through the rules'
//! hooks and are drawn at once or wait for an answer; decisions (colour
//! choices, answers, choices) are owed in the order they arose; then the
//! turn moves on. The moments rules may hook (a colour named, a draw, a
//! penalty taken, an UNO call, a choice, a reshuffle, turns starting and
//! ending, the hand's end) run where they happen, and their effects resolve
//! the same way (see `resolve_moment`).

use smallvec::SmallVec;

use crate::card::CardId;
use crate::event::Event;
use crate::game::{Action, Game, Play};
use crate::script::{CallInfo, HookArg, ScriptFailure};
use crate::seat::Seat;
use crate::table::Uno;
use crate::turn::{Decision, DrawSpec, Landing, Penalty, Phase, Request, TurnPlan};
use crate::variant::HookKind;

impl Game {
    /// Carries out a legal action. A script may still fail midway; the
    /// caller restores the table then.
    pub(crate) fn carry_out(&mut self, action: Action) -> Result<(), ScriptFailure> {
        let reshuffles = self.table.reshuffles;
        if action.is_turn_action() {
            self.table.close_uno_windows(action.seat());
            self.table.landing = Landing::Settled;
        }
        match action {
            Action::Play(play) => self.play(play)?,
            Action::Draw(seat) => self.draw(seat)?,
            Action::Pass(seat) => {
                self.log.push(Event::Passed { seat });
                self.table.phase = Phase::Turn;
                self.give_turn(self.table.seat_after(seat, 1));
            }
            Action::Accept(seat) => {
                let penalty = self.take_penalty();
                self.log.push(Event::Accepted { seat });
                self.table.draw_cards(&self.variant, seat, penalty.draw, &mut self.log);
                self.lose_turn(seat);
                self.moment(HookKind::OnPenaltyTaken, seat, HookArg::Seat(seat))?;
            }
            Action::Challenge(seat) => {
                let penalty = self.take_penalty();
                let challenge = penalty.challenge.expect("a challengeable penalty");
                self.log.push(Event::Challenged { challenger: seat, offender: penalty.by, guilty: challenge.guilty });
                if challenge.guilty {
                    self.table.draw_cards(&self.variant, penalty.by, challenge.success, &mut self.log);
                    self.moment(HookKind::OnPenaltyTaken, penalty.by, HookArg::Seat(penalty.by))?;
                } else {
                    self.table.draw_cards(&self.variant, seat, challenge.fail, &mut self.log);
                    self.lose_turn(seat);
                    self.moment(HookKind::OnPenaltyTaken, seat, HookArg::Seat(seat))?;
                }
            }
            Action::NameColor(seat, color) => {
                self.table.phase = Phase::Turn;
                self.table.color = Some(color);
                self.log.push(Event::ColorChosen { seat, color });
                self.moment(HookKind::OnColor, seat, HookArg::Seat(seat))?;
            }
            Action::Choose(seat, index) => {
                let Phase::Choose(choice) = std::mem::take(&mut self.table.phase) else {
                    unreachable!("a choice was found legal")
                };
                let value = choice.options[index].clone();
                self.log.push(Event::Chose { seat, tag: choice.tag.to_string(), value: value.name(&self.variant) });
                self.moment(HookKind::OnChoice, seat, HookArg::Chosen { tag: choice.tag, value })?;
            }
            Action::CallUno(seat) => {
                self.table.uno.set(seat, Uno::Called);
                self.log.push(Event::UnoCalled { seat });
                self.moment(HookKind::OnUno, seat, HookArg::Seat(seat))?;
            }
            Action::Catch { by, target } => {
                self.log.push(Event::Caught { seat: target, by });
                let count = self.catch_penalty(target)?;
                self.table.draw_cards(&self.variant, target, DrawSpec { count, until: None }, &mut self.log);
                // Caught once: a seat that drew nothing (both piles spent)
                // and still holds one card cannot be caught again for it.
                self.table.uno.set(target, Uno::Missed);
            }
        }
        self.table.update_uno();
        self.after(reshuffles)
    }

    /// After an action or a deal: the table settles (seats that left, owed
    /// decisions, hands a rule emptied), reshuffles and turn changes are
    /// announced to the rules.
    #[inline(always)]
    pub(crate) fn after(&mut self, reshuffles: u32) -> Result<(), ScriptFailure> {
        // `on_reshuffle` and `on_hand_end` alone need nothing of an action
        // that turned no pile over.
        let reshuffled = self.table.reshuffles != reshuffles && self.variant.has_hook(HookKind::OnReshuffle);
        if self.variant.has_moment_hooks_each_action() || reshuffled || self.table.seats_out() != 0 {
            return self.after_with_rules(reshuffles);
        }
        // Nothing a rule could hook: only an owed decision to take up.
        if matches!(self.table.phase, Phase::Turn) && !self.table.owed.is_empty() {
            self.table.next_decision();
        }
        Ok(())
    }

    fn after_with_rules(&mut self, reshuffles: u32) -> Result<(), ScriptFailure> {
        self.settle();
        if !self.variant.has_moment_hooks() {
            return Ok(());
        }
        for _ in reshuffles..self.table.reshuffles {
            self.moment(HookKind::OnReshuffle, self.table.current, HookArg::None)?;
            self.settle();
        }
        // A turn hook may move the turn again; a few rounds settle any
        // sane rule.
        for _ in 0..=4 * self.players() {
            if self.hand_over() || !matches!(self.table.phase, Phase::Turn) {
                return Ok(());
            }
            match self.table.turn_of {
                // The turn moved on: the seat that had it is told first.
                Some(ended) if self.table.turns != self.table.turns_announced => {
                    self.table.turn_of = None;
                    self.moment(HookKind::OnTurnEnd, ended, HookArg::Seat(ended))?;
                }
                Some(_) => return Ok(()),
                None => {
                    let started = self.table.current;
                    self.table.turn_of = Some(started);
                    self.table.turns_announced = self.table.turns;
                    self.moment(HookKind::OnTurnStart, started, HookArg::Seat(started))?;
                }
            }
            self.settle();
        }
        Err(ScriptFailure("the turn hooks keep moving the turn on (on_turn_start, on_turn_end)".into()))
    }

    /// Puts the table in order: the turn passes over a seat that left,
    /// decisions owed by seats that left are dropped, and the next owed
    /// decision is taken up.
    #[inline]
    fn settle(&mut self) {
        if self.hand_over() {
            return;
        }
        if !self.table.playing(self.table.current) {
            self.give_turn(self.table.seat_after(self.table.current, 1));
        }
        let owing = match &self.table.phase {
            Phase::NameColor { chooser } => Some(*chooser),
            Phase::Answer(p) => Some(p.victim),
            Phase::Choose(c) => Some(c.chooser),
            _ => None,
        };
        if owing.is_some_and(|seat| !self.table.playing(seat)) {
            self.table.phase = Phase::Turn;
        }
        if matches!(self.table.phase, Phase::Turn) {
            self.table.next_decision();
        }
    }

    /// The turn is `seat`'s now.
    fn give_turn(&mut self, seat: Seat) {
        self.table.current = seat;
        self.table.turns += 1;
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
            self.give_turn(self.table.seat_after(victim, 1));
        }
    }

    /// How many cards a caught player draws: the variant's `uno_penalty`,
    /// or what the last `on_catch` hook says.
    fn catch_penalty(&mut self, caught: Seat) -> Result<u32, ScriptFailure> {
        let expected = || "how many cards the caught player draws (0 or more)".to_string();
        let count = self.last_global_answer(HookKind::OnCatch, caught, HookArg::Seat(caught), expected, |value| {
            value.as_int().ok().and_then(|n| u32::try_from(n).ok())
        })?;
        Ok(count.unwrap_or(self.variant.uno_penalty))
    }

    fn play(&mut self, play: Play) -> Result<(), ScriptFailure> {
        let seat = play.seat;
        let answering = match &mut self.table.phase {
            Phase::Answer(_) => Some(self.take_penalty()),
            phase => {
                debug_assert!(matches!(phase, Phase::Turn | Phase::Drawn(_)), "a play from {phase:?}");
                // Nothing to drop: the phase holds no more than a card.
                std::mem::forget(std::mem::replace(phase, Phase::Turn));
                None
            }
        };
        let out_of_turn = seat != self.table.current && answering.as_ref().is_none_or(|p| p.victim != seat);
        self.table.current = seat;
        let held = self.table.hands.remove(seat, play.card);
        debug_assert!(held, "a legal play is held");
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
            color: play.color,
            target: play.target,
            out_of_turn,
        });
        let going_out = self.table.hands[seat].is_empty();
        let calls_uno = play.uno && self.table.hands[seat].len() == 1;
        if calls_uno {
            self.table.uno.set(seat, Uno::Called);
            self.log.push(Event::UnoCalled { seat });
        }
        // Most cards have no effect bound at all (`card_hook_bound`, looked
        // up without the top card); others, none asked now.
        let (side, kind) = (self.table.side, HookKind::OnPlay);
        if self.variant.card_hook_bound(kind, play.card, side, play.as_flex).is_empty()
            || self.card_hook_asks(kind, play.card, play.as_flex).is_empty()
        {
            // No effect to resolve (an empty plan): the turn moves on.
            if !going_out {
                self.give_turn(self.table.seat_after(seat, 1));
            }
        } else {
            let call = CallInfo {
                as_flex: play.as_flex,
                target: play.target,
                going_out,
                prev_color,
                answering: answering.clone(),
                ..CallInfo::new(HookKind::OnPlay, seat)
            };
            let plan = self.run_effects(play.card, call)?;
            self.resolve_effects(seat, plan, going_out, answering)?;
        }
        if going_out {
            return self.end_hand(vec![seat], true);
        }
        if self.table.color.is_none()
            && !self.hand_over()
            && !self.table.owed.iter().any(|d| matches!(d, Decision::NameColor { .. }))
        {
            return Err(ScriptFailure(format!(
                "{} names no colour (names_color: false) and no rule named one: its on_play must call \
                 ask_color(p) or set_color(colour)",
                self.variant.face_name(play.card, self.table.side)
            )));
        }
        if play.color.is_some() {
            self.moment(HookKind::OnColor, seat, HookArg::Seat(seat))?;
        }
        if calls_uno {
            self.moment(HookKind::OnUno, seat, HookArg::Seat(seat))?;
        }
        Ok(())
    }

    /// Resolves what a card's effects asked for, in the order asked, and
    /// moves the turn on: penalties pass through the rules' hooks and are
    /// drawn at once (a victim who was to play next loses that turn) or wait
    /// for an answer; colour choices and choices wait. On a last card
    /// nothing waits. A rule may end the hand instead.
    pub(crate) fn resolve_effects(
        &mut self,
        me: Seat,
        mut plan: TurnPlan,
        going_out: bool,
        answering: Option<Penalty>,
    ) -> Result<(), ScriptFailure> {
        let players = self.players();
        let mut taken: SmallVec<[Seat; 2]> = SmallVec::new();
        for request in std::mem::take(&mut plan.requests) {
            let Some(mut penalty) = self.request(request, me, answering.clone())? else { continue };
            if going_out {
                penalty.pending = false;
                penalty.challenge = None;
            }
            if self.owe_or_draw(penalty.clone()) {
                taken.push(penalty.victim);
                if plan.next.is_none() && penalty.victim == self.table.seat_after(me, plan.skips % players + 1) {
                    plan.skips += 1;
                }
            }
        }
        if going_out {
            return Ok(());
        }
        if let Some(end) = plan.end_hand {
            return self.end_hand(end.ranking, end.went_out);
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
        self.give_turn(next);
        self.penalties_taken(&taken)
    }

    /// The `on_penalty_taken` hooks about each victim of a penalty drawn at
    /// once, after the turn moved on.
    fn penalties_taken(&mut self, victims: &[Seat]) -> Result<(), ScriptFailure> {
        for &victim in victims {
            self.moment(HookKind::OnPenaltyTaken, victim, HookArg::Seat(victim))?;
        }
        Ok(())
    }

    /// Queues a requested decision; a penalty comes back, through the
    /// rules' `on_penalty` hooks, to be drawn or owed.
    fn request(
        &mut self,
        request: Request,
        me: Seat,
        answering: Option<Penalty>,
    ) -> Result<Option<Penalty>, ScriptFailure> {
        match request {
            Request::AskColor(chooser) => self.table.owed.push_back(Decision::NameColor { chooser }),
            Request::Choose(choice) => {
                let options = choice.options.iter().map(|o| o.name(&self.variant)).collect();
                self.log.push(Event::Asked { seat: choice.chooser, tag: choice.tag.to_string(), options });
                self.table.owed.push_back(Decision::Choose(choice));
            }
            Request::Penalty(penalty) => {
                let mut penalty = self.penalty_hooks(me, penalty, answering)?;
                if penalty.challenge.is_some() {
                    penalty.pending = true;
                }
                return Ok(Some(penalty));
            }
        }
        Ok(None)
    }

    /// A waiting penalty is owed; any other is drawn now. Returns whether
    /// it was drawn.
    fn owe_or_draw(&mut self, penalty: Penalty) -> bool {
        if penalty.pending {
            self.log.push(Event::PenaltyPending {
                victim: penalty.victim,
                count: penalty.draw.count,
                until: penalty.draw.until,
            });
            self.table.owed.push_back(Decision::Answer(penalty));
            false
        } else {
            self.log.penalty_drawn(penalty.draw.count);
            self.table.draw_cards(&self.variant, penalty.victim, penalty.draw, &mut self.log);
            true
        }
    }

    /// Runs the hooks of a moment (taking no card) about `me`, and resolves
    /// their effects: decisions are owed as after a card; a penalty drawn at
    /// once costs its victim the turn if it was theirs; `set_next` and
    /// `skip` move the turn from whoever has it; `end_hand` ends the hand.
    /// At the end of a hand only changes to the table count.
    #[inline]
    pub(crate) fn moment(&mut self, kind: HookKind, me: Seat, arg: HookArg) -> Result<(), ScriptFailure> {
        if !self.variant.has_hook(kind) {
            return Ok(());
        }
        self.nested_moment(kind, me, arg)
    }

    fn nested_moment(&mut self, kind: HookKind, me: Seat, arg: HookArg) -> Result<(), ScriptFailure> {
        if self.hand_over() && kind != HookKind::OnHandEnd {
            return Ok(());
        }
        if self.moments_running >= crate::limits::NESTED_MOMENTS {
            return Err(ScriptFailure(format!(
                "{} hooks keep setting off moments ({} deep): a rule triggers itself",
                kind.name(),
                crate::limits::NESTED_MOMENTS
            )));
        }
        self.moments_running += 1;
        let outcome = self.run_moment(kind, me, arg);
        self.moments_running -= 1;
        outcome
    }

    fn run_moment(&mut self, kind: HookKind, me: Seat, arg: HookArg) -> Result<(), ScriptFailure> {
        let mut call = CallInfo::new(kind, me);
        let mut plan = TurnPlan::default();
        self.run_each(kind, None, &arg, &mut call, &mut plan, |_, _, _| Ok(true))?;
        if self.hand_over() {
            return Ok(());
        }
        let mut taken: SmallVec<[Seat; 2]> = SmallVec::new();
        for request in std::mem::take(&mut plan.requests) {
            if let Some(penalty) = self.request(request, me, None)?
                && self.owe_or_draw(penalty.clone())
            {
                self.lose_turn(penalty.victim);
                taken.push(penalty.victim);
            }
        }
        if let Some(end) = plan.end_hand {
            return self.end_hand(end.ranking, end.went_out);
        }
        if let Some(seat) = plan.next {
            self.give_turn(seat);
        }
        if plan.skips > 0 {
            self.give_turn(self.table.seat_after(self.table.current, plan.skips));
        }
        self.penalties_taken(&taken)
    }

    fn draw(&mut self, seat: Seat) -> Result<(), ScriptFailure> {
        let mut card = self.take_card(seat);
        // Whether `seat` could play `card`, where the `draw_again` hooks
        // were told and nothing has changed since.
        let mut could_play = None;
        for _ in 0..self.variant.deck.len() {
            if !self.table.can_draw() {
                break;
            }
            let again;
            (again, could_play) = self.draw_again(seat, card)?;
            if !again {
                break;
            }
            card = self.take_card(seat);
            could_play = None;
        }
        if self.variant.has_hook(HookKind::OnDraw) {
            could_play = None;
            self.moment(HookKind::OnDraw, seat, HookArg::Seat(seat))?;
        }
        if self.hand_over() || self.table.current != seat || !self.table.hands[seat].contains(&card) {
            return Ok(());
        }
        debug_assert!(could_play.is_none() || could_play == Some(self.can_play_card(seat, card)?));
        if could_play.map_or_else(|| self.can_play_card(seat, card), Ok)? {
            self.table.phase = Phase::Drawn(card);
        } else {
            self.give_turn(self.table.seat_after(seat, 1));
        }
        Ok(())
    }

    /// `seat` takes the top card of the draw pile (there is one to take).
    fn take_card(&mut self, seat: Seat) -> CardId {
        let card = self.table.take_top(&mut self.log).expect("drawing was found legal");
        self.table.hands.push(seat, card);
        self.log.push(Event::Drew { seat, card, side: self.table.side });
        card
    }
}
