//! `public_key(path)` and `dsse(path, keys, threshold)` (§6, `std.dsse`):
//! PEM SubjectPublicKeyInfo keys (Ed25519, ECDSA P-256), and DSSE envelopes
//! (bare, or the `dsseEnvelope` of a Sigstore bundle v0.1–v0.3) verified
//! over the pre-authentication encoding by a threshold of distinct keys.
//! Signatures are checked by dalek (`verify_strict`) and RustCrypto's
//! `p256`; nothing here does curve arithmetic. What is verified is decoded
//! as `load` decodes a file, by the caller.

use base64::Engine as _;
use claim_eval::json::{field, text, Json, J};
use claim_eval::WorldCode;
use sha2::Digest as _;

/// The one payload type Claim reads.
pub const IN_TOTO: &str = "application/vnd.in-toto+json";

/// A key `public_key` read, kept by its id for `dsse`.
pub enum Key {
    Ed25519(ed25519_dalek::VerifyingKey),
    P256(p256::ecdsa::VerifyingKey),
}

impl Key {
    pub fn algorithm(&self) -> &'static str {
        match self {
            Key::Ed25519(_) => "ed25519",
            Key::P256(_) => "ecdsa-p256",
        }
    }

    /// Whether `sig` is this key's signature of `message`: Ed25519 strictly
    /// (no small-order or non-canonical forms); ECDSA over SHA-256, the
    /// signature in DER or as raw `r‖s`.
    pub fn verifies(&self, message: &[u8], sig: &[u8]) -> bool {
        match self {
            Key::Ed25519(k) => {
                ed25519_dalek::Signature::from_slice(sig).is_ok_and(|s| k.verify_strict(message, &s).is_ok())
            }
            Key::P256(k) => {
                use p256::ecdsa::signature::Verifier as _;
                let sig = p256::ecdsa::Signature::from_der(sig).or_else(|_| p256::ecdsa::Signature::from_slice(sig));
                sig.is_ok_and(|s| k.verify(message, &s).is_ok())
            }
        }
    }
}

/// A PEM `PUBLIC KEY` of Ed25519 or P-256: the key and its id (the
/// SHA-256 of its DER SubjectPublicKeyInfo). `Err` says what was found.
pub fn parse_public_key(text: &str) -> Result<(Key, [u8; 32]), String> {
    let (label, der) = pem_rfc7468_decode(text)?;
    if label != "PUBLIC KEY" {
        return Err(format!("a PEM `{label}`, not a `PUBLIC KEY`"));
    }
    use ed25519_dalek::pkcs8::DecodePublicKey as _;
    let key = if let Ok(k) = ed25519_dalek::VerifyingKey::from_public_key_der(&der) {
        Key::Ed25519(k)
    } else if let Ok(k) = p256::ecdsa::VerifyingKey::from_public_key_der(&der) {
        Key::P256(k)
    } else {
        return Err("a public key of another algorithm (Claim verifies Ed25519 and ECDSA P-256)".into());
    };
    Ok((key, sha2::Sha256::digest(&der).into()))
}

/// The label and bytes of the one PEM block of `text`.
fn pem_rfc7468_decode(text: &str) -> Result<(String, Vec<u8>), String> {
    let text = text.trim();
    let first = text.lines().next().unwrap_or("");
    let label = first
        .strip_prefix("-----BEGIN ")
        .and_then(|l| l.strip_suffix("-----"))
        .ok_or_else(|| "no PEM block (`-----BEGIN …-----`)".to_string())?;
    let end = format!("-----END {label}-----");
    let body: Vec<&str> = text.lines().skip(1).take_while(|l| l.trim() != end).collect();
    if !text.lines().any(|l| l.trim() == end) {
        return Err(format!("a PEM `{label}` block without its end"));
    }
    let der = base64::engine::general_purpose::STANDARD
        .decode(body.concat().trim())
        .map_err(|_| format!("a PEM `{label}` block whose body is not base64"))?;
    Ok((label.to_string(), der))
}

/// Base64 in the standard or the URL-safe alphabet, padded or not.
pub fn base64(s: &str) -> Option<Vec<u8>> {
    use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
    [STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD].iter().find_map(|e| e.decode(s).ok())
}

/// DSSE's pre-authentication encoding of a payload.
pub fn pae(payload_type: &str, payload: &[u8]) -> Vec<u8> {
    let mut out = format!("DSSEv1 {} {payload_type} {} ", payload_type.len(), payload.len()).into_bytes();
    out.extend_from_slice(payload);
    out
}

/// An envelope read: its payload type, payload and signatures, decoded.
pub struct Envelope {
    pub payload_type: String,
    pub payload: Vec<u8>,
    pub signatures: Vec<Vec<u8>>,
}

/// The envelope of a document: a DSSE envelope, or a Sigstore bundle's
/// `dsseEnvelope` where the bundle is signed by a key. `Err` is the code
/// and what was wrong.
pub fn envelope(doc: &Json<'_>) -> Result<Envelope, (WorldCode, String)> {
    let not = |why: &str| (WorldCode::NotAnEnvelope, why.to_string());
    let envelope = match text(field(doc, "mediaType")) {
        Some(t) if t.starts_with("application/vnd.dev.sigstore.bundle") => {
            let material = field(doc, "verificationMaterial");
            let keyless = material
                .is_some_and(|m| field(m, "certificate").is_some() || field(m, "x509CertificateChain").is_some());
            if keyless {
                return Err((
                    WorldCode::KeylessUnsupported,
                    "the bundle is signed keylessly (a certificate, not a key), and no trusted root was given to check it against".into(),
                ));
            }
            field(doc, "dsseEnvelope").ok_or_else(|| not("the Sigstore bundle holds no `dsseEnvelope`"))?
        }
        Some(t) => {
            return Err(not(&format!("a document of the media type `{t}`, not a DSSE envelope or a Sigstore bundle")))
        }
        None => doc,
    };
    let payload_type =
        text(field(envelope, "payloadType")).ok_or_else(|| not("the envelope has no `payloadType` text"))?;
    let payload = text(field(envelope, "payload")).ok_or_else(|| not("the envelope has no `payload` text"))?;
    let Some(J::Array(sigs)) = field(envelope, "signatures").map(|s| &s.kind) else {
        return Err(not("the envelope has no `signatures` list"));
    };
    let payload = base64(payload).ok_or((WorldCode::NotBase64, "the envelope's `payload` is not base64".into()))?;
    let mut signatures = Vec::new();
    for (i, s) in sigs.iter().enumerate() {
        let sig = text(field(s, "sig")).ok_or_else(|| not(&format!("signature {i} has no `sig` text")))?;
        signatures
            .push(base64(sig).ok_or((WorldCode::NotBase64, format!("the `sig` of signature {i} is not base64")))?);
    }
    Ok(Envelope { payload_type: payload_type.to_string(), payload, signatures })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pre_authentication_encoding_is_the_specs() {
        // The example of the DSSE protocol document.
        assert_eq!(
            pae("http://example.com/HelloWorld", b"hello world"),
            b"DSSEv1 29 http://example.com/HelloWorld 11 hello world"
        );
    }

    #[test]
    fn both_alphabets_padded_or_not() {
        for s in ["+/8=", "+/8", "-_8=", "-_8"] {
            assert_eq!(base64(s), Some(vec![0xfb, 0xff]), "{s}");
        }
        assert_eq!(base64("not base64!"), None);
    }
}
