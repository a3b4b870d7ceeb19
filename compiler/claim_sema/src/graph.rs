//! Cycles in the module graph (imports) and the item graph (calls and fact
//! references), with petgraph. A cycle is reported with its members in
//! order, so the reader sees the whole loop.

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::BTreeMap;

/// A directed graph over names, for cycle finding.
pub struct NameGraph<N: Ord + Clone + std::hash::Hash> {
    graph: DiGraph<N, ()>,
    // Hashed, with Fx: a module's call graph is built with its summary.
    nodes: rustc_hash::FxHashMap<N, NodeIndex>,
}

impl<N: Ord + Clone + std::hash::Hash> Default for NameGraph<N> {
    fn default() -> Self {
        NameGraph { graph: DiGraph::new(), nodes: Default::default() }
    }
}

impl<N: Ord + Clone + std::hash::Hash> NameGraph<N> {
    pub fn node(&mut self, n: &N) -> NodeIndex {
        if let Some(i) = self.nodes.get(n) {
            return *i;
        }
        let i = self.graph.add_node(n.clone());
        self.nodes.insert(n.clone(), i);
        i
    }

    pub fn edge(&mut self, from: &N, to: &N) {
        let (a, b) = (self.node(from), self.node(to));
        self.graph.update_edge(a, b, ());
    }

    /// Every cycle (one per strongly connected component), each as a path
    /// `a → b → … → a` starting at its smallest member.
    pub fn cycles(&self) -> Vec<Vec<N>> {
        let mut out = Vec::new();
        for scc in tarjan_scc(&self.graph) {
            let self_loop = scc.len() == 1 && self.graph.contains_edge(scc[0], scc[0]);
            if scc.len() < 2 && !self_loop {
                continue;
            }
            let Some(start) = scc.iter().copied().min_by(|a, b| self.graph[*a].cmp(&self.graph[*b])) else {
                continue;
            };
            out.push(self.path_back(start, &scc));
        }
        out.sort();
        out
    }

    /// A shortest path from `start` back to itself inside the component.
    fn path_back(&self, start: NodeIndex, scc: &[NodeIndex]) -> Vec<N> {
        let mut prev: BTreeMap<NodeIndex, NodeIndex> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start]);
        let mut found = false;
        'bfs: while let Some(n) = queue.pop_front() {
            let mut next: Vec<NodeIndex> = self.graph.neighbors(n).filter(|m| scc.contains(m)).collect();
            next.sort_by(|a, b| self.graph[*a].cmp(&self.graph[*b]));
            for m in next {
                if m == start {
                    prev.insert(start, n);
                    found = true;
                    break 'bfs;
                }
                if let std::collections::btree_map::Entry::Vacant(e) = prev.entry(m) {
                    e.insert(n);
                    queue.push_back(m);
                }
            }
        }
        let mut path = vec![self.graph[start].clone()];
        if found {
            let mut cur = prev[&start];
            let mut back = Vec::new();
            while cur != start {
                back.push(self.graph[cur].clone());
                cur = prev[&cur];
            }
            back.reverse();
            path.extend(back);
        }
        path.push(self.graph[start].clone());
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_two_cycle_in_order() {
        let mut g = NameGraph::default();
        g.edge(&"b", &"a");
        g.edge(&"a", &"b");
        g.edge(&"a", &"c");
        assert_eq!(g.cycles(), vec![vec!["a", "b", "a"]]);
    }

    #[test]
    fn self_loop_is_a_cycle() {
        let mut g = NameGraph::default();
        g.edge(&"f", &"f");
        assert_eq!(g.cycles(), vec![vec!["f", "f"]]);
    }
}
