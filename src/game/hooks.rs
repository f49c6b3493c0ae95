//! The game's side of the scripts: which hooks run for a card or a moment,
//! what each call is told (`CallInfo`), and how their answers are read.
//! Every call goes through `Runtime::run` (in `run_each`), which replays a
//! recorded outcome when the call would read the same.

use rhai::Dynamic;

use crate::card::CardId;
use crate::event::Seat;
use crate::game::{Checked, Game, Play, Refusal, Stop};
use crate::script::convert::Verdict;
use crate::script::{CallInfo, HookArg, Runtime, ScriptFailure};
use crate::table::Table;
use crate::turn::{Penalty, TurnPlan};
use crate::variant::{FnRef, HookKind};

/// How the answers of several predicate hooks combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Combine {
    /// Every hook must say yes: the first no (or reason why not) decides;
    /// the verdict is "allow" if any allowed.
    Every,
    /// One yes is enough: the first that says yes (or "allow") decides.
    Any,
}

impl Game {
    /// Runs the hook functions of `kind` (bound to `card`, or taking no
    /// card) in layer order on the game's table, giving each answer to
    /// `each` until it says stop. `each` may change the argument the next
    /// function gets (a penalty passed along).
    pub(crate) fn run_each(
        &mut self,
        kind: HookKind,
        card: Option<CardId>,
        arg: &mut HookArg,
        call: &mut CallInfo,
        plan: &mut TurnPlan,
        mut each: impl FnMut(&FnRef, Dynamic, &Runtime, &Table, &mut HookArg) -> Result<bool, ScriptFailure>,
    ) -> Result<(), ScriptFailure> {
        // Field by field, so that the variant is borrowed, not cloned.
        let Game { variant, runtime, table, log, guarded, changing, .. } = self;
        let fns = match card {
            Some(card) => variant.card_hook(kind, card, table.side),
            None => variant.global_hook(kind),
        };
        for f in fns {
            debug_assert!(*guarded || !*changing, "a script may fail while the game is half changed: no backup");
            let answer = runtime.run(f, arg, call, table, log, plan)?;
            if !each(f, answer, runtime, table, arg)? {
                break;
            }
        }
        Ok(())
    }

    /// Asks the predicate hooks of `kind` (taking no card, or bound to
    /// `card`) in layer order, combining their answers as `combine` says
    /// (`None`: no hook is bound).
    fn ask(
        &mut self,
        kind: HookKind,
        card: Option<CardId>,
        mut arg: HookArg,
        mut call: CallInfo,
        combine: Combine,
    ) -> Result<Option<Verdict>, ScriptFailure> {
        let mut plan = TurnPlan::default();
        let mut verdict = None;
        let reasons = combine == Combine::Every;
        let expected = match (kind.can_grant(), reasons) {
            (true, true) => "true, false, \"allow\" or a reason why not",
            (true, false) => "true, false or \"allow\"",
            (false, true) => "true, false or a reason why not",
            (false, false) => "true or false",
        };
        self.run_each(kind, card, &mut arg, &mut call, &mut plan, |f, value, runtime, _, _| {
            let Some(said) = Verdict::read(&value, reasons) else {
                return Err(runtime.wrong_answer(f, &value, expected));
            };
            let stop = match combine {
                Combine::Every => !said.yes(),
                Combine::Any => said.yes(),
            };
            if stop || verdict != Some(Verdict::Allow) {
                verdict = Some(said);
            }
            Ok(!stop)
        })?;
        Ok(verdict)
    }

    /// What a predicate about a play by `seat` is told before the play
    /// itself (which card, which side, which target).
    fn seat_call(&self, kind: HookKind, seat: Seat) -> CallInfo {
        CallInfo { prev_color: self.table.color, ..CallInfo::new(kind, seat) }
    }

    /// What a predicate about `play` is told.
    fn predicate_call(&self, kind: HookKind, play: &Play) -> CallInfo {
        CallInfo { as_flex: play.as_flex, target: play.target, ..self.seat_call(kind, play.seat) }
    }

    /// Does every function of the card hook `kind` refuse `seat` now,
    /// whatever it would play? True where the memo knows each answers no
    /// before it looks at the play (`Runtime::answer_before_play`); false
    /// where it does not know.
    pub(crate) fn refused_whatever_play(&self, kind: HookKind, seat: Seat) -> bool {
        let call = self.seat_call(kind, seat);
        self.variant.card_hook_fns(kind).iter().all(|f| {
            self.runtime
                .answer_before_play(f, &call, &self.table)
                .and_then(|value| Verdict::read(value, false))
                .is_some_and(|verdict| !verdict.yes())
        })
    }

    /// Asks the hooks of `kind` bound to the played card.
    fn ask_about_play(
        &mut self,
        kind: HookKind,
        play: &Play,
        combine: Combine,
    ) -> Result<Option<Verdict>, ScriptFailure> {
        if self.variant.card_hook(kind, play.card, self.table.side).is_empty() {
            return Ok(None);
        }
        let call = self.predicate_call(kind, play);
        self.ask(kind, Some(play.card), HookArg::Card(play.card, self.table.side), call, combine)
    }

