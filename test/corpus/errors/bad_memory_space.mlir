// Opaque dialect attributes are not accepted as memref memory spaces.
%0 = "fz.a"() : () -> memref<4xf32, #fz.space<global>>
