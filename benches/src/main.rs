//! Benchmarks against named peers, in one run, alternating A B A B, with
//! medians of several rounds and the ratio printed. Not timed tests: run it
//! by hand or from `docs/performance.md`'s commands.
//!
//!   claim_bench sha256 [--mib 1024] [--rounds 5]     file_sha256 vs `openssl dgst -sha256`
//!   claim_bench git-tree [--files 50000] [--rounds 5] git_tree vs `git add -A && git write-tree`
//!   claim_bench oci-layers [--mib 1024] [--layers 8] [--rounds 3] [--index]
//!                                                    oci_image's layer verification vs `gzip -dc | sha256sum` per layer
//!                                                    (with --index, oci_image_for of one platform of an index)
//!   claim_bench dsse [--envelopes 2000] [--rounds 5]  dsse vs `openssl pkeyutl -verify` of the same signatures
//!   claim_bench read-floor DIR [--jobs 2]           every file under DIR read once, nothing else
//!   claim_bench parse DIR                            the parser (and the lexer) alone over every `.claim` file under DIR
//!   claim_bench corpus --modules N [--seed 1] [--out DIR]  the generated corpus (claim/, rego/, pytest/)

use std::path::{Path, PathBuf};
use std::process::Command;

// The allocator of `claimc` and `claim_batch`, whose paths (the language
// server's re-check, the batch's phases) this binary measures.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::time::{Duration, Instant};

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    args.windows(2).find(|w| w[0] == name).and_then(|w| w[1].parse().ok()).unwrap_or(default)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

use claim_testkit::seeded::Rng;

