//! The rules as Rhai scripts. `engine` makes every engine (all limits in
//! one place); `check` compiles a layer's scripts and checks its hooks
//! against them; `api` registers the host functions scripts call, each a
//! call on the `Desk` the game of a hook call is lent to; `convert` turns
//! host values into script values and back; `values` gives answers to
//! scripts; `memo` puts a memo in front of any rules (`Memoized`).
//! `Scripts` compiles each layer once and runs hook calls.

pub mod api;
pub mod check;
pub mod convert;
pub mod engine;
pub mod memo;
pub mod trace;
pub mod values;

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use rhai::{AST, CallFnOptions, Dynamic, Engine, FuncArgs, Scope};

use unolab_core::rules::{
    CardHandle, Desk, HookArg, Lent, Reply, RuleFailure, RulePlace, Rules, TraceLine, TraceSight,
};
use unolab_core::turn::ChoiceOption;
use unolab_core::variant::{FnRef, HookKind, Variant};

pub use check::check_layer;
pub use memo::Memoized;
use trace::Tracer;

/// The rules as scripts, with a memo in front: what every front end plays
/// with (`Scripts` alone runs every script every time).
pub type Runtime = Memoized<Scripts>;

impl Runtime {
    /// Compiles every layer's scripts. Reports every problem.
    pub fn new(variant: Arc<Variant>) -> Result<Runtime, Vec<String>> {
        Scripts::new(variant).map(Memoized::over)
    }
}

/// Compiled scripts of every layer, with the engine that runs them. One per
/// thread: engines and ASTs are not shared across threads.
pub struct Scripts {
    engine: Engine,
    /// When the running call started (its time budget).
    clock: engine::CallClock,
    /// The actions under way, innermost last (only the outermost holds the
    /// budget).
    actions: Vec<engine::ActionClock>,
    layers: Vec<AST>,
    /// The game of the running call, lent to the host functions.
    desk: Rc<RefCell<Desk>>,
    scope: Scope<'static>,
    variant: Arc<Variant>,
    /// The reply of the last call, lent to the caller.
    reply: Reply,
    /// The trace, while it is on (`Rules::set_trace`).
    tracer: Option<Box<Tracer>>,
}

