//! The Rhai side of a ruleset. `engine` makes every engine (all limits in
//! one place); `check` compiles a layer's scripts and checks its hooks
//! against them; `api` registers the host functions scripts call, answering
//! questions through `read`; `convert` turns host values into script values
//! and back; `memo` reuses the outcome of a call whose reads answer the same.
//! `Runtime` compiles each layer once and runs hook calls against the game's
//! table, lent to the scripts for the duration of a call.

pub mod api;
pub mod check;
pub mod convert;
pub mod engine;
pub mod memo;
pub mod read;

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use rhai::{AST, CallFnOptions, Dynamic, Engine, FuncArgs, Scope};

use crate::card::{CardId, Color, Side};
use crate::event::Log;
use crate::rng::rng;
use crate::seat::Seat;
use crate::table::Table;
use crate::turn::{ChoiceOption, Penalty, TurnPlan};
use crate::variant::{FnRef, HookKind, Variant};

pub use check::check_layer;
pub use memo::{HookArg, Open};

/// A card as scripts see it: one design, shown on one side, and where the
/// script got it from, if it asked for it (what it reads of such a card is
/// recorded for the memo).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScriptCard {
    pub id: CardId,
    pub side: Side,
    pub source: Option<read::CardSource>,
}

/// What the hook being run is about.
#[derive(Debug, Clone)]
pub struct CallInfo {
    /// The hook: its mode says what the script may change.
    pub hook: HookKind,
    pub me: Seat,
    /// The card the hook is about (its argument) and the side it shows:
    /// set by `Runtime::run` from the argument.
    pub card: Option<(CardId, Side)>,
    pub as_flex: bool,
    pub target: Option<Seat>,
    pub going_out: bool,
    pub prev_color: Option<Color>,
    /// The penalty a play answers (otherwise `answering()` is the penalty
    /// waiting for an answer, if any).
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

/// What the game lends a hook call: what the call is about, and the
/// table, log and plan its changes go to.
pub struct Lent<'a> {
    pub call: &'a mut CallInfo,
    pub table: &'a mut Table,
    pub log: &'a mut Log,
    pub plan: &'a mut TurnPlan,
}

/// Everything a running hook works on, shared with the host functions.
pub struct HookCtx {
    pub table: Table,
    pub log: Log,
    pub call: CallInfo,
    pub plan: TurnPlan,
    /// What the running call read and changed, in order (for the memo).
    trace: Vec<memo::Step>,
}

/// A hook that failed: the script's error, with the layer it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptFailure(pub String);

