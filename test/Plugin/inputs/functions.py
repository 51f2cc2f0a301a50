#!/usr/bin/env python3
"""Prints a module of FUNCTIONS functions (default 64), each a chain of ADDS (default 8)
fusion.add ops on tensors sharded over its own fusion.mesh: work for MLIR's parallel pass
manager in a func.func pipeline (threaded-functions.mlir).

    functions.py [FUNCTIONS [ADDS]]
"""

import sys

functions = int(sys.argv[1]) if len(sys.argv) > 1 else 64
adds = int(sys.argv[2]) if len(sys.argv) > 2 else 8
lines = [f"fusion.mesh @m{f} = [0, 1]" for f in range(functions)]
for f in range(functions):
    t = f"tensor<8x4xf32, #fusion.shard<@m{f}, [[DIDx], []]>>"
    lines.append(f"func.func @f{f}(%x: {t}, %y: {t}) -> {t} {{")
    prev = "%x"
    for i in range(adds):
        lines.append(f"  %a{i} = fusion.add {prev}, %y : ({t}, {t}) -> {t}")
        prev = f"%a{i}"
    lines.append(f"  return {prev} : {t}")
    lines.append("}")
print("\n".join(lines))
