// A caret on a tab character repeats across the tab's width.
"fz.a"(%x)	: (i32) -> ()
