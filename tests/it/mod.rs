mod cli;
mod properties;
mod scenarios;
mod transcripts;
