// A module nested in an unregistered op prints with its dialect prefix; inside
// a module, unprefixed builtin names resolve at any depth.
"fz.x"() ({
  module {
    module @deep {
    }
  }
}) : () -> ()
module @m {
  module {
    "fz.y"() : () -> ()
  }
}
