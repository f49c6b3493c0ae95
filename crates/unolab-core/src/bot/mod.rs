//! Bots. A bot decides from what its seat can see (its own hand, part of
//! the seat's `SeatView`) and what the game says it may do (`Moves`), and
//! nothing else. `random` plays a random legal card (drawing when it has
//! none); `greedy` sheds its most valuable card first and keeps wilds for
//! last; `search` (`search.rs`) tries each of its moves in positions its
//! seat could be in, dealt from what it sees (`Position::determinize`),
//! and plays them out with greedy bots, the game itself as its model.
//! Every choice comes from the bot's own RNG, seeded from the game's seed.
//! `playout.rs` plays a hand on to its end with bots in every seat.

pub mod playout;
pub mod search;

use rand::RngExt;
use rand::seq::IndexedRandom;

use crate::card::{Color, Face};
use crate::game::{Action, Game, Moves, PlayOption};
use crate::limits;
use crate::notation::Names;
use crate::rng::{Rng, rng};
use crate::rules::RuleFailure;
use crate::rules::Rules;
use crate::seat::Seat;
use crate::seat::seats_of;
use crate::variant::HookKind;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BotKind {
    Random,
    Greedy,
    /// Determinized Monte Carlo search, `playouts` a decision (`search:N`).
    Search {
        playouts: u32,
    },
}

impl BotKind {
    pub const ALL: [BotKind; 3] = [BotKind::Random, BotKind::Greedy, BotKind::SEARCH];

    /// The search bot at its default budget (`--bot search`).
    pub const SEARCH: BotKind = BotKind::Search { playouts: search::DEFAULT_PLAYOUTS };

    /// Difficulties by name, easiest first (`--bot easy|normal|hard`), and
    /// the bot each is.
    pub const LEVELS: [(&'static str, BotKind); 3] =
        [("easy", BotKind::Random), ("normal", BotKind::Greedy), ("hard", BotKind::SEARCH)];

    /// The name of the kind of bot (`--bot greedy`); a search bot's budget
    /// is told by `Display` (`search:500`).
    pub fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Greedy => "greedy",
            BotKind::Search { .. } => "search",
        }
    }

    /// Every name a bot is taken by: the kinds, then the difficulties.
    pub fn names() -> impl Iterator<Item = &'static str> {
        BotKind::ALL.into_iter().map(BotKind::name).chain(BotKind::LEVELS.iter().map(|(name, _)| *name))
    }

    /// The bot named `name`, in any case: a kind (`random`, `greedy`,
    /// `search`), a search with its budget (`search:N`), or a difficulty
    /// (`easy`, `normal`, `hard`).
    pub fn parse(name: &str) -> Option<BotKind> {
        BotKind::read(name).ok()
    }

    /// `parse`, saying what is wrong with a name it does not take.
    pub fn read(name: &str) -> Result<BotKind, String> {
        let name = name.trim();
        let kind = BotKind::ALL.into_iter().find(|kind| kind.name().eq_ignore_ascii_case(name));
        let level = BotKind::LEVELS.iter().find(|(level, _)| level.eq_ignore_ascii_case(name)).map(|(_, k)| *k);
        if let Some(kind) = kind.or(level) {
            return Ok(kind);
        }
        let budget = name.split_once(':').filter(|(kind, _)| kind.trim().eq_ignore_ascii_case("search"));
        let Some((_, playouts)) = budget else {
            let names: Vec<&str> = BotKind::names().collect();
            return Err(format!("unknown bot '{name}' (bots: {}, search:N)", names.join(", ")));
        };
        match playouts.trim().parse::<u32>() {
            Ok(n) if (1..=crate::limits::SEARCH_PLAYOUTS).contains(&n) => Ok(BotKind::Search { playouts: n }),
            _ => Err(format!(
                "'{name}': a search bot's playouts a decision are a number from 1 to {}",
                crate::limits::SEARCH_PLAYOUTS
            )),
        }
    }
}

/// The name `BotKind::parse` reads back: a search bot at another budget
/// than its default as `search:N`.
impl std::fmt::Display for BotKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            BotKind::Search { playouts } if playouts != search::DEFAULT_PLAYOUTS => write!(f, "search:{playouts}"),
            kind => f.write_str(kind.name()),
        }
    }
}

