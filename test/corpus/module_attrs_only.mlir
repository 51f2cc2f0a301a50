// Module with attributes but no name.
module attributes {fz.x = 1 : i64, "fz.quoted-key" = "v"} {
  "fz.op"() : () -> ()
}
