"""A stand-in identity provider on 127.0.0.1 for the sign-in tests: the real protocols over HTTP.

Usage: identity_provider.py PORT [APPLE_KEY_DIR [TLS_PORT TLS_DIR]]

With APPLE_KEY_DIR (Apple mode), the stand-in makes a Sign in with Apple key as Apple's
developer portal would: it writes the operator's AuthKey.p8 (team TEAMSTAND1, key id
KEYSTAND01) there, and WrongKey.p8, a key Apple never issued. The apple tenant's token endpoint
then takes as client_secret only what Apple takes: an ES256 JWT signed with AuthKey.p8, header
kid = the key id, iss = the team id, aud = https://appleid.apple.com, sub = the client id, iat
not in the future, exp in the future and at most six months after iat. Its authorization
endpoint honours response_mode=form_post (Apple's, with the name and email scopes): the
browser returns by POSTing code, state and, on a person's first sign-in, `user` (the name).

Serves, for each OpenID Connect tenant PREFIX in (apple, google, oidc), with issuer
http://127.0.0.1:PORT/PREFIX:
  GET  /PREFIX/.well-known/openid-configuration   discovery
  GET  /PREFIX/keys                                JWKS (RSA and P-256 keys; rotation below)
Facebook-shaped Graph endpoints under /facebook (debug_token, app, me) and GitHub-shaped
GET /github/user and POST /github/applications/CLIENT_ID/token (GitHub's "check a token": Basic
auth with the app's client id and secret, body {"access_token"}; 200 with the token's app and
user only for a live token issued to that app, 404 otherwise, 401 for wrong app credentials). Test hooks (never part of a real provider) under /control:
  POST /control/mint     {"tenant", "sub", "aud", ...}  -> {"token"}: an ID token, honest or hostile
  POST /control/rotate   {"tenant"}                     -> {"kid"}: a new signing key; the old one leaves the JWKS
                                                          (a mint spec's "key": "previous" still signs with it)
  POST /control/jwks-cache {"tenant", "cache_control"}  the Cache-Control header the tenant's JWKS is served with
  POST /control/facebook {"user_id", "app_id", ...}     -> {"token"}: a Facebook access token
  POST /control/github   {"id", "login", "app", ...}    -> {"token"}: a GitHub access token issued to OAuth app "app"
                                                          (default gh-client)
  POST /control/apple-secret {"sub", "expires_in", ...} -> {"token"}: a pre-signed Apple client secret (Apple mode)
  GET  /control/stats                                   -> {"jwks": {tenant: fetches}, "discovery": {...},
                                                            "apple_secrets": [the iat of each distinct client secret accepted]}
OAuth 2.0 authorization-code flows with PKCE (S256) for the browser sign-in tests:
  GET  /PREFIX/authorize, /github/login/oauth/authorize, /facebook/dialog/oauth
                                         an HTML sign-in form (the person types their user id)
  POST the same path                     -> 302 to redirect_uri with a single-use code and state
  POST /PREFIX/token                     -> {"id_token"} (code, redirect_uri, client_id, client_secret, code_verifier)
  POST /github/login/oauth/access_token  -> {"access_token"} (GitHub-shaped)
  GET  /facebook/oauth/access_token      -> {"access_token"} (Graph-shaped)
Codes work once, for 60 seconds of the stand-in's clock, and only with the verifier whose S256
challenge the authorization request carried. More hooks:
  POST /control/clock {"now"}  sets the stand-in's clock (seconds since 1970; ID tokens are minted at it)
  POST /control/advance {"seconds"}  moves it
With TLS_PORT and TLS_DIR, the same endpoints are also served over HTTPS on TLS_PORT with
TLS_DIR/server.pem and server.key (a certificate for 127.0.0.1 from a throwaway CA, as an
internal certificate authority would issue): discovery there names https://127.0.0.1:TLS_PORT
issuers, and POST /hook answers as a webhook receiver ({"success": {"tls": true}}).
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
from html import escape
from urllib.parse import parse_qs, urlencode, urlparse

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
github_tokens = {}  # token -> {"id", "login", "name", "email"}: what GET /user answers
github_apps = {}  # token -> the client id of the OAuth app it was issued to
# The OAuth clients the stand-in knows: client id -> secret, per provider.
CLIENTS = {"oidc": {"client-1": "oidc-secret"}, "apple": {"client-1": "apple-secret"}, "google": {"client-1": "google-secret"},
           "github": {"gh-client": "gh-secret"}, "facebook": dict(FACEBOOK_APPS)}
codes = {}  # code -> {"provider", "client_id", "redirect_uri", "challenge", "nonce", "sub", "issued"}
clock = {"offset": 0.0}
APPLE = None  # Apple mode: {"team_id", "key_id", "public"}
apple_seen = set()  # (client_id, sub) that signed in once: Apple sends `user` the first time only
apple_secrets = {}  # client secret -> its iat, for the tests' renewal checks


def clock_now():
    return time.time() + clock["offset"]


def s256(verifier: str) -> str:
    return b64url(hashlib.sha256(verifier.encode()).digest())


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def new_rsa():
    return "rsa-" + secrets.token_hex(4), rsa.generate_private_key(public_exponent=65537, key_size=2048)


def new_ec():
    return "ec-" + secrets.token_hex(4), ec.generate_private_key(ec.SECP256R1())


# Per tenant: the current RSA and EC keys (kid, private key), and after a rotation the RSA key
# it replaced ("previous": no longer in the JWKS, still able to sign, as a leaked key would).
keys = {t: {"rsa": new_rsa(), "ec": new_ec()} for t in TENANTS}
# Per tenant: the Cache-Control its JWKS is served with (none unless a test sets one).
jwks_cache_control = {}


def public_jwk(kid, key, alg):
    jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key()) if alg == "RS256" else jwt.algorithms.ECAlgorithm.to_jwk(key.public_key()))
    jwk.update({"kid": kid, "use": "sig", "alg": alg})
    return jwk


def jwks(tenant):
    with lock:
        current = keys[tenant]
        return {"keys": [public_jwk(*current["rsa"], "RS256"), public_jwk(*current["ec"], "ES256")]}


def apple_mode(directory):
    """Writes the operator's key and a key Apple never issued, as PKCS#8 PEM (Apple's .p8)."""
    global APPLE
    import os
    keys_written = {}
    for name in ("AuthKey.p8", "WrongKey.p8"):
        key = ec.generate_private_key(ec.SECP256R1())
        path = os.path.join(directory, name)
        with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as out:
            out.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
        keys_written[name] = key
    APPLE = {"team_id": "TEAMSTAND1", "key_id": "KEYSTAND01", "public": keys_written["AuthKey.p8"].public_key(),
             "private": keys_written["AuthKey.p8"]}


def apple_presigned(spec):
    """A client secret signed with AuthKey.p8, as an operator's script would make one by hand."""
    now = int(clock_now())
    claims = {"iss": spec.get("iss", APPLE["team_id"]), "iat": now + int(spec.get("iat_offset", 0)),
              "exp": now + int(spec.get("expires_in", 86400)), "aud": "https://appleid.apple.com", "sub": spec.get("sub", "client-1")}
    return jwt.encode(claims, APPLE["private"], algorithm="ES256", headers={"kid": APPLE["key_id"]})


