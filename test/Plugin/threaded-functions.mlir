// REQUIRES: mlir-plugin, mlir-opt
// The fuser pass plugin under MLIR's threads: a func.func pipeline on a module of 64
// functions (one mesh each) runs the fuser passes on several functions at once, while other
// threads replace other functions' bodies. Every one of 20 runs must exit 0 with fuser-opt's
// output. (The plugin once printed each mesh with a printer state numbering the whole
// module, reading functions being rewritten: 12 of 40 such runs crashed with SIGSEGV.)

// RUN: python3 %S/inputs/functions.py 64 8 > %t.mlir
// RUN: fuser-opt --mlir-print-op-generic %t.mlir > %t.in
// RUN: fuser-opt --mlir-print-op-generic --pass-pipeline='builtin.module(func.func(fusion-to-host))' %t.in > %t.expected
// RUN: python3 %S/inputs/repeat-compare.py 20 %t.expected --timeout 120 -- mlir-opt-19 --load-pass-plugin=%mlir_plugin --allow-unregistered-dialect --mlir-print-op-generic --pass-pipeline='builtin.module(func.func(fuser-fusion-to-host))' %t.in

// Mixed with MLIR's own passes, three fuser passes per function:
// RUN: fuser-opt --mlir-print-op-generic --pass-pipeline='builtin.module(func.func(fusion-propagate-sharding, canonicalize, fusion-decompose-resharding, fusion-to-host, cse))' %t.in > %t.expected-mixed
// RUN: python3 %S/inputs/repeat-compare.py 10 %t.expected-mixed --timeout 120 -- mlir-opt-19 --load-pass-plugin=%mlir_plugin --allow-unregistered-dialect --mlir-print-op-generic --pass-pipeline='builtin.module(func.func(fuser-fusion-propagate-sharding, canonicalize, fuser-fusion-decompose-resharding, fuser-fusion-to-host, cse))' %t.in