impl std::fmt::Display for ScriptFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Compiled scripts of every layer, with the engine that runs them. One per
/// thread: engines and ASTs are not shared across threads.
pub struct Runtime {
    engine: Engine,
    /// When the running call started (its time budget).
    clock: engine::CallClock,
    layers: Vec<AST>,
    ctx: Rc<RefCell<HookCtx>>,
    scope: Scope<'static>,
    pub variant: Arc<Variant>,
    memo: memo::Memo,
    memoizing: bool,
    /// The table size the memo's calls saw (`players()` is not a read).
    memo_players: usize,
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
        }));
        let print_ctx = ctx.clone();
        let print_variant = variant.clone();
        let (mut engine, clock) = engine::hardened_engine(move |text| {
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
        let memo = memo::Memo::new(variant.hook_functions, &variant);
        Ok(Runtime { engine, clock, layers, ctx, scope: Scope::new(), variant, memo, memoizing: true, memo_players: 0 })
    }

    /// The names of every function scripts may call: the host's and the
    /// standard package's.
    pub fn function_names(&self) -> std::collections::HashSet<String> {
        self.engine.gen_fn_signatures(true).iter().map(|s| signature_name(s).to_string()).collect()
    }

    /// Signatures of the host's functions (not the standard package's).
    pub fn host_signatures(&self) -> Vec<String> {
        self.engine.gen_fn_signatures(false)
    }

    /// The numbers of arguments each host function takes, for the
    /// functions only the host provides (a name the standard package also
    /// has may take other counts there).
    pub fn host_arities(&self) -> std::collections::HashMap<String, std::collections::HashSet<usize>> {
        use std::collections::HashMap;
        let count_by_name = |signatures: &[String]| {
            let mut counts: HashMap<String, usize> = HashMap::new();
            for signature in signatures {
                *counts.entry(signature_name(signature).to_string()).or_default() += 1;
            }
            counts
        };
        let host = self.host_signatures();
        let everywhere = count_by_name(&self.engine.gen_fn_signatures(true));
        let only_host = count_by_name(&host);
        let mut arities: HashMap<String, std::collections::HashSet<usize>> = HashMap::new();
        for signature in &host {
            let name = signature_name(signature);
            let Some(inside) = signature.split_once('(').and_then(|(_, rest)| rest.rsplit_once(')')) else { continue };
            let inside = inside.0.trim();
            if everywhere.get(name) == only_host.get(name) {
                arities.entry(name.to_string()).or_default().insert(if inside.is_empty() {
                    0
                } else {
                    inside.split(',').count()
                });
            }
        }
        arities
    }

    /// Compiles a script with this runtime's engine.
    pub fn compile(&self, text: &str) -> Result<AST, rhai::ParseError> {
        self.engine.compile(text)
    }

    /// The table, version `stamp`, will not change until `thaw` (only
    /// predicates run): the memo may answer each read of it once for as long
    /// as the version lasts.
    pub fn freeze(&mut self, stamp: u64) {
        self.memo.freeze(stamp);
    }

    /// An action (or a working out of moves) starts, unless one is under
    /// way: its scripts share one time budget. It ends when the returned
    /// clock is dropped.
    pub fn start_action(&self) -> engine::ActionClock {
        self.clock.start_action()
    }

    /// The runtime serves a new game: its table versions count afresh.
    pub fn forget_stamp(&mut self) {
        self.memo.forget_stamp();
    }

    /// The table may change again.
    pub fn thaw(&mut self) {
        self.memo.thaw();
    }

    /// What predicate `f`, about a card, answers `call`, where the memo
    /// knows without running anything; for what the call leaves `open`,
    /// what it answers whatever that is (`Memo::known_answer`). `None` where
    /// the memo does not know (or is off).
    pub fn known_answer(&self, f: &FnRef, open: Open, call: &CallInfo, table: &Table) -> Option<&Dynamic> {
        if !self.memoizing || self.memo_players != table.players() {
            return None;
        }
        self.memo.known_answer(f.id, open, table, call, &self.variant)
    }

    /// Switches the memo on or off (results are the same either way).
    pub fn set_memo(&mut self, on: bool) {
        self.memoizing = on;
        self.memo.clear();
    }

    /// Runs hook function `f` about `arg` on the table, or replays its
    /// recorded outcome when everything it read answers the same, and
    /// gives the value it returned to `then` (a replayed value is lent, not
    /// cloned). Its changes go to the lent table, plan and log.
    pub fn run<T>(
        &mut self,
        f: &FnRef,
        arg: &HookArg,
        lent: &mut Lent,
        then: impl FnOnce(&Dynamic, &Runtime) -> T,
    ) -> Result<T, ScriptFailure> {
        match self.replayed(f, arg, lent) {
            Some(returned) => Ok(then(self.memo.value(returned), self)),
            None => {
                let value = self.run_script(f, arg, lent)?;
                Ok(then(&value, self))
            }
        }
    }

    /// `run` for an `on_penalty` hook about `arg` (a penalty): the penalty
    /// it returns. The penalty of a replayed call is read from its value
    /// once.
    pub fn run_penalty(&mut self, f: &FnRef, arg: &HookArg, lent: &mut Lent) -> Result<Penalty, ScriptFailure> {
        let HookArg::Penalty(given) = arg else { unreachable!("an on_penalty hook is given a penalty") };
        match self.replayed(f, arg, lent) {
            Some(returned) => {
                let (variant, table) = (&self.variant, &*lent.table);
                self.memo.penalty(returned, table.side, |value| read_penalty(variant, value, given, table))
            }
            None => {
                let value = self.run_script(f, arg, lent)?;
                read_penalty(&self.variant, &value, given, lent.table)
            }
        }
        .map_err(|e| self.failure(f, format!("it returned a bad penalty: {e}")))
    }

    /// Replays the recorded outcome of `f` about `arg` where everything it
    /// read answers the same (the memo on): where it returned.
    fn replayed(&mut self, f: &FnRef, arg: &HookArg, lent: &mut Lent) -> Option<memo::Returned> {
        debug_assert!(
            !self.memo.frozen() || f.kind.mode() == crate::variant::HookMode::Predicate,
            "only predicates run while the table is frozen, not {}",
            f.kind.name()
        );
        lent.call.card = match arg {
            HookArg::Card(id, side) => Some((*id, *side)),
            _ => None,
        };
        if self.memo_players != lent.table.players() {
            self.memo.clear();
            self.memo_players = lent.table.players();
        }
        let key = memo::Key { function: f.id, arg };
        let Lent { call, table, log, plan } = lent;
        self.memoizing.then(|| self.memo.replay(key, table, call, &self.variant, plan, log)).flatten()
    }

    /// Runs `f` about `arg` (which `replayed` could not), recording what it
    /// read and did.
    fn run_script(&mut self, f: &FnRef, arg: &HookArg, lent: &mut Lent) -> Result<Dynamic, ScriptFailure> {
        let key = memo::Key { function: f.id, arg };
        let arg = match key.arg {
            HookArg::None => None,
            // What the script reads of its card is recorded (the memo keeps
            // one tree per function, whatever the card).
            HookArg::Card(id, side) => Some(Dynamic::from(ScriptCard { id: *id, side: *side, source: Some(ARG) })),
            HookArg::Seat(seat) => Some(Dynamic::from(*seat as i64)),
            HookArg::Penalty(p) => Some(Dynamic::from(convert::penalty_to_map(&self.variant, p))),
            HookArg::Chosen { tag, value } => {
                let mut choice = rhai::Map::new();
                choice.insert("seat".into(), Dynamic::from(lent.call.me as i64));
                choice.insert("tag".into(), Dynamic::from(tag.clone()));
                let value = match value {
                    ChoiceOption::Value(value) => read::script_value(value),
                    ChoiceOption::Card(id, side) => Dynamic::from(ScriptCard { id: *id, side: *side, source: None }),
                };
                choice.insert("value".into(), value);
                Some(Dynamic::from(choice))
            }
        };
        self.swap(lent);
        let mut ctx = self.ctx.borrow_mut();
        ctx.trace.clear();
        if let HookArg::Chosen { .. } = key.arg {
            // The choice names who chose: the call's seat, a read.
            let me = read::Answer::Word(ctx.call.me as u64);
            ctx.trace.push(memo::Step::Read(read::Read::Me, me));
        }
        drop(ctx);
        let result = match arg {
            None => self.invoke(f, ()),
            Some(arg) => self.invoke(f, (arg,)),
        };
        self.swap(lent);
        if self.memoizing
            && let Ok(value) = &result
            && !holds_asked_card(value)
        {
            self.memo.record(key, &self.ctx.borrow().trace, value);
        }
        result
    }

    /// Lends the call, table, log and plan to the scripts, or takes them
    /// back.
    fn swap(&mut self, lent: &mut Lent) {
        let mut ctx = self.ctx.borrow_mut();
        std::mem::swap(&mut ctx.table, lent.table);
        std::mem::swap(&mut ctx.log, lent.log);
        std::mem::swap(&mut ctx.call, lent.call);
        std::mem::swap(&mut ctx.plan, lent.plan);
    }

    fn invoke(&mut self, f: &FnRef, args: impl FuncArgs) -> Result<Dynamic, ScriptFailure> {
        let ast = &self.layers[f.layer];
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        self.clock.start();
        // The action's scripts may have spent its budget together.
        if let Some(why) = self.clock.overrun() {
            return Err(self.failure(f, why));
        }
        let result = self.engine.call_fn_with_options::<Dynamic>(options, &mut self.scope, ast, &f.function, args);
        self.clock.stop();
        result.map_err(|mut e| {
            // A call stopped by its time budget says so (the budget's words).
            if let rhai::EvalAltResult::ErrorTerminated(why, _) = &*e {
                return self.failure(f, why);
            }
            // Where the error happened, as `script:line:column:` (the script
            // that defines the hook function), so it is shown with its line.
            let at = e.take_position();
            match (self.defining_script(f), at.line(), at.position()) {
                (Some((script, _)), Some(line), column) => ScriptFailure(format!(
                    "script error in {} ({} hook {}): {script}:{line}:{}: {}{}",
                    self.variant.layers[f.layer].name,
                    f.kind.name(),
                    f.function,
                    column.unwrap_or(1),
                    call_in_words(&e, |name| self.function_exists(f, name)).unwrap_or_else(|| e.to_string()),
                    card_property_hint(&e)
                )),
                _ => {
                    e.set_position(at);
                    self.failure(f, e)
                }
            }
        })
    }

    /// Is there a function `name` a script of `f`'s layer may call: the
    /// host's, the standard package's or one the layer's scripts define?
    /// Only on the way to an error: it lists them all.
    fn function_exists(&self, f: &FnRef, name: &str) -> bool {
        self.layers[f.layer].iter_functions().any(|def| def.name == name) || self.function_names().contains(name)
    }

    /// The script that defines hook function `f`, and the line it starts
    /// on. Only on the way to an error: the scripts are compiled again.
    fn defining_script(&self, f: &FnRef) -> Option<(String, usize)> {
        // A later script of the layer overrides an earlier one's function
        // of the same name and arity (the scripts are merged in order).
        let arity = f.kind.arity();
        self.variant.layers[f.layer].scripts.iter().rev().find_map(|script| {
            let ast = self.engine.compile(&script.text).ok()?;
            let def = ast.iter_fn_def().find(|d| d.name == f.function && d.params.len() == arity)?;
            Some((script.name.clone(), def.body.start_position().line()?))
        })
    }

    /// A hook function as errors name it: its layer, hook and name, and the
    /// script and line that define it.
    pub fn describe(&self, f: &FnRef) -> String {
        let layer = &self.variant.layers[f.layer];
        let place = self.defining_script(f).map(|(script, line)| format!(", {script}:{line}")).unwrap_or_default();
        format!("{} ({} hook {}{place})", layer.name, f.kind.name(), f.function)
    }

    /// A script error in hook function `f`.
    pub fn failure(&self, f: &FnRef, problem: impl std::fmt::Display) -> ScriptFailure {
        ScriptFailure(format!("script error in {}: {problem}", self.describe(f)))
    }

    /// The error for a hook that returned `value`, which is not what its
    /// hook takes: `expected` says what is.
    pub fn wrong_answer(&self, f: &FnRef, value: &Dynamic, expected: &str) -> ScriptFailure {
        let returned = if value.is_unit() {
            "nothing (the function has no value at its end)".to_string()
        } else {
            format!("{value} ({})", kind_of(value))
        };
        self.failure(f, format!("it returned {returned}; it must return {expected}"))
    }
}

