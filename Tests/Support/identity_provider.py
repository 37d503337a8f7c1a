"""A stand-in identity provider on 127.0.0.1 for the sign-in tests: the real protocols over HTTP.

Usage: identity_provider.py PORT

Serves, for each OpenID Connect tenant PREFIX in (apple, google, oidc), with issuer
http://127.0.0.1:PORT/PREFIX:
  GET  /PREFIX/.well-known/openid-configuration   discovery
  GET  /PREFIX/keys                                JWKS (RSA and P-256 keys; rotation below)
Facebook-shaped Graph endpoints under /facebook (debug_token, app, me) and a GitHub-shaped
GET /github/user. Test hooks (never part of a real provider) under /control:
  POST /control/mint     {"tenant", "sub", "aud", ...}  -> {"token"}: an ID token, honest or hostile
  POST /control/rotate   {"tenant"}                     -> {"kid"}: a new signing key; the old one leaves the JWKS
  POST /control/facebook {"user_id", "app_id", ...}     -> {"token"}: a Facebook access token
  POST /control/github   {"id", "login", ...}           -> {"token"}: a GitHub access token
  GET  /control/stats                                   -> {"jwks": {tenant: fetches}, "discovery": {...}}
Prints "ready" on stdout once listening.
"""

import base64
import hashlib
import hmac
import json
import secrets
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

PORT = int(sys.argv[1])
BASE = f"http://127.0.0.1:{PORT}"
TENANTS = ("apple", "google", "oidc")
FACEBOOK_APPS = {"fb-app": "fb-secret", "other-app": "other-secret"}

lock = threading.Lock()
stats = {"jwks": {t: 0 for t in TENANTS}, "discovery": {t: 0 for t in TENANTS}}
facebook_tokens = {}  # token -> {"user_id", "app_id", "valid", "name", "email"}
github_tokens = {}  # token -> {"id", "login", "name", "email"}


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def new_rsa():
    return "rsa-" + secrets.token_hex(4), rsa.generate_private_key(public_exponent=65537, key_size=2048)


def new_ec():
    return "ec-" + secrets.token_hex(4), ec.generate_private_key(ec.SECP256R1())


# Per tenant: the current RSA and EC keys (kid, private key).
keys = {t: {"rsa": new_rsa(), "ec": new_ec()} for t in TENANTS}


def public_jwk(kid, key, alg):
    jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key()) if alg == "RS256" else jwt.algorithms.ECAlgorithm.to_jwk(key.public_key()))
    jwk.update({"kid": kid, "use": "sig", "alg": alg})
    return jwk


def jwks(tenant):
    with lock:
        current = keys[tenant]
        return {"keys": [public_jwk(*current["rsa"], "RS256"), public_jwk(*current["ec"], "ES256")]}


