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
//! Computed only for what the run needs, at a cost per flow of about its
//! path's length, not of the degree of the routers it crosses (issue 31: a
//! dumbbell router with 32,000 hosts made each flow scan 32,000 links):
//!
//! - Nodes with one neighbour (leaves: hosts on an access link) are never
//!   inside a shortest path, so distances are searched over the other
//!   nodes (the core) only. A leaf's distance is its neighbour's plus one;
//!   the distance to a leaf destination is the distance to its neighbour
//!   (its anchor) plus one. A breadth-first search from each anchor, over
//!   the core's own adjacency, is kept and shared by every flow towards a
//!   node of that anchor (a cache bounded in memory, `CACHE_WORDS`).
//! - Walking the rule, a step towards a node at distance 2 or more can only
//!   lead to a core node (a leaf other than the destination is farther
//!   away than its neighbour), so it scans the core adjacency; the last
//!   step scans whichever of the two ends' adjacency is shorter for the
//!   first link joining them (both are in link order, so both find the
//!   same link). The same hop as the rule's, found without a router's
//!   leaves.

use crate::rows::Rows;
use lasthop_core::NodeId;
use std::collections::HashMap;

/// One step of a path: leave `node` on `link` in direction `dir`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hop {
    pub node: NodeId,
    pub link: u32,
    pub dir: u8,
}

/// A path: the hops from the sending node; the last hop's far end is the
/// destination.
pub type Path = Vec<Hop>;

/// No core index, no distance.
const NONE: u32 = u32::MAX;

/// No node.
const NO_NODE: NodeId = NodeId::MAX;

/// The searches kept at once hold at most this many distances (4 bytes
/// each: 32 MB), then the cache starts again: every anchor's search fits
/// for a core of a few thousand routers.
const CACHE_WORDS: usize = 8 << 20;

/// An adjacency entry: leave on `link` in direction `dir` to `far`.
#[derive(Clone, Copy, Debug, Default)]
struct Edge {
    link: u32,
    far: NodeId,
    dir: u8,
}

/// Adjacency lists in one array: node `u`'s entries are `adj.of(u as usize)`, in
/// link order.
type Adjacency = Rows<Edge>;

/// The graph, and the searches made so far.
pub struct Router {
    /// Per node: every link, in link order.
    adj: Adjacency,
    /// Per node: its links whose far end is a core node, in link order.
    core_adj: Adjacency,
    /// Per node: its single neighbour if it is a leaf, else [`NO_NODE`].
    leaf_of: Vec<NodeId>,
    /// Per node: its index among the core nodes, or [`NONE`] for a leaf.
    core_index: Vec<u32>,
    n_core: usize,
    /// Per anchor searched: each core node's distance to it (by core index).
    searches: HashMap<NodeId, Box<[u32]>>,
    /// Adjacency entries a path's walk read (for the cost tests).
    #[cfg(test)]
    scanned: usize,
}

impl Router {
    /// `ends[l]` = (a, b) of link `l`; direction 0 is a→b.
    pub fn new(n_nodes: usize, ends: impl Iterator<Item = [NodeId; 2]>) -> Router {
        Router::without(n_nodes, ends, &[])
    }

    /// A router over the graph without the links `masked` marks (`masked[l]`
    /// for link `l`; links past its end are kept): a mobile host's links to
    /// the stations it is not attached to (`mobility`). Link ids keep their
    /// meaning.
    pub fn without(n_nodes: usize, ends: impl Iterator<Item = [NodeId; 2]>, masked: &[bool]) -> Router {
        let ends: Vec<[NodeId; 2]> = ends.collect();
        let kept = |li: usize| !masked.get(li).copied().unwrap_or(false);
        let rows = |keep: &dyn Fn(NodeId) -> bool| {
            let pairs = ends.iter().enumerate().filter(|&(li, _)| kept(li)).flat_map(|(li, e)| {
                (0..2usize)
                    .filter(move |&dir| keep(e[1 - dir]))
                    .map(move |dir| (e[dir] as usize, Edge { link: li as u32, far: e[1 - dir], dir: dir as u8 }))
            });
            Rows::of_pairs(n_nodes, pairs)
        };
        let adj = rows(&|_| true);
        let leaf_of: Vec<NodeId> = (0..n_nodes as NodeId)
            .map(|u| match adj.of(u as usize) {
                [first, rest @ ..] if rest.iter().all(|e| e.far == first.far) => first.far,
                _ => NO_NODE,
            })
            .collect();
        let mut n_core = 0;
        let core_index = leaf_of
            .iter()
            .map(|&l| {
                if l == NO_NODE {
                    n_core += 1;
                    n_core - 1
                } else {
                    NONE
                }
            })
            .collect();
        let core_adj = rows(&|v| leaf_of[v as usize] == NO_NODE);
        Router {
            adj,
            core_adj,
            leaf_of,
            core_index,
            n_core: n_core as usize,
            searches: HashMap::new(),
            #[cfg(test)]
            scanned: 0,
        }
    }

