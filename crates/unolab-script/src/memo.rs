//! The memo: a rule runs only when its answer can differ. `Memoized<R>`
//! is rules `R` with a memo in front: it implements `Rules` by replaying
//! what `R` did where it can, and asking `R` otherwise. Every hook call
//! is keyed by its function and its argument, except a card argument: what a
//! call reads of its card is a read like the others, so calls about cards
//! that look alike where it matters share a path. While a call runs, what it
//! read (`Read` and `Answer`, including who plays and how) and what it
//! changed (`Op`) is recorded. A later call with the same key checks the
//! recorded reads against the game, natively, in order; where they all give
//! the same answers, it replays the recorded changes and returns the
//! recorded reply without running the rule, and where one differs the rule
//! runs and its new path is added. The recorded paths of a key form a tree
//! branching on answers (a verifying trace, as salsa and build systems
//! keep).
//!
//! Exactness rests on two facts: rules have no state of their own (no
//! globals, no clock, no randomness), so a call is a function of its key and
//! the answers it got; and a running rule reaches the game only through a
//! `Desk`, which records every read and change (the types hold this, not
//! each host function). Reads that come before a path's first change (and facts
//! of the call itself, such as who plays, wherever they come: no change
//! alters them) are checked before any change is made. A read of the table
//! after a change is checked on the table as the call changed it: the
//! replay keeps the table, plan and log aside, makes the changes so far and
//! goes on, and puts them back if a read answers differently. Calls that
//! print from a hook that may not log, or draw until a colour, always run.
//!
//! While the game asks questions without changing anything (working out
//! seats' legal moves, `Memo::freeze`), a read of the table answers the same
//! every time it is met: a read node keeps where its answer led, for that
//! stretch, and the next call that meets it goes straight on. A stretch
//! lasts as long as the table does: the game stamps each version of its
//! table, and freezing the same version again goes on with the same
//! stretch. Reads of the call (who asks, about which card) are answered
//! every time.

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use unolab_core::rules::read::{Answer, CardWords, NOTHING, PlayFact, Quick, Read};
use unolab_core::rules::{
    Aside, CallInfo, HookArg, Lent, Open, Reply, RuleFailure, Rules, Step, TraceLine, TraceSight,
};
use unolab_core::table::Table;
use unolab_core::turn::Op;
use unolab_core::variant::{FnRef, HookMode, Variant};

use crate::trace::{Answered, Told, Tracer};

/// What a call is about: the function and its argument. Everything else a
/// call may depend on, it reads.
#[derive(Debug, Clone, Copy)]
pub struct Key<'a> {
    pub function: u32,
    pub arg: &'a HookArg,
}

#[derive(Debug)]
enum Node {
    /// The call asks `read` next; where it goes depends on the answer.
    /// `known`: while the table is frozen, the frozen stretch (`Memo::epoch`)
    /// in which this read of the table led to a child, and the child.
    Read { read: Box<Read>, how: How, children: Children, known: Cell<(u32, u32)> },
    /// The call makes this change next.
    Op { op: Op, next: Option<u32> },
    /// The call returns this reply.
    Return(Reply),
    /// From here the call must run.
    Run,
}

/// Where the answers of a recorded read led.
#[derive(Debug)]
enum Children {
    /// The answers of a quick read (`Read::quick`) while each is a small
    /// word or nothing, as most are (seats, colours, numbers, yes or no):
    /// where each leads (`NONE`: not met), found at a look.
    Dense { by_word: Vec<u32>, nothing: u32 },
    /// The answers of a quick read (`Read::quick`): words, kept in order.
    Words(Vec<(u64, u32)>),
    /// The answers of any other read, compared whole while they are few.
    Answers(Vec<(Answer, u32)>),
    /// Many answers of another read (a list of cards, a kept value), found
    /// by their hash: such a read may gather thousands.
    Hashed(Box<FxHashMap<Answer, u32>>),
}

/// How many answers of a read that is not quick are compared one by one
/// before they are hashed.
const FEW_ANSWERS: usize = 8;

/// The words below this are found at a look (`Children::Dense`).
const DENSE_WORDS: u64 = 64;

impl Children {
    /// No answers yet, of a read checked as `how` says.
    fn of(how: How) -> Children {
        match how.quick {
            Some(_) => Children::Dense { by_word: Vec::new(), nothing: NONE },
            None => Children::Answers(Vec::new()),
        }
    }