fn time<T>(f: impl FnOnce() -> T) -> (Duration, T) {
    let t = Instant::now();
    let r = f();
    (t.elapsed(), r)
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(out.status.success(), "{cmd:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn report(what: &str, ours: &[Duration], peer: &[Duration], peer_name: &str, work: Option<(f64, &str)>) {
    let (o, p) = (median(ours.to_vec()), median(peer.to_vec()));
    println!("{what}: {} rounds, medians", ours.len());
    let rate =
        |d: Duration| work.map(|(n, unit)| format!("  ({:.0} {unit}/s)", n / d.as_secs_f64())).unwrap_or_default();
    println!("  claim       {:>10.3} s{}", o.as_secs_f64(), rate(o));
    println!("  {peer_name:<11} {:>10.3} s{}", p.as_secs_f64(), rate(p));
    println!("  ratio (peer time / claim time): {:.2}", p.as_secs_f64() / o.as_secs_f64());
}

/// `dsse` on `n` envelopes (half signed with Ed25519, half with ECDSA
/// P-256 in DER), each a small in-toto statement: the whole `claim_batch`
/// run that verifies and decodes them all, against `openssl pkeyutl
/// -verify` of the same signatures over the same pre-authentication
/// encodings (one process per signature, as a script would verify them),
/// and beside it `openssl speed`'s raw verifications per second.
fn bench_dsse(dir: &Path, n: usize, rounds: u64) {
    use base64::Engine as _;
    use ed25519_dalek::pkcs8::EncodePublicKey as _;
    use ed25519_dalek::Signer as _;
    let root = dir.join("dsse");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("env")).expect("mkdir");
    let ed = ed25519_dalek::SigningKey::from_bytes(&[7u8; 32]);
    let ec = p256::ecdsa::SigningKey::from_bytes(&[9u8; 32].into()).expect("key");
    let ed_pem = ed.verifying_key().to_public_key_pem(Default::default()).expect("pem");
    let ec_pem = p256::PublicKey::from(ec.verifying_key()).to_public_key_pem(Default::default()).expect("pem");
    std::fs::write(root.join("ed.pub"), &ed_pem).expect("key");
    std::fs::write(root.join("ec.pub"), &ec_pem).expect("key");
    let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    let mut main = String::from(
        "use std.dsse.{PublicKey, public_key, dsse}\n@json(camelCase) record S { @json(\"_type\") kind: Text, predicate_type: Text, .. }\n\
         fact ed: PublicKey = public_key(\"ed.pub\")\nfact ec: PublicKey = public_key(\"ec.pub\")\n",
    );
    let mut reads = Vec::new();
    for i in 0..n {
        let payload = format!(
            r#"{{"_type": "https://in-toto.io/Statement/v1", "subject": [{{"name": "a{i}", "digest": {{"sha256": "{:064x}"}}}}], "predicateType": "https://slsa.dev/provenance/v1", "predicate": {{}}}}"#,
            i
        );
        let t = "application/vnd.in-toto+json";
        let mut pae = format!("DSSEv1 {} {t} {} ", t.len(), payload.len()).into_bytes();
        pae.extend_from_slice(payload.as_bytes());
        let (sig, key) = if i % 2 == 0 {
            (ed.sign(&pae).to_bytes().to_vec(), "ed")
        } else {
            let s: p256::ecdsa::Signature = p256::ecdsa::signature::Signer::sign(&ec, &pae);
            (s.to_der().as_bytes().to_vec(), "ec")
        };
        std::fs::write(root.join(format!("env/{i}.pae")), &pae).expect("pae");
        std::fs::write(root.join(format!("env/{i}.sig")), &sig).expect("sig");
        let env = format!(
            r#"{{"payloadType": "{t}", "payload": "{}", "signatures": [{{"sig": "{}"}}]}}"#,
            b64(payload.as_bytes()),
            b64(&sig)
        );
        std::fs::write(root.join(format!("env/{i}.json")), env).expect("env");
        main.push_str(&format!("fact e{i}: S = dsse(\"env/{i}.json\", [{key}], 1)\n"));
        reads.push(format!("e{i}.kind"));
    }
    main.push_str(&format!("witness all_verified {{ holds len([{}]) == {n} }}\n", reads.join(", ")));
    std::fs::write(root.join("main.claim"), main).expect("main");
    std::fs::write(root.join("Claim.toml"), "").expect("toml");
    let bin = std::env::current_exe().expect("exe").with_file_name("claim_batch");
    let (mut ours, mut peer) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let (d, out) = time(|| run(Command::new(&bin).args(["--entry"]).arg(&root).arg("--jobs").arg("1")));
        assert!(out.contains("1/1 PASS"), "{out}");
        ours.push(d);
        let (d, ()) = time(|| {
            for i in 0..n {
                let key = if i % 2 == 0 { "ed.pub" } else { "ec.pub" };
                let mut cmd = Command::new("openssl");
                cmd.current_dir(&root).args(["pkeyutl", "-verify", "-pubin", "-inkey", key, "-in"]);
                cmd.arg(format!("env/{i}.pae")).arg("-sigfile").arg(format!("env/{i}.sig"));
                if i % 2 == 0 {
                    cmd.arg("-rawin");
                } else {
                    cmd.args(["-rawin", "-digest", "sha256"]);
                }
                run(&mut cmd);
            }
        });
        peer.push(d);
    }
    report(&format!("dsse of {n} envelopes (one job)"), &ours, &peer, "openssl", Some((n as f64, "envelopes")));
    let speed = run(Command::new("openssl").args(["speed", "-seconds", "1", "ed25519", "ecdsap256"]));
    for line in speed.lines().filter(|l| l.contains("Ed25519") || l.contains("nistp256")) {
        println!("  openssl speed: {}", line.trim());
    }
}

fn bench_sha256(dir: &Path, mib: u64, rounds: u64) {
    let file = dir.join("big.bin");
    {
        use std::io::Write;
        let mut f = std::io::BufWriter::new(std::fs::File::create(&file).expect("create"));
        let mut rng = Rng::new(1);
        let mut block = vec![0u8; 1 << 20];
        for _ in 0..mib {
            for chunk in block.chunks_mut(8) {
                chunk.copy_from_slice(&rng.next_u64().to_le_bytes()[..chunk.len()]);
            }
            f.write_all(&block).expect("write");
        }
    }
    let (mut ours, mut peer) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let (d, ours_hex) = time(|| hex(&claim_cli::world::sha256_file(&file).expect("hash")));
        ours.push(d);
        let (d, out) = time(|| run(Command::new("openssl").args(["dgst", "-sha256", "-r"]).arg(&file)));
        peer.push(d);
        assert!(out.starts_with(&ours_hex), "digests differ: {ours_hex} vs {out}");
    }
    report(&format!("file_sha256 of {mib} MiB"), &ours, &peer, "openssl", Some((mib as f64, "MiB")));
}

