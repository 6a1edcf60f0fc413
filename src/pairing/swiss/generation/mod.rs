//! The handbook's generation order (C.04.3, 2025, Articles 3.2-3.8 and
//! 4): S1 and S2, the transpositions of S2 (4.2), the exchanges between S1
//! and S2 (4.3), the choice of the moved-down players for S1 (4.4), and
//! among the candidates that tie on every criterion, the first generated
//! (3.8). One module per step of the bracket's pairing, in the order a
//! bracket tries them:
//!
//! - [`perfect_candidate`]: Article 3.4, the first perfect candidate, by
//!   matching tests alone; with [`transpositions`] (Article 4.2) for its
//!   remainder.
//! - [`handbook_order`]: otherwise the best candidates by weight, and
//!   among them the first in the order of Articles 4.2-4.4 (the
//!   MDP-pairing, then the remainder's exchange and transposition), each
//!   choice put to the [`chooser`]'s matching.
//! - [`exchanges`] and [`sequential`]: the fallbacks when the order's
//!   digits do not fit: the S1/S2 split and its exchanges (4.3), then
//!   sequential fixing in Dutch order.

mod chooser;
mod exchanges;
mod handbook_order;
mod perfect_candidate;
mod sequential;
mod transpositions;

#[cfg(test)]
mod tests;

pub(super) use chooser::order_digit_bits;
