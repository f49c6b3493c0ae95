//! The one place a Rhai engine is made, with every limit in one place: a raw
//! engine with the standard package (no time, no modules), bounded
//! operations, call depth, expression depth, strings, arrays and maps, no
//! `eval`, no `sleep`, strict variables, and print/debug routed to the host;
//! and the clock of a hook call and of an action: a safety net past the
//! rules' budgets (operations, host calls, sizes), which stops a run saying
//! it was the clock and never decides a game.

use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use rhai::packages::{Package, StandardPackage};
use rhai::{Dynamic, Engine};

use unolab_core::limits;

/// How long the running hook call, and the scripts of the action under
/// way together, have run on the wall clock (`limits::HOOK_MILLIS`,
/// `limits::ACTION_MILLIS`): a safety net, since the operation budget
/// alone does not bound time (one operation on a large value may be slow,
/// and an action may run many hooks). What it stops has no result: the
/// failure says it was the clock (`RuleFailure::by_clock`). Only script
/// time counts: replays and the host's own work do not, and actions that
/// run no script never read the clock.
#[derive(Clone, Default)]
pub struct CallClock(Rc<Times>);

#[derive(Default)]
struct Times {
    /// When the running call started.
    call: Cell<Option<Instant>>,
    /// `Some` while an action is under way: the time its finished scripts
    /// took.
    action: Cell<Option<Duration>>,
}

/// An action under way, ended when dropped (also on the way out of a
/// panic, so that no later action inherits its time).
pub struct ActionClock(Option<CallClock>);

impl Drop for ActionClock {
    fn drop(&mut self) {
        if let Some(clock) = &self.0 {
            clock.0.action.set(None);
        }
    }
}

impl CallClock {
    /// A hook call starts now.
    pub fn start(&self) {
        self.0.call.set(Some(Instant::now()));
    }

    /// The running hook call is over: its time counts to its action's.
    pub fn stop(&self) {
        if let (Some(started), Some(spent)) = (self.0.call.take(), self.0.action.get()) {
            self.0.action.set(Some(spent + started.elapsed()));
        }
    }

    /// An action starts, unless one is under way (an action's own questions
    /// belong to it); it ends when the returned clock is dropped.
    pub fn start_action(&self) -> ActionClock {
        if self.0.action.get().is_some() {
            return ActionClock(None);
        }
        self.0.action.set(Some(Duration::ZERO));
        ActionClock(Some(self.clone()))
    }

    /// Why the running call must stop, if the clock says so: its own
    /// time, or that of all the scripts of its action together.
    pub fn overrun(&self) -> Option<String> {
        let running = self.0.call.get().map_or(Duration::ZERO, |started| started.elapsed());
        let why = if running > Duration::from_millis(limits::HOOK_MILLIS) {
            format!("the hook ran longer than {} ms", limits::HOOK_MILLIS)
        } else if self
            .0
            .action
            .get()
            .is_some_and(|spent| spent + running > Duration::from_millis(limits::ACTION_MILLIS))
        {
            format!("the hooks of one action ran longer than {} ms together", limits::ACTION_MILLIS)
        } else {
            return None;
        };
        Some(format!(
            "stopped by the clock: {why} on this machine (a safety net past the rules' budgets of operations and \
             host calls, which are the same on every machine: what it stopped has no result)"
        ))
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
        .set_max_strings_interned(limits::SCRIPT_INTERNED_STRINGS);
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
    // A field a host map lacks (a misspelt `p.grup` of a penalty) is an
    // error naming the fields there are, not `()`. A script's own map reads
    // such a field as `()` and adds it when written, as Rhai does.
    engine.on_map_missing_property(|map, field, _| {
        if let Some((what, fields)) = crate::convert::host_map(map) {
            return Err(crate::convert::no_such_field(what, fields, field).into());
        }
        if map.len() >= limits::SCRIPT_MAP_ENTRIES {
            return Err(format!("a map holds at most {} entries", limits::SCRIPT_MAP_ENTRIES).into());
        }
        map.entry(field.into()).or_insert(Dynamic::UNIT).try_into()
    });
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
    use super::*;

    #[test]
    fn an_action_s_scripts_share_one_budget() {
        let clock = CallClock::default();
        let action = clock.start_action();
        let inner = clock.start_action();
        assert!(inner.0.is_none(), "its moves are worked out inside it");
        drop(inner);
        assert!(clock.0.action.get().is_some(), "the inner one did not end the action");
        clock.start();
        assert_eq!(clock.overrun(), None);
        clock.stop();
        // Scripts that ran a long time between them, each within its own
        // budget: the next one is stopped as it starts.
        clock.0.action.set(Some(Duration::from_millis(limits::ACTION_MILLIS + 1)));
        clock.start();
        let why = clock.overrun().expect("the action's budget is spent, though the call just began");
        assert!(why.contains("one action") && why.starts_with("stopped by the clock"), "{why}");
        drop(action);
        assert_eq!(clock.overrun(), None, "the next action starts afresh");
        let _action = clock.start_action();
        clock.0.call.set(Instant::now().checked_sub(Duration::from_millis(limits::HOOK_MILLIS + 10)));
        assert!(clock.overrun().is_some_and(|why| why.starts_with("stopped by the clock: the hook ran longer")));
    }

    #[test]
    fn a_call_s_time_counts_to_its_action_only_while_one_is_under_way() {
        let clock = CallClock::default();
        clock.start();
        clock.stop();
        assert_eq!(clock.0.action.get(), None);
        let action = clock.start_action();
        clock.0.call.set(Instant::now().checked_sub(Duration::from_millis(5)));
        clock.stop();
        assert!(clock.0.action.get().is_some_and(|spent| spent >= Duration::from_millis(5)));
        drop(action);
        assert_eq!(clock.0.action.get(), None);
    }
}
