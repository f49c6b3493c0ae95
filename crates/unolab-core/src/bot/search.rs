//! The search bot: determinized Monte Carlo search with the game itself as
//! its model. For a decision with more than one option (every play with
//! its side, target and named colour, a draw, a pass, an accept, a
//! challenge, a colour, a rule's choice; out of turn, a play or letting
//! the chance pass; a catch or not), it deals, round after round, a
//! position its seat could be in (`Position::determinize`: its own hand
//! and everything public kept, the cards it knows to be in other hands
//! kept there (`Table::seen`), the rest dealt anew, facts derived from the
//! hidden cards worked out again: `Game::work_out_hidden_facts`), and
//! plays every option still in the running from that same position, each
//! followed by greedy bots in every seat with the same seed, to the end of
//! the hand (bounded: `limits::HAND_ACTIONS`). An option scores 1 where the
//! seat wins, and a share of a win for what it shows the seat of the
//! others' hands (`SHOWN_WEIGHT`). Comparing options on the same deals and
//! the same bots' seeds, the differences between them show through with far fewer
//! playouts than their own results would; an option clearly behind the
//! leader (its paired difference more than `PRUNE_Z` standard errors) is
//! dropped, and playouts go to those left. The leader is played, unless
//! what greedy would have done is within `GUESS_Z` standard errors of it:
//! then that is. The budget is a number of playouts, never time, and every
//! random choice comes from the bot's seeded generator, so a decision is
//! the same on any machine and thread count.
//!
//! The search runs on the game it is asked about: it keeps the position,
//! loads each deal into the game, and puts the position back when it is
//! done (also when a rule fails: the failure is then its error). So what
//! the game's rules have learnt (the memo) serves every playout. Its seat
//! sees no more than it may: the deals are made from its seat's view, and
//! two games that look the same from the seat give the same decision.

use rand::Rng as _;

use crate::bot::playout::{HandFailure, act, finish};
use crate::bot::{Bot, BotKind, preference};
use crate::card::CardId;
use crate::game::{Action, ActionError, Belief, Game, Moves, OnFailure, Position};
use crate::rng::Rng;
use crate::rules::{RuleFailure, Rules};
use crate::seat::Seat;

/// Playouts a decision of `--bot search`.
pub const DEFAULT_PLAYOUTS: u32 = 1_000;

/// Rounds every option left plays before options are compared.
const FIRST_ROUNDS: usize = 16;
/// Options are compared every this many rounds after that.
const COMPARE_EVERY: usize = 4;
/// An option whose paired difference from the leader is more than this
/// many standard errors behind is dropped.
const PRUNE_Z: f64 = 2.0;
/// What greedy would do is played unless the leader is ahead of it by
/// more than this many standard errors.
const GUESS_Z: f64 = 1.0;

/// What it is worth to the seat, as a share of a win, to be shown every
/// card in the other hands (an option that shows it some, a challenge that
/// shows a hand, scores this times the share of those cards it shows).
/// The playouts cannot see what knowing is worth (greedy, which plays
/// them out, makes no use of it); measured (docs/bots.md, "What a
/// challenge is worth"): at 2 players, Classic, a challenge of a Wild Draw
/// Four that fails but shows the hand pays for its 2 cards; at 4 players,
/// where it shows one hand of three, it does not.
const SHOWN_WEIGHT: f32 = 0.2;

/// How many of the cards in the other hands a seat knows (`cards`), of how
/// many (`of`, at least 1).
#[derive(Debug, Clone, Copy)]
struct Known {
    cards: usize,
    of: usize,
}

impl Known {
    fn of(table: &crate::table::Table, seat: Seat) -> Known {
        let of = (0..table.players()).filter(|&s| s != seat).map(|s| table.hands()[s].len()).sum::<usize>();
        Known { cards: table.seen().known_count(seat), of: of.max(1) }
    }
}

/// What a search bot has done so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Decisions it was asked for.
    pub decisions: u64,
    /// Those with more than one option, which it searched.
    pub searched: u64,
    /// Playouts it played.
    pub playouts: u64,
}

