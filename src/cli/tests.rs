//! `unolab scenario` and `unolab snapshot`: the author's tests, scenario
//! files and snapshot specs, run and reported.

use std::path::PathBuf;

use super::{BAD_INPUT, FAILED, SUCCESS};
use crate::scenario;

pub(super) fn scenarios(paths: &[PathBuf], verbose: bool, trace: bool) -> i32 {
    let (files, skipped) = match scenario::collect(paths) {
        Ok(found) => found,
        Err(e) => {
            complain!("error: {e}");
            return BAD_INPUT;
        }
    };
    // Skipped files are said aside: the report is a line per scenario.
    for line in &skipped {
        complain!("{line}");
    }
    if files.is_empty() {
        let skipped = if skipped.is_empty() {
            String::new()
        } else {
            format!(" ({} other YAML file{} skipped)", skipped.len(), if skipped.len() == 1 { "" } else { "s" })
        };
        complain!("error: no scenario file (*.yaml, *.yml) in the paths given{skipped}");
        return BAD_INPUT;
    }
    let report = scenario::run_files(&files, verbose, trace);
    say!("{}", report.text.trim_end());
    if report.bad_input > 0 {
        BAD_INPUT
    } else if report.failed > 0 {
        FAILED
    } else {
        SUCCESS
    }
}

pub(super) fn snapshots(paths: &[PathBuf], accept: bool) -> i32 {
    let files = match crate::snapshot::collect(paths) {
        Ok(files) if files.is_empty() => {
            complain!("error: no snapshot spec (a file named NAME{}) in the paths given", crate::snapshot::SPEC_SUFFIX);
            return BAD_INPUT;
        }
        Ok(files) => files,
        Err(e) => {
            complain!("error: {e}");
            return BAD_INPUT;
        }
    };
    let mode = if accept { crate::snapshot::Mode::Accept } else { crate::snapshot::Mode::Review };
    let report = crate::snapshot::run_files(&files, mode);
    say!("{}", report.text.trim_end());
    if report.bad_input > 0 {
        BAD_INPUT
    } else if report.clean(mode) {
        SUCCESS
    } else {
        FAILED
    }
}
