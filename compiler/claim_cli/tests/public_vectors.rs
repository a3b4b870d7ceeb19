//! Published test data held to what its publishers expect, each set under
//! `tests/data/` with its SOURCE and licence: the DSSE protocol's test
//! vectors, and keyed bundles of the Sigstore client conformance suite.

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
