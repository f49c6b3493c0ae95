//! Reading files without touching them: the `Loader` that variants, rules
//! and their scripts are read through (on disk: `loader::Disk`; in memory,
//! for fuzzing and tests), and source files opened by path, built into the
//! binary, or next to another (`Open`).

use std::path::Path;

use crate::builtin;
use unolab_core::source::{Origin, SourceFile};

/// Reads files for loading: variants, rules and their scripts.
pub trait Loader {
    /// The text of the file at `path`.
    fn read(&self, path: &Path) -> Result<String, String>;
    /// Is there a file at `path`?
    fn exists(&self, path: &Path) -> bool;
}

/// Opening source files: by path through a `Loader`, built into the
/// binary, or next to another file.
pub trait Open: Sized {
    /// Reads a file through `loader`.
    fn read(loader: &dyn Loader, path: &Path) -> Result<Self, String>;
    /// A file built into the binary, by its path from the project root.
    fn builtin(path: &str) -> Option<Self>;
    /// Opens `relative` next to this file (on disk, or inside the binary).
    fn sibling(&self, loader: &dyn Loader, relative: &str) -> Result<Self, String>;
}

impl Open for SourceFile {
    fn read(loader: &dyn Loader, path: &Path) -> Result<SourceFile, String> {
        let text = loader.read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        Ok(SourceFile { name: path.display().to_string(), text, origin: Origin::Disk(path.to_path_buf()) })
    }

    fn builtin(path: &str) -> Option<SourceFile> {
        builtin::file(path).map(|text| SourceFile {
            name: format!("builtin:{path}"),
            text: text.to_string(),
            origin: Origin::Builtin(path.to_string()),
        })
    }

    fn sibling(&self, loader: &dyn Loader, relative: &str) -> Result<SourceFile, String> {
        match &self.origin {
            Origin::Disk(path) => {
                let dir = path.parent().unwrap_or(Path::new("."));
                SourceFile::read(loader, &dir.join(relative))
            }
            Origin::Builtin(path) => {
                let joined = builtin::join(path, relative);
                SourceFile::builtin(&joined).ok_or_else(|| format!("builtin:{joined}: no such built-in file"))
            }
        }
    }
}
