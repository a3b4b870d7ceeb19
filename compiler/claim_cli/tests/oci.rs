//! `oci_image` against layouts made by real tools: `umoci` builds an image
//! (creation and file times pinned), `skopeo inspect --raw` gives the
//! manifest. The digests claim_batch reads must equal theirs, and a layout
//! with one flipped byte in a blob must be refused. The tools are installed
//! by `.ci/run`; without them (outside CI) the test says so and skips.

use sha2::{Digest, Sha256};
use std::path::Path;
use std::process::Command;

mod common;
use common::batch_in as batch;

fn tool(name: &str) -> bool {
    Command::new(name).arg("--version").output().is_ok_and(|o| o.status.success())
}

fn sh(dir: &Path, cmd: &str, args: &[&str]) {
    let out = Command::new(cmd).args(args).current_dir(dir).output().expect("run tool");
    assert!(out.status.success(), "{cmd} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn oci_image_agrees_with_umoci_and_skopeo_and_refuses_a_flipped_byte() {
    if !(tool("umoci") && tool("skopeo")) {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CI must install umoci and skopeo (.ci/run does)");
        eprintln!("skipped: umoci and skopeo are not installed (apt-get install umoci skopeo)");
        return;
    }
    let tmp = std::env::temp_dir().join(format!("claim-oci-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).expect("tmp");
    let t = "2026-01-01T00:00:00Z";
    sh(&tmp, "umoci", &["init", "--layout", "img"]);
    sh(&tmp, "umoci", &["new", "--image", "img:v41"]);
    sh(&tmp, "umoci", &["unpack", "--rootless", "--image", "img:v41", "bundle"]);
    std::fs::write(tmp.join("bundle/rootfs/hello.txt"), "hello from a layer\n").expect("write");
    sh(&tmp, "touch", &["-h", "-d", t, "bundle/rootfs/hello.txt", "bundle/rootfs"]);
    sh(&tmp, "umoci", &["repack", "--image", "img:v41", "--history.created", t, "bundle"]);
    sh(
        &tmp,
        "umoci",
        &[
            "config",
            "--image",
            "img:v41",
            "--created",
            t,
            "--history.created",
            t,
            "--config.label",
            "org.opencontainers.image.revision=5ec6a9953ad5d39120298bbfc26e95a6fa4b1dc3",
        ],
    );
    std::fs::remove_dir_all(tmp.join("bundle")).expect("rm bundle");

    // What the tools say.
    let raw = Command::new("skopeo")
        .args(["inspect", "--raw", "oci:img:v41"])
        .current_dir(&tmp)
        .output()
        .expect("skopeo")
        .stdout;
    let manifest_digest = hex(&Sha256::digest(&raw));
    let manifest: serde_json::Value = serde_json::from_slice(&raw).expect("manifest json");
    let config_digest =
        manifest["config"]["digest"].as_str().expect("config digest").trim_start_matches("sha256:").to_string();
    let layer_digest =
        manifest["layers"][0]["digest"].as_str().expect("layer").trim_start_matches("sha256:").to_string();
    let config_raw = Command::new("skopeo")
        .args(["inspect", "--config", "--raw", "oci:img:v41"])
        .current_dir(&tmp)
        .output()
        .expect("skopeo")
        .stdout;
    let config: serde_json::Value = serde_json::from_slice(&config_raw).expect("config json");
    let diff_id = config["rootfs"]["diff_ids"][0].as_str().expect("diff id").to_string();
    let platform =
        format!("{}/{}", config["os"].as_str().expect("os"), config["architecture"].as_str().expect("architecture"));
    // The diff id is the digest of the layer's content: `gzip -dc | sha256sum`.
    let unzipped = Command::new("gzip")
        .args(["-dc"])
        .arg(tmp.join("img/blobs/sha256").join(&layer_digest))
        .output()
        .expect("gzip");
    assert!(unzipped.status.success());
    assert_eq!(format!("sha256:{}", hex(&Sha256::digest(&unzipped.stdout))), diff_id, "gzip and umoci agree");
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(tmp.join("img/index.json")).expect("index")).expect("index json");
    assert_eq!(
        index["manifests"][0]["digest"].as_str(),
        Some(format!("sha256:{manifest_digest}").as_str()),
        "skopeo and the layout agree"
    );

    std::fs::write(tmp.join("Claim.toml"), "").expect("toml");
    std::fs::write(
        tmp.join("main.claim"),
        format!(
            "use std.oci.{{oci_image, Image}}\n\
             fact image: Image = oci_image(\"img\", \"v41\")\n\
             witness the_manifest_digest_is_skopeos {{ holds image.manifest == sha256:{manifest_digest} }}\n\
             witness the_config_digest_is_the_manifests {{ holds image.config == sha256:{config_digest} }}\n\
             witness the_layer_is_read {{ holds image.layers == [sha256:{layer_digest}] }}\n\
             witness the_content_is_the_configs {{ holds [raw(d) for d in image.diff_ids] == [{diff_id}] and image.platform == \"{platform}\" }}\n\
             witness the_label_is_read {{ holds get(image.labels, \"org.opencontainers.image.revision\") == Some(\"5ec6a9953ad5d39120298bbfc26e95a6fa4b1dc3\") }}\n"
        ),
    )
    .expect("main");
    let (code, out) = batch(&tmp);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("5/5 PASS"), "{out}");

    // A copy made by skopeo into another layout reads the same identities.
    sh(&tmp, "skopeo", &["copy", "--quiet", "oci:img:v41", "oci:copied:v41"]);
    let copied = std::fs::read_to_string(tmp.join("main.claim"))
        .expect("main")
        .replace("oci_image(\"img\"", "oci_image(\"copied\"");
    let original = std::fs::read_to_string(tmp.join("main.claim")).expect("main");
    std::fs::write(tmp.join("main.claim"), &copied).expect("main");
    let (code, out) = batch(&tmp);
    assert_eq!(code, 0, "skopeo's copy: {out}");
    std::fs::write(tmp.join("main.claim"), &original).expect("main");

    // A config digest is never a manifest digest.
    let good = std::fs::read_to_string(tmp.join("main.claim")).expect("main");
    std::fs::write(tmp.join("main.claim"), format!("{good}witness roles {{ holds image.config == image.manifest }}\n"))
        .expect("main");
    let (code, out) = batch(&tmp);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("E0203") && out.contains("ConfigDigest") && out.contains("ManifestDigest"), "{out}");
    std::fs::write(tmp.join("main.claim"), &good).expect("main");

    // An unknown tag names the tags there are.
    std::fs::write(tmp.join("main.claim"), good.replace("\"v41\")", "\"v42\")")).expect("main");
    let (code, out) = batch(&tmp);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("E0309") && out.contains("v42") && out.contains("`v41`"), "{out}");
    std::fs::write(tmp.join("main.claim"), &good).expect("main");

    // One flipped byte in the layer blob: refused, naming the blob.
    let blob = tmp.join("img/blobs/sha256").join(&layer_digest);
    let mut bytes = std::fs::read(&blob).expect("blob");
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x01;
    let mut perms = std::fs::metadata(&blob).expect("meta").permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(&blob, perms).expect("perms");
    std::fs::write(&blob, &bytes).expect("flip");
    let (code, out) = batch(&tmp);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("E0310") && out.contains(&layer_digest) && !out.contains("PASS "), "{out}");
    let _ = std::fs::remove_dir_all(&tmp);
}
