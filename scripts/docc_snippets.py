#!/usr/bin/env python3
"""Keeps the DocC articles' Swift blocks equal to the compiled snippets they show.

Code hosts render an article's Markdown, not DocC's `@Snippet` directive, so each article
carries the snippet's visible code inline, after a `<!-- snippet: Name -->` marker (DocC and
code hosts both hide the comment). `Snippets/Name.swift` stays the source: it is compiled with
the package, and its `// snippet.hide` … `// snippet.show` parts are left out of the article.

    scripts/docc_snippets.py          rewrite the blocks from the snippets
    scripts/docc_snippets.py --check  fail if an article's block differs from its snippet
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
ARTICLES = ROOT / "Sources" / "Rooftop" / "Rooftop.docc"
MARKER = re.compile(r"^<!-- snippet: ([A-Za-z0-9_]+) -->\n```swift\n.*?^```\n", re.S | re.M)
DIRECTIVE = re.compile(r'^@Snippet\(path: "rooftop/Snippets/([A-Za-z0-9_]+)"\)\n', re.M)


def visible(name):
    """The snippet's lines outside hidden parts, without the markers."""
    path = ROOT / "Snippets" / f"{name}.swift"
    if not path.exists():
        sys.exit(f"docc_snippets: {path.relative_to(ROOT)} does not exist")
    shown, hidden = [], False
    for line in path.read_text().splitlines():
        marker = line.strip()
        if marker == "// snippet.hide":
            hidden = True
        elif marker == "// snippet.show":
            hidden = False
        elif not hidden:
            shown.append(line)
    while shown and not shown[0].strip():
        shown.pop(0)
    while shown and not shown[-1].strip():
        shown.pop()
    return "\n".join(shown) + "\n"


def block(name):
    return f"<!-- snippet: {name} -->\n```swift\n{visible(name)}```\n"


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    for article in sorted(ARTICLES.glob("*.md")):
        text = article.read_text()
        updated = DIRECTIVE.sub(lambda m: block(m.group(1)), text)
        updated = MARKER.sub(lambda m: block(m.group(1)), updated)
        if updated != text:
            stale.append(article.relative_to(ROOT))
            if not check:
                article.write_text(updated)
    if check and stale:
        for path in stale:
            print(f"docc_snippets: {path} differs from its snippets (run scripts/docc_snippets.py)", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
