//! The text of an I/O error as LLVM tools print it: the system's message alone
//! (`No such file or directory`), without Rust's ` (os error 2)` suffix, so that
//! `cannot open input file 'x': ...` reads as mlir-opt-19's.

/// The message of `e` without the OS error number.
pub fn io_error_text(e: &std::io::Error) -> String {
    let text = e.to_string();
    match e.raw_os_error() {
        Some(code) => text.strip_suffix(&format!(" (os error {code})")).unwrap_or(&text).to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn os_errors_lose_their_number_only() {
        let missing = std::fs::read("/no/such/dir/file").unwrap_err();
        assert_eq!(io_error_text(&missing), "No such file or directory");
        let custom = std::io::Error::other("disk on fire");
        assert_eq!(io_error_text(&custom), "disk on fire");
    }
}
