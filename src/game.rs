//! The game: actions, their validation, and the flow of a hand and a match.
//! Every action is checked before anything changes; an action that is
//! refused (or whose script fails) leaves the table exactly as it was.
//! Plain matching and number-card turns run natively; scripts run only where
//! the variant's layers bind a hook to the face in play.

use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rhai::Dynamic;

use crate::card::{CardId, Color, Face, Side};
use crate::event::{Event, Log, Seat};
use crate::notation::CardPattern;
use crate::script::{CallInfo, EffectKey, FirstDiscard, Runtime, ScriptFailure, TurnPlan, apply_op, verdict};
use crate::table::{DrawSpec, Penalty, Pending, Table, Uno};
use crate::variant::{HookKind, TargetNeed, Variant};

/// A card played: by the current player unless `player` says otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Play {
    pub player: Option<Seat>,
    pub card: CardId,
    pub color: Option<Color>,
    pub as_flex: bool,
    pub target: Option<Seat>,
    pub uno: bool,
}

impl Play {
    pub fn new(card: CardId) -> Play {
        Play { player: None, card, color: None, as_flex: false, target: None, uno: false }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Play(Play),
    Draw,
    Pass,
    Uno(Seat),
    Catch(Seat),
    Challenge,
    Accept,
    Color(Color),
}

/// Why an action did not happen. The table is unchanged either way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActionError {
    /// The rules do not allow it now.
    Refused(String),
    /// A script failed while carrying it out.
    Script(String),
}

impl std::fmt::Display for ActionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ActionError::Refused(why) => write!(f, "refused: {why}"),
            ActionError::Script(why) => write!(f, "{why}"),
        }
    }
}

impl From<ScriptFailure> for ActionError {
    fn from(failure: ScriptFailure) -> Self {
        ActionError::Script(failure.0)
    }
}

type Checked<T> = Result<T, ActionError>;

fn refuse<T>(why: impl Into<String>) -> Checked<T> {
    Err(ActionError::Refused(why.into()))
}

/// A hook's list of numbers, one per seat.
fn seat_numbers(value: Dynamic, players: usize, hook: &str) -> Checked<Vec<i64>> {
    let numbers: Option<Vec<i64>> = value.into_array().ok().and_then(|a| a.iter().map(|v| v.as_int().ok()).collect());
    match numbers {
        Some(list) if list.len() == players => Ok(list),
        _ => Err(ActionError::Script(format!("{hook} must return one number per player ({players})"))),
    }
}

/// Seat numbers a hook returned, checked.
fn seats(list: &[i64], players: usize) -> Checked<Vec<Seat>> {
    list.iter()
        .map(|&s| usize::try_from(s).ok().filter(|&s| s < players))
        .collect::<Option<Vec<Seat>>>()
        .ok_or_else(|| ActionError::Script(format!("match_winner returned a seat that is not at the table: {list:?}")))
}

/// One entry of a game's history: what `replay` needs to play it again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Record {
    Deal,
    Act(Action),
}

pub struct Game {
    pub variant: Arc<Variant>,
    runtime: Runtime,
    table: Table,
    backup: Table,
    log: Log,
    /// Deals and accepted actions, in order (kept while logging is on).
    history: Vec<Record>,
}

impl Game {
    /// A table of `players` seats with scores at zero; no hand dealt yet.
    pub fn new(runtime: Runtime, players: usize, seed: u64) -> Result<Game, String> {
        let variant = runtime.variant.clone();
        if players < variant.min_players || players > variant.max_players {
            return Err(format!(
                "{} is for {} to {} players, not {players}",
                variant.name, variant.min_players, variant.max_players
            ));
        }
        let table = Table::new(players, variant.power_cards > 0, ChaCha8Rng::seed_from_u64(seed));
        Ok(Game { backup: table.clone(), variant, runtime, table, log: Log::new(true), history: Vec::new() })
    }

    /// Starts over with a new seed and zero scores, keeping the compiled scripts.
    pub fn restart(&mut self, seed: u64) {
        let players = self.table.players();
        self.table = Table::new(players, self.variant.power_cards > 0, ChaCha8Rng::seed_from_u64(seed));
        self.log.events.clear();
        self.history.clear();
    }

    /// Switches the effect cache on or off (results are the same either way).
    pub fn set_effect_cache(&mut self, on: bool) {
        self.runtime.set_effect_cache(on);
    }

    pub fn set_logging(&mut self, enabled: bool) {
        self.log.enabled = enabled;
    }

    pub fn table(&self) -> &Table {
        &self.table
    }

    pub fn events(&self) -> &[Event] {
        &self.log.events
    }

    pub fn players(&self) -> usize {
        self.table.players()
    }

