// The caret after a tab in the middle of a line.
"fz.a"() {a =	1, b =  	%v} : () -> ()