pub struct Bot {
    pub kind: BotKind,
    rng: Rng,
    /// Reused between decisions, so that deciding allocates nothing: the
    /// seat's own hand, as it sees it.
    hand: Vec<Face>,
    moves: Moves,
    /// A search bot's buffers, made at its first search and kept.
    search: Option<Box<search::Search>>,
}

/// Fills a bot's view of its own hand, when the bot needs to look.
type Viewer<'a> = &'a dyn Fn(&mut Vec<Face>);

impl Bot {
    /// A bot whose choices come from the generator of `seed` and `stream`.
    pub fn new(kind: BotKind, seed: u64, stream: u64) -> Bot {
        Bot { kind, rng: Bot::rng(seed, stream), hand: Vec::new(), moves: Moves::default(), search: None }
    }

    /// The bot as `Bot::new` makes it, keeping its buffers.
    pub fn reseed(&mut self, kind: BotKind, seed: u64, stream: u64) {
        self.kind = kind;
        self.rng = Bot::rng(seed, stream);
    }

    fn rng(seed: u64, stream: u64) -> Rng {
        rng(crate::rng::game_seed(seed, stream.wrapping_add(1).wrapping_mul(0x5851_F42D_4C95_7F2D)))
    }

    /// The action `seat` takes now (`seat` must be the seat to act).
    pub fn choose(&mut self, game: &mut Game<impl Rules>, seat: Seat) -> Result<Action, RuleFailure> {
        game.legal_moves(seat, &mut self.moves)?;
        let action = self.decide(&game.variant.names, &|hand| game.hand_view_into(seat, hand));
        if let BotKind::Search { playouts } = self.kind {
            // What greedy would do is the search's first guess.
            let search = self.search.get_or_insert_with(Box::default);
            return search.decide(game, seat, &self.moves, action, playouts, &mut self.rng);
        }
        Ok(action)
    }

    /// What the bot's searches have done so far (nothing, for a bot that
    /// does not search).
    pub fn tally(&self) -> search::Tally {
        self.search.as_ref().map(|s| s.tally).unwrap_or_default()
    }

    /// Does the bot catch `target`, who forgot to call UNO? A random or
    /// greedy bot does half the time; a search bot tries both.
    pub fn catches(&mut self, game: &mut Game<impl Rules>, seat: Seat, target: Seat) -> Result<bool, RuleFailure> {
        let BotKind::Search { playouts } = self.kind else { return Ok(self.rng.random_bool(0.5)) };
        let catch = Action::Catch { by: seat, target };
        let search = self.search.get_or_insert_with(Box::default);
        Ok(search.decide_or_wait(game, seat, &[catch], Some(catch), playouts, &mut self.rng)?.is_some())
    }

    /// An out-of-turn play or action `seat` makes now (where a rule allows
    /// them), if any: a bot takes half the chances it gets. `chance` is the
    /// seat's bit of `Game::out_of_turn_chances`, worked out once for every
    /// seat: a bot without a chance of a play tosses no coin, nor one
    /// without an action it may take (where the rules declare actions out
    /// of turn, its moves are worked out to know). Given the chance, a
    /// random bot picks among its plays and actions alike; a greedy bot
    /// plays if it can, else takes an action; a search bot weighs them all
    /// against letting the chance pass.
    pub fn out_of_turn(
        &mut self,
        game: &mut Game<impl Rules>,
        seat: Seat,
        chance: bool,
    ) -> Result<Option<Action>, RuleFailure> {
        let acts = game.variant.has_out_of_turn_actions();
        if !chance && !acts {
            if game.checks() && game.legal_moves(seat, &mut self.moves).is_ok() {
                assert!(self.moves.plays.is_empty(), "a seat that may not jump in has {:?}", self.moves.plays);
            }
            return Ok(None);
        }
        if acts {
            game.legal_moves(seat, &mut self.moves)?;
            if self.moves.plays.is_empty() && self.moves.acts.is_empty() {
                return Ok(None);
            }
        }
        if let BotKind::Search { playouts } = self.kind {
            if !acts {
                game.legal_moves(seat, &mut self.moves)?;
            }
            let mut options = Vec::new();
            search::plays(&self.moves, &mut options);
            options.extend(self.moves.acts.iter().map(|option| Action::Act(option.act(seat))));
            let search = self.search.get_or_insert_with(Box::default);
            return search.decide_or_wait(game, seat, &options, None, playouts, &mut self.rng);
        }
        if !self.rng.random_bool(0.5) {
            return Ok(None);
        }
        if !acts {
            game.legal_moves(seat, &mut self.moves)?;
        }
        let (plays, acts) = (self.moves.plays.len(), self.moves.acts.len());
        let act = match self.kind {
            BotKind::Random => acts > 0 && self.rng.random_range(0..plays + acts) >= plays,
            BotKind::Greedy | BotKind::Search { .. } => plays == 0,
        };
        if act {
            return Ok(self.moves.acts.choose(&mut self.rng).map(|option| Action::Act(option.act(seat))));
        }
        let viewer: Viewer = &|hand| game.hand_view_into(seat, hand);
        Ok(self.pick(&game.variant.names).map(|option| self.play(option, viewer)))
    }

