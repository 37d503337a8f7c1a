"""A software passkey: a WebAuthn authenticator and the browser's client part, in Python.

Why it exists: Rooftop's passkey routes (issue 35) are proven against an outside party that
speaks the real protocol, and that party is itself proven first against a reference server
(`passkey_fido2_check.py prove`, fido2's `Fido2Server`). It is written with `cryptography` only,
not with fido2's client or CBOR code, so that fido2 judges it independently.

What it does, as a platform authenticator behind a browser would:
- `register`: reads PublicKeyCredentialCreationOptionsJSON (WebAuthn L3 JSON serialization,
  base64url without padding) on stdin, makes a new discoverable credential (ES256 by default,
  EdDSA or RS256 on request), writes it to the state file (one credential per file) and prints
  a RegistrationResponseJSON with `none` attestation in canonical CTAP2 CBOR.
- `assert`: reads PublicKeyCredentialRequestOptionsJSON, signs with the state file's credential
  and prints an AuthenticationResponseJSON.
The client part builds clientDataJSON exactly as browsers do:
{"type":…,"challenge":…,"origin":…,"crossOrigin":false}, compact, in that order.

Hostile variants (for refusal tests): --no-uv, --no-up, --no-be, --no-bs, --origin anything,
--rp-id-override (hash another RP ID), --counter N, --tamper-signature, --user-handle B64,
--no-user-handle, --challenge-override B64, --ignore-allow-list.

usage:
  passkey_authenticator.py register --state F --origin O [--alg ES256|EdDSA|RS256] < options.json
  passkey_authenticator.py assert   --state F --origin O < options.json
Also importable: `register(options, origin, state_path, **flags)` and
`assert_(options, origin, state_path, **flags)` return the response as a dict.
"""

import argparse
import base64
import hashlib
import json
import os
import re
import struct
import sys
from urllib.parse import urlparse

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa

ES256, EDDSA, RS256 = -7, -8, -257
ALGORITHMS = {"ES256": ES256, "EdDSA": EDDSA, "RS256": RS256}

FLAG_UP, FLAG_UV, FLAG_BE, FLAG_BS, FLAG_AT, FLAG_ED = 0x01, 0x04, 0x08, 0x10, 0x40, 0x80


class AuthenticatorError(Exception):
    """What a real client or authenticator would refuse with (NotAllowedError and the like)."""


# ---- base64url (no padding), as the L3 JSON serialization uses it


def b64url_encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    """Strict: anything outside the base64url alphabet is a ValueError (padding is tolerated)."""
    if not re.fullmatch(r"[A-Za-z0-9_-]*={0,2}", text):
        raise ValueError(f"not base64url: {text!r}")
    return base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_", validate=True)


# ---- canonical CTAP2 CBOR: the few types WebAuthn needs, definite lengths, shortest forms


def _head(major: int, argument: int) -> bytes:
    if argument < 24:
        return bytes([major << 5 | argument])
    for additional, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if argument < 1 << (8 * size):
            return bytes([major << 5 | additional]) + argument.to_bytes(size, "big")
    raise ValueError("integer too large for CBOR")


def cbor_encode(value) -> bytes:
    """Canonical CTAP2 CBOR of ints, bytes, text, lists, dicts (and bools/None)."""
    if value is True:
        return b"\xf5"
    if value is False:
        return b"\xf4"
    if value is None:
        return b"\xf6"
    if isinstance(value, int):
        return _head(0, value) if value >= 0 else _head(1, -1 - value)
    if isinstance(value, (bytes, bytearray)):
        return _head(2, len(value)) + bytes(value)
    if isinstance(value, str):
        encoded = value.encode("utf-8")
        return _head(3, len(encoded)) + encoded
    if isinstance(value, (list, tuple)):
        return _head(4, len(value)) + b"".join(cbor_encode(item) for item in value)
    if isinstance(value, dict):
        # CTAP2 canonical order: by major type, then by encoded length, then bytewise.
        items = sorted(((cbor_encode(k), cbor_encode(v)) for k, v in value.items()), key=lambda kv: (kv[0][0] >> 5, len(kv[0]), kv[0]))
        if len({k for k, _ in items}) != len(items):
            raise ValueError("duplicate CBOR map key")
        return _head(5, len(items)) + b"".join(k + v for k, v in items)
    raise TypeError(f"cannot CBOR-encode {type(value).__name__}")


