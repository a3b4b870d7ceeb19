//! Every name in a module and what it denotes: the checker's own
//! resolution (`claim_sema::check::occurrences`), which notes each name as
//! it resolves it. The editor keeps no scope model of its own.

use claim_sema::{Db, Program, SourceFile};

pub use claim_sema::resolved::{Def, Occurrence};

/// Every occurrence of a name in `file`, in source order.
pub fn occurrences(db: &dyn Db, program: Program, file: SourceFile) -> Vec<Occurrence> {
    claim_sema::check::occurrences(db, program, file).to_vec()
}
