// An unknown builtin type keyword.
%0 = "fz.a"() : () -> i32x
