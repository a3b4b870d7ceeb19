//! `oci_image` verifies an image down to its content: each layer,
//! decompressed as its media type says, must hash to the config's diff id
//! at its place (§6). Layouts are built here, blob by blob, with layers
//! compressed by the distribution's own `gzip` and `zstd` where they are
//! installed (`.ci/run` installs them); the swapped-layer attack is made
//! from two images `umoci` builds.

use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod common;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn sha(bytes: &[u8]) -> String {
    format!("sha256:{}", hex(&Sha256::digest(bytes)))
}

fn tool(name: &str) -> bool {
    let there = Command::new(name).arg("--version").output().is_ok_and(|o| o.status.success());
    if !there {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CI must install {name} (.ci/run does)");
        eprintln!("skipped: {name} is not installed");
    }
    there
}

/// `bytes` through a command's standard input (`gzip -c`, `zstd -c`).
fn filter(cmd: &str, args: &[&str], bytes: &[u8]) -> Vec<u8> {
    let mut child = Command::new(cmd).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = bytes.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("join").expect("write");
    assert!(out.status.success(), "{cmd} {args:?}");
    out.stdout
}

/// A small tar archive holding one file (its exact bytes do not matter
/// here, only that a layer's content is some bytes).
fn tar_of(name: &str, content: &str) -> Vec<u8> {
    let mut t = format!("{name}: {content}\n").into_bytes();
    t.resize(1024, 0);
    t
}

struct Layer {
    blob: Vec<u8>,
    media_type: &'static str,
    diff_id: String,
}

const GZIP: &str = "application/vnd.oci.image.layer.v1.tar+gzip";
const ZSTD: &str = "application/vnd.oci.image.layer.v1.tar+zstd";
const TAR: &str = "application/vnd.oci.image.layer.v1.tar";

fn gzip_layer(content: &[u8]) -> Layer {
    Layer { blob: filter("gzip", &["-c", "-n"], content), media_type: GZIP, diff_id: sha(content) }
}

fn write_layout(dir: &Path, layers: &[Layer], diff_ids: &[String]) -> String {
    let layers: Vec<(&[u8], &str)> = layers.iter().map(|l| (&l.blob[..], l.media_type)).collect();
    common::oci::write_layout(dir, &layers, diff_ids, &common::oci::Edits::default())
}

/// A fresh project folder (a `Claim.toml` in it) for one case.
fn project(name: &str) -> PathBuf {
    common::project_dir("oci-layers", name, &[("Claim.toml", "")])
}

/// Runs `oci_image("lay", "v1")` with a witness over the image: exit code
/// and output.
fn run(dir: &Path, witness: &str) -> (i32, String) {
    std::fs::write(
        dir.join("main.claim"),
        format!("use std.oci.{{oci_image, Image}}\nfact image: Image = oci_image(\"lay\", \"v1\")\nwitness w {{ {witness} }}\n"),
    )
    .expect("main");
    common::batch_in(dir)
}

