//! Legality, in one place. `Game::legal_moves` lists everything a seat may
//! do now (its turn, its answer to a decision, its out-of-turn plays, UNO
//! calls and catches); an action is legal when it is among them
//! (`Moves::contains`). `Game::validate` runs the same checks on one action
//! and says why it is refused; the generator is built from those checks,
//! so the two cannot disagree.

use std::ops::Range;

use crate::card::{CardId, Color, Face};
use crate::game::action::Act;
use crate::game::{Action, Checked, Game, Play, Refusal, Stop, askable};
use crate::rules::RuleFailure;
use crate::rules::Rules;
use crate::seat::Seat;
use crate::seat::seats_of;
use crate::table::Uno;
use crate::turn::Phase;
use crate::variant::{FaceKey, HookKind, TargetNeed};

/// A play the generator found legal. One per visible face: two cards that
/// differ only on their hidden side are the same choice (rules.md 4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayOption {
    /// The first card in the hand with this face.
    pub card: CardId,
    /// Its face in play.
    pub face: Face,
    pub as_flex: bool,
    pub target: Option<Seat>,
    /// A wild: the play names one of `Moves::colors_of_side`.
    pub names_color: bool,
}

impl PlayOption {
    /// The play, naming `color` if it is a wild.
    pub fn play(&self, seat: Seat, color: Color, uno: bool) -> Play {
        Play {
            seat,
            card: self.card,
            color: self.names_color.then_some(color),
            as_flex: self.as_flex,
            target: self.target,
            uno,
        }
    }
}

/// An action a rule declares that the seat may take now: one per visible
/// face of the cards it takes, and per target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActOption {
    /// Its index in `Variant::actions`.
    pub action: u8,
    /// The first card in the hand with this face, where it takes a card.
    pub card: Option<CardId>,
    pub face: Option<Face>,
    pub target: Option<Seat>,
}

impl ActOption {
    /// The action taken by `seat`.
    pub fn act(&self, seat: Seat) -> Act {
        Act { seat, action: self.action, card: self.card, target: self.target }
    }
}

/// Everything one seat may do now.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Moves {
    pub seat: Seat,
    pub plays: Vec<PlayOption>,
    pub draw: bool,
    pub pass: bool,
    pub accept: bool,
    pub challenge: bool,
    /// The colours the seat may name now (empty unless it owes the choice).
    pub name_color: Range<Color>,
    /// How many options the seat may choose from (0: it owes no choice).
    pub choose: usize,
    /// The seat drew a card it may play now, or keep by passing.
    pub drawn: bool,
    /// How many cards the seat holds (a play that leaves one may call UNO).
    pub held: usize,
    pub call_uno: bool,
    /// Seats this seat may catch.
    pub catch: Vec<Seat>,
    /// The colours of the side in play (what a wild may name).
    pub colors_of_side: Range<Color>,
    /// Actions the rules declare that the seat may take.
    pub acts: Vec<ActOption>,
}

impl Moves {
    pub(crate) fn reset(&mut self, seat: Seat, colors: Range<Color>) {
        self.seat = seat;
        self.plays.clear();
        self.draw = false;
        self.pass = false;
        self.accept = false;
        self.challenge = false;
        self.name_color = 0..0;
        self.choose = 0;
        self.drawn = false;
        self.held = 0;
        self.call_uno = false;
        self.catch.clear();
        self.acts.clear();
        self.colors_of_side = colors;
    }

    /// Can the seat do anything that moves the game on (not counting UNO
    /// calls and catches)?
    pub fn has_turn_action(&self) -> bool {
        !self.plays.is_empty()
            || self.draw
            || self.pass
            || self.accept
            || self.challenge
            || !self.name_color.is_empty()
            || self.choose > 0
            || !self.acts.is_empty()
    }

    /// Is `action` one of these moves? A play is matched by the face of its
    /// card (any card of the hand with that face, but after a draw the card
    /// drawn), its side and its target;
    /// `face_of` gives `None` for an id that is no card of the deck.
    pub fn contains(&self, action: &Action, face_of: impl Fn(CardId) -> Option<Face>) -> bool {
        if action.seat() != self.seat {
            return false;
        }
        match *action {
            Action::Play(play) => {
                let Some(face) = face_of(play.card) else { return false };
                (!play.uno || self.held == 2)
                    && self.plays.iter().any(|o| {
                        // After a draw, the card drawn itself.
                        (!self.drawn || o.card == play.card)
                            && o.face == face
                            && o.as_flex == play.as_flex
                            && o.target == play.target
                            && match play.color {
                                Some(c) => o.names_color && self.colors_of_side.contains(&c),
                                None => !o.names_color,
                            }
                    })
            }
            Action::Draw(_) => self.draw,
            Action::Pass(_) => self.pass,
            Action::Accept(_) => self.accept,
            Action::Challenge(_) => self.challenge,
            Action::NameColor(_, c) => self.name_color.contains(&c),
            Action::Choose(_, index) => index < self.choose,
            Action::CallUno(_) => self.call_uno,
            Action::Catch { target, .. } => self.catch.contains(&target),
            Action::Act(act) => {
                let face = match act.card {
                    Some(card) => match face_of(card) {
                        Some(face) => Some(face),
                        None => return false,
                    },
                    None => None,
                };
                self.acts.iter().any(|o| o.action == act.action && o.face == face && o.target == act.target)
            }
        }
    }
}

