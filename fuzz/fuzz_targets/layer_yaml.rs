//! Fuzz target: `unolab::fuzz::layer_yaml` on any bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    unolab::fuzz::layer_yaml(data);
});
