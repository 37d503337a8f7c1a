"""Passkey sign-in throughput next to password sign-in, on one Rooftop server and one run.

Usage: passkeys.py --base-url http://localhost:PORT/parse --app-id APP --origin http://localhost:PORT
       [--users 48] [--concurrency 16] [--seconds 20] [--out FILE]

Signs up `users` accounts (password, bcrypt cost 10 on the server), registers one passkey each
with the software authenticator of the test suite (Tests/Support/passkey_authenticator.py:
ES256, `none` attestation), then runs two timed phases with `concurrency` clients each: password
logins (`POST /login`), and passkey sign-ins (`POST /passkeys/authentication/options`, sign,
`POST /passkeys/authentication`: two requests and one client-side ECDSA signature each). Prints
one JSON object: sign-ins per second, p50 and p99 of a whole sign-in, errors.
"""
import argparse
import asyncio
import json
import os
import sys
import tempfile
import time

import aiohttp

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Support"))
import passkey_authenticator as authenticator  # noqa: E402

PASSWORD = "bench passkey pass 1"


async def post(session, url, headers, body):
    async with session.post(url, headers=headers, data=json.dumps(body)) as response:
        return response.status, await response.json()


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] if ordered else 0


async def timed(seconds, concurrency, one):
    latencies, errors = [], 0
    deadline = time.monotonic() + seconds

    async def worker(index):
        nonlocal errors
        turn = 0
        while time.monotonic() < deadline:
            start = time.monotonic()
            ok = await one(index, turn)
            turn += 1
            if ok:
                latencies.append((time.monotonic() - start) * 1000)
            else:
                errors += 1

    started = time.monotonic()
    await asyncio.gather(*(worker(i) for i in range(concurrency)))
    elapsed = time.monotonic() - started
    return {
        "per_second": round(len(latencies) / elapsed, 1),
        "p50_ms": round(percentile(latencies, 0.5), 2),
        "p99_ms": round(percentile(latencies, 0.99), 2),
        "count": len(latencies),
        "errors": errors,
    }


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--app-id", required=True)
    parser.add_argument("--origin", required=True)
    parser.add_argument("--users", type=int, default=48)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--out")
    args = parser.parse_args()
    base, headers = args.base_url, {"X-Parse-Application-Id": args.app_id, "Content-Type": "application/json"}
    states = tempfile.mkdtemp(prefix="passkey-bench-")
    names = [f"bench{i}" for i in range(args.users)]
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=args.concurrency * 2)) as session:
        for name in names:
            status, user = await post(session, base + "/users", headers, {"username": name, "password": PASSWORD})
            assert status == 201, user
            signed = dict(headers, **{"X-Parse-Session-Token": user["sessionToken"]})
            _, options = await post(session, base + "/users/me/passkeys/registration/options", signed, {})
            credential = authenticator.register(options, args.origin, os.path.join(states, name))
            status, answer = await post(session, base + "/users/me/passkeys", signed, {"credential": credential})
            assert status == 201, answer

        async def password(index, turn):
            name = names[(index + turn * args.concurrency) % len(names)]
            status, _ = await post(session, base + "/login", headers, {"username": name, "password": PASSWORD})
            return status == 200

        async def passkey(index, turn):
            name = names[(index + turn * args.concurrency) % len(names)]
            status, options = await post(session, base + "/passkeys/authentication/options", headers, {})
            if status != 200:
                return False
            credential = authenticator.assert_(options, args.origin, os.path.join(states, name))
            status, _ = await post(session, base + "/passkeys/authentication", headers, {"credential": credential})
            return status == 200

        result = {
            "users": args.users, "concurrency": args.concurrency, "seconds": args.seconds,
            "password": await timed(args.seconds, args.concurrency, password),
            "passkey": await timed(args.seconds, args.concurrency, passkey),
        }
    result["ratio"] = round(result["passkey"]["per_second"] / max(result["password"]["per_second"], 0.1), 1)
    text = json.dumps(result, indent=2)
    if args.out:
        with open(args.out, "w") as file:
            file.write(text + "\n")
    print(text)


if __name__ == "__main__":
    asyncio.run(main())