/// The choices (`Variant::choice`: designs) met so far in a hand, a bit
/// each, for decks of up to `DESIGNS` designs.
#[derive(Default)]
struct DesignsSeen([u64; 4]);

impl DesignsSeen {
    const DESIGNS: usize = 256;

    /// Marks `choice` met, and says whether it was met before.
    #[inline(always)]
    fn mark(&mut self, choice: CardId) -> bool {
        let (word, bit) = (usize::from(choice.0) / 64, 1u64 << (choice.0 % 64));
        let seen = self.0[word] & bit != 0;
        self.0[word] |= bit;
        seen
    }
}

/// How a seat stands to the play of a card now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Standing {
    /// It is the seat's turn (`drawn`: the card it drew, if any).
    Turn { drawn: Option<CardId> },
    /// The seat answers a penalty: only plays its rules allow.
    Answering,
    /// Anyone else: only out-of-turn plays its rules allow.
    OutOfTurn,
}

impl Standing {
    /// The card hook whose yes a play needs, standing so.
    fn asks(self) -> Option<HookKind> {
        match self {
            Standing::Turn { .. } => None,
            Standing::Answering => Some(HookKind::CanRespond),
            Standing::OutOfTurn => Some(HookKind::CanPlayOutOfTurn),
        }
    }
}

impl<R: Rules> Game<R> {
    /// The colours a wild may name now, as a range of colour indices.
    pub fn color_range(&self) -> Range<Color> {
        self.variant.colors_of(self.pos.table.side)
    }

    /// Fills `moves` with everything `seat` may do now. A script that fails
    /// while being asked is an error, not a refusal.
    pub fn legal_moves(&mut self, seat: Seat, moves: &mut Moves) -> Result<(), RuleFailure> {
        if !self.variant.has_predicates() {
            // No rule to ask: nothing to freeze the table for.
            return self.find_moves(seat, moves);
        }
        self.asking(|game| game.find_moves(seat, moves))
    }

    /// Is `action` among the moves of its seat (the rules asked as in
    /// `asking`)?
    pub(crate) fn among_moves(&mut self, action: &Action) -> Result<bool, RuleFailure> {
        let mut moves = std::mem::take(&mut self.scratch);
        let found = self.find_moves(action.seat(), &mut moves);
        let legal = found.map(|()| self.lists(&moves, action));
        self.scratch = moves;
        legal
    }

    /// Is `action` one of `moves`, worked out for the table as it is
    /// (`Moves::contains`, its cards' faces on the side in play)? A card id
    /// that names no card of the deck is not.
    pub fn lists(&self, moves: &Moves, action: &Action) -> bool {
        let (variant, side) = (&self.variant, self.pos.table.side);
        moves.contains(action, |card| variant.designs.get(usize::from(card.0)).map(|d| *d.face(side)))
    }

    /// Runs `questions`, which only ask the rules (predicates run, the
    /// table stays as it is): the table is frozen meanwhile, and the
    /// scripts asked share one action's time budget.
    pub(crate) fn asking<T>(&mut self, questions: impl FnOnce(&mut Game<R>) -> T) -> T {
        self.rules.freeze(self.pos.stamp, self.pos.log.events.len());
        self.rules.begin_action();
        let answer = questions(self);
        self.rules.end_action();
        self.rules.thaw();
        answer
    }

    fn find_moves(&mut self, seat: Seat, moves: &mut Moves) -> Result<(), RuleFailure> {
        moves.reset(seat, self.color_range());
        self.going_on()?;
        if seat >= self.players() || self.pos.table.winner().is_some() || !self.pos.table.playing(seat) {
            return Ok(());
        }
        let t = &self.pos.table;
        moves.held = t.hands[seat].len();
        moves.drawn = seat == t.current && matches!(t.phase(), Phase::Drawn(_));
        moves.call_uno = moves.held == 1 && t.uno.get(seat) != Uno::Called;
        moves.catch.extend(seats_of(t.exposed() & !(1 << seat) & !t.seats_out()));
        match t.phase() {
            Phase::NameColor { chooser } => {
                if *chooser == seat {
                    moves.name_color = self.color_range();
                }
                return Ok(());
            }
            Phase::Choose(choice) => {
                if choice.chooser == seat {
                    moves.choose = choice.options.len();
                }
                return Ok(());
            }
            Phase::Answer(p) if p.victim == seat => {
                moves.accept = true;
                moves.challenge = p.challenge.is_some();
            }
            _ => {}
        }
        ok(self.legal_plays(seat, moves))?;
        if seat == self.pos.table.current && matches!(self.pos.table.phase(), Phase::Turn | Phase::Drawn(_)) {
            moves.draw = ok(self.check_draw(seat, Some(&moves.plays)))?;
            moves.pass = ok(self.check_pass(seat, Some(&moves.plays)))?;
        }
        if !self.variant.actions.is_empty() {
            self.legal_acts(seat, &mut moves.acts)?;
        }
        Ok(())
    }

