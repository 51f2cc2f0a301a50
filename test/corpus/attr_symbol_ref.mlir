// Symbol reference attributes.
"fz.s"() {a = @a, b = @a::@b, c = @a::@b::@c, d = @"quoted name", e = @"with-dash", f = @_under, g = @a.b$c} : () -> ()
"fz.t"() {a = @"0lead", b = @"q\"x", c = @"a"::@"b c", e = @"é", f = @x::@"y-z"} : () -> ()
"fz.u"() {refs = [@one, @two::@three], m = {k = @v}} : () -> ()
"fz.callee"() {callee = @"plain"} : () -> ()
