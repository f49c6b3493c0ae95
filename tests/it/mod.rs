mod cli;
mod decks;
mod game;
mod properties;
mod rules;
mod scenarios;
mod transcripts;
