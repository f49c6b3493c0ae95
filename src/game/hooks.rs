//! The game's side of the scripts: which hooks run for a card or a moment,
//! what each call is told (`CallInfo`), how their answers are read, and the
//! lending of the table to the scripts for the duration of a call.

use rhai::Dynamic;

use crate::card::CardId;
use crate::event::Seat;
use crate::game::{Checked, Game, Play, Refusal, Stop};
use crate::script::convert::verdict;
use crate::script::{CallInfo, EffectKey, Runtime, ScriptFailure};
use crate::turn::{Penalty, TurnPlan};
use crate::variant::HookKind;

impl Game {
    /// Lends the table to the scripts for `body`, and takes it back with the
    /// turn plan the hooks left, also when a script fails.
    pub(crate) fn with_scripts<T>(
        &mut self,
        call: CallInfo,
        body: impl FnOnce(&mut Runtime) -> Result<T, ScriptFailure>,
    ) -> Result<(T, TurnPlan), ScriptFailure> {
        self.runtime.lend(&mut self.table, &mut self.log, call);
        let result = body(&mut self.runtime);
        let plan = self.runtime.reclaim(&mut self.table, &mut self.log);
        Ok((result?, plan))
    }

    /// What a predicate about `play` is told.
    fn predicate_call(&self, kind: HookKind, play: &Play) -> CallInfo {
        CallInfo {
            card: Some(play.card),
            as_flex: play.as_flex,
            target: play.target,
            prev_color: self.table.color,
            answering: self.table.phase.penalty().cloned(),
            ..CallInfo::new(kind, play.seat)
        }
    }

    /// The answers of the hooks of `kind` bound to the played card.
    fn card_answers(&mut self, kind: HookKind, play: &Play) -> Result<Vec<Dynamic>, ScriptFailure> {
        let side = self.table.side;
        let variant = self.variant.clone();
        let fns = variant.card_hook(kind, play.card, side);
        if fns.is_empty() {
            return Ok(Vec::new());
        }
        let call = self.predicate_call(kind, play);
        let (answers, _) = self.with_scripts(call, |scripts| {
            fns.iter().map(|f| scripts.call(f, Runtime::card_args(play.card, side))).collect()
        })?;
        Ok(answers)
    }

    /// Every hook of `kind` bound to the card must allow the play.
    pub(crate) fn card_verdicts(&mut self, kind: HookKind, play: &Play) -> Checked<()> {
        for answer in self.card_answers(kind, play)? {
            verdict(&answer).map_err(|reason| Stop::Refuse(Refusal::ByRule { what: "this play", reason }))?;
        }
        Ok(())
    }

    /// Does any hook of `kind` bound to the card say yes?
    pub(crate) fn any_card_hook(&mut self, kind: HookKind, play: &Play) -> Checked<bool> {
        Ok(self.card_answers(kind, play)?.iter().any(|v| v.as_bool() == Ok(true)))
    }

    /// Every hook of `kind` (taking no card) must allow what `seat` does.
    pub(crate) fn global_verdicts(
        &mut self,
        kind: HookKind,
        seat: Seat,
        playable: Vec<CardId>,
        what: &'static str,
    ) -> Checked<()> {
        let variant = self.variant.clone();
        let fns = variant.global_hook(kind);
        let call = CallInfo {
            prev_color: self.table.color,
            answering: self.table.phase.penalty().cloned(),
            playable: Some(playable),
            ..CallInfo::new(kind, seat)
        };
        let (answers, _) =
            self.with_scripts(call, |scripts| fns.iter().map(|f| scripts.call(f, ())).collect::<Result<Vec<_>, _>>())?;
        for answer in answers {
            verdict(&answer).map_err(|reason| Stop::Refuse(Refusal::ByRule { what, reason }))?;
        }
        Ok(())
    }

    /// After a voluntary draw of `card`: does any `draw_again` hook want
    /// another card?
    pub(crate) fn draw_again(&mut self, seat: Seat, card: CardId) -> Result<bool, ScriptFailure> {
        let side = self.table.side;
        let variant = self.variant.clone();
        let fns = variant.card_hook(HookKind::DrawAgain, card, side);
        if fns.is_empty() {
            return Ok(false);
        }
        let playable = if self.can_play_card(seat, card)? { vec![card] } else { Vec::new() };
        let call = CallInfo { card: Some(card), playable: Some(playable), ..CallInfo::new(HookKind::DrawAgain, seat) };
        let (answers, _) = self.with_scripts(call, |scripts| {
            fns.iter().map(|f| scripts.call(f, Runtime::card_args(card, side))).collect::<Result<Vec<_>, _>>()
        })?;
        Ok(answers.iter().any(|v| v.as_bool() == Ok(true)))
    }

    /// Runs the effect hooks of `call.hook` bound to the card, replaying
    /// recorded effects where a hook read nothing but its key.
    pub(crate) fn run_effects(&mut self, card: CardId, call: CallInfo) -> Result<TurnPlan, ScriptFailure> {
        let side = self.table.side;
        let variant = self.variant.clone();
        let kind = call.hook;
        let fns = variant.card_hook(kind, card, side);
        if fns.is_empty() {
            return Ok(TurnPlan::default());
        }
        let key = EffectKey {
            kind,
            card,
            side,
            me: call.me,
            as_flex: call.as_flex,
            target: call.target,
            going_out: call.going_out,
            players: self.players(),
            direction: self.table.direction,
        };
        if let Some(ops) = self.runtime.cached(&key) {
            let mut plan = TurnPlan::default();
            for op in ops.iter() {
                self.table.apply_op(op, &mut plan, &variant, &mut self.log);
            }
            return Ok(plan);
        }
        let ((), plan) = self.with_scripts(call, |scripts| {
            fns.iter().try_for_each(|f| scripts.call(f, Runtime::card_args(card, side)).map(drop))?;
            scripts.remember(key);
            Ok(())
        })?;
        Ok(plan)
    }

    /// Passes a penalty through every `on_penalty` hook, in layer order.
    pub(crate) fn penalty_hooks(
        &mut self,
        me: Seat,
        penalty: Penalty,
        answering: Option<Penalty>,
    ) -> Result<Penalty, ScriptFailure> {
        let variant = self.variant.clone();
        let fns = variant.global_hook(HookKind::OnPenalty);
        if fns.is_empty() {
            return Ok(penalty);
        }
        let call = CallInfo { answering, ..CallInfo::new(HookKind::OnPenalty, me) };
        let (penalty, _) = self.with_scripts(call, |scripts| {
            fns.iter().try_fold(penalty, |penalty, f| {
                let changed = scripts.call(f, (scripts.penalty_map(&penalty),))?;
                scripts.penalty_from(&changed, &penalty)
            })
        })?;
        Ok(penalty)
    }

    /// The answer of the last hook of `kind` taking no card, if any is bound.
    pub(crate) fn last_global_answer(
        &mut self,
        kind: HookKind,
        me: Seat,
        args: impl rhai::FuncArgs,
    ) -> Result<Option<Dynamic>, ScriptFailure> {
        let variant = self.variant.clone();
        let Some(f) = variant.global_hook(kind).last() else { return Ok(None) };
        let (answer, _) = self.with_scripts(CallInfo::new(kind, me), |scripts| scripts.call(f, args))?;
        Ok(Some(answer))
    }
}