    /// Who must act now: the player owing a colour choice or facing a
    /// penalty, else the player whose turn it is.
    pub fn to_act(&self) -> Seat {
        match &self.table.pending {
            Some(Pending::Color { player, .. }) => *player,
            Some(Pending::Penalty(p)) => p.victim,
            None => self.table.current,
        }
    }

    pub fn hand_over(&self) -> bool {
        self.table.winner.is_some()
    }

    /// Deals a new hand: the dealer is random for the first hand and moves
    /// one seat to the left for each later one (rules.md 1.2 DEFAULT).
    pub fn deal(&mut self) -> Result<(), ActionError> {
        if self.log.enabled {
            self.history.push(Record::Deal);
        }
        let players = self.table.players();
        let dealer = if self.table.hand_number == 0 {
            rand::RngExt::random_range(&mut self.table.rng, 0..players)
        } else {
            (self.table.dealer + 1) % players
        };
        self.setup_hand(dealer);
        let mut deck = self.variant.deck.clone();
        self.table.shuffle(&mut deck);
        self.table.draw = deck;
        for round in 0..self.variant.hand_size {
            for offset in 1..=players {
                let seat = (dealer + offset) % players;
                if let Some(card) = self.table.draw.pop() {
                    self.table.hands[seat].push(card);
                }
                if round + 1 == self.variant.hand_size {
                    self.log.push(Event::Dealt { seat, cards: self.table.hands[seat].len() });
                }
            }
        }
        self.turn_first_discard()
    }

    /// Clears the table for a hand (scores and match state stay).
    pub fn setup_hand(&mut self, dealer: Seat) {
        let t = &mut self.table;
        t.hand_number += 1;
        t.dealer = dealer;
        t.current = (dealer + 1) % t.players();
        t.direction = Default::default();
        t.side = Side::Light;
        t.color = None;
        t.pending = None;
        t.drawn = None;
        t.winner = None;
        t.vars.clear();
        t.power.iter_mut().for_each(|g| *g = true);
        t.uno.iter_mut().for_each(|u| *u = Uno::None);
        t.hands.iter_mut().for_each(Vec::clear);
        t.draw.clear();
        t.discard.clear();
        self.log.push(Event::HandStarted { hand: t.hand_number, dealer });
    }

    /// Places a position directly (scenario setup): the caller guarantees the
    /// piles and hands hold exactly the deck.
    pub fn place(&mut self, f: impl FnOnce(&mut Table)) {
        f(&mut self.table);
        for seat in 0..self.table.players() {
            self.update_uno(seat);
        }
    }

    /// Turns up the first discard and applies the variant's first-discard rule.
    pub fn turn_first_discard(&mut self) -> Result<(), ActionError> {
        let dealer = self.table.dealer;
        self.table.current = self.table.seat_after(dealer, 1);
        let limit = self.variant.deck.len() * 2;
        for _ in 0..limit {
            let Some(card) = self.table.take_top(&mut self.log) else { break };
            self.table.discard.push(card);
            self.table.fresh_top = true;
            self.log.push(Event::TurnedUp { card });
            let face = *self.variant.face(card, self.table.side);
            self.table.color = face.color;
            let call = CallInfo { me: dealer, card: Some(card), ..CallInfo::default() };
            let plan = self.run_card_hooks(HookKind::FirstDiscard, card, call)?;
            match plan.first_discard {
                FirstDiscard::Redraw => {
                    self.table.discard.pop();
                    self.table.draw.push(card);
                    let mut pile = std::mem::take(&mut self.table.draw);
                    self.table.shuffle(&mut pile);
                    self.table.draw = pile;
                    self.log.push(Event::Buried { card });
                }
                FirstDiscard::TurnNext => {}
                FirstDiscard::Keep => {
                    self.finish_effects(dealer, plan, false, None)?;
                    break;
                }
            }
        }
        self.check_conservation();
        Ok(())
    }

    /// Carries out an action, or refuses it and changes nothing.
    pub fn apply(&mut self, action: Action) -> Result<(), ActionError> {
        if let Some(winner) = self.table.winner {
            return refuse(format!("the hand is over: p{winner} went out"));
        }
        self.backup.clone_from(&self.table);
        let mark = self.log.events.len();
        let result = self.dispatch(action);
        if result.is_err() {
            std::mem::swap(&mut self.table, &mut self.backup);
            self.log.events.truncate(mark);
        } else {
            self.check_conservation();
            if self.log.enabled {
                self.history.push(Record::Act(action));
            }
        }
        result
    }

    /// Every deal and accepted action so far.
    pub fn history(&self) -> &[Record] {
        &self.history
    }

    /// Plays a recorded history again from the same seed: the same game,
    /// event for event.
    pub fn replay(runtime: Runtime, players: usize, seed: u64, history: &[Record]) -> Result<Game, String> {
        let mut game = Game::new(runtime, players, seed)?;
        for (index, record) in history.iter().enumerate() {
            let result = match record {
                Record::Deal => game.deal(),
                Record::Act(action) => game.apply(*action),
            };
            result.map_err(|e| format!("step {} of the history: {e}", index + 1))?;
        }
        Ok(game)
    }

