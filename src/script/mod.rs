//! The Rhai side of a ruleset. `engine` makes every engine (all limits in
//! one place); `check` compiles a layer's scripts and checks its hooks
//! against them; `api` registers the host functions scripts call;
//! `convert` turns host values into script values and back. `Runtime`
//! compiles each layer once and runs hooks against a table lent to it for
//! the duration of the call.

pub mod api;
pub mod check;
pub mod convert;
pub mod engine;

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use rhai::{AST, CallFnOptions, Dynamic, Engine, Scope};

use crate::card::{CardId, Color, Direction, Side};
use crate::event::{Log, Seat};
use crate::table::{Table, rng};
use crate::turn::{Op, Penalty, TurnPlan};
use crate::variant::{FnRef, HookKind, Variant};

pub use check::check_layer;

/// A card as scripts see it: one design, shown on one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScriptCard {
    pub id: CardId,
    pub side: Side,
}

/// What the hook being run is about.
#[derive(Debug, Clone)]
pub struct CallInfo {
    /// The hook: its mode says what the script may change.
    pub hook: HookKind,
    pub me: Seat,
    pub card: Option<CardId>,
    pub as_flex: bool,
    pub target: Option<Seat>,
    pub going_out: bool,
    pub prev_color: Option<Color>,
    /// The penalty a play answers, or the one waiting for an answer.
    pub answering: Option<Penalty>,
    /// The cards the player could play now, where the host worked them out
    /// (for `can_draw`, `can_pass` and `draw_again`).
    pub playable: Option<Vec<CardId>>,
}

impl CallInfo {
    /// A call of `hook` by `me` about nothing in particular.
    pub fn new(hook: HookKind, me: Seat) -> CallInfo {
        CallInfo {
            hook,
            me,
            card: None,
            as_flex: false,
            target: None,
            going_out: false,
            prev_color: None,
            answering: None,
            playable: None,
        }
    }
}

/// Everything a hook works on, shared with the host functions.
pub struct HookCtx {
    pub table: Table,
    pub log: Log,
    pub call: CallInfo,
    pub plan: TurnPlan,
    /// The changes the hooks made so far, in order.
    trace: Vec<Op>,
    /// Did the hooks read only what the cache key holds?
    cacheable: bool,
}

/// A hook that failed: the script's error, with the layer it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptFailure(pub String);

impl std::fmt::Display for ScriptFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Everything an effect hook's outcome may depend on when it reads nothing
/// else from the table: the card and how it was played, the seat, and the
/// table's shape. Options are fixed for a runtime.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EffectKey {
    pub kind: HookKind,
    pub card: CardId,
    pub side: Side,
    pub me: Seat,
    pub as_flex: bool,
    pub target: Option<Seat>,
    pub going_out: bool,
    pub players: usize,
    pub direction: Direction,
}

/// Entries the effect cache holds at most.
const MAX_CACHED_EFFECTS: usize = 4_096;

/// Compiled scripts of every layer, with the engine that runs them. One per
/// thread: engines and ASTs are not shared across threads.
pub struct Runtime {
    engine: Engine,
    layers: Vec<AST>,
    ctx: Rc<RefCell<HookCtx>>,
    scope: Scope<'static>,
    pub variant: Arc<Variant>,
    /// Ops of effect hooks that read nothing beyond their key.
    cache: HashMap<EffectKey, Rc<[Op]>>,
    caching: bool,
}

impl Runtime {
    /// Compiles every layer's scripts. Reports every problem.
    pub fn new(variant: Arc<Variant>) -> Result<Runtime, Vec<String>> {
        let ctx = Rc::new(RefCell::new(HookCtx {
            table: Table::new(2, false, rng(0)),
            log: Log::new(false),
            call: CallInfo::new(HookKind::OnPlay, 0),
            plan: TurnPlan::default(),
            trace: Vec::new(),
            cacheable: true,
        }));
        let print_ctx = ctx.clone();
        let print_variant = variant.clone();
        let mut engine = engine::hardened_engine(move |text| {
            if let Ok(mut c) = print_ctx.try_borrow_mut() {
                c.print(&print_variant, text);
            }
        });
        api::register(&mut engine, &ctx, &variant);
        let mut problems = Vec::new();
        let layers = variant.layers.iter().map(|layer| check::compile_layer(&engine, layer, &mut problems)).collect();
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(Runtime { engine, layers, ctx, scope: Scope::new(), variant, cache: HashMap::new(), caching: true })
    }

