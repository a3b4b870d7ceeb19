//! `public_key` and `dsse` (§6) against envelopes signed by openssl: keys
//! made by `openssl genpkey`, signatures over DSSE's pre-authentication
//! encoding by `openssl pkeyutl` (Ed25519) and `openssl dgst -sha256`
//! (ECDSA P-256, DER), key ids compared with `openssl pkey -outform DER |
//! sha256sum`; then every way an envelope must be refused.

mod common;

use base64::Engine as _;
use std::path::Path;
use std::process::Command;

fn openssl(dir: &Path, args: &[&str]) -> Vec<u8> {
    let out = Command::new("openssl").args(args).current_dir(dir).output().expect("openssl");
    assert!(out.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

const PAYLOAD_TYPE: &str = "application/vnd.in-toto+json";

fn pae(payload_type: &str, body: &[u8]) -> Vec<u8> {
    let mut out = format!("DSSEv1 {} {payload_type} {} ", payload_type.len(), body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

/// Signs `message` with the private key `key` (a PEM file in `dir`).
fn sign(dir: &Path, key: &str, message: &[u8], ecdsa: bool) -> Vec<u8> {
    std::fs::write(dir.join("message.bin"), message).expect("message");
    if ecdsa {
        openssl(dir, &["dgst", "-sha256", "-sign", key, "message.bin"])
    } else {
        openssl(dir, &["pkeyutl", "-sign", "-inkey", key, "-rawin", "-in", "message.bin"])
    }
}

struct Keys {
    ed_id: String,
    ec_id: String,
}

/// `ed.pem`/`ed.pub` (Ed25519) and `ec.pem`/`ec.pub` (P-256) in `dir`.
fn keys(dir: &Path) -> Keys {
    std::fs::create_dir_all(dir).expect("mkdir");
    openssl(dir, &["genpkey", "-algorithm", "ed25519", "-out", "ed.pem"]);
    openssl(dir, &["pkey", "-in", "ed.pem", "-pubout", "-out", "ed.pub"]);
    openssl(dir, &["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "ec.pem"]);
    openssl(dir, &["pkey", "-in", "ec.pem", "-pubout", "-out", "ec.pub"]);
    let id = |public: &str| {
        use sha2::Digest as _;
        let der = openssl(dir, &["pkey", "-pubin", "-in", public, "-outform", "DER"]);
        sha2::Sha256::digest(&der).iter().map(|b| format!("{b:02x}")).collect::<String>()
    };
    Keys { ed_id: id("ed.pub"), ec_id: id("ec.pub") }
}

fn statement(digest: &str) -> Vec<u8> {
    format!(
        r#"{{"_type": "https://in-toto.io/Statement/v1", "subject": [{{"name": "app", "digest": {{"sha256": "{digest}"}}}}], "predicateType": "https://slsa.dev/provenance/v1", "predicate": {{"buildDefinition": {{"buildType": "https://example.com/build/v1"}}}}}}"#
    )
    .into_bytes()
}

fn envelope(payload_type: &str, body: &[u8], sigs: &[(Option<&str>, Vec<u8>)], url_safe: bool) -> String {
    let b64 = |b: &[u8]| match url_safe {
        true => base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b),
        false => base64::engine::general_purpose::STANDARD.encode(b),
    };
    let signatures: Vec<serde_json::Value> = sigs
        .iter()
        .map(|(keyid, sig)| match keyid {
            Some(k) => serde_json::json!({"keyid": k, "sig": b64(sig)}),
            None => serde_json::json!({"sig": b64(sig)}),
        })
        .collect();
    serde_json::json!({"payloadType": payload_type, "payload": b64(body), "signatures": signatures}).to_string()
}

const RECORDS: &str = "use std.dsse.{PublicKey, public_key, dsse}\nuse std.world\n\
    record Digests { sha256: Text }\n\
    record Subject { name: Text, digest: Digests }\n\
    @json(camelCase) record Statement { @json(\"_type\") kind: Text, subject: List<Subject>, predicate_type: Text, predicate: Json }\n\
    fact ed: PublicKey = public_key(\"ed.pub\")\n\
    fact ec: PublicKey = public_key(\"ec.pub\")\n";

#[test]
fn envelopes_signed_by_openssl_verify_and_every_spoiled_one_is_refused() {
    if Command::new("openssl").arg("version").output().is_err() {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CI must have openssl");
        return;
    }
    let dir = common::project_dir("dsse", "openssl", &[]);
    let k = keys(&dir);
    let body = statement("6554bf8ef2fcfd2bb506d45f7bd93e84e332d96c3060b3ee3dfbb48504e20634");
    let message = pae(PAYLOAD_TYPE, &body);
    let ed_sig = sign(&dir, "ed.pem", &message, false);
    let ec_sig = sign(&dir, "ec.pem", &message, true);
    let write = |name: &str, text: String| std::fs::write(dir.join(name), text).expect("write");
    // Signed by both keys; the keyid hints are wrong, and are ignored.
    write(
        "both.json",
        envelope(PAYLOAD_TYPE, &body, &[(Some("nobody"), ed_sig.clone()), (None, ec_sig.clone())], false),
    );
    // The URL-safe alphabet, unpadded; the ECDSA signature as raw r‖s.
    let raw = p256::ecdsa::Signature::from_der(&ec_sig).expect("DER").to_bytes().to_vec();
    write("url-safe.json", envelope(PAYLOAD_TYPE, &body, &[(None, raw)], true));
    // One key signing twice does not meet a threshold of two.
    write("twice.json", envelope(PAYLOAD_TYPE, &body, &[(None, ed_sig.clone()), (None, ed_sig.clone())], false));
    // The payload changed after signing.
    let tampered = statement("0000000000000000000000000000000000000000000000000000000000000000");
    write("tampered.json", envelope(PAYLOAD_TYPE, &tampered, &[(None, ed_sig.clone())], false));
    // Signed, but not an in-toto payload.
    let other = sign(&dir, "ed.pem", &pae("application/json", &body), false);
    write("other-type.json", envelope("application/json", &body, &[(None, other)], false));
    // A Sigstore bundle holding the envelope, keyed; and a keyless one.
    let inner: serde_json::Value =
        serde_json::from_str(&envelope(PAYLOAD_TYPE, &body, &[(None, ed_sig.clone())], false)).expect("json");
    write(
        "bundle.json",
        serde_json::json!({"mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json",
        "verificationMaterial": {"publicKey": {"hint": k.ed_id}}, "dsseEnvelope": inner})
        .to_string(),
    );
    write(
        "keyless.json",
        serde_json::json!({"mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json",
        "verificationMaterial": {"certificate": {"rawBytes": "MIIB"}}, "dsseEnvelope": inner})
        .to_string(),
    );
    write(
        "not-base64.json",
        r#"{"payloadType": "application/vnd.in-toto+json", "payload": "%%%", "signatures": []}"#.into(),
    );
    write("not-an-envelope.json", r#"{"hello": "world"}"#.into());
    let main = format!(
        "{RECORDS}\
         fact both: Statement = dsse(\"both.json\", [ed, ec], 2)\n\
         fact url_safe: Statement = dsse(\"url-safe.json\", [ec], 1)\n\
         fact bundle: Statement = dsse(\"bundle.json\", [ed], 1)\n\
         fact twice: Statement = dsse(\"twice.json\", [ed, ec], 2)\n\
         fact tampered: Statement = dsse(\"tampered.json\", [ed], 1)\n\
         fact other_type: Statement = dsse(\"other-type.json\", [ed], 1)\n\
         fact keyless: Statement = dsse(\"keyless.json\", [ed], 1)\n\
         fact no_threshold: Statement = dsse(\"both.json\", [ed, ec], 0)\n\
         fact written_out: Statement = dsse(\"both.json\", [PublicKey {{ algorithm: \"ed25519\", id: ed.id }}], 1)\n\
         fact not_base64: Statement = dsse(\"not-base64.json\", [ed], 1)\n\
         fact not_an_envelope: Statement = dsse(\"not-an-envelope.json\", [ed], 1)\n\
         fact a_private_key: PublicKey = public_key(\"ed.pem\")\n\
         witness verified {{\n\
           holds ed.algorithm == \"ed25519\" and ec.algorithm == \"ecdsa-p256\"\n\
           holds ed.id == sha256:{} and ec.id == sha256:{}\n\
           holds both.predicate_type == \"https://slsa.dev/provenance/v1\"\n\
           holds [s.digest.sha256 for s in both.subject] == [\"6554bf8ef2fcfd2bb506d45f7bd93e84e332d96c3060b3ee3dfbb48504e20634\"]\n\
           holds url_safe.subject == both.subject and bundle.subject == both.subject\n\
         }}\n\
         witness refused {{\n\
           refuses twice with ThresholdUnmet\n\
           refuses tampered with ThresholdUnmet\n\
           refuses other_type with PayloadTypeUnsupported\n\
           refuses keyless with KeylessUnsupported\n\
           refuses no_threshold with ThresholdUnmet\n\
           refuses written_out with NotAKey\n\
           refuses not_base64 with NotBase64\n\
           refuses not_an_envelope with NotAnEnvelope\n\
           refuses a_private_key with NotAKey\n\
         }}\n",
        k.ed_id, k.ec_id
    );
    std::fs::write(dir.join("main.claim"), main).expect("main");
    let (code, out) = common::batch_in(&dir);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2/2 PASS"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_payload_that_does_not_fit_points_into_the_payload() {
    if Command::new("openssl").arg("version").output().is_err() {
        return;
    }
    let dir = common::project_dir("dsse", "shape", &[]);
    keys(&dir);
    let body = br#"{"_type": "https://in-toto.io/Statement/v1", "subject": [], "predicateType": 7, "predicate": {}}"#;
    let sig = sign(&dir, "ed.pem", &pae(PAYLOAD_TYPE, body), false);
    std::fs::write(dir.join("att.json"), envelope(PAYLOAD_TYPE, body, &[(None, sig)], false)).expect("att");
    let main = format!(
        "{RECORDS}fact att: Statement = dsse(\"att.json\", [ed], 1)\nwitness w {{ holds len(att.subject) == 0 }}\n"
    );
    std::fs::write(dir.join("main.claim"), main).expect("main");
    let (code, out) = common::batch_in(&dir);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("att.json#payload:1:") && out.contains("$.predicateType"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
