//! The end of a hand: the winner is recorded, the hand is scored (by
//! default the winner scores every other hand, rules.md 1.7; a `score_hand`
//! hook may share points out differently), and the match is decided (by
//! default the first to the target; a `match_winner` hook may decide).

use smallvec::SmallVec;

use crate::event::Event;
use crate::game::Game;
use crate::rules::{HookArg, Reply, RuleFailure, Rules};
use crate::seat::Seat;
use crate::variant::HookKind;

impl<R: Rules> Game<R> {
    /// Every seat that won the match, in the order named (a team wins
    /// together); empty while nobody has. Read from the game log.
    pub fn match_winners(&self) -> Vec<Seat> {
        self.events()
            .iter()
            .filter_map(|e| match e {
                Event::MatchWon { seat } => Some(*seat),
                _ => None,
            })
            .collect()
    }

    /// Every seat by place: the seats a rule `named` (the winner first),
    /// then the seats still in the hand by fewest points (ties in turn
    /// order from the winner), then the seats that left it, the last to
    /// leave first.
    /// `points`: what each seat's hand is worth.
    fn ranking(&self, mut ranking: Vec<Seat>, points: &[i64]) -> Vec<Seat> {
        let players = self.players();
        let winner = ranking[0];
        let named = ranking.len();
        for seat in (1..players).map(|offset| (winner + offset) % players) {
            if self.pos.table.playing(seat) && !ranking[..named].contains(&seat) {
                ranking.push(seat);
            }
        }
        ranking[named..].sort_by_key(|&seat| points[seat]);
        for &seat in self.pos.table.departures.iter().rev() {
            if !ranking.contains(&seat) {
                ranking.push(seat);
            }
        }
        ranking
    }

    /// The hand is won (`went_out`: by emptying a hand, else a rule ended
    /// it), with the places `named` (at least the winner): it is over and
    /// scored.
    pub(crate) fn end_hand(&mut self, named: Vec<Seat>, went_out: bool) -> Result<(), RuleFailure> {
        let winner = named[0];
        if named.len() > 1 {
            self.pos.log.push(Event::Ranked { seats: named.clone() });
        }
        let players = self.players();
        let points: SmallVec<[i64; 8]> = (0..players).map(|s| self.pos.table.hand_points(&self.variant, s)).collect();
        self.pos.table.finish_hand(self.ranking(named, &points));
        let arg = HookArg::Seat(winner);
        let gains = match self.last_global_answer(HookKind::ScoreHand, winner, arg, |reply| match reply {
            Reply::Points(points) if points.len() == players => Some(points.clone()),
            _ => None,
        })? {
            Some(gains) => gains,
            None => {
                let others: i64 = (0..players).filter(|&s| s != winner).map(|s| points[s]).sum();
                (0..players).map(|s| if s == winner { others } else { 0 }).collect()
            }
        };
        // Points are whole numbers a script may make huge: a score that
        // would overflow is an error, not a wrap to negative.
        let totals: Option<Vec<i64>> =
            self.pos.table.scores.iter().zip(&gains).map(|(s, g)| s.checked_add(*g)).collect();
        let Some(totals) = totals else {
            return Err(RuleFailure::new(format!(
                "hand {}: a score would leave the range of scores ({} to {}); the hand's points: {gains:?}",
                self.pos.table.hand_number,
                i64::MIN,
                i64::MAX
            )));
        };
        self.pos.table.scores = totals;
        self.pos.log.push(Event::HandWon { seat: winner, points: gains[winner], went_out });
        if self.pos.table.match_winner.is_some() {
            return self.moment(HookKind::OnHandEnd, winner, HookArg::Seat(winner));
        }
        let named = self.last_global_answer(HookKind::MatchWinner, winner, HookArg::None, |reply| match reply {
            Reply::Seats(seats) if seats.iter().all(|&seat| seat < players) => Some(seats.clone()),
            _ => None,
        })?;
        let winners = match named {
            Some(seats) => seats,
            None if self.pos.table.scores[winner] >= self.variant.target_score => vec![winner],
            None => Vec::new(),
        };
        self.pos.table.match_winner = winners.first().copied();
        for seat in winners {
            self.pos.log.push(Event::MatchWon { seat });
        }
        self.moment(HookKind::OnHandEnd, winner, HookArg::Seat(winner))
    }
}
