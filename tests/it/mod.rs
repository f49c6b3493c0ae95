//! Integration tests by concern: the CLI contract, decks against rules.md,
//! host behaviour, hidden information, properties, house-rule layers,
//! scenario files and seeded transcripts.

mod cli;
mod decks;
mod fuzz;
mod game;
mod hidden;
mod hostile;
mod primitives;
mod properties;
mod rules;
mod scenarios;
mod sessions;
mod sim;
mod terminal;
mod tidy;
mod transcripts;