    fn check_conservation(&self) {
        debug_assert!(self.table.conserves(&self.variant), "cards are not conserved: {:?}", self.table);
    }

    fn dispatch(&mut self, action: Action) -> Checked<()> {
        match action {
            Action::Play(play) => self.play(play),
            Action::Draw => self.draw(),
            Action::Pass => self.pass(),
            Action::Uno(seat) => self.call_uno(seat),
            Action::Catch(seat) => self.catch(seat),
            Action::Challenge => self.challenge(),
            Action::Accept => self.accept(),
            Action::Color(color) => self.choose_color(color),
        }
    }

    // ----- checks -------------------------------------------------------

    fn face(&self, card: CardId) -> &Face {
        self.variant.face(card, self.table.side)
    }

    /// Does this face match the discard pile (colour, number or symbol; flex
    /// colour when played as flex)?
    pub fn matches(&self, face: &Face, as_flex: bool) -> bool {
        self.table.matches(&self.variant, face, as_flex)
    }

    /// Is `color` one of the colours of the side in play?
    pub fn color_in_play(&self, color: Color) -> bool {
        self.color_range().contains(&color)
    }

    /// The colours a wild may name now, as a range of colour indices.
    pub fn color_range(&self) -> std::ops::Range<Color> {
        self.variant.colors_of(self.table.side)
    }

    /// Checks a play without changing anything; returns the acting seat.
    pub fn check_play(&mut self, play: &Play) -> Checked<Seat> {
        let seat = play.player.unwrap_or_else(|| self.to_act());
        if seat >= self.players() {
            return refuse(format!("there is no player {seat}"));
        }
        let card = play.card;
        let side = self.table.side;
        if !self.table.hands[seat].contains(&card) {
            return refuse(format!("p{seat} holds no {}", self.variant.face_name(card, side)));
        }
        let mut out_of_turn = seat != self.table.current;
        match self.table.pending.clone() {
            Some(Pending::Color { player, .. }) => {
                return refuse(format!("p{player} must first name a colour"));
            }
            Some(Pending::Penalty(p)) if p.victim == seat => {
                out_of_turn = false;
                if !self.any_card_hook(HookKind::CanRespond, seat, play)? {
                    return self.require_no_pending().map(|()| seat);
                }
            }
            _ => {}
        }
        if out_of_turn && !self.any_card_hook(HookKind::CanPlayOutOfTurn, seat, play)? {
            return refuse(format!("it is p{}'s turn, not p{seat}'s", self.table.current));
        }
        if !out_of_turn
            && let Some(drawn) = self.table.drawn
            && drawn != card
        {
            return refuse(format!(
                "after drawing, only the drawn card ({}) may be played",
                self.variant.face_name(drawn, side)
            ));
        }
        let face = *self.face(card);
        if play.as_flex {
            if !self.variant.names.has_flex_side(&face) {
                return refuse(format!("{} has no flex side", self.variant.names.format_face(&face)));
            }
            if self.table.power.get(seat) == Some(&false) {
                return refuse(format!("p{seat}'s Power Card is red: no flex side until it is green again"));
            }
        }
        if !self.matches(&face, play.as_flex) {
            let hint = if !play.as_flex && face.flex.is_some() && face.flex == self.table.color {
                " (it matches by its flex colour only: play it as flex)"
            } else {
                ""
            };
            let top = self.table.top().map(|t| self.variant.face_name(t, side)).unwrap_or_default();
            let color =
                self.table.color.map(|c| self.variant.names.color_name(c).to_string()).unwrap_or_else(|| "none".into());
            return refuse(format!(
                "{} does not match {top} (colour in play: {color}){hint}",
                self.variant.names.format_face(&face)
            ));
        }
        // A wild names a colour even as the last card: a last Wild Draw
        // Color still makes the next player draw until it (rules.md 4.10).
        match (face.is_wild(), play.color) {
            (true, None) => {
                return refuse(format!(
                    "name a colour for {} (one of {})",
                    self.variant.names.format_face(&face),
                    self.color_list()
                ));
            }
            (true, Some(c)) if !self.color_in_play(c) => {
                return refuse(format!(
                    "{} is not a colour of the {} side",
                    self.variant.names.color_name(c),
                    side.name()
                ));
            }
            (false, Some(_)) => return refuse("only a wild card names a colour"),
            _ => {}
        }
        match (self.variant.target_need(card, side, play.as_flex), play.target) {
            (TargetNeed::None, Some(_)) => {
                return refuse(format!("{} takes no target", self.variant.names.format_face(&face)));
            }
            (TargetNeed::Required, None) => {
                return refuse(format!("{} needs a target player", self.variant.names.format_face(&face)));
            }
            (_, Some(target)) if target >= self.players() || target == seat => {
                return refuse(format!("target p{target} must be another player at the table"));
            }
            _ => {}
        }
        self.check_card_hooks(HookKind::CanPlay, seat, card, play)?;
        Ok(seat)
    }