/// The penalty an `on_penalty` hook returned as `value`, given the penalty
/// `given`.
fn read_penalty(variant: &Variant, value: &Dynamic, given: &Penalty, table: &Table) -> Result<Penalty, String> {
    convert::penalty_from_map(variant, table.side, table.players(), value, given.by, given.group.clone())
}

/// The card a hook is about, as a source of reads.
const ARG: read::CardSource = read::CardSource { list: read::CardList::Arg, index: 0 };

/// Does a returned value hold a card the script asked for? Such a value
/// depends on more than the recorded reads, so the call is not replayed.
fn holds_asked_card(value: &Dynamic) -> bool {
    if let Some(card) = value.read_lock::<ScriptCard>() {
        return card.source.is_some();
    }
    if let Some(items) = value.read_lock::<rhai::Array>() {
        return items.iter().any(holds_asked_card);
    }
    if let Some(map) = value.read_lock::<rhai::Map>() {
        return map.values().any(holds_asked_card);
    }
    false
}

/// The function a signature (`fn name(a: i64) -> bool`) is of.
fn signature_name(signature: &str) -> &str {
    let head = signature.split('(').next().unwrap_or(signature);
    head.rsplit(' ').next().unwrap_or(head)
}

/// A line a script logs or prints, cut at `limits::LOG_LINE` characters,
/// saying how many more there were.
fn cut_line(text: &str) -> std::borrow::Cow<'_, str> {
    let limit = crate::limits::LOG_LINE;
    match text.char_indices().nth(limit) {
        Some((cut, _)) => format!("{}… ({} more characters)", &text[..cut], text.chars().count() - limit).into(),
        None => text.into(),
    }
}

