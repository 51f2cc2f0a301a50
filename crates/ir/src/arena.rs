//! Typed generational arenas and the small copyable handles that name their entries.
//!
//! An [`Arena<T>`] stores entries in a `Vec`; a freed slot goes on a free list and is reused
//! with its generation bumped. A handle ([`Id<T>`]) carries the index and the generation it was
//! created with, so a handle to an erased entry can never silently refer to the entry that
//! later reuses its slot: [`Arena::get`] returns `None` for it and indexing panics with a clear
//! message (a programming error, never an input error).
//!
//! This module is the bottom of the crate: it imports nothing else from `fuser-ir`.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

/// A handle to an entry of an [`Arena<T>`]: an index plus a generation. `Copy`, 8 bytes.
pub struct Id<T> {
    index: u32,
    generation: u32,
    _marker: PhantomData<fn() -> T>,
}

impl<T> Id<T> {
    /// The slot index (stable while the entry lives; useful as a dense key).
    #[inline]
    pub fn index(self) -> usize {
        self.index as usize
    }
    /// The generation the handle was made with.
    #[inline]
    pub fn generation(self) -> u32 {
        self.generation
    }
    #[inline]
    fn new(index: u32, generation: u32) -> Self {
        Id { index, generation, _marker: PhantomData }
    }
}

impl<T> Clone for Id<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Id<T> {}
impl<T> PartialEq for Id<T> {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index && self.generation == other.generation
    }
}
impl<T> Eq for Id<T> {}
impl<T> Hash for Id<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(((self.generation as u64) << 32) | self.index as u64);
    }
}
impl<T> PartialOrd for Id<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for Id<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.index, self.generation).cmp(&(other.index, other.generation))
    }
}
impl<T> fmt::Debug for Id<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}v{}", self.index, self.generation)
    }
}

struct Slot<T> {
    generation: u32,
    value: Option<T>,
}

/// A typed arena with generation-checked handles and slot reuse.
pub struct Arena<T> {
    slots: Vec<Slot<T>>,
    free: Vec<u32>,
    live: usize,
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena { slots: Vec::new(), free: Vec::new(), live: 0 }
    }
}

impl<T> Arena<T> {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn with_capacity(n: usize) -> Self {
        Arena { slots: Vec::with_capacity(n), free: Vec::new(), live: 0 }
    }
    /// Number of live entries.
    pub fn len(&self) -> usize {
        self.live
    }
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }
    /// One past the largest slot index ever used (for dense side tables).
    pub fn capacity_index(&self) -> usize {
        self.slots.len()
    }

    pub fn alloc(&mut self, value: T) -> Id<T> {
        self.live += 1;
        if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            slot.value = Some(value);
            return Id::new(index, slot.generation);
        }
        let index = u32::try_from(self.slots.len()).expect("arena overflow: more than 2^32 entries");
        self.slots.push(Slot { generation: 0, value: Some(value) });
        Id::new(index, 0)
    }

    /// Removes the entry and returns it; the handle (and every copy of it) becomes stale.
    pub fn free(&mut self, id: Id<T>) -> Option<T> {
        let slot = self.slots.get_mut(id.index as usize)?;
        if slot.generation != id.generation || slot.value.is_none() {
            return None;
        }
        let value = slot.value.take();
        slot.generation = slot.generation.wrapping_add(1);
        self.free.push(id.index);
        self.live -= 1;
        value
    }

    /// The handle of the live entry in slot `index` (for links stored as bare indices, which
    /// always point at live entries). Panics if the slot is free.
    #[inline]
    pub fn id_at(&self, index: u32) -> Id<T> {
        match self.slots.get(index as usize) {
            Some(Slot { generation, value: Some(_) }) => Id::new(index, *generation),
            _ => stale(std::any::type_name::<T>(), index, u32::MAX),
        }
    }

    /// The live entry in slot `index` (links stored as bare indices). Panics if free.
    #[inline]
    pub fn by_index(&self, index: u32) -> &T {
        match self.slots.get(index as usize) {
            Some(Slot { value: Some(v), .. }) => v,
            _ => stale(std::any::type_name::<T>(), index, u32::MAX),
        }
    }

    /// Mutable access to the live entry in slot `index`. Panics if free.
    #[inline]
    pub fn by_index_mut(&mut self, index: u32) -> &mut T {
        match self.slots.get_mut(index as usize) {
            Some(Slot { value: Some(v), .. }) => v,
            _ => stale(std::any::type_name::<T>(), index, u32::MAX),
        }
    }

    #[inline]
    pub fn contains(&self, id: Id<T>) -> bool {
        self.get(id).is_some()
    }

    #[inline]
    pub fn get(&self, id: Id<T>) -> Option<&T> {
        match self.slots.get(id.index as usize) {
            Some(Slot { generation, value: Some(v) }) if *generation == id.generation => Some(v),
            _ => None,
        }
    }

    #[inline]
    pub fn get_mut(&mut self, id: Id<T>) -> Option<&mut T> {
        match self.slots.get_mut(id.index as usize) {
            Some(Slot { generation, value: Some(v) }) if *generation == id.generation => Some(v),
            _ => None,
        }
    }

    /// Live entries with their handles, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (Id<T>, &T)> {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.value.as_ref().map(|v| (Id::new(i as u32, s.generation), v)))
    }
}

impl<T> std::ops::Index<Id<T>> for Arena<T> {
    type Output = T;
    #[inline]
    fn index(&self, id: Id<T>) -> &T {
        match self.get(id) {
            Some(v) => v,
            None => stale(std::any::type_name::<T>(), id.index, id.generation),
        }
    }
}

impl<T> std::ops::IndexMut<Id<T>> for Arena<T> {
    #[inline]
    fn index_mut(&mut self, id: Id<T>) -> &mut T {
        let (index, generation) = (id.index, id.generation);
        match self.get_mut(id) {
            Some(v) => v,
            None => stale(std::any::type_name::<T>(), index, generation),
        }
    }
}

#[cold]
#[inline(never)]
fn stale(kind: &str, index: u32, generation: u32) -> ! {
    panic!("use of a stale or erased handle #{index}v{generation} into the arena of {kind}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reused_slot_does_not_alias_old_handle() {
        let mut a = Arena::new();
        let x = a.alloc("x");
        assert_eq!(a.free(x), Some("x"));
        let y = a.alloc("y");
        assert_eq!(x.index(), y.index());
        assert_ne!(x, y);
        assert!(a.get(x).is_none());
        assert_eq!(a[y], "y");
        assert_eq!(a.free(x), None, "double free of a stale handle is refused");
        assert_eq!(a.len(), 1);
    }

    #[test]
    #[should_panic(expected = "stale or erased handle")]
    fn indexing_with_stale_handle_panics() {
        let mut a = Arena::new();
        let x = a.alloc(1);
        a.free(x);
        let _ = a[x];
    }
}