    /// The plays `seat` may make now, one per visible face, side and target.
    fn legal_plays(&mut self, seat: Seat, moves: &mut Moves) -> Checked<()> {
        let standing = match self.standing(seat) {
            Ok(standing) => standing,
            Err(Stop::Refuse(_)) => return Ok(()),
            Err(fail) => return Err(fail),
        };
        // Out of turn (or answering), a play needs a card that may match
        // (`plays_of_card`) and a rule's yes: where no card may match with
        // a rule to ask about it, or every such rule has said no before
        // looking at the card, no card is asked about.
        if let Some(kind) = standing.asks()
            && (!self.may_be_allowed(seat, kind) || self.refused_whatever_play(kind, seat))
        {
            if self.checks {
                self.prove_plays(seat, standing, &[], "a seat found to have no play has one");
            }
            return Ok(());
        }
        self.plays_by_card(seat, standing, moves)
    }

    /// The seats that might have a play out of turn now, a bit per seat. A
    /// seat's bit is clear only where `legal_moves` would list it no play,
    /// as known without asking a rule: it stands out of turn (neither the
    /// player to play nor one answering a penalty) and no card of its hand
    /// may match with a `can_play_out_of_turn` function to ask about it.
    /// Most of the time nobody may jump in, and this says so for every seat
    /// at once: the designs for the discard are looked up once, and each
    /// hand is read a word of cards at a time (`Hands::holding_any`).
    pub fn out_of_turn_chances(&mut self) -> u32 {
        // Asked for every seat, then again for each seat with a chance; the
        // table keeps its version `stamp` except while an action changes it.
        if let Some((stamp, chances)) = self.chances
            && stamp == self.pos.stamp
            && !self.changing
        {
            return chances;
        }
        let t = &mut self.pos.table;
        let kind = HookKind::CanPlayOutOfTurn;
        let designs = self.askable.designs(&self.variant, kind, t.side, t.top(), t.color);
        let seats = t.hands.seats();
        let in_turn = match t.phase() {
            _ if self.pos.stopped.is_some() => seats,
            Phase::Answer(p) => 1 << t.current | 1 << p.victim,
            _ => 1 << t.current,
        };
        let chances = (in_turn | t.hands.holding_any(seats & !in_turn, designs)) & seats;
        if self.checks {
            assert!(
                seats_of(seats & !in_turn).all(|seat| {
                    let may_ask =
                        |&card: &CardId| askable::may_ask(&self.variant, kind, card, t.side, t.top(), t.color);
                    (chances >> seat & 1 != 0) == t.hands[seat].iter().any(may_ask)
                }),
                "the designs worked out for the discard are those each card's check finds"
            );
        }
        self.chances = (!self.changing).then_some((self.pos.stamp, chances));
        chances
    }

    /// Might `seat`, standing so that a play needs a function of the hook
    /// `kind` to say yes, have a play? Out of turn, its bit of the chances
    /// worked out for every seat; answering, `may_be_allowed_any`.
    fn may_be_allowed(&mut self, seat: Seat, kind: HookKind) -> bool {
        match kind {
            HookKind::CanPlayOutOfTurn => self.out_of_turn_chances() >> seat & 1 != 0,
            _ => self.may_be_allowed_any(seat, kind),
        }
    }

    /// Does any card of `seat`'s hand match the discard pile on some side,
    /// or may a hook grant it (`FaceKey::may_match`), with a function of
    /// the hook `kind` to ask about it now? Looked up among the designs
    /// worked out for the discard (`Askable`), a word of the cards held at
    /// a time (`Hands::holding_any`).
    fn may_be_allowed_any(&mut self, seat: Seat, kind: HookKind) -> bool {
        let t = &mut self.pos.table;
        let designs = self.askable.designs(&self.variant, kind, t.side, t.top(), t.color);
        let any = t.hands.holding_any(1 << seat, designs) != 0;
        if self.checks {
            assert_eq!(
                any,
                t.hands[seat].iter().any(|&card| askable::may_ask(&self.variant, kind, card, t.side, t.top(), t.color)),
                "the designs worked out for the discard are those each card's check finds"
            );
        }
        any
    }

    /// The plays `seat`, standing so, may make now, each card of its hand
    /// asked about.
    fn plays_by_card(&mut self, seat: Seat, standing: Standing, moves: &mut Moves) -> Checked<()> {
        let discard = self.discard_key();
        // After a draw, only the card drawn may be played (`check_standing`),
        // whatever else the hand holds with its face.
        if let Standing::Turn { drawn: Some(drawn) } = standing {
            return self.plays_of_card(seat, standing, drawn, discard, &mut moves.plays);
        }
        // Choices met so far (a design), where a bit per design fits: one
        // check per visible face (`Variant::choice`; one-sided, a design).
        let mut designs_seen = DesignsSeen::default();
        let few_designs = self.variant.designs.len() <= DesignsSeen::DESIGNS;
        // In turn, the plain cards of a one-sided hand need nothing but
        // matching: they are matched a run at a time (`plain_plays`), and
        // the others asked about one by one.
        let runs = standing == (Standing::Turn { drawn: None }) && few_designs && !self.variant.double_sided;
        let side = self.pos.table.side;
        let mut index = 0;
        loop {
            if runs {
                index = self.plain_plays(seat, index, discard, &mut designs_seen, &mut moves.plays);
            }
            let hand = &self.pos.table.hands[seat];
            let Some(&card) = hand.get(index) else { break };
            let choice = self.variant.choice(card, side);
            let seen = if few_designs {
                designs_seen.mark(choice)
            } else {
                hand[..index].iter().any(|&other| self.variant.choice(other, side) == choice)
            };
            if !seen {
                self.plays_of_card(seat, standing, card, discard, &mut moves.plays)?;
            }
            index += 1;
        }
        if self.checks && runs {
            let found = std::mem::take(&mut moves.plays);
            self.prove_plays(seat, standing, &found, "the plays matched in runs are those of the general checks");
            moves.plays = found;
        }
        Ok(())
    }

