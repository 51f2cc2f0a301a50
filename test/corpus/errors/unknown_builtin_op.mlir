// The builtin dialect does not allow unknown operations either.
"builtin.whatever"() : () -> ()
