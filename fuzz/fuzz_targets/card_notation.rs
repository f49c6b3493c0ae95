//! Fuzz target: `unolab::fuzz::card_notation` on any bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    unolab::fuzz::card_notation(data);
});