    /// No hook of `kind` bound to the card may refuse the play; `Ok(true)`
    /// when one allowed it (matching or not).
    pub(crate) fn card_verdicts(&mut self, kind: HookKind, play: &Play) -> Checked<bool> {
        match self.ask_about_play(kind, play, Combine::Every)? {
            Some(Verdict::No(reason)) => Err(Stop::Refuse(Refusal::ByRule { what: "this play", reason })),
            verdict => Ok(verdict == Some(Verdict::Allow)),
        }
    }

    /// Does a hook of `kind` bound to the card let the play happen? The
    /// first that says yes decides: `Some(true)` when it allowed the play
    /// (matching or not), `None` if none said yes.
    pub(crate) fn any_card_hook(&mut self, kind: HookKind, play: &Play) -> Checked<Option<bool>> {
        Ok(match self.ask_about_play(kind, play, Combine::Any)? {
            Some(Verdict::Yes) => Some(false),
            Some(Verdict::Allow) => Some(true),
            Some(Verdict::No(_)) | None => None,
        })
    }

    /// Every hook of `kind` (taking no card) must allow what `seat` does.
    pub(crate) fn global_verdicts(
        &mut self,
        kind: HookKind,
        seat: Seat,
        playable: Vec<CardId>,
        what: &'static str,
    ) -> Checked<()> {
        let call = CallInfo { prev_color: self.table.color, playable: Some(playable), ..CallInfo::new(kind, seat) };
        match self.ask(kind, None, HookArg::None, call, Combine::Every)? {
            Some(Verdict::No(reason)) => Err(Stop::Refuse(Refusal::ByRule { what, reason })),
            _ => Ok(()),
        }
    }

    /// After a voluntary draw of `card`: does any `draw_again` hook want
    /// another card?
    pub(crate) fn draw_again(&mut self, seat: Seat, card: CardId) -> Result<bool, ScriptFailure> {
        let kind = HookKind::DrawAgain;
        if self.variant.card_hook(kind, card, self.table.side).is_empty() {
            return Ok(false);
        }
        let playable = if self.can_play_card(seat, card)? { vec![card] } else { Vec::new() };
        let call = CallInfo { playable: Some(playable), ..CallInfo::new(kind, seat) };
        let verdict = self.ask(kind, Some(card), HookArg::Card(card, self.table.side), call, Combine::Any)?;
        Ok(verdict.is_some_and(|v| v.yes()))
    }

    /// Runs the effect hooks bound to the card (`call.hook`: `on_play` or
    /// `first_discard`) and returns the plan they leave.
    pub(crate) fn run_effects(&mut self, card: CardId, mut call: CallInfo) -> Result<TurnPlan, ScriptFailure> {
        let mut plan = TurnPlan::default();
        let mut arg = HookArg::Card(card, self.table.side);
        self.run_each(call.hook, Some(card), &mut arg, &mut call, &mut plan, |_, _, _, _, _| Ok(true))?;
        Ok(plan)
    }

    /// Passes a penalty through every `on_penalty` hook, in layer order.
    pub(crate) fn penalty_hooks(
        &mut self,
        me: Seat,
        penalty: Penalty,
        answering: Option<Penalty>,
    ) -> Result<Penalty, ScriptFailure> {
        let mut arg = HookArg::Penalty(penalty);
        let mut call = CallInfo { answering, ..CallInfo::new(HookKind::OnPenalty, me) };
        let mut plan = TurnPlan::default();
        self.run_each(HookKind::OnPenalty, None, &mut arg, &mut call, &mut plan, |f, changed, runtime, table, arg| {
            if let HookArg::Penalty(penalty) = arg {
                *penalty = runtime.penalty_from(f, &changed, penalty, table)?;
            }
            Ok(true)
        })?;
        match arg {
            HookArg::Penalty(penalty) => Ok(penalty),
            _ => unreachable!("the argument stays a penalty"),
        }
    }

    /// The answer of the last hook of `kind` taking no card, if any is bound.
    pub(crate) fn last_global_answer<T>(
        &mut self,
        kind: HookKind,
        me: Seat,
        arg: HookArg,
        expected: impl FnOnce() -> String,
        read: impl FnOnce(&Dynamic) -> Option<T>,
    ) -> Result<Option<T>, ScriptFailure> {
        let variant = self.variant.clone();
        let Some(f) = variant.global_hook(kind).last() else { return Ok(None) };
        let mut call = CallInfo::new(kind, me);
        let value = self.runtime.run(f, &arg, &mut call, &mut self.table, &mut self.log, &mut TurnPlan::default())?;
        match read(&value) {
            Some(answer) => Ok(Some(answer)),
            None => Err(self.runtime.wrong_answer(f, &value, &expected())),
        }
    }
}
