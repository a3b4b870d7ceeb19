//! Published test data held to what its publishers expect, each set under
//! `tests/data/` with its SOURCE and licence: the DSSE protocol's test
//! vectors, keyed bundles of the Sigstore client conformance suite, the
//! SLSA provenance of real builds slsa-verifier tests itself against, and
//! the provenance examples of the SLSA specification.

mod common;

use base64::Engine as _;
use std::path::Path;

/// An Ed25519 public key as a PEM SubjectPublicKeyInfo.
fn ed25519_pem(public_hex: &str) -> String {
    let mut der = vec![0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00];
    der.extend((0..public_hex.len()).step_by(2).map(|i| u8::from_str_radix(&public_hex[i..i + 2], 16).expect("hex")));
    format!(
        "-----BEGIN PUBLIC KEY-----\n{}\n-----END PUBLIC KEY-----\n",
        base64::engine::general_purpose::STANDARD.encode(der)
    )
}

#[test]
fn dsse_accepts_and_rejects_as_the_protocols_vectors_say() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/dsse-vectors/vectors.json");
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(data).expect("vectors")).expect("json");
    let dir = common::project_dir("vectors", "dsse", &[]);
    std::fs::create_dir_all(&dir).expect("mkdir");
    let mut main = String::from("use std.dsse.{PublicKey, public_key, dsse}\nuse std.world\n");
    for (name, key) in doc["keys"].as_object().expect("keys") {
        std::fs::write(dir.join(format!("{name}.pub")), ed25519_pem(key["public"].as_str().expect("public")))
            .expect("key");
        main.push_str(&format!("fact key_{name}: PublicKey = public_key(\"{name}.pub\")\n"));
    }
    let in_toto = "application/vnd.in-toto+json";
    let mut expected = Vec::new();
    for (i, v) in doc["vectors"].as_array().expect("vectors").iter().enumerate() {
        std::fs::write(dir.join(format!("v{i}.json")), v["envelope"].to_string()).expect("envelope");
        let keys: Vec<String> = v["trustedKeys"]
            .as_array()
            .expect("keys")
            .iter()
            .map(|k| format!("key_{}", k.as_str().unwrap_or("")))
            .collect();
        main.push_str(&format!("fact v{i}: Json = dsse(\"v{i}.json\", [{}], {})\n", keys.join(", "), v["threshold"]));
        // What Claim must do: accept where the vector accepts an in-toto
        // payload (a payload that verifies but is not JSON then refuses
        // `NotJson`: the signature was accepted, the receipt is not one);
        // refuse any other payload type (Claim reads in-toto only); and
        // refuse where the vector rejects.
        let payload_type = v["envelope"]["payloadType"].as_str().unwrap_or("");
        let payload = base64::engine::general_purpose::STANDARD
            .decode(v["envelope"]["payload"].as_str().unwrap_or(""))
            .or_else(|_| {
                base64::engine::general_purpose::URL_SAFE.decode(v["envelope"]["payload"].as_str().unwrap_or(""))
            })
            .unwrap_or_default();
        let is_json = serde_json::from_slice::<serde_json::Value>(&payload).is_ok();
        let stmt = match (v["expect"].as_str(), payload_type == in_toto, is_json) {
            (Some("accept"), true, true) => format!("holds v{i} == v{i}"),
            (Some("accept"), true, false) => format!("refuses v{i} with NotJson"),
            (_, false, _) => format!("refuses v{i} with PayloadTypeUnsupported"),
            _ => format!("refuses v{i} with ThresholdUnmet"),
        };
        expected.push(format!("witness vector_{} {{ {stmt} }}\n", v["id"].as_str().unwrap_or("").replace('-', "_")));
    }
    main.extend(expected);
    std::fs::write(dir.join("main.claim"), &main).expect("main");
    let (code, out) = common::batch_in(&dir);
    assert_eq!(code, 0, "{main}\n{out}");
    assert!(out.contains("9/9 PASS"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Copies a folder of test data into `to`.
fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read") {
        let entry = entry.expect("entry");
        let path = entry.path();
        if path.is_dir() {
            copy(&path, &to.join(entry.file_name()));
        } else {
            std::fs::copy(&path, to.join(entry.file_name())).expect("copy");
        }
    }
}

