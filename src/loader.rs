//! The file system, for the front ends: the `Loader` that reads variants,
//! rules and scripts from disk, and a shortcut that loads a ruleset with it.
//! The core reaches files only through a `Loader`.

use std::path::Path;

use crate::ruleset::{self, LoadRequest};
use crate::source::Loader;
use crate::variant::Variant;

/// Reads files from disk.
pub struct Disk;

impl Loader for Disk {
    fn read(&self, path: &Path) -> Result<String, String> {
        read_text(path).map_err(|e| e.to_string())
    }

    fn exists(&self, path: &Path) -> bool {
        path.exists()
    }
}

/// A text file, without the UTF-8 byte-order mark some editors put first.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    let text = std::fs::read_to_string(path)?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// Loads a ruleset from built-in files and files on disk.
pub fn load(request: &LoadRequest) -> Result<Variant, Vec<String>> {
    ruleset::load(request, &Disk)
}
