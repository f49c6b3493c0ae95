//! Files unolab writes (rows of games, plots, saved games, snapshots, the
//! line history) and the folders `unolab new` makes: whole or not at all.
//! A file is written to a temporary file beside it and renamed over it
//! once complete and on disk, so a full disk or any failed write leaves the
//! old file as it was and no part of the new one; a folder is built in a
//! staging folder beside it and moved into place whole. Only regular files
//! are written: a pipe, a device or a folder where a file goes is refused
//! before anything is written (opening a named pipe to write waits for a
//! reader for ever), as `loader::read_text` refuses to read them.

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// What a symbolic link found where a file goes means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Links {
    /// The file it names is the one written (a path given by the user, as
    /// a shell's `>` would).
    Follow,
    /// Refused: the file is written only in its folder (snapshots, in a
    /// checked-out folder that may hold links to anywhere).
    Refuse,
}

/// How a file is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    pub links: Links,
    /// A new file is readable by its owner only (the line history); a file
    /// replaced keeps its permissions either way.
    pub private: bool,
}

/// A file the user named (`--games-out`, `--plot`, `save`).
pub const USER_FILE: Policy = Policy { links: Links::Follow, private: false };
/// The line history: the user's, and no one else's to read.
pub const PRIVATE_FILE: Policy = Policy { links: Links::Follow, private: true };
/// A file in a folder unolab was pointed at (`.snap`, `.snap.new`).
pub const FOLDER_FILE: Policy = Policy { links: Links::Refuse, private: false };

/// The folder a file is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// Why what is at a path is not a file to write.
fn not_a_file(meta: &std::fs::Metadata) -> &'static str {
    if meta.is_dir() {
        "that is a folder; name a file"
    } else {
        "not a regular file (a pipe, a device or a socket): unolab writes only regular files"
    }
}

/// The file that writing `path` would replace or create: `path` itself, or
/// the file a link there names (`Links::Follow`). An error, naming `path`,
/// where no file may be written: a pipe, a device, a folder, a link that
/// is refused or leads nowhere.
pub fn destination(path: &Path, policy: Policy) -> Result<PathBuf, String> {
    let refuse = |why: &dyn std::fmt::Display| Err(format!("{}: {why}", path.display()));
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(path.to_path_buf()),
        Err(e) => return refuse(&e),
    };
    if meta.is_file() {
        return Ok(path.to_path_buf());
    }
    if !meta.file_type().is_symlink() {
        return refuse(&not_a_file(&meta));
    }
    if policy.links == Links::Refuse {
        return refuse(&"a symbolic link: not written through (files here are written only in their folder)");
    }
    let target = match std::fs::canonicalize(path) {
        Ok(target) => target,
        Err(e) => return refuse(&format!("a symbolic link that leads to no file ({e})")),
    };
    match std::fs::metadata(&target) {
        Ok(meta) if meta.is_file() => Ok(target),
        Ok(meta) => refuse(&format!("a link to {}, {}", target.display(), not_a_file(&meta))),
        Err(e) => refuse(&e),
    }
}

/// Writes `bytes` as the whole of the file at `path`.
pub fn write(path: &Path, policy: Policy, bytes: &[u8]) -> Result<(), String> {
    write_with(path, policy, |file| file.write_all(bytes))
}