# ---- keys


def generate_key(algorithm: int):
    if algorithm == ES256:
        return ec.generate_private_key(ec.SECP256R1())
    if algorithm == EDDSA:
        return ed25519.Ed25519PrivateKey.generate()
    if algorithm == RS256:
        return rsa.generate_private_key(public_exponent=65537, key_size=2048)
    raise AuthenticatorError(f"unsupported algorithm {algorithm}")


def _unsigned(number: int) -> bytes:
    return number.to_bytes((number.bit_length() + 7) // 8 or 1, "big")


def cose_public_key(private_key, algorithm: int) -> dict:
    """The credential public key as a COSE_Key map (RFC 9052/9053, RFC 8230)."""
    public = private_key.public_key()
    if algorithm == ES256:
        numbers = public.public_numbers()
        return {1: 2, 3: ES256, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")}
    if algorithm == EDDSA:
        raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        return {1: 1, 3: EDDSA, -1: 6, -2: raw}
    if algorithm == RS256:
        numbers = public.public_numbers()
        return {1: 3, 3: RS256, -1: _unsigned(numbers.n), -2: _unsigned(numbers.e)}
    raise AuthenticatorError(f"unsupported algorithm {algorithm}")


def sign(private_key, algorithm: int, message: bytes) -> bytes:
    """WebAuthn signatures: ES256 in ASN.1 DER, EdDSA raw, RS256 PKCS#1 v1.5."""
    if algorithm == ES256:
        return private_key.sign(message, ec.ECDSA(hashes.SHA256()))
    if algorithm == EDDSA:
        return private_key.sign(message)
    if algorithm == RS256:
        return private_key.sign(message, padding.PKCS1v15(), hashes.SHA256())
    raise AuthenticatorError(f"unsupported algorithm {algorithm}")


# ---- the state file: one credential


def save_state(path: str, state: dict) -> None:
    temporary = path + ".tmp"
    with open(temporary, "w") as file:
        json.dump(state, file, indent=1)
    os.replace(temporary, path)


def load_state(path: str) -> dict:
    with open(path) as file:
        return json.load(file)


def private_key_of(state: dict):
    return serialization.load_pem_private_key(state["privateKeyPem"].encode("ascii"), password=None)


# ---- the client part and the authenticator data


def client_data_json(kind: str, challenge: bytes, origin: str) -> bytes:
    """clientDataJSON as browsers serialize it (the spec's limited serialization: this order, compact)."""
    return json.dumps(
        {"type": kind, "challenge": b64url_encode(challenge), "origin": origin, "crossOrigin": False}, separators=(",", ":")
    ).encode("utf-8")


def flags_byte(*, up=True, uv=True, be=True, bs=True) -> int:
    return (FLAG_UP if up else 0) | (FLAG_UV if uv else 0) | (FLAG_BE if be else 0) | (FLAG_BS if bs else 0)


def authenticator_data(rp_id: str, flags: int, sign_count: int, attested: bytes = b"") -> bytes:
    """rpIdHash ‖ flags ‖ signCount (big-endian u32) ‖ attested credential data."""
    if attested:
        flags |= FLAG_AT
    return hashlib.sha256(rp_id.encode("utf-8")).digest() + bytes([flags]) + struct.pack(">I", sign_count) + attested


def _effective_rp_id(requested, origin: str) -> str:
    """The RP ID a browser uses: the options' one, else the origin's host."""
    return requested or (urlparse(origin).hostname or "")


def _algorithm_number(algorithm) -> int:
    if isinstance(algorithm, int):
        return algorithm
    if algorithm in ALGORITHMS:
        return ALGORITHMS[algorithm]
    return int(algorithm)


def register(
    options: dict,
    origin: str,
    state_path: str,
    *,
    algorithm="ES256",
    uv=True,
    up=True,
    be=True,
    bs=True,
    counter=0,
    rp_id_override=None,
    challenge_override=None,
) -> dict:
    """navigator.credentials.create(): a new credential in `state_path`, its RegistrationResponseJSON."""
    algorithm = _algorithm_number(algorithm)
    offered = [p.get("alg") for p in options.get("pubKeyCredParams", []) if p.get("type") == "public-key"]
    if offered and algorithm not in offered:
        raise AuthenticatorError(f"algorithm {algorithm} not offered in pubKeyCredParams {offered}")
    rp_id = _effective_rp_id(options.get("rp", {}).get("id"), origin)
    user_handle = b64url_decode(options["user"]["id"])
    # A credential this authenticator already holds for the RP is in the exclude list: refuse,
    # as authenticators do (InvalidStateError).
    if os.path.exists(state_path):
        existing = load_state(state_path)
        excluded = {d["id"] for d in options.get("excludeCredentials") or []}
        if existing.get("rpId") == rp_id and existing.get("credentialId") in excluded:
            raise AuthenticatorError("InvalidStateError: this authenticator already holds an excluded credential")
    private_key = generate_key(algorithm)
    credential_id = os.urandom(32)
    cose = cbor_encode(cose_public_key(private_key, algorithm))
    attested = bytes(16) + struct.pack(">H", len(credential_id)) + credential_id + cose  # AAGUID zero: `none`
    auth_data = authenticator_data(rp_id_override or rp_id, flags_byte(up=up, uv=uv, be=be, bs=bs), counter, attested)
    challenge = b64url_decode(challenge_override or options["challenge"])
    client_data = client_data_json("webauthn.create", challenge, origin)
    attestation_object = cbor_encode({"fmt": "none", "attStmt": {}, "authData": auth_data})
    save_state(
        state_path,
        {
            "credentialId": b64url_encode(credential_id),
            "privateKeyPem": private_key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            ).decode("ascii"),
            "algorithm": algorithm,
            "rpId": rp_id,
            "userHandle": b64url_encode(user_handle),
            "signCount": counter,
        },
    )
    public_key_der = private_key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return {
        "id": b64url_encode(credential_id),
        "rawId": b64url_encode(credential_id),
        "type": "public-key",
        "response": {
            "clientDataJSON": b64url_encode(client_data),
            "attestationObject": b64url_encode(attestation_object),
            # What browsers' toJSON() adds beside the attestation object (L3 §5.2.1).
            "authenticatorData": b64url_encode(auth_data),
            "publicKey": b64url_encode(public_key_der),
            "publicKeyAlgorithm": algorithm,
            "transports": ["internal"],
        },
        "clientExtensionResults": {},
        "authenticatorAttachment": "platform",
    }


def assert_(
    options: dict,
    origin: str,
    state_path: str,
    *,
    uv=True,
    up=True,
    be=True,
    bs=True,
    counter=None,
    counting=False,
    rp_id_override=None,
    tamper_signature=False,
    user_handle=None,
    no_user_handle=False,
    challenge_override=None,
    ignore_allow_list=False,
) -> dict:
    """navigator.credentials.get(): the state file's credential signs; its AuthenticationResponseJSON.

    The counter stays as stored (0 for a synced passkey) unless `counting` (add one) or
    `counter` (exactly this value) is given; the state file keeps what was sent.
    """
    state = load_state(state_path)
    rp_id = _effective_rp_id(options.get("rpId"), origin)
    if rp_id != state["rpId"]:
        raise AuthenticatorError(f"NotAllowedError: no credential for RP ID {rp_id!r} (this one is for {state['rpId']!r})")
    allowed = [d["id"] for d in options.get("allowCredentials") or []]
    if allowed and state["credentialId"] not in allowed and not ignore_allow_list:
        raise AuthenticatorError("NotAllowedError: the credential is not in allowCredentials")
    sign_count = state.get("signCount", 0)
    if counter is not None:
        sign_count = counter
    elif counting:
        sign_count += 1
    auth_data = authenticator_data(rp_id_override or rp_id, flags_byte(up=up, uv=uv, be=be, bs=bs), sign_count)
    challenge = b64url_decode(challenge_override or options["challenge"])
    client_data = client_data_json("webauthn.get", challenge, origin)
    signature = sign(private_key_of(state), state["algorithm"], auth_data + hashlib.sha256(client_data).digest())
    if tamper_signature:
        signature = signature[:-1] + bytes([signature[-1] ^ 0x01])
    state["signCount"] = sign_count
    save_state(state_path, state)
    if no_user_handle:
        handle = None
    else:
        handle = user_handle if user_handle is not None else state["userHandle"]
    return {
        "id": state["credentialId"],
        "rawId": state["credentialId"],
        "type": "public-key",
        "response": {
            "clientDataJSON": b64url_encode(client_data),
            "authenticatorData": b64url_encode(auth_data),
            "signature": b64url_encode(signature),
            "userHandle": handle,
        },
        "clientExtensionResults": {},
        "authenticatorAttachment": "platform",
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("register", "assert"):
        command = commands.add_parser(name)
        command.add_argument("--state", required=True, help="the credential's JSON state file")
        command.add_argument("--origin", required=True, help="the origin the client reports, e.g. http://localhost:8080")
        command.add_argument("--no-uv", action="store_true", help="clear User Verified")
        command.add_argument("--no-up", action="store_true", help="clear User Present")
        command.add_argument("--no-be", action="store_true", help="clear Backup Eligible")
        command.add_argument("--no-bs", action="store_true", help="clear Backup State")
        command.add_argument("--counter", type=int, help="the signature counter to send (stored too)")
        command.add_argument("--rp-id-override", help="hash this RP ID instead of the options' one")
        command.add_argument("--challenge-override", help="sign this base64url challenge instead of the options' one")
        if name == "register":
            command.add_argument("--alg", default="ES256", help="ES256 (default), EdDSA, RS256, or a COSE number")
        else:
            command.add_argument("--counting", action="store_true", help="add one to the stored counter")
            command.add_argument("--tamper-signature", action="store_true", help="flip a bit of the signature")
            command.add_argument("--user-handle", help="send this base64url user handle instead")
            command.add_argument("--no-user-handle", action="store_true", help="send userHandle null")
            command.add_argument("--ignore-allow-list", action="store_true", help="sign even when not in allowCredentials")
    arguments = parser.parse_args(argv)
    options = json.load(sys.stdin)
    # A server may wrap the options as {"publicKey": …} (CredentialCreationOptions); accept both.
    options = options.get("publicKey", options)
    common = dict(
        uv=not arguments.no_uv,
        up=not arguments.no_up,
        be=not arguments.no_be,
        bs=not arguments.no_bs,
        rp_id_override=arguments.rp_id_override,
        challenge_override=arguments.challenge_override,
    )
    try:
        if arguments.command == "register":
            response = register(options, arguments.origin, arguments.state, algorithm=arguments.alg, counter=arguments.counter or 0, **common)
        else:
            response = assert_(
                options,
                arguments.origin,
                arguments.state,
                counter=arguments.counter,
                counting=arguments.counting,
                tamper_signature=arguments.tamper_signature,
                user_handle=arguments.user_handle,
                no_user_handle=arguments.no_user_handle,
                ignore_allow_list=arguments.ignore_allow_list,
                **common,
            )
    except AuthenticatorError as error:
        print(f"passkey_authenticator: {error}", file=sys.stderr)
        return 3
    json.dump(response, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