    /// Adds the plays in turn of the plain cards of a one-sided hand of
    /// `seat` from `from` on (`FaceKey::plain`: nothing but matching
    /// decides), one per design (marked in `designs_seen`), up to the next
    /// card that is not plain: its index (or the hand's length).
    fn plain_plays(
        &self,
        seat: Seat,
        from: usize,
        (color, top): (Option<Color>, Option<FaceKey>),
        designs_seen: &mut DesignsSeen,
        out: &mut Vec<PlayOption>,
    ) -> usize {
        let (hand, side) = (&self.pos.table.hands[seat], self.pos.table.side);
        for (index, &card) in hand.iter().enumerate().skip(from) {
            let key = self.variant.face_key(card, side);
            if !key.plain {
                return index;
            }
            if !designs_seen.mark(card) && key.matches(color, top) {
                out.push(self.plain_option(card, key));
            }
        }
        hand.len()
    }

    /// The play of a plain card (`FaceKey::plain`, keyed `key`) as it is:
    /// its regular side, no target.
    fn plain_option(&self, card: CardId, key: FaceKey) -> PlayOption {
        PlayOption { card, face: *self.face(card), as_flex: false, target: None, names_color: key.names_color }
    }

    /// What a plain play in turn must match, packed: the colour in play
    /// and the top card.
    fn discard_key(&self) -> (Option<Color>, Option<FaceKey>) {
        (self.pos.table.color, self.pos.table.top().map(|top| self.variant.face_key(top, self.pos.table.side)))
    }

    /// Adds the plays of `card` that `seat` may make now; `discard` is
    /// `discard_key`.
    #[inline(always)]
    fn plays_of_card(
        &mut self,
        seat: Seat,
        standing: Standing,
        card: CardId,
        (color, top): (Option<Color>, Option<FaceKey>),
        out: &mut Vec<PlayOption>,
    ) -> Checked<()> {
        let key = self.variant.face_key(card, self.pos.table.side);
        let in_turn = || matches!(standing, Standing::Turn { drawn } if drawn.is_none_or(|drawn| drawn == card));
        if key.plain && in_turn() {
            // The common case, kept short: nothing but matching decides.
            let matches = key.matches(color, top);
            if self.checks {
                self.prove_plain(seat, standing, card, matches);
            }
            if matches {
                out.push(self.plain_option(card, key));
            }
            Ok(())
        } else if !key.may_match(color, top) {
            if self.checks {
                self.prove_card(seat, standing, card, &[], "a card that may match was passed over");
            }
            Ok(())
        } else if let Some(kind) = standing.asks()
            && self.refused_plainly(kind, seat, card)
        {
            // Out of turn or answering, a play needs a rule's yes: the
            // memo knows every rule refuses it, so no general check is made.
            if self.checks {
                self.prove_card(seat, standing, card, &[], "a card every rule refuses has a play");
            }
            Ok(())
        } else if key.regular_plain && in_turn() {
            // Matching alone decides the regular side: only the flex side is
            // asked about, where its colour or the regular side matches.
            let regular = key.matches(color, top);
            let from = out.len();
            if regular {
                out.push(self.plain_option(card, key));
            }
            if regular || key.flex_matches(color) {
                match self.flex_side_allowed(seat, card) {
                    Some(true) => self.flex_side_plays(seat, card, key, out),
                    Some(false) => {}
                    None => self.plays_of(seat, standing, card, &[true], out)?,
                }
            }
            if self.checks {
                let found = out[from..].to_vec();
                self.prove_card(seat, standing, card, &found, "the regular side matched alone, the flex side asked");
            }
            Ok(())
        } else {
            self.plays_of(seat, standing, card, &[false, true], out)
        }
    }

    /// The plays `seat`, standing so, may make now, each card of its hand
    /// (one per visible face) asked about through the general checks
    /// (`plays_of`), none passed over: what the fast paths are proven
    /// against (`Game::set_checks`). `None` where a rule failed.
    #[cold]
    fn general_plays(&mut self, seat: Seat, standing: Standing) -> Option<Vec<PlayOption>> {
        let (side, hand) = (self.pos.table.side, self.pos.table.hands[seat].clone());
        let cards: Vec<CardId> = match standing {
            Standing::Turn { drawn: Some(drawn) } => vec![drawn],
            _ => hand
                .iter()
                .enumerate()
                .filter(|&(index, &card)| {
                    !hand[..index]
                        .iter()
                        .any(|&other| self.variant.choice(other, side) == self.variant.choice(card, side))
                })
                .map(|(_, &card)| card)
                .collect(),
        };
        let mut plays = Vec::new();
        for card in cards {
            self.plays_of(seat, standing, card, &[false, true], &mut plays).ok()?;
        }
        Some(plays)
    }

