// Empty named module and module with only attributes.
module @empty {
}
