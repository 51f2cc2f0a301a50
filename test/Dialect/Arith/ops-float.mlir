// RUN: fuser-opt %s | FileCheck %s
// RUN: fuser-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fuser-opt %s --mlir-print-op-generic | fuser-opt | FileCheck %s

// CHECK-LABEL: func.func @binary(%arg0: f32, %arg1: f32, %arg2: vector<4xf16>, %arg3: tensor<?xbf16>)
func.func @binary(%a: f32, %b: f32, %v: vector<4xf16>, %t: tensor<?xbf16>) {
  // CHECK-NEXT: %0 = arith.addf %arg0, %arg1 : f32
  // GENERIC: "arith.addf"(%{{.*}}, %{{.*}}) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  %0 = arith.addf %a, %b : f32
  // CHECK-NEXT: %1 = arith.subf %arg0, %arg1 fastmath<nnan,contract> : f32
  // GENERIC: "arith.subf"(%{{.*}}, %{{.*}}) <{fastmath = #arith.fastmath<nnan,contract>}> : (f32, f32) -> f32
  %1 = arith.subf %a, %b fastmath<contract, nnan> : f32
  // CHECK-NEXT: %2 = arith.mulf %arg2, %arg2 fastmath<fast> {test.tag} : vector<4xf16>
  // GENERIC: "arith.mulf"(%{{.*}}, %{{.*}}) <{fastmath = #arith.fastmath<fast>}> {test.tag} : (vector<4xf16>, vector<4xf16>) -> vector<4xf16>
  %2 = arith.mulf %v, %v fastmath<reassoc,nnan,ninf,nsz,arcp,contract,afn> {test.tag} : vector<4xf16>
  // CHECK-NEXT: %3 = arith.divf %arg3, %arg3 fastmath<fast> : tensor<?xbf16>
  %3 = arith.divf %t, %t fastmath<nnan, fast> : tensor<?xbf16>
  // CHECK-NEXT: %4 = arith.remf %arg0, %arg1 : f32
  %4 = arith.remf %a, %b fastmath<none> : f32
  // CHECK-NEXT: %5 = arith.maximumf %arg0, %arg1 fastmath<ninf> : f32
  %5 = arith.maximumf %a, %b fastmath<ninf> : f32
  // CHECK-NEXT: %6 = arith.minimumf %arg2, %arg2 : vector<4xf16>
  %6 = arith.minimumf %v, %v : vector<4xf16>
  // CHECK-NEXT: %7 = arith.maxnumf %arg0, %arg1 fastmath<nsz,arcp> : f32
  %7 = arith.maxnumf %a, %b fastmath<arcp,nsz> : f32
  // CHECK-NEXT: %8 = arith.minnumf %arg0, %arg1 : f32
  // GENERIC: "arith.minnumf"(%{{.*}}, %{{.*}}) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  %8 = "arith.minnumf"(%a, %b) : (f32, f32) -> f32
  // CHECK-NEXT: %9 = arith.addf %arg0, %arg1 fastmath<afn> : f32
  %9 = "arith.addf"(%a, %b) <{fastmath = #arith.fastmath<afn>}> : (f32, f32) -> f32
  return
}

// CHECK-LABEL: func.func @negf(%arg0: f64, %arg1: tensor<2x3xf32>)
func.func @negf(%a: f64, %t: tensor<2x3xf32>) {
  // CHECK-NEXT: %0 = arith.negf %arg0 : f64
  // GENERIC: "arith.negf"(%{{.*}}) <{fastmath = #arith.fastmath<none>}> : (f64) -> f64
  %0 = arith.negf %a : f64
  // CHECK-NEXT: %1 = arith.negf %arg1 fastmath<nnan> {test.tag = 1 : i32} : tensor<2x3xf32>
  %1 = arith.negf %t fastmath<nnan> {test.tag = 1 : i32} : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @cmpf(%arg0: f32, %arg1: f32, %arg2: vector<4xf64>)
func.func @cmpf(%a: f32, %b: f32, %v: vector<4xf64>) {
  // CHECK-NEXT: %0 = arith.cmpf false, %arg0, %arg1 : f32
  // GENERIC: "arith.cmpf"(%{{.*}}, %{{.*}}) <{fastmath = #arith.fastmath<none>, predicate = 0 : i64}> : (f32, f32) -> i1
  %0 = arith.cmpf false, %a, %b : f32
  // CHECK-NEXT: %1 = arith.cmpf oeq, %arg0, %arg1 : f32
  %1 = arith.cmpf oeq, %a, %b : f32
  // CHECK-NEXT: %2 = arith.cmpf ogt, %arg0, %arg1 : f32
  %2 = arith.cmpf ogt, %a, %b : f32
  // CHECK-NEXT: %3 = arith.cmpf oge, %arg0, %arg1 : f32
  %3 = arith.cmpf oge, %a, %b : f32
  // CHECK-NEXT: %4 = arith.cmpf olt, %arg0, %arg1 fastmath<nnan> : f32
  // GENERIC: "arith.cmpf"(%{{.*}}, %{{.*}}) <{fastmath = #arith.fastmath<nnan>, predicate = 4 : i64}> : (f32, f32) -> i1
  %4 = arith.cmpf olt, %a, %b fastmath<nnan> : f32
  // CHECK-NEXT: %5 = arith.cmpf ole, %arg0, %arg1 : f32
  %5 = arith.cmpf ole, %a, %b : f32
  // CHECK-NEXT: %6 = arith.cmpf one, %arg0, %arg1 : f32
  %6 = arith.cmpf one, %a, %b : f32
  // CHECK-NEXT: %7 = arith.cmpf ord, %arg0, %arg1 : f32
  %7 = arith.cmpf ord, %a, %b : f32
  // CHECK-NEXT: %8 = arith.cmpf ueq, %arg0, %arg1 : f32
  %8 = arith.cmpf ueq, %a, %b : f32
  // CHECK-NEXT: %9 = arith.cmpf ugt, %arg0, %arg1 : f32
  %9 = arith.cmpf ugt, %a, %b : f32
  // CHECK-NEXT: %10 = arith.cmpf uge, %arg0, %arg1 : f32
  %10 = arith.cmpf uge, %a, %b : f32
  // CHECK-NEXT: %11 = arith.cmpf ult, %arg0, %arg1 : f32
  %11 = arith.cmpf ult, %a, %b : f32
  // CHECK-NEXT: %12 = arith.cmpf ule, %arg0, %arg1 : f32
  %12 = arith.cmpf ule, %a, %b : f32
  // CHECK-NEXT: %13 = arith.cmpf une, %arg0, %arg1 {test.tag} : f32
  %13 = arith.cmpf une, %a, %b {test.tag} : f32
  // CHECK-NEXT: %14 = arith.cmpf uno, %arg2, %arg2 : vector<4xf64>
  // GENERIC: "arith.cmpf"(%{{.*}}, %{{.*}}) <{fastmath = #arith.fastmath<none>, predicate = 14 : i64}> : (vector<4xf64>, vector<4xf64>) -> vector<4xi1>
  %14 = arith.cmpf "uno", %v, %v : vector<4xf64>
  // CHECK-NEXT: %15 = arith.cmpf true, %arg0, %arg1 fastmath<fast> : f32
  %15 = arith.cmpf true, %a, %b fastmath<fast> : f32
  // CHECK-NEXT: %16 = arith.cmpf ogt, %arg0, %arg1 : f32
  %16 = "arith.cmpf"(%a, %b) {predicate = 2 : i64} : (f32, f32) -> i1
  // A predicate in the attribute dictionary wins over the keyword.
  // CHECK-NEXT: %17 = arith.cmpf oge, %arg0, %arg1 : f32
  %17 = arith.cmpf olt, %a, %b {predicate = 3 : i64} : f32
  return
}
