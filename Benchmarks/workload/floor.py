#!/usr/bin/env python3
"""The floor under the workload's cheap phases: the same client, concurrency and request count
as workload.py, against Benchmarks/RooftopFloor (a bare Hummingbird handler and a bare GRDB
point read). Writes the phases in workload.py's JSON shape.

  floor_handler     GET /floor/handler      a constant who-am-I-sized JSON answer
  floor_point_read  GET /floor/notes/<id>   one SQLite point read, the stored text answered

Usage: floor.py --base-url http://127.0.0.1:PORT --server-pid PID [--reads 5000]
       [--concurrency 32] [--notes 1000] --out floor.json
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aiohttp  # noqa: E402
from workload import BenchError, Probe, Runner, ensure_loopback  # noqa: E402


async def run(args: argparse.Namespace) -> dict:
    ensure_loopback(args.base_url)
    probe = Probe(args.server_pid or [], [])
    timeout = aiohttp.ClientTimeout(total=args.request_timeout)
    connector = aiohttp.TCPConnector(limit=args.concurrency, limit_per_host=args.concurrency)
    headers = {"User-Agent": "backend-bench/1", "Accept": "application/json"}
    # Runner reads only `args.request_timeout` from its adapter.
    adapter = types.SimpleNamespace(args=args)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout, headers=headers) as http:
        runner = Runner(http, adapter, probe, args.concurrency, args.phase_timeout,
                        time.monotonic() + args.total_timeout, verbose=not args.quiet)

        async def get(path: str, expect: str) -> None:
            async with http.get(args.base_url + path, allow_redirects=False) as r:
                body = await r.read()
                if r.status != 200:
                    raise BenchError(f"HTTP {r.status}", body[:200].decode(errors="replace"))
                if expect.encode() not in body:
                    raise BenchError("wrong answer", body[:200].decode(errors="replace"))

        def job(path: str, expect: str):
            return lambda: get(path, expect)

        phases = [
            await runner.phase("floor_handler", [job("/floor/handler", '"objectId":"u0AbCdEfGh"')
                                                 for _ in range(args.reads)]),
            await runner.phase("floor_point_read", [job(f"/floor/notes/n{j % args.notes}", f'"objectId":"n{j % args.notes}"')
                                                    for j in range(args.reads)]),
        ]
    return {"adapter": "floor", "base_url": args.base_url,
            "params": {"reads": args.reads, "concurrency": args.concurrency, "notes": args.notes},
            "phases": [dict(p.__dict__, rps=p.rps, error_count=p.error_count, server_ms_per_req=p.server_ms_per_req)
                       for p in phases],
            "first_errors": runner.first_errors}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base-url", required=True)
    ap.add_argument("--server-pid", type=int, action="append")
    ap.add_argument("--reads", type=int, default=5000)
    ap.add_argument("--concurrency", type=int, default=32)
    ap.add_argument("--notes", type=int, default=1000, help="notes the floor server seeded (its --notes)")
    ap.add_argument("--request-timeout", type=float, default=30.0)
    ap.add_argument("--phase-timeout", type=float, default=90.0)
    ap.add_argument("--total-timeout", type=float, default=240.0)
    ap.add_argument("--out")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    if not (1 <= args.reads <= 1_000_000 and 1 <= args.concurrency <= 1000 and 1 <= args.notes <= 1_000_000):
        ap.error("--reads, --concurrency and --notes must be positive (and bounded)")
    try:
        import uvloop  # type: ignore
        uvloop.install()
    except ImportError:
        pass
    out = asyncio.run(asyncio.wait_for(run(args), timeout=args.total_timeout + args.request_timeout + 30))
    for p in out["phases"]:
        print(f"{p['name']:18s} {p['rps']:9.0f} req/s  p99 {p['p99_ms']:6.1f} ms  "
              f"CPU {p['server_ms_per_req'] or float('nan'):.3f} ms/req  errors {p['error_count']}")
    if out["first_errors"]:
        print(json.dumps(out["first_errors"], indent=1), file=sys.stderr)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(out, f, indent=1, default=str)
    return 1 if any(p["error_count"] for p in out["phases"]) else 0


if __name__ == "__main__":
    sys.exit(main())