/// A search bot's buffers, kept from decision to decision, and its tally.
#[derive(Default)]
pub struct Search {
    pub tally: Tally,
    /// The position searched from, put back when the search is done.
    real: Option<Position>,
    /// The round's deal, with hidden facts worked out again.
    root: Option<Position>,
    /// Greedy bots for every seat, reseeded for each playout.
    policy: Vec<Bot>,
    /// What the seat believes of other hands (`beliefs`).
    beliefs: Vec<Belief>,
    /// The options: an action, or `None` to let a chance pass.
    options: Vec<Option<Action>>,
    /// Per option, its score in each round it played.
    scores: Vec<Vec<f32>>,
    alive: Vec<bool>,
}

/// Every play of `moves` as an action: a wild once for each colour it may
/// name, UNO called where the play leaves one card.
pub fn plays(moves: &Moves, out: &mut Vec<Action>) {
    out.clear();
    let uno = moves.held == 2;
    for option in &moves.plays {
        if option.names_color {
            for color in moves.colors_of_side.clone() {
                out.push(Action::Play(option.play(moves.seat, color, uno)));
            }
        } else {
            out.push(Action::Play(option.play(moves.seat, moves.colors_of_side.start, uno)));
        }
    }
}

impl Search {
    /// The action `seat` takes now, of `moves` (its legal moves); `guess`
    /// is what greedy would do.
    pub fn decide(
        &mut self,
        game: &mut Game<impl Rules>,
        seat: Seat,
        moves: &Moves,
        guess: Action,
        playouts: u32,
        rng: &mut Rng,
    ) -> Result<Action, RuleFailure> {
        let mut actions = Vec::new();
        if !moves.name_color.is_empty() {
            actions.extend(moves.name_color.clone().map(|color| Action::NameColor(seat, color)));
        } else if moves.choose > 0 {
            actions.extend((0..moves.choose).map(|index| Action::Choose(seat, index)));
        } else {
            plays(moves, &mut actions);
            for (allowed, action) in [
                (moves.draw, Action::Draw(seat)),
                (moves.pass, Action::Pass(seat)),
                (moves.accept, Action::Accept(seat)),
                (moves.challenge, Action::Challenge(seat)),
            ] {
                if allowed {
                    actions.push(action);
                }
            }
            // The actions the rules declare are weighed as plays are.
            actions.extend(moves.acts.iter().map(|option| Action::Act(option.act(seat))));
        }
        // Greedy challenges at random; the search's guess is to accept.
        let guess = match guess {
            Action::Challenge(seat) if moves.accept => Action::Accept(seat),
            guess => guess,
        };
        self.options.clear();
        self.options.extend(actions.into_iter().map(Some));
        let guess = self.options.iter().position(|o| o.is_some_and(|a| same(&a, &guess))).unwrap_or(0);
        let chosen = self.run(game, seat, guess, playouts, rng)?;
        Ok(self.options[chosen].expect("a turn's options are actions"))
    }

    /// Which of `actions`, if any, `seat` takes now, out of its turn (a
    /// play, a catch), or `None` to let the chance pass; `guess` is what
    /// greedy would do (`None`: let it pass).
    pub fn decide_or_wait(
        &mut self,
        game: &mut Game<impl Rules>,
        seat: Seat,
        actions: &[Action],
        guess: Option<Action>,
        playouts: u32,
        rng: &mut Rng,
    ) -> Result<Option<Action>, RuleFailure> {
        if actions.is_empty() {
            return Ok(None);
        }
        self.options.clear();
        self.options.push(None);
        self.options.extend(actions.iter().copied().map(Some));
        let guess = self.options.iter().position(|o| *o == guess).unwrap_or(0);
        let chosen = self.run(game, seat, guess, playouts, rng)?;
        Ok(self.options[chosen])
    }

    /// Searches `self.options` from the game's position: the index of the
    /// option to take. The game's position (and what it does on a
    /// failure) is put back, whatever happens.
    fn run(
        &mut self,
        game: &mut Game<impl Rules>,
        seat: Seat,
        guess: usize,
        playouts: u32,
        rng: &mut Rng,
    ) -> Result<usize, RuleFailure> {
        self.tally.decisions += 1;
        if self.options.len() < 2 {
            return Ok(0);
        }
        self.tally.searched += 1;
        let real = match self.real.take() {
            Some(mut real) => {
                real.clone_from(game.position());
                real
            }
            None => game.position().clone(),
        };
        let on_failure = game.on_failure();
        game.set_on_failure(OnFailure::Stop);
        // The deals are not the game: their hook calls are not told.
        game.pause_trace(true);
        let result = self.rounds(game, &real, seat, guess, playouts, rng);
        game.pause_trace(false);
        game.set_position(&real);
        game.set_on_failure(on_failure);
        self.real = Some(real);
        result.map_err(|e| e.within(format_args!("p{seat}'s search")))
    }

