#!/usr/bin/env python3
"""claim_batch against its peers on the same generated corpus, in one run.

    python3 benches/peers.py [--modules 10 100 1000] [--rounds 5] [--profile dist] [--pgo]

For each corpus size it generates the corpus (`claim_bench corpus`: Claim,
Rego and pytest from one seed, doing the same checks), then runs, round by
round and alternating (A B C A B C ...):

  claim    target/dist/claim_batch --entry <corpus>/claim
           (`--profile dist`: LTO in one codegen unit, as regorus ships;
           `--pgo`: target/pgo/dist/claim_batch, built by scripts/build-dist
           with profile-guided optimisation trained on claims/ and examples/)
  regorus  regorus@0.4.0 eval over every package's test_* rules (one process)
  pytest   python3 -m pytest over the generated tests (hashlib)

and prints medians of wall time, the peak RSS, each peer's time over
claim's, and the median CPU time the host's hypervisor took from this
machine during one run of each tool (`host steal`, from /proc/stat: on a
shared host it is seconds in a contended hour and near zero in a quiet
one; compare runs with little). Every run must pass every check (the counts are compared), so a
tool that silently did less would be caught. Installs what is missing:
regorus (cargo install, into target/peers) and pytest (pip).

Right before each timed run, every file of that tool's own inputs (its
folder of the corpus) and its executable are read once, untimed (as
hyperfine's `--prepare` would): each tool then starts from the same page
cache, whichever ran before it. Without this a tool's run follows the
previous tool's (claim's follow pytest's 54-second runs, regorus's follow
claim's quarter-second ones), and a host that evicts files meanwhile (this
project's machine does: docs/performance.md) costs most the tool that
reads the most files. `--no-warm` measures without it.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.path.join(ROOT, "target")
REGORUS = os.path.join(TARGET, "peers", "bin", "regorus")
# The folder under target/ of the profile claim is built with (`--profile`).
PROFILE_DIR = "dist"
# The claim binary measured: the profile's, or the PGO build's (`--pgo`).
CLAIM = os.path.join(TARGET, "dist", "claim_batch")


def sh(cmd, **kw):
    subprocess.run(cmd, check=True, **kw)


def setup(profile, pgo):
    # The generator (claim_bench) always; claim's own binaries from this
    # profile only where they are the ones measured.
    packages = ["-p", "claim_bench"] if pgo else ["-p", "claim_cli", "-p", "claim_bench"]
    sh(["cargo", "build", "--profile", profile, "-q"] + packages, cwd=ROOT)
    if pgo:
        sh([os.path.join(ROOT, "scripts", "build-dist")], cwd=ROOT, stdout=subprocess.DEVNULL)
    if not os.path.exists(REGORUS):
        # Releases after 0.4.0 removed crypto.sha256.
        sh(["cargo", "install", "-q", "regorus@0.4.0", "--example", "regorus", "--root", os.path.join(TARGET, "peers")])
    try:
        import pytest  # noqa: F401
    except ImportError:
        sh([sys.executable, "-m", "pip", "install", "-q", "pytest==8.3.4"])


def run(cmd, cwd):
    """Wall seconds, peak RSS in MB, stdout."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ, NO_COLOR="1"))
    out, err = p.communicate()
    wall = time.perf_counter() - t
    status = p.returncode
    if status != 0:
        sys.exit(f"{cmd[0]} failed ({status}):\n{err.decode()[-2000:]}")
    return wall, out.decode()


def warm(paths):
    """Reads every file under each path once (the page cache then holds
    them, as far as it will)."""
    for top in paths:
        files = [top] if os.path.isfile(top) else (os.path.join(d, f) for d, _, fs in os.walk(top) for f in fs)
        for f in files:
            try:
                with open(f, "rb") as h:
                    while h.read(1 << 20):
                        pass
            except OSError:
                pass


def peak_rss_mb(cmd, cwd):
    """Peak RSS of one run, from the rusage of that one child."""
    pid = os.fork()
    if pid == 0:
        os.chdir(cwd)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        os.execvp(cmd[0], cmd)
    _, status, usage = os.wait4(pid, 0)
    return usage.ru_maxrss / 1024