impl HookCtx {
    /// `print` and `debug`: an effect hook's output is an event of the game
    /// log (replayed with its effects); other hooks may not change the log,
    /// so theirs is kept apart, and such a call is never replayed.
    fn print(&mut self, variant: &Variant, text: &str) {
        let text = cut_line(text);
        if self.call.hook.mode() == crate::variant::HookMode::Effect {
            // Past the bound of one call, output is no longer kept (the
            // next change the hook makes is an error).
            let steps = self.trace.len();
            if steps < crate::limits::HOOK_STEPS {
                self.perform(variant, crate::turn::Op::Log(text.as_ref().into()));
            } else if steps == crate::limits::HOOK_STEPS {
                let bound = format!("(more output of this hook is not kept: {steps} things at most)");
                self.perform(variant, crate::turn::Op::Log(bound.into()));
            }
        } else {
            self.trace.push(memo::Step::Opaque);
            self.log.print(&text);
        }
    }

    /// Applies one change and records it.
    fn perform(&mut self, variant: &Variant, op: crate::turn::Op) {
        self.table.apply_op(&op, &mut self.plan, variant, &mut self.log);
        self.trace.push(memo::Step::Op(op));
    }
}

/// What kind of value a script value is, in the words the docs use.
pub fn kind_of(value: &Dynamic) -> String {
    if value.is::<ScriptCard>() {
        return "a card".into();
    }
    type_in_words(value.type_name())
}

