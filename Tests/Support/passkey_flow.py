"""The passkey ceremonies end to end against a live Rooftop, spoken exactly as the agreed wire of
issue 35 says (routes, bodies, Parse errors), with the software passkey of
`passkey_authenticator.py` (proven first against fido2's server: `passkey_fido2_check.py prove`).

Why it exists: Rooftop's passkey routes are proven by an outside party that speaks the real
protocol, not by Rooftop's own client code. The Swift tests start a server and run this.

It signs up a user (POST /users), registers a passkey (/users/me/passkeys/registration/options,
then /users/me/passkeys), lists and renames it, signs in usernameless and with a username hint,
then makes the hostile attempts, each of which must be refused with
{"code":101,"error":"Invalid passkey."} and create no session (counted with the master key on
GET /sessions): a replayed response, a wrong origin, no user verification, a tampered signature,
another user's user handle, a credential not allowed for the named user, a deleted credential,
no user presence, another RP ID's hash. An expired challenge needs a controllable clock: the
Swift tests check it, this reports it skipped.

usage:
  passkey_flow.py --base-url http://127.0.0.1:PORT/parse --app-id APP --origin http://localhost:PORT
                  --master-key KEY [--rest-key KEY] [--alg ES256|EdDSA|RS256]
  passkey_flow.py self-test        (the helpers, no server)
Prints {"ok":…,"steps":[{"step","ok","status","body"},…]}; exits 1 when any step misbehaved.
"""

import argparse
import json
import os
import sys
import tempfile
import urllib.error
import urllib.request
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import passkey_authenticator as authenticator  # noqa: E402

INVALID_PASSKEY = {"code": 101, "error": "Invalid passkey."}
EVIL_ORIGIN = "https://evil.example"


class Rooftop:
    """Parse REST calls: the application id, the optional REST key, a session or the master key."""

    def __init__(self, base_url: str, app_id: str, rest_key=None, master_key=None):
        self.base_url, self.app_id, self.rest_key, self.master_key = base_url.rstrip("/"), app_id, rest_key, master_key

    def headers(self, session=None, master=False) -> dict:
        headers = {"X-Parse-Application-Id": self.app_id, "Content-Type": "application/json"}
        if self.rest_key:
            headers["X-Parse-REST-API-Key"] = self.rest_key
        if session:
            headers["X-Parse-Session-Token"] = session
        if master:
            headers["X-Parse-Master-Key"] = self.master_key
        return headers

    def call(self, method: str, path: str, body=None, session=None, master=False):
        """(HTTP status, the JSON body or the raw text when it is not JSON)."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(self.base_url + path, data=data, method=method, headers=self.headers(session, master))
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        try:
            return status, json.loads(raw) if raw else None
        except ValueError:
            return status, raw.decode("utf-8", "replace")

    def session_count(self) -> int:
        status, body = self.call("GET", "/sessions", master=True)
        if status != 200 or not isinstance(body, dict):
            raise RuntimeError(f"GET /sessions with the master key answered {status} {body}")
        return len(body.get("results", []))


class Report:
    """The steps as they happened; `ok` is the flow's verdict."""

    def __init__(self):
        self.steps = []

    def add(self, step: str, ok: bool, status=None, body=None, **extra) -> bool:
        self.steps.append({"step": step, "ok": bool(ok), "status": status, "body": body, **extra})
        return bool(ok)

    @property
    def ok(self) -> bool:
        return all(step["ok"] for step in self.steps)

    def json(self) -> str:
        return json.dumps({"ok": self.ok, "steps": self.steps}, indent=1)


# ---- what the wire promises, checked on each answer


def creation_options_problems(options) -> list:
    """Where PublicKeyCredentialCreationOptionsJSON departs from the wire (empty when it does not)."""
    problems = []
    if not isinstance(options, dict):
        return ["not an object"]
    for key in ("rp", "user", "challenge", "pubKeyCredParams", "authenticatorSelection"):
        if key not in options:
            problems.append(f"no {key}")
    if problems:
        return problems
    if not options["rp"].get("id"):
        problems.append("no rp.id")
    user = options["user"]
    try:
        if not authenticator.b64url_decode(user.get("id", "")):
            problems.append("empty user.id")
    except ValueError:
        problems.append("user.id is not base64url")
    if user.get("id") in (user.get("name"), user.get("displayName")) or "@" in str(user.get("id")):
        problems.append("user.id is not opaque")
    if challenge_length(options.get("challenge")) != 32:
        problems.append("challenge is not 32 base64url bytes")
    algorithms = {p.get("alg") for p in options["pubKeyCredParams"] if p.get("type") == "public-key"}
    if not {-7, -8, -257} <= algorithms:
        problems.append(f"pubKeyCredParams {sorted(algorithms)} lack one of -7, -8, -257")
    selection = options["authenticatorSelection"]
    if selection.get("residentKey") != "required" or selection.get("requireResidentKey") is not True:
        problems.append("residentKey is not required")
    if options.get("attestation", "none") != "none":
        problems.append("attestation is not none")
    return problems