    fn color_list(&self) -> String {
        self.color_range().map(|c| self.variant.names.color_name(c)).collect::<Vec<_>>().join(", ")
    }

    /// Runs predicate hooks bound to the card; every one must allow it.
    fn check_card_hooks(&mut self, kind: HookKind, seat: Seat, card: CardId, play: &Play) -> Checked<()> {
        let side = self.table.side;
        if self.variant.card_hook(kind, card, side).is_empty() {
            return Ok(());
        }
        let call = self.predicate_call(seat, Some(card), play.as_flex, play.target);
        let results = self.call_hooks_read_only(kind, card, call)?;
        for value in results {
            verdict(&value, "this play").map_err(ActionError::Refused)?;
        }
        Ok(())
    }

    /// Does any hook of this kind bound to the card say yes?
    fn any_card_hook(&mut self, kind: HookKind, seat: Seat, play: &Play) -> Checked<bool> {
        let card = play.card;
        if self.variant.card_hook(kind, card, self.table.side).is_empty() {
            return Ok(false);
        }
        let call = self.predicate_call(seat, Some(card), play.as_flex, play.target);
        let results = self.call_hooks_read_only(kind, card, call)?;
        Ok(results.iter().any(|v| v.as_bool() == Ok(true)))
    }

    fn predicate_call(&self, seat: Seat, card: Option<CardId>, as_flex: bool, target: Option<Seat>) -> CallInfo {
        CallInfo {
            me: seat,
            card,
            as_flex,
            target,
            going_out: false,
            prev_color: self.table.color,
            answering: match &self.table.pending {
                Some(Pending::Penalty(p)) => Some(p.clone()),
                _ => None,
            },
            read_only: true,
            playable: None,
        }
    }

    /// Lends the table to the scripts for `body`, and takes it back with the
    /// turn plan the hooks left, also when a script fails.
    fn with_scripts<T>(
        &mut self,
        call: CallInfo,
        body: impl FnOnce(&mut Runtime) -> Result<T, ScriptFailure>,
    ) -> Checked<(T, TurnPlan)> {
        self.runtime.lend(&mut self.table, &mut self.log, call);
        let result = body(&mut self.runtime);
        let plan = self.runtime.reclaim(&mut self.table, &mut self.log);
        Ok((result?, plan))
    }

    /// Calls the hooks of one kind bound to the card; returns their answers.
    fn call_hooks_read_only(&mut self, kind: HookKind, card: CardId, call: CallInfo) -> Checked<Vec<Dynamic>> {
        let side = self.table.side;
        let variant = self.variant.clone();
        let fns = variant.card_hook(kind, card, side);
        let (results, _) = self.with_scripts(call, |scripts| {
            fns.iter().map(|f| scripts.call(f, Runtime::card_args(card, side))).collect::<Result<Vec<_>, _>>()
        })?;
        Ok(results)
    }

    fn check_global_hooks(&mut self, kind: HookKind, what: &str) -> Checked<()> {
        let variant = self.variant.clone();
        let fns = variant.global_hook(kind);
        if fns.is_empty() {
            return Ok(());
        }
        let seat = self.table.current;
        let mut call = self.predicate_call(seat, None, false, None);
        call.playable = Some(self.playable_cards(seat));
        let (verdicts, _) = self.with_scripts(call, |scripts| {
            fns.iter().map(|f| scripts.call(f, ()).map(|v| verdict(&v, what))).collect::<Result<Vec<_>, _>>()
        })?;
        verdicts.into_iter().collect::<Result<(), String>>().map_err(ActionError::Refused)
    }

    /// Runs the effect hooks of one kind bound to the card, lending the table.
    fn run_card_hooks(&mut self, kind: HookKind, card: CardId, call: CallInfo) -> Checked<TurnPlan> {
        let side = self.table.side;
        let variant = self.variant.clone();
        let fns = variant.card_hook(kind, card, side);
        if fns.is_empty() {
            return Ok(TurnPlan::default());
        }
        let key = EffectKey {
            kind,
            card,
            side,
            me: call.me,
            as_flex: call.as_flex,
            target: call.target,
            going_out: call.going_out,
            players: self.players(),
            direction: self.table.direction,
        };
        if let Some(ops) = self.runtime.cached(&key) {
            let mut plan = TurnPlan::default();
            for op in ops.iter() {
                apply_op(&mut self.table, &mut self.log, &mut plan, &variant, op);
            }
            return Ok(plan);
        }
        let ((), plan) = self.with_scripts(call, |scripts| {
            fns.iter().try_for_each(|f| scripts.call(f, Runtime::card_args(card, side)).map(drop))?;
            scripts.remember(key);
            Ok(())
        })?;
        Ok(plan)
    }

