"""fido2's own server (`fido2.server.Fido2Server`, Yubico's python-fido2) as the judge of passkey
authenticators.

Why it exists: a stand-in for an outside party must be proven against a reference
implementation before it is used to prove Rooftop. `prove` runs the Python stand-in
(`passkey_authenticator.py`, through its command line, as the tests use it) through fido2's
registration and sign-in ceremonies for ES256, EdDSA and RS256, and checks that fido2 refuses
the stand-in's hostile variants. `verify-registration` and `verify-assertion` put any
authenticator's output (the Swift software authenticator too) before the same judge.

usage:
  passkey_fido2_check.py prove
      prints {"ok":…,"fido2":…,"results":{alg:{case:{"expected","got","detail"}}},"checks":{alg:{…}}};
      exit 0 only when every case came out as expected.
  passkey_fido2_check.py verify-registration --options O.json --response R.json [--origin ORIGIN …]
  passkey_fido2_check.py verify-assertion --options O.json --response R.json --registration REG.json
                                          [--origin ORIGIN …]
      O.json: the server's PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON (L3 JSON);
      R.json: the authenticator's RegistrationResponseJSON / AuthenticationResponseJSON;
      REG.json: the RegistrationResponseJSON that registered the credential (its public key).
      --origin: the allowed origins (exact match); without it, fido2's default rule for the RP ID.
      Print {"accepted":true,…} and exit 0, or {"accepted":false,"reason":…} and exit 1.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from importlib.metadata import version

import fido2.cbor
from fido2.server import Fido2Server
from fido2.utils import websafe_decode, websafe_encode
from fido2.webauthn import (
    AttestedCredentialData,
    AuthenticationResponse,
    PublicKeyCredentialCreationOptions,
    PublicKeyCredentialDescriptor,
    PublicKeyCredentialRequestOptions,
    RegistrationResponse,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

HERE = os.path.dirname(os.path.abspath(__file__))
STANDIN = os.path.join(HERE, "passkey_authenticator.py")
ALGORITHMS = {"ES256": -7, "EdDSA": -8, "RS256": -257}
RP = {"id": "localhost", "name": "Rooftop"}
ORIGIN = "http://localhost:8080"
EVIL_ORIGIN = "https://evil.example"


def json_form(options) -> dict:
    """fido2's options as the L3 JSON a server sends (what the stand-in reads)."""
    return json.loads(json.dumps(dict(options)))["publicKey"]


def standin(command: str, options: dict, state: str, *flags: str, origin: str = ORIGIN) -> dict:
    """Runs the stand-in's command line: options on stdin, the response JSON from stdout."""
    done = subprocess.run(
        [sys.executable, STANDIN, command, "--state", state, "--origin", origin, *flags],
        input=json.dumps(options),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"stand-in {command} {' '.join(flags)} exited {done.returncode}: {done.stderr.strip()}")
    return json.loads(done.stdout)


def judged(expected: str, ceremony) -> dict:
    """Runs `ceremony` (fido2's verdict raises when it refuses): what was expected and what came."""
    try:
        detail = ceremony()
        got = "accepted"
    except ValueError as error:  # fido2's refusals
        detail, got = str(error), "refused"
    return {"expected": expected, "got": got, "detail": detail}


def prove_algorithm(name: str, directory: str) -> tuple[dict, dict]:
    """The cases and checks for one algorithm."""
    server = Fido2Server(RP, attestation="none")
    user = {"id": os.urandom(16), "name": "alice", "displayName": "alice"}
    state_file = os.path.join(directory, f"{name}.json")
    hostile_file = os.path.join(directory, f"{name}-hostile.json")
    results, checks = {}, {}
    registered = {}

    def registration(*flags: str, uv=UserVerificationRequirement.REQUIRED, origin=ORIGIN, keep=False):
        def ceremony():
            options, state = server.register_begin(
                user, resident_key_requirement=ResidentKeyRequirement.REQUIRED, user_verification=uv
            )
            response = standin("register", json_form(options), state_file if keep else hostile_file, "--alg", name, *flags, origin=origin)
            auth_data = server.register_complete(state, response)
            if keep:
                registered["credential"] = auth_data.credential_data
                registered["response"] = response
                registered["authData"] = auth_data
            return f"alg {auth_data.credential_data.public_key[3]}, flags {int(auth_data.flags):#04x}"

        return ceremony

    results["register"] = judged("accepted", registration(keep=True))
    results["registerNoUvWhenPreferred"] = judged("accepted", registration("--no-uv", uv=UserVerificationRequirement.PREFERRED))
    results["registerWrongOrigin"] = judged("refused", registration(origin=EVIL_ORIGIN))
    results["registerNoUv"] = judged("refused", registration("--no-uv"))
    results["registerNoUp"] = judged("refused", registration("--no-up"))
    # A random base64url value may start with "-", which argparse reads as an option: glued with "=".
    results["registerWrongChallenge"] = judged("refused", registration("--challenge-override=" + websafe_encode(os.urandom(32))))
    results["registerWrongRpId"] = judged("refused", registration("--rp-id-override", "evil.example"))
    if "credential" not in registered:
        return results, checks

    credential = registered["credential"]
    auth_data = registered["authData"]
    attestation_object = websafe_decode(registered["response"]["response"]["attestationObject"])
    # fido2's canonical encoder writes the same bytes for what it decoded: the stand-in's CBOR
    # (attestation object and COSE key) is canonical.
    checks["canonicalCbor"] = fido2.cbor.encode(fido2.cbor.decode(attestation_object)) == attestation_object
    checks["algorithm"] = credential.public_key[3] == ALGORITHMS[name]
    checks["backupFlags"] = auth_data.is_backup_eligible() and auth_data.is_backed_up()
    checks["noneAttestation"] = fido2.cbor.decode(attestation_object)["fmt"] == "none"

    def assertion(*flags: str, allow=True, uv=UserVerificationRequirement.REQUIRED, origin=ORIGIN):
        def ceremony():
            options, state = server.authenticate_begin([credential] if allow else None, user_verification=uv)
            response = standin("assert", json_form(options), state_file, *flags, origin=origin)
            server.authenticate_complete(state, [credential], response)
            parsed = AuthenticationResponse.from_dict(response)
            if parsed.response.user_handle != user["id"]:
                raise ValueError("the user handle is not the registered user's")  # not fido2's check: ours
            return f"signCount {parsed.response.authenticator_data.counter}"

        return ceremony

    results["assert"] = judged("accepted", assertion())
    results["assertUsernameless"] = judged("accepted", assertion(allow=False))
    results["assertNoUvWhenPreferred"] = judged("accepted", assertion("--no-uv", uv=UserVerificationRequirement.PREFERRED))
    results["assertWrongOrigin"] = judged("refused", assertion(origin=EVIL_ORIGIN))
    results["assertTamperedSignature"] = judged("refused", assertion("--tamper-signature"))
    results["assertNoUv"] = judged("refused", assertion("--no-uv"))
    results["assertNoUp"] = judged("refused", assertion("--no-up"))
    results["assertWrongChallenge"] = judged("refused", assertion("--challenge-override=" + websafe_encode(os.urandom(32))))
    results["assertWrongRpId"] = judged("refused", assertion("--rp-id-override", "evil.example"))
    return results, checks


