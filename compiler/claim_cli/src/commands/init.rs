//! `claimc init [DIR]`: a new project that `claim_batch` runs green at
//! once: `Claim.toml` (the project root), a build receipt, a first claim
//! over it (a typed record, a fact that loads it, a witness that holds, a
//! witness that states a wrong receipt is refused, a frontier), and the
//! GitHub Actions job that runs it on every pull request. It writes nothing
//! over a file that is there: an existing project is left as it is.

use crate::Output;
use std::path::Path;

/// The files of a new project, by their path below it.
const FILES: &[(&str, &str)] = &[
    (
        "Claim.toml",
        "# The root of a Claim project: `use a.b` reads `a/b.claim` from here,\n\
         # and a path starting with `//` in a fact is relative to this folder.\n",
    ),
    (
        "receipts/build.json",
        "{\n  \"image\": \"ghcr.io/example/app:1.0.0\",\n  \"config\": \"sha256:ea39410ed01d396caad86339d877c1adb181a983baadffd22c722069109ea664\",\n  \"commit\": \"5ec6a9953ad5d39120298bbfc26e95a6fa4b1dc3\",\n  \"pushed\": false\n}\n",
    ),
    (
        "claims/build.claim",
        r#"// What this repository claims about the image it builds. Each witness
// runs in CI (`claim_batch claims`); a wrong receipt fails it with a
// diagnostic that points into the receipt.

use std.oci.{ConfigDigest}

/// The receipt the build job writes (`receipts/build.json`).
record BuildReceipt { image: Text, config: ConfigDigest, commit: Sha1, pushed: Bool }

refusal WrongImage "the receipt names another image than the one released"

fact build: BuildReceipt = load("//receipts/build.json")

/// The image this repository releases, by its config digest.
fact released: ConfigDigest = sha256:ea39410ed01d396caad86339d877c1adb181a983baadffd22c722069109ea664

fn image_of(r: BuildReceipt) -> ConfigDigest {
  require r.config == released else refuse WrongImage "{r.config} is not the released image";
  r.config
}

witness the_build_is_the_released_image {
  holds image_of(build) == released
}

witness a_receipt_of_another_image_is_refused {
  refuses image_of(BuildReceipt {
    image: build.image,
    config: sha256:0000000000000000000000000000000000000000000000000000000000000000,
    commit: build.commit,
    pushed: false,
  })
    with WrongImage
}

frontier publication {
  "The image is built, not yet pushed: it has no manifest digest a registry knows it by."
  dissolves when build.pushed
}
"#,
    ),
    (
        ".github/workflows/claims.yml",
        "name: claims\n\
         on: [pull_request, push]\n\
         jobs:\n\
         \x20 claims:\n\
         \x20   runs-on: ubuntu-24.04\n\
         \x20   steps:\n\
         \x20     - uses: actions/checkout@v4\n\
         \x20     # Install `claim_batch` as your team installs tools, e.g. from\n\
         \x20     # Claim's repository: cargo install --locked --path compiler/claim_cli\n\
         \x20     - name: Witnesses, annotated on the pull request\n\
         \x20       run: claim_batch --entry claims --format github --deny-warnings\n",
    ),
];

/// Writes a new project into `dir` (made where it is not there).
pub fn init(dir: &Path) -> Output {
    let fail =
        |message: String| Output { stdout: String::new(), stderr: format!("error[E0901]: {message}\n"), code: 2 };
    let there: Vec<&str> = FILES.iter().map(|(p, _)| *p).filter(|p| dir.join(p).symlink_metadata().is_ok()).collect();
    if !there.is_empty() {
        return fail(format!(
            "`{}` already holds {}; `claimc init` writes nothing over a file",
            crate::project::display_name(dir),
            there.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ")
        ));
    }
    let mut out = String::new();
    for (path, text) in FILES {
        let target = dir.join(path);
        let written = target
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::OpenOptions::new().write(true).create_new(true).open(&target))
            .and_then(|mut f| std::io::Write::write_all(&mut f, text.as_bytes()));
        if let Err(e) = written {
            return fail(format!("cannot write `{}`: {e}", target.display()));
        }
        out.push_str(&format!("wrote {}\n", Path::new(path).display()));
    }
    out.push_str("\nnext: claim_batch claims\n");
    Output { stdout: out, stderr: String::new(), code: 0 }
}
