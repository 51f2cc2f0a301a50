// An opaque type of an unregistered dialect without --allow-unregistered-dialect.
func.func private @f(!fz.thing)
