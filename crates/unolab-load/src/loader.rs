//! The file system: the `Loader` that reads from disk (the one module of
//! the library crates that touches files), and a shortcut that loads a
//! ruleset with it.

use std::path::Path;

pub use crate::files::{Loader, Open};
use crate::ruleset::{self, LoadRequest};
use unolab_core::variant::Variant;

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
/// Only a regular file is read, and only up to `limits::FILE_BYTES`: a
/// device or a pipe (`/dev/zero`) or a huge file is refused, not read
/// until memory runs out.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    use std::io::{Error, ErrorKind, Read};
    // Asked before opening: opening a named pipe would wait for a writer.
    if !std::fs::metadata(path)?.is_file() {
        return Err(Error::new(ErrorKind::InvalidInput, "not a regular file"));
    }
    let file = std::fs::File::open(path)?;
    // And asked of what was opened: the path may have changed meanwhile.
    if !file.metadata()?.is_file() {
        return Err(Error::new(ErrorKind::InvalidInput, "not a regular file"));
    }
    let limit = unolab_core::limits::FILE_BYTES;
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(Error::new(ErrorKind::InvalidData, format!("larger than {} MB", limit / (1024 * 1024))));
    }
    let text = String::from_utf8(bytes).map_err(|_| Error::new(ErrorKind::InvalidData, "not UTF-8 text"))?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// Loads a ruleset from built-in files and files on disk.
pub fn load(request: &LoadRequest) -> Result<Variant, Vec<String>> {
    ruleset::load(request, &Disk)
}
