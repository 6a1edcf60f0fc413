//! round_robin