    /// Where a quick read's answer `word` leads, if it was met before.
    #[inline(always)]
    fn find_word(&self, word: u64) -> Option<u32> {
        let child = match self {
            Children::Dense { nothing, .. } if word == NOTHING => *nothing,
            Children::Dense { by_word, .. } => *by_word.get(usize::try_from(word).ok()?)?,
            Children::Words(words) => return find_in_order(words, word),
            Children::Answers(_) | Children::Hashed(_) => return None,
        };
        (child != NONE).then_some(child)
    }

    /// Where `answer` leads, if it was met before.
    #[inline(always)]
    fn find(&self, answer: &Answer) -> Option<u32> {
        match (self, answer) {
            (Children::Dense { .. } | Children::Words(_), &Answer::Word(word)) => self.find_word(word),
            (Children::Dense { .. } | Children::Words(_), _) => None,
            (Children::Answers(answers), _) => {
                answers.iter().find(|(known, _)| known == answer).map(|&(_, child)| child)
            }
            (Children::Hashed(answers), _) => answers.get(answer).copied(),
        }
    }

    /// Adds where `answer` leads.
    fn insert(&mut self, answer: Answer, child: u32) {
        match (&mut *self, answer) {
            (Children::Dense { nothing, .. }, Answer::Word(NOTHING)) => *nothing = child,
            (Children::Dense { by_word, .. }, Answer::Word(word)) if word < DENSE_WORDS => {
                let at = word as usize;
                if by_word.len() <= at {
                    by_word.resize(at + 1, NONE);
                }
                by_word[at] = child;
            }
            (Children::Dense { by_word, nothing }, answer) => {
                // A larger word, or an answer that is not one: the answers
                // are kept in order from now on.
                let met = |(word, &child): (usize, &u32)| (child != NONE).then_some((word as u64, child));
                let mut words: Vec<_> = by_word.iter().enumerate().filter_map(met).collect();
                if *nothing != NONE {
                    words.push((NOTHING, *nothing));
                }
                *self = Children::Words(words);
                self.insert(answer, child);
            }
            (Children::Words(words), Answer::Word(word)) => {
                let at = words.partition_point(|&(known, _)| known < word);
                words.insert(at, (word, child));
            }
            (Children::Words(words), answer) => {
                // A quick read answers in words; should one not, its
                // answers are compared whole from now on.
                let mut answers: Vec<_> = words.drain(..).map(|(word, child)| (Answer::Word(word), child)).collect();
                answers.push((answer, child));
                *self = Children::Answers(answers);
            }
            (Children::Answers(answers), answer) if answers.len() < FEW_ANSWERS => answers.push((answer, child)),
            (Children::Answers(answers), answer) => {
                let mut hashed: FxHashMap<Answer, u32> = answers.drain(..).collect();
                hashed.insert(answer, child);
                *self = Children::Hashed(Box::new(hashed));
            }
            (Children::Hashed(answers), answer) => {
                answers.insert(answer, child);
            }
        }
    }
}

/// Where a word leads among a quick read's answers kept in order
/// (`Children::Words`), if it was met before.
#[inline(always)]
fn find_in_order(words: &[(u64, u32)], word: u64) -> Option<u32> {
    if words.len() > 16 {
        let at = words.partition_point(|&(known, _)| known < word);
        return words.get(at).filter(|&&(known, _)| known == word).map(|&(_, child)| child);
    }
    for &(known, child) in words {
        if known >= word {
            return (known == word).then_some(child);
        }
    }
    None
}

/// How a recorded read is checked, worked out once when it is recorded.
#[derive(Debug, Clone, Copy)]
struct How {
    /// The read as a quick one, answered as one word, if it is one.
    quick: Option<Quick>,
    /// `Read::of_play`, as its bit (0: none).
    of_play: u8,
    /// `Read::depends_on_call`.
    on_call: bool,
    /// `Read::of_call`: no change alters the answer.
    fixed: bool,
}

impl How {
    fn of(read: &Read) -> How {
        How {
            quick: read.quick(),
            of_play: read.of_play().map_or(0, |fact| fact as u8),
            on_call: read.depends_on_call(),
            fixed: read.of_call(),
        }
    }
}