/// A layout of `layers` gzip layers, `mib` MiB of blobs in all (content
/// that compresses about 3:1, as image layers of binaries and text do),
/// verified by `claim_batch` (the whole run: layout, manifest, config, both
/// digests of every layer) on one thread and on two, against
/// `gzip -dc LAYER | sha256sum` (and `pigz -dc`, where installed) run for
/// each layer one after another.
fn bench_oci_layers(dir: &Path, mib: u64, layers: usize, rounds: u64, index: bool) {
    use sha2::Digest;
    let lay = dir.join("lay");
    let blobs = lay.join("blobs/sha256");
    std::fs::create_dir_all(&blobs).expect("mkdir");
    let compressor = if tool("pigz") { "pigz" } else { "gzip" };
    let mut rng = Rng::new(3);
    let words: Vec<Vec<u8>> = (0..4096)
        .map(|_| (0..(3 + rng.next_u64() % 9)).map(|_| b'a' + (rng.next_u64() % 26) as u8).collect())
        .collect();
    let (mut layer_files, mut descs, mut diff_ids) = (Vec::new(), Vec::new(), Vec::new());
    let per_layer = (mib << 20) / layers as u64;
    // Content: words, with a run of random bytes now and then.
    let chunk = |rng: &mut Rng| {
        let mut chunk = Vec::with_capacity(16 << 20);
        while chunk.len() < 16 << 20 {
            if rng.next_u64() % 32 == 0 {
                chunk.extend((0..32).map(|_| rng.next_u64() as u8));
            } else {
                chunk.extend_from_slice(&words[(rng.next_u64() % 4096) as usize]);
                chunk.push(b' ');
            }
        }
        chunk
    };
    // How much the compressor shrinks it, measured on one chunk, so each
    // blob is about `per_layer` bytes.
    let sample = dir.join("sample");
    std::fs::write(&sample, chunk(&mut rng)).expect("sample");
    let squeezed = run(Command::new("sh").arg("-c").arg(format!("{compressor} -1 -c {} | wc -c", sample.display())));
    let ratio = (16u64 << 20) as f64 / squeezed.trim().parse::<f64>().unwrap_or(1.0).max(1.0);
    for i in 0..layers {
        let raw = dir.join(format!("layer{i}.tar"));
        let gz = dir.join(format!("layer{i}.tar.gz"));
        let mut content = Vec::new();
        while (content.len() as f64) < per_layer as f64 * ratio {
            content.extend(chunk(&mut rng));
        }
        std::fs::write(&raw, &content).expect("layer");
        run(Command::new("sh").arg("-c").arg(format!("{compressor} -1 -n -c {} > {}", raw.display(), gz.display())));
        let blob = std::fs::read(&gz).expect("gz");
        let digest = hex(&sha2::Sha256::digest(&blob));
        std::fs::rename(&gz, blobs.join(&digest)).expect("blob");
        let _ = std::fs::remove_file(&raw);
        diff_ids.push(format!("sha256:{}", hex(&sha2::Sha256::digest(&content))));
        descs.push(format!(
            r#"{{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": "sha256:{digest}", "size": {}}}"#,
            blob.len()
        ));
        layer_files.push(blobs.join(&digest));
    }
    let put = |bytes: &[u8]| {
        let d = hex(&sha2::Sha256::digest(bytes));
        std::fs::write(blobs.join(&d), bytes).expect("blob");
        (d, bytes.len())
    };
    let config = format!(
        r#"{{"architecture": "amd64", "os": "linux", "config": {{}}, "rootfs": {{"type": "layers", "diff_ids": [{}]}}}}"#,
        diff_ids.iter().map(|d| format!("\"{d}\"")).collect::<Vec<_>>().join(", ")
    );
    let (cd, cs) = put(config.as_bytes());
    let manifest = format!(
        r#"{{"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json", "config": {{"mediaType": "application/vnd.oci.image.config.v1+json", "digest": "sha256:{cd}", "size": {cs}}}, "layers": [{}]}}"#,
        descs.join(", ")
    );
    let (md, ms) = put(manifest.as_bytes());
    // With `--index`, the image is one platform of a multi-platform index
    // (`oci_image_for`), as `docker buildx --platform` pushes it.
    let (top_type, td, ts) = if index {
        let index = format!(
            r#"{{"schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json", "manifests": [{{"mediaType": "application/vnd.oci.image.manifest.v1+json", "digest": "sha256:{md}", "size": {ms}, "platform": {{"os": "linux", "architecture": "amd64"}}}}]}}"#
        );
        let (id, is) = put(index.as_bytes());
        ("application/vnd.oci.image.index.v1+json", id, is)
    } else {
        ("application/vnd.oci.image.manifest.v1+json", md, ms)
    };
    std::fs::write(
        lay.join("index.json"),
        format!(
            r#"{{"schemaVersion": 2, "manifests": [{{"mediaType": "{top_type}", "digest": "sha256:{td}", "size": {ts}, "annotations": {{"org.opencontainers.image.ref.name": "v1"}}}}]}}"#
        ),
    )
    .expect("index");
    std::fs::write(lay.join("oci-layout"), r#"{"imageLayoutVersion": "1.0.0"}"#).expect("marker");
    std::fs::write(dir.join("Claim.toml"), "").expect("toml");
    std::fs::write(
        dir.join("main.claim"),
        format!(
            "use std.oci.{{oci_image, oci_image_for, Image}}\nfact image: Image = {}\nwitness read {{ holds len(image.diff_ids) == {layers} }}\n",
            if index { "oci_image_for(\"lay\", \"v1\", \"linux/amd64\")" } else { "oci_image(\"lay\", \"v1\")" }
        ),
    )
    .expect("main");
    let bin = std::env::current_exe().expect("exe").with_file_name("claim_batch");
    let claim = |jobs: &str| {
        let out = run(Command::new(&bin).args(["--entry", "main.claim", "--jobs", jobs]).current_dir(dir));
        assert!(out.contains("1/1 PASS"), "{out}");
    };
    let total: u64 = layer_files.iter().map(|f| std::fs::metadata(f).map(|m| m.len()).unwrap_or(0)).sum();
    let each = |tool: &str| {
        for f in &layer_files {
            run(Command::new("sh").arg("-c").arg(format!("{tool} -dc {} | sha256sum", f.display())));
        }
    };
    // Every file read once before the rounds, so no tool reads from disk.
    each("gzip");
    let (mut one, mut two, mut gzip, mut pigz) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        one.push(time(|| claim("1")).0);
        two.push(time(|| claim("2")).0);
        gzip.push(time(|| each("gzip")).0);
        if tool("pigz") {
            pigz.push(time(|| each("pigz")).0);
        }
    }
    let mib = total as f64 / (1 << 20) as f64;
    let work = Some((mib, "MiB of blobs"));
    println!("{layers} gzip layers, {mib:.0} MiB of blobs");
    println!("{}", if index { "oci_image_for, one platform of an index" } else { "oci_image" });
    report("one thread: claim_batch --jobs 1", &one, &gzip, "gzip|sha256", work);
    if !pigz.is_empty() {
        report("one thread: claim_batch --jobs 1", &one, &pigz, "pigz|sha256", work);
    }
    report("two threads: claim_batch --jobs 2", &two, &gzip, "gzip|sha256", work);
    let (o, t) = (median(one), median(two));
    println!("  --jobs 2 / --jobs 1 wall time: {:.2}", t.as_secs_f64() / o.as_secs_f64());
}