def request_options_problems(options, usernameless: bool, credential_id=None) -> list:
    """Where PublicKeyCredentialRequestOptionsJSON departs from the wire."""
    if not isinstance(options, dict):
        return ["not an object"]
    problems = []
    if challenge_length(options.get("challenge")) != 32:
        problems.append("challenge is not 32 base64url bytes")
    if not options.get("rpId"):
        problems.append("no rpId")
    allowed = [d.get("id") for d in options.get("allowCredentials") or []]
    if usernameless and allowed:
        problems.append("allowCredentials is not empty for a usernameless sign-in")
    if not usernameless and credential_id not in allowed:
        problems.append("the user's credential is not in allowCredentials")
    return problems


def challenge_length(challenge) -> int:
    try:
        return len(authenticator.b64url_decode(challenge)) if isinstance(challenge, str) else -1
    except ValueError:
        return -1


def passkey_problems(passkey, credential_id: str, name: str) -> list:
    """Where a Passkey object departs from the wire."""
    if not isinstance(passkey, dict):
        return ["not an object"]
    problems = []
    if passkey.get("id") != credential_id:
        problems.append("id is not the credential id")
    if passkey.get("name") != name:
        problems.append(f"name is not {name!r}")
    if not isinstance(passkey.get("createdAt"), str):
        problems.append("no createdAt")
    if "lastUsedAt" not in passkey:
        problems.append("no lastUsedAt")
    if not isinstance(passkey.get("backupEligible"), bool) or not isinstance(passkey.get("backedUp"), bool):
        problems.append("backupEligible/backedUp are not booleans")
    return problems


# ---- the flow


