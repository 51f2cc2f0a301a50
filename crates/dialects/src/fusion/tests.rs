//! Unit tests of the fusion dialect.
