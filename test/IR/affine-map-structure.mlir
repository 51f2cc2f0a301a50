// RUN: fuser-opt --allow-unregistered-dialect %s | FileCheck %s

// MLIR uniques affine maps and sets by their expression trees after the builders'
// simplifications, not by their printed text: `(d0 + d1) + 5` and `d0 + (d1 + 5)` both print
// `d0 + d1 + 5` but are two maps. Checked against mlir-opt-19.
// NO-ROUNDTRIP: the printed text is the same for both maps, so re-parsing it (in mlir-opt-19
// as here) gives one map.

// CHECK: #map = affine_map<(d0, d1) -> (d0 + d1 + 5)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1) -> (d0 + d1 + 5)>
// CHECK-NEXT: #map2 = affine_map<(d0, d1) -> (d0 + d1 - 7 + 2)>
// CHECK-NEXT: #set = affine_set<(d0, d1) : (d0 + d1 - 5 >= 0)>
// CHECK-NEXT: #set1 = affine_set<(d0, d1) : (d0 + d1 - 5 >= 0)>
// CHECK: "t.maps"() {a = #map, b = #map1, c = #map, d = #map2, e = #map1} : () -> ()
// CHECK: "t.sets"() {a = #set, b = #set1} : () -> ()
"t.maps"() {a = affine_map<(i, j) -> ((i + j) + 5)>, b = affine_map<(i, j) -> (i + (j + 5))>,
            c = affine_map<(i, j) -> (i + j + 5)>, d = affine_map<(i, j) -> ((i + 2) + (j - 7))>,
            e = affine_map<(i, j) -> (i + (j + 2 + 3))>} : () -> ()
"t.sets"() {a = affine_set<(i, j) : ((i + j) - 5 >= 0)>, b = affine_set<(i, j) : (i + (j - 5) >= 0)>} : () -> ()
