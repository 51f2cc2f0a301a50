// RUN: fuser-opt --split-input-file --verify-diagnostics %s

// builtin.unrealized_conversion_cast needs at least one result (mlir-opt-19's verifier).

// expected-error@+1 {{'builtin.unrealized_conversion_cast' op expected at least one result for cast operation}}
"builtin.unrealized_conversion_cast"() : () -> ()

// -----

// The custom form needs a result type.
func.func @no_result(%a: i32) {
  // expected-error@+1 {{expected non-function type}}
  builtin.unrealized_conversion_cast %a : i32 to
  return
}
