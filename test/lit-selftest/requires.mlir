// Self-test of the lit harness: a REQUIRES line naming a feature nobody has skips the
// test at run time (cargo reports it as ignored). The RUN line would fail if it ran.
// REQUIRES: feature-that-does-not-exist
// RUN: false
