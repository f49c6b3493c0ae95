//! Fuzz target: `unolab::fuzz::saved_game` on any bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    unolab::fuzz::saved_game(data);
});