    /// The decision, from the legal moves and, where the bot needs to look
    /// (to name a colour), the seat's hand.
    fn decide(&mut self, names: &Names, viewer: Viewer) -> Action {
        let seat = self.moves.seat;
        if !self.moves.name_color.is_empty() {
            return Action::NameColor(seat, self.favourite_color(viewer));
        }
        if self.moves.choose > 0 {
            return Action::Choose(seat, self.rng.random_range(0..self.moves.choose));
        }
        if self.moves.accept {
            if let Some(option) = self.pick(names) {
                return self.play(option, viewer);
            }
            return if self.moves.challenge && self.rng.random_bool(0.5) {
                Action::Challenge(seat)
            } else {
                Action::Accept(seat)
            };
        }
        if self.moves.drawn {
            return match self.moves.plays.first() {
                Some(&option) => self.play(option, viewer),
                None => Action::Pass(seat),
            };
        }
        // An action a rule declares: a random bot takes one of those it may
        // take a time in four, a greedy bot when it has no play.
        if !self.moves.acts.is_empty() {
            let take = match self.kind {
                BotKind::Random => self.rng.random_ratio(1, 4),
                // The search bot's guess is greedy's.
                BotKind::Greedy | BotKind::Search { .. } => self.moves.plays.is_empty(),
            };
            if take && let Some(option) = self.moves.acts.choose(&mut self.rng) {
                return Action::Act(option.act(seat));
            }
        }
        if let Some(option) = self.pick(names) {
            return self.play(option, viewer);
        }
        if self.moves.draw { Action::Draw(seat) } else { Action::Pass(seat) }
    }

    /// The play of `option`, naming the bot's favourite colour for a wild
    /// and calling UNO unless the bot forgets.
    fn play(&mut self, option: PlayOption, viewer: Viewer) -> Action {
        let color = if option.names_color { self.favourite_color(viewer) } else { self.moves.colors_of_side.start };
        let uno = self.moves.held == 2 && self.calls_uno();
        Action::Play(option.play(self.moves.seat, color, uno))
    }

    /// The colour the seat holds most of, among the colours a wild may name.
    fn favourite_color(&mut self, viewer: Viewer) -> Color {
        viewer(&mut self.hand);
        let colors = if self.moves.name_color.is_empty() {
            self.moves.colors_of_side.clone()
        } else {
            self.moves.name_color.clone()
        };
        let mut counts = [0u16; limits::COLORS];
        for face in &self.hand {
            if let Some(c) = face.color {
                counts[usize::from(c)] += 1;
            }
        }
        let in_play = &counts[usize::from(colors.start)..usize::from(colors.end)];
        let best = in_play.iter().copied().max().unwrap_or(0);
        let tied = in_play.iter().filter(|&&n| n == best).count();
        let pick = self.rng.random_range(0..tied.max(1));
        let index = in_play.iter().enumerate().filter(|&(_, &n)| n == best).nth(pick).map_or(0, |(i, _)| i);
        colors.start + index as Color
    }

    /// Does the bot remember to call UNO with its second-to-last card? A
    /// random bot forgets one time in eight; the others never do.
    fn calls_uno(&mut self) -> bool {
        self.kind != BotKind::Random || !self.rng.random_ratio(1, 8)
    }

