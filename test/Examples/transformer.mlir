// REQUIRES: fuser-run
// The checked-in transformer examples are what examples/transformer/gen.py writes (regenerate
// them with the commands below when the generator changes), and they run and pass the check.
// RUN: python3 %S/../../examples/transformer/gen.py gpt3 --placement tp --devices 4 --heads 8 > %t.gpt3_tp.mlir && diff %t.gpt3_tp.mlir %S/../../examples/transformer/gpt3_tp.mlir
// RUN: python3 %S/../../examples/transformer/gen.py gpt3 --placement tpsp --devices 4 --heads 8 > %t.gpt3_tpsp.mlir && diff %t.gpt3_tpsp.mlir %S/../../examples/transformer/gpt3_tpsp.mlir
// RUN: python3 %S/../../examples/transformer/gen.py llama --placement tpsp --devices 4 --heads 8 --kv-heads 4 > %t.llama.mlir && diff %t.llama.mlir %S/../../examples/transformer/llama_tpsp.mlir
// RUN: python3 %S/../../examples/transformer/gen.py lmloss --placement tp --devices 4 --heads 8 > %t.lmloss.mlir && diff %t.lmloss.mlir %S/../../examples/transformer/lmloss_tp.mlir
// RUN: fuser-run %S/../../examples/transformer/gpt3_tp.mlir --check | FileCheck %s
// RUN: fuser-run %S/../../examples/transformer/gpt3_tpsp.mlir --check | FileCheck %s
// RUN: fuser-run %S/../../examples/transformer/llama_tpsp.mlir --check | FileCheck %s
// RUN: fuser-run %S/../../examples/transformer/lmloss_tp.mlir --check | FileCheck %s
// CHECK: check: PASS
