//! Published test data held to what its publishers expect: the DSSE
//! protocol's test vectors (`tests/data/dsse-vectors`, with its SOURCE and
//! licence). Each key is written as a PEM SubjectPublicKeyInfo and each
//! envelope as a file; `dsse` must accept what the vectors accept and
//! refuse what they reject.

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
