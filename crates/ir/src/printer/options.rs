//! What to print: the public [`PrintOptions`] (mlir-opt's printing flags) and the [`Flags`]
//! one print runs with.
//!
//! Layer: printer data, importing nothing.

/// What to print (mlir-opt's printing flags).
#[derive(Clone, Debug, Default)]
pub struct PrintOptions {
    /// `--mlir-print-op-generic`: every op in the generic form.
    pub generic: bool,
    /// `--mlir-print-debuginfo`: print locations (`loc(#loc1)` and trailing `#loc1 = ...`).
    pub debug_info: bool,
    /// `--mlir-print-local-scope`: no aliases; locations and maps inline.
    pub local_scope: bool,
    /// `--mlir-elide-elementsattrs-if-larger=N`: non-splat dense elements attributes with more
    /// than N elements print as `dense_resource<__elided__>`.
    pub elide_elements_attrs_if_larger: Option<usize>,
    /// `--mlir-pretty-debuginfo`: locations in MLIR's "pretty" form (no `loc(...)`, file names
    /// unquoted, `[unknown]`, `callee at caller` split over lines).
    pub pretty_debug_info: bool,
    /// `--mlir-print-elementsattrs-with-hex-if-larger=N`: non-splat dense elements with more
    /// than N elements print as a hex string; -1 never. `None`: mlir-opt's default, 100.
    pub elements_hex_if_larger: Option<i64>,
    /// `--mlir-print-skip-regions`: every region prints as `{...}` (and adds no aliases).
    pub skip_regions: bool,
    /// `--mlir-print-unique-ssa-ids`: value, argument and name-conflict numbers never restart
    /// in nested regions, so every value of the printout has its own name (what the generic
    /// form always does).
    pub unique_ssa_ids: bool,
    /// `--mlir-print-value-users`: a `// user: ...`, `// users: ...`, `// unused` or
    /// `// id: ...` comment after each op, and a `// %x is used by ...` line for each block
    /// argument; ops without results are numbered (`%N`) so that they can be named.
    pub value_users: bool,
    /// `--mlir-elide-resource-strings-if-larger=N`: entries of the `{-# ... #-}` section
    /// whose printed value is longer than N characters are left out.
    pub elide_resource_strings_if_larger: Option<u64>,
    /// `--mlir-print-assume-verified`: print the custom form without verifying first. Without
    /// it, a printout of IR that fails to verify falls back to the generic form; the printer
    /// itself never verifies, its callers do (see `pass::adapters::print_op`).
    pub assume_verified: bool,
}

/// The flags of one print (a subset of mlir-opt's `OpPrintingFlags`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Flags {
    pub generic: bool,
    pub debug_info: bool,
    /// Print non-splat dense elements with more elements than this as `dense_resource<__elided__>`.
    pub elide_limit: Option<usize>,
    pub pretty_debug_info: bool,
    /// Non-splat dense elements with more elements than this print as hex (-1: never).
    pub hex_limit: i64,
    pub skip_regions: bool,
    /// Print the users comments (`--mlir-print-value-users`).
    pub value_users: bool,
    /// Leave out resource entries whose printed value is longer than this.
    pub resource_string_limit: Option<u64>,
}

/// mlir-opt's default for `--mlir-print-elementsattrs-with-hex-if-larger`.
pub(crate) const DEFAULT_HEX_LIMIT: i64 = 100;

impl Default for Flags {
    fn default() -> Flags {
        Flags::from_options(&PrintOptions::default())
    }
}

impl Flags {
    pub fn from_options(o: &PrintOptions) -> Flags {
        Flags {
            generic: o.generic,
            debug_info: o.debug_info,
            elide_limit: o.elide_elements_attrs_if_larger,
            pretty_debug_info: o.pretty_debug_info,
            hex_limit: o.elements_hex_if_larger.unwrap_or(DEFAULT_HEX_LIMIT),
            skip_regions: o.skip_regions,
            value_users: o.value_users,
            resource_string_limit: o.elide_resource_strings_if_larger,
        }
    }
}
