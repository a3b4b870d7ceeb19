//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

/// Runs `claim_batch --entry main.claim` in `dir`: exit code, stdout+stderr.
pub fn batch_in(dir: &Path) -> (i32, String) {
    batch_in_with(dir, &[])
}

/// `batch_in` with more arguments.
pub fn batch_in_with(dir: &Path, args: &[&str]) -> (i32, String) {
    batch_args(dir, &[&["--entry", "main.claim"], args].concat())
}

/// `claim_batch` with exactly these arguments, in `dir`.
pub fn batch_args(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_claim_batch"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("claim_batch");
    (
        out.status.code().unwrap_or(-1),
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)),
    )
}

/// A fresh folder under the system's temporary one, named by `tag`, `name`
/// and this process, holding `files` (paths relative to it, folders made).
pub fn project_dir(tag: &str, name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("claim-{tag}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    dir
}

/// Whether Python's `jsonschema` is there; outside CI a test may skip
/// without it, in CI (`.ci/run` installs it) it must be there.
pub fn has_jsonschema() -> bool {
    let has = Command::new("python3").args(["-c", "import jsonschema"]).output().is_ok_and(|o| o.status.success());
    if !has {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CI must install jsonschema (.ci/run does)");
        eprintln!("skipped: python3 -m pip install jsonschema");
    }
    has
}

/// Validates a JSON document against a schema with `jsonschema`'s
/// `validator` class (e.g. `Draft4Validator`); `Err` has its complaint.
pub fn validate(schema: &Path, document: &str, validator: &str) -> Result<(), String> {
    let doc = std::env::temp_dir().join(format!("claim-doc-{}-{}.json", std::process::id(), document.len()));
    std::fs::write(&doc, document).expect("write");
    let code = format!("import json, sys, jsonschema; jsonschema.{validator}(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))");
    let check = Command::new("python3").args(["-c", &code]).arg(schema).arg(&doc).output().expect("python3");
    let _ = std::fs::remove_file(&doc);
    if check.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&check.stderr).into_owned())
    }
}

/// OCI image layouts written blob by blob, with hooks to spoil each part.
pub mod oci {
    use sha2::{Digest, Sha256};
    use std::path::Path;

    pub fn sha(bytes: &[u8]) -> String {
        format!("sha256:{}", Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect::<String>())
    }

    /// What to change in a layout as it is written; the defaults change
    /// nothing.
    pub struct Edits<'a> {
        /// The text of `oci-layout`.
        pub marker: &'a str,
        /// The config blob, instead of the one made from the diff ids.
        pub config: Option<&'a [u8]>,
        /// The config's media type in the manifest.
        pub config_media_type: &'a str,
        /// The manifest (as JSON, before it is written), and its text.
        pub manifest: &'a dyn Fn(&mut serde_json::Value),
        pub manifest_text: &'a dyn Fn(String) -> String,
        /// `index.json`, as JSON, and its text.
        pub index: &'a dyn Fn(&mut serde_json::Value),
        pub index_text: &'a dyn Fn(String) -> String,
    }

    impl Default for Edits<'_> {
        fn default() -> Self {
            Edits {
                marker: r#"{"imageLayoutVersion": "1.0.0"}"#,
                config: None,
                config_media_type: "application/vnd.oci.image.config.v1+json",
                manifest: &|_| {},
                manifest_text: &|t| t,
                index: &|_| {},
                index_text: &|t| t,
            }
        }
    }

    /// Writes an OCI layout of one image tagged `v1` (`linux/arm64/v8`),
    /// with `layers` (blob, media type) and `diff_ids` in its config, and
    /// returns the config's digest.
    pub fn write_layout(dir: &Path, layers: &[(&[u8], &str)], diff_ids: &[String], edits: &Edits<'_>) -> String {
        let blobs = dir.join("blobs/sha256");
        std::fs::create_dir_all(&blobs).expect("mkdir");
        let put = |bytes: &[u8]| {
            let d = sha(bytes);
            std::fs::write(blobs.join(&d[7..]), bytes).expect("blob");
            d
        };
        let made = serde_json::json!({
            "architecture": "arm64", "os": "linux", "variant": "v8",
            "config": {}, "rootfs": {"type": "layers", "diff_ids": diff_ids},
        })
        .to_string();
        let config = edits.config.unwrap_or(made.as_bytes());
        let config_digest = put(config);
        let layer_descs: Vec<_> = layers
            .iter()
            .map(|(blob, media_type)| serde_json::json!({"mediaType": media_type, "digest": put(blob), "size": blob.len()}))
            .collect();
        let mut manifest = serde_json::json!({
            "schemaVersion": 2,
            "mediaType": "application/vnd.oci.image.manifest.v1+json",
            "config": {"mediaType": edits.config_media_type, "digest": config_digest, "size": config.len()},
            "layers": layer_descs,
        });
        (edits.manifest)(&mut manifest);
        let manifest = (edits.manifest_text)(manifest.to_string());
        let manifest_digest = put(manifest.as_bytes());
        let mut index = serde_json::json!({
            "schemaVersion": 2,
            "manifests": [{
                "mediaType": "application/vnd.oci.image.manifest.v1+json",
                "digest": manifest_digest, "size": manifest.len(),
                "annotations": {"org.opencontainers.image.ref.name": "v1"},
            }],
        });
        (edits.index)(&mut index);
        std::fs::write(dir.join("index.json"), (edits.index_text)(index.to_string())).expect("index");
        std::fs::write(dir.join("oci-layout"), edits.marker).expect("marker");
        config_digest
    }
}
