//! Randomness, from one seed: the generator type every table and bot uses,
//! and the seeds a run derives for its games and bots.

use rand::SeedableRng;

/// The one random number generator of a table (and of each bot): every
/// shuffle and bot choice comes from a generator seeded from the game's seed.
/// Xoshiro256++ is fast and gives the same numbers on every platform.
pub type Rng = rand_xoshiro::Xoshiro256PlusPlus;

/// A generator seeded with `seed`.
pub fn rng(seed: u64) -> Rng {
    Rng::seed_from_u64(seed)
}

/// The seed of game `index` of a run seeded `seed` (and of any other
/// stream derived from a seed): SplitMix64 of the seed and the index.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
