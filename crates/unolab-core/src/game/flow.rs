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
use crate::game::hidden;
use crate::game::{Action, Game, Play};
use crate::rules::Rules;
use crate::rules::{CallInfo, HookArg, Reply, RuleFailure};
use crate::seat::Seat;
use crate::table::Uno;
use crate::turn::{Decision, DrawSpec, Landing, Made, Penalty, Phase, Request, TurnPlan};
use crate::variant::HookKind;

impl<R: Rules> Game<R> {
    /// Carries out a legal action. A script may still fail midway; the
    /// caller restores the table then.
    pub(crate) fn carry_out(&mut self, action: Action) -> Result<(), RuleFailure> {
        let reshuffles = self.pos.table.reshuffles;
        if action.is_turn_action() {
            self.pos.table.close_uno_windows(action.seat());
            self.pos.table.landing = Landing::Settled;
        }
        match action {
            Action::Play(play) => self.play(play)?,
            Action::Draw(seat) => self.draw(seat)?,
            Action::Pass(seat) => {
                self.pos.log.push(Event::Passed { seat });
                self.pos.table.back_to_turn();
                self.give_turn(self.pos.table.seat_after(seat, 1));
            }
            Action::Accept(seat) => {
                let penalty = self.take_penalty();
                self.pos.log.push(Event::Accepted { seat });
                self.pos.table.draw_cards(&self.variant, seat, penalty.draw, &mut self.pos.log);
                self.lose_turn(seat);
                self.penalty_taken(penalty)?;
            }
            Action::Challenge(seat) => {
                let penalty = self.take_penalty();
                let challenge = penalty.challenge.expect("a challengeable penalty");
                // The card's player shows the challenger its hand (rules.md 1.4).
                self.pos.table.seen.shown(seat, penalty.by, &self.pos.table.hands[penalty.by]);
                self.pos.log.push(Event::Challenged {
                    challenger: seat,
                    offender: penalty.by,
                    guilty: challenge.guilty,
                });
                // What the challenge costs, as a penalty drawn: the guilty
                // player's, or the challenger's.
                let (victim, by, draw) = match challenge.guilty {
                    true => (penalty.by, seat, challenge.success),
                    false => (seat, penalty.by, challenge.fail),
                };
                self.pos.table.draw_cards(&self.variant, victim, draw, &mut self.pos.log);
                if !challenge.guilty {
                    self.lose_turn(seat);
                }
                self.penalty_taken(Penalty { victim, by, draw, challenge: None, pending: false, ..penalty })?;
            }
            Action::NameColor(seat, color) => {
                self.pos.table.back_to_turn();
                self.pos.table.color = Some(color);
                self.pos.log.push(Event::ColorChosen { seat, color });
                self.moment(HookKind::OnColor, seat, HookArg::Seat(seat))?;
            }
            Action::Choose(seat, index) => {
                let Some(choice) = self.pos.table.take_choice() else { unreachable!("a choice was found legal") };
                let value = choice.options[index].clone();
                self.pos.log.push(Event::Chose { seat, tag: choice.tag.to_string(), value: value.name(&self.variant) });
                self.moment(HookKind::OnChoice, seat, HookArg::Chosen { tag: choice.tag, value })?;
            }
            Action::CallUno(seat) => {
                self.pos.table.uno.set(seat, Uno::Called);
                self.pos.log.push(Event::UnoCalled { seat });
                self.moment(HookKind::OnUno, seat, HookArg::Seat(seat))?;
            }
            Action::Catch { by, target } => {
                self.pos.log.push(Event::Caught { seat: target, by });
                let count = self.catch_penalty(target)?;
                self.pos.table.draw_cards(&self.variant, target, DrawSpec { count, until: None }, &mut self.pos.log);
                // Caught once: a seat that drew nothing (both piles spent)
                // and still holds one card cannot be caught again for it.
                self.pos.table.uno.set(target, Uno::Missed);
            }
            Action::Act(act) => self.take_act(act)?,
        }
        self.pos.table.update_uno();
        self.after(reshuffles)
    }

    /// After an action or a deal: the table settles (seats that left, owed
    /// decisions, hands a rule emptied), reshuffles and turn changes are
    /// announced to the rules.
    #[inline(always)]
    pub(crate) fn after(&mut self, reshuffles: u32) -> Result<(), RuleFailure> {
        // `on_reshuffle` and `on_hand_end` alone need nothing of an action
        // that turned no pile over.
        let reshuffled = self.pos.table.reshuffles != reshuffles && self.variant.has_hook(HookKind::OnReshuffle);
        if self.variant.has_moment_hooks_each_action() || reshuffled || self.pos.table.seats_out() != 0 {
            return self.after_with_rules(reshuffles);
        }
        // Nothing a rule could hook: only an owed decision to take up.
        if matches!(self.pos.table.phase(), Phase::Turn) && !self.pos.table.owed.is_empty() {
            self.pos.table.next_decision();
        }
        Ok(())
    }

