#!/usr/bin/env python3
"""Helper of scripts/trace (read its header for the method).

  trace_report.py drive  --port P --data-dir D --scenario get|login --repeat N [--new-connection]
      Waits for the server, signs up a user, creates one Note owned by it, sends the scenario's
      request once (warm-up), then N more times. Every answer must be a 2xx.
  trace_report.py report --bin B --a A.profdata --b B.profdata --repeat N --scenario S --root R
      Compares two profiles of the same binary (run A: warm-up only; run B: warm-up and N more
      requests) and prints the source files, adapter calls and SQL statements the N requests
      added.
"""

import argparse
import http.client
import json
import os
import re
import subprocess
import sys
import time
from collections import defaultdict

SCENARIOS = {
    "get": "GET /parse/classes/Note/<id> with the owner's X-Parse-Session-Token",
    "login": "POST /parse/login with username and password in the JSON body",
}

# Targets in the order a request meets them (top to bottom); any other target follows, by name.
LAYERS = [
    "RooftopMain", "RooftopServer", "RooftopHTTP", "RooftopServices", "RooftopIdentity",
    "RooftopCore", "RooftopStorage", "RooftopSQLite", "RooftopPostgres", "RooftopCrypto",
    "RooftopMail", "RooftopWebhooks", "RooftopOutbound", "RooftopS3",
]

# The adapter's doors to a database connection: every store round trip goes through one of them.
DOORS = ("onReaderHere", "onReader", "writeTransaction")

# GRDB runs this once per statement execution (Statement.executeAllSteps/forEachStep/step).
GRDB_STATEMENT = "statementWillExecute"
GRDB_FILE = "Database+Statements.swift"


# MARK: drive

class Client:
    def __init__(self, port, app_id, new_connection):
        self.port, self.app_id, self.new_connection = port, app_id, new_connection
        self.connection = None

    def call(self, method, path, body=None, session=None):
        if self.connection is None or self.new_connection:
            if self.connection is not None:
                self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        headers = {"X-Parse-Application-Id": self.app_id}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if session:
            headers["X-Parse-Session-Token"] = session
        self.connection.request(method, path, body=data, headers=headers)
        response = self.connection.getresponse()
        text = response.read()
        if not 200 <= response.status < 300:
            sys.exit(f"trace: {method} {path} answered {response.status}: {text[:300]!r}")
        return json.loads(text) if text else {}

    def close(self):
        if self.connection is not None:
            self.connection.close()


def wait_for_server(port, keys_path, timeout=300):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/parse/health")
            if connection.getresponse().status == 200 and os.path.exists(keys_path):
                connection.close()
                return
        except OSError:
            pass
        time.sleep(0.2)
    sys.exit(f"trace: no server on port {port} after {timeout} s")


def drive(args):
    keys_path = os.path.join(args.data_dir, "keys.json")
    wait_for_server(args.port, keys_path)
    with open(keys_path) as f:
        app_id = json.load(f)["appId"]
    client = Client(args.port, app_id, args.new_connection)
    user = {"username": "trace-owner", "password": "correct horse battery staple"}
    signed = client.call("POST", "/parse/users", user)
    owner, session = signed["objectId"], signed["sessionToken"]
    note = client.call(
        "POST", "/parse/classes/Note",
        {"title": "traced", "ACL": {owner: {"read": True, "write": True}}}, session=session)
    if args.scenario == "get":
        def request():
            answer = client.call("GET", f"/parse/classes/Note/{note['objectId']}", session=session)
            assert answer.get("objectId") == note["objectId"], answer
    else:
        def request():
            answer = client.call("POST", "/parse/login", user)
            assert answer.get("sessionToken"), answer
    for _ in range(1 + args.repeat):
        request()
    client.close()


# MARK: report

def export_functions(llvm_cov, binary, profdata, sources):
    """(file, function name) → execution count, for functions whose body is in `sources`."""
    out = subprocess.run(
        [llvm_cov, "export", "-format=text", "-skip-expansions", "-instr-profile", profdata, binary, *sources],
        check=True, capture_output=True, text=True).stdout
    counts = defaultdict(int)
    for data in json.loads(out)["data"]:
        for function in data["functions"]:
            counts[(function["filenames"][0], function["name"])] += function["count"]
    return counts


def demangle(names):
    plain = [n.split(":", 1)[1] if re.match(r"^[^$]*\.swift:", n) else n for n in names]
    try:
        out = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(plain) + "\n",
                             check=True, capture_output=True, text=True).stdout.splitlines()
        if len(out) == len(plain):
            return dict(zip(names, out))
    except (OSError, subprocess.CalledProcessError):
        pass
    return dict(zip(names, plain))


def short_name(demangled):
    """`closure #1 in SQLiteStore.read<A>(_:inline:_:)` → kept; drops argument types and module names."""
    name = re.sub(r"\b(Rooftop\w*|GRDB|Swift|Foundation)\.", "", demangled)
    return name


