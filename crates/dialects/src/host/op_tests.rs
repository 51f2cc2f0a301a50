//! Unit tests of the host ops built through their `*_state` builders.
