//! What one seat can see (rules.md 4.3): its own cards by the face in play
//! only; of every opponent, how many cards they hold and, with a
//! double-sided deck, the backs (inactive faces) of those cards; the discard
//! pile's top; the back of the draw pile's top card, which is public; and
//! where the hand stands, without card ids (an id would tell a card's back).

use crate::card::{CardId, Color, Direction, Face, Side};
use crate::game::Game;
use crate::rules::Rules;
use crate::seat::Seat;
use crate::text::Text;

use crate::table::{State, Uno};
use crate::turn::{ChoiceOption, DrawSpec, Phase, ScriptValue};

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OpponentView {
    pub seat: Seat,
    /// Still in the hand.
    pub playing: bool,
    pub cards: usize,
    /// The inactive faces of their cards (double-sided decks only).
    pub backs: Vec<Face>,
    pub power: Option<bool>,
    pub called_uno: bool,
    pub score: i64,
    /// The seat's state values that the rules declare public.
    pub state: Vec<(Text, ScriptValue)>,
}

/// Where the hand stands, as everyone at the table sees it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum PhaseView {
    #[default]
    Turn,
    /// The player whose turn it is drew a card they may play (its face is
    /// shown only to them: `None` for everyone else).
    Drawn(Option<Face>),
    NameColor {
        chooser: Seat,
    },
    Answer {
        victim: Seat,
        draw: DrawSpec,
        challengeable: bool,
    },
    /// `chooser` picks one of `options` (numbered from 1 when chosen). The
    /// options are the chooser's: every other seat sees none (a choice has
    /// at least one).
    Choose {
        chooser: Seat,
        tag: Text,
        options: Vec<OptionView>,
    },
    /// The hand is over: `ranking` holds every seat by place, the winner
    /// first.
    Over {
        winner: Seat,
        ranking: Vec<Seat>,
    },
}

/// One option of a choice as the seats see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionView {
    Value(ScriptValue),
    Card(Face),
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SeatView {
    pub seat: Seat,
    pub players: usize,
    pub side: Side,
    /// Own cards, by the face in play: the other face is hidden from its owner.
    pub hand: Vec<Face>,
    pub opponents: Vec<OpponentView>,
    pub top: Option<Face>,
    pub color: Option<Color>,
    pub direction: Direction,
    pub current: Seat,
    pub to_act: Seat,
    pub dealer: Seat,
    pub phase: PhaseView,
    pub draw_size: usize,
    pub discard_size: usize,
    /// The inactive face of the draw pile's top card (double-sided decks).
    pub draw_top_back: Option<Face>,
    pub power: Option<bool>,
    pub score: i64,
    /// This seat called UNO for the card it holds.
    pub called_uno: bool,
    /// The rules' public state: of the table, and of this seat.
    pub state: Vec<(Text, ScriptValue)>,
    pub own_state: Vec<(Text, ScriptValue)>,
}

/// The values of `state` whose names the rules declare public.
fn public(state: &State, names: &std::collections::BTreeSet<String>) -> Vec<(Text, ScriptValue)> {
    if names.is_empty() {
        return Vec::new();
    }
    state.iter().filter(|(k, _)| names.contains(k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect()
}

impl<R: Rules> Game<R> {
    /// What `seat` sees. A seat that is not at the table sees an empty
    /// view.
    pub fn view(&self, seat: Seat) -> SeatView {
        let mut view = SeatView { seat, ..SeatView::default() };
        let t = self.table();
        if seat >= t.players() {
            return view;
        }
        let v = &self.variant;
        let active = t.side;
        let hidden = active.other();
        let face = |card: &CardId| *v.face(*card, active);
        view.players = t.players();
        view.side = active;
        self.hand_view_into(seat, &mut view.hand);
        view.opponents = (0..t.players())
            .filter(|&s| s != seat)
            .map(|s| OpponentView {
                seat: s,
                playing: t.playing(s),
                cards: t.hands[s].len(),
                backs: if v.double_sided {
                    t.hands[s].iter().map(|&c| *v.face(c, hidden)).collect()
                } else {
                    Vec::new()
                },
                power: t.power.get(s).copied(),
                called_uno: t.uno.get(s) == Uno::Called,
                score: t.scores[s],
                state: public(&t.seat_state[s], &v.public_state),
            })
            .collect();
        view.top = t.top().map(|c| face(&c));
        view.color = t.color;
        view.direction = t.direction;
        view.current = t.current;
        view.to_act = t.to_act();
        view.dealer = t.dealer;
        view.phase = match t.phase() {
            Phase::Turn => PhaseView::Turn,
            Phase::Drawn(card) => PhaseView::Drawn((t.current == seat).then(|| face(card))),
            Phase::NameColor { chooser } => PhaseView::NameColor { chooser: *chooser },
            Phase::Answer(p) => {
                PhaseView::Answer { victim: p.victim, draw: p.draw, challengeable: p.challenge.is_some() }
            }
            Phase::Choose(choice) => PhaseView::Choose {
                chooser: choice.chooser,
                tag: choice.tag.clone(),
                options: choice
                    .options
                    .iter()
                    .filter(|_| choice.chooser == seat)
                    .map(|option| match option {
                        ChoiceOption::Value(value) => OptionView::Value(value.clone()),
                        ChoiceOption::Card(card, side) => OptionView::Card(*v.face(*card, *side)),
                    })
                    .collect(),
            },
            Phase::Over { ranking } => PhaseView::Over { winner: ranking[0], ranking: ranking.clone() },
        };
        view.draw_size = t.draw.len();
        view.discard_size = t.discard.len();
        view.draw_top_back = t.draw.last().filter(|_| v.double_sided).map(|&c| *v.face(c, hidden));
        view.power = t.power.get(seat).copied();
        view.score = t.scores[seat];
        view.called_uno = t.uno.get(seat) == Uno::Called;
        view.state = public(&t.state, &v.public_state);
        view.own_state = public(&t.seat_state[seat], &v.public_state);
        view
    }

    /// Fills `hand` with `seat`'s own cards as the seat sees them (the face
    /// in play), reusing its allocation: the part of its view a bot naming
    /// a colour needs.
    pub fn hand_view_into(&self, seat: Seat, hand: &mut Vec<Face>) {
        hand.clear();
        if let Some(cards) = self.table().hands().get(seat) {
            hand.extend(cards.iter().map(|&card| *self.variant.face(card, self.table().side())));
        }
    }
}
