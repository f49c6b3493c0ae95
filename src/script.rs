//! The Rhai side of a ruleset: every engine is built by `hardened_engine`
//! (no file or network access, no modules, bounded operations, call depth and
//! memory; print and debug go to the game log); `Runtime` compiles each
//! layer's scripts once, registers the host API scripts call, and runs hooks
//! against a table lent to it for the duration of the call.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use rhai::packages::{Package, StandardPackage};
use rhai::{AST, Array, CallFnOptions, Dynamic, Engine, EvalAltResult, ImmutableString, Map, Position, Scope};

use crate::card::{CardId, Color, Side, Value};
use crate::event::{Event, Log, Seat};
use crate::table::{Challenge, DrawSpec, Penalty, Table};
use crate::variant::{FnRef, HookKind, Layer, OptionValue, Variant};

type HostResult<T> = Result<T, Box<EvalAltResult>>;

/// Variables (`set_var`) one game may hold.
pub const MAX_VARS: usize = 256;

/// Operations one hook call may run before it is stopped.
pub const MAX_OPERATIONS: u64 = 200_000;

/// The one place a Rhai engine is made: a raw engine with the standard
/// package (no time, no modules), every limit set, and print/debug routed to
/// `on_print`.
pub fn hardened_engine(on_print: impl Fn(&str) + 'static) -> Engine {
    let mut engine = Engine::new_raw();
    engine.register_global_module(StandardPackage::new().as_shared_module());
    engine
        .set_max_operations(MAX_OPERATIONS)
        .set_max_call_levels(32)
        .set_max_expr_depths(64, 32)
        .set_max_string_size(4_096)
        .set_max_array_size(1_024)
        .set_max_map_size(256)
        .set_max_variables(256)
        .set_max_functions(512)
        .set_max_strings_interned(1_024);
    engine.disable_symbol("eval");
    let on_print = Rc::new(on_print);
    let for_debug = on_print.clone();
    engine.on_print(move |text| on_print(text));
    engine.on_debug(move |text, _, _| for_debug(text));
    engine
}

/// A card as scripts see it: one design, shown on one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScriptCard {
    pub id: CardId,
    pub side: Side,
}

/// What the first-discard hook decided about the turned-up card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FirstDiscard {
    #[default]
    Keep,
    /// Put it back into the draw pile, reshuffle, and turn another.
    Redraw,
    /// Leave it and turn the next card onto it.
    TurnNext,
}

/// How the turn moves on after a play, as the effects left it.
#[derive(Debug, Clone, Default)]
pub struct TurnPlan {
    pub skips: usize,
    pub next: Option<Seat>,
    pub ask_color: Option<Seat>,
    pub first_discard: FirstDiscard,
    pub penalties: Vec<Penalty>,
}

/// What the hook being run is about.
#[derive(Debug, Clone, Default)]
pub struct CallInfo {
    pub me: Seat,
    pub card: Option<CardId>,
    pub as_flex: bool,
    pub target: Option<Seat>,
    pub going_out: bool,
    pub prev_color: Option<Color>,
    pub answering: Option<Penalty>,
    /// Predicates (`can_*`) may look but not change anything.
    pub read_only: bool,
    /// The cards the player could play now, where the host worked them out
    /// (for `can_draw`, `can_pass` and `draw_again`).
    pub playable: Option<Vec<CardId>>,
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

/// One change a hook made to the table or the turn plan. Replaying the ops
/// a hook recorded has exactly the effect of running it again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    Skip(usize),
    Reverse,
    SetNext(Seat),
    Penalty(Penalty),
    AskColor(Seat),
    SetColor(Color),
    SetPower(Seat, bool),
    Flip,
    SwapHands(Seat, Seat),
    PassHands,
    SetVar(String, i64),
    FirstDiscard(FirstDiscard),
    Log(String),
}

fn script_error(message: impl Into<String>) -> Box<EvalAltResult> {
    Box::new(EvalAltResult::ErrorRuntime(Dynamic::from(message.into()), Position::NONE))
}

impl HookCtx {
    fn seat(&self, p: i64) -> HostResult<Seat> {
        usize::try_from(p)
            .ok()
            .filter(|&s| s < self.table.players())
            .ok_or_else(|| script_error(format!("no player {p} at a table of {}", self.table.players())))
    }

    fn writable(&self, what: &str) -> HostResult<()> {
        if self.call.read_only {
            Err(script_error(format!("{what}: a can_* hook may not change the table")))
        } else {
            Ok(())
        }
    }

