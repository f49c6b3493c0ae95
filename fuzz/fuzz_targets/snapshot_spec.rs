//! Fuzz target: `unolab::fuzz::snapshot_spec` on any bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    unolab::fuzz::snapshot_spec(data);
});
