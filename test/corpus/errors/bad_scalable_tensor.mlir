// Scalable dimensions are only valid in vectors.
%0 = "fz.a"() : () -> tensor<[4]xf32>