    /// Effects other than draws and flips are ignored on a player's last card.
    fn acts(&self, what: &str) -> HostResult<bool> {
        self.writable(what)?;
        Ok(!self.call.going_out)
    }

    /// Performs an effect that is ignored on a player's last card.
    fn act(&mut self, what: &str, variant: &Variant, op: Op) -> HostResult<Dynamic> {
        if self.acts(what)? {
            self.perform(variant, op);
        }
        Ok(Dynamic::UNIT)
    }

    /// Applies one op and records it.
    fn perform(&mut self, variant: &Variant, op: Op) {
        apply_op(&mut self.table, &mut self.log, &mut self.plan, variant, &op);
        self.trace.push(op);
    }
}

/// Applies one recorded op: the same change the host function made.
pub fn apply_op(table: &mut Table, log: &mut Log, plan: &mut TurnPlan, variant: &Variant, op: &Op) {
    match op {
        Op::Skip(n) => plan.skips = plan.skips.saturating_add(*n),
        Op::Reverse => table.reverse(log),
        Op::SetNext(seat) => plan.next = Some(*seat),
        Op::Penalty(penalty) => plan.penalties.push(penalty.clone()),
        Op::AskColor(seat) => plan.ask_color = Some(*seat),
        Op::SetColor(color) => table.color = Some(*color),
        Op::SetPower(seat, green) => table.set_power(*seat, *green, log),
        Op::Flip => table.flip(variant, log),
        Op::SwapHands(a, b) => table.swap_hands(*a, *b, log),
        Op::PassHands => table.pass_hands(log),
        Op::SetVar(name, value) => {
            table.vars.insert(name.clone(), *value);
        }
        Op::FirstDiscard(what) => plan.first_discard = *what,
        Op::Log(text) => log.push(Event::Script { text: text.clone() }),
    }
}

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
    pub direction: crate::card::Direction,
}

/// Entries the effect cache holds at most.
const MAX_CACHED_EFFECTS: usize = 4_096;

/// A hook that failed: the script's error, with the layer it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptFailure(pub String);

impl std::fmt::Display for ScriptFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Runtime {
    /// Compiles every layer's scripts and checks that each hook's function
    /// exists with the right number of parameters. Reports every problem.
    pub fn new(variant: Arc<Variant>) -> Result<Runtime, Vec<String>> {
        let placeholder = Table::new(2, false, rand::SeedableRng::seed_from_u64(0));
        let ctx = Rc::new(RefCell::new(HookCtx {
            table: placeholder,
            log: Log::new(false),
            call: CallInfo::default(),
            plan: TurnPlan::default(),
            trace: Vec::new(),
            cacheable: true,
        }));
        let print_ctx = ctx.clone();
        let print_variant = variant.clone();
        let mut engine = hardened_engine(move |text| {
            if let Ok(mut c) = print_ctx.try_borrow_mut() {
                c.perform(&print_variant, Op::Log(text.to_string()));
            }
        });
        register_api(&mut engine, &ctx, &variant);
        let mut problems = Vec::new();
        let mut layers = Vec::new();
        for layer in &variant.layers {
            layers.push(compile_layer(&engine, layer, &mut problems));
        }
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
            ScriptFailure(format!("script error in {} ({}): {e}", layer.name, f.function))
        })
    }

    pub fn card_arg(id: CardId, side: Side) -> Dynamic {
        Dynamic::from(ScriptCard { id, side })
    }

    /// The argument list of a card hook.
    pub fn card_args(id: CardId, side: Side) -> (ScriptCard,) {
        (ScriptCard { id, side },)
    }

    /// Reads the penalty map a hook returned.
    pub fn penalty_from(&self, value: Dynamic, original: &Penalty) -> Result<Penalty, ScriptFailure> {
        let ctx = self.ctx.borrow();
        penalty_from_map(&ctx, &self.variant, value, original.by)
            .map_err(|e| ScriptFailure(format!("on_penalty returned a bad penalty: {e}")))
    }

    pub fn penalty_map(&self, penalty: &Penalty) -> Dynamic {
        penalty_to_map(&self.variant, penalty).into()
    }
}

