// The error line is indented with tabs: the source line is shown with tabs expanded.
	"fz.a"(%x) : (i32) -> ()
