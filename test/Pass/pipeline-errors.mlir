// Errors in --pass-pipeline are reported before the input is read, located like MLIR's
// (column relative to the text inside the outer anchor), and exit with status 1.

// RUN: not fuser-opt %s --pass-pipeline='builtin.module(fuse-all)' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: <unknown>:0: error: MLIR Textual PassPipeline Parser:1:1: error: 'fuse-all' does not refer to a registered pass or pass pipeline
// UNKNOWN-NEXT: fuse-all
// UNKNOWN-NEXT: {{^}}^

// RUN: not fuser-opt %s --pass-pipeline='builtin.module(func.func(fuse-all))' 2>&1 | FileCheck %s --check-prefix=NESTED
// NESTED: Parser:1:11: error: 'fuse-all' does not refer to a registered pass or pass pipeline
// NESTED-NEXT: func.func(fuse-all)
// NESTED-NEXT: {{^}}          ^

// RUN: not fuser-opt %s --pass-pipeline='fuse-all' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// ANCHOR: <unknown>:0: error: expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'

// RUN: not fuser-opt %s --pass-pipeline='builtin.module(func.func(x)' 2>&1 | FileCheck %s --check-prefix=OPEN
// OPEN: Parser:1:11: error: encountered unbalanced parentheses while parsing pipeline

// RUN: not fuser-opt %s --pass-pipeline='builtin.module(x))' 2>&1 | FileCheck %s --check-prefix=CLOSE
// CLOSE: Parser:1:2: error: encountered extra closing ')' creating unbalanced parentheses while parsing pipeline

// RUN: not fuser-opt %s --pass-pipeline='builtin.module(x{a=1)' 2>&1 | FileCheck %s --check-prefix=BRACE
// BRACE: Parser:1:2: error: missing closing '}' while processing pass options

// RUN: not fuser-opt %s --pass-pipeline='builtin.module(func.func(),x)' 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: Parser:1:11: error: '' does not refer to a registered pass or pass pipeline

// RUN: not fuser-opt %s --no-such-flag 2>&1 | FileCheck %s --check-prefix=FLAG
// FLAG: Unknown command line argument '--no-such-flag'.

func.func @f() {
  return
}
