//! Static routes: shortest in hops, ties broken by link order.
//!
//! The rule (unchanged since the first release, which ran one BFS from
//! every node): the next hop from node `u` towards `dst` is the first of
//! `u`'s links, in the scenario's link order, whose far end is one hop
//! closer to `dst`. (A BFS from `u` that scans links in order assigns
//! exactly that first hop: its levels are grouped by first hop, in link
//! order, so the earliest first hop that reaches `dst` in the fewest hops
//! wins.) A flow's path follows that rule from node to node.
//!
//! Computed only for what the run needs: one breadth-first search from each
//! flow end, over adjacency lists, instead of a table of every node pair
//! (which was cubic in time and quadratic in memory: 20,000 nodes hung).
//! Nodes with one neighbour (hosts on an access link) can never be inside a
//! shortest path, so the search does not expand them: in a dumbbell of
//! 5,000 host pairs each search visits the two routers only.

/// One step of a path: leave `node` on `link` in direction `dir`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hop {
    pub node: u16,
    pub link: u32,
    pub dir: u8,
}

/// A path: the hops from the sending node; the last hop's far end is the
/// destination.
pub type Path = Vec<Hop>;

/// The graph, as adjacency lists, and scratch space for searches.
pub struct Router {
    /// Per node: (link, direction, far end), in link order.
    adj: Vec<Vec<(u32, u8, u16)>>,
    /// Per node: its adjacency without far ends that are leaves.
    core: Vec<Vec<u16>>,
    /// Per node: its single neighbour, if it has exactly one.
    leaf_of: Vec<Option<u16>>,
    /// Distance to the current search's destination, valid where `stamp`
    /// equals `epoch` (so a search does not clear the whole array).
    dist: Vec<u32>,
    stamp: Vec<u32>,
    epoch: u32,
    /// Destination of the current search.
    dst: Option<u16>,
    frontier: Vec<u16>,
}

impl Router {
    /// `ends[l]` = (a, b) of link `l`; direction 0 is a→b.
    pub fn new(n_nodes: usize, ends: impl Iterator<Item = [u16; 2]>) -> Router {
        let mut adj: Vec<Vec<(u32, u8, u16)>> = vec![Vec::new(); n_nodes];
        for (li, e) in ends.enumerate() {
            for dir in 0..2 {
                adj[e[dir] as usize].push((li as u32, dir as u8, e[1 - dir]));
            }
        }
        let leaf_of: Vec<Option<u16>> = adj
            .iter()
            .map(|a| match a.first() {
                Some(&(_, _, v)) if a.iter().all(|&(_, _, w)| w == v) => Some(v),
                _ => None,
            })
            .collect();
        let core = adj
            .iter()
            .map(|a| {
                let mut c: Vec<u16> = a.iter().map(|e| e.2).filter(|&v| leaf_of[v as usize].is_none()).collect();
                c.dedup();
                c
            })
            .collect();
        Router {
            adj,
            core,
            leaf_of,
            dist: vec![0; n_nodes],
            stamp: vec![0; n_nodes],
            epoch: 0,
            dst: None,
            frontier: Vec::new(),
        }
    }

    /// Breadth-first search from `dst` over the non-leaf nodes (and `dst`'s
    /// own neighbours), unless it is the current one.
    fn search(&mut self, dst: u16) {
        if self.dst == Some(dst) {
            return;
        }
        self.dst = Some(dst);
        self.epoch += 1;
        let epoch = self.epoch;
        let (dist, stamp) = (&mut self.dist, &mut self.stamp);
        dist[dst as usize] = 0;
        stamp[dst as usize] = epoch;
        self.frontier.clear();
        // dst's neighbours first, leaves included (a leaf next to dst is one hop away).
        for &(_, _, v) in &self.adj[dst as usize] {
            if stamp[v as usize] != epoch {
                stamp[v as usize] = epoch;
                dist[v as usize] = 1;
                if self.leaf_of[v as usize].is_none() {
                    self.frontier.push(v);
                }
            }
        }
        let mut next = Vec::new();
        let mut d = 1;
        while !self.frontier.is_empty() {
            d += 1;
            for &u in &self.frontier {
                for &v in &self.core[u as usize] {
                    if stamp[v as usize] != epoch {
                        stamp[v as usize] = epoch;
                        dist[v as usize] = d;
                        next.push(v);
                    }
                }
            }
            std::mem::swap(&mut self.frontier, &mut next);
            next.clear();
        }
    }

    /// Hops from `v` to the current search's destination, if reachable.
    fn dist_of(&self, v: u16) -> Option<u32> {
        let known = |x: u16| (self.stamp[x as usize] == self.epoch).then(|| self.dist[x as usize]);
        known(v).or_else(|| self.leaf_of[v as usize].and_then(known).map(|d| d + 1))
    }

