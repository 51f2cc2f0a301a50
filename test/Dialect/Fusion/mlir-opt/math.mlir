// Our generic form of ../math.mlir is loadable by mlir-opt-19 (fusion as an unregistered
// dialect), prints back in the same generic form, and its output loads back into fuser-opt.

// REQUIRES: mlir-opt
// RUN: fuser-opt %S/../math.mlir --mlir-print-op-generic > %t.ours
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic %t.ours > %t.theirs
// RUN: diff %t.ours %t.theirs
// RUN: FileCheck %S/../math.mlir --check-prefix=GENERIC --input-file=%t.theirs
// RUN: fuser-opt %t.theirs | FileCheck %S/../math.mlir
