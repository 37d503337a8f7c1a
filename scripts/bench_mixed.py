#!/usr/bin/env python3
"""The mixed phase: password logins saturate the server's hashing while other clients read.

Runs against any server the shared workload has an adapter for (`parse`, `pocketbase`), with
that workload's own adapters, so both servers see the same requests. Set-up (unmeasured): sign
up and log in USERS users, each creating NOTES notes. Then LOGINS clients log in back to back
and, once they have run for --warmup seconds, READERS clients cycle through "who am I", "get one
of my notes" and "list my notes" for --seconds. Reported: the readers' latency (p50/p99 per
kind and together), their rate, the login rate over the same window, and server CPU.

Loopback only; bounded in time (every loop stops at its deadline; requests time out).
Usage: bench_mixed.py parse|pocketbase --base-url URL [--server-pid PID] [--out FILE] [...]
"""
from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import sys
import time

sys.path.insert(0, os.environ.get("WORKLOAD_DIR", os.path.join(os.path.dirname(__file__), "../Benchmarks/workload")))
import aiohttp  # noqa: E402
import workload  # noqa: E402  (the shared workload: adapters, probes, percentiles)


def parse_args() -> tuple[argparse.Namespace, argparse.Namespace]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("adapter", choices=sorted(workload.ADAPTERS))
    ap.add_argument("--base-url", required=True)
    ap.add_argument("--users", type=int, default=32, help="users signed up for the phase")
    ap.add_argument("--notes", type=int, default=20, help="notes each user creates first")
    ap.add_argument("--logins", type=int, default=16, help="clients logging in back to back")
    ap.add_argument("--readers", type=int, default=16, help="clients reading")
    ap.add_argument("--warmup", type=float, default=2.0, help="seconds of logins alone before reading starts")
    ap.add_argument("--seconds", type=float, default=15.0, help="seconds both run together")
    ap.add_argument("--setup", action="store_true", help="let the adapter prepare the server (PocketBase collection)")
    ap.add_argument("--server-pid", type=int, action="append")
    ap.add_argument("--out")
    ap.add_argument("--parse-app-id", default="benchapp")
    mine = ap.parse_args()
    # The workload's own options, for its adapters (admin credentials come from PB_ADMIN_*).
    shared = workload.parse_args([mine.adapter, "--base-url", mine.base_url, "--parse-app-id", mine.parse_app_id])
    return mine, shared


