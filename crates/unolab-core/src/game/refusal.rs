//! Why an action is not allowed: one enum of ids, built without allocating
//! when move generation probes a candidate, and put into words only when
//! someone reads it (`Refusal::describe`, or `ActionError`'s `Display`).

use crate::card::{CardId, Color};
use crate::rules::RuleFailure;
use crate::rules::{CARD_SLOT, Why};
use crate::seat::Seat;
use crate::table::Table;
use crate::variant::{ActWhen, Variant};

/// Why an action is not allowed now. The table is unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    HandOver {
        winner: Seat,
    },
    NoSuchSeat(Seat),
    /// A card id that is not one of the deck's designs.
    NoSuchCard(CardId),
    NotHeld {
        seat: Seat,
        card: CardId,
    },
    NotYourTurn {
        seat: Seat,
        to_act: Seat,
    },
    MustNameColor {
        chooser: Seat,
    },
    MustAnswer {
        victim: Seat,
        challengeable: bool,
    },
    OnlyDrawnCard {
        drawn: CardId,
    },
    NoFlexSide {
        card: CardId,
    },
    NoMatch {
        card: CardId,
        flex_hint: bool,
    },
    NeedsColor {
        card: CardId,
    },
    NotAColorOfSide {
        color: Color,
    },
    OnlyWildsNameColors,
    /// A wild whose colour a rule names, not its player.
    RuleNamesColor {
        card: CardId,
    },
    TakesNoTarget {
        card: CardId,
        /// Its flex side takes one: the player may have meant it.
        flex_hint: bool,
    },
    NeedsTarget {
        card: CardId,
    },
    BadTarget {
        target: Seat,
    },
    /// A rule's hook said no, with its reason if it gave one.
    ByRule {
        what: &'static str,
        reason: Option<Why>,
    },
    AlreadyDrew {
        seat: Seat,
    },
    NothingToDraw,
    MustPlayOrDraw {
        seat: Seat,
    },
    NoPenalty,
    NotChallengeable,
    NoColorChoice,
    NoChoice,
    NoSuchOption {
        index: usize,
        options: usize,
    },
    MustChoose {
        chooser: Seat,
    },
    /// A seat that left the hand does nothing more in it.
    LeftTheHand {
        seat: Seat,
    },
    UnoNeedsOneCard {
        seat: Seat,
        cards: usize,
    },
    UnoAlreadyCalled {
        seat: Seat,
    },
    /// UNO called with a play that leaves more (or fewer) cards than one.
    UnoWithPlay {
        seat: Seat,
        left: usize,
    },
    CatchCalled {
        seat: Seat,
    },
    CatchTooLate {
        seat: Seat,
    },
    CatchNotOne {
        seat: Seat,
    },
    CatchSelf {
        seat: Seat,
    },
    /// No action of the rules has this index.
    NoSuchAction,
    /// A rule's action is taken when its `when:` says: on one's turn
    /// before drawing, or out of turn, never while a decision is owed.
    ActionNotNow {
        seat: Seat,
        when: ActWhen,
    },
    /// The action takes a card (or none), a target (or none), unlike what
    /// was given.
    ActionShape {
        action: u8,
    },
}