/// Compiles a layer's scripts into one AST, noting syntax errors with their
/// place.
fn compile_layer(engine: &Engine, layer: &Layer, problems: &mut Vec<String>) -> AST {
    let mut merged = AST::empty();
    for script in &layer.scripts {
        match engine.compile(&script.text) {
            Ok(mut ast) => {
                ast.set_source(script.name.as_str());
                merged = merged.merge(&ast);
            }
            Err(e) => {
                let at = e.position();
                let place = at.line().map(|line| crate::source::Position { line, column: at.position().unwrap_or(1) });
                problems.push(script.problem(place, e.err_type()));
            }
        }
    }
    merged
}

/// Checks a layer's scripts without running them: they compile, and every
/// hook names a function they define, with the parameters the hook passes.
pub fn check_layer(layer: &Layer) -> Vec<String> {
    let engine = hardened_engine(|_| {});
    let mut problems = Vec::new();
    let ast = compile_layer(&engine, layer, &mut problems);
    let compiled = problems.is_empty();
    for (kind, function, _) in &layer.hooks {
        match ast.iter_functions().find(|f| f.name == function) {
            None if compiled => problems.push(layer.source.problem_at(
                function,
                format!("hook {} calls '{function}', which no script of '{}' defines", kind.name(), layer.name),
            )),
            Some(f) if f.params.len() != kind.arity() => problems.push(layer.source.problem_at(
                function,
                format!("'{function}' must take {} parameter(s) to serve as {}", kind.arity(), kind.name()),
            )),
            _ => {}
        }
    }
    problems
}

/// The verdict of a `can_*` hook: `true`/`()` allows, `false` or a reason refuses.
pub fn verdict(value: &Dynamic, what: &str) -> Result<(), String> {
    if value.is_unit() || value.as_bool() == Ok(true) {
        Ok(())
    } else if let Ok(text) = value.clone().into_immutable_string() {
        Err(text.to_string())
    } else {
        Err(format!("{what} is not allowed now"))
    }
}

fn draw_spec_map(variant: &Variant, spec: &DrawSpec) -> Dynamic {
    let mut map = Map::new();
    map.insert("count".into(), Dynamic::from(i64::from(spec.count)));
    map.insert(
        "until_color".into(),
        spec.until.map(|c| Dynamic::from(variant.names.color_name(c).to_string())).unwrap_or(Dynamic::UNIT),
    );
    map.into()
}

fn penalty_to_map(variant: &Variant, p: &Penalty) -> Map {
    let mut map = Map::new();
    map.insert("victim".into(), Dynamic::from(p.victim as i64));
    map.insert("by".into(), Dynamic::from(p.by as i64));
    map.insert("draw".into(), Dynamic::from(i64::from(p.draw.count)));
    map.insert(
        "until_color".into(),
        p.draw.until.map(|c| Dynamic::from(variant.names.color_name(c).to_string())).unwrap_or(Dynamic::UNIT),
    );
    map.insert("group".into(), Dynamic::from(p.group.clone()));
    map.insert("pending".into(), Dynamic::from(p.pending));
    let challenge = match &p.challenge {
        Some(c) => {
            let mut m = Map::new();
            m.insert("guilty".into(), Dynamic::from(c.guilty));
            m.insert("fail".into(), draw_spec_map(variant, &c.fail));
            m.insert("success".into(), draw_spec_map(variant, &c.success));
            Dynamic::from(m)
        }
        None => Dynamic::UNIT,
    };
    map.insert("challenge".into(), challenge);
    map
}

fn draw_spec_from(ctx: &HookCtx, variant: &Variant, value: &Dynamic) -> Result<DrawSpec, String> {
    if let Ok(n) = value.as_int() {
        return u32::try_from(n)
            .map(|count| DrawSpec { count, until: None })
            .map_err(|_| format!("cannot draw {n} cards"));
    }
    let Some(map) = value.read_lock::<Map>() else {
        return Err("a draw is a number or #{count: N, until_color: COLOUR}".into());
    };
    let count = match map.get("count") {
        Some(v) => v.as_int().ok().and_then(|n| u32::try_from(n).ok()).ok_or("count must be a number 0 or more")?,
        None => 0,
    };
    let until = match map.get("until_color") {
        Some(v) if !v.is_unit() => Some(color_arg(ctx, variant, &v.to_string()).map_err(|e| e.to_string())?),
        _ => None,
    };
    Ok(DrawSpec { count, until })
}