    /// The plays a fast path `found` for `seat` are those of the general
    /// checks (`general_plays`); a disagreement panics, saying `what`.
    #[cold]
    #[inline(never)]
    fn prove_plays(&mut self, seat: Seat, standing: Standing, found: &[PlayOption], what: &str) {
        if let Some(general) = self.general_plays(seat, standing) {
            assert_eq!(found, general, "{what}");
        }
    }

    /// The plays of `card` a fast path `found` are those of the general
    /// checks; a disagreement panics, saying `what`.
    #[cold]
    #[inline(never)]
    fn prove_card(&mut self, seat: Seat, standing: Standing, card: CardId, found: &[PlayOption], what: &str) {
        let mut general = Vec::new();
        if self.plays_of(seat, standing, card, &[false, true], &mut general).is_ok() {
            assert_eq!(found, general, "{what}");
        }
    }

    /// The general checks agree with matching a plain card alone (its
    /// packed face, `matches`): a proof of the fast path
    /// (`Game::set_checks`).
    #[cold]
    #[inline(never)]
    fn prove_plain(&mut self, seat: Seat, standing: Standing, card: CardId, matches: bool) {
        assert_eq!(matches, self.pos.table.matches(&self.variant, self.face(card), false), "a plain card's match");
        let play = Play {
            color: self.variant.names.names_color(self.face(card)).then_some(self.color_range().start),
            ..Play::new(seat, card)
        };
        assert_eq!(
            matches,
            self.check_play_as(standing, &play, false).is_ok(),
            "a plain card matched alone is a play the general checks allow"
        );
    }

    /// Adds the plays of the flex side of `card` (keyed `key`) by `seat`, a
    /// side its rules allow at every target it may take
    /// (`flex_side_allowed`): one a target, as `plays_of` adds them.
    fn flex_side_plays(&self, seat: Seat, card: CardId, key: FaceKey, out: &mut Vec<PlayOption>) {
        let face = *self.face(card);
        let need = self.target_need(seat, card, true);
        for target in targets(need, seat, self.players(), self.pos.table.seats_out()) {
            out.push(PlayOption { card, face, as_flex: true, target, names_color: key.names_color });
        }
    }

    /// Adds the plays of `card` that `seat` may make now: on each of the
    /// `sides` (flex or not) it has, each target. The checks are those of
    /// `check_play_as`, cheapest first: the play's shape (which no script is
    /// asked about), then the rules' hooks; a card that does not match is
    /// asked about only where a hook may grant it.
    fn plays_of(
        &mut self,
        seat: Seat,
        standing: Standing,
        card: CardId,
        sides: &[bool],
        out: &mut Vec<PlayOption>,
    ) -> Checked<()> {
        let side = self.pos.table.side;
        let face = *self.face(card);
        let players = self.players();
        let grants = self.variant.grants(card, side);
        let names_color = self.variant.names.names_color(&face);
        for &as_flex in sides {
            if (as_flex && !self.variant.names.has_flex_side(&face))
                || (!grants && !self.pos.table.matches(&self.variant, &face, as_flex))
            {
                continue;
            }
            let need = self.target_need(seat, card, as_flex);
            let color = names_color.then_some(self.color_range().start);
            // Where the play may aim at several seats and the rules' answer
            // does not depend on which, the memo may know it once for all.
            let refused_whatever_target = match need {
                TargetNeed::None => None,
                _ if grants => None,
                _ => self.refused_whatever_target(
                    HookKind::CanPlay,
                    &Play { seat, card, color, as_flex, target: None, uno: false },
                ),
            };
            for target in targets(need, seat, players, self.pos.table.seats_out()) {
                let play = Play { seat, card, color, as_flex, target, uno: false };
                debug_assert_eq!(self.check_shape(&play), Ok(()));
                let checked = if grants {
                    self.check_play_as(standing, &play, false)
                } else {
                    self.check_standing(standing, &play).and_then(|_| match refused_whatever_target {
                        Some(refused) => {
                            if self.checks {
                                assert_eq!(
                                    refused,
                                    self.card_verdicts(HookKind::CanPlay, &play, false).is_err(),
                                    "what the rules say whatever the target is what they say of this one"
                                );
                            }
                            if refused { refuse(Refusal::ByRule { what: "this play", reason: None }) } else { Ok(()) }
                        }
                        None => self.card_verdicts(HookKind::CanPlay, &play, false).map(drop),
                    })
                };
                match checked {
                    Ok(()) => out.push(PlayOption { card, face, as_flex, target, names_color }),
                    Err(Stop::Refuse(_)) => {}
                    Err(fail) => return Err(fail),
                }
            }
        }
        Ok(())
    }

    /// The plays (one per visible face, side and target) `seat` could make
    /// now.
    fn playable_plays(&mut self, seat: Seat) -> Checked<Vec<PlayOption>> {
        let mut moves = Moves::default();
        self.legal_plays(seat, &mut moves)?;
        Ok(moves.plays)
    }

