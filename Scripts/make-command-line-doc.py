#!/usr/bin/env python3
"""Writes Docs/Reference/CommandLine.md from the `--help` of the built `indoorpos`: every
subcommand with its one-line purpose, its usage line and each option with the first sentence of
its help. Run it after changing an option:

    python3 Scripts/make-command-line-doc.py [path/to/indoorpos]   # default: Scripts/release-bin.sh's
"""
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
OUTPUT = os.path.join(ROOT, "Docs", "Reference", "CommandLine.md")


def help_text(binary, *words):
    return subprocess.run([binary, *words, "--help"], check=True, capture_output=True, text=True).stdout


def sections(text):
    """The help's sections by heading (OVERVIEW, USAGE, OPTIONS, SUBCOMMANDS), and the lines
    of the overview's first paragraph."""
    found, name = {}, None
    for line in text.splitlines():
        # Option groups ("PATH-LOSS MODELS (AS FOR 'LOCATE'):") are options too.
        m = re.match(r"^([A-Z][A-Z0-9 ()'-]*):\s?(.*)$", line)
        if m:
            name = m.group(1) if m.group(1) in ("OVERVIEW", "USAGE", "SUBCOMMANDS") else "OPTIONS"
            found.setdefault(name, [])
            if m.group(2):
                found[name].append(m.group(2))
        elif name:
            found[name].append(line)
    return found


def first_sentence(text):
    text = re.sub(r"\s+", " ", text).strip()
    m = re.match(r"^(.+?[.!?])(\s|$)", text)
    return m.group(1) if m else text


def options(lines):
    """(names, help) per option, the wrapped help lines joined."""
    result = []
    for line in lines:
        # The names (and the value's placeholder), then the help after at least one space.
        m = re.match(r"^  (--?[\w-]+(?:/--?[\w-]+)?(?:, --?[\w-]+)*(?: <[^>]+>)?)(?:\s+(.*))?$", line)
        if m:
            result.append([m.group(1).strip(), m.group(2) or ""])
        elif result and line.strip():
            result[-1][1] += " " + line.strip()
    return [(names, first_sentence(text)) for names, text in result
            if not names.startswith(("--version", "-h, --help"))]


def cell(text):
    return text.replace("|", "\\|")


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else subprocess.run(
        ["bash", os.path.join(ROOT, "Scripts", "release-bin.sh")], check=True, capture_output=True,
        text=True).stdout.strip()
    top = sections(help_text(binary))
    subcommands = [line.split()[0] for line in top["SUBCOMMANDS"]
                   if re.match(r"^  [a-z]", line)]
    out = ["# Command line: `indoorpos`", "",
           "Every subcommand and option of `indoorpos`, from its `--help` (written by",
           "`python3 Scripts/make-command-line-doc.py`; `indoorpos <command> --help` gives each in full).",
           "File formats are in [Formats](Formats.md); a walk through the commands in",
           "[Getting started](../Guide/GettingStarted.md).", "",
           "`indoorpos --version` prints the version.", ""]
    for name in subcommands:
        s = sections(help_text(binary, name))
        overview = first_sentence(" ".join(s.get("OVERVIEW", [])).split("\n\n")[0])
        usage = " ".join(line.strip() for line in s.get("USAGE", []) if line.strip())
        out += [f"## {name}", "", overview, "", "```text", usage, "```", "",
                "| option | |", "| --- | --- |"]
        out += [f"| `{cell(names)}` | {cell(text)} |" for names, text in options(s.get("OPTIONS", []))]
        out.append("")
    with open(OUTPUT, "w", encoding="utf-8") as f:
        f.write("\n".join(out).rstrip("\n") + "\n")
    print(f"make-command-line-doc: wrote {os.path.relpath(OUTPUT, ROOT)} ({len(subcommands)} subcommands)")


if __name__ == "__main__":
    main()
