//! Actions a rule declares (`actions:`): which of them a seat may take now
//! (moves: the player to play before it draws, or another seat out of
//! turn, as the action's `when:` says), why one may not (a refusal), and
//! taking one: its effect runs, then the turn moves on as after a play (an
//! out-of-turn action's, from the seat that took it, as after a jump-in).

use crate::card::CardId;
use crate::event::Event;
use crate::game::action::Act;
use crate::game::moves::ActOption;
use crate::game::{Checked, Game, Position, Refusal, Stop};
use crate::rules::{CallInfo, HookArg, Lent, Reply, RuleFailure, Rules, Verdict};
use crate::seat::Seat;
use crate::turn::{Phase, TurnPlan};
use crate::variant::{ActWhen, FnRef, HookKind};

impl<R: Rules> Game<R> {
    /// The actions `seat` may take now (on its turn before it draws, or
    /// out of turn, as each one's `when:` says), each with each face of its
    /// hand (where it takes a card) and each other seat in the hand (where
    /// it takes a target) that its `available` function allows.
    pub(crate) fn legal_acts(&mut self, seat: Seat, acts: &mut Vec<ActOption>) -> Result<(), RuleFailure> {
        let side = self.pos.table.side;
        for index in 0..self.variant.actions.len() {
            let action = &self.variant.actions[index];
            if self.act_now(seat, action.when).is_err() {
                continue;
            }
            let mut cards: Vec<Option<CardId>> = Vec::new();
            if action.card {
                let mut seen = Vec::new();
                for &card in &self.pos.table.hands[seat] {
                    let choice = self.variant.choice(card, side);
                    if !seen.contains(&choice) {
                        seen.push(choice);
                        cards.push(Some(card));
                    }
                }
            } else {
                cards.push(None);
            }
            let targets: Vec<Option<Seat>> = match action.target {
                true => (0..self.players()).filter(|&t| t != seat && self.pos.table.playing(t)).map(Some).collect(),
                false => vec![None],
            };
            for &card in &cards {
                for &target in &targets {
                    let act = Act { seat, action: index as u8, card, target };
                    match self.act_allowed(&act, false) {
                        Ok(()) => acts.push(ActOption {
                            action: act.action,
                            card,
                            face: card.map(|card| *self.variant.face(card, side)),
                            target,
                        }),
                        Err(Stop::Refuse(_)) => {}
                        Err(Stop::Fail(failure)) => return Err(failure),
                    }
                }
            }
        }
        Ok(())
    }

    /// May `act` be taken now? If not, why (`why`: with the rule's reason).
    pub(crate) fn check_act(&mut self, act: &Act, why: bool) -> Checked<()> {
        let Some(action) = self.variant.actions.get(usize::from(act.action)) else {
            return Err(Stop::Refuse(Refusal::NoSuchAction));
        };
        if action.card != act.card.is_some() || action.target != act.target.is_some() {
            return Err(Stop::Refuse(Refusal::ActionShape { action: act.action }));
        }
        self.act_now(act.seat, action.when)?;
        if let Some(card) = act.card
            && !self.pos.table.hands[act.seat].contains(&card)
        {
            return Err(Stop::Refuse(Refusal::NotHeld { seat: act.seat, card }));
        }
        if let Some(target) = act.target
            && (target >= self.players() || target == act.seat || !self.pos.table.playing(target))
        {
            return Err(Stop::Refuse(Refusal::BadTarget { target }));
        }
        self.act_allowed(act, why)
    }

    /// May `seat` take an action that may be taken `when` now? Never while
    /// a decision is owed; the player to play before it draws, where the
    /// action may be taken in turn; any other seat still in the hand, where
    /// it may be taken out of turn.
    fn act_now(&self, seat: Seat, when: ActWhen) -> Checked<()> {
        self.owed_decision()?;
        let t = &self.pos.table;
        let now = t.playing(seat)
            && match t.phase() {
                Phase::Turn if seat == t.current => when.in_turn(),
                Phase::Turn | Phase::Drawn(_) if seat != t.current => when.out_of_turn(),
                _ => false,
            };
        if now { Ok(()) } else { Err(Stop::Refuse(Refusal::ActionNotNow { seat, when })) }
    }

    /// The action's `available` function's answer (yes where it has none).
    fn act_allowed(&mut self, act: &Act, why: bool) -> Checked<()> {
        let Some(f) = self.variant.actions[usize::from(act.action)].available.clone() else { return Ok(()) };
        let (mut call, arg) = self.act_call(HookKind::ActionAvailable, act);
        let reply = self.run_action_fn(&f, &arg, &mut call, &mut TurnPlan::default())?;
        match reply {
            Reply::Verdict(Verdict::No(reason)) => {
                let reason = reason.filter(|_| why).map(|mut reason| {
                    reason.settle(&self.pos.table, &call);
                    reason.why()
                });
                Err(Stop::Refuse(Refusal::ByRule { what: "this action", reason }))
            }
            Reply::Verdict(_) => Ok(()),
            other => Err(Stop::Fail(RuleFailure::new(format!(
                "the rules replied {other:?} to the available function {} of an action",
                f.function
            )))),
        }
    }

    /// Takes `act` (found legal): the log says so, its function runs, and
    /// the turn moves on as after a play by its seat, with what the
    /// function asked for. Out of turn, a drawn card's wait ends, as after a
    /// jump-in; the function still sees whose turn it was (`current()`).
    pub(crate) fn take_act(&mut self, act: Act) -> Result<(), RuleFailure> {
        let side = self.pos.table.side;
        let out_of_turn = act.seat != self.pos.table.current;
        self.pos.table.back_to_turn();
        self.pos.log.push(Event::Acted {
            seat: act.seat,
            action: act.action,
            card: act.card.map(|card| (card, side)),
            target: act.target,
            out_of_turn,
        });
        let f = self.variant.actions[usize::from(act.action)].effect.clone();
        let (mut call, arg) = self.act_call(HookKind::OnAction, &act);
        let mut plan = TurnPlan::default();
        self.run_action_fn(&f, &arg, &mut call, &mut plan)?;
        self.resolve_effects(act.seat, plan, false, None)
    }

    /// A call of an action's function about `act`: what it is told, and its
    /// argument (the card, or the seat).
    fn act_call(&self, kind: HookKind, act: &Act) -> (CallInfo, HookArg) {
        let side = self.pos.table.side;
        let call = CallInfo {
            card: act.card.map(|card| (card, side)),
            target: act.target,
            prev_color: self.pos.table.color,
            ..CallInfo::new(kind, act.seat)
        };
        let arg = match act.card {
            Some(card) => HookArg::Card(card, side),
            None => HookArg::Seat(act.seat),
        };
        (call, arg)
    }

    /// Runs one function of an action on the game's table.
    fn run_action_fn(
        &mut self,
        f: &FnRef,
        arg: &HookArg,
        call: &mut CallInfo,
        plan: &mut TurnPlan,
    ) -> Result<Reply, RuleFailure> {
        let Game { variant, rules, pos: Position { table, log, .. }, trace, .. } = self;
        rules.run(f, arg, &mut Lent::new(variant, call, table, log, plan, trace)).cloned()
    }
}
