// Self-test of the lit harness: an expected failure. The harness reports this test as
// passed because it fails, and would report it as failed ("XPASS") if it passed.
// XFAIL: *
// RUN: cat %s | FileCheck %s
// CHECK: {{^}}this text is not in the file
