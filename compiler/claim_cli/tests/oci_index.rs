//! `oci_index` and `oci_image_for` (§6) on layouts made blob by blob: a
//! multi-platform image whose platforms sit in a nested index beside a
//! BuildKit attestation manifest, and the ways such a layout can lie.

mod common;

use common::oci::sha;
use serde_json::{json, Value};
use std::path::Path;

const TAR: &str = "application/vnd.oci.image.layer.v1.tar";
const MANIFEST: &str = "application/vnd.oci.image.manifest.v1+json";
const INDEX: &str = "application/vnd.oci.image.index.v1+json";

/// Writes a blob and gives its descriptor.
fn put(dir: &Path, media_type: &str, bytes: &[u8]) -> Value {
    let d = sha(bytes);
    std::fs::create_dir_all(dir.join("blobs/sha256")).expect("mkdir");
    std::fs::write(dir.join("blobs/sha256").join(&d[7..]), bytes).expect("blob");
    json!({"mediaType": media_type, "digest": d, "size": bytes.len()})
}

/// An image of one uncompressed layer for `platform` (`os/arch[/variant]`),
/// its manifest's descriptor (with `platform` as an index names it, or
/// `claimed` in its place).
fn image(dir: &Path, platform: &str, claimed: Option<&str>) -> Value {
    let layer = format!("the {platform} layer").into_bytes();
    let parts: Vec<&str> = platform.split('/').collect();
    let mut config =
        json!({"os": parts[0], "architecture": parts[1], "rootfs": {"type": "layers", "diff_ids": [sha(&layer)]}});
    if let Some(v) = parts.get(2) {
        config["variant"] = json!(v);
    }
    let config = put(dir, "application/vnd.oci.image.config.v1+json", config.to_string().as_bytes());
    let manifest =
        json!({"schemaVersion": 2, "mediaType": MANIFEST, "config": config, "layers": [put(dir, TAR, &layer)]});
    let mut desc = put(dir, MANIFEST, manifest.to_string().as_bytes());
    let named: Vec<&str> = claimed.unwrap_or(platform).split('/').collect();
    desc["platform"] = json!({"os": named[0], "architecture": named[1]});
    if let Some(v) = named.get(2) {
        desc["platform"]["variant"] = json!(v);
    }
    desc
}