fn tool(name: &str) -> bool {
    Command::new(name).arg("--version").output().is_ok_and(|o| o.status.success())
}

fn bench_git_tree(dir: &Path, files: u64, rounds: u64) {
    let tree = dir.join("tree");
    let mut rng = Rng::new(7);
    for i in 0..files {
        let sub = tree.join(format!("d{:03}/e{:02}", i % 500, (i / 500) % 20));
        std::fs::create_dir_all(&sub).expect("mkdir");
        let len = (rng.next_u64() % 4096) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        std::fs::write(sub.join(format!("f{i}.dat")), bytes).expect("write");
    }
    let git = |args: &[&str]| {
        run(Command::new("git")
            .args(args)
            .current_dir(&tree)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1"))
    };
    let (mut ours, mut peer) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let real = tree.canonicalize().expect("tree");
        let beneath = claim_cli::world::beneath::Beneath::new(&real).expect("root");
        let (d, ours_hex) = time(|| hex(&claim_cli::world::gittree::tree_id(&beneath, &real).expect("tree")));
        ours.push(d);
        let _ = std::fs::remove_dir_all(tree.join(".git"));
        let (d, out) = time(|| {
            git(&["init", "-q"]);
            git(&["add", "-A"]);
            git(&["write-tree"])
        });
        peer.push(d);
        assert_eq!(out.trim(), ours_hex, "tree ids differ");
    }
    report(&format!("git_tree of {files} files"), &ours, &peer, "git", Some((files as f64, "files")));
}

