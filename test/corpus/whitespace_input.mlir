// Irregular input whitespace and comments are normalized on output.
   %0   =   "fz.a"  (  )  {  b = 1 : i32 ,a=2:i32 }  :  (  )  ->  i32   // trailing comment
%1:2=  "fz.b"(%0,%0):(i32,i32)->(i32,i32)
"fz.c"(%1#0 , %1#1)
  ({
    ^bb0  ( %x : i32 ) :
      "fz.d"  (%x)  :  (i32)  ->  ()
  })
  :  (i32,i32)->()

// A blank line above; tabs below.
	"fz.e"()	:	()	->	()
"fz.f"() {t = tensor<4 x 8 x f32>, v = vector< 2 x i8 >} : () -> ()
"fz.g"() {arr = [ ], dict = { }, s = "  keep  spaces  "} : () -> ()