/// The facts of the play a question leaves open, as `PlayFact` bits.
trait OpenBits {
    fn bits(self) -> u8;
}

impl OpenBits for Open {
    #[inline(always)]
    fn bits(self) -> u8 {
        match self {
            Open::Nothing => 0,
            Open::Aim { side, target } => {
                (u8::from(side) * PlayFact::Side as u8) | (u8::from(target) * PlayFact::Target as u8)
            }
            Open::Play => u8::MAX,
        }
    }
}

/// What a replay tells of the path it follows (`Memo::replay_noting`):
/// nothing (`()`), or each read and change as a step (a trace).
pub trait Notes {
    fn read(&mut self, read: &Read, table: &Table, call: &CallInfo, variant: &Variant);
    fn op(&mut self, op: &Op);
}

impl Notes for () {
    #[inline(always)]
    fn read(&mut self, _: &Read, _: &Table, _: &CallInfo, _: &Variant) {}

    #[inline(always)]
    fn op(&mut self, _: &Op) {}
}

impl Notes for Vec<Step> {
    fn read(&mut self, read: &Read, table: &Table, call: &CallInfo, variant: &Variant) {
        if let Ok(answer) = read.answer(table, call, variant) {
            self.push(Step::Read(read.clone(), answer));
        }
    }

    fn op(&mut self, op: &Op) {
        self.push(Step::Op(op.clone()));
    }
}

/// Where a new node hangs.
enum Parent {
    Root,
    Child(u32, Answer),
    Next(u32),
}

/// The recorded calls of one runtime.
pub struct Memo {
    /// Roots of calls about a card, by function: what a call reads of its
    /// card is recorded like any other read, so calls about different cards
    /// that read the same share a path. After them, the roots of calls
    /// about nothing, by function; then of calls about a seat, by function
    /// and seat (`Memo::direct_slot`).
    direct_roots: Vec<u32>,
    /// How many hook functions there are.
    functions: usize,
    /// Roots of other calls: by argument, the root of each function's
    /// calls about it (looked up without cloning the argument).
    roots: FxHashMap<HookArg, SmallVec<[(u32, u32); 2]>>,
    nodes: Vec<Node>,
    /// The frozen stretch the table is in (0: it is not frozen).
    epoch: u32,
    /// The last stretch there was.
    last_epoch: u32,
    /// The version of the table the last stretch was of.
    last_stamp: Option<u64>,
    /// Where a replay keeps the table while it checks reads past changes.
    aside: RefCell<Aside>,
    /// What each card shows, for checking reads of cards at a look.
    words: CardWords,
}

const NONE: u32 = u32::MAX;

/// Where a replayed call returned: a `Return` node of the memo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Returned(u32);

impl Memo {
    /// A memo for the `functions` hook functions of `variant`.
    pub fn new(functions: usize, variant: &Variant) -> Memo {
        Memo {
            direct_roots: vec![NONE; functions * (2 + unolab_core::limits::PLAYERS)],
            functions,
            roots: FxHashMap::default(),
            nodes: Vec::new(),
            epoch: 0,
            last_epoch: 0,
            last_stamp: None,
            aside: RefCell::new(Aside::default()),
            words: CardWords::new(variant),
        }
    }

    /// The table, version `stamp` (the game's count of its changes), will
    /// not change until `thaw`: reads of it may be answered once for as
    /// long as the version lasts.
    pub fn freeze(&mut self, stamp: u64) {
        if self.last_stamp == Some(stamp) && self.last_epoch != 0 {
            self.epoch = self.last_epoch;
            return;
        }
        self.last_stamp = Some(stamp);
        self.last_epoch = self.last_epoch.checked_add(1).unwrap_or_else(|| {
            // After four billion stretches, forget what each node knew.
            for node in &self.nodes {
                if let Node::Read { known, .. } = node {
                    known.set((0, 0));
                }
            }
            1
        });
        self.epoch = self.last_epoch;
    }

    /// The table may change again.
    pub fn thaw(&mut self) {
        self.epoch = 0;
    }

    /// Is the table frozen (between `freeze` and `thaw`)?
    pub fn frozen(&self) -> bool {
        self.epoch != 0
    }

    /// The version stamp of the table last frozen (0: none yet).
    pub fn frozen_stamp(&self) -> u64 {
        self.last_stamp.unwrap_or(0)
    }