def mint(spec):
    """An ID token for `spec`; `attack` makes it hostile in one named way."""
    tenant = spec.get("tenant", "oidc")
    now = int(time.time()) if "now" not in spec else int(spec["now"])
    claims = {
        "iss": spec.get("iss", f"{BASE}/{tenant}"),
        "sub": spec.get("sub", "subject-1"),
        "aud": spec.get("aud", "client-1"),
        "iat": now + int(spec.get("iat_offset", 0)),
        "exp": now + int(spec.get("expires_in", 600)),
    }
    for name in ("nonce", "email", "email_verified", "name"):
        if name in spec:
            claims[name] = spec[name]
    attack = spec.get("attack")
    with lock:
        kid, key = keys[tenant]["ec" if spec.get("alg") == "ES256" else "rsa"]
    alg = spec.get("alg", "RS256")
    headers = {"kid": kid}
    headers.update(spec.get("headers", {}))
    if attack == "unknown_key":
        # Signed by a key the provider never published (and pointing at it with jku/x5u).
        _, rogue = new_rsa()
        return jwt.encode(claims, rogue, algorithm="RS256", headers={"kid": "rogue-" + secrets.token_hex(3), **spec.get("headers", {})})
    if attack == "foreign_key_same_kid":
        _, rogue = new_rsa()
        return jwt.encode(claims, rogue, algorithm="RS256", headers=headers)
    if attack == "none":
        header = {"alg": "none", "typ": "JWT", "kid": kid}
        return b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(claims).encode()) + "."
    if attack == "hmac_public_key":
        # HS256 keyed with the provider's public key (PEM), the classic algorithm confusion.
        pem = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        header = {"alg": "HS256", "typ": "JWT", "kid": kid}
        signing_input = b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(claims).encode())
        signature = hmac.new(pem, signing_input.encode(), hashlib.sha256).digest()
        return signing_input + "." + b64url(signature)
    if attack == "rs512":
        return jwt.encode(claims, key, algorithm="RS512", headers=headers)
    return jwt.encode(claims, key, algorithm=alg, headers=headers)


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(length) or b"{}")

    def do_GET(self):
        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        parts = url.path.strip("/").split("/")
        if len(parts) >= 2 and parts[0] in TENANTS:
            tenant = parts[0]
            rest = "/".join(parts[1:])
            if rest == ".well-known/openid-configuration":
                with lock:
                    stats["discovery"][tenant] += 1
                issuer = f"{BASE}/{tenant}"
                return self.answer(200, {
                    "issuer": issuer, "jwks_uri": f"{issuer}/keys", "authorization_endpoint": f"{issuer}/authorize",
                    "token_endpoint": f"{issuer}/token", "userinfo_endpoint": f"{issuer}/userinfo",
                    "id_token_signing_alg_values_supported": ["RS256", "ES256"], "response_types_supported": ["code"],
                    "subject_types_supported": ["public"], "code_challenge_methods_supported": ["S256"],
                })
            if rest == "keys":
                with lock:
                    stats["jwks"][tenant] += 1
                return self.answer(200, jwks(tenant))
        if url.path == "/control/stats":
            with lock:
                return self.answer(200, stats)
        if parts[0] == "facebook":
            return self.facebook(parts[1] if len(parts) > 1 else "", query)
        if url.path == "/github/user":
            auth = self.headers.get("Authorization", "")
            token = auth[7:] if auth.lower().startswith("bearer ") else ""
            with lock:
                user = github_tokens.get(token)
            if user is None:
                return self.answer(401, {"message": "Bad credentials"})
            return self.answer(200, user)
        self.answer(404, {"error": "not found"})

    def facebook(self, endpoint, query):
        token = query.get("access_token", "")
        if endpoint == "debug_token":
            app_id, _, secret = token.partition("|")
            if FACEBOOK_APPS.get(app_id) != secret:
                return self.answer(400, {"error": {"message": "Invalid OAuth access token.", "code": 190}})
            with lock:
                info = facebook_tokens.get(query.get("input_token", ""))
            if info is None:
                return self.answer(200, {"data": {"is_valid": False, "error": {"code": 190}}})
            return self.answer(200, {"data": {"app_id": info["app_id"], "is_valid": info["valid"], "user_id": info["user_id"], "type": "USER"}})
        with lock:
            info = facebook_tokens.get(token)
        if info is None or not info["valid"]:
            return self.answer(400, {"error": {"message": "Invalid OAuth access token.", "code": 190}})
        if endpoint == "app":
            return self.answer(200, {"id": info["app_id"], "name": "app"})
        if endpoint == "me":
            proof = query.get("appsecret_proof")
            if proof is not None:
                expected = hmac.new(FACEBOOK_APPS[info["app_id"]].encode(), token.encode(), hashlib.sha256).hexdigest()
                if not hmac.compare_digest(proof, expected):
                    return self.answer(400, {"error": {"message": "Invalid appsecret_proof", "code": 100}})
            me = {"id": info["user_id"]}
            for name in ("name", "email"):
                if info.get(name) is not None:
                    me[name] = info[name]
            return self.answer(200, me)
        self.answer(404, {"error": {"message": "Unknown path"}})

    def do_POST(self):
        spec = self.body()
        if self.path == "/control/mint":
            return self.answer(200, {"token": mint(spec)})
        if self.path == "/control/rotate":
            tenant = spec.get("tenant", "oidc")
            with lock:
                keys[tenant]["rsa"] = new_rsa()
                kid = keys[tenant]["rsa"][0]
            return self.answer(200, {"kid": kid})
        if self.path == "/control/facebook":
            token = "EAA" + secrets.token_urlsafe(24)
            with lock:
                facebook_tokens[token] = {
                    "user_id": spec.get("user_id", "1001"), "app_id": spec.get("app_id", "fb-app"), "valid": spec.get("valid", True),
                    "name": spec.get("name"), "email": spec.get("email"),
                }
            return self.answer(200, {"token": token})
        if self.path == "/control/github":
            token = "gho_" + secrets.token_urlsafe(24)
            with lock:
                github_tokens[token] = {
                    "id": int(spec.get("id", 2001)), "login": spec.get("login", "octo"), "name": spec.get("name"), "email": spec.get("email"),
                }
            return self.answer(200, {"token": token})
        self.answer(404, {"error": "not found"})


# The test process may start us with SIGTERM blocked (it inherits the spawning thread's mask):
# unblock it, so the stop by PID ends us.
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
server = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
server.daemon_threads = True
print("ready", flush=True)
server.serve_forever()
