//! Seats: a seat is its place at the table, numbered from 0; a set of
//! seats is a mask with a bit per seat.

/// A seat at the table, from 0.
pub type Seat = usize;

/// The seats of a mask (bit `n`: seat `n`), in order.
pub fn seats_of(mut mask: u32) -> impl Iterator<Item = Seat> {
    std::iter::from_fn(move || {
        let seat = mask.trailing_zeros() as Seat;
        mask &= mask.wrapping_sub(1);
        (seat < 32).then_some(seat)
    })
}
