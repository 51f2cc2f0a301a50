// RUN: fuser-opt --split-input-file --verify-diagnostics %s

// Diagnostics of mlir-opt-19 for malformed trailing locations and layouts.

func.func @location_invalid_alias() {
  // expected-error@+1 {{expected location, but found dialect attribute: '#foo.loc'}}
  return loc(#foo.loc)
}

// -----

// expected-error@+1 {{strides must not be zero}}
func.func private @memref_zero_stride() -> memref<?x?xf32, strided<[0, 0]>>

// -----

// expected-error@+1 {{strides must not be zero}}
func.func private @memref_zero_stride_offset() -> memref<?x?xf32, strided<[1, 0], offset: 3>>
