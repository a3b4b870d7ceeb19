//! The standard library: every module compiles cleanly, every item has a
//! doc comment, `docs/stdlib.md` is the current output of `claimc doc
//! --stdlib`, and the documented key fold is the one the compiler computes.

use std::path::Path;
use std::process::Command;

#[test]
fn every_stdlib_item_is_documented() {
    let mut undocumented = Vec::new();
    for (module, src) in claim_cli::stdlib::MODULES {
        let parsed = claim_syntax::parse_module(src);
        assert!(parsed.errors.is_empty(), "{module}: {:?}", parsed.errors);
        for item in parsed.module.items.iter().filter(|i| claim_cli::commands::doc::documented(i)) {
            if item.docs.is_empty() {
                undocumented.push(format!("{module}.{}", item.kind.name().map(|n| n.name.as_str()).unwrap_or("?")));
            }
        }
    }
    assert!(undocumented.is_empty(), "undocumented: {undocumented:?}");
}

#[test]
fn docs_stdlib_md_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/stdlib.md");
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    let generated = claim_cli::commands::doc::stdlib_markdown();
    assert!(
        on_disk == generated,
        "docs/stdlib.md is stale: run `cargo run --release --bin claimc -- doc --stdlib > docs/stdlib.md`"
    );
}

#[test]
fn every_stdlib_module_compiles_without_warnings() {
    let dir = std::env::temp_dir().join(format!("claim-std-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let uses: String = claim_cli::stdlib::MODULES.iter().map(|(m, _)| format!("use {m}\n")).collect();
    std::fs::write(dir.join("main.claim"), format!("{uses}witness compiles {{ holds len([1]) == 1 }}\n"))
        .expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_claimc"))
        .args(["check", "main.claim"])
        .current_dir(&dir)
        .output()
        .expect("claimc");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && err.contains("0 errors, 0 warnings"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The key fold as `std.provenance` documents it, computed here without the
/// compiler (netstrings and SHA-256 only), must equal what
/// `std.provenance.keyed` evaluates to.
#[test]
fn the_documented_key_fold_is_the_real_one() {
    use sha2::{Digest, Sha256};
    let netstring = |s: &str| format!("{}:{s},", s.len());
    let tree = "94c236b9dfbf5f70075eb47877fd9caaa5d8c249";
    let wheel = "37bf51bfba4699a940ce31349422b24a5bc55a2b179ed7aec74459a9ae8d57b7";
    let patch = "44778d82365e4af681c40d5f0eef5cf6f5899d3f0ac335050a7ed6779cf3f674";
    let preimage = [
        "claim.provenance.key.v1".to_string(),
        "vllm-runtime/v41".to_string(),
        format!("tree:{tree}"),
        format!("input:flashinfer@sha256:{wheel}"),
        format!("input:engram.patch@sha256:{patch}"),
    ]
    .iter()
    .map(|p| netstring(p))
    .collect::<String>();
    let key: String = Sha256::digest(preimage.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();

    let dir = std::env::temp_dir().join(format!("claim-fold-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    std::fs::write(
        dir.join("main.claim"),
        format!(
            "use std.provenance.{{Candidate, PinnedInput, keyed, tag_for}}\n\
             fact c: Candidate = Candidate {{ recipe: \"vllm-runtime/v41\", tree: sha1:{tree}, revision: sha1:5ec6a9953ad5d39120298bbfc26e95a6fa4b1dc3, tag_prefix: \"runtime\",\n\
               inputs: [PinnedInput {{ name: \"flashinfer\", sha256: sha256:{wheel} }}, PinnedInput {{ name: \"engram.patch\", sha256: sha256:{patch} }}] }}\n\
             witness the_key_is_the_documented_fold {{ holds raw(keyed(c)) == sha256:{key} }}\n\
             witness the_tag_is_its_first_16_digits {{ holds raw(tag_for(c, keyed(c))) == \"runtime:{}\" }}\n",
            &key[..16]
        ),
    )
    .expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_claim_batch"))
        .args(["--entry", "main.claim"])
        .current_dir(&dir)
        .output()
        .expect("batch");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("2/2 PASS"), "{text}{}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}
