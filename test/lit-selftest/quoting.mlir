// Self-test of the lit harness: quoting and substitutions.
// A pass pipeline in single quotes stays one argument, parentheses and all.
// RUN: echo --pass-pipeline='builtin.module(cse, canonicalize{max-iterations=1})' | FileCheck %s --check-prefix=PIPE
// PIPE: {{^}}--pass-pipeline=builtin.module(cse, canonicalize{max-iterations=1}){{$}}
// Operators inside quotes are plain text; backslash escapes work outside quotes.
// RUN: echo "a | b" 'c && d' e\;f "x \"y\"" | FileCheck %s --check-prefix=OPS
// OPS: {{^}}a | b c && d e;f x "y"{{$}}
// Substitutions: %s, %S, %p, %t, %T, and %% for a literal percent sign.
// RUN: echo %s %S %p %t %T %% | FileCheck %s --check-prefix=SUBST -DFILE=%s -DDIR=%S
// SUBST: {{^}}[[FILE]] [[DIR]] [[DIR]] {{.*}}/lit-tmp/test/lit-selftest/quoting.mlir.d/quoting.mlir.tmp {{.*}}/quoting.mlir.d %{{$}}
// The working directory is the per-test temporary directory (%T).
// RUN: echo here > relative.txt && cat %T/relative.txt | FileCheck %s --check-prefix=CWD
// CWD: {{^}}here
