//! Fuzz target: `unolab::fuzz::hook_script` on any bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    unolab::fuzz::hook_script(data);
});
