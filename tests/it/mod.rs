mod cli;
mod decks;
mod game;
mod hidden;
mod properties;
mod rules;
mod scenarios;
mod transcripts;