    /// The path from `from` to `to`, or `None` if `to` cannot be reached.
    pub fn path(&mut self, from: u16, to: u16) -> Option<Path> {
        self.search(to);
        let mut d = self.dist_of(from)?;
        let mut path = Vec::with_capacity(d as usize);
        let mut u = from;
        while u != to {
            let &(link, dir, v) = self.adj[u as usize]
                .iter()
                .find(|&&(_, _, v)| self.dist_of(v) == Some(d - 1))
                .expect("a node at distance d has a neighbour at d - 1");
            path.push(Hop { node: u, link, dir });
            u = v;
            d -= 1;
        }
        Some(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first release's rule, one BFS per source over the link list.
    fn reference(n: usize, ends: &[[u16; 2]]) -> Vec<Vec<Option<(u32, u8)>>> {
        let mut next = vec![vec![None; n]; n];
        for (src, row) in next.iter_mut().enumerate() {
            let mut first: Vec<Option<(u32, u8)>> = vec![None; n];
            let mut seen = vec![false; n];
            seen[src] = true;
            let mut frontier = std::collections::VecDeque::from([src]);
            while let Some(u) = frontier.pop_front() {
                for (li, e) in ends.iter().enumerate() {
                    for dir in 0..2 {
                        if e[dir] as usize != u {
                            continue;
                        }
                        let v = e[1 - dir] as usize;
                        if !seen[v] {
                            seen[v] = true;
                            first[v] = if u == src { Some((li as u32, dir as u8)) } else { first[u] };
                            frontier.push_back(v);
                        }
                    }
                }
            }
            *row = first;
        }
        next
    }

    fn reference_path(next: &[Vec<Option<(u32, u8)>>], ends: &[[u16; 2]], from: u16, to: u16) -> Option<Path> {
        let mut path = Vec::new();
        let mut u = from;
        while u != to {
            let (link, dir) = next[u as usize][to as usize]?;
            path.push(Hop { node: u, link, dir });
            u = ends[link as usize][1 - dir as usize];
        }
        Some(path)
    }

    /// A small deterministic generator (xorshift), to draw many graphs.
    fn graphs() -> impl Iterator<Item = (usize, Vec<[u16; 2]>)> {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        (0..300).map(move |_| {
            let n = 2 + (next() % 14) as usize;
            let m = (next() % (2 * n as u64 + 1)) as usize;
            let mut ends = Vec::new();
            while ends.len() < m {
                let (a, b) = ((next() % n as u64) as u16, (next() % n as u64) as u16);
                if a != b {
                    ends.push([a, b]); // parallel links allowed, as in scenarios
                }
            }
            (n, ends)
        })
    }

    #[test]
    fn paths_equal_the_all_pairs_rule_on_random_graphs_with_ties_and_leaves() {
        let mut checked = 0;
        for (n, ends) in graphs() {
            let table = reference(n, &ends);
            let mut r = Router::new(n, ends.iter().copied());
            for to in 0..n as u16 {
                for from in 0..n as u16 {
                    if from == to {
                        continue;
                    }
                    assert_eq!(
                        r.path(from, to),
                        reference_path(&table, &ends, from, to),
                        "n={n} links={ends:?} {from}->{to}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn a_dumbbell_routes_each_pair_over_the_bottleneck() {
        // 0 = left, 1 = right, then (source, receiver) pairs.
        let pairs = 50u16;
        let mut ends = vec![[0, 1]];
        for i in 0..pairs {
            ends.push([2 + 2 * i, 0]);
            ends.push([3 + 2 * i, 1]);
        }
        let mut r = Router::new(2 + 2 * pairs as usize, ends.iter().copied());
        for i in 0..pairs {
            let p = r.path(2 + 2 * i, 3 + 2 * i).unwrap();
            let links: Vec<u32> = p.iter().map(|h| h.link).collect();
            assert_eq!(links, [1 + 2 * u32::from(i), 0, 2 + 2 * u32::from(i)]);
            assert_eq!(p[1], Hop { node: 0, link: 0, dir: 0 });
        }
        assert_eq!(r.path(2, 3).map(|p| p.len()), Some(3));
    }

    #[test]
    fn unreachable_nodes_have_no_path() {
        let mut r = Router::new(4, [[0, 1], [2, 3]].into_iter());
        assert_eq!(r.path(0, 3), None);
        assert_eq!(r.path(3, 0), None);
        assert_eq!(r.path(1, 0).unwrap().len(), 1);
    }
}