    pub fn clear(&mut self) {
        self.direct_roots.fill(NONE);
        self.roots.clear();
        self.nodes.clear();
    }

    /// The reply of a replayed call.
    pub fn reply(&self, returned: Returned) -> &Reply {
        match &self.nodes[returned.0 as usize] {
            Node::Return(reply) => reply,
            node => unreachable!("a call returns at a return node, not {node:?}"),
        }
    }

    /// Where in `direct_roots` the root of `key`'s calls is kept, if not
    /// by argument.
    #[inline(always)]
    fn direct_slot(&self, key: Key) -> Option<usize> {
        let (function, functions) = (key.function as usize, self.functions);
        match *key.arg {
            HookArg::Card(..) => Some(function),
            HookArg::None => Some(functions + function),
            HookArg::Seat(seat) if seat < unolab_core::limits::PLAYERS => {
                Some(2 * functions + function * unolab_core::limits::PLAYERS + seat)
            }
            _ => None,
        }
    }

    fn root(&self, key: Key) -> Option<u32> {
        match self.direct_slot(key) {
            Some(slot) => self.direct_roots.get(slot).copied().filter(|&id| id != NONE),
            None => self.roots.get(key.arg)?.iter().find(|&&(function, _)| function == key.function).map(|&(_, id)| id),
        }
    }

    fn set_root(&mut self, key: Key, id: u32) {
        match self.direct_slot(key) {
            Some(slot) => self.direct_roots[slot] = id,
            None => {
                let roots = self.roots.entry(key.arg.clone()).or_default();
                match roots.iter_mut().find(|(function, _)| *function == key.function) {
                    Some(root) => root.1 = id,
                    None => roots.push((key.function, id)),
                }
            }
        }
    }

    /// Replays a recorded call whose reads all answer the same now:
    /// makes its changes and says where it returned (`Memo::reply`).
    /// `None`: the call must run (nothing has changed then). A path that
    /// reads the table after a change is followed on the table as the call
    /// changed it: the table, plan and log are kept aside first and put
    /// back if a read answers differently.
    pub fn replay(&self, key: Key, lent: &mut Lent) -> Option<Returned> {
        self.replay_noting(key, lent, &mut ())
    }

    /// `replay`, telling `notes` of each read checked and change made
    /// (a trace; `()` tells nothing, at no cost).
    #[inline(always)]
    pub fn replay_noting(&self, key: Key, lent: &mut Lent, notes: &mut impl Notes) -> Option<Returned> {
        let mut id = self.root(key)?;
        // Changes met and not made yet.
        let mut changes: SmallVec<[&Op; 8]> = SmallVec::new();
        // Whether the changes met are made as they come (a read of the
        // table followed one), the table kept aside.
        let mut making = false;
        let given_up = |making: bool, lent: &mut Lent| {
            if making {
                self.put_back(lent);
            }
            None
        };
        loop {
            match &self.nodes[id as usize] {
                Node::Read { read, how, children, known } => {
                    if !changes.is_empty() && !how.fixed {
                        // The call read the table as it had changed it.
                        self.keep_and_make(&mut changes, lent);
                        making = true;
                    }
                    notes.read(read, lent.table(), lent.call(), lent.variant());
                    match self.follow(read, *how, children, known, lent.table(), lent.call(), lent.variant()) {
                        Some(child) => id = child,
                        None => return given_up(making, lent),
                    }
                }
                Node::Op { op, next } => {
                    notes.op(op);
                    if making {
                        lent.replay(op);
                    } else {
                        changes.push(op);
                    }
                    id = next.expect("a recorded change is followed by the rest of its call");
                }
                Node::Return(_) => {
                    for op in changes {
                        lent.replay(op);
                    }
                    return Some(Returned(id));
                }
                Node::Run => return given_up(making, lent),
            }
        }
    }

    /// Keeps the table, plan and log aside, then makes `changes`.
    #[cold]
    #[inline(never)]
    fn keep_and_make(&self, changes: &mut SmallVec<[&Op; 8]>, lent: &mut Lent) {
        lent.keep_aside(&mut self.aside.borrow_mut());
        for op in changes.drain(..) {
            lent.replay(op);
        }
    }

    /// Puts back what `keep_and_make` kept aside.
    #[cold]
    #[inline(never)]
    fn put_back(&self, lent: &mut Lent) {
        lent.put_back(&mut self.aside.borrow_mut());
    }

