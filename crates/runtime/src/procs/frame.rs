//! The byte-level encoding of the messages between a rank and rank 0's hub: little-endian
//! integers, length-prefixed byte strings and the runtime's small types (element types, op
//! keys, errors). A message is one frame of the store's framing (`store::wire`: a u32 length,
//! bounded, read as the bytes arrive).
//!
//! Invariant: [`Decoder`] never panics and never allocates more than the frame holds; every
//! malformed frame is an error that says what was cut short or unknown.

use crate::dtype::DType;
use crate::error::{OpKey, RtError};
use std::sync::Arc;

/// Builds one frame.
#[derive(Default)]
pub struct Encoder(pub Vec<u8>);

impl Encoder {
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }
    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn usize(&mut self, v: usize) -> &mut Self {
        self.u64(v as u64)
    }
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.usize(b.len());
        self.0.extend_from_slice(b);
        self
    }
    pub fn str(&mut self, s: &str) -> &mut Self {
        self.bytes(s.as_bytes())
    }
    pub fn opt_str(&mut self, s: Option<&str>) -> &mut Self {
        match s {
            Some(s) => self.u8(1).str(s),
            None => self.u8(0),
        }
    }
    pub fn usizes(&mut self, v: &[usize]) -> &mut Self {
        self.usize(v.len());
        v.iter().for_each(|&x| {
            self.usize(x);
        });
        self
    }
    pub fn dtype(&mut self, d: DType) -> &mut Self {
        let index = DType::ALL.iter().position(|&x| x == d).unwrap_or(0);
        self.u8(index as u8)
    }
    pub fn key(&mut self, k: &OpKey) -> &mut Self {
        self.u64(k.index as u64).str(&k.name).opt_str(k.loc.as_deref())
    }
    pub fn error(&mut self, e: &RtError) -> &mut Self {
        self.str(&e.message);
        match e.rank {
            Some(r) => self.u8(1).usize(r),
            None => self.u8(0),
        };
        match &e.op {
            Some(k) => self.u8(1).key(k),
            None => self.u8(0),
        }
    }
}

/// Reads one frame.
pub struct Decoder<'a>(pub &'a [u8]);

/// Why a frame could not be decoded.
pub fn malformed(what: &str) -> RtError {
    RtError::new(format!("malformed message from another rank: {what}"))
}

impl Decoder<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], RtError> {
        if self.0.len() < n {
            return Err(malformed("cut short"));
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Ok(a)
    }
    pub fn u8(&mut self) -> Result<u8, RtError> {
        Ok(self.take(1)?[0])
    }
    pub fn u64(&mut self) -> Result<u64, RtError> {
        let b: [u8; 8] = self.take(8)?.try_into().map_err(|_| malformed("cut short"))?;
        Ok(u64::from_le_bytes(b))
    }
    pub fn usize(&mut self) -> Result<usize, RtError> {
        usize::try_from(self.u64()?).map_err(|_| malformed("a number out of range"))
    }
    /// A length no larger than what is left of the frame (`unit` bytes per item).
    fn len(&mut self, unit: usize) -> Result<usize, RtError> {
        let n = self.usize()?;
        if n.saturating_mul(unit) > self.0.len() {
            return Err(malformed("a length beyond the end of the frame"));
        }
        Ok(n)
    }
    pub fn bytes(&mut self) -> Result<Vec<u8>, RtError> {
        let n = self.len(1)?;
        Ok(self.take(n)?.to_vec())
    }
    pub fn str(&mut self) -> Result<String, RtError> {
        String::from_utf8(self.bytes()?).map_err(|_| malformed("text that is not UTF-8"))
    }
    pub fn opt_str(&mut self) -> Result<Option<String>, RtError> {
        Ok(match self.u8()? {
            0 => None,
            _ => Some(self.str()?),
        })
    }
    pub fn usizes(&mut self) -> Result<Vec<usize>, RtError> {
        let n = self.len(8)?;
        (0..n).map(|_| self.usize()).collect()
    }
    pub fn dtype(&mut self) -> Result<DType, RtError> {
        let i = self.u8()? as usize;
        DType::ALL.get(i).copied().ok_or_else(|| malformed("an unknown element type"))
    }
    pub fn key(&mut self) -> Result<OpKey, RtError> {
        let index = u32::try_from(self.u64()?).map_err(|_| malformed("an op index out of range"))?;
        let name: Arc<str> = self.str()?.into();
        let loc = self.opt_str()?.map(Arc::from);
        Ok(OpKey { index, loc, name })
    }
    pub fn error(&mut self) -> Result<RtError, RtError> {
        let mut e = RtError::new(self.str()?);
        if self.u8()? == 1 {
            e.rank = Some(self.usize()?);
        }
        if self.u8()? == 1 {
            e.op = Some(self.key()?);
        }
        Ok(e)
    }
    /// Fails unless the whole frame was read.
    pub fn end(&self) -> Result<(), RtError> {
        if self.0.is_empty() { Ok(()) } else { Err(malformed("trailing bytes")) }
    }
}