def apple_client_secret_ok(client_id, secret):
    """Apple's checks of a client secret: ES256 with the registered key, its kid, and the claims."""
    try:
        header = jwt.get_unverified_header(secret or "")
        if header.get("alg") != "ES256" or header.get("kid") != APPLE["key_id"]:
            return False
        claims = jwt.decode(secret, APPLE["public"], algorithms=["ES256"], audience="https://appleid.apple.com", issuer=APPLE["team_id"],
                            options={"require": ["iss", "iat", "exp", "aud", "sub"], "verify_exp": False, "verify_iat": False,
                                     "verify_nbf": False})
    except jwt.PyJWTError:
        return False
    now = clock_now()
    if claims["sub"] != client_id or claims["iat"] > now + 60 or claims["exp"] <= now or claims["exp"] - claims["iat"] > 15777000:
        return False
    with lock:
        apple_secrets[secret] = claims["iat"]
    return True


def mint(spec):
    """An ID token for `spec`; `attack` makes it hostile in one named way."""
    tenant = spec.get("tenant", "oidc")
    now = int(clock_now()) if "now" not in spec else int(spec["now"])
    claims = {
        "iss": spec.get("iss", f"{BASE}/{tenant}"),
        "sub": spec.get("sub", "subject-1"),
        "aud": spec.get("aud", "client-1"),
        "iat": now + int(spec.get("iat_offset", 0)),
        "exp": now + int(spec.get("expires_in", 600)),
    }
    for name in ("nonce", "email", "email_verified", "name", "azp"):
        if name in spec:
            claims[name] = spec[name]
    if "nbf_offset" in spec:
        claims["nbf"] = now + int(spec["nbf_offset"])
    attack = spec.get("attack")
    with lock:
        kid, key = keys[tenant]["ec" if spec.get("alg") == "ES256" else spec.get("key", "rsa")]
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

    def answer(self, status, body, headers=()):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(length) or b"{}")

    def redirect(self, location):
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def sign_in_form(self, provider, query):
        """The provider's sign-in page: the authorization request's parameters, checked, as hidden fields."""
        if query.get("response_type", "code") != "code" or query.get("code_challenge_method") != "S256" or not query.get("code_challenge"):
            return self.answer(400, {"error": "invalid_request", "error_description": "PKCE S256 is required"})
        if query.get("client_id") not in CLIENTS[provider] or not query.get("redirect_uri") or not query.get("state"):
            return self.answer(400, {"error": "invalid_request"})
        asks_profile = {"name", "email"} & set(query.get("scope", "").split())
        if provider == "apple" and APPLE is not None and asks_profile and query.get("response_mode") != "form_post":
            return self.answer(400, {"error": "invalid_request", "error_description": "response_mode must be form_post with name or email"})
        hidden = "".join(f'<input type="hidden" name="{escape(k)}" value="{escape(v)}">' for k, v in sorted(query.items()))
        page = ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>Stand-in sign-in</title></head><body>"
                f"<h1>Sign in to {escape(provider)}</h1><form method='post'>{hidden}"
                "<label for='subject'>User id</label><input id='subject' name='subject' required>"
                "<button id='allow' type='submit' name='decision' value='allow'>Sign in</button>"
                "<button id='deny' type='submit' name='decision' value='deny' formnovalidate>Cancel</button></form></body></html>").encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)

    def sign_in(self, provider, form):
        """The form's post: a code for the subject typed in, back to redirect_uri with the state."""
        target = form.get("redirect_uri", "")
        separator = "&" if "?" in target else "?"
        form_post = form.get("response_mode") == "form_post"
        if form.get("decision") == "deny":
            back = {"error": "user_cancelled_authorize" if form_post else "access_denied", "state": form.get("state", "")}
            return self.post_back(target, back) if form_post else self.redirect(target + separator + urlencode(back))
        code = "code-" + secrets.token_urlsafe(24)
        subject = form.get("subject", "")
        with lock:
            codes[code] = {"provider": provider, "client_id": form.get("client_id"), "redirect_uri": target,
                           "challenge": form.get("code_challenge"), "nonce": form.get("nonce"), "sub": subject,
                           "issued": clock_now()}
        back = {"code": code, "state": form.get("state", "")}
        if not form_post:
            return self.redirect(target + separator + urlencode(back))
        # Apple: the name only on the person's first sign-in with this client, and only when asked for.
        with lock:
            first = (form.get("client_id"), subject) not in apple_seen
            apple_seen.add((form.get("client_id"), subject))
        if first and "name" in form.get("scope", "").split():
            back["user"] = json.dumps({"name": {"firstName": subject.capitalize(), "lastName": "Appleseed"},
                                       "email": subject + "@privaterelay.example"})
        self.post_back(target, back)

    def post_back(self, target, fields):
        """response_mode=form_post: a page whose form the browser submits at once to redirect_uri."""
        hidden = "".join(f'<input type="hidden" name="{escape(k)}" value="{escape(v)}">' for k, v in fields.items())
        page = ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>Returning to the app</title></head>"
                "<body onload='document.forms[0].submit()'>"
                f"<form id='back' method='post' action='{escape(target)}'>{hidden}<noscript><button type='submit'>Continue</button>"
                "</noscript></form></body></html>").encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)

    def redeem(self, provider, form):
        """The token endpoint's checks: a known, unused, fresh code for this client, redirect_uri and PKCE verifier."""
        with lock:
            grant = codes.pop(form.get("code", ""), None)  # single use: gone even when the rest is wrong
        if grant is None or grant["provider"] != provider or clock_now() - grant["issued"] > 60:
            return None, "invalid_grant"
        if form.get("client_id") != grant["client_id"]:
            return None, "invalid_client"
        if provider == "apple" and APPLE is not None:
            if not apple_client_secret_ok(grant["client_id"], form.get("client_secret")):
                return None, "invalid_client"
        elif CLIENTS[provider].get(grant["client_id"]) != form.get("client_secret"):
            return None, "invalid_client"
        if form.get("redirect_uri") != grant["redirect_uri"]:
            return None, "invalid_grant"
        verifier = form.get("code_verifier", "")
        if not verifier or s256(verifier) != grant["challenge"]:
            return None, "invalid_grant"
        return grant, None

    def form(self):
        length = int(self.headers.get("Content-Length") or 0)
        return {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}

    def do_GET(self):
        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        parts = url.path.strip("/").split("/")
        if len(parts) == 2 and parts[0] in TENANTS and parts[1] == "authorize":
            return self.sign_in_form(parts[0], query)
        if url.path == "/github/login/oauth/authorize":
            return self.sign_in_form("github", query)
        if url.path == "/facebook/dialog/oauth":
            return self.sign_in_form("facebook", query)
        if url.path == "/facebook/oauth/access_token":
            grant, error = self.redeem("facebook", query)
            if error:
                return self.answer(400, {"error": {"message": error, "type": "OAuthException", "code": 100}})
            token = "EAA" + secrets.token_urlsafe(24)
            with lock:
                facebook_tokens[token] = {"user_id": grant["sub"], "app_id": grant["client_id"], "valid": True, "name": "Fay", "email": None}
            return self.answer(200, {"access_token": token, "token_type": "bearer", "expires_in": 5183944})
        if len(parts) >= 2 and parts[0] in TENANTS:
            tenant = parts[0]
            rest = "/".join(parts[1:])
            if rest == ".well-known/openid-configuration":
                with lock:
                    stats["discovery"][tenant] += 1
                issuer = f"{self.server.base}/{tenant}"
                return self.answer(200, {
                    "issuer": issuer, "jwks_uri": f"{issuer}/keys", "authorization_endpoint": f"{issuer}/authorize",
                    "token_endpoint": f"{issuer}/token", "userinfo_endpoint": f"{issuer}/userinfo",
                    "id_token_signing_alg_values_supported": ["RS256", "ES256"], "response_types_supported": ["code"],
                    "subject_types_supported": ["public"], "code_challenge_methods_supported": ["S256"],
                })
            if rest == "keys":
                with lock:
                    stats["jwks"][tenant] += 1
                with lock:
                    cache = jwks_cache_control.get(tenant)
                return self.answer(200, jwks(tenant), [("Cache-Control", cache)] if cache else ())
        if url.path == "/control/stats":
            with lock:
                return self.answer(200, {**stats, "apple_secrets": sorted(set(apple_secrets.values()))})
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

    def github_check(self, client_id):
        """GitHub's POST /applications/{client_id}/token, as GitHub answers it."""
        auth = self.headers.get("Authorization", "")
        try:
            user, _, secret = base64.b64decode(auth[6:]).decode().partition(":") if auth.startswith("Basic ") else ("", "", "")
        except ValueError:
            user, secret = "", ""
        if user != client_id or CLIENTS["github"].get(client_id) is None or not hmac.compare_digest(CLIENTS["github"][client_id], secret):
            return self.answer(401, {"message": "Requires authentication"})
        token = (self.body() or {}).get("access_token")
        if not isinstance(token, str) or not token:
            return self.answer(422, {"message": "Validation Failed"})
        with lock:
            user = github_tokens.get(token)
            app = github_apps.get(token)
        if user is None or app != client_id:
            return self.answer(404, {"message": "Not Found"})
        return self.answer(200, {
            "id": 1, "token": token, "token_last_eight": token[-8:], "scopes": ["read:user"],
            "app": {"client_id": app, "name": "stand-in app", "url": "http://example.invalid"},
            "user": {"login": user["login"], "id": user["id"], "type": "User"},
        })

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
        url = urlparse(self.path)
        parts = url.path.strip("/").split("/")
        if len(parts) == 2 and parts[0] in TENANTS and parts[1] in ("authorize", "token"):
            form = self.form()
            if parts[1] == "authorize":
                return self.sign_in(parts[0], form)
            grant, error = self.redeem(parts[0], form)
            if error:
                return self.answer(400, {"error": error})
            token = mint({"tenant": parts[0], "sub": grant["sub"], "aud": grant["client_id"], "nonce": grant["nonce"],
                          "email": grant["sub"] + "@example.com", "email_verified": True})
            return self.answer(200, {"id_token": token, "access_token": "at-" + secrets.token_urlsafe(16), "token_type": "Bearer"})
        if url.path == "/github/login/oauth/authorize":
            return self.sign_in("github", self.form())
        if url.path == "/facebook/dialog/oauth":
            return self.sign_in("facebook", self.form())
        if len(parts) == 4 and parts[:2] == ["github", "applications"] and parts[3] == "token":
            return self.github_check(parts[2])
        if url.path == "/github/login/oauth/access_token":
            grant, error = self.redeem("github", self.form())
            if error:
                return self.answer(200, {"error": error})  # GitHub answers errors with 200
            token = "gho_" + secrets.token_urlsafe(24)
            with lock:
                github_tokens[token] = {"id": int(grant["sub"]) if grant["sub"].isdigit() else 0, "login": "octo", "name": None,
                                        "email": None}
                github_apps[token] = grant["client_id"]
            return self.answer(200, {"access_token": token, "token_type": "bearer", "scope": "read:user"})
        spec = self.body()
        if self.path == "/hook":
            return self.answer(200, {"success": {"tls": self.server.base.startswith("https")}})
        if self.path == "/control/clock":
            clock["offset"] = float(spec["now"]) - time.time()
            return self.answer(200, {})
        if self.path == "/control/advance":
            clock["offset"] += float(spec["seconds"])
            return self.answer(200, {})
        if self.path == "/control/apple-secret":
            return self.answer(200, {"token": apple_presigned(spec)})
        if self.path == "/control/mint":
            return self.answer(200, {"token": mint(spec)})
        if self.path == "/control/rotate":
            tenant = spec.get("tenant", "oidc")
            with lock:
                keys[tenant]["previous"] = keys[tenant]["rsa"]
                keys[tenant]["rsa"] = new_rsa()
                kid = keys[tenant]["rsa"][0]
            return self.answer(200, {"kid": kid})
        if self.path == "/control/jwks-cache":
            with lock:
                jwks_cache_control[spec.get("tenant", "oidc")] = spec.get("cache_control")
            return self.answer(200, {})
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
                github_apps[token] = spec.get("app", "gh-client")
            return self.answer(200, {"token": token})
        self.answer(404, {"error": "not found"})


# The test process may start us with SIGTERM blocked (it inherits the spawning thread's mask):
# unblock it, so the stop by PID ends us.
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
if len(sys.argv) > 2:
    apple_mode(sys.argv[2])
server = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
server.daemon_threads = True
server.base = BASE
if len(sys.argv) > 4:
    import ssl
    tls_port, tls_dir = int(sys.argv[3]), sys.argv[4]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tls_dir + "/server.pem", tls_dir + "/server.key")
    secure = ThreadingHTTPServer(("127.0.0.1", tls_port), Handler)
    secure.daemon_threads = True
    secure.socket = context.wrap_socket(secure.socket, server_side=True)
    secure.base = f"https://127.0.0.1:{tls_port}"
    threading.Thread(target=secure.serve_forever, daemon=True).start()
print("ready", flush=True)
server.serve_forever()
