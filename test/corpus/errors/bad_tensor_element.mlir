// Tensors cannot have tensor elements.
%0 = "fz.a"() : () -> tensor<2xtensor<3xi8>>
