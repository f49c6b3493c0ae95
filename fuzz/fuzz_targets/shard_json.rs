//! Fuzz target: `unolab::fuzz::shard_json` on any bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    unolab::fuzz::shard_json(data);
});
