//! Fuzz target: `unolab::fuzz::repl_lines` on any bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    unolab::fuzz::repl_lines(data);
});
