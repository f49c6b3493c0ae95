//! What one seat can see (rules.md 4.3): its own cards by the face in play
//! only; of every opponent, how many cards they hold and, with a
//! double-sided deck, the backs (inactive faces) of those cards; the discard
//! pile's top; and the back of the draw pile's top card, which is public.

use crate::card::{Color, Direction, Face, Side};
use crate::event::Seat;
use crate::game::Game;
use crate::table::Uno;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpponentView {
    pub seat: Seat,
    pub cards: usize,
    /// The inactive faces of their cards (double-sided decks only).
    pub backs: Vec<Face>,
    pub power: Option<bool>,
    pub called_uno: bool,
    pub score: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatView {
    pub seat: Seat,
    pub side: Side,
    /// Own cards, by the face in play: the other face is hidden from its owner.
    pub hand: Vec<Face>,
    pub opponents: Vec<OpponentView>,
    pub top: Option<Face>,
    pub color: Option<Color>,
    pub direction: Direction,
    pub current: Seat,
    pub draw_size: usize,
    /// The inactive face of the draw pile's top card (double-sided decks).
    pub draw_top_back: Option<Face>,
    pub power: Option<bool>,
}

impl Game {
    pub fn view(&self, seat: Seat) -> SeatView {
        let t = self.table();
        let v = &self.variant;
        let active = t.side;
        let hidden = active.other();
        let backs = |cards: &[crate::card::CardId]| -> Vec<Face> {
            if v.double_sided { cards.iter().map(|&c| *v.face(c, hidden)).collect() } else { Vec::new() }
        };
        SeatView {
            seat,
            side: active,
            hand: t.hands[seat].iter().map(|&c| *v.face(c, active)).collect(),
            opponents: (0..self.players())
                .filter(|&s| s != seat)
                .map(|s| OpponentView {
                    seat: s,
                    cards: t.hands[s].len(),
                    backs: backs(&t.hands[s]),
                    power: t.power.get(s).copied(),
                    called_uno: t.uno[s] == Uno::Called,
                    score: t.scores[s],
                })
                .collect(),
            top: t.top().map(|c| *v.face(c, active)),
            color: t.color,
            direction: t.direction,
            current: t.current,
            draw_size: t.draw.len(),
            draw_top_back: t.draw.last().filter(|_| v.double_sided).map(|&c| *v.face(c, hidden)),
            power: t.power.get(seat).copied(),
        }
    }
}
