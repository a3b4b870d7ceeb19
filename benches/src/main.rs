//! Benchmarks against named peers, in one run, alternating A B A B, with
//! medians of several rounds and the ratio printed. Not timed tests: run it
//! by hand or from `docs/performance.md`'s commands.
//!
//!   claim_bench sha256 [--mib 1024] [--rounds 5]     file_sha256 vs `openssl dgst -sha256`
//!   claim_bench git-tree [--files 50000] [--rounds 5] git_tree vs `git add -A && git write-tree`

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    args.windows(2).find(|w| w[0] == name).and_then(|w| w[1].parse().ok()).unwrap_or(default)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

use claim_cli::seeded::Rng;

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
        let (d, ours_hex) = time(|| hex(&claim_cli::gittree::tree_id(&tree).expect("tree")));
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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir: PathBuf = std::env::temp_dir().join(format!("claim-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let rounds = arg(&args, "--rounds", 5).max(1);
    match args.get(1).map(String::as_str) {
        Some("sha256") => bench_sha256(&dir, arg(&args, "--mib", 1024), rounds),
        Some("git-tree") => bench_git_tree(&dir, arg(&args, "--files", 50_000), rounds),
        _ => eprintln!("usage: claim_bench sha256 [--mib N] [--rounds N] | git-tree [--files N] [--rounds N]"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}
