//! Semantic analysis on a salsa database: modules and imports, name
//! resolution, type checking into HIR, and the program-wide checks.
//! Pure: files reach it as inputs set by the caller.

pub mod builtins;
pub mod check;
pub mod db;
pub mod forget;
pub mod graph;
pub mod hir;
pub mod index;
mod lints;
pub mod names;
pub mod program;
pub mod resolved;
pub mod scope;
pub mod sigs;
pub mod stdlib;
pub mod summary;
pub mod ty;

pub use db::{parse, Database, Db, Program, SourceFile};
pub use program::compile;
pub use program::Compiled;
