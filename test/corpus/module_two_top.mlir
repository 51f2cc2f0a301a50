// Two top-level modules are wrapped in an implicit outer module.
module @a {
}
module @b {
  "fz.x"() : () -> ()
}
