// String attributes and escapes.
"fz.s"() {empty = "", plain = "hello", space = "a b", quote = "say \"hi\"", bslash = "back\\slash", nl = "line1\nline2", tab = "a\tb"} : () -> ()
"fz.hex"() {nul = "\00", one = "\01", del = "\7f", hi = "\ff", mixed = "a\0Ab", lower = "\0a", upper = "\0A", cr = "\0D", esc = "\1B", bell = "\07"} : () -> ()
"fz.utf8"() {e = "café", jp = "日本語", emoji = "🙂", raw = "\C3\A9"} : () -> ()
"fz.punct"() {sq = "it's", brace = "{}[]<>()", at = "@#$%^&*", semi = ";:,.", tilde = "~`|?"} : () -> ()
"fz.ws"() {multi = "a\n\n\tb", only_nl = "\n", trailing = "x\\"} : () -> ()
"fz.arr"() {xs = ["a", "b\n", "", "\22q\22"]} : () -> ()
