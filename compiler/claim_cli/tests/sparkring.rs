//! Real receipts from a public serving-runtime repository, kept in the
//! workplace's shared data (never copied into this repository). The test
//! lays them out in a temporary project root with the program of
//! `tests/fixtures/sparkring/main.claim`, runs claim_batch, and then flips
//! one byte of a listed input to see the recomputation fail.

use std::path::{Path, PathBuf};

mod common;
use common::batch_in as batch;

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir").filter_map(Result::ok) {
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if src.is_dir() {
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).expect("copy");
            let mut p = std::fs::metadata(&dst).expect("meta").permissions();
            #[allow(clippy::permissions_set_readonly_false)]
            p.set_readonly(false);
            std::fs::set_permissions(&dst, p).expect("chmod");
        }
    }
}

#[test]
fn the_sparkring_release_inputs_recompute() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let data = repo.join("../shared/data/sparkring");
    if !data.is_dir() {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CI needs ../shared/data/sparkring");
        eprintln!("skipped: ../shared/data/sparkring is not beside the project");
        return;
    }
    let root: PathBuf = std::env::temp_dir().join(format!("claim-sparkring-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    copy_tree(&data, &root);
    std::fs::write(root.join("Claim.toml"), "").expect("toml");
    std::fs::copy(repo.join("tests/fixtures/sparkring/main.claim"), root.join("main.claim")).expect("program");

    let (code, out) = batch(&root);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("4/4 PASS"), "{out}");

    let installer = root
        .join("runtime/releases/dev-20261010-kraken-csf-sircl032-libsircl060cd-plugins-status036/installer-image.json");
    let mut bytes = std::fs::read(&installer).expect("installer");
    bytes[10] ^= 0x20;
    std::fs::write(&installer, bytes).expect("flip");
    let (code, out) = batch(&root);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAIL every_listed_input_recomputes"), "{out}");
    assert!(
        out.contains("d58cbfefedd47bd861d634c9337aa388b284c8759664d5e10580015a28ac8f79"),
        "the listed digest is shown: {out}"
    );
    let _ = std::fs::remove_dir_all(&root);
}
