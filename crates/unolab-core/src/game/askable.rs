//! Which cards a rule could be asked to let play now, by discard. Out of
//! turn, or answering a penalty, a play needs a card hook's yes, and after
//! most actions no card of any hand has a function to ask: the move
//! generator checks every other seat's hand for one
//! (`Game::out_of_turn_chances`, `Game::may_be_allowed_any`). Whether a
//! face has one depends on nothing but the variant, the hook and the
//! discard pile (the colour in play and the top card), so the answer for
//! every design is worked out once for each discard met, as a bit per
//! design, and a hand is then checked a word of cards at a time
//! (`Hands::holding_any`).

use crate::card::{CardId, Color, Side};
use crate::variant::{HookKind, TopNeed, Variant, slot};

/// The designs a card hook that needs a rule's yes may be asked about, by
/// hook, side, top card and colour in play: worked out as they are met.
#[derive(Debug, Default)]
pub(crate) struct Askable {
    /// 64-bit words of bits per entry: a bit per design.
    words: usize,
    /// Entries as `entry` numbers them: a word that says whether the entry
    /// is worked out yet, then its `words` words. Empty until first used.
    table: Vec<u64>,
}

impl Askable {
    /// The hooks asked about a play that needs a rule's yes
    /// (`Standing::asks`).
    const KINDS: [HookKind; 2] = [HookKind::CanRespond, HookKind::CanPlayOutOfTurn];

    /// A bit per design of `variant` (showing `side`): is a function of
    /// the card hook `kind` (one of `KINDS`) bound to its face, asked now
    /// that `top` is the top card, and may the face match the discard pile
    /// (`FaceKey::may_match`) with `color` in play?
    pub fn designs(
        &mut self,
        variant: &Variant,
        kind: HookKind,
        side: Side,
        top: Option<CardId>,
        color: Option<Color>,
    ) -> &[u64] {
        let designs = variant.designs.len();
        let colors = variant.names.colors.len() + 1;
        if self.table.is_empty() {
            self.make_room(designs, colors);
        }
        let kind_index = Self::KINDS.iter().position(|&k| k == kind);
        debug_assert!(kind_index.is_some(), "{} needs no rule's yes", kind.name());
        let top_index = top.map_or(0, |id| usize::from(id.0) + 1);
        let color_index = color.map_or(0, |c| usize::from(c) + 1);
        let entry = ((kind_index.unwrap_or(0) * 2 + usize::from(side == Side::Dark)) * (designs + 1) + top_index)
            * colors
            + color_index;
        let at = entry * (self.words + 1);
        if self.table[at] == 0 {
            self.work_out(at, variant, kind, side, top, color);
        }
        &self.table[at + 1..at + 1 + self.words]
    }

    /// Room for every entry, none worked out.
    #[cold]
    fn make_room(&mut self, designs: usize, colors: usize) {
        self.words = designs.div_ceil(64);
        let entries = Self::KINDS.len() * 2 * (designs + 1) * colors;
        self.table = vec![0; entries * (self.words + 1)];
    }

    /// Works out the entry at `at` (once per discard met).
    #[cold]
    fn work_out(
        &mut self,
        at: usize,
        variant: &Variant,
        kind: HookKind,
        side: Side,
        top: Option<CardId>,
        color: Option<Color>,
    ) {
        self.table[at] = 1;
        for id in (0..variant.designs.len()).map(|id| CardId(id as u16)) {
            if may_ask(variant, kind, id, side, top, color) {
                self.table[at + 1 + usize::from(id.0) / 64] |= 1 << (id.0 % 64);
            }
        }
    }
}

/// Is a function of the card hook `kind` bound to the face `card` shows on
/// `side`, asked now that `top` is the top card, and may the face match the
/// discard pile with `color` in play? Cheapest first: a function bound to
/// the face at all, then one that its relation to the top card lets be
/// asked, then matching.
pub(crate) fn may_ask(
    variant: &Variant,
    kind: HookKind,
    card: CardId,
    side: Side,
    top: Option<CardId>,
    color: Option<Color>,
) -> bool {
    let need = variant.card_hook_needs(kind)[slot(card, side)];
    let (key, top) = (variant.face_key(card, side), top.map(|id| variant.face_key(id, side)));
    need != TopNeed::NEVER && key.picked(need, top) && key.may_match(color, top)
}
