//! Sets of byte ranges of one flow's sequence space, as sorted disjoint
//! half-open intervals. In a bulk transfer they collapse to one or two
//! ranges, so an insert is usually an extension of the last one. Used for
//! goodput accounting (bytes crossing a link for the first time) and by
//! mid-path agents that remember which segments they have seen pass.

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RangeSet {
    ranges: Vec<(u64, u64)>,
}

impl RangeSet {
    /// Add [start, end); returns how many of its bytes were not yet covered.
    pub fn insert(&mut self, start: u64, end: u64) -> u64 {
        if start >= end {
            return 0;
        }
        // Fast path: at or beyond the end of the last range.
        if let Some(last) = self.ranges.last_mut() {
            if start >= last.0 && start <= last.1 {
                let new = end.saturating_sub(last.1);
                last.1 = last.1.max(end);
                return new;
            }
        }
        let i = self.ranges.partition_point(|r| r.1 < start);
        let mut j = i;
        let (mut s, mut e) = (start, end);
        let mut covered = 0;
        while j < self.ranges.len() && self.ranges[j].0 <= e {
            let (rs, re) = self.ranges[j];
            covered += re.min(end).saturating_sub(rs.max(start));
            s = s.min(rs);
            e = e.max(re);
            j += 1;
        }
        self.ranges.splice(i..j, std::iter::once((s, e)));
        (end - start) - covered
    }

    /// True if byte `seq` is covered.
    pub fn contains(&self, seq: u64) -> bool {
        let i = self.ranges.partition_point(|r| r.1 <= seq);
        self.ranges.get(i).is_some_and(|r| r.0 <= seq)
    }

    /// One past the highest byte covered (0 when empty).
    pub fn end(&self) -> u64 {
        self.ranges.last().map_or(0, |r| r.1)
    }

    pub fn ranges(&self) -> &[(u64, u64)] {
        &self.ranges
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_new_bytes_once() {
        let mut c = RangeSet::default();
        assert_eq!(c.insert(0, 100), 100);
        assert_eq!(c.insert(100, 200), 100);
        assert_eq!(c.insert(50, 150), 0);
        assert_eq!(c.insert(300, 400), 100);
        assert!(c.contains(399) && !c.contains(400) && !c.contains(250) && c.contains(0));
        assert_eq!(c.insert(150, 350), 100);
        assert_eq!(c.insert(0, 400), 0);
        assert_eq!(c.ranges(), &[(0, 400)]);
        assert_eq!(c.end(), 400);
    }
}
