//! Facts the rules worked out from cards some seats cannot see and left on
//! the table: whether a challengeable penalty was a bluff (`Challenge::
//! guilty`), which a rule decides from the hand of the card's player when
//! the card is played. A determinization deals that hand anew, so the fact
//! must be worked out again from the new hand, never copied: the game notes
//! which play made each challengeable penalty (`Made`: the card, its side,
//! flex side and target, and the colour in play before it), and asks the
//! same `on_play` hooks about the same play again on the table as it is
//! now, keeping only the guilt of the challengeable penalty they make.
//! Nothing else they do stays. No rule is named: whatever a variant's
//! `on_play` decides guilt from, it decides it again.

use crate::event::LogMark;
use crate::game::Game;
use crate::rules::{CallInfo, RuleFailure, Rules, next_stamp};
use crate::seat::Seat;
use crate::turn::{Made, Request, TurnPlan};
use crate::variant::HookKind;

/// Notes on each challengeable penalty a play's effects asked for which
/// play made it.
pub(crate) fn note_made(plan: &mut TurnPlan, made: Made) {
    for request in &mut plan.requests {
        if let Request::Penalty(penalty) = request
            && let Some(challenge) = &mut penalty.challenge
        {
            challenge.made.get_or_insert(made);
        }
    }
}

impl<R: Rules> Game<R> {
    /// Works out again, on the table as it is, each fact of a waiting
    /// penalty that the rules derived from a hand `seat` cannot see: the
    /// guilt of a challengeable penalty made by another seat's play, asked
    /// of that play's `on_play` hooks again (the hand of the card's player
    /// as dealt now, the colour in play before the card as it was). A
    /// penalty whose play is not known (made by a hook of another moment)
    /// is taken as no bluff. For a determinization (`Position::
    /// determinize`) of `seat`'s view, before play goes on from it; the
    /// table changes in nothing else.
    pub fn work_out_hidden_facts(&mut self, seat: Seat) -> Result<(), RuleFailure> {
        let mut asked: smallvec::SmallVec<[(Seat, Option<Made>); 2]> = smallvec::SmallVec::new();
        for penalty in self.pos.table.waiting_penalties_mut() {
            if let Some(challenge) = &penalty.challenge
                && penalty.by != seat
            {
                asked.push((penalty.by, challenge.made));
            }
        }
        if asked.is_empty() {
            return Ok(());
        }
        let mut guilt: smallvec::SmallVec<[bool; 2]> = smallvec::SmallVec::new();
        for &(by, made) in &asked {
            guilt.push(match made {
                Some(made) => self.guilt_of(by, made)?,
                None => false,
            });
        }
        let mut guilt = guilt.into_iter();
        for penalty in self.pos.table.waiting_penalties_mut() {
            if let Some(challenge) = &mut penalty.challenge
                && penalty.by != seat
            {
                challenge.guilty = guilt.next().unwrap_or(false);
            }
        }
        self.pos.stamp = next_stamp();
        Ok(())
    }

    /// The guilt `made`'s `on_play` hooks give `by`'s play on the table as
    /// it is; the table and log are put back as they were.
    fn guilt_of(&mut self, by: Seat, made: Made) -> Result<bool, RuleFailure> {
        // The card shows another face now (the table turned over since):
        // its hooks would not be those that made the penalty.
        if made.side != self.pos.table.side {
            return Ok(false);
        }
        self.backup.clone_from(&self.pos.table);
        let mut mark = LogMark::default();
        self.pos.log.mark(&mut mark);
        self.pos.stamp = next_stamp();
        let call = CallInfo {
            as_flex: made.as_flex,
            target: made.target(),
            prev_color: made.prev_color,
            ..CallInfo::new(HookKind::OnPlay, by)
        };
        self.rules.begin_action();
        let plan = self.run_effects(made.card, call);
        self.rules.end_action();
        std::mem::swap(&mut self.pos.table, &mut self.backup);
        self.pos.log.rewind(&mark);
        self.pos.stamp = next_stamp();
        let guilty = plan?.requests.iter().find_map(|request| match request {
            Request::Penalty(penalty) if penalty.by == by => penalty.challenge.map(|c| c.guilty),
            _ => None,
        });
        Ok(guilty.unwrap_or(false))
    }
}