    /// Could `seat` play `card` now (on either side, at some target)?
    pub(crate) fn can_play_card(&mut self, seat: Seat, card: CardId) -> Result<bool, RuleFailure> {
        let mut plays = std::mem::take(&mut self.scratch.plays);
        plays.clear();
        let discard = self.discard_key();
        let found =
            self.standing(seat).and_then(|standing| self.plays_of_card(seat, standing, card, discard, &mut plays));
        let playable = !plays.is_empty();
        self.scratch.plays = plays;
        ok(found).map(|_| playable)
    }

    fn face(&self, card: CardId) -> &Face {
        self.variant.face(card, self.pos.table.side)
    }

    /// Why `action` is refused now, or `Ok` if it is allowed.
    pub(crate) fn validate(&mut self, action: &Action) -> Checked<()> {
        if let Some(winner) = self.pos.table.winner() {
            return refuse(Refusal::HandOver { winner });
        }
        let seat = action.seat();
        if seat >= self.players() {
            return refuse(Refusal::NoSuchSeat(seat));
        }
        if !self.pos.table.playing(seat) {
            return refuse(Refusal::LeftTheHand { seat });
        }
        match *action {
            Action::Play(play) => self.check_play(&play),
            Action::Draw(seat) => self.check_draw(seat, None),
            Action::Pass(seat) => self.check_pass(seat, None),
            Action::Accept(seat) => self.check_answer(seat).map(drop),
            Action::Challenge(seat) => match self.check_answer(seat)? {
                true => Ok(()),
                false => refuse(Refusal::NotChallengeable),
            },
            Action::NameColor(seat, color) => match *self.pos.table.phase() {
                Phase::NameColor { chooser } if chooser == seat => {
                    if self.color_range().contains(&color) {
                        Ok(())
                    } else {
                        refuse(Refusal::NotAColorOfSide { color })
                    }
                }
                Phase::NameColor { chooser } => refuse(Refusal::NotYourTurn { seat, to_act: chooser }),
                _ => refuse(Refusal::NoColorChoice),
            },
            Action::Choose(seat, index) => match self.pos.table.phase() {
                Phase::Choose(choice) if choice.chooser == seat && index < choice.options.len() => Ok(()),
                Phase::Choose(choice) if choice.chooser == seat => {
                    refuse(Refusal::NoSuchOption { index, options: choice.options.len() })
                }
                Phase::Choose(choice) => refuse(Refusal::NotYourTurn { seat, to_act: choice.chooser }),
                _ => refuse(Refusal::NoChoice),
            },
            Action::CallUno(seat) => match (self.pos.table.hands[seat].len(), self.pos.table.uno.get(seat)) {
                (1, Uno::Called) => refuse(Refusal::UnoAlreadyCalled { seat }),
                (1, _) => Ok(()),
                (cards, _) => refuse(Refusal::UnoNeedsOneCard { seat, cards }),
            },
            Action::Act(act) => self.check_act(&act, true),
            Action::Catch { by, target } => {
                if target >= self.players() {
                    return refuse(Refusal::NoSuchSeat(target));
                }
                let state = self.pos.table.uno.get(target);
                match state {
                    _ if by == target => refuse(Refusal::CatchSelf { seat: by }),
                    Uno::Exposed => Ok(()),
                    Uno::Called => refuse(Refusal::CatchCalled { seat: target }),
                    Uno::Missed => refuse(Refusal::CatchTooLate { seat: target }),
                    Uno::None => refuse(Refusal::CatchNotOne { seat: target }),
                }
            }
        }
    }

    /// A decision that must be made before anything else happens, as a
    /// refusal of everything else.
    #[inline(always)]
    pub(crate) fn owed_decision(&self) -> Checked<()> {
        match self.pos.table.phase() {
            Phase::NameColor { chooser } => refuse(Refusal::MustNameColor { chooser: *chooser }),
            Phase::Answer(p) => refuse(Refusal::MustAnswer { victim: p.victim, challengeable: p.challenge.is_some() }),
            Phase::Choose(choice) => refuse(Refusal::MustChoose { chooser: choice.chooser }),
            _ => Ok(()),
        }
    }

    /// May `seat` answer the penalty now? `Ok(challengeable)` if so.
    fn check_answer(&self, seat: Seat) -> Checked<bool> {
        match self.pos.table.phase() {
            Phase::Answer(p) if p.victim == seat => Ok(p.challenge.is_some()),
            Phase::Answer(p) => refuse(Refusal::NotYourTurn { seat, to_act: p.victim }),
            _ => refuse(Refusal::NoPenalty),
        }
    }

    /// Is it `seat`'s turn to play, draw or pass?
    #[inline(always)]
    fn check_turn(&self, seat: Seat) -> Checked<()> {
        self.owed_decision()?;
        if seat != self.pos.table.current {
            return refuse(Refusal::NotYourTurn { seat, to_act: self.pos.table.current });
        }
        Ok(())
    }