fn collect(dir: &Path, out: &mut Vec<String>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "claim") {
            out.push(std::fs::read_to_string(&p).unwrap_or_default());
        }
    }
}

/// The editor's path: a cold check of the generated corpus in one salsa
/// database (files loaded as `claimc lsp` loads them), then, round by
/// round, an edit inside one function body that changes its length (so
/// every position after it moves, as typing does), a hover and a
/// completion in the edited file, and the whole re-check that publishing
/// diagnostics needs; then, round by round, an edit that adds a witness
/// (a new name) and the re-check alone.
fn bench_recheck(modules: usize, rounds: u64) {
    use claim_sema::{compile, Database, Program, SourceFile};
    let mut db = Database::default();
    let mut map = std::collections::BTreeMap::new();
    let mut files = Vec::new();
    for f in claim_testkit::corpus::generate(modules, 1) {
        let Some(name) = f.path.strip_prefix("claim/").and_then(|p| p.strip_suffix(".claim")) else { continue };
        let file = SourceFile::loaded(
            &db,
            name.to_string(),
            String::from_utf8_lossy(&f.bytes).as_ref().into(),
            claim_syntax::FileId(files.len() as u32),
        );
        files.push(file);
        map.insert(name.to_string(), file);
    }
    for (m, src) in claim_cli::stdlib::MODULES {
        let id = claim_syntax::FileId(1_000_000 + map.len() as u32);
        map.insert((*m).to_string(), SourceFile::loaded(&db, (*m).to_string(), (*src).into(), id));
    }
    let entries: Vec<String> = map.keys().filter(|m| !m.starts_with("std")).cloned().collect();
    let program = Program::loaded(&db, map, entries, std::collections::BTreeMap::new());
    let (cold, _) = time(|| compile(&db, program).diagnostics.len());
    let target = files[files.len() / 2];
    let base = target.text(&db).clone();
    let (mut rechecks, mut hovers, mut completions) = (Vec::new(), Vec::new(), Vec::new());
    for r in 0..rounds {
        let edited = base.replace("len(x.name) > 0", &format!("len(x.name) > {}", 10 * (r % 2)));
        target.edit(&mut db, edited.as_str().into());
        // What `claimc lsp` does after an edit: answer requests from the
        // edited module's own queries first, then publish diagnostics.
        let at = edited.find("named_inputs(candidate)").unwrap_or(0) as u32 + 3;
        let (d, h) = time(|| claim_ide::hover(&db, program, target, at));
        assert!(h.is_some());
        hovers.push(d);
        let dot = edited.find("c.inputs").unwrap_or(0) as u32 + 2;
        let (d, c) = time(|| claim_ide::completions(&db, program, target, dot));
        assert!(!c.is_empty());
        completions.push(d);
        let (d, n) = time(|| compile(&db, program).diagnostics.len());
        assert_eq!(n, 0);
        rechecks.push(d);
    }
    // An edit that adds a name: the checks by name answer afresh, and
    // nothing has re-checked the module before (no hover first).
    let mut renamed = Vec::new();
    for r in 0..rounds {
        let edited = format!("{base}\nwitness added_in_round_{r} {{ holds len(candidate.inputs) >= 0 }}\n");
        target.edit(&mut db, edited.as_str().into());
        let (d, n) = time(|| compile(&db, program).diagnostics.len());
        assert_eq!(n, 0);
        renamed.push(d);
    }
    let recheck = median(rechecks);
    println!("{modules} modules in one database: cold check {:.3} s", cold.as_secs_f64());
    println!(
        "  re-check after an edit in one function body: median {:.2} ms ({:.2}% of cold)",
        recheck.as_secs_f64() * 1e3,
        100.0 * recheck.as_secs_f64() / cold.as_secs_f64()
    );
    println!(
        "  first hover after the edit (re-checks the edited module): median {:.2} ms",
        median(hovers).as_secs_f64() * 1e3
    );
    println!("  then a completion after `.`: median {:.2} ms", median(completions).as_secs_f64() * 1e3);
    let added = median(renamed);
    println!(
        "  re-check after adding a witness (module re-checked too): median {:.2} ms ({:.2}% of cold)",
        added.as_secs_f64() * 1e3,
        100.0 * added.as_secs_f64() / cold.as_secs_f64()
    );
    std::mem::forget(db);
}

