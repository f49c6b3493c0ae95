//! unolab: a sandbox for the UNO family of card games. The host (this crate)
//! owns cards, piles, turn order and pending decisions; each variant and
//! house rule is YAML data plus Rhai scripts layered on top.

pub mod bot;
pub mod builtin;
pub mod card;
pub mod cli;
pub mod event;
pub mod game;
pub mod notation;
pub mod play;
pub mod scenario;
pub mod script;
pub mod sim;
pub mod source;
pub mod spec;
pub mod table;
pub mod variant;
pub mod view;
