//! The turn vocabulary: where a hand stands (`Phase`, `Landing`), the
//! decisions a table may owe (`Decision`), draw penalties, and the changes
//! (`Op`) that card effects make, gathered into a `TurnPlan` that the game
//! resolves once the effects have run. Shared by the game and the scripts.

use crate::text::Text;

use crate::card::{CardId, Color, Side};
use crate::event::LeftCards;
use crate::seat::Seat;
use crate::variant::Variant;

/// How many cards a draw takes: `count` cards, or with `until` one at a time
/// until a card of that colour (on the face in play) and then `count` more.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DrawSpec {
    pub count: u32,
    pub until: Option<Color>,
}

/// The outcome of challenging a restricted draw-wild.
#[derive(Debug, Clone, Copy)]
pub struct Challenge {
    /// Was the card played against its restriction (a bluff)? A fact the
    /// rules work out from the hand of the card's player, which other
    /// seats cannot see: a determinization works it out again
    /// (`Game::work_out_hidden_facts`).
    pub guilty: bool,
    /// What the challenger draws when the challenge fails.
    pub fail: DrawSpec,
    /// What the card's player draws when it succeeds.
    pub success: DrawSpec,
    /// The play whose `on_play` made the penalty, where one did (the game
    /// notes it; rules neither set nor read it).
    pub made: Option<Made>,
}

/// Challenges are equal when their outcomes are: where a penalty came
/// from is not part of it as the rules see it (and so not of a memo key).
impl PartialEq for Challenge {
    fn eq(&self, other: &Challenge) -> bool {
        (self.guilty, self.fail, self.success) == (other.guilty, other.fail, other.success)
    }
}

impl Eq for Challenge {}

impl std::hash::Hash for Challenge {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.guilty, self.fail, self.success).hash(state);
    }
}

/// A play as its `on_play` hooks were told of it: what the game asks them
/// about again to work a hidden fact out anew. Eight bytes: it rides in
/// every penalty (`Challenge::made`), and so in the phase and in each hook
/// call's `answering`, which the turn loop moves about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Made {
    pub card: CardId,
    pub side: Side,
    pub as_flex: bool,
    /// The seat aimed at, if any (a seat number fits a byte:
    /// `limits::PLAYERS`).
    target: Option<u8>,
    /// The colour in play before the card.
    pub prev_color: Option<Color>,
}

impl Made {
    pub fn new(card: CardId, side: Side, as_flex: bool, target: Option<Seat>, prev_color: Option<Color>) -> Made {
        const { assert!(crate::limits::PLAYERS <= 256) };
        let target = target.map(|seat| seat as u8);
        Made { card, side, as_flex, target, prev_color }
    }

    /// The seat the play aimed at, if any.
    pub fn target(&self) -> Option<Seat> {
        self.target.map(Seat::from)
    }
}

/// A draw penalty: the victim draws and, if they were to play next, loses
/// that turn.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Penalty {
    pub victim: Seat,
    pub by: Seat,
    pub draw: DrawSpec,
    /// Which stacking group the card belongs to (house rules read it).
    pub group: Text,
    pub challenge: Option<Challenge>,
    /// Wait for the victim's answer instead of drawing at once.
    pub pending: bool,
}

/// A value scripts keep (`set_state`), or offer to choose from. Its text
/// is Rhai's cheap-to-clone string, which is not `Send`; settings, which
/// live in the `Variant` that simulation threads share, are the same kind
/// of value as `OptionValue`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ScriptValue {
    Int(i64),
    Text(Text),
    Bool(bool),
}

impl std::fmt::Display for ScriptValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScriptValue::Int(n) => write!(f, "{n}"),
            ScriptValue::Text(t) => write!(f, "{t}"),
            ScriptValue::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// A choice a rule asks a seat to make (`choose`): one of `options`; the
/// rules' `on_choice` hooks learn the answer under `tag`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Choice {
    pub chooser: Seat,
    pub tag: Text,
    pub options: Vec<ChoiceOption>,
}

/// One option of a choice: a value, or a card (seen on the side it was
/// offered on).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ChoiceOption {
    Value(ScriptValue),
    Card(CardId, Side),
}

impl ChoiceOption {
    /// The option as players see and name it: a value, or a card in card
    /// notation.
    pub fn name(&self, variant: &Variant) -> String {
        match self {
            ChoiceOption::Value(value) => value.to_string(),
            ChoiceOption::Card(id, side) => variant.face_name(*id, *side),
        }
    }
}

/// A decision the table waits for before play goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// `chooser` names the colour in play.
    NameColor { chooser: Seat },
    /// The victim accepts the penalty, challenges it, or answers it with a
    /// play a rule allows.
    Answer(Penalty),
    /// A seat picks one of a rule's options.
    Choose(Choice),
}