/// Every regular file below `dir`.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let Ok(t) = e.file_type() else { continue };
        if t.is_dir() {
            walk(&e.path(), out);
        } else if t.is_file() {
            out.push(e.path());
        }
    }
}

/// Reads `files` on `jobs` threads, each taking every `jobs`-th; the bytes read.
fn read_all(files: &[PathBuf], jobs: usize) -> usize {
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..jobs)
            .map(|j| {
                s.spawn(move || {
                    files.iter().skip(j).step_by(jobs).map(|f| std::fs::read(f).map_or(0, |b| b.len())).sum::<usize>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
    })
}

/// Writes the generated corpus (Claim, Rego and pytest) under `out`.
fn write_corpus(out: &Path, modules: usize, seed: u64) {
    let _ = std::fs::remove_dir_all(out);
    for f in claim_testkit::corpus::generate(modules, seed) {
        let path = out.join(&f.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(&path, &f.bytes).expect("write");
    }
    println!("wrote {modules} modules (seed {seed}) to {}", out.display());
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir: PathBuf = std::env::temp_dir().join(format!("claim-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let rounds = arg(&args, "--rounds", 5).max(1);
    match args.get(1).map(String::as_str) {
        Some("sha256") => bench_sha256(&dir, arg(&args, "--mib", 1024), rounds),
        Some("dsse") => bench_dsse(&dir, arg(&args, "--envelopes", 2000) as usize, rounds),
        Some("oci-layers") => bench_oci_layers(
            &dir,
            arg(&args, "--mib", 1024),
            arg(&args, "--layers", 8).max(1) as usize,
            rounds,
            args.iter().any(|a| a == "--index"),
        ),
        Some("git-tree") => bench_git_tree(&dir, arg(&args, "--files", 50_000), rounds),
        Some("parse") => {
            // Parse every `.claim` file under a folder: the parser's share of a check.
            let root = PathBuf::from(args.get(2).map_or(".", String::as_str));
            let mut texts = Vec::new();
            collect(&root, &mut texts);
            let bytes: usize = texts.iter().map(String::len).sum();
            let mut times = Vec::new();
            for _ in 0..rounds {
                let (d, _) = time(|| texts.iter().map(|t| claim_syntax::parse_module(t).module.items.len()).sum::<usize>());
                times.push(d);
            }
            let m = median(times);
            println!("parse {} files, {bytes} bytes: median {:.3} s ({:.1} MB/s)", texts.len(), m.as_secs_f64(), bytes as f64 / 1e6 / m.as_secs_f64());
            // The lexer alone (the tokens the parser reads), the same rounds.
            let mut times = Vec::new();
            for _ in 0..rounds {
                let (d, _) = time(|| texts.iter().map(|t| claim_syntax::lexer::lex(t).tokens.len()).sum::<usize>());
                times.push(d);
            }
            let l = median(times);
            println!("  of which lexing: median {:.4} s ({:.1} MB/s)", l.as_secs_f64(), bytes as f64 / 1e6 / l.as_secs_f64());
        }
        Some("read-floor") => {
            // Every file under a folder read once, on `--jobs` threads with
            // nothing else done: the least time any tool that reads the
            // files it checks can take on this machine.
            let root = PathBuf::from(args.get(2).map_or(".", String::as_str));
            let mut files = Vec::new();
            walk(&root, &mut files);
            let jobs = arg(&args, "--jobs", 2).max(1) as usize;
            let mut times = Vec::new();
            let mut bytes = 0;
            for _ in 0..rounds {
                let (d, n) = time(|| read_all(&files, jobs));
                times.push(d);
                bytes = n;
            }
            let m = median(times);
            println!("read {} files, {bytes} bytes, on {jobs} threads: median {:.3} s", files.len(), m.as_secs_f64());
        }
        Some("recheck") => bench_recheck(arg(&args, "--modules", 1000) as usize, rounds),
        Some("corpus") => {
            let out = args.windows(2).find(|w| w[0] == "--out").map(|w| PathBuf::from(&w[1]));
            let out = out.unwrap_or_else(|| PathBuf::from("target/corpus"));
            write_corpus(&out, arg(&args, "--modules", 100) as usize, arg(&args, "--seed", 1));
        }
        _ => eprintln!(
            "usage: claim_bench sha256 [--mib N] [--rounds N] | git-tree [--files N] [--rounds N] | corpus --modules N [--seed S] [--out DIR]"
        ),
    }
    let _ = std::fs::remove_dir_all(&dir);
}
