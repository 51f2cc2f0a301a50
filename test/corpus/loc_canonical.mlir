// Location canonicalization: an empty file name becomes "-", a name location
// whose child is unknown (or fuses nothing) is the bare name.
"fz.a"() : () -> () loc("":0:1)
"fz.b"() : () -> () loc("n"(unknown))
"fz.c"() : () -> () loc("n"(fused[]))
"fz.d"() : () -> () loc("n")
"fz.e"() : () -> () loc(callsite("":3:4 at "a":1:2))
"fz.f"() : () -> () loc(""(""))