    fn is_leaf(&self, v: NodeId) -> bool {
        self.leaf_of[v as usize] != NO_NODE
    }

    /// Each core node's distance to core node `anchor`, by core index: a
    /// breadth-first search over the core, kept for the next flows.
    fn search(&mut self, anchor: NodeId) {
        if self.searches.contains_key(&anchor) {
            return;
        }
        let n_core = self.n_core;
        if (self.searches.len() + 1) * n_core > CACHE_WORDS {
            self.searches.clear();
        }
        let mut dist = vec![NONE; n_core].into_boxed_slice();
        dist[self.core_index[anchor as usize] as usize] = 0;
        let (mut frontier, mut next) = (vec![anchor], Vec::new());
        let mut d = 0;
        while !frontier.is_empty() {
            d += 1;
            for &u in &frontier {
                for e in self.core_adj.of(u as usize) {
                    let c = self.core_index[e.far as usize] as usize;
                    if dist[c] == NONE {
                        dist[c] = d;
                        next.push(e.far);
                    }
                }
            }
            std::mem::swap(&mut frontier, &mut next);
            next.clear();
        }
        self.searches.insert(anchor, dist);
    }

    /// Hops from `v` to `to`, given `to`'s anchor's search (`dist`).
    fn dist_of(&self, dist: &[u32], to: NodeId, v: NodeId) -> Option<u32> {
        if v == to {
            return Some(0);
        }
        // From a core node to the anchor, plus one from the anchor to a leaf `to`.
        let past_anchor = u32::from(self.is_leaf(to));
        let core = |x: NodeId| match dist[self.core_index[x as usize] as usize] {
            NONE => None,
            d => Some(d + past_anchor),
        };
        match self.leaf_of[v as usize] {
            NO_NODE => core(v),
            w if self.is_leaf(w) => None, // a component of two leaves without `to`
            w => core(w).map(|d| d + 1),
        }
    }

    /// The path from `from` to `to`, or `None` if `to` cannot be reached.
    pub fn path(&mut self, from: NodeId, to: NodeId) -> Option<Path> {
        if from == to {
            return Some(Vec::new());
        }
        let anchor = if self.is_leaf(to) { self.leaf_of[to as usize] } else { to };
        if self.is_leaf(anchor) {
            // Two leaves joined to each other only.
            return (from == anchor).then(|| vec![self.last_hop(from, to)]);
        }
        self.search(anchor);
        let dist = self.searches.remove(&anchor).expect("just searched");
        let path = self.walk(&dist, from, to);
        self.searches.insert(anchor, dist);
        path
    }

    /// The rule's path from `from` to `to`, given `to`'s anchor's search.
    fn walk(&mut self, dist: &[u32], from: NodeId, to: NodeId) -> Option<Path> {
        let mut d = self.dist_of(dist, to, from)?;
        let mut path = Vec::with_capacity(d as usize);
        let mut u = from;
        while d > 1 {
            let core = self.core_adj.of(u as usize);
            let (i, e) = core
                .iter()
                .enumerate()
                .find(|(_, e)| self.dist_of(dist, to, e.far) == Some(d - 1))
                .expect("a node at distance d has a core neighbour at d - 1");
            #[cfg(test)]
            {
                self.scanned += i + 1;
            }
            let _ = i;
            path.push(Hop { node: u, link: e.link, dir: e.dir });
            u = e.far;
            d -= 1;
        }
        path.push(self.last_hop(u, to));
        Some(path)
    }