    /// Where the answer of `read` now leads, if it was met before.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn follow(
        &self,
        read: &Read,
        how: How,
        children: &Children,
        known: &Cell<(u32, u32)>,
        table: &Table,
        call: &CallInfo,
        variant: &Variant,
    ) -> Option<u32> {
        let (epoch, child) = known.get();
        if self.epoch != 0 && epoch == self.epoch {
            debug_assert_eq!(
                read.answer(table, call, variant).ok().and_then(|a| children.find(&a)),
                Some(child),
                "a frozen table answers {read:?} as before"
            );
            return Some(child);
        }
        let child = match (how.quick, children) {
            (Some(quick), Children::Dense { .. } | Children::Words(_)) => {
                let word = match quick {
                    Quick::ArgProp(prop) => call.card.map(|(id, side)| self.words.word(prop, id, side)),
                    Quick::TopProp(prop) => {
                        table.discard_pile().last().map(|&id| self.words.word(prop, id, table.side()))
                    }
                    Quick::OfList => read.list_word(table, call, variant).ok(),
                    _ => quick.word(table, call, variant),
                };
                debug_assert_eq!(word.map(Answer::Word), read.answer(table, call, variant).ok());
                children.find_word(word?)?
            }
            _ => children.find(&read.answer(table, call, variant).ok()?)?,
        };
        if self.epoch != 0 && !how.on_call {
            known.set((self.epoch, child));
        }
        Some(child)
    }

    /// What `function`, a predicate about a card, answers `call`, where its
    /// recorded calls know: the reply a recorded path returns whose reads
    /// all answer as they do now. What the call leaves `open` (the play's
    /// side and target, or the whole play) is asked of every such play: a
    /// path that reads it does not know. `None` where the memo does not know
    /// (or the path changes something).
    pub fn known_answer(
        &self,
        function: u32,
        open: Open,
        table: &Table,
        call: &CallInfo,
        variant: &Variant,
    ) -> Option<&Reply> {
        self.known_noting(function, open, table, call, variant, &mut ())
    }

    /// `known_answer`, telling `notes` of each read checked.
    #[inline(always)]
    pub fn known_noting(
        &self,
        function: u32,
        open: Open,
        table: &Table,
        call: &CallInfo,
        variant: &Variant,
        notes: &mut impl Notes,
    ) -> Option<&Reply> {
        debug_assert_eq!(call.card.is_none(), open == Open::Play, "a call names its card unless the play is open");
        let mut id = *self.direct_roots.get(function as usize).filter(|&&id| id != NONE)?;
        let open = open.bits();
        loop {
            match &self.nodes[id as usize] {
                Node::Read { how, .. } if how.of_play & open != 0 => return None,
                Node::Read { read, how, children, known } => {
                    notes.read(read, table, call, variant);
                    id = self.follow(read, *how, children, known, table, call, variant)?
                }
                Node::Return(reply) => return Some(reply),
                Node::Op { .. } | Node::Run => return None,
            }
        }
    }

    /// Adds the path of a call that ran: its steps and the reply it gave.
    pub fn record(&mut self, key: Key, steps: &[Step], reply: &Reply) {
        if self.nodes.len() + steps.len() + 1 > unolab_core::limits::MEMO_NODES {
            return;
        }
        // A path that does the uncheckable ends in `Run` where its changes
        // begin (reads of the table after a change are checked on the table
        // as changed: see `replay`).
        let first_change = steps.iter().position(|s| !matches!(s, Step::Read(..))).unwrap_or(steps.len());
        let replayable = !steps[first_change..].iter().any(|s| matches!(s, Step::Opaque));
        // A read met before on the path answers as it did then (nothing
        // changed in between, or it is a fact of the call): it is left out.
        let met_before = |at: usize, read: &Read| {
            (at < first_change || read.of_call())
                && steps[..at].iter().any(|earlier| matches!(earlier, Step::Read(known, _) if known == read))
        };
        let kept = |&(at, step): &(usize, &Step)| !matches!(step, Step::Read(read, _) if met_before(at, read));
        let until = if replayable { steps.len() } else { first_change };
        let path: Vec<&Step> = steps[..until].iter().enumerate().filter(kept).map(|(_, step)| step).collect();
        let end = if replayable { Node::Return(reply.clone()) } else { Node::Run };
        let mut at = self.root(key);
        let mut parent = Parent::Root;
        for step in path {
            let id = match at {
                Some(id) => id,
                None => {
                    let node = match step {
                        Step::Read(read, _) => {
                            let how = How::of(read);
                            Node::Read {
                                read: Box::new(read.clone()),
                                how,
                                children: Children::of(how),
                                known: Cell::new((0, 0)),
                            }
                        }
                        Step::Op(op) => Node::Op { op: op.clone(), next: None },
                        Step::Opaque => unreachable!("opaque steps end a path before they are reached"),
                    };
                    self.attach(key, parent, node)
                }
            };
            match (&self.nodes[id as usize], step) {
                (Node::Read { read, children, .. }, Step::Read(asked, answer)) if **read == *asked => {
                    at = children.find(answer);
                    parent = Parent::Child(id, answer.clone());
                }
                (Node::Op { op, next }, Step::Op(done)) if op == done => {
                    at = *next;
                    parent = Parent::Next(id);
                }
                // `Run`, or a path that disagrees with what was recorded
                // (which deterministic scripts cannot produce): leave it.
                _ => return,
            }
        }
        if at.is_none() {
            self.attach(key, parent, end);
        }
    }

    fn attach(&mut self, key: Key, parent: Parent, node: Node) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(node);
        match parent {
            Parent::Root => self.set_root(key, id),
            Parent::Child(at, answer) => {
                if let Node::Read { children, .. } = &mut self.nodes[at as usize] {
                    children.insert(answer, id);
                }
            }
            Parent::Next(at) => {
                if let Node::Op { next, .. } = &mut self.nodes[at as usize] {
                    *next = Some(id);
                }
            }
        }
        id
    }
}

