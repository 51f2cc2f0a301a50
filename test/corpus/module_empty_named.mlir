// An empty named module.
module @empty {
}
