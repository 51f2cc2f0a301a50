// Value numbering: generic form numbers uniquely (regions visited last-first),
// custom form restarts sibling regions from the parent's counter.
%top0 = "fz.src"() : () -> i32
"fz.r1"() ({
^bb0(%x: i32):
  %a = "fz.x"(%x) : (i32) -> i32
}) : () -> ()
"fz.r2"() ({
^bb0(%y: i32, %z: i32):
  %b = "fz.x"(%y) : (i32) -> i32
  "fz.inner"() ({
  ^bb0(%w: index):
    %c = "fz.x"(%top0) : (i32) -> i32
  }, {
    %d = "fz.x"(%b) : (i32) -> i32
  ^bb1(%v: i32):
    %e = "fz.x"(%v) : (i32) -> i32
  }) : () -> ()
  %f = "fz.after"() : () -> i32
}) : () -> ()
%top1 = "fz.src"() : () -> i32
"fz.r3"() ({
  %g = "fz.x"(%top1) : (i32) -> i32
}, {
^bb0(%u: f32):
  %h = "fz.x"(%top0) : (i32) -> i32
}) : () -> ()
%top2:2 = "fz.pair"() : () -> (i32, i32)
"fz.r4"() ({
  %i:3 = "fz.x3"() : () -> (i1, i1, i1)
}) : () -> ()
%top3 = "fz.src"() : () -> i32