fn penalty_from_map(ctx: &HookCtx, variant: &Variant, value: Dynamic, by: Seat) -> Result<Penalty, String> {
    let Some(map) = value.read_lock::<Map>().map(|m| m.clone()) else {
        return Err("a penalty is a map like #{victim: 1, draw: 2}".into());
    };
    for key in map.keys() {
        if !["victim", "by", "draw", "until_color", "group", "pending", "challenge"].contains(&key.as_str()) {
            return Err(format!("unknown penalty field '{key}'"));
        }
    }
    let victim = map.get("victim").and_then(|v| v.as_int().ok()).ok_or("victim must be a player number")?;
    let victim = ctx.seat(victim).map_err(|e| e.to_string())?;
    let mut draw = match map.get("draw") {
        Some(v) => draw_spec_from(ctx, variant, v)?,
        None => DrawSpec::default(),
    };
    if let Some(v) = map.get("until_color")
        && !v.is_unit()
    {
        draw.until = Some(color_arg(ctx, variant, &v.to_string()).map_err(|e| e.to_string())?);
    }
    let group = map.get("group").map(|g| g.to_string()).unwrap_or_default();
    let pending = map.get("pending").and_then(|v| v.as_bool().ok()).unwrap_or(false);
    let challenge = match map.get("challenge") {
        Some(c) if !c.is_unit() => {
            let Some(c) = c.read_lock::<Map>().map(|m| m.clone()) else {
                return Err("challenge must be a map #{guilty, fail, success}".into());
            };
            let guilty =
                c.get("guilty").and_then(|v| v.as_bool().ok()).ok_or("challenge.guilty must be true or false")?;
            let fail = draw_spec_from(ctx, variant, c.get("fail").ok_or("challenge.fail is missing")?)?;
            let success = draw_spec_from(ctx, variant, c.get("success").ok_or("challenge.success is missing")?)?;
            Some(Challenge { guilty, fail, success })
        }
        _ => None,
    };
    let by = match map.get("by") {
        Some(v) => ctx.seat(v.as_int().map_err(|_| "by must be a player number")?).map_err(|e| e.to_string())?,
        None => by,
    };
    Ok(Penalty { victim, by, draw, group, challenge, pending })
}

/// The symbol group of the card being played: a penalty's default group.
fn played_group(c: &HookCtx, variant: &Variant) -> String {
    let symbol = c.call.card.and_then(|id| variant.face(id, c.table.side).symbol());
    symbol.map(|s| variant.names.symbol_info(variant.names.symbol_info(s).group).name.clone()).unwrap_or_default()
}

/// A colour name of the side in play.
fn color_arg(ctx: &HookCtx, variant: &Variant, name: &str) -> HostResult<Color> {
    let color = variant.names.color(name).ok_or_else(|| script_error(format!("unknown colour '{name}'")))?;
    if !variant.colors_of(ctx.table.side).contains(&color) {
        return Err(script_error(format!("'{name}' is not a colour of the {} side", ctx.table.side.name())));
    }
    Ok(color)
}

/// The variant as the host API sees it, with colour and symbol names made
/// into script strings once, so that reading `card.color` allocates nothing.
struct Api {
    variant: Arc<Variant>,
    colors: Vec<ImmutableString>,
    symbols: Vec<ImmutableString>,
}

impl std::ops::Deref for Api {
    type Target = Variant;
    fn deref(&self) -> &Variant {
        &self.variant
    }
}

impl Api {
    fn new(variant: &Arc<Variant>) -> Api {
        let names = &variant.names;
        Api {
            variant: variant.clone(),
            colors: names.colors.iter().map(|c| c.as_str().into()).collect(),
            symbols: names.symbols.iter().map(|s| s.name.as_str().into()).collect(),
        }
    }

    fn color(&self, color: Option<Color>) -> Dynamic {
        color.map(|c| Dynamic::from(self.colors[c as usize].clone())).unwrap_or(Dynamic::UNIT)
    }

    fn symbol(&self, symbol: crate::card::SymbolId) -> Dynamic {
        Dynamic::from(self.symbols[symbol as usize].clone())
    }
}