async def run(args: argparse.Namespace, shared: argparse.Namespace) -> dict:
    workload.ensure_loopback(args.base_url)
    adapter = workload.ADAPTERS[args.adapter](args.base_url, shared)
    probe = workload.Probe(args.server_pid or [], [])
    run_id = os.urandom(3).hex()
    clients = args.logins + args.readers
    connector = aiohttp.TCPConnector(limit=clients, limit_per_host=clients)
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout, headers={"User-Agent": "backend-bench/1"}) as http:
        if args.setup:
            await adapter.setup(http)
        users = [workload.User(i, f"mixed_{run_id}_{i}@example.com", f"mixed_{run_id}_{i}", f"Pw-{run_id}-{i:05d}-secret")
                 for i in range(args.users)]
        await bounded(8, [adapter.signup(http, u) for u in users])
        await bounded(8, [adapter.login(http, u) for u in users])
        notes = [(u, {"title": f"note {k}", "body": "x" * 256, "score": k}) for u in users for k in range(args.notes)]

        async def create(u: workload.User, note: dict) -> None:
            u.note_ids.append(await adapter.create_note(http, u, note))
        await bounded(16, [create(u, n) for u, n in notes])

        stop_logins = time.monotonic() + args.warmup + args.seconds
        login_times: list[float] = []
        errors: dict[str, int] = {}

        def failed(kind: str) -> None:
            errors[kind] = errors.get(kind, 0) + 1

        async def login_loop(i: int) -> None:
            # Its own copies: readers keep the tokens they were given.
            user = workload.User(**{**users[i % len(users)].__dict__, "note_ids": []})
            while time.monotonic() < stop_logins:
                try:
                    await adapter.login(http, user)
                    login_times.append(time.monotonic())
                except (workload.BenchError, aiohttp.ClientError, asyncio.TimeoutError) as e:
                    failed(f"login: {getattr(e, 'kind', type(e).__name__)}")

        loaders = [asyncio.ensure_future(login_loop(i)) for i in range(args.logins)]
        await asyncio.sleep(args.warmup)
        start = time.monotonic()
        end = start + args.seconds
        cpu0 = probe.server_cpu()
        latencies: dict[str, list[float]] = {"whoami": [], "get_own": [], "list_mine": []}
        kinds = itertools.cycle(latencies)

        async def reader(i: int) -> None:
            for j in itertools.count():
                if time.monotonic() >= end:
                    return
                u = users[(i + j) % len(users)]
                kind = next(kinds)
                t0 = time.perf_counter()
                try:
                    if kind == "whoami":
                        ok = await adapter.whoami(http, u) == u.user_id
                    elif kind == "get_own":
                        note_id = u.note_ids[j % len(u.note_ids)]
                        ok = (await adapter.get_note(http, u, note_id)).id == note_id
                    else:
                        ok = len(await adapter.list_my_notes(http, u, 100)) == len(u.note_ids)
                    if not ok:
                        failed(f"{kind}: wrong answer")
                except (workload.BenchError, aiohttp.ClientError, asyncio.TimeoutError) as e:
                    failed(f"{kind}: {getattr(e, 'kind', type(e).__name__)}")
                latencies[kind].append(time.perf_counter() - t0)

        await asyncio.gather(*(reader(i) for i in range(args.readers)))
        window = time.monotonic() - start
        cpu1 = probe.server_cpu()
        await asyncio.gather(*loaders)

    def summary(values: list[float]) -> dict:
        values = sorted(values)
        return {"requests": len(values), "per_s": round(len(values) / window, 1),
                "p50_ms": round(workload.percentile(values, 50) * 1000, 2),
                "p99_ms": round(workload.percentile(values, 99) * 1000, 2),
                "max_ms": round(values[-1] * 1000, 2) if values else None}

    logins = sum(1 for t in login_times if start <= t <= start + window)
    everything = [v for values in latencies.values() for v in values]
    return {
        "adapter": adapter.name, "run_id": run_id,
        "params": {k: getattr(args, k) for k in ("users", "notes", "logins", "readers", "warmup", "seconds")},
        "window_s": round(window, 2),
        "logins_per_s": round(logins / window, 1),
        "readers": summary(everything),
        "by_kind": {kind: summary(values) for kind, values in latencies.items()},
        "server_cpu_s": round(cpu1 - cpu0, 2) if cpu0 is not None and cpu1 is not None else None,
        "errors": errors,
    }


async def bounded(limit: int, jobs: list) -> None:
    """Runs the coroutines at most `limit` at a time; the first failure stops the set-up."""
    gate = asyncio.Semaphore(limit)

    async def one(job) -> None:
        async with gate:
            await job
    await asyncio.gather(*(one(j) for j in jobs))


def main() -> int:
    args, shared = parse_args()
    try:
        import uvloop  # type: ignore
        uvloop.install()
    except ImportError:
        pass
    limit = args.warmup + args.seconds + 300  # set-up included; never runs unbounded
    out = asyncio.run(asyncio.wait_for(run(args, shared), timeout=limit))
    r = out["readers"]
    print(f"mixed ({out['adapter']}): readers {r['per_s']}/s p50 {r['p50_ms']} ms p99 {r['p99_ms']} ms; "
          f"logins {out['logins_per_s']}/s; errors {sum(out['errors'].values())}")
    for kind, s in out["by_kind"].items():
        print(f"  {kind:10s} {s['per_s']:8.1f}/s  p50 {s['p50_ms']:7.2f} ms  p99 {s['p99_ms']:7.2f} ms")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(out, f, indent=1)
    return 1 if out["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