/// Rules `R` with a memo in front: a call whose recorded reads all answer
/// as they did is replayed, without asking `R`; any other is asked of `R`,
/// and what it read and did is recorded. The same game either way, only
/// faster (a test plays every scenario, transcript and rule combination
/// both ways).
pub struct Memoized<R> {
    inner: R,
    memo: Memo,
    /// The table size the memo's calls saw (`players()` is not a read).
    players: usize,
    /// `players` while the trace is off, and no table's size (`TRACING`)
    /// while it is on: the hot paths (`run`, `known`) compare it with the
    /// table's size, and where it differs take their cold path, which
    /// clears the memo for a new table size or traces. So a game that does
    /// not trace pays not one instruction for the trace.
    gate: usize,
    /// How many events the log held when the table was last frozen (a
    /// trace of known answers says where they were given).
    frozen_at: usize,
    /// The trace, while it is on (`Rules::set_trace`); in a cell, since
    /// known answers are given through `&self`.
    tracer: Option<Box<RefCell<Tracer>>>,
}

/// `Memoized::gate` while the trace is on: no table has this many seats.
const TRACING: usize = usize::MAX;

impl<R: Rules> Memoized<R> {
    /// A memo in front of `inner`.
    pub fn over(inner: R) -> Memoized<R> {
        let variant = inner.variant().clone();
        let memo = Memo::new(variant.hook_functions, &variant);
        Memoized { memo, inner, players: 0, gate: 0, frozen_at: 0, tracer: None }
    }

    /// The rules the memo is in front of.
    pub fn inner(&self) -> &R {
        &self.inner
    }
}

impl<R: Rules> Memoized<R> {
    /// `run` past the gate: a call recorded calls do not answer is run and
    /// recorded.
    #[inline(always)]
    fn run_untraced(&mut self, f: &FnRef, arg: &HookArg, lent: &mut Lent) -> Result<&Reply, RuleFailure> {
        let key = Key { function: f.id, arg };
        if let Some(returned) = self.memo.replay(key, lent) {
            return Ok(self.memo.reply(returned));
        }
        let reply = self.inner.run(f, arg, lent)?;
        self.memo.record(key, lent.trace(), reply);
        Ok(reply)
    }

    /// `run` where the gate is shut (`gate`): the table has another size
    /// than the memo's calls saw (they are forgotten), or the trace is on.
    #[cold]
    #[inline(never)]
    fn run_gated(&mut self, f: &FnRef, arg: &HookArg, lent: &mut Lent) -> Result<&Reply, RuleFailure> {
        if self.players != lent.table().players() {
            self.memo.clear();
            self.players = lent.table().players();
        }
        if self.tracer.is_some() {
            return self.run_traced(f, arg, lent);
        }
        self.gate = self.players;
        self.run_untraced(f, arg, lent)
    }

