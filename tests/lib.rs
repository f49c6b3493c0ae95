//! The one integration-test binary (one link step keeps builds fast).

mod it;
