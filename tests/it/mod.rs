mod cli;
mod game;
mod properties;
mod scenarios;
mod transcripts;