    /// `known` where the gate is shut: nothing is known of a table of
    /// another size; with the trace on, a known answer is told of.
    #[cold]
    #[inline(never)]
    fn known_gated(&self, f: &FnRef, open: Open, call: &CallInfo, table: &Table) -> Option<&Reply> {
        match &self.tracer {
            Some(tracer) if self.players == table.players() => self.known_traced(tracer, f, open, call, table),
            _ => None,
        }
    }

    /// `run` with the trace on: the call is told of, with the reads and
    /// changes of the path the memo replayed or of the script that ran.
    #[cold]
    #[inline(never)]
    fn run_traced(&mut self, f: &FnRef, arg: &HookArg, lent: &mut Lent) -> Result<&Reply, RuleFailure> {
        let (before, at_event) = (lent.table().clone(), lent.events());
        let variant = self.inner.variant().clone();
        let key = Key { function: f.id, arg };
        let mut steps = Vec::new();
        let (answered, result) = match self.memo.replay_noting(key, lent, &mut steps) {
            Some(returned) => (Answered::Memo, Ok(self.memo.reply(returned))),
            None => {
                let result = self.inner.run(f, arg, lent);
                if let Ok(reply) = &result {
                    self.memo.record(key, lent.trace(), reply);
                }
                steps = lent.trace().to_vec();
                (Answered::Script, result)
            }
        };
        if let Some(tracer) = &self.tracer {
            let told = Told {
                f,
                arg,
                call: lent.call(),
                answered,
                steps: &steps,
                reply: result.as_ref().map(|reply| &**reply),
                before: &before,
                after: lent.table(),
                at_event,
            };
            tracer.borrow_mut().tell(&variant, told);
        }
        result
    }

    /// `known` with the trace on: a known answer is told of, with the
    /// reads that gave it.
    #[cold]
    #[inline(never)]
    fn known_traced(
        &self,
        tracer: &RefCell<Tracer>,
        f: &FnRef,
        open: Open,
        call: &CallInfo,
        table: &Table,
    ) -> Option<&Reply> {
        let mut steps = Vec::new();
        let reply = self.memo.known_noting(f.id, open, table, call, self.inner.variant(), &mut steps)?;
        let arg = match call.card {
            Some((id, side)) => HookArg::Card(id, side),
            None => HookArg::None,
        };
        let mut tracer = tracer.borrow_mut();
        tracer.frozen(self.memo.frozen_stamp());
        let at_event = self.frozen_at;
        let told = Told {
            f,
            arg: &arg,
            call,
            answered: Answered::Known,
            steps: &steps,
            reply: Ok(reply),
            before: table,
            after: table,
            at_event,
        };
        tracer.tell(self.inner.variant(), told);
        Some(reply)
    }
}

impl<R: Rules> Rules for Memoized<R> {
    fn variant(&self) -> &Arc<Variant> {
        self.inner.variant()
    }

    fn run(&mut self, f: &FnRef, arg: &HookArg, lent: &mut Lent) -> Result<&Reply, RuleFailure> {
        debug_assert!(
            !self.memo.frozen() || f.kind.mode() == HookMode::Predicate,
            "only predicates run while the table is frozen, not {}",
            f.kind.name()
        );
        lent.about(arg);
        if self.gate != lent.table().players() {
            return self.run_gated(f, arg, lent);
        }
        self.run_untraced(f, arg, lent)
    }

    fn set_trace(&mut self, trace: Option<TraceSight>) {
        let variant = self.inner.variant().clone();
        self.tracer = trace.map(|sight| Box::new(RefCell::new(Tracer::new(&variant, sight))));
        self.gate = if self.tracer.is_some() { TRACING } else { self.players };
    }

    fn take_trace(&mut self) -> Vec<TraceLine> {
        self.tracer.as_ref().map_or_else(Vec::new, |tracer| tracer.borrow_mut().take())
    }

    fn pause_trace(&mut self, paused: bool) {
        if let Some(tracer) = &self.tracer {
            tracer.borrow_mut().pause(paused);
            // Paused, calls take the way they take untraced.
            self.gate = if paused { self.players } else { TRACING };
        }
    }

