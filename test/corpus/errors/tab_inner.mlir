// A tab in the middle of the error line.
"fz.a"() :	(i32) -> (%y)