impl Scripts {
    /// Compiles every layer's scripts. Reports every problem.
    pub fn new(variant: Arc<Variant>) -> Result<Scripts, Vec<String>> {
        let desk = Rc::new(RefCell::new(Desk::new(variant.clone())));
        let print_desk = desk.clone();
        let (mut engine, clock) = engine::hardened_engine(move |text| {
            if let Ok(mut desk) = print_desk.try_borrow_mut() {
                desk.print(text);
            }
        });
        api::register(&mut engine, &desk, &variant);
        let mut problems = Vec::new();
        let layers = variant.layers.iter().map(|layer| check::compile_layer(&engine, layer, &mut problems)).collect();
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(Scripts {
            engine,
            clock,
            actions: Vec::new(),
            layers,
            desk,
            scope: Scope::new(),
            variant,
            reply: Reply::Done,
            tracer: None,
        })
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

    /// For each function the host provides, the parameter types (as Rhai
    /// names them: `i64`, `string`, `array`...) of every function of that
    /// name, the host's and the standard package's (`reverse()` beside
    /// Rhai's `reverse(array)`).
    pub fn host_parameters(&self) -> std::collections::HashMap<String, Vec<Vec<String>>> {
        let host: std::collections::HashSet<String> =
            self.host_signatures().iter().map(|s| signature_name(s).to_string()).collect();
        let mut parameters: std::collections::HashMap<String, Vec<Vec<String>>> = Default::default();
        for signature in self.engine.gen_fn_signatures(true) {
            let name = signature_name(&signature);
            if !host.contains(name) {
                continue;
            }
            let Some((_, rest)) = signature.split_once('(') else { continue };
            let inside = rest.split_once(") -> ").map_or_else(|| rest.strip_suffix(')').unwrap_or(rest), |(p, _)| p);
            let types = inside
                .split(',')
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(|p| p.rsplit_once(':').map_or(p, |(_, t)| t).trim().trim_start_matches("&mut ").to_string())
                .collect();
            parameters.entry(name.to_string()).or_default().push(types);
        }
        parameters
    }

    /// Compiles a script with this runtime's engine.
    pub fn compile(&self, text: &str) -> Result<AST, rhai::ParseError> {
        self.engine.compile(text)
    }

    /// Runs `f` about `arg` on the game lent to the desk: its value, read
    /// as a reply of `f`'s hook while the desk still holds the game.
    fn call(&mut self, f: &FnRef, arg: &HookArg) -> Result<Reply, RuleFailure> {
        let arg_value = match arg {
            HookArg::None => None,
            // What the script reads of its card is recorded (the memo keeps
            // one tree per function, whatever the card).
            HookArg::Card(..) => self.desk.borrow().arg_card().map(Dynamic::from),
            HookArg::Seat(seat) => Some(Dynamic::from(*seat as i64)),
            HookArg::Penalty(p) => Some(Dynamic::from(convert::penalty_to_map(&self.variant, p))),
            HookArg::Chosen { tag, value } => {
                let mut choice = rhai::Map::new();
                // The choice names who chose: the call's seat, a read.
                let me = self.desk.borrow_mut().me();
                choice.insert("seat".into(), Dynamic::from(me as i64));
                choice.insert("tag".into(), values::text(tag));
                let value = match value {
                    ChoiceOption::Value(value) => values::script_value(value),
                    ChoiceOption::Card(id, side) => Dynamic::from(CardHandle::given(*id, *side)),
                };
                choice.insert("value".into(), value);
                Some(Dynamic::from(choice))
            }
        };
        let value = match arg_value {
            None => self.invoke(f, ()),
            Some(arg) => self.invoke(f, (arg,)),
        }?;
        self.reply(f, &value, arg)
    }

    /// The value `f` returned, as a reply of its hook, or why it is not one.
    fn reply(&self, f: &FnRef, value: &Dynamic, arg: &HookArg) -> Result<Reply, RuleFailure> {
        let mut desk = self.desk.borrow_mut();
        let players = desk.players();
        match f.kind {
            HookKind::MatchWinner => match convert::named_seats(value, players) {
                Some(seats) => Ok(Reply::Seats(seats)),
                None => Err(self.wrong_answer(
                    f,
                    value,
                    &format!("a seat (0 to {}), a list of seats, or () while nobody has won", players - 1),
                )),
            },
            HookKind::ScoreHand => match convert::seat_numbers(value, players) {
                Some(points) => Ok(Reply::Points(points)),
                None => Err(self.wrong_answer(f, value, &format!("a list of one number per seat ({players} numbers)"))),
            },
            HookKind::OnCatch => match value.as_int().ok().and_then(|n| u32::try_from(n).ok()) {
                Some(count) => Ok(Reply::Count(count)),
                None => Err(self.wrong_answer(f, value, "how many cards the caught player draws (0 or more)")),
            },
            HookKind::OnPenalty => {
                let HookArg::Penalty(given) = arg else { unreachable!("an on_penalty hook is given a penalty") };
                // The colour a penalty names is one of the side in play.
                let side = desk.side();
                convert::penalty_from_map(&self.variant, side, players, value, given.by, given.group.clone())
                    .map(Reply::Penalty)
                    .map_err(|e| self.failure(f, format!("it returned a bad penalty: {e}")))
            }
            kind if kind.mode() == unolab_core::variant::HookMode::Predicate => {
                let takes_reasons = kind.takes_reasons();
                match convert::verdict(value, takes_reasons) {
                    Some(verdict) => Ok(Reply::Verdict(verdict)),
                    None => {
                        let expected = match (kind.can_grant(), takes_reasons) {
                            (true, true) => "true, false, \"allow\" or a reason why not",
                            (true, false) => "true, false or \"allow\"",
                            (false, true) => "true, false or a reason why not",
                            (false, false) => "true or false",
                        };
                        Err(self.wrong_answer(f, value, expected))
                    }
                }
            }
            _ => Ok(Reply::Done),
        }
    }

    fn invoke(&mut self, f: &FnRef, args: impl FuncArgs) -> Result<Dynamic, RuleFailure> {
        let ast = &self.layers[f.layer];
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        self.clock.start();
        // The action's scripts may have spent its time together.
        if let Some(why) = self.clock.overrun() {
            return Err(self.stopped_by_clock(f, why));
        }
        let result = self.engine.call_fn_with_options::<Dynamic>(options, &mut self.scope, ast, &f.function, args);
        self.clock.stop();
        result.map_err(|mut e| {
            // A call stopped by the clock says so (the clock's words): no
            // rule failed.
            if let rhai::EvalAltResult::ErrorTerminated(why, _) = &*e {
                return self.stopped_by_clock(f, why);
            }
            // Where the error happened, as `script:line:column:` (the script
            // that defines the hook function), so it is shown with its line.
            let at = e.take_position();
            let words = limit_in_words(&e)
                .or_else(|| call_in_words(&e, |name| self.function_exists(f, name)))
                .unwrap_or_else(|| e.to_string());
            match (self.defining_script(f), at.line(), at.position()) {
                (Some((script, _)), Some(line), column) => {
                    let place = self.place(f, Some((script, line, column.unwrap_or(1))));
                    let message = format!("script error in {place}: {words}{}", card_property_hint(&e));
                    RuleFailure::at(place, message)
                }
                // Rhai gives a bound's error the place of the call into
                // the script, which a hook has not: no line is known.
                _ if limit_in_words(&e).is_some() => {
                    self.failure(f, format!("{words} (Rhai does not say on which line of {})", f.function))
                }
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

    /// Hook function `f` stopped by the clock (`CallClock`), saying `why`.
    fn stopped_by_clock(&self, f: &FnRef, why: impl std::fmt::Display) -> RuleFailure {
        RuleFailure::at(self.place(f, None), format!("{} {why}", self.describe(f))).stopped_by_clock()
    }

    /// A script error in hook function `f`.
    pub fn failure(&self, f: &FnRef, problem: impl std::fmt::Display) -> RuleFailure {
        RuleFailure::at(self.place(f, None), format!("script error in {}: {problem}", self.describe(f)))
    }

    /// Where in the rules hook function `f` is, at `script` (name, line and
    /// column) where known.
    fn place(&self, f: &FnRef, script: Option<(String, usize, usize)>) -> RulePlace {
        RulePlace {
            layer: self.variant.layers[f.layer].name.clone(),
            hook: f.kind.name(),
            function: f.function.clone(),
            script,
        }
    }

    /// The error for a hook that returned `value`, which is not what its
    /// hook takes: `expected` says what is.
    pub fn wrong_answer(&self, f: &FnRef, value: &Dynamic, expected: &str) -> RuleFailure {
        let returned = if value.is_unit() {
            "nothing (the function has no value at its end)".to_string()
        } else {
            format!("{value} ({})", kind_of(value))
        };
        self.failure(f, format!("it returned {returned}; it must return {expected}"))
    }
}

impl Rules for Scripts {
    fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    fn run(&mut self, f: &FnRef, arg: &HookArg, lent: &mut Lent) -> Result<&Reply, RuleFailure> {
        if self.tracer.is_some() {
            return self.run_traced(f, arg, lent);
        }
        self.answer(f, arg, lent)?;
        Ok(&self.reply)
    }

    fn set_trace(&mut self, trace: Option<TraceSight>) {
        self.tracer = trace.map(|sight| Box::new(Tracer::new(&self.variant, sight)));
    }

    fn take_trace(&mut self) -> Vec<TraceLine> {
        self.tracer.as_mut().map_or_else(Vec::new, |tracer| tracer.take())
    }

    fn pause_trace(&mut self, paused: bool) {
        if let Some(tracer) = &mut self.tracer {
            tracer.pause(paused);
        }
    }

    fn begin_action(&mut self) {
        self.actions.push(self.clock.start_action());
    }

    fn end_action(&mut self) {
        self.actions.pop();
    }

    fn eval(&mut self, expression: &str, lent: &mut Lent) -> Result<String, RuleFailure> {
        let question = self.engine.compile_expression(expression).map_err(|e| RuleFailure::new(format!("{e}")))?;
        // The layers' functions may be asked too (a later layer's first).
        let ast = self.layers.iter().fold(AST::empty(), |all, layer| all.merge(&layer.clone_functions_only()));
        let ast = ast.merge(&question);
        self.desk.borrow_mut().swap(lent);
        self.clock.start();
        let value = self.engine.eval_ast_with_scope::<Dynamic>(&mut Scope::new(), &ast);
        self.clock.stop();
        let words = value.map(|value| self.shown(&value));
        self.desk.borrow_mut().swap(lent);
        words.map_err(|e| RuleFailure::new(format!("{e}")))
    }
}

impl Scripts {
    /// Runs `f` about `arg` on the game `lent`: its reply is kept in
    /// `self.reply`.
    #[inline(always)]
    fn answer(&mut self, f: &FnRef, arg: &HookArg, lent: &mut Lent) -> Result<(), RuleFailure> {
        lent.about(arg);
        self.desk.borrow_mut().swap(lent);
        let reply = self.call(f, arg);
        self.desk.borrow_mut().swap(lent);
        self.reply = reply?;
        Ok(())
    }

    /// `run` with the trace on (the memo off: every call runs its script).
    #[cold]
    #[inline(never)]
    fn run_traced(&mut self, f: &FnRef, arg: &HookArg, lent: &mut Lent) -> Result<&Reply, RuleFailure> {
        let (before, at_event) = (lent.table().clone(), lent.events());
        let result = self.answer(f, arg, lent);
        if let Some(tracer) = &mut self.tracer {
            let told = trace::Told {
                f,
                arg,
                call: lent.call(),
                answered: trace::Answered::Script,
                steps: lent.trace(),
                reply: result.as_ref().map(|()| &self.reply),
                before: &before,
                after: lent.table(),
                at_event,
            };
            tracer.tell(&self.variant, told);
        }
        result.map(|()| &self.reply)
    }

    /// A script value as a person reads it: cards by name, lists and maps
    /// of them too.
    fn shown(&self, value: &Dynamic) -> String {
        if value.is_unit() {
            return "()".into();
        }
        if let Some(card) = value.read_lock::<CardHandle>() {
            return self.desk.borrow().card_name(&card);
        }
        if let Some(items) = value.read_lock::<rhai::Array>() {
            let items: Vec<String> = items.iter().map(|item| self.shown(item)).collect();
            return format!("[{}]", items.join(", "));
        }
        if let Some(map) = value.read_lock::<rhai::Map>() {
            let fields: Vec<String> = map.iter().map(|(k, v)| format!("{k}: {}", self.shown(v))).collect();
            return format!("#{{{}}}", fields.join(", "));
        }
        value.to_string()
    }
}

/// The function a signature (`fn name(a: i64) -> bool`) is of.
fn signature_name(signature: &str) -> &str {
    let head = signature.split('(').next().unwrap_or(signature);
    head.rsplit(' ').next().unwrap_or(head)
}

/// What kind of value a script value is, in the words the docs use.
pub fn kind_of(value: &Dynamic) -> String {
    if value.is::<CardHandle>() {
        return "a card".into();
    }
    type_in_words(value.type_name())
}

/// A Rhai type, by the name Rhai gives it, in the words the docs use.
pub(crate) fn type_in_words(name: &str) -> String {
    match name {
        "i64" => "a number".into(),
        "f64" => "a decimal number".into(),
        "bool" => "true/false".into(),
        "string" | "char" => "text".into(),
        name if name.contains("ImmutableString") => "text".into(),
        "map" => "a map".into(),
        "array" => "an array".into(),
        "()" => "nothing".into(),
        name if name.ends_with("CardHandle") => "a card".into(),
        other => format!("a {}", other.rsplit("::").next().unwrap_or(other)),
    }
}

/// A script stopped by one of its bounds (`limits`), in the words of the
/// authoring guide's Limits table: which bound, and how large it is.
fn limit_in_words(e: &rhai::EvalAltResult) -> Option<String> {
    use rhai::EvalAltResult::{ErrorDataTooLarge, ErrorStackOverflow, ErrorTooManyOperations};
    use unolab_core::limits;
    let (what, bound, hint) = match e {
        ErrorTooManyOperations(_) => (
            format!("more than {} Rhai operations", grouped(limits::SCRIPT_OPERATIONS)),
            "one hook call",
            ": a loop that never ends?",
        ),
        ErrorStackOverflow(_) => (
            format!("calls nested more than {} deep", limits::SCRIPT_CALL_LEVELS),
            "a script's call depth",
            ": a function that calls itself without end?",
        ),
        ErrorDataTooLarge(what, _) if what.contains("string") => (
            format!("a string longer than {} characters", grouped(limits::SCRIPT_STRING_BYTES as u64)),
            "a script's strings",
            "",
        ),
        ErrorDataTooLarge(what, _) if what.contains("array") => (
            format!("an array of more than {} items", grouped(limits::SCRIPT_ARRAY_ITEMS as u64)),
            "a script's arrays",
            "",
        ),
        ErrorDataTooLarge(what, _) if what.contains("map") => {
            (format!("a map of more than {} entries", limits::SCRIPT_MAP_ENTRIES), "a script's maps", "")
        }
        _ => return None,
    };
    Some(format!("{what}, past the bound on {bound} (see Limits in docs/authoring.md){hint}"))
}

/// A whole number with its thousands grouped: `200,000`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (at, digit) in digits.chars().enumerate() {
        if at > 0 && (digits.len() - at).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
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
        unolab_core::source::did_you_mean(name, properties)
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn thousands_are_grouped() {
        let shown: Vec<String> = [0, 999, 1_000, 4_096, 200_000, 1_234_567].into_iter().map(super::grouped).collect();
        assert_eq!(shown, ["0", "999", "1,000", "4,096", "200,000", "1,234,567"]);
    }
}
