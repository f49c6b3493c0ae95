//! The core of unolab: cards, piles, seats and turn order, the game and its
//! legal moves, and the vocabulary in which the game asks its rules (the
//! `Rules` trait). No interpreter, no files, no clock, no terminal: this
//! crate's dependencies say so. Rules implementations (Rhai scripts, the
//! memo) are in `unolab-script`, loading from YAML and files in
//! `unolab-load`, front ends in the `unolab` package.
//!
//! Layers, from the bottom: the vocabulary (`seat`, `rng`, `text`, `card`,
//! `notation`, `limits`, `source`, `variant`), the state (`hands`, `seen`, `turn`,
//! `table`, `event`), the rules as the game asks them (`rules`), and the
//! game (`game`, `view`, `bot`).

pub mod bot;
pub mod card;
pub mod event;
pub mod game;
pub mod hands;
pub mod limits;
pub mod notation;
pub mod rng;
pub mod rules;
pub mod seat;
pub mod seen;
pub mod source;
pub mod table;
pub mod text;
pub mod turn;
pub mod variant;
pub mod view;
