// Self-test of the lit harness: `not` and failing FileCheck runs.
// RUN: not false
// RUN: not not true
// RUN: not FileCheck %s --check-prefix=MISSING < %s
// MISSING: {{^}}this line does not exist
// RUN: not FileCheck %s --check-prefix=NEXTFAIL < %s
// NEXTFAIL: {{^}}// data: one
// NEXTFAIL-NEXT: {{^}}// data: three
// RUN: not FileCheck %s --check-prefix=NOTFAIL < %s
// NOTFAIL: {{^}}// data: one
// NOTFAIL-NOT: {{^}}// data: two
// NOTFAIL: {{^}}// data: three
// An unused prefix is an error of the check file (exit status 2), still a failure for `not`.
// RUN: not FileCheck %s --check-prefixes=NEXTFAIL,NOSUCHPREFIX < %s
// Empty input is rejected unless --allow-empty.
// RUN: echo -n | not FileCheck %s --check-prefix=ANY
// RUN: echo -n | FileCheck %s --check-prefix=NONE --allow-empty
// ANY: x
// NONE-NOT: x

// data: one
// data: two
// data: three
