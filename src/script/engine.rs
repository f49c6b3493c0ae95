//! The one place a Rhai engine is made, with every limit in one place: a raw
//! engine with the standard package (no time, no modules), bounded
//! operations, call depth, expression depth, strings, arrays and maps, no
//! `eval`, no `sleep`, strict variables, and print/debug routed to the host.

use std::cell::Cell;
use std::rc::Rc;
use std::time::Instant;

use rhai::packages::{Package, StandardPackage};
use rhai::{Dynamic, Engine};

use crate::limits;

/// When the running hook call started, for its time budget
/// (`limits::HOOK_MILLIS`): the operation budget alone does not bound time,
/// since one operation on a large value may be slow.
#[derive(Clone, Default)]
pub struct CallClock(Rc<Cell<Option<Instant>>>);

impl CallClock {
    /// A hook call starts now.
    pub fn start(&self) {
        self.0.set(Some(Instant::now()));
    }
}

/// A hardened engine whose `print` and `debug` go to `on_print`, and the
/// clock its time budget reads.
pub fn hardened_engine(on_print: impl Fn(&str) + 'static) -> (Engine, CallClock) {
    let mut engine = Engine::new_raw();
    engine.register_global_module(StandardPackage::new().as_shared_module());
    engine
        .set_max_operations(limits::SCRIPT_OPERATIONS)
        .set_max_call_levels(limits::SCRIPT_CALL_LEVELS)
        .set_max_expr_depths(limits::SCRIPT_EXPR_DEPTHS.0, limits::SCRIPT_EXPR_DEPTHS.1)
        .set_max_string_size(limits::SCRIPT_STRING_BYTES)
        .set_max_array_size(limits::SCRIPT_ARRAY_ITEMS)
        .set_max_map_size(limits::SCRIPT_MAP_ENTRIES)
        .set_max_variables(limits::SCRIPT_VARIABLES)
        .set_max_functions(limits::SCRIPT_FUNCTIONS)
        .set_max_strings_interned(1_024);
    engine.disable_symbol("eval");
    // The standard package's `sleep` blocks the thread and costs no
    // operations: a rule could hang the host with it. It is refused.
    engine.register_fn("sleep", |_: i64| -> Result<(), Box<rhai::EvalAltResult>> {
        Err("sleep is not available to rules: scripts run without waiting".into())
    });
    // A variable used before it is defined is a compile error, not a
    // runtime surprise.
    engine.set_strict_variables(true);
    let on_print = std::rc::Rc::new(on_print);
    let for_debug = on_print.clone();
    engine.on_print(move |text| on_print(text));
    engine.on_debug(move |text, _, _| for_debug(text));
    // Every so many operations, the time the call has taken is looked at.
    let clock = CallClock::default();
    let watch = clock.clone();
    let budget = std::time::Duration::from_millis(limits::HOOK_MILLIS);
    engine.on_progress(move |operations| {
        let late = operations % 1024 == 0 && watch.0.get().is_some_and(|start| start.elapsed() > budget);
        late.then(|| Dynamic::from(format!("the hook ran longer than {} ms", limits::HOOK_MILLIS)))
    });
    (engine, clock)
}