    pub(crate) fn after_with_rules(&mut self, reshuffles: u32) -> Result<(), RuleFailure> {
        self.settle();
        if !self.variant.has_moment_hooks() {
            return Ok(());
        }
        for _ in reshuffles..self.pos.table.reshuffles {
            self.moment(HookKind::OnReshuffle, self.pos.table.current, HookArg::None)?;
            self.settle();
        }
        // A turn hook may move the turn again; a few rounds settle any
        // sane rule.
        for _ in 0..=4 * self.players() {
            if self.hand_over() || !matches!(self.pos.table.phase(), Phase::Turn) {
                return Ok(());
            }
            match self.pos.table.turn_of {
                // The turn moved on: the seat that had it is told first.
                Some(ended) if self.pos.table.turns != self.pos.table.turns_announced => {
                    self.pos.table.turn_of = None;
                    self.moment(HookKind::OnTurnEnd, ended, HookArg::Seat(ended))?;
                }
                Some(_) => return Ok(()),
                None => {
                    let started = self.pos.table.current;
                    self.pos.table.turn_of = Some(started);
                    self.pos.table.turns_announced = self.pos.table.turns;
                    self.moment(HookKind::OnTurnStart, started, HookArg::Seat(started))?;
                }
            }
            self.settle();
        }
        Err(RuleFailure::new("the turn hooks keep moving the turn on (on_turn_start, on_turn_end)"))
    }

    /// Puts the table in order: the turn passes over a seat that left,
    /// decisions owed by seats that left are dropped, and the next owed
    /// decision is taken up.
    #[inline]
    fn settle(&mut self) {
        if self.hand_over() {
            return;
        }
        if !self.pos.table.playing(self.pos.table.current) {
            self.give_turn(self.pos.table.seat_after(self.pos.table.current, 1));
        }
        let owing = match self.pos.table.phase() {
            Phase::NameColor { chooser } => Some(*chooser),
            Phase::Answer(p) => Some(p.victim),
            Phase::Choose(c) => Some(c.chooser),
            _ => None,
        };
        if owing.is_some_and(|seat| !self.pos.table.playing(seat)) {
            self.pos.table.back_to_turn();
        }
        if matches!(self.pos.table.phase(), Phase::Turn) {
            self.pos.table.next_decision();
        }
    }

    /// The turn is `seat`'s now.
    fn give_turn(&mut self, seat: Seat) {
        self.pos.table.current = seat;
        self.pos.table.turns += 1;
    }

    /// The penalty waiting for an answer (the action was found legal).
    fn take_penalty(&mut self) -> Penalty {
        self.pos.table.take_penalty().expect("an answer needs a waiting penalty")
    }

    /// A penalty's victim who was to play next loses that turn.
    fn lose_turn(&mut self, victim: Seat) {
        if victim == self.pos.table.current {
            self.give_turn(self.pos.table.seat_after(victim, 1));
        }
    }

    /// How many cards a caught player draws: the variant's `uno_penalty`,
    /// or what the last `on_catch` hook says.
    fn catch_penalty(&mut self, caught: Seat) -> Result<u32, RuleFailure> {
        let count = self.last_global_answer(HookKind::OnCatch, caught, HookArg::Seat(caught), |reply| match reply {
            Reply::Count(count) => Some(*count),
            _ => None,
        })?;
        Ok(count.unwrap_or(self.variant.uno_penalty))
    }

