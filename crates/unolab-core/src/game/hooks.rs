//! The game's side of the rules: which hooks run for a card or a moment,
//! what each call is told (`CallInfo`), and how their replies combine.
//! Every call goes through `Rules::run`, with the call, table, log and
//! plan lent to it (`Lent`); a predicate about a play is first asked of
//! `Rules::known`, which answers without a call where the rules know (a
//! memo does, for calls it has seen read the same).

use crate::card::CardId;
use crate::game::{Checked, Game, Play, Position, Refusal, Stop};
use crate::rules::{CallInfo, HookArg, Lent, Open, Reply, RuleFailure, Rules, Verdict};
use crate::seat::Seat;
use crate::turn::{Penalty, TurnPlan};
use crate::variant::{Asked, FnRef, HookKind, TargetNeed};

/// How the answers of several predicate hooks combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Combine {
    /// Every hook must say yes: the first no (or reason why not) decides;
    /// the verdict is "allow" if any allowed. `why`: keep the reason, for a
    /// refusal that is put into words (move generation drops it).
    Every { why: bool },
    /// One yes is enough: the first that says yes (or "allow") decides.
    Any,
}

impl Combine {
    /// Is a reason why not kept (to be put into words)?
    fn keeps_reasons(self) -> bool {
        matches!(self, Combine::Every { why: true })
    }
}

/// A script about to run may fail: where an action is changing the table
/// (`changing`), the table was backed up first (`guarded`).
fn debug_assert_backed_up(guarded: bool, changing: bool) {
    debug_assert!(guarded || !changing, "a script may fail while the game is half changed: no backup");
}

/// The error for rules that reply to a hook with a reply of another kind
/// (a bug of the rules implementation, not of a rule).
fn unexpected(f: &FnRef, reply: &Reply) -> RuleFailure {
    RuleFailure::new(format!("the rules replied {reply:?} to the {} hook {}", f.kind.name(), f.function))
}

/// The answers of predicate hooks, combined as they come in layer order.
struct Verdicts {
    combine: Combine,
    verdict: Option<Verdict>,
}

impl Verdicts {
    fn new(combine: Combine) -> Verdicts {
        Verdicts { combine, verdict: None }
    }

    /// Takes the next hook's reply: `None` if it is not a predicate's,
    /// else whether the next hook is still asked.
    #[inline(always)]
    fn take(&mut self, reply: &Reply) -> Option<bool> {
        let Reply::Verdict(said) = reply else { return None };
        let stop = match self.combine {
            Combine::Every { .. } => !said.yes(),
            Combine::Any => said.yes(),
        };
        if stop || !matches!(self.verdict, Some(Verdict::Allow)) {
            self.verdict = Some(match said {
                // A reason is copied only where it is to be put into words.
                Verdict::No(Some(_)) if !self.combine.keeps_reasons() => Verdict::No(None),
                said => said.clone(),
            });
        }
        Some(!stop)
    }
}

/// A verdict whose reason names the card as `call` sees it now (a
/// recorded reply may have been given about another card at that place).
fn settled(mut verdict: Option<Verdict>, table: &crate::table::Table, call: &CallInfo) -> Option<Verdict> {
    if let Some(Verdict::No(Some(reason))) = &mut verdict {
        reason.settle(table, call);
    }
    verdict
}