class Flow:
    def __init__(self, server: Rooftop, origin: str, algorithm: str, directory: str):
        self.server, self.origin, self.algorithm, self.directory = server, origin, algorithm, directory
        self.report = Report()

    def state(self, name: str) -> str:
        return os.path.join(self.directory, f"{name}.json")

    def sign_up(self, step: str):
        """A new user: (objectId, username, sessionToken), or None."""
        username = f"passkey-{uuid.uuid4().hex[:10]}"
        status, body = self.server.call("POST", "/users", {"username": username, "password": "a long passphrase 9"})
        ok = status == 201 and isinstance(body, dict) and bool(body.get("sessionToken"))
        self.report.add(step, ok, status, body)
        return (body["objectId"], username, body["sessionToken"]) if ok else None

    def register(self, step: str, session: str, state: str, name: str):
        """Options, the stand-in's response, POST /users/me/passkeys: the credential id, or None."""
        status, options = self.server.call("POST", "/users/me/passkeys/registration/options", {}, session=session)
        problems = creation_options_problems(options) if status == 200 else ["not 200"]
        if not self.report.add(step + "Options", not problems, status, options, problems=problems):
            return None
        response = authenticator.register(options, self.origin, state, algorithm=self.algorithm)
        status, body = self.server.call("POST", "/users/me/passkeys", {"credential": response, "name": name}, session=session)
        problems = passkey_problems(body, response["id"], name) if status == 201 else ["not 201"]
        if isinstance(body, dict) and status == 201:
            if body.get("lastUsedAt") is not None:
                problems.append("lastUsedAt is set before any use")
            if body.get("backupEligible") is not True or body.get("backedUp") is not True:
                problems.append("the BE/BS flags the authenticator set are not reported")
        return response["id"] if self.report.add(step, not problems, status, body, problems=problems) else None

    def options(self, username=None):
        return self.server.call("POST", "/passkeys/authentication/options", {} if username is None else {"username": username})

    def sign_in(self, step: str, state: str, user_id: str, username=None, credential_id=None) -> bool:
        """A sign-in that must succeed, and its session must say it came from a passkey."""
        status, options = self.options(username)
        problems = request_options_problems(options, username is None, credential_id) if status == 200 else ["not 200"]
        if not self.report.add(step + "Options", not problems, status, options, problems=problems):
            return False
        response = authenticator.assert_(options, self.origin, state)
        status, body = self.server.call("POST", "/passkeys/authentication", {"credential": response})
        problems = [] if status == 200 and isinstance(body, dict) else ["not 200"]
        if not problems:
            if body.get("objectId") != user_id:
                problems.append("signed in as someone else")
            if not body.get("sessionToken"):
                problems.append("no sessionToken")
            else:
                _, session = self.server.call("GET", "/sessions/me", session=body["sessionToken"])
                created_with = session.get("createdWith") if isinstance(session, dict) else None
                # The stand-in verifies the user (UV): a passkey and its verification, two factors.
                if created_with != {"action": "login", "authProvider": "passkey", "secondFactor": "userVerified"}:
                    problems.append(f"the session's createdWith is {created_with}")
        return self.report.add(step, not problems, status, body, problems=problems)

    def refused(self, step: str, credential, before=None) -> bool:
        """POST /passkeys/authentication must answer Invalid passkey and create no session."""
        before = self.server.session_count() if before is None else before
        status, body = self.server.call("POST", "/passkeys/authentication", {"credential": credential})
        after = self.server.session_count()
        problems = []
        if body != INVALID_PASSKEY:
            problems.append(f"not {INVALID_PASSKEY}")
        if not 400 <= status < 500:
            problems.append(f"HTTP status {status} is not a client error")
        if after != before:
            problems.append(f"sessions went from {before} to {after}")
        return self.report.add(step, not problems, status, body, problems=problems)

    def hostile(self, step: str, state: str, username=None, **flags) -> bool:
        """Fresh options, the stand-in's hostile response, refused."""
        status, options = self.options(username)
        if status != 200:
            return self.report.add(step, False, status, options, problems=["options not 200"])
        return self.refused(step, authenticator.assert_(options, flags.pop("origin", self.origin), state, **flags))

    def run(self) -> Report:
        alice = self.sign_up("signUp")
        if not alice:
            return self.report
        alice_id, alice_name, alice_session = alice
        credential = self.register("register", alice_session, self.state("alice"), "laptop")
        if not credential:
            return self.report
        status, body = self.server.call("GET", "/users/me/passkeys", session=alice_session)
        listed = [p.get("id") for p in body.get("results", [])] if isinstance(body, dict) else []
        self.report.add("list", status == 200 and listed == [credential], status, body)
        status, body = self.server.call("PUT", f"/users/me/passkeys/{credential}", {"name": "phone"}, session=alice_session)
        problems = passkey_problems(body, credential, "phone") if status == 200 else ["not 200"]
        _, listing = self.server.call("GET", "/users/me/passkeys", session=alice_session)
        names = [p.get("name") for p in listing.get("results", [])] if isinstance(listing, dict) else []
        if names != ["phone"]:
            problems.append(f"the list says {names}")
        self.report.add("rename", not problems, status, body, problems=problems)

        self.sign_in("signInUsernameless", self.state("alice"), alice_id)
        self.sign_in("signInWithUsername", self.state("alice"), alice_id, username=alice_name, credential_id=credential)
        _, listing = self.server.call("GET", "/users/me/passkeys", session=alice_session)
        used = [p.get("lastUsedAt") for p in listing.get("results", [])] if isinstance(listing, dict) else []
        self.report.add("lastUsedAt", len(used) == 1 and isinstance(used[0], str), 200, listing)

        # A replayed response: the first use signs in, the second is refused.
        status, options = self.options()
        response = authenticator.assert_(options, self.origin, self.state("alice"))
        status, body = self.server.call("POST", "/passkeys/authentication", {"credential": response})
        self.report.add("replayFirstUse", status == 200 and isinstance(body, dict) and "sessionToken" in body, status, body)
        self.refused("replayedResponse", response)

        self.hostile("wrongOrigin", self.state("alice"), origin=EVIL_ORIGIN)
        self.hostile("noUserVerification", self.state("alice"), uv=False)
        self.hostile("noUserPresence", self.state("alice"), up=False)
        self.hostile("tamperedSignature", self.state("alice"), tamper_signature=True)
        self.hostile("otherRpIdHash", self.state("alice"), rp_id_override="evil.example")

        # Another user's user handle on alice's credential; bob's credential for alice's name.
        bob = self.sign_up("signUpSecondUser")
        if bob and self.register("registerSecondUser", bob[2], self.state("bob"), "bob's"):
            bob_handle = authenticator.load_state(self.state("bob"))["userHandle"]
            self.hostile("otherUsersUserHandle", self.state("alice"), user_handle=bob_handle)
            self.hostile("credentialNotAllowedForUser", self.state("bob"), username=alice_name, ignore_allow_list=True)

        # A deleted credential: registered, deleted, then tried.
        spare = self.register("registerSpare", alice_session, self.state("alice-spare"), "spare")
        if spare:
            status, body = self.server.call("DELETE", f"/users/me/passkeys/{spare}", session=alice_session)
            _, listing = self.server.call("GET", "/users/me/passkeys", session=alice_session)
            listed = [p.get("id") for p in listing.get("results", [])] if isinstance(listing, dict) else []
            self.report.add("delete", status == 200 and body == {} and spare not in listed, status, body)
            self.hostile("deletedCredential", self.state("alice-spare"))
        self.report.add("expiredChallenge", True, None, None, skipped="needs a controllable clock: the Swift tests check it")
        return self.report


