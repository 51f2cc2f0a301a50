// Regions: empty, several per op, nested, entry block args, empty blocks.
"fz.empty"() ({}) : () -> ()
"fz.two_empty"() ({}, {}) : () -> ()
"fz.empty_block"() ({
^bb0:
}) : () -> ()
"fz.mixed"() ({}, {
  "fz.a"() : () -> ()
}, {
^bb0(%x: i64):
  "fz.b"(%x) : (i64) -> ()
}) : () -> ()
"fz.nest"() ({
  "fz.level1"() ({
    "fz.level2"() ({
      "fz.level3"() ({
        "fz.leaf"() : () -> ()
      }) : () -> ()
    }) : () -> ()
  }) : () -> ()
}) : () -> ()
%r = "fz.with_result"() ({
  %v = "fz.v"() : () -> f32
  "fz.yield"(%v) : (f32) -> ()
}) {tag = "r"} : () -> f32
"fz.two_blocks"() ({
^bb0:
  "fz.br"() [^bb1] : () -> ()
^bb1:
  "fz.end"() : () -> ()
}) : () -> ()
"fz.empty_entry_arg"() ({
^bb0(%a: i1):
}) : () -> ()
"fz.operands_and_region"(%r, %r) ({
^bb0(%p: f32, %q: f32):
  "fz.yield"(%q, %p) : (f32, f32) -> ()
}) : (f32, f32) -> ()