    /// Rounds of playouts until the budget is spent or one option is left.
    fn rounds(
        &mut self,
        game: &mut Game<impl Rules>,
        real: &Position,
        seat: Seat,
        guess: usize,
        playouts: u32,
        rng: &mut Rng,
    ) -> Result<usize, RuleFailure> {
        let count = self.options.len();
        self.scores.resize_with(count, Vec::new);
        self.scores.iter_mut().for_each(Vec::clear);
        self.alive.clear();
        self.alive.resize(count, true);
        let players = game.players();
        self.policy.truncate(players);
        while self.policy.len() < players {
            self.policy.push(Bot::new(BotKind::Greedy, 0, self.policy.len() as u64));
        }
        let variant = game.variant.clone();
        beliefs(real, seat, &variant, &mut self.beliefs);
        let mut spent = 0u32;
        let mut round = 0;
        while spent < playouts && self.alive.iter().filter(|&&a| a).count() > 1 {
            let deal_seed = rng.next_u64();
            let play_seed = rng.next_u64();
            let mut deal_rng = crate::rng::rng(deal_seed);
            let mut dealt = real.determinize(seat, &variant, &mut deal_rng);
            dealt.believe(seat, &self.beliefs, &variant, &mut deal_rng);
            game.set_position(&dealt);
            game.work_out_hidden_facts(seat)?;
            let root = match self.root.take() {
                Some(mut root) => {
                    root.clone_from(game.position());
                    root
                }
                None => game.position().clone(),
            };
            let before = Known::of(root.table(), seat);
            for option in 0..count {
                if !self.alive[option] {
                    continue;
                }
                game.set_position(&root);
                let score = self.playout(game, seat, self.options[option], play_seed, before)?;
                self.scores[option].push(score);
                spent += 1;
                self.tally.playouts += 1;
            }
            self.root = Some(root);
            round += 1;
            if round >= FIRST_ROUNDS && round % COMPARE_EVERY == 0 {
                self.prune(guess);
            }
        }
        Ok(self.choice(guess))
    }

    /// One playout: `option` taken in the game's position, then greedy bots
    /// seeded from `seed` play the hand out. 1 if `seat` wins, and
    /// `SHOWN_WEIGHT` times the share of the others' cards the option
    /// showed the seat (what it knew `before`, in the game's position).
    fn playout(
        &mut self,
        game: &mut Game<impl Rules>,
        seat: Seat,
        option: Option<Action>,
        seed: u64,
        before: Known,
    ) -> Result<f32, RuleFailure> {
        for (stream, bot) in self.policy.iter_mut().enumerate() {
            bot.reseed(BotKind::Greedy, seed, stream as u64);
        }
        let mut shown = 0.0;
        match option {
            Some(action) => match game.apply(action) {
                Ok(()) => {
                    let now = game.table().seen().known_count(seat);
                    shown = now.saturating_sub(before.cards) as f32 / before.of as f32;
                }
                // Not open to the seat in this deal (a rule that looks at
                // cards the seat cannot see): no win by it here.
                Err(ActionError::Refused { .. }) => return Ok(0.0),
                Err(e) => {
                    let words = format!("{}: {e}", action.describe(&game.variant, game.table().side()));
                    return Err(HandFailure::of(&e, words).into());
                }
            },
            // The chance passes: the next action is anyone else's (or the
            // seat's own turn).
            None => {
                act(game, &mut self.policy, Some(seat))?;
            }
        }
        match finish(game, &mut self.policy, crate::limits::HAND_ACTIONS)? {
            Some(_) => Ok(score(game, seat) + SHOWN_WEIGHT * shown),
            None => Err(RuleFailure::new(format!(
                "a playout did not end within {} actions: the rules may never let a hand end",
                crate::limits::HAND_ACTIONS
            ))),
        }
    }

    /// The option ahead: the best mean score among those left (the guess
    /// first, then the first listed, among equals).
    fn leader(&self, guess: usize) -> usize {
        let total = |o: usize| self.scores[o].iter().map(|&s| f64::from(s)).sum::<f64>();
        let mut best = guess;
        for option in 0..self.options.len() {
            if self.alive[option] && (!self.alive[best] || total(option) > total(best)) {
                best = option;
            }
        }
        best
    }

