"""Every Python code block of docs/python.md runs, with its line numbers in the file (so
errors and locations the blocks check point into docs/python.md); docs/training.md's blocks
run in order, sharing their names."""

from __future__ import annotations

import os
import re

import pytest
from conftest import ROOT

DOC = os.path.join(ROOT, "docs", "python.md")


def blocks():
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    for m in re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M):
        first_line = text.count("\n", 0, m.start(1))
        yield pytest.param(first_line, m.group(1), id=f"line{first_line + 1}")


@pytest.mark.parametrize("first_line,code", list(blocks()))
def test_doc_block_runs(first_line, code):
    exec(compile("\n" * first_line + code, DOC, "exec"), {"__file__": DOC, "__name__": "docs"})


def test_the_doc_has_blocks():
    assert len(list(blocks())) >= 5


TRAINING = os.path.join(ROOT, "docs", "training.md")


def test_the_training_doc_runs_in_order():
    """docs/training.md's blocks build on each other (the loop's `bw`, `xs`, `params`): they
    run in order in one namespace, each at its line numbers."""
    with open(TRAINING, encoding="utf-8") as f:
        text = f.read()
    found = list(re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M))
    assert len(found) >= 3
    namespace = {"__file__": TRAINING, "__name__": "docs"}
    for m in found:
        first_line = text.count("\n", 0, m.start(1))
        exec(compile("\n" * first_line + m.group(1), TRAINING, "exec"), namespace)
