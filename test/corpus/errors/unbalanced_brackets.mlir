// Unbalanced brackets in an opaque dialect type.
%0 = "fz.a"() : () -> !fz.t<[1, 2>
