// Self-test of the lit harness: pipes, redirections, && || ;, count, echo, cat, diff.
// RUN: echo hello world | FileCheck %s --check-prefix=ECHO
// ECHO: {{^}}hello world{{$}}
// RUN: cat %s > %t && cat < %t | count 21
// RUN: echo one > %t.2 ; echo two >> %t.2 ; cat %t.2 | FileCheck %s --check-prefix=APPEND
// APPEND: {{^}}one
// APPEND-NEXT: {{^}}two
// RUN: not cat %t.missing 2>&1 | FileCheck %s --check-prefix=MERGED
// MERGED: {{^}}cat: {{.*}}missing
// RUN: not cat %t.missing 2> %t.err && cat %t.err | count 1
// RUN: false || echo recovered | FileCheck %s --check-prefix=OR
// OR: {{^}}recovered
// RUN: true && echo -n abc | count 0
// RUN: echo -e 'x\ny' | count 2
// RUN: cat %s | diff - %s
// RUN: not diff %s %t.2
// RUN: mkdir -p %t.dir && echo inside > %t.dir/f && cat %t.dir/f | FileCheck %s --check-prefix=DIR
// DIR: inside
// RUN: rm -rf %t.dir && not cat %t.dir/f
// RUN: cat %s - < %t.2 | FileCheck %s --check-prefix=DASH
// DASH: {{^}}two
