mod cli;
mod decks;
mod game;
mod properties;
mod scenarios;
mod transcripts;