/// Where the hand stands. Built whole at every deal, so nothing carries over.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Phase {
    /// The player whose turn it is plays, draws, or (with nothing left to
    /// draw) passes.
    #[default]
    Turn,
    /// The player whose turn it is drew this card and may play it or pass.
    Drawn(CardId),
    /// A decision is owed (see `Decision`).
    NameColor {
        chooser: Seat,
    },
    Answer(Penalty),
    Choose(Choice),
    /// Someone went out (or a rule ended the hand); the hand is scored.
    /// `ranking` holds every seat once, by place: the winner first.
    Over {
        ranking: Vec<Seat>,
    },
}

impl Phase {
    pub fn from_decision(decision: Decision) -> Phase {
        match decision {
            Decision::NameColor { chooser } => Phase::NameColor { chooser },
            Decision::Answer(penalty) => Phase::Answer(penalty),
            Decision::Choose(choice) => Phase::Choose(choice),
        }
    }

    /// The penalty waiting for an answer, if any.
    pub fn penalty(&self) -> Option<&Penalty> {
        match self {
            Phase::Answer(p) => Some(p),
            _ => None,
        }
    }
}

/// How the top card of the discard pile came to be there, while no turn
/// action has happened since (the Jump-In window, rules.md 8.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Landing {
    /// A turn action has happened since the top card landed.
    #[default]
    Settled,
    /// The top card was turned up (the first discard, or a scenario's top).
    TurnedUp,
    /// This seat played the top card.
    PlayedBy(Seat),
}

impl Landing {
    /// Has no turn action happened since the top card landed?
    pub fn is_fresh(self) -> bool {
        self != Landing::Settled
    }

    pub fn player(self) -> Option<Seat> {
        match self {
            Landing::PlayedBy(seat) => Some(seat),
            _ => None,
        }
    }
}

/// What the first-discard hook decided about the turned-up card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum FirstDiscard {
    #[default]
    Keep,
    /// Put it back into the draw pile, reshuffle, and turn another.
    Redraw,
    /// Leave it and turn the next card onto it.
    TurnNext,
}

/// One change an effect hook made to the table or the turn plan. Replaying
/// the ops a hook recorded has exactly the effect of running it again.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Op {
    Skip(usize),
    Reverse,
    SetNext(Seat),
    Penalty(Penalty),
    AskColor(Seat),
    SetColor(Color),
    SetPower(Seat, bool),
    Flip,
    /// `seat` draws `count` cards at once; `drawn` says how many there were
    /// to draw (fewer when both piles run out), which the script was told.
    Draw {
        seat: Seat,
        count: u32,
        drawn: u32,
    },
    SwapHands(Seat, Seat),
    PassHands,
    /// A value of the match's state (`seat`: one seat's, else the table's);
    /// `None` forgets it.
    SetState {
        seat: Option<Seat>,
        name: Text,
        value: Option<ScriptValue>,
    },
    /// `seat` puts `cards` from its hand under the top of the discard pile
    /// (`discard`: one; `discard_all`: every card its selector picked), in
    /// one event.
    Discard {
        seat: Seat,
        cards: Vec<CardId>,
    },
    /// `card` moves from one hand to another.
    Give {
        from: Seat,
        to: Seat,
        card: CardId,
    },
    /// The draw pile, or the discard pile below its top, is shuffled.
    Shuffle {
        discard: bool,
    },
    /// `seat` leaves the hand; its cards go where `cards` says.
    Leave {
        seat: Seat,
        cards: LeftCards,
    },
    /// The hand ends now: `ranking` is its places from the winner down
    /// (the seats not named follow, see `Game::end_hand`).
    EndHand {
        ranking: Vec<Seat>,
    },
    /// A seat is asked to choose.
    Choose(Choice),
    FirstDiscard(FirstDiscard),
    Log(Text),
    /// One more for a script's counter (simulation statistics).
    Count(Text),
}

/// A decision an effect asked for, in the order the effects asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    Penalty(Penalty),
    AskColor(Seat),
    Choose(Choice),
}

/// How the turn moves on after a card, as its effects left it.
#[derive(Debug, Clone, Default)]
pub struct TurnPlan {
    pub skips: usize,
    pub next: Option<Seat>,
    /// What the effects ask for, in order: seldom more than one, kept
    /// inline (a plan is built for most plays).
    pub requests: smallvec::SmallVec<[Request; 1]>,
    pub first_discard: FirstDiscard,
    /// The hand ends, won by this seat: a rule ended it (`end_hand`), or
    /// emptied its hand.
    pub end_hand: Option<HandEnd>,
}

/// How a hand ends before its winner plays a last card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandEnd {
    /// The places a rule named, the winner first (at least the winner).
    pub ranking: Vec<Seat>,
    /// The winner's hand was emptied (else a rule ended the hand).
    pub went_out: bool,
}
