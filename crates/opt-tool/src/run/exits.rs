//! How `fuser-run --launch` words the end of a rank's process that the rank could not report
//! itself: a death by signal (SIGKILL from the kernel's OOM killer or a user, a crash).

use std::process::ExitStatus;

/// `killed by signal 9 (SIGKILL)` when `status` is a death by signal, else `None` (an exit
/// status: the rank printed its own message, or had nothing to say).
pub fn death_by_signal(status: ExitStatus) -> Option<String> {
    use std::os::unix::process::ExitStatusExt as _;
    let signal = status.signal()?;
    let name = crate::signals::name(signal).map_or_else(String::new, |n| format!(" ({n})"));
    Some(format!("killed by signal {signal}{name}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt as _;

    #[test]
    fn signals_are_named_exit_codes_are_not() {
        assert_eq!(death_by_signal(ExitStatus::from_raw(9)).as_deref(), Some("killed by signal 9 (SIGKILL)"));
        assert_eq!(death_by_signal(ExitStatus::from_raw(1 << 8)), None);
    }
}