/// A layout tagged `v1`: an index holding a nested index of the two
/// platforms' images and an attestation manifest of the first; `single`
/// tagged as one image. Returns the top index's digest and the two
/// manifests' digests.
fn layout(dir: &Path, claimed_arm: Option<&str>) -> (String, String, String) {
    let amd = image(dir, "linux/amd64", None);
    let arm = image(dir, "linux/arm64/v8", claimed_arm);
    let nested = json!({"schemaVersion": 2, "mediaType": INDEX, "manifests": [amd, arm]});
    let nested = put(dir, INDEX, nested.to_string().as_bytes());
    let statement = br#"{"_type": "https://in-toto.io/Statement/v1"}"#;
    let att_config = put(dir, "application/vnd.oci.image.config.v1+json", b"{}");
    let att = json!({"schemaVersion": 2, "mediaType": MANIFEST, "config": att_config,
        "layers": [put(dir, "application/vnd.in-toto+json", statement)]});
    let mut att = put(dir, MANIFEST, att.to_string().as_bytes());
    att["annotations"] = json!({"vnd.docker.reference.type": "attestation-manifest",
        "vnd.docker.reference.digest": amd["digest"]});
    att["platform"] = json!({"os": "unknown", "architecture": "unknown"});
    let top = json!({"schemaVersion": 2, "mediaType": INDEX, "manifests": [nested, att]});
    let mut top = put(dir, INDEX, top.to_string().as_bytes());
    top["annotations"] = json!({"org.opencontainers.image.ref.name": "v1"});
    let mut single = amd.clone();
    single["annotations"] = json!({"org.opencontainers.image.ref.name": "single"});
    let index = json!({"schemaVersion": 2, "manifests": [top, single]});
    std::fs::write(dir.join("index.json"), index.to_string()).expect("index");
    std::fs::write(dir.join("oci-layout"), r#"{"imageLayoutVersion": "1.0.0"}"#).expect("marker");
    let hex = |v: &Value| v["digest"].as_str().expect("digest").to_string();
    (hex(&top), hex(&amd), hex(&arm))
}

fn run(name: &str, claimed_arm: Option<&str>, claims: impl Fn(&str, &str, &str) -> String) -> (i32, String) {
    let dir = common::project_dir("oci-index", name, &[]);
    let (top, amd, arm) = layout(&dir.join("layout"), claimed_arm);
    let main = format!(
        "use std.oci.{{oci_image, oci_image_for, oci_index, Image, Index}}\nuse std.world\n{}",
        claims(&top, &amd, &arm)
    );
    std::fs::write(dir.join("main.claim"), main).expect("main");
    let out = common::batch_in(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    out
}

#[test]
fn a_nested_index_gives_each_platform_and_its_attestations_apart() {
    let (code, out) = run("nested", None, |top, amd, arm| {
        format!(
            "fact index: Index = oci_index(\"layout\", \"v1\")\n\
             fact amd: Image = oci_image_for(\"layout\", \"v1\", \"linux/amd64\")\n\
             fact arm: Image = oci_image_for(\"layout\", \"v1\", \"linux/arm64/v8\")\n\
             fact single: Image = oci_image_for(\"layout\", \"single\", \"linux/amd64\")\n\
             witness listed {{\n\
               holds raw(index.digest) == {top}\n\
               holds [m.platform for m in index.manifests] == [\"linux/amd64\", \"linux/arm64/v8\"]\n\
               holds [raw(m.manifest) for m in index.manifests] == [{amd}, {arm}]\n\
               holds [raw(a.describes) for a in index.attestations] == [{amd}]\n\
             }}\n\
             witness chosen {{\n\
               holds raw(amd.manifest) == {amd} and amd.platform == \"linux/amd64\"\n\
               holds raw(arm.manifest) == {arm} and arm.platform == \"linux/arm64/v8\"\n\
               holds single.manifest == amd.manifest\n\
             }}\n"
        )
    });
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2/2 PASS"), "{out}");
}

#[test]
fn every_way_a_multi_platform_layout_is_refused_has_its_code() {
    let (code, out) = run("refusals", None, |_, _, _| {
        "fact whole: Image = oci_image(\"layout\", \"v1\")\n\
         fact riscv: Image = oci_image_for(\"layout\", \"v1\", \"linux/riscv64\")\n\
         fact single_index: Index = oci_index(\"layout\", \"single\")\n\
         fact single_arm: Image = oci_image_for(\"layout\", \"single\", \"linux/arm64/v8\")\n\
         fact untagged: Index = oci_index(\"layout\", \"v2\")\n\
         witness refused {\n\
           refuses whole with PlatformRequired\n\
           refuses riscv with PlatformUnknown\n\
           refuses single_index with NotAnIndex\n\
           refuses single_arm with PlatformUnknown\n\
           refuses untagged with RefUnknown\n\
         }\n\
         witness says_which {\n holds riscv.platform == \"\"\n}\n"
            .to_string()
    });
    assert_eq!(code, 1, "{out}");
    // The refusal names the platforms the index has.
    assert!(out.contains("the index `v1` has no image of the platform `linux/riscv64`"), "{out}");
    assert!(out.contains("PASS refused") && out.contains("FAIL says_which"), "{out}");
}

#[test]
fn an_index_whose_platform_is_not_its_configs_is_refused() {
    // The index says the arm64 image is amd64's sibling for `linux/arm/v7`;
    // its config says `linux/arm64/v8`: the index's word is not taken.
    let (code, out) = run("lying", Some("linux/arm/v7"), |_, _, _| {
        "fact arm: Image = oci_image_for(\"layout\", \"v1\", \"linux/arm/v7\")\n\
         witness named { holds arm.platform == \"linux/arm/v7\" }\n"
            .to_string()
    });
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("but its config says `linux/arm64/v8`") && out.contains("1 BROKEN"), "{out}");
}

#[test]
fn a_tampered_nested_index_is_refused() {
    let dir = common::project_dir("oci-index", "tampered", &[]);
    let layout_dir = dir.join("layout");
    let _ = layout(&layout_dir, None);
    // Spoil the nested index: the one blob listing both platforms.
    for entry in std::fs::read_dir(layout_dir.join("blobs/sha256")).expect("blobs") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        if text.contains("linux") && text.contains("\"manifests\"") && text.contains("arm64") {
            std::fs::write(&path, text.replace("amd64", "386")).expect("spoil");
        }
    }
    std::fs::write(
        dir.join("main.claim"),
        "use std.oci.{oci_image_for, Image}\nuse std.world\n\
         fact amd: Image = oci_image_for(\"layout\", \"v1\", \"linux/amd64\")\n\
         witness rejected { refuses amd with BlobMismatch }\n",
    )
    .expect("main");
    let (code, out) = common::batch_in(&dir);
    assert_eq!(code, 0, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