def target_of(relative):
    parts = relative.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "Sources" else parts[0]


def target_rank(target):
    return (LAYERS.index(target), "") if target in LAYERS else (len(LAYERS), target)


def report(args):
    root = os.path.realpath(args.root)
    sources = [os.path.join(root, "Sources")]
    grdb = [os.path.join(dp, f) for dp, _, fs in os.walk(os.path.join(args.scratch, "checkouts"))
            for f in fs if f == GRDB_FILE]
    a = export_functions(args.llvm_cov, args.bin, args.a, sources + grdb)
    b = export_functions(args.llvm_cov, args.bin, args.b, sources + grdb)
    n = args.repeat
    delta = {key: b.get(key, 0) - a.get(key, 0) for key in set(a) | set(b)}
    names = demangle(sorted({name for (_, name) in delta}))

    statements = sum(d for (path, name), d in delta.items()
                     if path.endswith(GRDB_FILE) and GRDB_STATEMENT in names[name] and "Database." in names[name])
    per_file = defaultdict(list)    # files every request runs: some function ran ≥ N more times
    occasional = defaultdict(int)   # ran more in B, but fewer than N times: not every request
    packages = defaultdict(set)     # the dependencies' files every request runs, by package
    for (path, name), d in delta.items():
        if d < n and (d <= 0 or not path.startswith(sources[0] + os.sep)):
            continue
        if not path.startswith(sources[0] + os.sep):
            match = re.search(r"/checkouts/([^/]+)/", path)
            packages[match.group(1) if match else "toolchain"].add(path)
            continue
        relative = os.path.relpath(path, root)
        if d >= n:
            per_file[relative].append((d / n, short_name(names[name])))
        else:
            occasional[relative] = max(occasional[relative], d)
    for relative in per_file:
        occasional.pop(relative, None)

    doors = []
    for (path, name), d in delta.items():
        shown = short_name(names[name])
        if "RooftopSQLite" in path and d > 0 and re.match(r"^SQLiteStore\.(%s)\b" % "|".join(DOORS), shown):
            doors.append((d / n, shown))
    trips = sum(calls for calls, _ in doors)
    entries = sorted(
        ((d / n, short_name(names[name])) for (path, name), d in delta.items()
         if "/Sources/RooftopSQLite/" in path and d >= n and re.match(r"^SQLiteStore\.\w+\(", short_name(names[name]))),
        key=lambda e: e[1])

    by_target = defaultdict(list)
    for relative in per_file:
        by_target[target_of(relative)].append(relative)
    print(f"## {args.scenario}: {SCENARIOS[args.scenario]}")
    print(f"requests compared: {n} (run B minus run A)")
    print(f"files: {len(per_file)} in {len(by_target)} targets")
    print(f"trips down to the store and back per request: {trips:g}"
          f" (database connection uses: {', '.join(f'{c:g} × {s}' for c, s in sorted(doors, key=lambda d: d[1])) or 'none'})")
    print(f"SQL statements per request: {statements / n:g}" if grdb else "SQL statements per request: unknown (GRDB's source not found)")
    print(f"dependencies' files (not counted above): {sum(len(f) for f in packages.values())}, "
          + ", ".join(f"{p} {len(f)}" for p, f in sorted(packages.items(), key=lambda i: (-len(i[1]), i[0]))))
    print("adapter functions per request: " + (", ".join(f"{c:g} × {s}" for c, s in entries) or "none"))
    for target in sorted(by_target, key=target_rank):
        files = sorted(by_target[target])
        print(f"\n{target} ({len(files)}):")
        for relative in files:
            functions = sorted(per_file[relative], key=lambda f: -f[0])
            line = f"  {relative.split('/', 2)[-1]}"
            if args.functions:
                line += "  —  " + "; ".join(f"{c:g} × {s}" for c, s in functions)
            print(line)
    if occasional:
        print("\nran more in run B, but fewer times than requests (not every request, or background work):")
        for relative in sorted(occasional):
            print(f"  {relative}  (+{occasional[relative]})")
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    d = commands.add_parser("drive")
    d.add_argument("--port", type=int, required=True)
    d.add_argument("--data-dir", required=True)
    d.add_argument("--scenario", choices=SCENARIOS, required=True)
    d.add_argument("--repeat", type=int, default=0)
    d.add_argument("--new-connection", action="store_true")
    r = commands.add_parser("report")
    r.add_argument("--bin", required=True)
    r.add_argument("--a", required=True)
    r.add_argument("--b", required=True)
    r.add_argument("--repeat", type=int, required=True)
    r.add_argument("--scenario", choices=SCENARIOS, required=True)
    r.add_argument("--root", default=".")
    r.add_argument("--scratch", default=".build-trace")
    r.add_argument("--llvm-cov", default="llvm-cov")
    r.add_argument("--functions", action="store_true", help="list each file's functions and their calls per request")
    args = parser.parse_args()
    drive(args) if args.command == "drive" else report(args)


if __name__ == "__main__":
    main()