impl<R: Rules> Game<R> {
    /// Runs the hook functions of `kind` (bound to `card`, or taking no
    /// card) in layer order on the game's table, giving each answer to
    /// `each` until it says stop. `each` may change the argument the next
    /// function gets (a penalty passed along).
    pub(crate) fn run_each(
        &mut self,
        kind: HookKind,
        card: Option<CardId>,
        arg: &HookArg,
        call: &mut CallInfo,
        plan: &mut TurnPlan,
        mut each: impl FnMut(&FnRef, &Reply) -> Result<bool, RuleFailure>,
    ) -> Result<(), RuleFailure> {
        // Field by field, so that the variant is borrowed, not cloned.
        let Game { variant, rules, pos: Position { table, log, .. }, guarded, changing, trace, .. } = self;
        let fns = match card {
            Some(card) => variant.card_hook(kind, card, table.side, call.as_flex, table.top()),
            None => Asked::all(variant, kind),
        };
        for f in fns {
            debug_assert_backed_up(*guarded, *changing);
            let reply = rules.run(f, arg, &mut Lent::new(variant, call, table, log, plan, trace))?;
            if !each(f, reply)? {
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
        arg: HookArg,
        call: &mut CallInfo,
        combine: Combine,
    ) -> Result<Option<Verdict>, RuleFailure> {
        let mut plan = TurnPlan::default();
        let mut verdicts = Verdicts::new(combine);
        self.run_each(kind, card, &arg, call, &mut plan, |f, reply| {
            verdicts.take(reply).ok_or_else(|| unexpected(f, reply))
        })?;
        Ok(settled(verdicts.verdict, &self.pos.table, call))
    }

    /// The combined answer of the functions `fns` to `call`, where the
    /// memo knows each answer they give until they stop (nothing runs),
    /// whatever the call leaves `open`; `None` where it does not.
    fn known_verdict(&self, fns: Asked, open: Open, call: &CallInfo, combine: Combine) -> Option<Option<Verdict>> {
        let mut verdicts = Verdicts::new(combine);
        for f in fns {
            if !verdicts.take(self.rules.known(f, open, call, &self.pos.table)?)? {
                break;
            }
        }
        Some(verdicts.verdict)
    }

    /// The functions of the card hook `kind` asked about `card` now (on
    /// the side in play; a play of its flex side or not).
    #[inline(always)]
    pub(crate) fn card_hook_asks(&self, kind: HookKind, card: CardId, as_flex: bool) -> Asked<'_> {
        self.variant.card_hook(kind, card, self.pos.table.side, as_flex, self.pos.table.top())
    }

    /// What a predicate about a play by `seat` is told before the play
    /// itself (which card, which side, which target).
    fn seat_call(&self, kind: HookKind, seat: Seat) -> CallInfo {
        CallInfo { prev_color: self.pos.table.color, ..CallInfo::new(kind, seat) }
    }

    /// What a predicate about `play` is told.
    fn predicate_call(&self, kind: HookKind, play: &Play) -> CallInfo {
        CallInfo { as_flex: play.as_flex, target: play.target, ..self.seat_call(kind, play.seat) }
    }

    /// Does every function of the card hook `kind` refuse `seat` now,
    /// whatever it would play? True where the memo knows each answers no
    /// before it looks at the play (`Rules::known` of a call that names no
    /// card); false where it does not know.
    pub(crate) fn refused_whatever_play(&self, kind: HookKind, seat: Seat) -> bool {
        let call = self.seat_call(kind, seat);
        let fns = self.variant.card_hook_fns(kind);
        fns.iter().all(|f| {
            matches!(
                self.known_verdict(Asked::each(std::slice::from_ref(f)), Open::Play, &call, Combine::Any),
                Some(Some(Verdict::No(_)))
            )
        })
    }

    /// Is every play of `card` by `seat` (each side, each target) refused
    /// by every hook of `kind` bound to it, as far as the memo knows? Out of
    /// turn or answering, most cards are: this spares them the general
    /// checks. False where the memo does not know.
    pub(crate) fn refused_plainly(&self, kind: HookKind, seat: Seat, card: CardId) -> bool {
        let (side, variant) = (self.pos.table.side, &self.variant);
        // A target the card cannot choose is asked as it is: no target.
        let target = [false, true].iter().any(|&as_flex| variant.target_need(card, side, as_flex) != TargetNeed::None);
        let refused = |as_flex: bool, side_open: bool| {
            let call = CallInfo { card: Some((card, side)), as_flex, ..self.seat_call(kind, seat) };
            let fns = self.card_hook_asks(kind, card, as_flex);
            matches!(
                self.known_verdict(fns, Open::Aim { side: side_open, target }, &call, Combine::Any),
                Some(None | Some(Verdict::No(_)))
            )
        };
        if !variant.names.has_flex_side(variant.face(card, side)) {
            return refused(false, false);
        }
        // Where the same functions are bound to both sides, one question
        // leaves the side open; otherwise each side is asked.
        let ids = |as_flex| self.card_hook_asks(kind, card, as_flex).map(|f| f.id);
        if ids(false).eq(ids(true)) { refused(false, true) } else { refused(false, false) && refused(true, false) }
    }

    /// Do the hooks of `kind` bound to the card and side of `play` refuse
    /// it, whatever seat it aims at? Where the memo knows their answers
    /// without the target (no recorded path reads it), this spares asking
    /// about each target; `None` where it does not know.
    pub(crate) fn refused_whatever_target(&self, kind: HookKind, play: &Play) -> Option<bool> {
        self.known_refusal(kind, play.seat, play.card, play.as_flex, Open::Aim { side: false, target: true })
    }

    /// May `seat` play the flex side of `card` in turn, as far as the memo
    /// knows, at every target the side may take (or none)? Every
    /// `can_play` function bound to the side must say yes, whatever seat
    /// it aims at. Asked of a side that matches (the caller's check, as
    /// `plays_of` makes it) of a card no hook may grant; `None` for any
    /// other, or where the memo does not know an answer. The commonest
    /// question about a Flex hand, asked without the general checks.
    #[inline(never)]
    pub(crate) fn flex_side_allowed(&self, seat: Seat, card: CardId) -> Option<bool> {
        let (side, variant) = (self.pos.table.side, &self.variant);
        if variant.grants(card, side) || !variant.names.has_flex_side(variant.face(card, side)) {
            return None;
        }
        let open = match variant.target_need(card, side, true) {
            TargetNeed::None => Open::Nothing,
            _ => Open::Aim { side: false, target: true },
        };
        self.known_refusal(HookKind::CanPlay, seat, card, true, open).map(|refused| !refused)
    }

    /// Do the functions of the card hook `kind` bound to `card` (its flex
    /// side or not) refuse `seat` a play of it, as the memo knows their
    /// answers, whatever the play leaves `open`? `None` where it does not
    /// know.
    #[inline(always)]
    fn known_refusal(&self, kind: HookKind, seat: Seat, card: CardId, as_flex: bool, open: Open) -> Option<bool> {
        let fns = self.card_hook_asks(kind, card, as_flex);
        let call = CallInfo { card: Some((card, self.pos.table.side)), as_flex, ..self.seat_call(kind, seat) };
        let verdict = self.known_verdict(fns, open, &call, Combine::Every { why: false })?;
        Some(matches!(verdict, Some(Verdict::No(_))))
    }

    /// Asks the hooks of `kind` bound to the played card.
    fn ask_about_play(
        &mut self,
        kind: HookKind,
        play: &Play,
        combine: Combine,
    ) -> Result<Option<Verdict>, RuleFailure> {
        // Bound to none (`card_hook_bound`, cheaper to look up than which
        // are asked now): no answer. Bound to some that are not asked now:
        // no answer either, from `ask_about_card`.
        if self.variant.card_hook_bound(kind, play.card, self.pos.table.side, play.as_flex).is_empty() {
            return Ok(None);
        }
        let mut call = self.predicate_call(kind, play);
        self.ask_about_card(kind, play.card, &mut call, combine)
    }

    /// Asks the hooks of `kind` bound to `card` (shown on the side in play)
    /// about it: from the memo where it knows every answer, else through
    /// `ask`.
    #[inline(always)]
    fn ask_about_card(
        &mut self,
        kind: HookKind,
        card: CardId,
        call: &mut CallInfo,
        combine: Combine,
    ) -> Result<Option<Verdict>, RuleFailure> {
        let side = self.pos.table.side;
        call.card = Some((card, side));
        let fns = self.card_hook_asks(kind, card, call.as_flex);
        if let Some(verdict) = self.known_verdict(fns, Open::Nothing, call, combine) {
            return Ok(settled(verdict, &self.pos.table, call));
        }
        self.ask(kind, Some(card), HookArg::Card(card, side), call, combine)
    }

    /// No hook of `kind` bound to the card may refuse the play; `Ok(true)`
    /// when one allowed it (matching or not). `why`: keep a refusal's
    /// reason (not when listing moves).
    pub(crate) fn card_verdicts(&mut self, kind: HookKind, play: &Play, why: bool) -> Checked<bool> {
        match self.ask_about_play(kind, play, Combine::Every { why })? {
            Some(Verdict::No(reason)) => {
                Err(Stop::Refuse(Refusal::ByRule { what: "this play", reason: reason.map(|r| r.why()) }))
            }
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

    /// Every hook of `kind` (taking no card) must allow what `seat` does,
    /// which could play the cards `playable` (given back once asked).
    /// `why`: keep a refusal's reason (not when listing moves).
    pub(crate) fn global_verdicts(
        &mut self,
        kind: HookKind,
        seat: Seat,
        playable: &mut Vec<CardId>,
        (what, why): (&'static str, bool),
    ) -> Checked<()> {
        let playable_cards = Some(std::mem::take(playable));
        let mut call =
            CallInfo { prev_color: self.pos.table.color, playable: playable_cards, ..CallInfo::new(kind, seat) };
        let verdict = self.ask(kind, None, HookArg::None, &mut call, Combine::Every { why });
        *playable = call.playable.take().unwrap_or_default();
        match verdict? {
            Some(Verdict::No(reason)) => Err(Stop::Refuse(Refusal::ByRule { what, reason: reason.map(|r| r.why()) })),
            _ => Ok(()),
        }
    }

    /// After a voluntary draw of `card`: does any `draw_again` hook want
    /// another card? With it, whether `seat` could play the card now, as
    /// worked out for the hooks (`None`: no hook is bound, nothing was).
    pub(crate) fn draw_again(&mut self, seat: Seat, card: CardId) -> Result<(bool, Option<bool>), RuleFailure> {
        let kind = HookKind::DrawAgain;
        if self.card_hook_asks(kind, card, false).is_empty() {
            return Ok((false, None));
        }
        let could_play = self.can_play_card(seat, card)?;
        // The game's list of playable cards is lent, so that asking
        // allocates nothing.
        let mut playable = std::mem::take(&mut self.playable);
        playable.clear();
        playable.extend(could_play.then_some(card));
        let mut call = CallInfo { playable: Some(playable), ..CallInfo::new(kind, seat) };
        let verdict = self.ask_about_card(kind, card, &mut call, Combine::Any);
        self.playable = call.playable.take().unwrap_or_default();
        Ok((verdict?.is_some_and(|v| v.yes()), Some(could_play)))
    }

    /// Runs the effect hooks bound to the card (`call.hook`: `on_play` or
    /// `first_discard`) and returns the plan they leave.
    pub(crate) fn run_effects(&mut self, card: CardId, mut call: CallInfo) -> Result<TurnPlan, RuleFailure> {
        let mut plan = TurnPlan::default();
        let arg = HookArg::Card(card, self.pos.table.side);
        self.run_each(call.hook, Some(card), &arg, &mut call, &mut plan, |_, _| Ok(true))?;
        Ok(plan)
    }

    /// Passes a penalty through every `on_penalty` hook, in layer order.
    pub(crate) fn penalty_hooks(
        &mut self,
        me: Seat,
        penalty: Penalty,
        answering: Option<Penalty>,
    ) -> Result<Penalty, RuleFailure> {
        let mut penalty = penalty;
        // Where a challengeable penalty came from is the game's note, kept
        // past the hooks (which neither see nor return it).
        let made = penalty.challenge.and_then(|c| c.made);
        let call = &mut CallInfo { answering, ..CallInfo::new(HookKind::OnPenalty, me) };
        // Field by field, so that the variant is borrowed, not cloned.
        let Game { variant, rules, pos: Position { table, log, .. }, guarded, changing, trace, .. } = self;
        let plan = &mut TurnPlan::default();
        for f in variant.global_hook(HookKind::OnPenalty) {
            debug_assert_backed_up(*guarded, *changing);
            let lent = &mut Lent::new(variant, call, table, log, plan, trace);
            penalty = match rules.run(f, &HookArg::Penalty(penalty), lent)? {
                Reply::Penalty(penalty) => penalty.clone(),
                reply => return Err(unexpected(f, reply)),
            };
        }
        if let Some(challenge) = &mut penalty.challenge {
            challenge.made = challenge.made.or(made);
        }
        Ok(penalty)
    }

    /// The reply of the last hook of `kind` taking no card, read by `read`,
    /// if any is bound.
    pub(crate) fn last_global_answer<T>(
        &mut self,
        kind: HookKind,
        me: Seat,
        arg: HookArg,
        read: impl FnOnce(&Reply) -> Option<T>,
    ) -> Result<Option<T>, RuleFailure> {
        debug_assert!(kind.answered_once(), "{} is checked at load as answered once", kind.name());
        let Game { variant, rules, pos: Position { table, log, .. }, trace, .. } = self;
        let Some(f) = variant.global_hook(kind).last() else { return Ok(None) };
        let (call, plan) = (&mut CallInfo::new(kind, me), &mut TurnPlan::default());
        let reply = rules.run(f, &arg, &mut Lent::new(variant, call, table, log, plan, trace))?;
        read(reply).map(Some).ok_or_else(|| unexpected(f, reply))
    }
}