    fn eval(&mut self, expression: &str, lent: &mut Lent) -> Result<String, RuleFailure> {
        self.inner.eval(expression, lent)
    }

    fn known(&self, f: &FnRef, open: Open, call: &CallInfo, table: &Table) -> Option<&Reply> {
        if self.gate != table.players() {
            return self.known_gated(f, open, call, table);
        }
        self.memo.known_answer(f.id, open, table, call, self.inner.variant())
    }

    fn freeze(&mut self, stamp: u64, events: usize) {
        self.memo.freeze(stamp);
        self.frozen_at = events;
    }

    fn thaw(&mut self) {
        self.memo.thaw();
    }

    fn begin_action(&mut self) {
        self.inner.begin_action();
    }

    fn end_action(&mut self) {
        self.inner.end_action();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use unolab_core::card::CardId;

    /// A quick read's answers are words, found in order; should one answer
    /// otherwise, every answer is compared whole from then on, and none is
    /// lost.
    #[test]
    fn answers_are_found_as_words_and_otherwise() {
        let mut children = Children::Words(Vec::new());
        for (word, child) in [(7, 0), (2, 1), (u64::MAX, 2)] {
            children.insert(Answer::Word(word), child);
        }
        assert!(matches!(&children, Children::Words(words) if words.is_sorted()));
        assert_eq!([2, 7, u64::MAX, 3].map(|w| children.find(&Answer::Word(w))), [Some(1), Some(0), Some(2), None]);
        children.insert(Answer::Value(None), 3);
        assert!(matches!(children, Children::Answers(_)));
        assert_eq!([2, 7, u64::MAX].map(|w| children.find(&Answer::Word(w))), [Some(1), Some(0), Some(2)]);
        assert_eq!(children.find(&Answer::Value(None)), Some(3));
        // Many answers are hashed, and every one is still found.
        let ids = |n: u16| Answer::Ids((0..n).map(CardId).collect());
        for n in 0..2 * FEW_ANSWERS as u16 {
            children.insert(ids(n), 10 + u32::from(n));
        }
        assert!(matches!(children, Children::Hashed(_)));
        assert_eq!([2, 7, u64::MAX].map(|w| children.find(&Answer::Word(w))), [Some(1), Some(0), Some(2)]);
        assert_eq!(children.find(&Answer::Value(None)), Some(3));
        assert!((0..2 * FEW_ANSWERS as u16).all(|n| children.find(&ids(n)) == Some(10 + u32::from(n))));
        assert_eq!(children.find(&ids(99)), None);
    }

    /// A quick read's small answers and nothing are found at a look; a
    /// larger word keeps them in order from then on, an answer that is not
    /// a word compares them whole, and none is lost on the way.
    #[test]
    fn small_words_are_found_at_a_look() {
        let mut children = Children::of(How::of(&Read::Me));
        for (word, child) in [(3, 0), (0, 1), (NOTHING, 2), (DENSE_WORDS - 1, 3)] {
            children.insert(Answer::Word(word), child);
        }
        assert!(matches!(&children, Children::Dense { .. }));
        let found =
            |children: &Children, words: &[u64]| words.iter().map(|&w| children.find_word(w)).collect::<Vec<_>>();
        let met = [3, 0, NOTHING, DENSE_WORDS - 1];
        assert_eq!(found(&children, &met), [Some(0), Some(1), Some(2), Some(3)]);
        assert_eq!(found(&children, &[1, 2, DENSE_WORDS, NOTHING - 1]), [None; 4]);
        children.insert(Answer::Word(DENSE_WORDS), 4);
        assert!(matches!(&children, Children::Words(words) if words.is_sorted() && words.len() == 5));
        assert_eq!(found(&children, &met), [Some(0), Some(1), Some(2), Some(3)]);
        assert_eq!(children.find(&Answer::Word(DENSE_WORDS)), Some(4));
        let mut children = Children::of(How::of(&Read::Me));
        children.insert(Answer::Word(5), 0);
        children.insert(Answer::Value(None), 1);
        assert!(matches!(&children, Children::Answers(_)));
        assert_eq!([Answer::Word(5), Answer::Value(None)].map(|a| children.find(&a)), [Some(0), Some(1)]);
    }
}