def prove() -> int:
    summary = {"fido2": version("fido2"), "results": {}, "checks": {}}
    with tempfile.TemporaryDirectory(prefix="rooftop-passkey-") as directory:
        for name in ALGORITHMS:
            summary["results"][name], summary["checks"][name] = prove_algorithm(name, directory)
    summary["ok"] = all(
        case["expected"] == case["got"] for cases in summary["results"].values() for case in cases.values()
    ) and all(all(checks.values()) and checks for checks in summary["checks"].values())
    print(json.dumps(summary, indent=1))
    return 0 if summary["ok"] else 1


# ---- judging any authenticator's output against a server's options


def origin_rule(origins):
    """Exact match against the allowed origins, or fido2's default rule for the RP ID."""
    return (lambda origin: origin in origins) if origins else None


def verify_registration(options: dict, response: dict, origins) -> dict:
    parsed = PublicKeyCredentialCreationOptions.from_dict(options)  # fido2 reads the server's options
    selection = parsed.authenticator_selection
    server = Fido2Server(dict(parsed.rp), attestation=parsed.attestation or "none", verify_origin=origin_rule(origins))
    _, state = server.register_begin(
        dict(parsed.user),
        credentials=parsed.exclude_credentials,
        resident_key_requirement=selection.resident_key if selection else None,
        user_verification=selection.user_verification if selection else None,
        challenge=parsed.challenge,
    )
    auth_data = server.register_complete(state, response)
    credential = auth_data.credential_data
    offered = [p.alg for p in parsed.pub_key_cred_params]
    return {
        "accepted": True,
        "credentialId": websafe_encode(credential.credential_id),
        "algorithm": credential.public_key[3],
        "algorithmOffered": credential.public_key[3] in offered,  # fido2 does not check this
        "flags": int(auth_data.flags),
        "signCount": auth_data.counter,
        "credential": websafe_encode(bytes(credential)),
    }


def verify_assertion(options: dict, response: dict, registration: dict, origins) -> dict:
    parsed = PublicKeyCredentialRequestOptions.from_dict(options)
    credential: AttestedCredentialData = RegistrationResponse.from_dict(registration).response.attestation_object.auth_data.credential_data
    if not parsed.rp_id:
        raise ValueError("the options have no rpId")
    server = Fido2Server({"id": parsed.rp_id, "name": parsed.rp_id}, verify_origin=origin_rule(origins))
    allowed = [PublicKeyCredentialDescriptor.from_dict(d) for d in parsed.allow_credentials or []]
    _, state = server.authenticate_begin(allowed or None, user_verification=parsed.user_verification, challenge=parsed.challenge)
    if allowed and credential.credential_id not in [d.id for d in allowed]:
        raise ValueError("the credential is not in allowCredentials")
    server.authenticate_complete(state, [credential], response)
    answer = AuthenticationResponse.from_dict(response).response
    return {
        "accepted": True,
        "credentialId": websafe_encode(credential.credential_id),
        "flags": int(answer.authenticator_data.flags),
        "signCount": answer.authenticator_data.counter,
        "userHandle": websafe_encode(answer.user_handle) if answer.user_handle is not None else None,
    }


def read_json(path: str) -> dict:
    with open(path) as file:
        value = json.load(file)
    return value.get("publicKey", value) if isinstance(value, dict) else value


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("prove")
    for name in ("verify-registration", "verify-assertion"):
        command = commands.add_parser(name)
        command.add_argument("--options", required=True)
        command.add_argument("--response", required=True)
        command.add_argument("--origin", action="append", default=[])
        if name == "verify-assertion":
            command.add_argument("--registration", required=True)
    arguments = parser.parse_args(argv)
    if arguments.command == "prove":
        return prove()
    try:
        options, response = read_json(arguments.options), read_json(arguments.response)
        if arguments.command == "verify-registration":
            answer = verify_registration(options, response, arguments.origin)
        else:
            answer = verify_assertion(options, response, read_json(arguments.registration), arguments.origin)
    except (ValueError, KeyError, TypeError) as error:
        answer = {"accepted": False, "reason": f"{type(error).__name__}: {error}"}
    print(json.dumps(answer))
    return 0 if answer["accepted"] else 1


if __name__ == "__main__":
    sys.exit(main())
