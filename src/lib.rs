//! unolab: a sandbox for the UNO family of card games. The host owns
//! cards, piles, turn order and pending decisions; each variant and house
//! rule is YAML data plus Rhai scripts layered on top.
//!
//! The library is layered in crates the compiler keeps apart, re-exported
//! here: `unolab-core` (the game, no I/O and no interpreter),
//! `unolab-script` (the rules as Rhai scripts, and the memo) and
//! `unolab-load` (YAML and files). This package holds the front ends: the
//! command line (`cli`), the game at the keyboard (`repl`), simulation
//! (`sim`), scenario files (`scenario`), snapshot tests (`snapshot`),
//! starting files (`scaffold`), and the fuzzing entry points (`fuzz`). See
//! ARCHITECTURE.md.

pub use unolab_core::{
    bot, card, event, game, hands, limits, notation, rng, rules, seat, source, table, text, turn, variant, view,
};
/// Loading: YAML as written (`spec`), validated into the model (`build`).
pub use unolab_load as load;
pub use unolab_load::{builtin, loader, ruleset, yaml};
/// The rules as Rhai scripts, and the memo.
pub use unolab_script as script;

pub mod args;
pub mod cli;
pub mod diagnostic;
pub mod fuzz;
pub mod net;
pub mod output;
pub mod repl;
pub mod scaffold;
pub mod scenario;
pub mod sim;
pub mod snapshot;
pub mod trace;
