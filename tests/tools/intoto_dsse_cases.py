#!/usr/bin/env python3
"""Generates DSSE envelopes with the in-toto project's own Python library
(securesystemslib, which `pip install in-toto` brings) and records what its
verifier says of each, for compiler/claim_cli/tests/intoto_cross_check.rs
to hold Claim's `dsse` to.

Usage: intoto_dsse_cases.py OUT_DIR

Writes OUT_DIR/keys/{ed25519,ecdsa,other}.pub (PEM SubjectPublicKeyInfo),
OUT_DIR/cases/<name>.json (each envelope) and OUT_DIR/cases.json: for each
case its keys, threshold and securesystemslib's verdict (`accept` or
`reject`). Every key and signature is made afresh on each run.
"""

import base64
import json
import os
import sys

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from securesystemslib.dsse import Envelope
from securesystemslib.exceptions import VerificationError
from securesystemslib.signer import CryptoSigner, Signature

PAYLOAD_TYPE = "application/vnd.in-toto+json"


def statement(name, digest):
    return json.dumps(
        {
            "_type": "https://in-toto.io/Statement/v1",
            "subject": [{"name": name, "digest": {"sha256": digest}}],
            "predicateType": "https://slsa.dev/provenance/v1",
            "predicate": {
                "buildDefinition": {"buildType": "https://example.com/build/v1", "externalParameters": {}},
                "runDetails": {"builder": {"id": "https://example.com/builder"}},
            },
        },
        sort_keys=True,
    ).encode()


def main(out):
    os.makedirs(os.path.join(out, "keys"), exist_ok=True)
    os.makedirs(os.path.join(out, "cases"), exist_ok=True)
    privates = {
        "ed25519": ed25519.Ed25519PrivateKey.generate(),
        "ecdsa": ec.generate_private_key(ec.SECP256R1()),
        "other": ed25519.Ed25519PrivateKey.generate(),
    }
    signers = {name: CryptoSigner(key) for name, key in privates.items()}
    for name, key in privates.items():
        pem = key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        with open(os.path.join(out, "keys", f"{name}.pub"), "wb") as f:
            f.write(pem)

    def envelope(payload, *by):
        e = Envelope(payload, PAYLOAD_TYPE, {})
        for name in by:
            e.sign(signers[name])
        return e

    digest = "a0cfc71271d6e278e57cd332ff957c3f7043fdda354c4cbb190a30d56efa01bf"
    body = statement("app.tar", digest)
    cases = {}

    def case(name, env, keys, threshold, as_dict=None):
        doc = as_dict if as_dict is not None else env.to_dict()
        with open(os.path.join(out, "cases", f"{name}.json"), "w") as f:
            json.dump(doc, f)
        # Reading the envelope may refuse it already (two signatures of one
        # keyid); a threshold above the keys given is refused by `verify`.
        try:
            Envelope.from_dict(doc).verify([signers[k].public_key for k in keys], threshold)
            verdict = "accept"
        except (VerificationError, ValueError):
            verdict = "reject"
        cases[name] = {"keys": keys, "threshold": threshold, "verdict": verdict}

    case("ed25519_signed", envelope(body, "ed25519"), ["ed25519"], 1)
    case("ecdsa_signed", envelope(body, "ecdsa"), ["ecdsa"], 1)
    case("signed_by_another_key", envelope(body, "other"), ["ed25519"], 1)
    case("two_keys_two_signatures", envelope(body, "ed25519", "ecdsa"), ["ed25519", "ecdsa"], 2)
    case("two_keys_one_signature", envelope(body, "ed25519"), ["ed25519", "ecdsa"], 2)
    case("one_of_two_keys", envelope(body, "ecdsa"), ["ed25519", "ecdsa"], 1)
    # The payload changed after signing: another artifact's digest.
    tampered = envelope(body, "ed25519").to_dict()
    tampered["payload"] = base64.b64encode(statement("app.tar", "0" * 64)).decode()
    case("payload_changed_after_signing", None, ["ed25519"], 1, tampered)
    # The payload type changed after signing (the PAE covers it).
    retyped = envelope(body, "ed25519").to_dict()
    retyped["payloadType"] = "application/json"
    case("payload_type_changed_after_signing", None, ["ed25519"], 1, retyped)
    # One key's signature twice: one key counts once.
    twice = envelope(body, "ed25519").to_dict()
    sig = twice["signatures"][0]
    twice["signatures"] = [sig, dict(sig)]
    case("one_key_signing_twice", None, ["ed25519"], 2, twice)
    # A signature byte flipped.
    flipped = envelope(body, "ed25519").to_dict()
    raw = bytearray(base64.b64decode(flipped["signatures"][0]["sig"]))
    raw[0] ^= 1
    flipped["signatures"][0]["sig"] = base64.b64encode(bytes(raw)).decode()
    case("signature_flipped", None, ["ed25519"], 1, flipped)
    # A valid signature whose keyid names no key: DSSE makes the keyid a
    # hint; securesystemslib requires it to match (its issue #416).
    unnamed = envelope(body, "ed25519").to_dict()
    unnamed["signatures"][0]["keyid"] = "not-the-key-id"
    case("keyid_that_names_no_key", None, ["ed25519"], 1, unnamed)

    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump(cases, f, indent=2, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1])
