// Reference to an attribute alias that is not defined.
"fz.a"() {v = #nope} : () -> ()