    /// One of the legal plays: a card face (and side) first, then a target.
    fn pick(&mut self, names: &Names) -> Option<PlayOption> {
        let plays = &self.moves.plays;
        let chosen = match self.kind {
            BotKind::Random => *plays.choose(&mut self.rng)?,
            BotKind::Greedy | BotKind::Search { .. } => {
                let value = |o: &PlayOption| preference(names, &o.face, o.as_flex);
                // The best, and how many are as good (one pass).
                let (mut best, mut first, mut tied) = (i64::MIN, 0, 0);
                for (at, option) in plays.iter().enumerate() {
                    let v = value(option);
                    if v > best {
                        (best, first, tied) = (v, at, 1);
                    } else if v == best {
                        tied += 1;
                    }
                }
                if tied == 0 {
                    return None;
                }
                // One of the best at random, as `choose` of a list of them
                // would take it (without making the list).
                let pick = self.rng.random_range(..tied);
                if pick == 0 { plays[first] } else { *plays[first..].iter().filter(|o| value(o) == best).nth(pick)? }
            }
        };
        // Every target of the chosen card and side is as likely (plays
        // that name no target are one per card and side).
        let same = |o: &&PlayOption| o.face == chosen.face && o.as_flex == chosen.as_flex;
        if plays.iter().all(|o| o.target.is_none()) {
            return Some(chosen);
        }
        let targets = plays.iter().filter(same).count();
        if targets > 1 {
            let n = self.rng.random_range(0..targets);
            return plays.iter().filter(same).nth(n).copied();
        }
        Some(chosen)
    }
}

/// How much greedy wants to play `face` (as its flex side, `as_flex`): its
/// highest-scoring card first, wilds last. The search bot's beliefs of
/// what a player passed over (`search::beliefs`) ask it too.
pub(crate) fn preference(names: &Names, face: &Face, as_flex: bool) -> i64 {
    let points = names.points(face);
    if face.is_wild() { -points } else { points * 2 + i64::from(as_flex) }
}

/// The next bot action at the table: a catch of a player who forgot UNO,
/// then an out-of-turn play or action by a bot that wants one (where a rule
/// allows them; the bots are asked in turn order from the seat after the
/// player to act, and the first that wants one takes it), else the bot
/// whose turn it is. `human` is a seat no bot plays for. `None` when it is
/// the human's turn.
pub fn next_action(
    game: &mut Game<impl Rules>,
    bots: &mut [Bot],
    human: Option<Seat>,
) -> Result<Option<(Seat, Action)>, RuleFailure> {
    next_action_among(game, bots, human.map_or(0, |seat| 1 << seat))
}

/// `next_action` with several seats no bot plays for (a bit a seat, as
/// `Game::out_of_turn_chances`): `None` when it is one of theirs to act.
pub fn next_action_among(
    game: &mut Game<impl Rules>,
    bots: &mut [Bot],
    humans: u32,
) -> Result<Option<(Seat, Action)>, RuleFailure> {
    let is_human = |seat: Seat| humans >> seat & 1 != 0;
    let to_act = game.to_act();
    let players = game.players();
    // Someone left with one card and no UNO call can be caught until the
    // next player acts; the bots from the player to act on look first.
    for exposed in seats_of(game.table().exposed()) {
        for offset in 0..players {
            let seat = (to_act + offset) % players;
            if seat != exposed
                && !is_human(seat)
                && game.table().playing(seat)
                && bots[seat].catches(game, seat, exposed)?
            {
                return Ok(Some((seat, Action::Catch { by: seat, target: exposed })));
            }
        }
    }
    let plays = game.variant.has_hook(HookKind::CanPlayOutOfTurn);
    let acts = game.variant.has_out_of_turn_actions();
    if plays || acts {
        let chances = if plays { game.out_of_turn_chances() } else { 0 };
        for offset in 1..players {
            let seat = (to_act + offset) % players;
            let chance = chances >> seat & 1 != 0;
            // A bot without a chance does nothing (a game that proves its
            // fast paths checks so); an action out of turn is a chance the
            // bot finds in its moves.
            if (chance || acts || game.checks())
                && !is_human(seat)
                && let Some(action) = bots[seat].out_of_turn(game, seat, chance)?
            {
                return Ok(Some((seat, action)));
            }
        }
    }
    if is_human(to_act) {
        return Ok(None);
    }
    let action = bots[to_act].choose(game, to_act)?;
    Ok(Some((to_act, action)))
}
