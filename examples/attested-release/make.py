#!/usr/bin/env python3
"""Makes this example's inputs, as a release pipeline would: the source
checkout and its git repository, a multi-platform OCI image layout, the
buildx metadata of its push, and SLSA provenance v1 signed in a DSSE
envelope by the example's release key; then the tampered copies its
witnesses must refuse. Run it again to make everything anew (the keys are
kept, so the committed envelopes stay verifiable by the committed keys):

    python3 examples/attested-release/make.py

Needs git and openssl. THE KEYS IN keys/ ARE TEST KEYS, published with this
example: never trust them for anything."""

import base64, hashlib, io, json, os, shutil, subprocess, tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
os.chdir(HERE)
ENV = dict(os.environ, GIT_AUTHOR_NAME="Release Bot", GIT_AUTHOR_EMAIL="bot@example.com",
           GIT_COMMITTER_NAME="Release Bot", GIT_COMMITTER_EMAIL="bot@example.com",
           GIT_AUTHOR_DATE="2026-11-30T12:00:00Z", GIT_COMMITTER_DATE="2026-11-30T12:00:00Z",
           GIT_CONFIG_NOSYSTEM="1", HOME=HERE)
REPO_URI = "git+https://git.example.com/attested/app"
IMAGE = "registry.example.com/attested/app"
BUILDER = "https://ci.example.com/attested/app/.ci/release.yml@refs/heads/main"
BUILD_TYPE = "https://mobyproject.org/buildkit@v1"
PARAMS = {"source": REPO_URI + "@refs/heads/main", "platforms": "linux/amd64,linux/arm64/v8"}


def run(*args, cwd=HERE, input=None):
    return subprocess.run(args, cwd=cwd, env=ENV, check=True, capture_output=True, input=input).stdout


def sha(b):
    return hashlib.sha256(b).hexdigest()


def source():
    """source/ (the checkout) and source.git (its repository, bare): two
    commits, the second's tree being source/'s."""
    for d in ("source", "source.git", "tmp-repo"):
        shutil.rmtree(d, ignore_errors=True)
    os.makedirs("tmp-repo/src")
    with open("tmp-repo/README.md", "w") as f:
        f.write("# app\n")
    run("git", "init", "-q", "-b", "main", cwd="tmp-repo")
    run("git", "add", "-A", cwd="tmp-repo")
    run("git", "commit", "-q", "-m", "start", cwd="tmp-repo")
    with open("tmp-repo/src/main.py", "w") as f:
        f.write("print('serving')\n")
    run("git", "add", "-A", cwd="tmp-repo")
    run("git", "commit", "-q", "-m", "serve", cwd="tmp-repo")
    commit = run("git", "rev-parse", "HEAD", cwd="tmp-repo").decode().strip()
    run("git", "clone", "-q", "--bare", "--no-local", "tmp-repo", "source.git")
    for extra in ("hooks", "info", "description", "logs", "packed-refs", "FETCH_HEAD"):
        p = os.path.join("source.git", extra)
        shutil.rmtree(p, ignore_errors=True) if os.path.isdir(p) else (os.path.exists(p) and os.remove(p))
    os.makedirs("source/src")
    shutil.copy("tmp-repo/README.md", "source/README.md")
    shutil.copy("tmp-repo/src/main.py", "source/src/main.py")
    shutil.rmtree("tmp-repo")
    return commit