    fn play(&mut self, play: Play) -> Result<(), RuleFailure> {
        let seat = play.seat;
        let drawn = matches!(self.pos.table.phase(), Phase::Drawn(card) if *card == play.card);
        let answering = self.pos.table.begin_play();
        let out_of_turn = seat != self.pos.table.current && answering.as_ref().is_none_or(|p| p.victim != seat);
        self.pos.table.current = seat;
        if !drawn && !out_of_turn && answering.is_none() {
            self.pos.table.seen_choose(seat, Some(play.card));
        }
        let held = self.pos.table.hands.remove(seat, play.card);
        debug_assert!(held, "a legal play is held");
        self.pos.table.seen.gone(seat, play.card);
        if drawn {
            self.pos.table.seen.was_drawn(seat);
        }
        self.pos.table.discard.push(play.card);
        self.pos.table.landing = Landing::PlayedBy(seat);
        let face = *self.variant.face(play.card, self.pos.table.side);
        let prev_color = self.pos.table.color;
        self.pos.table.color = face.color.or(play.color);
        self.pos.log.push(Event::Played {
            seat,
            card: play.card,
            side: self.pos.table.side,
            as_flex: play.as_flex,
            color: play.color,
            target: play.target,
            out_of_turn,
        });
        let going_out = self.pos.table.hands[seat].is_empty();
        let calls_uno = play.uno && self.pos.table.hands[seat].len() == 1;
        if calls_uno {
            self.pos.table.uno.set(seat, Uno::Called);
            self.pos.log.push(Event::UnoCalled { seat });
        }
        // Most cards have no effect bound at all (`card_hook_bound`, looked
        // up without the top card); others, none asked now.
        let (side, kind) = (self.pos.table.side, HookKind::OnPlay);
        if self.variant.card_hook_bound(kind, play.card, side, play.as_flex).is_empty()
            || self.card_hook_asks(kind, play.card, play.as_flex).is_empty()
        {
            // No effect to resolve (an empty plan): the turn moves on.
            if !going_out {
                self.give_turn(self.pos.table.seat_after(seat, 1));
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
            let mut plan = self.run_effects(play.card, call)?;
            let made = Made::new(play.card, side, play.as_flex, play.target, prev_color);
            hidden::note_made(&mut plan, made);
            self.resolve_effects(seat, plan, going_out, answering)?;
        }
        if going_out {
            return self.end_hand(vec![seat], true);
        }
        if self.pos.table.color.is_none()
            && !self.hand_over()
            && !self.pos.table.owed.iter().any(|d| matches!(d, Decision::NameColor { .. }))
        {
            return Err(RuleFailure::new(format!(
                "{} names no colour (names_color: false) and no rule named one: its on_play must call \
                 ask_color(p) or set_color(colour)",
                self.variant.face_name(play.card, self.pos.table.side)
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
    ) -> Result<(), RuleFailure> {
        let players = self.players();
        // Kept for the `on_penalty_taken` hooks, where a rule binds one.
        let told = self.variant.has_hook(HookKind::OnPenaltyTaken);
        let mut taken: SmallVec<[Penalty; 1]> = SmallVec::new();
        for request in std::mem::take(&mut plan.requests) {
            let Some(mut penalty) = self.request(request, me, answering.clone())? else { continue };
            if going_out {
                penalty.pending = false;
                penalty.challenge = None;
            }
            if self.owe_or_draw(&penalty) {
                if plan.next.is_none() && penalty.victim == self.pos.table.seat_after(me, plan.skips % players + 1) {
                    plan.skips += 1;
                }
                if told {
                    taken.push(penalty);
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
                    let skipped = self.pos.table.seat_after(me, step);
                    if skipped != me {
                        self.pos.log.push(Event::Skipped { seat: skipped });
                    }
                }
                self.pos.table.seat_after(me, plan.skips % players + 1)
            }
        };
        self.give_turn(next);
        self.penalties_taken(taken)
    }

    /// The `on_penalty_taken` hooks about each penalty drawn at once, after
    /// the turn moved on.
    fn penalties_taken(&mut self, taken: SmallVec<[Penalty; 1]>) -> Result<(), RuleFailure> {
        for penalty in taken {
            self.penalty_taken(penalty)?;
        }
        Ok(())
    }

    /// The `on_penalty_taken` hooks about its victim, told the penalty
    /// drawn (`answering()`).
    fn penalty_taken(&mut self, penalty: Penalty) -> Result<(), RuleFailure> {
        if !self.variant.has_hook(HookKind::OnPenaltyTaken) {
            return Ok(());
        }
        let victim = penalty.victim;
        self.nested_moment(HookKind::OnPenaltyTaken, victim, HookArg::Seat(victim), Some(penalty))
    }

    /// Queues a requested decision; a penalty comes back, through the
    /// rules' `on_penalty` hooks, to be drawn or owed.
    fn request(
        &mut self,
        request: Request,
        me: Seat,
        answering: Option<Penalty>,
    ) -> Result<Option<Penalty>, RuleFailure> {
        match request {
            Request::AskColor(chooser) => self.pos.table.owed.push_back(Decision::NameColor { chooser }),
            Request::Choose(choice) => {
                let options = choice.options.iter().map(|o| o.name(&self.variant)).collect();
                self.pos.log.push(Event::Asked { seat: choice.chooser, tag: choice.tag.to_string(), options });
                self.pos.table.owed.push_back(Decision::Choose(choice));
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
    fn owe_or_draw(&mut self, penalty: &Penalty) -> bool {
        if penalty.pending {
            self.pos.log.push(Event::PenaltyPending {
                victim: penalty.victim,
                count: penalty.draw.count,
                until: penalty.draw.until,
            });
            self.pos.table.owed.push_back(Decision::Answer(penalty.clone()));
            false
        } else {
            self.pos.log.penalty_drawn(penalty.draw.count);
            self.pos.table.draw_cards(&self.variant, penalty.victim, penalty.draw, &mut self.pos.log);
            true
        }
    }

    /// Runs the hooks of a moment (taking no card) about `me`, and resolves
    /// their effects: decisions are owed as after a card; a penalty drawn at
    /// once costs its victim the turn if it was theirs; `set_next` and
    /// `skip` move the turn from whoever has it; `end_hand` ends the hand.
    /// At the end of a hand only changes to the table count.
    #[inline]
    pub(crate) fn moment(&mut self, kind: HookKind, me: Seat, arg: HookArg) -> Result<(), RuleFailure> {
        if !self.variant.has_hook(kind) {
            return Ok(());
        }
        self.nested_moment(kind, me, arg, None)
    }

    /// A moment's hooks (`taken`: the penalty an `on_penalty_taken` call is
    /// told of), bounded in depth.
    fn nested_moment(
        &mut self,
        kind: HookKind,
        me: Seat,
        arg: HookArg,
        taken: Option<Penalty>,
    ) -> Result<(), RuleFailure> {
        if self.hand_over() && kind != HookKind::OnHandEnd {
            return Ok(());
        }
        if self.moments_running >= crate::limits::NESTED_MOMENTS {
            return Err(RuleFailure::new(format!(
                "{} hooks keep setting off moments ({} deep): a rule triggers itself",
                kind.name(),
                crate::limits::NESTED_MOMENTS
            )));
        }
        self.moments_running += 1;
        let outcome = self.run_moment(kind, me, arg, taken);
        self.moments_running -= 1;
        outcome
    }

    fn run_moment(
        &mut self,
        kind: HookKind,
        me: Seat,
        arg: HookArg,
        taken: Option<Penalty>,
    ) -> Result<(), RuleFailure> {
        let mut call = CallInfo::new(kind, me);
        call.answering = taken;
        let mut plan = TurnPlan::default();
        self.run_each(kind, None, &arg, &mut call, &mut plan, |_, _| Ok(true))?;
        if self.hand_over() {
            return Ok(());
        }
        let mut taken: SmallVec<[Penalty; 1]> = SmallVec::new();
        for request in std::mem::take(&mut plan.requests) {
            if let Some(penalty) = self.request(request, me, None)?
                && self.owe_or_draw(&penalty)
            {
                self.lose_turn(penalty.victim);
                taken.push(penalty);
            }
        }
        if let Some(end) = plan.end_hand {
            return self.end_hand(end.ranking, end.went_out);
        }
        if let Some(seat) = plan.next {
            self.give_turn(seat);
        }
        if plan.skips > 0 {
            self.give_turn(self.pos.table.seat_after(self.pos.table.current, plan.skips));
        }
        self.penalties_taken(taken)
    }

    fn draw(&mut self, seat: Seat) -> Result<(), RuleFailure> {
        self.pos.table.seen_choose(seat, None);
        let mut card = self.take_card(seat);
        // Whether `seat` could play `card`, where the `draw_again` hooks
        // were told and nothing has changed since.
        let mut could_play = None;
        for _ in 0..self.variant.deck.len() {
            if !self.pos.table.can_draw() {
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
        if self.hand_over() || self.pos.table.current != seat || !self.pos.table.hands[seat].contains(&card) {
            return Ok(());
        }
        if self.checks
            && let Some(could) = could_play
        {
            assert_eq!(could, self.can_play_card(seat, card)?, "the drawn card's play, as worked out for draw_again");
        }
        if could_play.map_or_else(|| self.can_play_card(seat, card), Ok)? {
            self.pos.table.keep_drawn(card);
        } else {
            self.give_turn(self.pos.table.seat_after(seat, 1));
        }
        Ok(())
    }

    /// `seat` takes the top card of the draw pile (there is one to take).
    fn take_card(&mut self, seat: Seat) -> CardId {
        let card = self.pos.table.take_top(&mut self.pos.log).expect("drawing was found legal");
        self.pos.table.hands.push(seat, card);
        self.pos.log.push(Event::Drew { seat, card, side: self.pos.table.side });
        card
    }
}
