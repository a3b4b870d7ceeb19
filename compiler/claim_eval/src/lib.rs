//! Evaluation: values with their origins, the evaluator, refusals with
//! their call chains, witnesses and frontiers, and the JSON decoding of
//! facts (§5–§7). Pure: the outside world is reached through [`World`].

pub mod broken;
pub mod builtins;
pub mod decode;
pub mod difference;
pub mod eval;
pub mod evidence_lint;
pub mod fact_values;
mod frame;
pub mod incremental;
pub mod json;
pub mod json_digests;
pub mod memo;
pub mod mutants;
mod near_miss;
mod ops;
pub mod refusal;
pub mod report;
pub mod text;
pub mod value;
pub mod witness;
pub mod world;

pub use eval::{Cx, Evaluator, TraceLine};
pub use refusal::{Broken, Refusal, Stop};
pub use value::{Origin, Value, V};
pub use witness::{check_frontier, run_witness, run_witness_with, FrontierReport, MetBroken, WitnessReport};
pub use world::{NoWorld, Types, World, WorldCall, WorldCode, WorldError, WorldResult};