    /// May `seat` draw now? `plays`: its legal plays, when listing moves.
    #[inline(always)]
    fn check_draw(&mut self, seat: Seat, plays: Option<&[PlayOption]>) -> Checked<()> {
        self.check_turn(seat)?;
        if self.pos.table.drawn().is_some() {
            return refuse(Refusal::AlreadyDrew { seat });
        }
        if !self.pos.table.can_draw() {
            return refuse(Refusal::NothingToDraw);
        }
        self.check_turn_hooks(HookKind::CanDraw, seat, plays, "drawing")
    }

    /// May `seat` pass now? `plays`: its legal plays, when listing moves.
    #[inline(always)]
    fn check_pass(&mut self, seat: Seat, plays: Option<&[PlayOption]>) -> Checked<()> {
        self.check_turn(seat)?;
        if self.pos.table.drawn().is_none() && self.pos.table.can_draw() {
            return refuse(Refusal::MustPlayOrDraw { seat });
        }
        self.check_turn_hooks(HookKind::CanPass, seat, plays, "passing")
    }

    #[inline(always)]
    fn check_turn_hooks(
        &mut self,
        kind: HookKind,
        seat: Seat,
        plays: Option<&[PlayOption]>,
        what: &'static str,
    ) -> Checked<()> {
        if self.variant.global_hook(kind).is_empty() {
            return Ok(());
        }
        self.ask_turn_hooks(kind, seat, plays, what)
    }

    /// `check_turn_hooks` where a hook of `kind` is bound.
    #[inline(never)]
    fn ask_turn_hooks(
        &mut self,
        kind: HookKind,
        seat: Seat,
        plays: Option<&[PlayOption]>,
        what: &'static str,
    ) -> Checked<()> {
        // The plays are known when listing moves, which drops a refusal
        // unread; validation works them out and keeps the reason.
        let mut playable = std::mem::take(&mut self.playable);
        let why = plays.is_none();
        playable.clear();
        match plays {
            Some(plays) => cards_of(plays, &mut playable),
            None => cards_of(&self.playable_plays(seat)?, &mut playable),
        }
        let verdict = self.global_verdicts(kind, seat, &mut playable, (what, why));
        self.playable = playable;
        verdict
    }

    /// How `seat` stands to playing a card now, or why it may play nothing.
    fn standing(&mut self, seat: Seat) -> Checked<Standing> {
        let in_turn = seat == self.pos.table.current;
        match self.pos.table.phase() {
            Phase::Over { ranking } => refuse(Refusal::HandOver { winner: ranking[0] }),
            Phase::NameColor { chooser } => refuse(Refusal::MustNameColor { chooser: *chooser }),
            Phase::Choose(choice) => refuse(Refusal::MustChoose { chooser: choice.chooser }),
            Phase::Answer(p) if p.victim == seat => {
                if self.variant.has_hook(HookKind::CanRespond) {
                    Ok(Standing::Answering)
                } else {
                    self.owed_decision().map(|()| Standing::Answering)
                }
            }
            Phase::Answer(p) if !self.variant.has_hook(HookKind::CanPlayOutOfTurn) => {
                refuse(Refusal::MustAnswer { victim: p.victim, challengeable: p.challenge.is_some() })
            }
            Phase::Answer(_) => Ok(Standing::OutOfTurn),
            Phase::Turn if in_turn => Ok(Standing::Turn { drawn: None }),
            Phase::Drawn(card) if in_turn => Ok(Standing::Turn { drawn: Some(*card) }),
            Phase::Turn | Phase::Drawn(_) if self.variant.has_hook(HookKind::CanPlayOutOfTurn) => {
                Ok(Standing::OutOfTurn)
            }
            Phase::Turn | Phase::Drawn(_) => refuse(Refusal::NotYourTurn { seat, to_act: self.pos.table.current }),
        }
    }

    /// Checks a play without changing anything.
    pub(crate) fn check_play(&mut self, play: &Play) -> Checked<()> {
        // An id from outside (a library caller) may name no card at all.
        if usize::from(play.card.0) >= self.variant.designs.len() {
            return refuse(Refusal::NoSuchCard(play.card));
        }
        if !self.pos.table.hands[play.seat].contains(&play.card) {
            return refuse(Refusal::NotHeld { seat: play.seat, card: play.card });
        }
        let held = self.pos.table.hands[play.seat].len();
        if play.uno && held != 2 {
            return refuse(Refusal::UnoWithPlay { seat: play.seat, left: held - 1 });
        }
        let standing = self.standing(play.seat)?;
        self.check_play_as(standing, play, true)
    }

    /// The full check of a play for a seat standing so, in the order its
    /// refusals are reported. A card that does not match may still be played
    /// where a rule's hook bound with `grants: true` answers "allow".
    /// `why`: keep a rule's reason (not when listing moves).
    fn check_play_as(&mut self, standing: Standing, play: &Play, why: bool) -> Checked<()> {
        let mut allowed = self.check_standing(standing, play)?;
        let grants = self.variant.grants(play.card, self.pos.table.side);
        let face = self.face(play.card);
        if play.as_flex && !self.variant.names.has_flex_side(face) {
            return refuse(Refusal::NoFlexSide { card: play.card });
        }
        if !grants {
            self.matches(play).map_err(Stop::Refuse)?;
        }
        self.check_shape(play).map_err(Stop::Refuse)?;
        allowed |= self.card_verdicts(HookKind::CanPlay, play, why)?;
        if grants && !allowed {
            self.matches(play).map_err(Stop::Refuse)?;
        }
        Ok(())
    }

