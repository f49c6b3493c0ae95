//! The one place a Rhai engine is made, with every limit in one place: a raw
//! engine with the standard package (no time, no modules), bounded
//! operations, call depth, expression depth, strings, arrays and maps, no
//! `eval`, no `sleep`, strict variables, and print/debug routed to the host.

use rhai::Engine;
use rhai::packages::{Package, StandardPackage};

/// Operations one hook call may run before it is stopped.
pub const MAX_OPERATIONS: u64 = 200_000;

/// State values (`set_state`) the table, and each seat, may hold.
pub const MAX_STATE: usize = 256;

/// A hardened engine whose `print` and `debug` go to `on_print`.
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
    engine
}
