//! A free loopback port for rank 0's store, chosen so that nothing else takes it before rank 0
//! binds it.

/// The lowest port [`free_port`] draws from.
const FLOOR: u32 = 10000;

/// A TCP port that was free a moment ago on the loopback interface, for rank 0's store.
///
/// Chosen at random **below the kernel's ephemeral range** (`ip_local_port_range`, 32768 on
/// Linux by default): between this check and rank 0's `bind`, a port from the ephemeral range
/// can be handed to any outgoing connection of the machine (under many concurrent runs one
/// was: rank 0 failed with "Address already in use" and the ranks met another run's store),
/// while ports below it are only taken by explicit binds. Falls back to a kernel-chosen port
/// when the range leaves no room below it.
pub fn free_port() -> Result<u16, String> {
    let lowest_ephemeral = lowest_ephemeral_port().unwrap_or(32768);
    if lowest_ephemeral > FLOOR + 1000 {
        let mut seed = {
            use std::hash::{BuildHasher, Hasher};
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u32(std::process::id());
            h.finish()
        };
        for _ in 0..64 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let port = FLOOR + ((seed >> 33) as u32) % (lowest_ephemeral - FLOOR);
            let Ok(port) = u16::try_from(port) else { break };
            if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
                return Ok(port);
            }
        }
    }
    let l = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| format!("cannot find a free port: {e}"))?;
    l.local_addr().map(|a| a.port()).map_err(|e| format!("cannot find a free port: {e}"))
}

/// The first port of the kernel's ephemeral range, where Linux says.
fn lowest_ephemeral_port() -> Option<u32> {
    std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|v| v.parse::<u32>().ok()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_store_port_is_free_and_below_the_ephemeral_range() {
        let ports: Vec<u16> = (0..8).map(|_| free_port().unwrap()).collect();
        for &p in &ports {
            assert!(std::net::TcpListener::bind(("127.0.0.1", p)).is_ok(), "port {p} is not free");
            if let Some(lo) = lowest_ephemeral_port().filter(|&lo| lo > FLOOR + 1000) {
                assert!((FLOOR..lo).contains(&u32::from(p)), "port {p} is not in [{FLOOR}, {lo})");
            }
        }
        // Random, not one fixed port for every launcher.
        assert!(ports.iter().any(|&p| p != ports[0]), "{ports:?}");
    }
}