    /// May the seat play this card at all now: the drawn card after a draw,
    /// a card its rules let it answer with, a card its rules let it play out
    /// of turn? `Ok(true)`: a rule allowed it, matching or not.
    fn check_standing(&mut self, standing: Standing, play: &Play) -> Checked<bool> {
        let kind = match standing {
            Standing::Turn { drawn: Some(drawn) } if drawn != play.card => {
                return refuse(Refusal::OnlyDrawnCard { drawn });
            }
            Standing::Turn { .. } => return Ok(false),
            Standing::Answering => HookKind::CanRespond,
            Standing::OutOfTurn => HookKind::CanPlayOutOfTurn,
        };
        let asked = self.any_card_hook(kind, play)?;
        match asked {
            Some(allowed) => Ok(allowed),
            None if kind == HookKind::CanRespond => self.owed_decision().map(|()| false),
            None => {
                self.owed_decision()?;
                refuse(Refusal::NotYourTurn { seat: play.seat, to_act: self.pos.table.current })
            }
        }
    }

    /// Does the card match the discard pile (on the side played)?
    fn matches(&self, play: &Play) -> Result<(), Refusal> {
        let face = self.face(play.card);
        if self.pos.table.matches(&self.variant, face, play.as_flex) {
            return Ok(());
        }
        let flex_hint = !play.as_flex && face.flex.is_some() && face.flex == self.pos.table.color;
        Err(Refusal::NoMatch { card: play.card, flex_hint })
    }

    /// Whether a play by `seat` of `card` (its flex side with `as_flex`)
    /// takes a target: one required but for a last card (a 7's swap, which
    /// a card that goes out does not make: rules.md 1.6) is optional on the
    /// seat's last card.
    fn target_need(&self, seat: Seat, card: CardId, as_flex: bool) -> TargetNeed {
        match self.variant.target_need(card, self.pos.table.side, as_flex) {
            TargetNeed::RequiredButLast if self.pos.table.hands[seat].len() == 1 => TargetNeed::Optional,
            TargetNeed::RequiredButLast => TargetNeed::Required,
            need => need,
        }
    }

    /// The play's own shape, which no rule is asked about: the flex side
    /// exists, a wild names a colour of the side in play (unless a rule
    /// names it), a target is given where needed and is another player still
    /// in the hand.
    fn check_shape(&self, play: &Play) -> Result<(), Refusal> {
        let (seat, card) = (play.seat, play.card);
        let face = *self.face(card);
        if play.as_flex && !self.variant.names.has_flex_side(&face) {
            return Err(Refusal::NoFlexSide { card });
        }
        // A wild names a colour even as the last card: a last Wild Draw
        // Color still makes the next player draw until it (rules.md 4.10).
        match (self.variant.names.names_color(&face), play.color) {
            (true, None) => return Err(Refusal::NeedsColor { card }),
            (true, Some(color)) if !self.color_range().contains(&color) => {
                return Err(Refusal::NotAColorOfSide { color });
            }
            (false, Some(_)) if face.is_wild() => return Err(Refusal::RuleNamesColor { card }),
            (false, Some(_)) => return Err(Refusal::OnlyWildsNameColors),
            _ => {}
        }
        match (self.target_need(seat, card, play.as_flex), play.target) {
            (TargetNeed::None, Some(_)) => Err(Refusal::TakesNoTarget {
                card,
                flex_hint: !play.as_flex
                    && self.variant.target_need(card, self.pos.table.side, true) != TargetNeed::None,
            }),
            (TargetNeed::Required, None) => Err(Refusal::NeedsTarget { card }),
            (_, Some(target)) if target >= self.players() || target == seat || !self.pos.table.playing(target) => {
                Err(Refusal::BadTarget { target })
            }
            _ => Ok(()),
        }
    }
}

/// The targets a play by `seat` of a side that needs `need` may name, in
/// order: none, where it may name none; then every other seat still in the
/// hand (`seats_out`: a bit per seat out), at a table of `players`.
fn targets(need: TargetNeed, seat: Seat, players: usize, seats_out: u32) -> impl Iterator<Item = Option<Seat>> {
    let untargeted = (need != TargetNeed::Required).then_some(None);
    let aimed =
        (0..players).filter(move |&t| need != TargetNeed::None && t != seat && seats_out & (1 << t) == 0).map(Some);
    untargeted.into_iter().chain(aimed)
}

fn refuse<T>(refusal: Refusal) -> Checked<T> {
    Err(Stop::Refuse(refusal))
}

/// A check's outcome as a yes or no, keeping script failures.
#[inline(always)]
fn ok(result: Checked<()>) -> Result<bool, RuleFailure> {
    match result {
        Ok(()) => Ok(true),
        Err(Stop::Refuse(_)) => Ok(false),
        Err(Stop::Fail(failure)) => Err(failure),
    }
}

/// Adds the cards of `plays` to `cards`, each once: the plays of one card
/// (its sides and targets) come together.
fn cards_of(plays: &[PlayOption], cards: &mut Vec<CardId>) {
    cards.extend(plays.iter().map(|o| o.card));
    cards.dedup();
}