    /// The first link, in link order, from `u` to its neighbour `to`: found
    /// in the shorter of the two nodes' adjacency lists.
    fn last_hop(&mut self, u: NodeId, to: NodeId) -> Hop {
        let (a, b) = (self.adj.of(u as usize), self.adj.of(to as usize));
        let (i, hop) = if a.len() <= b.len() {
            let (i, e) = a.iter().enumerate().find(|(_, e)| e.far == to).expect("neighbours");
            (i, Hop { node: u, link: e.link, dir: e.dir })
        } else {
            let (i, e) = b.iter().enumerate().find(|(_, e)| e.far == u).expect("neighbours");
            (i, Hop { node: u, link: e.link, dir: 1 - e.dir })
        };
        #[cfg(test)]
        {
            self.scanned += i + 1;
        }
        let _ = i;
        hop
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first release's rule, one BFS per source over the link list.
    fn reference(n: usize, ends: &[[NodeId; 2]]) -> Vec<Vec<Option<(u32, u8)>>> {
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

    fn reference_path(next: &[Vec<Option<(u32, u8)>>], ends: &[[NodeId; 2]], from: NodeId, to: NodeId) -> Option<Path> {
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
    fn graphs() -> impl Iterator<Item = (usize, Vec<[NodeId; 2]>)> {
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
                let (a, b) = ((next() % n as u64) as NodeId, (next() % n as u64) as NodeId);
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
            for to in 0..n as NodeId {
                for from in 0..n as NodeId {
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
        let pairs = 50u32;
        let mut ends = vec![[0, 1]];
        for i in 0..pairs {
            ends.push([2 + 2 * i, 0]);
            ends.push([3 + 2 * i, 1]);
        }
        let mut r = Router::new(2 + 2 * pairs as usize, ends.iter().copied());
        for i in 0..pairs {
            let p = r.path(2 + 2 * i, 3 + 2 * i).unwrap();
            let links: Vec<u32> = p.iter().map(|h| h.link).collect();
            assert_eq!(links, [1 + 2 * i, 0, 2 + 2 * i]);
            assert_eq!(p[1], Hop { node: 0, link: 0, dir: 0 });
        }
        assert_eq!(r.path(2, 3).map(|p| p.len()), Some(3));
    }

    /// Issue 31: a flow's walk reads a few adjacency entries per hop, not a
    /// router's thousands of access links, whichever end of the router's
    /// link list its host's link is at, and one search serves every flow to
    /// a router's hosts.
    #[test]
    fn a_path_through_a_router_of_20000_hosts_reads_a_few_entries_per_hop() {
        let pairs = 10_000u32;
        // 0 = left, 1 = right; the bottleneck listed after every access link.
        let mut ends = Vec::new();
        for i in 0..pairs {
            ends.push([2 + 2 * i, 0]);
            ends.push([3 + 2 * i, 1]);
        }
        ends.push([0, 1]);
        let mut r = Router::new(2 + 2 * pairs as usize, ends.iter().copied());
        for i in (0..pairs).rev() {
            let before = r.scanned;
            let p = r.path(2 + 2 * i, 3 + 2 * i).unwrap();
            assert_eq!(p.iter().map(|h| h.link).collect::<Vec<_>>(), [2 * i, 2 * pairs, 2 * i + 1]);
            let back = r.path(3 + 2 * i, 2 + 2 * i).unwrap();
            assert_eq!(back.iter().map(|h| h.dir).collect::<Vec<_>>(), [0, 1, 1]);
            assert!(r.scanned - before <= 6, "{} entries for flow {i}", r.scanned - before);
        }
        assert_eq!(r.searches.len(), 2, "one search per router the hosts hang off");
    }

    #[test]
    fn unreachable_nodes_have_no_path() {
        let mut r = Router::new(4, [[0, 1], [2, 3]].into_iter());
        assert_eq!(r.path(0, 3), None);
        assert_eq!(r.path(3, 0), None);
        assert_eq!(r.path(1, 0).unwrap().len(), 1);
    }
}