/// A Rhai type, by the name Rhai gives it, in the words the docs use.
fn type_in_words(name: &str) -> String {
    match name {
        "i64" => "a number".into(),
        "f64" => "a decimal number".into(),
        "bool" => "true/false".into(),
        "string" | "char" => "text".into(),
        name if name.contains("ImmutableString") => "text".into(),
        "map" => "a map".into(),
        "array" => "an array".into(),
        "()" => "nothing".into(),
        name if name.ends_with("ScriptCard") => "a card".into(),
        other => format!("a {}", other.rsplit("::").next().unwrap_or(other)),
    }
}

/// A call no function takes, in a script author's words: `draw() does
/// not take (a number, text)` for Rhai's `Function not found: draw (i64,
/// &str | ImmutableString | String)`; where no function has the name
/// (`exists` says), that there is none.
fn call_in_words(e: &rhai::EvalAltResult, exists: impl Fn(&str) -> bool) -> Option<String> {
    let rhai::EvalAltResult::ErrorFunctionNotFound(signature, _) = e else { return None };
    let (name, types) = signature.split_once(" (")?;
    let types = types.strip_suffix(')')?;
    let words: Vec<String> = types.split(", ").filter(|t| !t.is_empty()).map(type_in_words).collect();
    let given = words.join(", ");
    Some(if exists(name) {
        format!("{name}() does not take ({given}): see the authoring guide for what it takes")
    } else {
        format!("no function '{name}' (called with ({given}))")
    })
}

/// For a property a card does not have (`card.colour`), the properties it
/// has, and the one meant where it looks like a misspelling of one.
fn card_property_hint(e: &rhai::EvalAltResult) -> String {
    let rhai::EvalAltResult::ErrorDotExpr(message, _) = e else { return String::new() };
    let Some(name) = message.strip_prefix("Unknown property '").and_then(|rest| rest.split_once('\'')).map(|(n, _)| n)
    else {
        return String::new();
    };
    if !message.ends_with("type 'Card'") {
        return String::new();
    }
    let properties = api::CARD_PROPERTIES.iter().map(|&(name, _)| name);
    format!(
        " (a card's properties: {}){}",
        properties.clone().collect::<Vec<_>>().join(", "),
        crate::source::did_you_mean(name, properties)
    )
}
