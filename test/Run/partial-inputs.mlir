// Inputs that are partial over the devices with every reduction kind (issue 11, item 6).
// fuser-run hands each device a random shard of a partial input such that the shards reduce
// to the global value under the sharding's `reduce` kind; fusion.set to replicated lowers to
// the comm.allreduce of that kind, and --check compares with the value itself. (Before, the
// split was the value on coordinate 0 and zeros elsewhere, right for sum only: max, min and
// prod failed the check though the lowering was right.)

// REQUIRES: fuser-run
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default)' | FileCheck %s --check-prefix=LOWER
// LOWER: comm.allreduce max %arg0 into %{{[0-9]+}} team = [0, 1, 2, 3]

// RUN: fuser-run %s --ranks 4 --check | FileCheck %s
// RUN: sed 's/reduce = max/reduce = min/g' %s | fuser-run - --ranks 4 --check | FileCheck %s
// RUN: sed 's/reduce = max/reduce = prod/g' %s | fuser-run - --ranks 4 --check | FileCheck %s
// RUN: sed 's/reduce = max/reduce = sum/g' %s | fuser-run - --ranks 4 --check | FileCheck %s
// Other element types, and other seeds.
// RUN: sed 's/xf32/xbf16/g' %s | fuser-run - --ranks 4 --check --seed 3 | FileCheck %s
// RUN: sed -e 's/xf32/xi32/g' -e 's/reduce = max/reduce = prod/g' %s | fuser-run - --ranks 4 --check --seed 5 | FileCheck %s
// RUN: sed -e 's/xf32/xf16/g' -e 's/reduce = max/reduce = sum/g' %s | fuser-run - --ranks 4 --check --seed 7 | FileCheck %s
// CHECK: check: PASS

// The shards really exercise the reduction: the lowered program with another reduction in
// its allreduce fails the check, and so does one that takes each device's shard for the value
// (its devices then disagree on the replicated output).
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default)' | sed 's/comm.allreduce max/comm.allreduce min/' | not fuser-run - --ranks 4 --check --reference %s | FileCheck %s --check-prefix=WRONG
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default)' | sed 's/comm.allreduce max/comm.allreduce sum/' | not fuser-run - --ranks 4 --check --reference %s | FileCheck %s --check-prefix=WRONG
// WRONG: check: FAIL
// RUN: fuser-opt %s --pass-pipeline='builtin.module(tp-default)' | sed -e 's/%1 = comm.allreduce max \(%arg0 into %0\) team = \[0, 1, 2, 3\]/host.copy %arg0, %0/' -e '/comm.wait %1/d' | not fuser-run - --ranks 4 --check --reference %s 2>&1 | FileCheck %s --check-prefix=SHARD
// SHARD: replicated output differs between device 0

fusion.mesh @tp = [0, 1, 2, 3]

func.func @reduce_pending_max(%x: tensor<16x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDx], reduce = max>>) -> tensor<16x8xf32, #fusion.shard<@tp, [[], []]>> {
  %y = fusion.set %x : (tensor<16x8xf32, #fusion.shard<@tp, [[], []], partial = [DIDx], reduce = max>>) -> tensor<16x8xf32, #fusion.shard<@tp, [[], []]>>
  return %y : tensor<16x8xf32, #fusion.shard<@tp, [[], []]>>
}