impl Refusal {
    /// The refusal in words, at the table where it was refused, with cards
    /// and colours in the variant's notation.
    pub fn describe(&self, variant: &Variant, table: &Table) -> String {
        let side = table.side;
        let card = |id: &CardId| variant.face_name(*id, side);
        let colors = || variant.colors_of(side).map(|c| variant.names.color_name(c)).collect::<Vec<_>>().join(", ");
        match self {
            Refusal::HandOver { winner } => format!("the hand is over: p{winner} went out"),
            Refusal::NoSuchSeat(seat) => format!("there is no player {seat}"),
            Refusal::NoSuchCard(id) => format!("there is no card {} in this deck", id.0),
            Refusal::NotHeld { seat, card: id } => format!("p{seat} holds no {}", card(id)),
            Refusal::NotYourTurn { seat, to_act } => format!("it is p{to_act}'s turn, not p{seat}'s"),
            Refusal::MustNameColor { chooser } => format!("p{chooser} must first name a colour"),
            Refusal::MustAnswer { victim, challengeable } => format!(
                "p{victim} must first answer the penalty (accept{})",
                if *challengeable { " or challenge" } else { "" }
            ),
            Refusal::OnlyDrawnCard { drawn } => {
                format!("after drawing, only the drawn card ({}) may be played", card(drawn))
            }
            Refusal::NoFlexSide { card: id } => format!("{} has no flex side", card(id)),
            Refusal::NoMatch { card: id, flex_hint } => format!(
                "{} does not match {} (colour in play: {}){}",
                card(id),
                table.top().map(|t| card(&t)).unwrap_or_default(),
                table.color.map_or("none", |c| variant.names.color_name(c)),
                if *flex_hint { " (it matches by its flex colour only: play it as flex)" } else { "" }
            ),
            Refusal::NeedsColor { card: id } => format!("name a colour for {} (one of {})", card(id), colors()),
            Refusal::NotAColorOfSide { color } => {
                format!("{} is not a colour of the {} side", variant.names.color_name(*color), side.name())
            }
            Refusal::OnlyWildsNameColors => "only a wild card names a colour".into(),
            Refusal::RuleNamesColor { card: id } => {
                format!("{} names no colour when played: the rules have someone name it", card(id))
            }
            Refusal::TakesNoTarget { card: id, flex_hint } => format!(
                "{} takes no target{}",
                card(id),
                if *flex_hint { " (its flex side does: play it as flex)" } else { "" }
            ),
            Refusal::NeedsTarget { card: id } => format!("{} needs a target player", card(id)),
            Refusal::BadTarget { target } => format!("p{target} is no target: aim at another player at the table"),
            Refusal::ByRule { reason: Some(Why { text, card: Some((id, side)) }), .. } => {
                text.replace(CARD_SLOT, &variant.face_name(*id, *side))
            }
            Refusal::ByRule { reason: Some(Why { text, card: None }), .. } => text.to_string(),
            Refusal::ByRule { what, reason: None } => format!("{what} is not allowed now"),
            Refusal::AlreadyDrew { seat } => format!("p{seat} has drawn already: play the drawn card or pass"),
            Refusal::NothingToDraw => "there is nothing left to draw: pass instead".into(),
            Refusal::MustPlayOrDraw { seat } => format!("p{seat} must play or draw before passing"),
            Refusal::NoPenalty => "no draw penalty is pending".into(),
            Refusal::NotChallengeable => "this penalty cannot be challenged".into(),
            Refusal::NoColorChoice => "no colour choice is pending".into(),
            Refusal::NoChoice => "no choice is pending".into(),
            Refusal::NoSuchOption { index, options } => {
                format!("there is no option {} (options: 1 to {options})", index + 1)
            }
            Refusal::MustChoose { chooser } => format!("p{chooser} must first choose"),
            Refusal::LeftTheHand { seat } => format!("p{seat} has left the hand"),
            Refusal::UnoNeedsOneCard { seat, cards } => format!("p{seat} holds {cards} cards: UNO is called with one"),
            Refusal::UnoAlreadyCalled { seat } => format!("p{seat} has called UNO already"),
            Refusal::UnoWithPlay { seat, left } => {
                format!("this play leaves p{seat} with {left} cards: UNO is called with one")
            }
            Refusal::CatchCalled { seat } => format!("p{seat} called UNO"),
            Refusal::CatchTooLate { seat } => format!("too late: the window to catch p{seat} has closed"),
            Refusal::CatchNotOne { seat } => format!("p{seat} does not hold exactly one card"),
            Refusal::CatchSelf { seat } => format!("p{seat} cannot catch themselves"),
            Refusal::NoSuchAction => "the rules declare no such action".into(),
            Refusal::ActionNotNow { seat, when } => match when {
                ActWhen::Turn => format!("p{seat} may take this action only on their turn, before drawing"),
                ActWhen::OutOfTurn => format!("p{seat} may take this action only when it is not their turn"),
                ActWhen::AnySeat => {
                    format!("p{seat} may take this action on their turn before drawing, or out of turn")
                }
            },
            Refusal::ActionShape { action } => match variant.actions.get(usize::from(*action)) {
                Some(a) => format!(
                    "{} takes {} and {}",
                    a.name,
                    if a.card { "a card of your hand" } else { "no card" },
                    if a.target { "a target player" } else { "no target" }
                ),
                None => "the rules declare no such action".into(),
            },
        }
    }
}

/// Why an action did not happen. The table is unchanged either way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActionError {
    /// The rules do not allow it now (with the words for it).
    Refused { refusal: Refusal, text: String },
    /// A rule failed while carrying it out.
    Rule(RuleFailure),
}

impl ActionError {
    /// A refusal, put into words at the table it was refused at.
    pub fn refused(refusal: Refusal, variant: &Variant, table: &Table) -> ActionError {
        let text = refusal.describe(variant, table);
        ActionError::Refused { refusal, text }
    }
}

impl std::fmt::Display for ActionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ActionError::Refused { text, .. } => write!(f, "refused: {text}"),
            ActionError::Rule(failure) => write!(f, "{failure}"),
        }
    }
}

impl From<RuleFailure> for ActionError {
    fn from(failure: RuleFailure) -> Self {
        ActionError::Rule(failure)
    }
}
