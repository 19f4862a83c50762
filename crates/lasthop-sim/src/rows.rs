//! Items grouped by a small integer key in one array (compressed rows):
//! key `k`'s items are `items[start[k]..start[k + 1]]`, in the order they
//! came. Built by counting (two walks over the pairs, no per-key vectors):
//! the router's adjacency lists and the run summary's agents per flow.

/// Items of type `T` grouped by a key below the `n` given at building.
pub(crate) struct Rows<T> {
    start: Vec<u32>,
    items: Vec<T>,
}

impl<T: Copy + Default> Rows<T> {
    /// Group `(key, item)` pairs by key (every key below `n`), each group in
    /// the pairs' order. `pairs` is walked twice: once to count, once to
    /// place.
    pub(crate) fn of_pairs(n: usize, pairs: impl Iterator<Item = (usize, T)> + Clone) -> Rows<T> {
        let mut start = vec![0u32; n + 1];
        for (key, _) in pairs.clone() {
            start[key + 1] += 1;
        }
        for k in 0..n {
            start[k + 1] += start[k];
        }
        let mut fill = start.clone();
        let mut items = vec![T::default(); start[n] as usize];
        for (key, item) in pairs {
            let at = &mut fill[key];
            items[*at as usize] = item;
            *at += 1;
        }
        Rows { start, items }
    }

    /// Key `k`'s items, in order.
    #[inline]
    pub(crate) fn of(&self, k: usize) -> &[T] {
        &self.items[self.start[k] as usize..self.start[k + 1] as usize]
    }
}
