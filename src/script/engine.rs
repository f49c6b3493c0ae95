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

/// When the running hook call started, and when the first script of the
/// action under way did, for their time budgets (`limits::HOOK_MILLIS`,
/// `limits::ACTION_MILLIS`): the operation budget alone does not bound
/// time, since one operation on a large value may be slow, and an action may
/// run many hooks.
#[derive(Clone, Default)]
pub struct CallClock(Rc<Starts>);

#[derive(Default)]
struct Starts {
    call: Cell<Option<Instant>>,
    /// `Some` while an action is under way: when its first script ran
    /// (`None` until one does, so that actions no script runs for never
    /// read the clock).
    action: Cell<Option<Option<Instant>>>,
}

impl CallClock {
    /// A hook call starts now.
    pub fn start(&self) {
        let now = Instant::now();
        self.0.call.set(Some(now));
        if self.0.action.get() == Some(None) {
            self.0.action.set(Some(Some(now)));
        }
    }

    /// An action starts, unless one is under way (an action's own questions
    /// belong to it): `true` if this one started.
    pub fn start_action(&self) -> bool {
        let idle = self.0.action.get().is_none();
        if idle {
            self.0.action.set(Some(None));
        }
        idle
    }

    /// The action started by `start_action` is over.
    pub fn end_action(&self) {
        self.0.action.set(None);
    }

    /// Why the running call must stop, if a budget is spent: its own, or
    /// that of all the scripts of its action together.
    pub fn overrun(&self) -> Option<String> {
        let spent =
            |start: Option<Instant>, millis| start.is_some_and(|s| s.elapsed().as_millis() > u128::from(millis));
        if spent(self.0.call.get(), limits::HOOK_MILLIS) {
            Some(format!("the hook ran longer than {} ms", limits::HOOK_MILLIS))
        } else if spent(self.0.action.get().flatten(), limits::ACTION_MILLIS) {
            Some(format!("the hooks of one action ran longer than {} ms together", limits::ACTION_MILLIS))
        } else {
            None
        }
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
    engine.on_progress(
        move |operations| {
            if operations % 1024 == 0 { watch.overrun().map(Dynamic::from) } else { None }
        },
    );
    (engine, clock)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// The clock of an action `millis` ago that ran a script then.
    fn started_ago(clock: &CallClock, millis: u64) {
        let then = Instant::now().checked_sub(Duration::from_millis(millis)).expect("the machine has been up a while");
        clock.0.action.set(Some(Some(then)));
    }

    #[test]
    fn an_action_s_scripts_share_one_budget() {
        let clock = CallClock::default();
        assert!(clock.start_action(), "no action was under way");
        assert!(!clock.start_action(), "its moves are worked out inside it");
        clock.start();
        assert_eq!(clock.overrun(), None);
        started_ago(&clock, limits::ACTION_MILLIS + 10);
        clock.start();
        let why = clock.overrun().expect("the action's budget is spent, though the call just began");
        assert!(why.contains("one action"), "{why}");
        clock.end_action();
        assert_eq!(clock.overrun(), None, "the next action starts afresh");
        assert!(clock.start_action());
        clock.0.call.set(Instant::now().checked_sub(Duration::from_millis(limits::HOOK_MILLIS + 10)));
        assert!(clock.overrun().is_some_and(|why| why.contains("the hook ran longer")));
    }

    #[test]
    fn an_action_no_script_runs_for_reads_no_clock() {
        let clock = CallClock::default();
        assert!(clock.start_action());
        assert_eq!(clock.0.action.get(), Some(None));
        clock.start();
        assert!(clock.0.action.get().flatten().is_some(), "the first script's start is the action's");
    }
}
