//! Tournament files the `kraal pair` command reads: Kraal's own JSON format
//! and FIDE TRF. Both become a [`SwissInput`](crate::pairing::swiss::SwissInput) for the next round. The layout
//! of each is documented in docs/pairing.md.
//!
//! Parsing is pure (text in, data out) and never panics on bad input: every
//! error names the line (and, for TRF, the field) that is wrong.
//!
//! [`json`] reads Kraal's JSON, [`trf_read`] reads TRF (one function per
//! record type), [`trf_write`] writes it.

mod json;
mod trf_read;
mod trf_write;

pub use json::parse_kraal_json;
pub use trf_read::parse_trf;
pub use trf_write::{write_trf, TrfEvent};

/// A file that could not be read as a tournament.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{location}: {message}")]
pub struct FormatError {
    /// "line 12, field rating" or "rounds[2].pairings[0].second".
    pub location: String,
    pub message: String,
}

fn err(location: impl Into<String>, message: impl Into<String>) -> FormatError {
    FormatError {
        location: location.into(),
        message: message.into(),
    }
}
