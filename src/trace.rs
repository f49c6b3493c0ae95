//! The trace of hook calls (`scenario --trace`, `sim --show I --trace`, the
//! REPL's `trace on`) shown among the events of the log: each call's lines
//! (`Rules::take_trace`) just before the events it led to, in the stream the
//! log goes to.

use crate::event::Event;
use crate::rules::TraceLine;

/// The events from `from` on, described by `describe`, with the `trace`
/// lines among them: a line before the first event logged after its call
/// was made (lines of calls whose events were taken back, a refused
/// action's, come before the events that took their place).
pub fn among_events(
    trace: Vec<TraceLine>,
    events: &[Event],
    from: usize,
    mut describe: impl FnMut(&Event) -> String,
) -> Vec<String> {
    let mut lines = trace.into_iter().peekable();
    let mut out = Vec::new();
    for (index, event) in events.iter().enumerate().skip(from) {
        while let Some(line) = lines.next_if(|line| line.at_event <= index) {
            out.push(line.text);
        }
        out.push(describe(event));
    }
    out.extend(lines.map(|line| line.text));
    out
}