/// Registers the card type and every host function scripts may call.
fn register_api(engine: &mut Engine, ctx: &Rc<RefCell<HookCtx>>, variant: &Arc<Variant>) {
    let variant = &Rc::new(Api::new(variant));
    register_card_type(engine, variant);

    // `host!` registers a function whose answer depends on the table: a hook
    // that calls one cannot be replayed from the effect cache. `pure!` is
    // for answers that follow from the cache key alone, and for changes that
    // are recorded as ops. Anything new is `host!` unless shown otherwise.
    macro_rules! register {
        ($reads_table:expr, $name:literal, |$c:ident, $v:ident $(, $arg:ident : $ty:ty)*| $body:expr) => {{
            let ctx = ctx.clone();
            let $v = variant.clone();
            engine.register_fn($name, move |$($arg: $ty),*| -> HostResult<Dynamic> {
                let mut guard = ctx.borrow_mut();
                #[allow(unused_variables)]
                let $c = &mut *guard;
                if $reads_table {
                    $c.cacheable = false;
                }
                #[allow(unused_variables)]
                let $v = &*$v;
                $body
            });
        }};
    }
    macro_rules! host {
        ($($t:tt)*) => { register!(true, $($t)*) };
    }
    macro_rules! pure {
        ($($t:tt)*) => { register!(false, $($t)*) };
    }

    // Questions about the table.
    pure!("players", |c, variant| Ok(Dynamic::from(c.table.players() as i64)));
    pure!("me", |c, variant| Ok(Dynamic::from(c.call.me as i64)));
    host!("current", |c, variant| Ok(Dynamic::from(c.table.current as i64)));
    host!("dealer", |c, variant| Ok(Dynamic::from(c.table.dealer as i64)));
    pure!("next_player", |c, variant| Ok(Dynamic::from(c.table.seat_after(c.call.me, 1) as i64)));
    pure!("next_player", |c, variant, n: i64| {
        let steps = usize::try_from(n).map_err(|_| script_error("next_player takes 0 or more steps"))?;
        Ok(Dynamic::from(c.table.seat_after(c.call.me, steps) as i64))
    });
    pure!("seat_after", |c, variant, p: i64, n: i64| {
        let from = c.seat(p)?;
        let steps = usize::try_from(n).map_err(|_| script_error("seat_after takes 0 or more steps"))?;
        Ok(Dynamic::from(c.table.seat_after(from, steps) as i64))
    });
    pure!("direction", |c, variant| Ok(Dynamic::from(c.table.direction.name().to_string())));
    host!("color", |c, variant| Ok(variant.color(c.table.color)));
    host!("prev_color", |c, variant| Ok(variant.color(c.call.prev_color)));
    pure!("side", |c, variant| Ok(Dynamic::from(c.table.side.name().to_string())));
    host!("hand_size", |c, variant, p: i64| Ok(Dynamic::from(c.table.hands[c.seat(p)?].len() as i64)));
    host!("hand", |c, variant, p: i64| {
        let seat = c.seat(p)?;
        let side = c.table.side;
        let cards: Array = c.table.hands[seat].iter().map(|&id| Runtime::card_arg(id, side)).collect();
        Ok(Dynamic::from(cards))
    });
    host!("top", |c, variant| Ok(c.table.top().map(|id| Runtime::card_arg(id, c.table.side)).unwrap_or(Dynamic::UNIT)));
    host!("draw_size", |c, variant| Ok(Dynamic::from(c.table.draw.len() as i64)));
    host!("discard_size", |c, variant| Ok(Dynamic::from(c.table.discard.len() as i64)));
    pure!("as_flex", |c, variant| Ok(Dynamic::from(c.call.as_flex)));
    pure!("target", |c, variant| Ok(c.call.target.map(|t| Dynamic::from(t as i64)).unwrap_or(Dynamic::UNIT)));
    pure!("going_out", |c, variant| Ok(Dynamic::from(c.call.going_out)));
    host!("answering", |c, variant| Ok(c
        .call
        .answering
        .as_ref()
        .map(|p| Dynamic::from(penalty_to_map(variant, p)))
        .unwrap_or(Dynamic::UNIT)));
    host!("pending_penalty", |c, variant| Ok(match &c.table.pending {
        Some(crate::table::Pending::Penalty(p)) => Dynamic::from(penalty_to_map(variant, p)),
        _ => Dynamic::UNIT,
    }));
    host!("power", |c, variant, p: i64| {
        let seat = c.seat(p)?;
        c.table
            .power
            .get(seat)
            .map(|&g| Dynamic::from(g))
            .ok_or_else(|| script_error("this variant has no Power Cards"))
    });
    host!("drawn", |c, variant| Ok(c
        .table
        .drawn
        .map(|id| Runtime::card_arg(id, c.table.side))
        .unwrap_or(Dynamic::UNIT)));
    host!("top_is_fresh", |c, variant| Ok(Dynamic::from(c.table.fresh_top)));
    host!("last_player", |c, variant| Ok(c
        .table
        .last_player
        .map(|p| Dynamic::from(p as i64))
        .unwrap_or(Dynamic::UNIT)));
    host!("score", |c, variant, p: i64| Ok(Dynamic::from(c.table.scores[c.seat(p)?])));
    pure!("target_score", |c, variant| Ok(Dynamic::from(variant.target_score)));
    host!("points", |c, variant, p: i64| Ok(Dynamic::from(c.table.hand_points(variant, c.seat(p)?))));
    pure!("option", |c, variant, name: ImmutableString| match variant.options.get(name.as_str()) {
        Some(OptionValue::Bool(b)) => Ok(Dynamic::from(*b)),
        Some(OptionValue::Int(i)) => Ok(Dynamic::from(*i)),
        Some(OptionValue::Text(t)) => Ok(Dynamic::from(t.clone())),
        None => Err(script_error(format!("no option '{name}' is declared"))),
    });
    host!("var", |c, variant, name: ImmutableString| Ok(Dynamic::from(
        c.table.vars.get(name.as_str()).copied().unwrap_or(0)
    )));
    host!("playable", |c, variant, card: ScriptCard| match &c.call.playable {
        Some(cards) => Ok(Dynamic::from(cards.contains(&card.id))),
        None => Err(script_error("playable() is only answered in can_draw, can_pass and draw_again hooks")),
    });
    host!("matches_top", |c, variant, card: ScriptCard| {
        Ok(Dynamic::from(c.table.matches(variant, variant.face(card.id, c.table.side), false)))
    });

    // Changes to the table, each recorded as an op (`HookCtx::perform`).
    pure!("skip", |c, variant, n: i64| {
        let n = usize::try_from(n).map_err(|_| script_error("skip takes 0 or more players"))?;
        c.act("skip", variant, Op::Skip(n))
    });
    pure!("reverse", |c, variant| c.act("reverse", variant, Op::Reverse));
    pure!("set_next", |c, variant, p: i64| {
        let seat = c.seat(p)?;
        c.act("set_next", variant, Op::SetNext(seat))
    });
    host!("draw", |c, variant, p: i64, n: i64| {
        c.writable("draw")?;
        let seat = c.seat(p)?;
        let count = u32::try_from(n).map_err(|_| script_error(format!("cannot draw {n} cards")))?;
        let drawn = c.table.draw_cards(variant, seat, DrawSpec { count, until: None }, &mut c.log);
        Ok(Dynamic::from(i64::from(drawn)))
    });
    host!("draw_until", |c, variant, p: i64, color: ImmutableString| {
        c.writable("draw_until")?;
        let seat = c.seat(p)?;
        let until = Some(color_arg(c, variant, &color)?);
        let drawn = c.table.draw_cards(variant, seat, DrawSpec { count: 0, until }, &mut c.log);
        Ok(Dynamic::from(i64::from(drawn)))
    });
    pure!("penalty", |c, variant, p: i64, n: i64| {
        c.writable("penalty")?;
        let victim = c.seat(p)?;
        let count = u32::try_from(n).map_err(|_| script_error(format!("cannot draw {n} cards")))?;
        let group = played_group(c, variant);
        let by = c.call.me;
        let draw = DrawSpec { count, until: None };
        c.perform(variant, Op::Penalty(Penalty { victim, by, draw, group, challenge: None, pending: false }));
        Ok(Dynamic::UNIT)
    });
    pure!("penalty", |c, variant, spec: Map| {
        c.writable("penalty")?;
        let mut penalty = penalty_from_map(c, variant, Dynamic::from(spec.clone()), c.call.me).map_err(script_error)?;
        if !spec.contains_key("group") {
            penalty.group = played_group(c, variant);
        }
        c.perform(variant, Op::Penalty(penalty));
        Ok(Dynamic::UNIT)
    });
    pure!("ask_color", |c, variant, p: i64| {
        let seat = c.seat(p)?;
        c.act("ask_color", variant, Op::AskColor(seat))
    });
    pure!("set_color", |c, variant, name: ImmutableString| {
        c.writable("set_color")?;
        let color = color_arg(c, variant, &name)?;
        c.perform(variant, Op::SetColor(color));
        Ok(Dynamic::UNIT)
    });
    pure!("set_power", |c, variant, p: i64, green: bool| {
        c.writable("set_power")?;
        let seat = c.seat(p)?;
        if c.table.power.is_empty() {
            return Err(script_error("this variant has no Power Cards"));
        }
        c.perform(variant, Op::SetPower(seat, green));
        Ok(Dynamic::UNIT)
    });
    pure!("flip", |c, variant| {
        c.writable("flip")?;
        if !variant.double_sided {
            return Err(script_error("flip needs a double-sided deck"));
        }
        c.perform(variant, Op::Flip);
        Ok(Dynamic::UNIT)
    });
    pure!("swap_hands", |c, variant, a: i64, b: i64| {
        let (a, b) = (c.seat(a)?, c.seat(b)?);
        c.act("swap_hands", variant, Op::SwapHands(a, b))
    });
    pure!("pass_hands", |c, variant| c.act("pass_hands", variant, Op::PassHands));
    host!("set_var", |c, variant, name: ImmutableString, value: i64| {
        c.writable("set_var")?;
        if c.table.vars.len() >= MAX_VARS && !c.table.vars.contains_key(name.as_str()) {
            return Err(script_error(format!("at most {MAX_VARS} variables per game")));
        }
        c.perform(variant, Op::SetVar(name.to_string(), value));
        Ok(Dynamic::UNIT)
    });
    pure!("redraw", |c, variant| {
        c.writable("redraw")?;
        c.perform(variant, Op::FirstDiscard(FirstDiscard::Redraw));
        Ok(Dynamic::UNIT)
    });
    pure!("turn_next", |c, variant| {
        c.writable("turn_next")?;
        c.perform(variant, Op::FirstDiscard(FirstDiscard::TurnNext));
        Ok(Dynamic::UNIT)
    });
    pure!("log", |c, variant, text: ImmutableString| {
        c.perform(variant, Op::Log(text.to_string()));
        Ok(Dynamic::UNIT)
    });
}