/// Writes the file at `path` with what `fill` writes into it: into a
/// temporary file beside it, flushed to disk, then renamed over it. If
/// anything fails, the temporary file is removed and whatever was at `path`
/// is left as it was; the error names `path`.
pub fn write_with(
    path: &Path,
    policy: Policy,
    fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> Result<(), String> {
    let target = destination(path, policy)?;
    let old = std::fs::metadata(&target).ok().map(|meta| meta.permissions());
    let kept = if old.is_some() { format!("; {} is as it was", path.display()) } else { String::new() };
    let failed = |e: &dyn std::fmt::Display| format!("{}: not written ({e}){kept}", path.display());
    let name = target.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    if !policy.private {
        // As a new file is usually made: what the umask leaves of rw-rw-rw-.
        use std::os::unix::fs::PermissionsExt as _;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let folder = folder_of(&target);
    let mut temp =
        builder.tempfile_in(folder).map_err(|e| failed(&format!("in {}: {}", folder.display(), untold_temp(&e))))?;
    let written = fill(temp.as_file_mut()).and_then(|()| {
        let file = temp.as_file_mut();
        file.flush()?;
        if let Some(permissions) = old {
            file.set_permissions(permissions)?;
        }
        // A full disk may only say so now.
        file.sync_all()
    });
    written.map_err(|e| failed(&e))?;
    temp.persist(&target).map_err(|e| failed(&e.error))?;
    Ok(())
}

/// An error of `tempfile`'s without the path of the temporary file it adds
/// (`... at path ".x.sav.XlHS4Z.tmp"`): the user named another file, and
/// that one never existed.
fn untold_temp(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.rsplit_once(" at path ") {
        Some((error, _)) => error.to_string(),
        None => text,
    }
}

/// Makes the folder `at` with `files` (paths inside it, and their text),
/// whole: they are written into a staging folder beside `at`, which is
/// then renamed to `at`. `at` must not exist, or be an empty folder. If
/// anything fails, the staging folder is removed and nothing is left; the
/// error names the path at fault.
pub fn write_folder(at: &Path, files: &[(PathBuf, String)]) -> Result<(), String> {
    match std::fs::symlink_metadata(at) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Ok(meta) if meta.is_dir() && std::fs::read_dir(at).is_ok_and(|mut entries| entries.next().is_none()) => {}
        Ok(meta) if meta.is_dir() => return Err(format!("{} exists already and is not empty", at.display())),
        Ok(_) => return Err(format!("{} exists already and is not a folder", at.display())),
        Err(e) => return Err(format!("{}: {e}", at.display())),
    }
    let parent = folder_of(at);
    std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    let name = at.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".new");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        builder.permissions(std::fs::Permissions::from_mode(0o777));
    }
    let mut staging =
        builder.tempdir_in(parent).map_err(|e| format!("{}: cannot make a folder: {e}", parent.display()))?;
    for (inside, text) in files {
        // Told at `at`, where the file would have been.
        let shown = at.join(inside);
        if inside.is_absolute() || inside.components().any(|c| !matches!(c, std::path::Component::Normal(_))) {
            return Err(format!("{}: not a path inside {}", shown.display(), at.display()));
        }
        let path = staging.path().join(inside);
        let written = std::fs::create_dir_all(folder_of(&path)).and_then(|()| {
            let mut file = std::fs::File::create_new(&path)?;
            file.write_all(text.as_bytes())?;
            file.sync_all()
        });
        written.map_err(|e| format!("{}: {e}", shown.display()))?;
    }
    std::fs::rename(staging.path(), at).map_err(|e| format!("{}: {e}", at.display()))?;
    staging.disable_cleanup(true);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    /// Nothing but `names` in `dir` (no temporary file left behind).
    fn only(dir: &Path, names: &[&str]) {
        let mut found: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().to_string()).collect();
        found.sort();
        assert_eq!(found, names);
    }

    #[test]
    fn a_file_in_a_missing_folder_is_told_by_its_own_name() {
        let dir = scratch();
        let path = dir.path().join("none").join("x.sav");
        let error = write(&path, USER_FILE, b"saved").unwrap_err();
        assert!(error.starts_with(&format!("{}: not written (in ", path.display())), "{error}");
        assert!(!error.contains(".x.sav."), "the temporary file is not named: {error}");
        only(dir.path(), &[]);
    }

    #[test]
    fn a_file_is_written_whole_and_replaces_the_old_one() {
        let dir = scratch();
        let path = dir.path().join("rows.csv");
        write(&path, USER_FILE, b"old").unwrap();
        write(&path, USER_FILE, b"new rows").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new rows");
        only(dir.path(), &["rows.csv"]);
    }

    /// A write that fails midway (as on a full disk) leaves the old file
    /// and no temporary one.
    #[test]
    fn a_failed_write_keeps_the_old_file() {
        let dir = scratch();
        let path = dir.path().join("save.yaml");
        std::fs::write(&path, "the good save").unwrap();
        let result = write_with(&path, USER_FILE, |file| {
            file.write_all(b"half a ro")?;
            Err(std::io::Error::new(std::io::ErrorKind::StorageFull, "no space left"))
        });
        let e = result.unwrap_err();
        assert!(e.contains("save.yaml: not written (no space left)"), "{e}");
        assert!(e.contains("is as it was"), "{e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "the good save");
        only(dir.path(), &["save.yaml"]);
        // A new file that fails is not there at all.
        let fresh = dir.path().join("fresh.csv");
        assert!(write_with(&fresh, USER_FILE, |_| Err(std::io::Error::other("no"))).is_err());
        only(dir.path(), &["save.yaml"]);
    }

    #[cfg(unix)]
    #[test]
    fn permissions_are_kept_or_usual() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = scratch();
        let path = dir.path().join("a.txt");
        write(&path, USER_FILE, b"x").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        // Not the 0600 of a temporary file: what the umask leaves of 0666.
        assert_ne!(mode(&path), 0o600);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        write(&path, USER_FILE, b"y").unwrap();
        assert_eq!(mode(&path), 0o640);
        let private = dir.path().join("history.txt");
        write(&private, PRIVATE_FILE, b"p r5").unwrap();
        assert_eq!(mode(&private), 0o600);
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_or_refused() {
        let dir = scratch();
        let victim = dir.path().join("victim.txt");
        std::fs::write(&victim, "keep me").unwrap();
        let inside = dir.path().join("folder");
        std::fs::create_dir(&inside).unwrap();
        let link = inside.join("x.snap.new");
        std::os::unix::fs::symlink("../victim.txt", &link).unwrap();
        let e = write(&link, FOLDER_FILE, b"transcript").unwrap_err();
        assert!(e.contains("x.snap.new: a symbolic link: not written through"), "{e}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        only(&inside, &["x.snap.new"]);
        // A path the user gave is followed: the file it names is replaced,
        // and the link stays a link.
        write(&link, USER_FILE, b"rows").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "rows");
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        only(&inside, &["x.snap.new"]);
        let nowhere = inside.join("nowhere");
        std::os::unix::fs::symlink("../missing/file", &nowhere).unwrap();
        assert!(write(&nowhere, USER_FILE, b"x").unwrap_err().contains("leads to no file"));
    }

    #[test]
    fn a_folder_or_a_device_is_not_a_file() {
        let dir = scratch();
        let e = write(dir.path(), USER_FILE, b"x").unwrap_err();
        assert!(e.contains("that is a folder; name a file"), "{e}");
        if Path::new("/dev/full").exists() {
            let e = write(Path::new("/dev/full"), USER_FILE, b"x").unwrap_err();
            assert!(e.contains("not a regular file"), "{e}");
        }
    }

    #[test]
    fn a_folder_is_made_whole_or_not_at_all() {
        let dir = scratch();
        let at = dir.path().join("my-rule");
        let files = vec![
            (PathBuf::from("my-rule.yaml"), "name: my-rule\n".to_string()),
            (PathBuf::from("scenarios/my-rule.yaml"), "steps: []\n".to_string()),
        ];
        write_folder(&at, &files).unwrap();
        assert_eq!(std::fs::read_to_string(at.join("scenarios/my-rule.yaml")).unwrap(), "steps: []\n");
        only(dir.path(), &["my-rule"]);
        // Made already: refused, as it is.
        let e = write_folder(&at, &files).unwrap_err();
        assert!(e.ends_with("my-rule exists already and is not empty"), "{e}");
        // A file where the folder goes: named, and nothing else is made.
        let blocked = dir.path().join("blocked");
        std::fs::write(&blocked, "").unwrap();
        let e = write_folder(&blocked, &files).unwrap_err();
        assert!(e.ends_with("blocked exists already and is not a folder"), "{e}");
        // A path that would leave the folder: nothing is made.
        let out = vec![files[0].clone(), (PathBuf::from("../out.txt"), String::new())];
        assert!(write_folder(&dir.path().join("other"), &out).unwrap_err().contains("not a path inside"));
        only(dir.path(), &["blocked", "my-rule"]);
        // An empty folder is filled.
        let empty = dir.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        write_folder(&empty, &files).unwrap();
        only(&empty, &["my-rule.yaml", "scenarios"]);
    }
}
