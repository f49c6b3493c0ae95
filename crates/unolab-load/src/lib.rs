//! Loading unolab's rulesets: variant and house-rule files in YAML, read
//! through a `Loader` (from disk, or built into the binary) and validated
//! into the core's `Variant`, every problem at once with its file, line and
//! column, their scripts compiled and checked (`unolab-script`).
//!
//! `yaml` reads YAML that keeps its places; `spec` is a file as written;
//! `build` validates specs into the model (with `deck` templates and
//! `options`); `builtin` holds the files shipped in the binary; `files`
//! opens files through a `Loader`, `loader` reads them from disk; `ruleset` loads a variant with rules and settings.

pub mod build;
pub mod builtin;
pub mod deck;
pub mod files;
pub mod loader;
pub mod options;
pub mod ruleset;
pub mod spec;
pub mod yaml;