def layer(text):
    """An uncompressed tar of one file, byte for byte the same each run."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as t:
        data = text.encode()
        info = tarfile.TarInfo("app/main.py")
        info.size, info.mtime, info.mode = len(data), 0, 0o644
        t.addfile(info, io.BytesIO(data))
    return out.getvalue()


class Layout:
    def __init__(self, root):
        self.root = root
        self.configs = {}  # manifest digest -> config digest
        shutil.rmtree(root, ignore_errors=True)
        os.makedirs(os.path.join(root, "blobs/sha256"))

    def put(self, media_type, data):
        d = sha(data)
        with open(os.path.join(self.root, "blobs/sha256", d), "wb") as f:
            f.write(data)
        return {"mediaType": media_type, "digest": "sha256:" + d, "size": len(data)}

    def image(self, os_, arch, variant=None):
        tar = layer(f"print('serving on {arch}')\n")
        config = {"architecture": arch, "os": os_, "config": {"Labels": {"org.opencontainers.image.source": REPO_URI}},
                  "rootfs": {"type": "layers", "diff_ids": ["sha256:" + sha(tar)]}}
        if variant:
            config["variant"] = variant
        cfg = self.put("application/vnd.oci.image.config.v1+json", json.dumps(config, sort_keys=True).encode())
        lay = self.put("application/vnd.oci.image.layer.v1.tar", tar)
        manifest = {"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json", "config": cfg, "layers": [lay]}
        desc = self.put("application/vnd.oci.image.manifest.v1+json", json.dumps(manifest, sort_keys=True).encode())
        self.configs[desc["digest"]] = cfg["digest"]
        desc["platform"] = {"os": os_, "architecture": arch, **({"variant": variant} if variant else {})}
        return desc

    def index(self, manifests, tag):
        index = {"schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json", "manifests": manifests}
        desc = self.put("application/vnd.oci.image.index.v1+json", json.dumps(index, sort_keys=True).encode())
        top = dict(desc, annotations={"org.opencontainers.image.ref.name": tag})
        with open(os.path.join(self.root, "index.json"), "w") as f:
            json.dump({"schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json", "manifests": [top]}, f, sort_keys=True)
        with open(os.path.join(self.root, "oci-layout"), "w") as f:
            f.write('{"imageLayoutVersion": "1.0.0"}')
        return desc


def keys():
    os.makedirs("keys", exist_ok=True)
    for name in ("release", "attacker"):
        if not os.path.exists(f"keys/{name}.test-only.pem"):
            run("openssl", "genpkey", "-algorithm", "ed25519", "-out", f"keys/{name}.test-only.pem")
        run("openssl", "pkey", "-in", f"keys/{name}.test-only.pem", "-pubout", "-out", f"keys/{name}.pub")


def envelope(path, statement, key):
    payload = json.dumps(statement, indent=2, sort_keys=True).encode()
    t = "application/vnd.in-toto+json"
    pae = b"DSSEv1 %d %s %d " % (len(t), t.encode(), len(payload)) + payload
    with open("pae.tmp", "wb") as f:
        f.write(pae)
    sig = run("openssl", "pkeyutl", "-sign", "-inkey", f"keys/{key}.test-only.pem", "-rawin", "-in", "pae.tmp")
    os.remove("pae.tmp")
    env = {"payloadType": t, "payload": base64.b64encode(payload).decode(),
           "signatures": [{"keyid": "", "sig": base64.b64encode(sig).decode()}]}
    with open(path, "w") as f:
        json.dump(env, f, indent=2)
        f.write("\n")


def provenance(index_digest, commit, builder=BUILDER, params=PARAMS):
    return {
        "_type": "https://in-toto.io/Statement/v1",
        "subject": [{"name": IMAGE, "digest": {"sha256": index_digest}}],
        "predicateType": "https://slsa.dev/provenance/v1",
        "predicate": {
            "buildDefinition": {
                "buildType": BUILD_TYPE,
                "externalParameters": params,
                "resolvedDependencies": [{"uri": REPO_URI, "digest": {"gitCommit": commit}}],
            },
            "runDetails": {"builder": {"id": builder}, "metadata": {"invocationId": "release-118"}},
        },
    }


def main():
    commit = source()
    keys()
    layout = Layout("layout")
    amd, arm = layout.image("linux", "amd64"), layout.image("linux", "arm64", "v8")
    index = layout.index([amd, arm], "v1")
    index_hex = index["digest"][7:]
    with open("buildx-metadata.json", "w") as f:
        json.dump({"buildx.build.ref": "builder/builder0/xyz", "containerimage.descriptor": index,
                   "containerimage.digest": index["digest"], "image.name": IMAGE + ":v1"}, f, indent=2, sort_keys=True)
        f.write("\n")
    envelope("provenance.intoto.json", provenance(index_hex, commit), "release")
    # The deployment repository's bindings: each fleet runs the image whose
    # config digest it names (a manifest or index digest is never one).
    with open("deployments.json", "w") as f:
        json.dump([{"image": layout.configs[amd["digest"]], "arm": "x86-fleet", "evidence": "deploy PR 41"},
                   {"image": layout.configs[arm["digest"]], "arm": "arm-fleet", "evidence": "deploy PR 41"}], f, indent=2)
        f.write("\n")
    shutil.rmtree("tampered", ignore_errors=True)
    os.makedirs("tampered")
    other = "0" * 63 + "1"
    envelope("tampered/another-subject.intoto.json", provenance(other, commit), "release")
    envelope("tampered/wrong-key.intoto.json", provenance(index_hex, commit), "attacker")
    envelope("tampered/another-builder.intoto.json",
             provenance(index_hex, commit, builder="https://ci.example.com/forks/app/.ci/release.yml@refs/heads/main"), "release")
    envelope("tampered/extra-parameter.intoto.json",
             provenance(index_hex, commit, params=dict(PARAMS, **{"build-arg:PIP_INDEX_URL": "https://pypi.example.net"})), "release")
    # The layout with its arm64 entry pointing at the amd64 image.
    swapped = Layout("tampered/layout-swapped")
    a, b = swapped.image("linux", "amd64"), swapped.image("linux", "arm64", "v8")
    swapped.index([a, dict(a, platform=b["platform"])], "v1")
    # A checkout that is not the commit: one file edited after it.
    shutil.copytree("source", "tampered/source-edited")
    with open("tampered/source-edited/src/main.py", "a") as f:
        f.write("print('and a backdoor')\n")
    print(f"commit {commit}; index sha256:{index_hex}")


main()