    // ----- actions ------------------------------------------------------

    /// At a turn action, open UNO catch windows close (rules.md 1.5), and
    /// the top card is no longer "just played" (see `Table::last_player`).
    fn close_uno_windows(&mut self) {
        self.table.last_player = None;
        self.table.fresh_top = false;
        for flag in &mut self.table.uno {
            if *flag == Uno::Exposed {
                *flag = Uno::Missed;
            }
        }
    }

    fn update_uno(&mut self, seat: Seat) {
        let flag = &mut self.table.uno[seat];
        if self.table.hands[seat].len() != 1 {
            *flag = Uno::None;
        } else if *flag == Uno::None {
            *flag = Uno::Exposed;
        }
    }

    fn update_all_uno(&mut self) {
        for seat in 0..self.players() {
            self.update_uno(seat);
        }
    }

    fn play(&mut self, play: Play) -> Checked<()> {
        let seat = self.check_play(&play)?;
        self.close_uno_windows();
        let answering = match self.table.pending.take() {
            Some(Pending::Penalty(p)) => Some(p),
            other => {
                self.table.pending = other;
                None
            }
        };
        let out_of_turn = seat != self.table.current && answering.as_ref().is_none_or(|p| p.victim != seat);
        self.table.current = seat;
        let hand = &mut self.table.hands[seat];
        let index = hand.iter().position(|&c| c == play.card).expect("checked");
        hand.remove(index);
        self.table.discard.push(play.card);
        self.table.drawn = None;
        self.table.last_player = Some(seat);
        self.table.fresh_top = true;
        let face = *self.face(play.card);
        let prev_color = self.table.color;
        self.table.color = face.color.or(play.color);
        self.log.push(Event::Played {
            seat,
            card: play.card,
            side: self.table.side,
            as_flex: play.as_flex,
            color: if face.is_wild() { play.color } else { None },
            target: play.target,
            out_of_turn,
        });
        let going_out = self.table.hands[seat].is_empty();
        if play.uno && self.table.hands[seat].len() == 1 {
            self.table.uno[seat] = Uno::Called;
            self.log.push(Event::UnoCalled { seat });
        }
        let call = CallInfo {
            me: seat,
            card: Some(play.card),
            as_flex: play.as_flex,
            target: play.target,
            going_out,
            prev_color,
            answering: answering.clone(),
            ..CallInfo::default()
        };
        let plan = self.run_card_hooks(HookKind::OnPlay, play.card, call)?;
        if play.as_flex {
            self.table.set_power(seat, false, &mut self.log);
        }
        self.reset_power_when_all_red();
        self.finish_effects(seat, plan, going_out, answering)?;
        if going_out {
            self.end_hand(seat)?;
        }
        self.update_all_uno();
        Ok(())
    }

    /// Power Cards: when every one is red, all turn green (rules.md 3.6).
    fn reset_power_when_all_red(&mut self) {
        if !self.table.power.is_empty() && self.table.power.iter().all(|g| !g) {
            for seat in 0..self.table.power.len() {
                self.table.set_power(seat, true, &mut self.log);
            }
        }
    }

    /// Resolves the penalties a card caused and moves the turn on.
    fn finish_effects(
        &mut self,
        me: Seat,
        mut plan: TurnPlan,
        going_out: bool,
        answering: Option<Penalty>,
    ) -> Checked<()> {
        let penalties = std::mem::take(&mut plan.penalties);
        for penalty in penalties {
            let mut penalty = self.run_penalty_hooks(me, penalty, answering.clone())?;
            if going_out {
                penalty.pending = false;
                penalty.challenge = None;
            }
            if penalty.challenge.is_some() {
                penalty.pending = true;
            }
            if penalty.pending {
                self.log.push(Event::PenaltyPending {
                    victim: penalty.victim,
                    count: penalty.draw.count,
                    until: penalty.draw.until,
                });
                self.table.pending = Some(Pending::Penalty(penalty));
            } else {
                self.table.draw_cards(&self.variant, penalty.victim, penalty.draw, &mut self.log);
                if plan.next.is_none() && penalty.victim == self.table.seat_after(me, plan.skips % self.players() + 1) {
                    plan.skips += 1;
                }
            }
        }
        if going_out {
            return Ok(());
        }
        if let Some(Pending::Penalty(p)) = &self.table.pending {
            self.table.current = p.victim;
            return Ok(());
        }
        let next = match plan.next {
            Some(seat) => seat,
            None => {
                for step in 1..=plan.skips.min(self.players()) {
                    let skipped = self.table.seat_after(me, step);
                    if skipped != me {
                        self.log.push(Event::Skipped { seat: skipped });
                    }
                }
                self.table.seat_after(me, plan.skips % self.players() + 1)
            }
        };
        match plan.ask_color {
            Some(chooser) => {
                self.table.pending = Some(Pending::Color { player: chooser, then: Some(next) });
                self.table.current = chooser;
            }
            None => self.table.current = next,
        }
        Ok(())
    }

