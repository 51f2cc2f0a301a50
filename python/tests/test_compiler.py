"""The compiler API: parse, run a pipeline, verify, print; diagnostics as data."""

from __future__ import annotations

import fuser
import pytest
from conftest import example

ALLGATHER = """fusion.mesh @tp = [0, 1]
func.func @f(%x: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[], []]>> {
  %y = fusion.set %x : (tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x4xf32, #fusion.shard<@tp, [[], []]>>
  return %y : tensor<8x4xf32, #fusion.shard<@tp, [[], []]>>
}
"""


def test_parse_print_round_trips():
    c = fuser.Compiler()
    m = c.parse(ALLGATHER, "allgather.mlir")
    assert "fusion.set %arg0" in str(m)
    again = c.parse(m.print(), "again.mlir")
    assert again.print() == m.print()
    assert c.print(m, generic=True).startswith('"builtin.module"()')
    assert m.num_ops() == 5


def test_run_pipeline_lowers_and_leaves_copies_alone():
    m = fuser.parse(ALLGATHER)
    before = m.clone()
    warnings = m.run_pipeline("builtin.module(tp-default)")
    assert warnings == []
    assert "comm.allgather" in m.print()
    assert "comm.allgather" not in before.print()
    m.verify()


def test_compiler_methods_match_module_methods():
    c = fuser.Compiler(threading=False)
    m = c.parse(example("row_parallel_linear.mlir"), "row.mlir")
    c.verify(m)
    c.run_pipeline(m, "builtin.module(tp-default)")
    assert "comm.allreduce sum" in c.print(m)


def test_pass_and_pipeline_names():
    c = fuser.Compiler()
    names = c.pass_names()
    assert "canonicalize" in names and "tp-default" in names
    assert set(fuser.pipeline_names()) <= set(names)
    assert {"tp-default", "tp-host"} <= set(fuser.pipeline_names())
    assert c.has_pass("cse") and not c.has_pass("no-such-pass")


def test_parse_error_fields_and_rendering():
    with pytest.raises(fuser.FuserError) as info:
        fuser.Compiler().parse("func.func @f() {\n  return %x : i32\n}\n", "typo.mlir")
    e = info.value
    assert (e.file, e.line, e.column) == ("typo.mlir", 2, 10)
    assert e.message == "use of undeclared SSA value name"
    assert str(e) == "typo.mlir:2:10: error: use of undeclared SSA value name\n  return %x : i32\n         ^"
    (d,) = e.diagnostics
    assert d.severity == "error" and d.rendered.endswith("^\n")
    assert str(d) == d.rendered


def test_notes_are_carried():
    text = "func.func @f() {\n  %0 = arith.constant 1 : i32\n  %0 = arith.constant 2 : i32\n  return\n}\n"
    with pytest.raises(fuser.FuserError) as info:
        fuser.parse(text, "dup.mlir")
    e = info.value
    assert e.message == "redefinition of SSA value '%0'"
    (note,) = e.notes
    assert (note.file, note.line, note.message) == ("dup.mlir", 2, "previously defined here")
    assert "note: previously defined here" in str(e)


def test_verifier_error_is_located():
    bad = ALLGATHER.replace("8x4xf32, #fusion.shard<@tp, [[DIDx], []]>>)", "7x4xf32, #fusion.shard<@tp, [[DIDx], []]>>)", 1)
    with pytest.raises(fuser.FuserError) as info:
        fuser.parse(bad, "bad.mlir")
    assert info.value.file == "bad.mlir" and info.value.line >= 1
    assert "bad.mlir:" in str(info.value)


def test_bad_pipeline_raises():
    m = fuser.parse(ALLGATHER)
    with pytest.raises(fuser.FuserError) as info:
        m.run_pipeline("builtin.module(no-such-pass)")
    assert "no-such-pass" in info.value.message


PRINTABLE = """func.func @f(%a: i32) -> i32 {
  %c = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %0 = arith.addi %a, %a : i32
  %1 = arith.muli %0, %a : i32
  return %1 : i32
}
"""


def test_print_keywords_follow_mlir_opt_flags():
    # Expected texts from mlir-opt-19 with the flag of the same name.
    m = fuser.parse(PRINTABLE)
    users = m.print(value_users=True)
    assert "    // %arg0 is used by %2, %1\n" in users
    assert "%1 = arith.addi %arg0, %arg0 : i32 // user: %2\n" in users
    assert "return %2 : i32 // id: %3\n" in users
    assert "dense_resource<__elided__> : tensor<4xi32>" in m.print(elide_elements_larger_than=2)
    assert "dense<[1, 2, 3, 4]>" in m.print(elide_elements_larger_than=4)
    assert 'loc("' in m.print(debug_info=True, local_scope=True)
    assert "#loc" not in m.print(debug_info=True, local_scope=True)
    assert fuser.Compiler().print(m, unique_ssa_ids=True) == m.print(unique_ssa_ids=True)