def tools(corpus):
    rego = os.path.join(corpus, "rego")
    policies = sorted(f for f in os.listdir(rego) if f.endswith(".rego"))
    query = 'count([1 | some p; startswith(p, "m"); some k; startswith(k, "test_"); data[p][k] == true])'
    regorus = [REGORUS, "eval", "-d", "data.json"] + [a for f in policies for a in ("-d", f)] + [query]
    # Each tool: its command, its working folder, and what it reads (its
    # executable and its folder of the corpus), read before each timed run
    # unless `--no-warm`.
    return {
        "claim": ([CLAIM, "--entry", os.path.join(corpus, "claim")], corpus, [CLAIM, os.path.join(corpus, "claim")]),
        "regorus": (regorus, rego, [REGORUS, rego]),
        "pytest": (
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "pytest"],
            corpus,
            [sys.executable, os.path.join(corpus, "pytest")],
        ),
    }


def steal_seconds():
    """CPU time the hypervisor gave to others, all CPUs, since boot (Linux's
    /proc/stat; None elsewhere). A run during which the host took much of
    it measures the host, not the tools: it slows a tool on two threads
    more than one on one, so the table shows it beside every time."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
        return int(fields[8]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def passed(name, out):
    if name == "claim":
        last = out.strip().splitlines()[-1]
        n, total = last.split()[0].split("/")
        return int(n), int(total)
    if name == "regorus":
        import json

        n = json.loads(out)["result"][0]["expressions"][0]["value"]
        return n, None
    for line in out.splitlines()[::-1]:
        if " passed" in line:
            n = int(line.split()[0])
            return n, n if "failed" not in line else None
    return 0, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--modules", type=int, nargs="+", default=[10, 100, 1000])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--tools", nargs="+", default=["claim", "regorus", "pytest"])
    ap.add_argument("--profile", default="dist", help="cargo profile claim is built with (release: as the tests build it)")
    ap.add_argument("--pgo", action="store_true", help="measure scripts/build-dist's binary (dist with profile-guided optimisation)")
    ap.add_argument(
        "--no-warm",
        dest="warm",
        action="store_false",
        help="do not read each tool's inputs right before its timed runs (see above)",
    )
    args = ap.parse_args()
    global PROFILE_DIR, CLAIM
    PROFILE_DIR = "debug" if args.profile == "dev" else args.profile
    CLAIM = os.path.join(TARGET, "pgo", "dist", "claim_batch") if args.pgo else os.path.join(TARGET, PROFILE_DIR, "claim_batch")
    setup(args.profile, args.pgo)
    rows = []
    for n in args.modules:
        corpus = os.path.join(TARGET, "bench-corpus", str(n))
        sh([os.path.join(TARGET, PROFILE_DIR, "claim_bench"), "corpus", "--modules", str(n), "--out", corpus], stdout=subprocess.DEVNULL)
        ts = {k: v for k, v in tools(corpus).items() if k in args.tools}
        walls = {k: [] for k in ts}
        stolen = {k: [] for k in ts}
        counts = {}
        for _ in range(args.rounds):
            for name, (cmd, cwd, reads) in ts.items():
                if args.warm:
                    warm(reads)
                before = steal_seconds()
                wall, out = run(cmd, cwd)
                after = steal_seconds()
                walls[name].append(wall)
                if before is not None and after is not None:
                    stolen[name].append(after - before)
                counts[name] = passed(name, out)
        total = counts.get("claim", (None, None))[1]
        for name, (n_pass, _) in counts.items():
            if total is not None and n_pass != total:
                sys.exit(f"{name} passed {n_pass} checks of {total} at {n} modules")
        rss = {name: peak_rss_mb(cmd, cwd) for name, (cmd, cwd, _) in ts.items()}
        med = {k: statistics.median(v) for k, v in walls.items()}
        for name in ts:
            ratio = med[name] / med["claim"] if "claim" in med else float("nan")
            steal = f"{statistics.median(stolen[name]):.2f} s" if stolen[name] else "n/a"
            rows.append((n, total, name, med[name], min(walls[name]), rss[name], ratio, steal))
    print(f"claim built with --profile {'dist and PGO (scripts/build-dist)' if args.pgo else args.profile}")
    print("each tool's inputs read right before each of its timed runs" if args.warm else "no warming (--no-warm)")
    print(f"| modules | checks | tool | wall (median of {args.rounds}) | best | peak RSS | time / claim's | host steal |")
    print("| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for n, total, name, m, best, r, ratio, steal in rows:
        print(f"| {n} | {total} | {name} | {m:.3f} s | {best:.3f} s | {r:.0f} MB | {ratio:.2f} | {steal} |")


if __name__ == "__main__":
    main()
