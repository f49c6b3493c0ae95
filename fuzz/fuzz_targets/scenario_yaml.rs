//! Fuzz target: `unolab::fuzz::scenario_yaml` on any bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    unolab::fuzz::scenario_yaml(data);
});
