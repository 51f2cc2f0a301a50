// arith.select and arith.index_cast.
func.func @select(%c: i1, %a: i32, %b: i32, %vc: vector<4xi1>, %va: vector<4xi32>) -> (i32, vector<4xi32>, vector<4xi32>) {
  %0 = arith.select %c, %a, %b : i32
  %1 = arith.select %vc, %va, %va : vector<4xi1>, vector<4xi32>
  %2 = arith.select %c, %va, %va : vector<4xi32>
  return %0, %1, %2 : i32, vector<4xi32>, vector<4xi32>
}
func.func @casts(%i: index, %x: i32, %t: tensor<4xindex>) -> (i32, index, i64, tensor<4xi8>) {
  %0 = arith.index_cast %i : index to i32
  %1 = arith.index_cast %x : i32 to index
  %2 = arith.index_cast %i : index to i64
  %3 = arith.index_cast %t : tensor<4xindex> to tensor<4xi8>
  return %0, %1, %2, %3 : i32, index, i64, tensor<4xi8>
}
func.func @generic_forms(%c: i1, %i: index) -> (index, i16) {
  %0 = "arith.select"(%c, %i, %i) : (i1, index, index) -> index
  %1 = "arith.index_cast"(%0) : (index) -> i16
  return %0, %1 : index, i16
}
