#!/usr/bin/env python3
"""Fails when Package.swift stops telling the truth about the package.

1. A target imports a module its Package.swift entry does not declare.
2. The products are other than the `rooftop` executable, the SDK and the embedding library.
3. A server target declares `public` API: between the package's own targets that is `package`
   access; only the SDK, the Core it shares with the SDK, RooftopServer's entry point and its
   handler API (Sources/RooftopServer/Cloud) are public.

SwiftPM lets a target import any module that is built before it (a dependency's dependency),
so the manifest can silently stop telling the truth about the import graph. This compares
every `import` in a target's sources with the target's declared dependencies.
"""
import json
import os
import re
import subprocess
import sys

# Modules of the toolchain and the system: always there, never declared.
SYSTEM = {
    "Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Glibc", "Musl", "Darwin",
    "Testing", "XCTest", "Security", "CoreFoundation", "Synchronization", "RegexBuilder", "os",
    "AuthenticationServices", "_Concurrency", "Observation", "Android", "PackageDescription",
}
IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public |package |internal |private |fileprivate )?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)")


def main(root):
    manifest = json.loads(subprocess.check_output(["swift", "package", "dump-package"], cwd=root))
    failures = []
    for target in manifest["targets"]:
        if target["type"] in ("binary", "plugin", "system"):
            continue
        declared = set()
        for dependency in target.get("dependencies", []):
            for kind in ("byName", "target", "product"):
                if kind in dependency:
                    declared.add(dependency[kind][0])
        kind_dir = "Tests" if target["type"] == "test" else "Sources"
        path = os.path.join(root, target.get("path") or os.path.join(kind_dir, target["name"]))
        for folder, _, files in os.walk(path):
            for name in files:
                if not name.endswith(".swift"):
                    continue
                file = os.path.join(folder, name)
                with open(file, encoding="utf-8") as handle:
                    for number, line in enumerate(handle, 1):
                        match = IMPORT.match(line)
                        if not match:
                            continue
                        module = match.group(1)
                        if module in SYSTEM or module in declared or module == target["name"]:
                            continue
                        failures.append(f"{os.path.relpath(file, root)}:{number}: {target['name']} imports {module}, "
                                        f"which its entry in Package.swift does not declare")
    failures += check_products(manifest) + check_public(root)
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


PRODUCTS = {"rooftop", "Rooftop", "RooftopServer"}
# Targets whose API is public: the SDK and the Core it shares with the SDK.
PUBLIC_TARGETS = {"Rooftop", "RooftopCore"}
# Files that may declare public API in a server target: the embedding library's entry point and
# the handler API an embedding program registers its server-side logic with.
PUBLIC_FILES = {"Sources/RooftopServer/RooftopCommandLine.swift"}
PUBLIC_FOLDERS = ("Sources/RooftopServer/Cloud/",)
PUBLIC_DECLARATION = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:\w+\s+)*public\s")


def check_products(manifest):
    names = {product["name"] for product in manifest["products"]}
    if names == PRODUCTS:
        return []
    return [f"Package.swift: products are {sorted(names)}; expected {sorted(PRODUCTS)} (the rest is internal to the package)"]


def check_public(root):
    failures = []
    sources = os.path.join(root, "Sources")
    for target in sorted(os.listdir(sources)):
        if target in PUBLIC_TARGETS:
            continue
        for folder, _, files in os.walk(os.path.join(sources, target)):
            for name in files:
                file = os.path.join(folder, name)
                relative = os.path.relpath(file, root)
                if not name.endswith(".swift") or relative in PUBLIC_FILES or relative.startswith(PUBLIC_FOLDERS):
                    continue
                with open(file, encoding="utf-8") as handle:
                    for number, line in enumerate(handle, 1):
                        if PUBLIC_DECLARATION.match(line) and not line.lstrip().startswith("//"):
                            failures.append(f"{relative}:{number}: {target} declares public API; use `package` access")
    return failures


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.getcwd()))