# ---- the helpers' own checks (no server)


def self_test() -> int:
    """Runs the wire checks on good and bad shapes, and the report, without a server."""
    challenge = authenticator.b64url_encode(bytes(32))
    good = {
        "rp": {"id": "localhost", "name": "Rooftop"},
        "user": {"id": "q83vEjRWeJCrze8SNFZ4kA", "name": "alice", "displayName": "alice"},
        "challenge": challenge,
        "pubKeyCredParams": [{"type": "public-key", "alg": a} for a in (-7, -8, -257)],
        "timeout": 300000,
        "excludeCredentials": [],
        "authenticatorSelection": {"residentKey": "required", "requireResidentKey": True, "userVerification": "required"},
        "attestation": "none",
    }
    failures = []

    def expect(condition, what):
        if not condition:
            failures.append(what)

    expect(creation_options_problems(good) == [], f"good creation options: {creation_options_problems(good)}")
    expect("user.id is not opaque" in creation_options_problems({**good, "user": {"id": "alice", "name": "alice"}}), "opaque user id")
    expect(creation_options_problems({**good, "challenge": "AAAA"}) != [], "short challenge")
    expect(creation_options_problems({**good, "pubKeyCredParams": [{"type": "public-key", "alg": -7}]}) != [], "algorithms")
    request = {"challenge": challenge, "rpId": "localhost", "userVerification": "required", "allowCredentials": []}
    expect(request_options_problems(request, True) == [], "usernameless request options")
    expect(request_options_problems(request, False, "abc") != [], "the named user's credential missing")
    named = {**request, "allowCredentials": [{"type": "public-key", "id": "abc"}]}
    expect(request_options_problems(named, False, "abc") == [], "named request options")
    expect(request_options_problems(named, True) != [], "usernameless with a list")
    passkey = {"id": "abc", "name": "laptop", "createdAt": "2026-01-01T00:00:00.000Z", "lastUsedAt": None, "backupEligible": True, "backedUp": True}
    expect(passkey_problems(passkey, "abc", "laptop") == [], "good passkey")
    expect(passkey_problems({**passkey, "backedUp": "yes"}, "abc", "laptop") != [], "flags as booleans")
    expect(challenge_length("not base64url!") == -1 and challenge_length(None) == -1, "challenge length of junk")
    # The stand-in's responses have the wire's shape.
    with tempfile.TemporaryDirectory() as directory:
        state = os.path.join(directory, "c.json")
        registration = authenticator.register(good, "http://localhost:1", state)
        expect(set(registration) >= {"id", "rawId", "type", "response", "clientExtensionResults", "authenticatorAttachment"}, "registration keys")
        expect(set(registration["response"]) >= {"clientDataJSON", "attestationObject", "transports"}, "registration response keys")
        assertion = authenticator.assert_(request, "http://localhost:1", state)
        expect(assertion["response"]["userHandle"] == good["user"]["id"], "user handle")
        expect(set(assertion["response"]) == {"clientDataJSON", "authenticatorData", "signature", "userHandle"}, "assertion response keys")
    report = Report()
    report.add("a", True, 200, {})
    expect(report.ok, "report ok")
    report.add("b", False, 404, INVALID_PASSKEY)
    expect(not report.ok and json.loads(report.json())["steps"][1]["body"] == INVALID_PASSKEY, "report not ok")
    print(json.dumps({"ok": not failures, "failures": failures}))
    return 0 if not failures else 1


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["self-test"]:
        return self_test()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", required=True, help="the Parse mount, e.g. http://127.0.0.1:1337/parse")
    parser.add_argument("--app-id", required=True)
    parser.add_argument("--origin", required=True, help="an allowed origin, e.g. http://localhost:1337")
    parser.add_argument("--master-key", required=True, help="to count sessions")
    parser.add_argument("--rest-key")
    parser.add_argument("--alg", default="ES256", choices=sorted(authenticator.ALGORITHMS))
    arguments = parser.parse_args(argv)
    server = Rooftop(arguments.base_url, arguments.app_id, arguments.rest_key, arguments.master_key)
    with tempfile.TemporaryDirectory(prefix="rooftop-passkey-flow-") as directory:
        report = Flow(server, arguments.origin, arguments.alg, directory).run()
    print(report.json())
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
