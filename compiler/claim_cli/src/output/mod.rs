//! What a run prints: the human report (`human.rs`), the machine formats
//! (`formats.rs`: JSON, JUnit, GitHub, SARIF, Markdown) and the derivation
//! graph (`graph.rs`).

pub mod formats;
pub mod graph;
pub(crate) mod human;
