// End of file inside an attribute dictionary at the end of a line.
"fz.a"() {a = 1,