//! pairing
