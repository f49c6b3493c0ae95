//! Integration tests by concern: the CLI contract, decks against rules.md,
//! host behaviour, hidden information, properties, house-rule layers,
//! scenario files and seeded transcripts.

mod cli;
mod cluster;
mod decks;
mod docs;
mod equivalence;
mod fuzz;
mod game;
mod hidden;
mod hostile;
mod model;
mod net;
mod primitives;
mod properties;
mod rules;
mod scenarios;
mod schema;
mod search;
mod sessions;
mod sim;
mod terminal;
mod tidy;
mod transcripts;

/// Writes the files a test needs, `(name, text)`, into a fresh folder,
/// removed when the returned guard is dropped; with the path of each, as a
/// command line names it.
pub fn scratch_files(files: &[(&str, &str)]) -> (tempfile::TempDir, Vec<String>) {
    let scratch = tempfile::tempdir().unwrap();
    let paths = files
        .iter()
        .map(|(name, text)| {
            let path = scratch.path().join(name);
            std::fs::write(&path, text).unwrap();
            path.display().to_string()
        })
        .collect();
    (scratch, paths)
}