    /// Lends `table` and `log` to the scripts for one batch of hook calls.
    pub fn lend(&mut self, table: &mut Table, log: &mut Log, call: CallInfo) {
        let mut ctx = self.ctx.borrow_mut();
        std::mem::swap(&mut ctx.table, table);
        std::mem::swap(&mut ctx.log, log);
        ctx.call = call;
        ctx.plan = TurnPlan::default();
        ctx.trace.clear();
        ctx.cacheable = true;
    }

    /// Takes the table and log back, with the turn plan the hooks left.
    pub fn reclaim(&mut self, table: &mut Table, log: &mut Log) -> TurnPlan {
        let mut ctx = self.ctx.borrow_mut();
        std::mem::swap(&mut ctx.table, table);
        std::mem::swap(&mut ctx.log, log);
        std::mem::take(&mut ctx.plan)
    }

    /// Switches the effect cache on or off (results are the same either way).
    pub fn set_effect_cache(&mut self, on: bool) {
        self.caching = on;
        self.cache.clear();
    }

    /// The recorded ops for this key, if a hook run with it read nothing else.
    pub fn cached(&self, key: &EffectKey) -> Option<Rc<[Op]>> {
        if self.caching { self.cache.get(key).cloned() } else { None }
    }

    /// Keeps the ops of the hooks just run under `key`, if they may be replayed.
    pub fn remember(&mut self, key: EffectKey) {
        let ctx = self.ctx.borrow();
        if self.caching && ctx.cacheable && self.cache.len() < MAX_CACHED_EFFECTS {
            self.cache.insert(key, ctx.trace.as_slice().into());
        }
    }

    /// Calls one hook function (the table must be lent).
    pub fn call(&mut self, f: &FnRef, args: impl rhai::FuncArgs) -> Result<Dynamic, ScriptFailure> {
        let ast = &self.layers[f.layer];
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        self.engine.call_fn_with_options::<Dynamic>(options, &mut self.scope, ast, &f.function, args).map_err(|e| {
            let layer = &self.variant.layers[f.layer];
            ScriptFailure(format!("script error in {} ({} hook {}): {e}", layer.name, f.kind.name(), f.function))
        })
    }

    /// The argument list of a card hook.
    pub fn card_args(id: CardId, side: Side) -> (ScriptCard,) {
        (ScriptCard { id, side },)
    }

    /// Reads the penalty map an `on_penalty` hook returned.
    pub fn penalty_from(&self, value: &Dynamic, original: &Penalty) -> Result<Penalty, ScriptFailure> {
        let ctx = self.ctx.borrow();
        let (side, players) = (ctx.table.side, ctx.table.players());
        convert::penalty_from_map(&self.variant, side, players, value, original.by, original.group.clone())
            .map_err(|e| ScriptFailure(format!("on_penalty returned a bad penalty: {e}")))
    }

    pub fn penalty_map(&self, penalty: &Penalty) -> Dynamic {
        convert::penalty_to_map(&self.variant, penalty).into()
    }
}

impl HookCtx {
    /// Applies one op and records it.
    fn perform(&mut self, variant: &Variant, op: Op) {
        self.table.apply_op(&op, &mut self.plan, variant, &mut self.log);
        self.trace.push(op);
    }

    /// `print` and `debug`: an effect hook's output is an event of the game
    /// log (replayed with its effects); other hooks may not change the log,
    /// so theirs is kept apart.
    fn print(&mut self, variant: &Variant, text: &str) {
        if self.call.hook.mode() == crate::variant::HookMode::Effect {
            self.perform(variant, Op::Log(text.into()));
        } else {
            self.cacheable = false;
            self.log.print(text);
        }
    }
}
