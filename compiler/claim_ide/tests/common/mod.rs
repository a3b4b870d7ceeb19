//! A program of a few modules in a fresh database, for the editor's tests.
#![allow(dead_code)]

use claim_sema::{Database, Program, SourceFile};
use claim_syntax::FileId;
use std::collections::BTreeMap;

/// The modules `(name, text)`, in that order (file ids 0, 1, …), the last
/// one the entry.
pub fn program(modules: &[(&str, &str)]) -> (Database, Program, Vec<SourceFile>) {
    let db = Database::default();
    let files: Vec<SourceFile> = modules
        .iter()
        .enumerate()
        .map(|(i, (name, text))| SourceFile::new(&db, name.to_string(), (*text).into(), FileId(i as u32)))
        .collect();
    let map: BTreeMap<String, SourceFile> =
        modules.iter().map(|(n, _)| n.to_string()).zip(files.iter().copied()).collect();
    let entry = modules.last().map(|(n, _)| vec![n.to_string()]).unwrap_or_default();
    let program = Program::new(&db, map, entry, BTreeMap::new());
    (db, program, files)
}
