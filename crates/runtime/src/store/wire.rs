//! The store's framing: length-prefixed byte strings (u32 little-endian length) with a bound
//! on every length, read as the bytes arrive so that a peer announcing 4 GiB makes the
//! reader allocate only what it actually sends, and the connection handshake.
//!
//! Invariants: [`read_bounded`] never allocates more than `max` bytes nor more than has
//! arrived plus one read chunk; every failure is an `io::Error` with a message that says what
//! was wrong (the server logs it and drops the connection).

use std::io::{self, Read, Write};

/// The first bytes of every connection, then the protocol version.
pub const MAGIC: &[u8; 4] = b"FUSR";
pub const VERSION: u8 = 2;
/// The longest key, token and error message.
pub const MAX_KEY: usize = 256;
/// The largest value (output pieces of big runs are large; the bound keeps lengths sane).
pub const MAX_VALUE: usize = 1 << 31;
/// How much a read grows its buffer at a time.
const CHUNK: usize = 1 << 20;

/// Request opcodes and replies.
pub const OP_SET: u8 = b'S';
pub const OP_GET: u8 = b'G';
pub const OK: u8 = 1;
pub const REFUSED: u8 = 0;
/// The answer to a hello when every joined slot is taken (the client retries).
pub const BUSY: u8 = 2;

pub fn invalid(msg: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg.into())
}

pub fn write_bytes(s: &mut impl Write, b: &[u8]) -> io::Result<()> {
    let len = u32::try_from(b.len()).map_err(|_| invalid(format!("{} bytes do not fit a length prefix", b.len())))?;
    s.write_all(&len.to_le_bytes())?;
    s.write_all(b)
}

/// A length-prefixed byte string of at most `max` bytes (`what` names it in errors).
pub fn read_bounded(s: &mut impl Read, max: usize, what: &str) -> io::Result<Vec<u8>> {
    let mut len = [0u8; 4];
    s.read_exact(&mut len)?;
    let len = u32::from_le_bytes(len) as usize;
    if len > max {
        return Err(invalid(format!("{what} of {len} bytes exceeds the limit of {max}")));
    }
    let mut out = Vec::with_capacity(len.min(CHUNK));
    while out.len() < len {
        let take = (len - out.len()).min(CHUNK);
        let start = out.len();
        out.resize(start + take, 0);
        s.read_exact(&mut out[start..])?;
    }
    Ok(out)
}

/// A key: at most [`MAX_KEY`] bytes of UTF-8.
pub fn read_key(s: &mut impl Read) -> io::Result<String> {
    String::from_utf8(read_bounded(s, MAX_KEY, "key")?).map_err(|_| invalid("key is not UTF-8"))
}

/// The client's side of the handshake: magic, version, token.
pub fn send_hello(s: &mut impl Write, token: &str) -> io::Result<()> {
    s.write_all(MAGIC)?;
    s.write_all(&[VERSION])?;
    write_bytes(s, token.as_bytes())
}

/// The server's side: the token the client presented, or why the hello is not one.
pub fn read_hello(s: &mut impl Read) -> io::Result<Vec<u8>> {
    let mut head = [0u8; 5];
    s.read_exact(&mut head)?;
    if &head[..4] != MAGIC {
        return Err(invalid("not a fuser store client (bad magic)"));
    }
    if head[4] != VERSION {
        return Err(invalid(format!("protocol version {} (this store speaks {VERSION})", head[4])));
    }
    read_bounded(s, MAX_KEY, "token")
}

/// Equality of two byte strings in time independent of where they differ.
pub fn same_secret(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_over_the_bound_are_refused_before_allocating() {
        let mut wire = (u32::MAX).to_le_bytes().to_vec();
        wire.extend_from_slice(b"abc");
        let err = read_bounded(&mut wire.as_slice(), MAX_VALUE, "value").unwrap_err();
        assert!(err.to_string().contains("exceeds the limit"), "{err}");
    }

    #[test]
    fn a_short_body_is_an_error_not_a_huge_buffer() {
        // Announces 1 GiB, sends 3 bytes: the read fails at the end of input.
        let mut wire = (1u32 << 30).to_le_bytes().to_vec();
        wire.extend_from_slice(b"abc");
        assert!(read_bounded(&mut wire.as_slice(), MAX_VALUE, "value").is_err());
    }

    #[test]
    fn hello_round_trips_and_rejects_strangers() {
        let mut wire = Vec::new();
        send_hello(&mut wire, "secret").unwrap();
        assert_eq!(read_hello(&mut wire.as_slice()).unwrap(), b"secret");
        assert!(read_hello(&mut b"GET / HTTP/1.1\r\n\r\n".as_slice()).is_err());
        assert!(same_secret(b"abc", b"abc") && !same_secret(b"abc", b"abd") && !same_secret(b"ab", b"abc"));
    }
}