#[test]
fn keyed_sigstore_bundles_of_the_conformance_suite_verify_or_refuse_by_their_names() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/sigstore-conformance");
    let dir = common::project_dir("vectors", "sigstore", &[]);
    copy(&data, &dir);
    let main = "use std.dsse.{PublicKey, public_key, dsse}\n\
        use std.intoto.{Statement, statement_of, subject_named, sha256_of}\n\
        use std.world\n\
        fact good_key: PublicKey = public_key(\"intoto-canonical-log-entry/key.pub\")\n\
        fact missing_key: PublicKey = public_key(\"dsse-statement-missing-type_fail/key.pub\")\n\
        fact unknown_key: PublicKey = public_key(\"dsse-statement-unknown-type_fail/key.pub\")\n\
        fact good: Statement = dsse(\"intoto-canonical-log-entry/bundle.sigstore.json\", [good_key], 1)\n\
        fact good_under_another_key: Statement = dsse(\"intoto-canonical-log-entry/bundle.sigstore.json\", [missing_key], 1)\n\
        fact missing_type: Statement = dsse(\"dsse-statement-missing-type_fail/bundle.sigstore.json\", [missing_key], 1)\n\
        fact unknown_type: Statement = dsse(\"dsse-statement-unknown-type_fail/bundle.sigstore.json\", [unknown_key], 1)\n\
        witness the_happy_bundle_names_a_txt {\n\
          holds sha256_of(subject_named(statement_of(good, \"https://example.com/test\"), \"a.txt\"))\n\
            == sha256:a0cfc71271d6e278e57cd332ff957c3f7043fdda354c4cbb190a30d56efa01bf\n\
        }\n\
        witness another_key_does_not_verify_it { refuses good_under_another_key with ThresholdUnmet }\n\
        witness a_statement_without_its_type_is_refused { refuses missing_type with JsonShape }\n\
        witness a_statement_of_another_type_is_refused {\n\
          refuses statement_of(unknown_type, \"https://example.com/test\") with NotAStatement\n\
        }\n";
    std::fs::write(dir.join("main.claim"), main).expect("main");
    let (code, out) = common::batch_in(&dir);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("4/4 PASS"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The payload of a DSSE envelope (a Sigstore bundle's, or one bare),
/// decoded: the statement it carries, as its signer wrote it.
fn payload_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("envelope");
    let doc: serde_json::Value = serde_json::from_str(text.lines().next().unwrap_or("")).expect("json");
    let envelope = doc.get("dsseEnvelope").unwrap_or(&doc);
    let payload = envelope["payload"].as_str().expect("payload");
    String::from_utf8(base64::engine::general_purpose::STANDARD.decode(payload).expect("base64")).expect("utf-8")
}

#[test]
fn slsa_verifiers_provenance_of_real_builds_is_judged_by_a_policy_written_in_claim() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/slsa-verifier");
    let dir = common::project_dir("vectors", "slsa-verifier", &[]);
    copy(&data, &dir);
    // The statements, decoded here: Claim reads a payload only through
    // `dsse`, which verifies it first, and these are signed by Fulcio
    // certificates Claim has no trusted root for. What Claim's library
    // judges below is the statements as the real builders wrote them.
    std::fs::create_dir_all(dir.join("statements")).expect("mkdir");
    for (name, envelope) in [
        ("bcr", "bcr/MODULE.bazel.intoto.jsonl"),
        ("container", "gha_container-based/v2.1.0/binary-linux-amd64-workflow_dispatch.intoto.build.slsa"),
        ("delegator", "gha_delegator/v1.10.0/binary-linux-amd64-workflow_dispatch.build.slsa"),
        ("untrusted_builder", "binary-linux-amd64-untrusted-builder.intoto.jsonl"),
    ] {
        std::fs::write(dir.join(format!("statements/{name}.json")), payload_of(&data.join(envelope))).expect("write");
    }
    let container: serde_json::Value = serde_json::from_str(&payload_of(
        &data.join("gha_container-based/v2.1.0/binary-linux-amd64-workflow_dispatch.intoto.build.slsa"),
    ))
    .expect("statement");
    let container_parameters = &container["predicate"]["buildDefinition"]["externalParameters"];
    // The policies a consumer would write: the builder each verifier test
    // names, exactly; the build type; and the external parameters (for the
    // container build, those it ran with: slsa-verifier's test pins the
    // source only, Claim pins them all, as SLSA's verification guidance says).
    let policies = [
        (
            "bcr",
            serde_json::json!({
                "builders": ["https://github.com/bazel-contrib/publish-to-bcr/.github/workflows/publish.yaml@refs/tags/v0.0.1"],
                "build_type": "https://actions.github.io/buildtypes/workflow/v1",
                "external_parameters": {"workflow": {"ref": "refs/heads/publish-to-bcr", "repository": "https://github.com/aspect-build/rules_lint", "path": ".github/workflows/release.yml"}},
            }),
        ),
        (
            "container",
            serde_json::json!({
                "builders": ["https://github.com/slsa-framework/slsa-github-generator/.github/workflows/builder_container-based_slsa3.yml@refs/tags/v2.1.0"],
                "build_type": "https://slsa.dev/container-based-build/v0.1?draft",
                "external_parameters": container_parameters,
            }),
        ),
        (
            "delegator",
            serde_json::json!({
                "builders": ["https://github.com/slsa-framework/example-trw/.github/workflows/builder_high-perms_slsa3.yml@refs/tags/v1.10.0"],
                "build_type": "https://github.com/slsa-framework/slsa-github-generator/delegator-generic@v0",
                "external_parameters": {"inputs": {"artifact": "gha_delegator-binary-linux-amd64-workflow_dispatch", "content": "hello", "username": "***", "rekor-log-public": false}, "vars": {}},
            }),
        ),
        (
            // The delegator's builder without its ref: slsa-verifier takes
            // a builder id without `@ref` as any ref of it; Claim compares
            // exactly, so it trusts no build of this builder.
            "delegator_any_ref",
            serde_json::json!({
                "builders": ["https://github.com/slsa-framework/example-trw/.github/workflows/builder_high-perms_slsa3.yml"],
                "build_type": "https://github.com/slsa-framework/slsa-github-generator/delegator-generic@v0",
                "external_parameters": {"inputs": {"artifact": "gha_delegator-binary-linux-amd64-workflow_dispatch", "content": "hello", "username": "***", "rekor-log-public": false}, "vars": {}},
            }),
        ),
    ];
    std::fs::create_dir_all(dir.join("policies")).expect("mkdir");
    for (name, policy) in &policies {
        std::fs::write(dir.join(format!("policies/{name}.json")), policy.to_string()).expect("policy");
    }
    std::fs::write(
        dir.join("unrelated.pub"),
        ed25519_pem("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"),
    )
    .expect("key");
    let main = r#"use std.dsse.{PublicKey, dsse, public_key}
use std.slsa.{Policy, ProvenanceStatement, dependency, subject_for, trusted}
use std.intoto.{git_commit_of, sha256_set}
use std.world

fact key: PublicKey = public_key("unrelated.pub")
fact bcr_signed: ProvenanceStatement = dsse("bcr/MODULE.bazel.intoto.jsonl", [key], 1)
fact wrong_signer_signed: ProvenanceStatement = dsse("bcr/MODULE-wrong-signer.bazel.intoto.jsonl", [key], 1)
fact container_signed: ProvenanceStatement = dsse(
  "gha_container-based/v2.1.0/binary-linux-amd64-workflow_dispatch.intoto.build.slsa", [key], 1)
fact delegator_signed: ProvenanceStatement = dsse(
  "gha_delegator/v1.10.0/binary-linux-amd64-workflow_dispatch.build.slsa", [key], 1)
fact untrusted_builder_signed: ProvenanceStatement = dsse("binary-linux-amd64-untrusted-builder.intoto.jsonl", [key], 1)

fact bcr: ProvenanceStatement = load("statements/bcr.json")
fact container: ProvenanceStatement = load("statements/container.json")
fact delegator: ProvenanceStatement = load("statements/delegator.json")
fact untrusted_builder: ProvenanceStatement = load("statements/untrusted_builder.json")
fact bcr_policy: Policy = load("policies/bcr.json")
fact container_policy: Policy = load("policies/container.json")
fact delegator_policy: Policy = load("policies/delegator.json")
fact delegator_any_ref: Policy = load("policies/delegator_any_ref.json")

fact module_file: Sha256 = file_sha256("bcr/MODULE.bazel")
fact container_binary: Sha256 = file_sha256("gha_container-based/v2.1.0/binary-linux-amd64-workflow_dispatch")
fact delegator_binary: Sha256 = file_sha256("gha_delegator/v1.10.0/binary-linux-amd64-workflow_dispatch")

// Signed by a Fulcio certificate: without a trusted root, never a pass,
// the bundles slsa-verifier accepts as much as the one it refuses.
witness keyless_bundles_are_never_a_pass {
  refuses bcr_signed with KeylessUnsupported
  refuses wrong_signer_signed with KeylessUnsupported
  refuses container_signed with KeylessUnsupported
  refuses delegator_signed with KeylessUnsupported
}

witness an_envelope_no_given_key_signed_is_refused {
  refuses untrusted_builder_signed with ThresholdUnmet
}

witness the_bcr_module_is_the_subject_and_its_commit_is_pinned {
  let t = trusted(bcr, bcr_policy)
  holds subject_for(t, sha256_set(module_file)).name == Some("MODULE.bazel")
  holds git_commit_of(dependency(t, "git+https://github.com/aspect-build/rules_lint@refs/heads/publish-to-bcr"))
    == sha1:8f70009fde0c94ade6ce2a054b94718c819126ec
}

witness the_container_based_build_made_its_binary {
  holds subject_for(trusted(container, container_policy), sha256_set(container_binary)).name
    == Some("gha_container-based-binary-linux-amd64-workflow_dispatch")
}

witness the_delegated_build_made_its_binary {
  holds subject_for(trusted(delegator, delegator_policy), sha256_set(delegator_binary)).name
    == Some("gha_delegator-binary-linux-amd64-workflow_dispatch")
}

witness another_artifact_is_not_the_subject {
  refuses subject_for(trusted(container, container_policy), sha256_set(module_file)) with SubjectUnbound
}

witness a_builder_the_policy_does_not_name_is_untrusted {
  refuses trusted(delegator, container_policy) with BuilderUntrusted
  refuses trusted(delegator, delegator_any_ref) with BuilderUntrusted
}

witness another_builds_parameters_are_unexpected {
  refuses trusted(bcr, Policy {
    builders: bcr_policy.builders,
    build_type: bcr_policy.build_type,
    external_parameters: container_policy.external_parameters,
  }) with ExternalParametersUnexpected
}

witness provenance_v0_2_is_not_read_as_v1 {
  refuses untrusted_builder with JsonShape
}
"#;
    std::fs::write(dir.join("main.claim"), main).expect("main");
    let (code, out) = common::batch_in(&dir);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("9/9 PASS"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_slsa_specifications_examples_read_as_provenance_and_are_refused_as_drafts() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/slsa-spec");
    let dir = common::project_dir("vectors", "slsa-spec", &[]);
    copy(&data, &dir);
    let policy = serde_json::json!({
        "builders": ["https://github.com/slsa-framework/slsa-github-generator/.github/workflows/builder_go_slsa3.yml@refs/tags/v0.0.1"],
        "build_type": "https://slsa.dev/github-actions-workflow/v1?draft",
        "external_parameters": {
            "inputs": {"build_id": 123456768, "deploy_target": "deployment_sys_1a", "perform_deploy": "true"},
            "vars": {"MASCOT": "Mona"},
            "workflow": {"ref": "refs/heads/main", "repository": "https://github.com/octocat/hello-world", "path": ".github/workflow/release.yml"},
        },
    });
    std::fs::write(dir.join("policy.json"), policy.to_string()).expect("policy");
    let main = r#"use std.slsa.{Policy, ProvenanceStatement, dependency, subject_for, trusted}
use std.intoto.{git_commit_of, sha256_set}
use std.world

fact gha: ProvenanceStatement = load("github-actions-workflow-v1.json")
fact gcb: ProvenanceStatement = load("gcb-triggered-build-v1.json")
fact policy: Policy = load("policy.json")

witness the_draft_statement_reads_and_is_refused_as_a_draft {
  holds gha.predicate.run_details.builder.id
    == "https://github.com/slsa-framework/slsa-github-generator/.github/workflows/builder_go_slsa3.yml@refs/tags/v0.0.1"
  refuses trusted(gha, policy) with NotAStatement
  refuses trusted(ProvenanceStatement {
    kind: "https://in-toto.io/Statement/v1",
    subject: gha.subject,
    predicate_type: gha.predicate_type,
    predicate: gha.predicate,
  }, policy) with BuildTypeUnexpected
}

witness with_the_final_types_a_policy_trusts_it {
  let t = trusted(ProvenanceStatement {
    kind: "https://in-toto.io/Statement/v1",
    subject: gha.subject,
    predicate_type: "https://slsa.dev/provenance/v1",
    predicate: gha.predicate,
  }, policy)
  holds git_commit_of(dependency(t, "git+https://github.com/octocat/hello-world@refs/heads/main"))
    == sha1:c27d339ee6075c1f744c5d4b200f7901aad2c369
  holds subject_for(t, sha256_set(sha256:fe4fe40ac7250263c5dbe1cf3138912f3f416140aa248637a60d65fe22c47da4)).name
    == Some("_")
}

witness a_predicate_without_its_builder_does_not_decode {
  refuses gcb with JsonShape
}
"#;
    std::fs::write(dir.join("main.claim"), main).expect("main");
    let (code, out) = common::batch_in(&dir);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("3/3 PASS"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
