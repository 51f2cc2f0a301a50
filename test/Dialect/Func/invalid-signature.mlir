// RUN: fuser-opt --split-input-file --verify-diagnostics %s

// Signature and body diagnostics of func.func as mlir-opt-19 gives them (MLIR's
// function_interface_impl parser and verifier).

// An argument list is all named or all bare types.
func.func @mixed_named_arguments(f32,
                                 %a : i32) { // expected-error {{expected type instead of SSA identifier}}
  return
}

// -----

func.func @mixed_unnamed_arguments(%a : i32,
                                   f32) { // expected-error {{expected SSA identifier}}
  return
}

// -----

// A written body must have a block.
func.func @foo() {} // expected-error {{expected non-empty function body}}

// -----

// `arg_attrs` / `res_attrs` may be written in the attribute dictionary; the verifier checks them.
// expected-error@+1 {{'func.func' op expects argument attribute array to have the same number of elements as the number of function arguments, got 1, but expected 0}}
func.func private @invalid_arg_attrs() attributes { arg_attrs = [{}] }

// -----

// expected-error@+1 {{'func.func' op expects result attribute array to have the same number of elements as the number of function results, got 1, but expected 0}}
func.func private @invalid_res_attrs() attributes { res_attrs = [{}] }

// -----

// expected-error@+1 {{'sym_name' is an inferred attribute and should not be specified in the explicit attribute dictionary}}
func.func private @inferred() attributes { sym_name = "x" }

// -----

// Arguments and results carry dialect attributes only.
// expected-error@+1 {{'func.func' op arguments may only have dialect attributes}}
func.func private @invalid_func_arg_attr(i1 {non_dialect_attr = 10})

// -----

// expected-error@+1 {{'func.func' op results may only have dialect attributes}}
func.func private @invalid_func_result_attr() -> (i1 {non_dialect_attr = 10})

// -----

func.func private @dialect_attrs(i1 {fz.marker}) -> (i1 {fz.other = 1 : i32})
