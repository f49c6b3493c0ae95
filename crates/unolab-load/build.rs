//! Embeds every file under `variants/` and `scripts/` in the binary, so the
//! built-in variants and house rules work from any directory.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    // The project root: this crate is `crates/unolab-load` in it.
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = manifest.join("../..").canonicalize().expect("the project root");
    let mut files = Vec::new();
    for dir in ["variants", "scripts"] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
        collect(&root.join(dir), &mut files);
    }
    files.sort();
    let mut code = String::from("pub static FILES: &[(&str, &str)] = &[\n");
    for file in &files {
        let relative = file.strip_prefix(&root).expect("under the root");
        let name = relative.to_string_lossy().replace('\\', "/");
        writeln!(code, "    ({name:?}, include_str!({:?})),", file.display().to_string()).unwrap();
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("builtin_files.rs");
    std::fs::write(out, code).expect("OUT_DIR is writable");
}
