//! unolab: a sandbox for the UNO family of card games. The host (this crate)
//! owns cards, piles, turn order and pending decisions; each variant and
//! house rule is YAML data plus Rhai scripts layered on top.
//!
//! Layers, from the bottom: the model (`card`, `notation`, `variant`,
//! `source`, `ruleset`), the state and its vocabulary (`turn`, `hands`, `table`,
//! `event`), the rules engine (`script`, `game`, `view`, `bot`), and the
//! front ends (`loader`, `output`, `scenario`, `snapshot`, `sim`, `repl`, `scaffold`, `cli`). Only the
//! front ends touch files or the terminal.

pub mod args;
pub mod bot;
pub mod builtin;
pub mod card;
pub mod cli;
pub mod diagnostic;
pub mod event;
pub mod fuzz;
pub mod game;
pub mod hands;
pub mod limits;
pub mod loader;
pub mod notation;
pub mod output;
pub mod repl;
pub mod rng;
pub mod ruleset;
pub mod scaffold;
pub mod scenario;
pub mod script;
pub mod seat;
pub mod sim;
pub mod snapshot;
pub mod source;
pub mod table;
pub mod turn;
pub mod variant;
pub mod view;
pub mod yaml;
