#!/usr/bin/env python3
"""Checks that every relative Markdown link in the repository's pages resolves: the file or
folder exists and, for a link to a heading (`page.md#heading`), the page has that heading (as
GitHub makes its anchor). Prints each broken link and exits 1 if there is any.

    python3 Scripts/check-doc-links.py
"""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SKIP = {".build", ".git", ".swiftpm", "node_modules"}
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def pages():
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP and not d.startswith(".build")]
        for name in files:
            if name.endswith(".md"):
                yield os.path.join(folder, name)


def prose(path):
    """The page's lines outside fenced code blocks, with their numbers."""
    inside = False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if FENCE.match(line):
                inside = not inside
                continue
            if not inside:
                yield number, line


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation but '-' and '_' dropped, spaces to '-'."""
    text = re.sub(r"`|\*\*|\*", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return "".join(c for c in text if c.isalnum() or c in "-_ ").replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        seen, result = {}, set()
        for _, line in prose(path):
            m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if m:
                base = slug(m.group(1))
                n = seen.get(base, 0)
                seen[base] = n + 1
                result.add(base if n == 0 else f"{base}-{n}")
        cache[path] = result
    return cache[path]


def main():
    broken = 0
    for page in sorted(pages()):
        for number, line in prose(page):
            line = re.sub(r"`[^`]*`", "", line)  # inline code is not a link
            for target in LINK.findall(line):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, mailto:, doc:
                    continue
                file, _, anchor = target.partition("#")
                resolved = os.path.normpath(os.path.join(os.path.dirname(page), file)) if file else page
                where = f"{os.path.relpath(page, ROOT)}:{number}: {target}"
                if not os.path.exists(resolved):
                    print(f"check-doc-links: no such file: {where}", file=sys.stderr)
                    broken += 1
                elif anchor and resolved.endswith(".md") and anchor not in anchors(resolved):
                    print(f"check-doc-links: no such heading: {where}", file=sys.stderr)
                    broken += 1
    if broken:
        print(f"check-doc-links: {broken} broken link(s)", file=sys.stderr)
        return 1
    print("check-doc-links: every relative link resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