#[test]
fn gzip_zstd_and_plain_layers_are_verified_to_their_content() {
    if !(tool("gzip") && tool("zstd")) {
        return;
    }
    let dir = project("kinds");
    let (a, b, c) = (tar_of("a", "gzip"), tar_of("b", "zstd"), tar_of("c", "plain"));
    let layers = [
        gzip_layer(&a),
        Layer { blob: filter("zstd", &["-c", "-q"], &b), media_type: ZSTD, diff_id: sha(&b) },
        Layer { blob: c.clone(), media_type: TAR, diff_id: sha(&c) },
    ];
    let ids: Vec<String> = layers.iter().map(|l| l.diff_id.clone()).collect();
    let config = write_layout(&dir.join("lay"), &layers, &ids);
    let want: Vec<String> = ids.iter().map(|d| d.to_string()).collect();
    let (code, out) = run(
        &dir,
        &format!(
            "holds image.config == {config}\n holds [raw(d) for d in image.diff_ids] == [{}]\n holds image.platform == \"linux/arm64/v8\"",
            want.join(", ")
        ),
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1/1 PASS"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each layout that is not its config's content, and what the refusal
/// must name.
#[test]
fn a_layer_that_is_not_its_configs_content_is_refused_by_name() {
    if !(tool("gzip") && tool("zstd")) {
        return;
    }
    let content = tar_of("f", "the content");
    let other = tar_of("f", "other bytes");
    let good = gzip_layer(&content);
    let mut trailing = gzip_layer(&content);
    trailing.blob.extend_from_slice(b"\0\0\0\0");
    let mut truncated = gzip_layer(&content);
    truncated.blob.truncate(truncated.blob.len() - 8);
    let cases: Vec<(&str, Vec<Layer>, Vec<String>, &str, Vec<String>)> = vec![
        (
            "swapped content",
            vec![gzip_layer(&other)],
            vec![sha(&content)],
            "E0311",
            vec![format!("{}", sha(&content)), sha(&other), "layer 0".into(), "LayerContentMismatch".into()],
        ),
        (
            "fewer diff ids than layers",
            vec![gzip_layer(&content), gzip_layer(&other)],
            vec![sha(&content)],
            "E0311",
            vec!["2 layers but its config names 1 diff id".into()],
        ),
        (
            "more diff ids than layers",
            vec![gzip_layer(&content)],
            vec![sha(&content), sha(&other)],
            "E0311",
            vec!["1 layer but its config names 2 diff ids".into()],
        ),
        (
            "bytes after the gzip stream",
            vec![trailing],
            vec![sha(&content)],
            "E0311",
            vec!["4 bytes follow the gzip stream".into()],
        ),
        ("truncated gzip", vec![truncated], vec![sha(&content)], "E0311", vec!["truncated".into()]),
        (
            "gzip bytes labelled zstd",
            vec![Layer { media_type: ZSTD, ..gzip_layer(&content) }],
            vec![sha(&content)],
            "E0311",
            vec!["not a zstd stream".into()],
        ),
        (
            "an unknown media type",
            vec![Layer { media_type: "application/vnd.oci.image.layer.v1.tar+bzip2", ..gzip_layer(&content) }],
            vec![sha(&content)],
            "E0312",
            vec!["tar+bzip2".into(), "MediaTypeUnsupported".into()],
        ),
        ("the good layout", vec![good], vec![sha(&content)], "", vec![]),
    ];
    for (what, layers, ids, code, names) in cases {
        let dir = project(&what.replace(' ', "-"));
        write_layout(&dir.join("lay"), &layers, &ids);
        let (exit, out) = run(&dir, "holds len(image.layers) > 0");
        if code.is_empty() {
            assert_eq!(exit, 0, "{what}: {out}");
            continue;
        }
        assert_eq!(exit, 2, "{what}: {out}");
        assert!(!out.contains("PASS w"), "{what}: {out}");
        assert!(out.contains(&format!("[{code}]")), "{what}: {out}");
        for n in names {
            assert!(out.contains(&n), "{what}: `{n}` not in\n{out}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_decompression_bomb_stops_at_the_limit() {
    if !tool("gzip") {
        return;
    }
    let dir = project("bomb");
    let zeros = vec![0u8; 8 << 20];
    let layer = gzip_layer(&zeros);
    assert!(layer.blob.len() < 64 << 10, "a bomb is small");
    let ids = vec![layer.diff_id.clone()];
    write_layout(&dir.join("lay"), &[layer], &ids);
    let (code, out) = run(&dir, "holds len(image.layers) == 1");
    assert_eq!(code, 0, "{out}");
    let (code, out) = common::batch_in_with(&dir, &["--max-layer-bytes", "1000000"]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("[E0313]") && out.contains("more than 1000000 bytes") && out.contains("--max-layer-bytes"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The attack found by a user: a real umoci image whose layer 0 is replaced
/// by another image's layer, the manifest and index re-hashed, the config
/// kept. Every descriptor is consistent; only the content is not.
#[test]
fn a_layer_swapped_into_a_umoci_image_is_refused() {
    if !(tool("umoci") && tool("skopeo")) {
        return;
    }
    let dir = project("swap");
    let sh = |args: &[&str]| {
        let out = Command::new("umoci").args(args).current_dir(&dir).output().expect("umoci");
        assert!(out.status.success(), "umoci {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    let t = "2026-01-01T00:00:00Z";
    for (tag, text) in [("good", "the built content"), ("evil", "foreign content")] {
        sh(&["init", "--layout", tag]);
        sh(&["new", "--image", &format!("{tag}:v1")]);
        sh(&["unpack", "--rootless", "--image", &format!("{tag}:v1"), &format!("{tag}-bundle")]);
        std::fs::write(dir.join(format!("{tag}-bundle/rootfs/file.txt")), text).expect("file");
        sh(&["repack", "--history.created", t, "--image", &format!("{tag}:v1"), &format!("{tag}-bundle")]);
    }
    let read_json =
        |p: PathBuf| -> serde_json::Value { serde_json::from_slice(&std::fs::read(p).expect("read")).expect("json") };
    let manifest_of = |layout: &str| {
        let index = read_json(dir.join(layout).join("index.json"));
        let d = index["manifests"][0]["digest"].as_str().expect("digest").to_string();
        (read_json(dir.join(layout).join("blobs/sha256").join(&d[7..])), d)
    };
    let (good_manifest, _) = manifest_of("good");
    let (evil_manifest, _) = manifest_of("evil");
    // The image before the attack passes, with its config digest.
    let config = good_manifest["config"]["digest"].as_str().expect("config").to_string();
    std::fs::rename(dir.join("good"), dir.join("lay")).expect("rename");
    let holds = format!("holds image.config == {config}");
    let (code, out) = run(&dir, &holds);
    assert_eq!(code, 0, "before the swap: {out}");
    // The swap: the evil image's last layer as the good image's last.
    let mut m = good_manifest.clone();
    let last = m["layers"].as_array().expect("layers").len() - 1;
    let evil_layer = evil_manifest["layers"].as_array().expect("layers").last().expect("layer").clone();
    let evil_blob = &evil_layer["digest"].as_str().expect("digest")[7..];
    std::fs::copy(dir.join("evil/blobs/sha256").join(evil_blob), dir.join("lay/blobs/sha256").join(evil_blob))
        .expect("copy blob");
    m["layers"][last] = evil_layer.clone();
    let bytes = serde_json::to_vec(&m).expect("manifest");
    let digest = sha(&bytes);
    std::fs::write(dir.join("lay/blobs/sha256").join(&digest[7..]), &bytes).expect("manifest blob");
    let mut index = read_json(dir.join("lay/index.json"));
    index["manifests"][0]["digest"] = serde_json::Value::String(digest);
    index["manifests"][0]["size"] = serde_json::Value::from(bytes.len());
    std::fs::write(dir.join("lay/index.json"), index.to_string()).expect("index");
    let (code, out) = run(&dir, &holds);
    assert_eq!(code, 2, "after the swap: {out}");
    assert!(!out.contains("PASS w"), "{out}");
    assert!(
        out.contains("[E0311]") && out.contains(&format!("layer {last} of `lay`")) && out.contains(evil_blob),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Layers are verified on several threads; what a run prints is the same
/// with one or four, the first failing layer in the manifest's order.
#[test]
fn the_verdict_is_the_same_on_any_number_of_threads() {
    if !tool("gzip") {
        return;
    }
    let dir = project("threads");
    let contents: Vec<Vec<u8>> = (0..6).map(|i| tar_of("f", &format!("layer {i}"))).collect();
    let layers: Vec<Layer> = contents.iter().map(|c| gzip_layer(c)).collect();
    let mut ids: Vec<String> = layers.iter().map(|l| l.diff_id.clone()).collect();
    ids[2] = sha(b"not layer 2");
    ids[4] = sha(b"not layer 4");
    write_layout(&dir.join("lay"), &layers, &ids);
    let witness = "holds len(image.layers) == 6";
    run(&dir, witness);
    let outs: Vec<(i32, String)> =
        ["1", "2", "4"].iter().map(|j| common::batch_in_with(&dir, &["--jobs", j])).collect();
    for o in &outs {
        assert_eq!(o, &outs[0]);
    }
    assert!(outs[0].1.contains("layer 2 of `lay`") && !outs[0].1.contains("layer 4 of"), "{}", outs[0].1);
    let _ = std::fs::remove_dir_all(&dir);
}
