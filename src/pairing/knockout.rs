//! knockout