    /// The mean and standard error of `a`'s score less `b`'s, over the
    /// rounds both played (every round so far, while both are left).
    fn difference(&self, a: usize, b: usize) -> (f64, f64) {
        let rounds = self.scores[a].len().min(self.scores[b].len());
        if rounds == 0 {
            return (0.0, 0.0);
        }
        let (mut sum, mut squares) = (0f64, 0f64);
        for (&x, &y) in self.scores[a].iter().zip(&self.scores[b]) {
            let d = f64::from(x) - f64::from(y);
            sum += d;
            squares += d * d;
        }
        let n = rounds as f64;
        let mean = sum / n;
        let variance = (squares / n - mean * mean).max(0.0);
        (mean, (variance / n).sqrt())
    }

    /// Drops the options clearly behind the leader (by more than
    /// `PRUNE_Z` standard errors of their paired difference).
    fn prune(&mut self, guess: usize) {
        let leader = self.leader(guess);
        for option in 0..self.options.len() {
            if option != leader && self.alive[option] {
                let (mean, error) = self.difference(leader, option);
                if mean > PRUNE_Z * error && mean > 0.0 {
                    self.alive[option] = false;
                }
            }
        }
    }

    /// The option to take: the leader, unless the guess is close enough.
    fn choice(&self, guess: usize) -> usize {
        let leader = self.leader(guess);
        if leader != guess && self.alive[guess] {
            let (mean, error) = self.difference(leader, guess);
            if mean <= GUESS_Z * error {
                return guess;
            }
        }
        leader
    }
}

/// What a playout that ended is worth to `seat`: 1 for a win. (Measured:
/// counting the cards the others were left with, less its own, as a part
/// of a win played no better at 2 or 4 players; see docs/bots.md.)
fn score(game: &Game<impl Rules>, seat: Seat) -> f32 {
    f32::from(u8::from(game.table().winner() == Some(seat)))
}

/// What `seat` believes of the hands it cannot see, from each player's
/// recent choices on its turn (`TurnSeen`), as greedy (the search's model
/// of every other seat) would have chosen: a player who drew held nothing
/// that matched the table then; one who played a card held nothing that
/// matched and that greedy puts before it (`bot::preference`: a
/// higher-scoring card, any card but a wild before a wild). At least the
/// cards it still holds from then are none of those (matching as the host
/// matches: a wild, the colour in play, the flex colour, the top card's
/// number or symbol); the cards it held at an earlier choice were held at
/// every later one too, so they are none of what any of those excludes.
/// Oldest first, for `Position::believe`: each belief excludes at least
/// what the next one does, for fewer cards.
pub fn beliefs(position: &Position, seat: Seat, variant: &crate::variant::Variant, out: &mut Vec<Belief>) {
    out.clear();
    let table = position.table();
    let names = &variant.names;
    for holder in (0..table.players()).filter(|&s| s != seat && table.playing(s)) {
        let first = out.len();
        for turn in table.seen().turns_of(holder) {
            let Some(top) = turn.top else { continue };
            // Greedy would have played a card it prefers to the one played.
            let preferred = |card: CardId| preference(names, variant.face(card, turn.side), false);
            let played = turn.played.map(preferred);
            let passed_over = |card: CardId| played.is_none_or(|played| preferred(card) > played);
            let top = variant.face_key(top, turn.side);
            let unlikely = (0..variant.designs.len())
                .map(|design| {
                    let card = CardId(design as u16);
                    let key = variant.face_key(card, turn.side);
                    (key.matches(turn.color, Some(top)) | key.flex_matches(turn.color)) && passed_over(card)
                })
                .collect();
            out.push(Belief { holder, cards: turn.kept().min(table.hands()[holder].len()), unlikely });
        }
        // What a later choice excludes, an earlier one's cards exclude too.
        for at in (first..out.len().saturating_sub(1)).rev() {
            let (earlier, later) = out.split_at_mut(at + 1);
            for (e, &l) in earlier[at].unlikely.iter_mut().zip(&later[0].unlikely) {
                *e |= l;
            }
        }
    }
}

/// Are `a` and `b` the same choice (a play matched by card, side, target
/// and colour; UNO calls aside)?
fn same(a: &Action, b: &Action) -> bool {
    match (a, b) {
        (Action::Play(x), Action::Play(y)) => {
            x.card == y.card && x.as_flex == y.as_flex && x.target == y.target && x.color == y.color
        }
        _ => a == b,
    }
}