fn register_card_type(engine: &mut Engine, variant: &Rc<Api>) {
    engine.register_type_with_name::<ScriptCard>("Card");
    macro_rules! getter {
        ($name:literal, |$v:ident, $face:ident, $card:ident| $body:expr) => {{
            let $v = variant.clone();
            engine.register_get($name, move |$card: &mut ScriptCard| -> Dynamic {
                let $face = *$v.face($card.id, $card.side);
                $body
            });
        }};
    }
    getter!("color", |v, face, _c| v.color(face.color));
    getter!("flex_color", |v, face, _c| v.color(face.flex));
    getter!("number", |_v, face, _c| face.number().map(|n| Dynamic::from(i64::from(n))).unwrap_or(Dynamic::UNIT));
    getter!("symbol", |v, face, _c| match face.value {
        Value::Symbol(s) => v.symbol(s),
        Value::Number(_) => Dynamic::UNIT,
    });
    getter!("group", |v, face, _c| match face.value {
        Value::Symbol(s) => v.symbol(v.names.symbol_info(s).group),
        Value::Number(_) => Dynamic::UNIT,
    });
    getter!("is_wild", |_v, face, _c| Dynamic::from(face.is_wild()));
    getter!("is_number", |_v, face, _c| Dynamic::from(face.number().is_some()));
    getter!("is_action", |_v, face, _c| Dynamic::from(face.symbol().is_some() && !face.is_wild()));
    getter!("marked", |_v, face, _c| Dynamic::from(face.marked));
    getter!("restricted", |v, face, _c| Dynamic::from(
        face.symbol().is_some_and(|s| v.names.symbol_info(s).restricted)
    ));
    getter!("has_flex", |v, face, _c| Dynamic::from(v.names.has_flex_side(&face)));
    getter!("points", |v, face, _c| Dynamic::from(v.names.points(&face)));
    getter!("name", |v, face, _c| Dynamic::from(v.names.format_face(&face)));
    getter!("card", |v, _face, c| Dynamic::from(v.card_name(c.id)));
    let v = variant.clone();
    engine.register_fn("to_string", move |c: &mut ScriptCard| v.face_name(c.id, c.side));
    let v = variant.clone();
    engine.register_fn("==", move |a: ScriptCard, b: ScriptCard| v.face(a.id, a.side) == v.face(b.id, b.side));
    let v = variant.clone();
    engine.register_fn("!=", move |a: ScriptCard, b: ScriptCard| v.face(a.id, a.side) != v.face(b.id, b.side));
}
