//! Thread-safe uniquing (hash-consing) storage for types, attributes and identifiers.
//!
//! A [`Uniquer<K>`] hands out a dense `u32` for each distinct key; the same key always gets the
//! same number, so equality of uniqued things is equality of numbers. Reads (`get`) are
//! lock-free: entries live in an append-only segmented vector whose segments never move, so a
//! `&K` stays valid for the uniquer's lifetime. Inserts take a mutex. This is what lets nested
//! pass pipelines run on several functions at once against one shared context.
//!
//! Depends on nothing else in the crate.

use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;
use std::borrow::Borrow;
use std::hash::{BuildHasher, Hash};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

const FIRST_SEGMENT_BITS: u32 = 6; // first segment holds 64 entries
const SEGMENTS: usize = 32;

/// An append-only vector with stable addresses and lock-free reads.
struct AppendVec<T> {
    segments: [OnceLock<Box<[OnceLock<T>]>>; SEGMENTS],
    len: AtomicUsize,
}

impl<T> AppendVec<T> {
    fn new() -> Self {
        AppendVec { segments: std::array::from_fn(|_| OnceLock::new()), len: AtomicUsize::new(0) }
    }

    #[inline]
    fn locate(index: usize) -> (usize, usize) {
        let j = index + (1 << FIRST_SEGMENT_BITS);
        let top = usize::BITS - 1 - j.leading_zeros();
        let seg = (top - FIRST_SEGMENT_BITS) as usize;
        (seg, j - (1 << top))
    }

    /// Appends; callers serialise pushes (the uniquer holds its mutex).
    fn push(&self, value: T) -> usize {
        let index = self.len.load(Ordering::Relaxed);
        let (seg, off) = Self::locate(index);
        assert!(seg < SEGMENTS, "uniquer overflow");
        let segment = self.segments[seg].get_or_init(|| {
            let n = 1usize << (seg as u32 + FIRST_SEGMENT_BITS);
            (0..n).map(|_| OnceLock::new()).collect()
        });
        if segment[off].set(value).is_err() {
            unreachable!("append slot written twice");
        }
        self.len.store(index + 1, Ordering::Release);
        index
    }

    #[inline]
    fn get(&self, index: usize) -> &T {
        let (seg, off) = Self::locate(index);
        self.segments[seg]
            .get()
            .and_then(|s| s[off].get())
            .unwrap_or_else(|| panic!("uniqued handle {index} does not belong to this context"))
    }

    fn len(&self) -> usize {
        self.len.load(Ordering::Acquire)
    }
}

/// Uniques keys of type `K` to dense `u32` numbers. Each key is stored once (in the
/// append-only vector); the hash table holds only numbers.
pub struct Uniquer<K> {
    table: Mutex<HashTable<u32>>,
    items: AppendVec<K>,
    hasher: FxBuildHasher,
}

impl<K: Eq + Hash> Default for Uniquer<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: Eq + Hash> Uniquer<K> {
    pub fn new() -> Self {
        Uniquer { table: Mutex::new(HashTable::new()), items: AppendVec::new(), hasher: FxBuildHasher }
    }

    /// The number of `key`, allocating one if the key is new.
    pub fn intern(&self, key: K) -> u32 {
        let hash = self.hasher.hash_one(&key);
        let mut table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&n) = table.find(hash, |&n| *self.items.get(n as usize) == key) {
            return n;
        }
        self.insert_new(&mut table, hash, key)
    }

    fn insert_new(&self, table: &mut HashTable<u32>, hash: u64, key: K) -> u32 {
        let n = u32::try_from(self.items.push(key)).expect("uniquer overflow");
        table.insert_unique(hash, n, |&m| self.hasher.hash_one(self.items.get(m as usize)));
        n
    }

    /// Like [`intern`](Self::intern) but looks a borrowed form up first, cloning only on a miss.
    pub fn intern_ref<Q>(&self, key: &Q) -> u32
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
        for<'a> &'a Q: Into<K>,
    {
        let hash = self.hasher.hash_one(key);
        let mut table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&n) = table.find(hash, |&n| self.items.get(n as usize).borrow() == key) {
            return n;
        }
        self.insert_new(&mut table, hash, key.into())
    }

    #[inline]
    pub fn get(&self, n: u32) -> &K {
        self.items.get(n as usize)
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_key_same_number_across_segments() {
        let u = Uniquer::<String>::new();
        let nums: Vec<u32> = (0..1000).map(|i| u.intern(format!("k{i}"))).collect();
        for (i, n) in nums.iter().enumerate() {
            assert_eq!(u.intern(format!("k{i}")), *n);
            assert_eq!(u.get(*n), &format!("k{i}"));
        }
        assert_eq!(u.len(), 1000);
    }

    #[test]
    fn concurrent_interning_agrees() {
        let u = Uniquer::<u64>::new();
        let results: Vec<Vec<u32>> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..4).map(|_| s.spawn(|| (0..500u64).map(|k| u.intern(k)).collect())).collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for r in &results[1..] {
            assert_eq!(r, &results[0]);
        }
    }
}