    fn run_penalty_hooks(&mut self, me: Seat, penalty: Penalty, answering: Option<Penalty>) -> Checked<Penalty> {
        let variant = self.variant.clone();
        let fns = variant.global_hook(HookKind::OnPenalty);
        if fns.is_empty() {
            return Ok(penalty);
        }
        let call = CallInfo { me, answering, ..CallInfo::default() };
        let (penalty, _) = self.with_scripts(call, |scripts| {
            fns.iter().try_fold(penalty, |penalty, f| {
                let changed = scripts.call(f, (scripts.penalty_map(&penalty),))?;
                scripts.penalty_from(changed, &penalty)
            })
        })?;
        Ok(penalty)
    }

    /// Scores the hand: by default the winner scores every other hand
    /// (rules.md 1.7); a `score_hand` hook may share points out differently,
    /// and a `match_winner` hook may decide when the match is won.
    fn end_hand(&mut self, winner: Seat) -> Checked<()> {
        self.table.winner = Some(winner);
        self.table.pending = None;
        let variant = self.variant.clone();
        let call = CallInfo { me: winner, read_only: true, ..CallInfo::default() };
        let gains: Vec<i64> = match variant.global_hook(HookKind::ScoreHand).last() {
            Some(f) => {
                let (value, _) = self.with_scripts(call.clone(), |scripts| scripts.call(f, (winner as i64,)))?;
                seat_numbers(value, self.players(), "score_hand")?
            }
            None => (0..self.players()).map(|s| if s == winner { self.others_points(winner) } else { 0 }).collect(),
        };
        for (score, gain) in self.table.scores.iter_mut().zip(&gains) {
            *score += gain;
        }
        self.log.push(Event::HandWon { seat: winner, points: gains[winner] });
        if self.table.match_winner.is_some() {
            return Ok(());
        }
        let winners: Vec<Seat> = match variant.global_hook(HookKind::MatchWinner).last() {
            Some(f) => {
                let (value, _) = self.with_scripts(call, |scripts| scripts.call(f, ()))?;
                if value.is_unit() {
                    Vec::new()
                } else if let Ok(seat) = value.as_int() {
                    seats(&[seat], self.players())?
                } else {
                    let list: Option<Vec<i64>> =
                        value.into_array().ok().and_then(|a| a.iter().map(|v| v.as_int().ok()).collect());
                    let list = list.ok_or_else(|| {
                        ActionError::Script("match_winner must return a seat, a list of seats or ()".into())
                    })?;
                    seats(&list, self.players())?
                }
            }
            None if self.table.scores[winner] >= self.variant.target_score => vec![winner],
            None => Vec::new(),
        };
        self.table.match_winner = winners.first().copied();
        for seat in winners {
            self.log.push(Event::MatchWon { seat });
        }
        Ok(())
    }

    /// Points of every hand but `winner`'s, by the side in play.
    fn others_points(&self, winner: Seat) -> i64 {
        (0..self.players()).filter(|&s| s != winner).map(|s| self.table.hand_points(&self.variant, s)).sum()
    }

    fn require_no_pending(&self) -> Checked<()> {
        match &self.table.pending {
            Some(Pending::Color { player, .. }) => refuse(format!("p{player} must first name a colour")),
            Some(Pending::Penalty(p)) => refuse(format!(
                "p{} must first answer the penalty (accept{})",
                p.victim,
                if p.challenge.is_some() { " or challenge" } else { "" }
            )),
            None => Ok(()),
        }
    }

    /// Could the current player legally play this card on its regular side
    /// (or its flex side, where the Power Card allows)?
    /// The distinct cards in `seat`'s hand that could be played now.
    fn playable_cards(&mut self, seat: Seat) -> Vec<CardId> {
        let mut cards = Vec::new();
        for index in 0..self.table.hands[seat].len() {
            let card = self.table.hands[seat][index];
            if !cards.contains(&card) && self.playable(seat, card) {
                cards.push(card);
            }
        }
        cards
    }

    pub fn playable(&mut self, seat: Seat, card: CardId) -> bool {
        let color = self.color_range().start;
        let other = self.table.seat_after(seat, 1);
        self.plays_of(seat, card, color, other).iter().any(Option::is_some)
    }

