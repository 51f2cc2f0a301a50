//! fuser-passes: transformations and the pass registry.
