#!/usr/bin/env python3
"""One side-by-side table from a `scripts/bench` run: the shared workload's JSON for Rooftop and
PocketBase, both mixed phases, the bcrypt ceiling, the data sizes and the floor (a bare
Hummingbird handler and a bare SQLite point read in the same run), with each target checked. Prints Markdown; `--record FILE` also appends it, dated, to FILE.
"""
from __future__ import annotations

import argparse
import json
import sys

CHEAP = ("c_create", "d_list_mine", "e_get_own", "f_whoami", "g_forbidden_read", "g_forbidden_update")


def load(path: str | None) -> dict | None:
    if not path:
        return None
    with open(path) as f:
        return json.load(f)


def num(v, nd=2) -> str:
    if v is None or v != v:
        return "–"
    return f"{v:,.{nd}f}"


def verdict(ok: bool | None) -> str:
    return "–" if ok is None else ("met" if ok else "**missed**")


def ceiling(bcrypt: dict | None) -> float | None:
    """Logins per second the machine's cores can verify at cost 10, all cores busy."""
    if not bcrypt:
        return None
    for row in bcrypt["rows"]:
        if row["cost"] == 10:
            return next(v for k, v in row.items() if k.startswith("verify_ops_per_s_"))
    return None


def report(a: argparse.Namespace) -> str:
    rt, pb = load(a.rooftop), load(a.pocketbase)
    rt_mixed, pb_mixed = load(a.rooftop_mixed), load(a.pocketbase_mixed)
    limit = ceiling(load(a.bcrypt))
    pb_phases = {p["name"]: p for p in pb["phases"]} if pb else {}
    lines = [
        "| phase | Rooftop req/s | p50 ms | p99 ms | errors | CPU ms/req | PocketBase req/s | p50 ms | p99 ms | errors "
        "| CPU ms/req | CPU ratio | p99 ratio | target | |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for p in rt["phases"]:
        q = pb_phases.get(p["name"], {})
        cpu_ratio = p["server_ms_per_req"] / q["server_ms_per_req"] if q.get("server_ms_per_req") else None
        p99_ratio = p["p99_ms"] / q["p99_ms"] if q.get("p99_ms") else None
        if p["name"] in CHEAP:
            target = "CPU ≤ 1/3, p99 ≤ 1/2"
            ok = None if cpu_ratio is None else (cpu_ratio <= 1 / 3 and p99_ratio <= 1 / 2)
        else:
            target = f"≥ 95 % of {num(limit, 1)}/s" if limit else "bcrypt ceiling"
            ok = None if limit is None else p["rps"] >= 0.95 * limit
            if limit:
                target += f" ({p['rps'] / limit:.0%})"
        lines.append(
            f"| {p['name']} | {num(p['rps'], 0)} | {num(p['p50_ms'], 1)} | {num(p['p99_ms'], 1)} | {p['error_count']} "
            f"| {num(p['server_ms_per_req'])} | {num(q.get('rps'), 0)} | {num(q.get('p50_ms'), 1)} | {num(q.get('p99_ms'), 1)} "
            f"| {q.get('error_count', '–')} | {num(q.get('server_ms_per_req'))} | {num(cpu_ratio)} | {num(p99_ratio)} "
            f"| {target} | {verdict(ok)} |")
    lines.append("")
    rss_rt = rt["server"]["peak_rss_mib (VmHWM)"]
    rss_pb = pb["server"]["peak_rss_mib (VmHWM)"] if pb else None
    notes = rt["params"]["users"] * rt["params"]["notes_per_user"]
    per_rt = a.rooftop_size / notes if a.rooftop_size else None
    per_pb = a.pocketbase_size / notes if a.pocketbase_size else None
    lines += [
        "| whole run | Rooftop | PocketBase | target | |",
        "|---|---:|---:|---|---|",
        f"| peak RSS (MiB) | {num(rss_rt, 1)} | {num(rss_pb, 1)} | ≤ 1/2 | "
        f"{verdict(None if rss_pb is None else rss_rt <= rss_pb / 2)} |",
        f"| data dir after stop (MiB) | {num(a.rooftop_size and a.rooftop_size / 2**20, 1)} "
        f"| {num(a.pocketbase_size and a.pocketbase_size / 2**20, 1)} | | |",
        f"| data per note (bytes; users, sessions, logs included) | {num(per_rt, 0)} | {num(per_pb, 0)} | ≤ PocketBase's | "
        f"{verdict(None if per_pb is None or per_rt is None else per_rt <= per_pb)} |",
        f"| other CPU s, most in one phase (contention) | {num(max(p['other_cpu_s'] for p in rt['phases']))} "
        f"| {num(max((p['other_cpu_s'] for p in pb['phases']), default=None) if pb else None)} | ≈ 0 | |",
    ]
    if rt_mixed:
        lines += ["", "| mixed phase (logins saturate hashing) | Rooftop | PocketBase | target | |", "|---|---:|---:|---|---|"]
        r, q = rt_mixed["readers"], (pb_mixed or {}).get("readers", {})
        ok = r["p99_ms"] <= 50 and (not q or r["p99_ms"] <= q["p99_ms"] / 2)
        lines.append(f"| readers p99 ms | {num(r['p99_ms'], 1)} | {num(q.get('p99_ms'), 1)} | ≤ 50 and ≤ 1/2 | {verdict(ok)} |")
        lines.append(f"| readers p50 ms | {num(r['p50_ms'], 1)} | {num(q.get('p50_ms'), 1)} | | |")
        lines.append(f"| readers req/s | {num(r['per_s'], 0)} | {num(q.get('per_s'), 0)} | | |")
        for kind, s in rt_mixed["by_kind"].items():
            t = (pb_mixed or {}).get("by_kind", {}).get(kind, {})
            lines.append(f"| {kind} p99 ms | {num(s['p99_ms'], 1)} | {num(t.get('p99_ms'), 1)} | | |")
        lines.append(f"| logins/s meanwhile | {num(rt_mixed['logins_per_s'], 1)} "
                     f"| {num((pb_mixed or {}).get('logins_per_s'), 1)} | | |")
        lines.append(f"| errors | {sum(rt_mixed['errors'].values())} | "
                     f"{sum(pb_mixed['errors'].values()) if pb_mixed else '–'} | 0 | |")
    lines += floor_table(rt, load(a.floor))
    return "\n".join(lines)


def floor_table(rt: dict, floor: dict | None) -> list[str]:
    """Each cheap phase as a multiple of the floor's CPU per request (aim: a get within 3× of
    the bare handler)."""
    if not floor:
        return []
    f = {p["name"]: p for p in floor["phases"]}
    handler = f.get("floor_handler", {}).get("server_ms_per_req")
    point = f.get("floor_point_read", {}).get("server_ms_per_req")
    if not handler or not point:
        return []
    lines = ["", "| above the floor | CPU ms/req | × bare handler | × handler + point read | p99 ms | |",
             "|---|---:|---:|---:|---:|---|"]
    for name in ("floor_handler", "floor_point_read"):
        p = f[name]
        lines.append(f"| {name} | {num(p['server_ms_per_req'], 3)} | {num(p['server_ms_per_req'] / handler)} "
                     f"| {num(p['server_ms_per_req'] / point)} | {num(p['p99_ms'], 1)} | |")
    for p in rt["phases"]:
        if p["name"] not in CHEAP or not p.get("server_ms_per_req"):
            continue
        cpu = p["server_ms_per_req"]
        check = f"≤ 3× handler: {verdict(cpu <= 3 * handler)}" if p["name"] == "e_get_own" else ""
        lines.append(f"| {p['name']} | {num(cpu, 3)} | {num(cpu / handler)} | {num(cpu / point)} "
                     f"| {num(p['p99_ms'], 1)} | {check} |")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rooftop", required=True)
    ap.add_argument("--pocketbase")
    ap.add_argument("--rooftop-mixed")
    ap.add_argument("--pocketbase-mixed")
    ap.add_argument("--bcrypt")
    ap.add_argument("--rooftop-size", type=int)
    ap.add_argument("--pocketbase-size", type=int)
    ap.add_argument("--floor", help="floor.py's JSON (bare Hummingbird handler, bare SQLite point read)")
    ap.add_argument("--record", help="append the table, with --title, to this Markdown file")
    ap.add_argument("--title", default="")
    ap.add_argument("--details", default="", help="a line of parameters printed under the title")
    a = ap.parse_args()
    table = report(a)
    print(table)
    if a.record:
        with open(a.record, "a") as f:
            f.write(f"\n### {a.title}\n\n{a.details}\n\n{table}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