    fn draw(&mut self) -> Checked<()> {
        self.require_no_pending()?;
        let seat = self.table.current;
        if self.table.drawn.is_some() {
            return refuse(format!("p{seat} has drawn already: play the drawn card or pass"));
        }
        if !self.table.can_draw() {
            return refuse("there is nothing left to draw: pass instead");
        }
        self.check_global_hooks(HookKind::CanDraw, "drawing")?;
        self.close_uno_windows();
        let mut card = self.table.take_top(&mut self.log).expect("can_draw checked");
        self.table.hands[seat].push(card);
        self.log.push(Event::Drew { seat, card, side: self.table.side });
        let limit = self.variant.deck.len();
        for _ in 0..limit {
            if !self.draw_again(seat, card)? || !self.table.can_draw() {
                break;
            }
            card = self.table.take_top(&mut self.log).expect("can_draw checked");
            self.table.hands[seat].push(card);
            self.log.push(Event::Drew { seat, card, side: self.table.side });
        }
        if self.playable(seat, card) {
            self.table.drawn = Some(card);
        } else {
            self.table.current = self.table.seat_after(seat, 1);
        }
        self.update_all_uno();
        Ok(())
    }

    fn draw_again(&mut self, seat: Seat, card: CardId) -> Checked<bool> {
        if self.variant.card_hook(HookKind::DrawAgain, card, self.table.side).is_empty() {
            return Ok(false);
        }
        let playable = if self.playable(seat, card) { vec![card] } else { Vec::new() };
        let call =
            CallInfo { me: seat, card: Some(card), playable: Some(playable), read_only: true, ..CallInfo::default() };
        let results = self.call_hooks_read_only(HookKind::DrawAgain, card, call)?;
        Ok(results.iter().any(|v| v.as_bool() == Ok(true)))
    }

    fn pass(&mut self) -> Checked<()> {
        self.require_no_pending()?;
        let seat = self.table.current;
        if self.table.drawn.is_none() && self.table.can_draw() {
            return refuse(format!("p{seat} must play or draw before passing"));
        }
        self.check_global_hooks(HookKind::CanPass, "passing")?;
        self.close_uno_windows();
        self.table.drawn = None;
        self.log.push(Event::Passed { seat });
        self.table.current = self.table.seat_after(seat, 1);
        Ok(())
    }

    fn pending_penalty(&self) -> Checked<Penalty> {
        match &self.table.pending {
            Some(Pending::Penalty(p)) => Ok(p.clone()),
            _ => refuse("no draw penalty is pending"),
        }
    }

    fn accept(&mut self) -> Checked<()> {
        let penalty = self.pending_penalty()?;
        self.close_uno_windows();
        self.table.pending = None;
        self.log.push(Event::Accepted { seat: penalty.victim });
        self.table.draw_cards(&self.variant, penalty.victim, penalty.draw, &mut self.log);
        self.table.current = self.table.seat_after(penalty.victim, 1);
        self.update_all_uno();
        Ok(())
    }

    fn challenge(&mut self) -> Checked<()> {
        let penalty = self.pending_penalty()?;
        let Some(challenge) = penalty.challenge else {
            return refuse("this penalty cannot be challenged");
        };
        self.close_uno_windows();
        self.table.pending = None;
        self.log.push(Event::Challenged { challenger: penalty.victim, offender: penalty.by, guilty: challenge.guilty });
        if challenge.guilty {
            self.table.draw_cards(&self.variant, penalty.by, challenge.success, &mut self.log);
            self.table.current = penalty.victim;
        } else {
            self.table.draw_cards(&self.variant, penalty.victim, challenge.fail, &mut self.log);
            self.table.current = self.table.seat_after(penalty.victim, 1);
        }
        self.update_all_uno();
        Ok(())
    }

    fn choose_color(&mut self, color: Color) -> Checked<()> {
        let Some(Pending::Color { player, then }) = self.table.pending.clone() else {
            return refuse("no colour choice is pending");
        };
        if !self.color_in_play(color) {
            return refuse(format!(
                "{} is not a colour of the {} side",
                self.variant.names.color_name(color),
                self.table.side.name()
            ));
        }
        self.close_uno_windows();
        self.table.pending = None;
        self.table.color = Some(color);
        self.log.push(Event::ColorChosen { seat: player, color });
        self.table.current = then.unwrap_or(player);
        Ok(())
    }

    fn call_uno(&mut self, seat: Seat) -> Checked<()> {
        let Some(hand) = self.table.hands.get(seat) else {
            return refuse(format!("there is no player {seat}"));
        };
        if hand.len() != 1 {
            return refuse(format!("p{seat} holds {} cards: UNO is called with one", hand.len()));
        }
        if self.table.uno[seat] == Uno::Called {
            return refuse(format!("p{seat} has called UNO already"));
        }
        self.table.uno[seat] = Uno::Called;
        self.log.push(Event::UnoCalled { seat });
        Ok(())
    }

