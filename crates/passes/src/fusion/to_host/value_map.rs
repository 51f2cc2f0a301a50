//! [`ValueMap`]: a table keyed by SSA value, stored densely by the value's arena slot.
//!
//! `fusion-to-host` keeps one entry per tensor value of the function (its decoded type, the op
//! producing it, its host buffer). Values are numbered in the order they were created, which is
//! mostly program order, so the lookups of a pass walking the program in order touch
//! neighbouring slots; a hash table scatters them, which costs a cache miss per lookup once the
//! function no longer fits in cache. Each slot keeps its full key, so a slot reused by another
//! value (arena slots are recycled) never answers for the old one.

use fuser_ir::ir::Value;

/// A map from [`Value`] to `T`, one slot per value index up to the largest key.
#[derive(Clone, Debug)]
pub struct ValueMap<T> {
    slots: Vec<Option<(Value, T)>>,
    len: usize,
}

impl<T> Default for ValueMap<T> {
    fn default() -> Self {
        ValueMap { slots: Vec::new(), len: 0 }
    }
}

impl<T> ValueMap<T> {
    /// The entry of `v`, if any.
    pub fn get(&self, v: &Value) -> Option<&T> {
        match self.slots.get(v.index()) {
            Some(Some((k, t))) if k == v => Some(t),
            _ => None,
        }
    }

    pub fn contains_key(&self, v: &Value) -> bool {
        self.get(v).is_some()
    }

    /// Sets the entry of `v` (replacing an entry of `v`, or of a value that had its slot).
    pub fn insert(&mut self, v: Value, t: T) {
        let i = v.index();
        if i >= self.slots.len() {
            self.slots.resize_with(i + 1, || None);
        }
        if self.slots[i].is_none() {
            self.len += 1;
        }
        self.slots[i] = Some((v, t));
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<T> std::ops::Index<&Value> for ValueMap<T> {
    type Output = T;
    /// The entry of `v`; panics when there is none (a broken invariant of the caller, as with
    /// `HashMap`'s index).
    fn index(&self, v: &Value) -> &T {
        self.get(v).expect("ValueMap: no entry for this value")
    }
}

#[cfg(test)]
mod tests {
    use super::ValueMap;
    use fuser_ir::ir::Ir;

    #[test]
    fn entries_are_found_by_value_and_not_by_a_recycled_slot() {
        let mut ir = Ir::new();
        let ty = fuser_ir::Context::empty().index_type();
        let a = ir.create_placeholder(ty);
        let b = ir.create_placeholder(ty);
        let mut m = ValueMap::default();
        m.insert(b, 2);
        assert_eq!((m.get(&a), m[&b], m.len()), (None, 2, 1));
        m.insert(a, 1);
        m.insert(b, 3);
        assert_eq!((m[&a], m[&b], m.len()), (1, 3, 2));
        ir.erase_value(a);
        let c = ir.create_placeholder(ty);
        assert_eq!(c.index(), a.index(), "the arena recycles the slot");
        assert_eq!(m.get(&c), None);
    }
}