    fn catch(&mut self, seat: Seat) -> Checked<()> {
        let Some(&flag) = self.table.uno.get(seat) else {
            return refuse(format!("there is no player {seat}"));
        };
        match flag {
            Uno::Exposed => {}
            Uno::Called => return refuse(format!("p{seat} called UNO")),
            Uno::Missed => return refuse(format!("too late: the window to catch p{seat} has closed")),
            Uno::None => return refuse(format!("p{seat} does not hold exactly one card")),
        }
        self.log.push(Event::Caught { seat });
        let spec = DrawSpec { count: self.variant.uno_penalty, until: None };
        self.table.draw_cards(&self.variant, seat, spec, &mut self.log);
        self.update_all_uno();
        Ok(())
    }

    // ----- questions ----------------------------------------------------

    /// The first card in `seat`'s hand that fits the pattern (by the face in
    /// play, or by both faces).
    pub fn find_in_hand(&self, seat: Seat, pattern: &CardPattern) -> Option<CardId> {
        let side = self.table.side;
        self.table.hands.get(seat)?.iter().copied().find(|&id| pattern.matches(self.variant.design(id), side))
    }

    /// Every play `seat` could make now, with `color` for wilds and `target`
    /// for cards that take one: one per distinct visible face (the first such
    /// card in the hand that can be played).
    pub fn legal_plays(&mut self, seat: Seat, color: Color, target: Seat, plays: &mut Vec<Play>) {
        plays.clear();
        let side = self.table.side;
        for index in 0..self.table.hands[seat].len() {
            let card = self.table.hands[seat][index];
            // One entry per face the player can see: two cards that differ
            // only on their hidden side are the same choice (rules.md 4.3).
            let face = self.variant.face(card, side);
            if plays.iter().any(|p| self.variant.face(p.card, side) == face) {
                continue;
            }
            plays.extend(self.plays_of(seat, card, color, target).into_iter().flatten());
        }
    }

    /// The plays of one card `seat` could make now, on its regular and its
    /// flex side. Plain matching filters first, so refusals are rarely built.
    fn plays_of(&mut self, seat: Seat, card: CardId, color: Color, target: Seat) -> [Option<Play>; 2] {
        let face = *self.face(card);
        let mut plays = [None, None];
        if seat != self.table.current && !self.variant.has_hook(HookKind::CanPlayOutOfTurn) {
            return plays;
        }
        // With no decision pending, on the player's own turn and no rule
        // checking this face, plain matching is all that can refuse a play
        // on its regular side (the full check agrees; it only costs more).
        let plain = self.table.pending.is_none()
            && seat == self.table.current
            && self.table.drawn.is_none_or(|drawn| drawn == card)
            && self.variant.card_hook(HookKind::CanPlay, card, self.table.side).is_empty();
        for as_flex in [false, true] {
            if (as_flex && !self.variant.names.has_flex_side(&face)) || !self.matches(&face, as_flex) {
                continue;
            }
            let target = self.target_for(card, as_flex, target);
            let play =
                Play { player: Some(seat), card, color: face.is_wild().then_some(color), as_flex, target, uno: false };
            debug_assert!(!plain || as_flex || self.check_play(&play).is_ok(), "the plain path agrees with check_play");
            if (plain && !as_flex) || self.check_play(&play).is_ok() {
                plays[usize::from(as_flex)] = Some(play);
            }
        }
        plays
    }

    /// `target` for a play whose face takes one, else none.
    fn target_for(&self, card: CardId, as_flex: bool, target: Seat) -> Option<Seat> {
        match self.variant.target_need(card, self.table.side, as_flex) {
            TargetNeed::None => None,
            _ => Some(target),
        }
    }

    /// May the current player draw now?
    pub fn can_draw_now(&mut self) -> bool {
        self.table.pending.is_none()
            && self.table.drawn.is_none()
            && self.table.can_draw()
            && self.check_global_hooks(HookKind::CanDraw, "drawing").is_ok()
    }

    /// An action in words and card notation, for messages and logs.
    pub fn describe_action(&self, action: &Action) -> String {
        let names = &self.variant.names;
        match action {
            Action::Play(p) => {
                let mut text = format!("play {}", self.variant.face_name(p.card, self.table.side));
                if let Some(c) = p.color {
                    text += &format!(" naming {}", names.color_name(c));
                }
                if p.as_flex {
                    text += " as flex";
                }
                if let Some(t) = p.target {
                    text += &format!(" at p{t}");
                }
                if let Some(seat) = p.player {
                    text = format!("p{seat} {text}");
                }
                text
            }
            Action::Draw => "draw".into(),
            Action::Pass => "pass".into(),
            Action::Uno(s) => format!("uno {s}"),
            Action::Catch(s) => format!("catch {s}"),
            Action::Challenge => "challenge".into(),
            Action::Accept => "accept".into(),
            Action::Color(c) => format!("color {}", names.color_name(*c)),
        }
    }
}
