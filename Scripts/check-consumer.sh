#!/usr/bin/env bash
# Builds a consumer package made from the README alone: its `Package.swift` is the first Swift block
# under "### Add the package to yours", its main.swift the README's quick start (the same code as
# Docs/Examples/QuickStart/main.swift), and the checkout sits beside it in a folder named
# IndoorPositioning, as the README says. Then runs it from the checkout (the quick start reads the
# bundled example files by relative path).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
ln -s "$root" "$work/IndoorPositioning"
mkdir -p "$work/MyVenueApp/Sources/MyVenueApp"
python3 - "$root/README.md" "$work/MyVenueApp" <<'PY'
import re, sys
readme, out = open(sys.argv[1], encoding="utf-8").read(), sys.argv[2]
section = readme.split("### Add the package to yours", 1)[1]
manifest = re.search(r"```swift\n(.*?)```", section, re.S).group(1)
start = readme.split("## Quick start in Swift", 1)[1]
main = re.search(r"```swift\n(.*?)```", start, re.S).group(1)
open(f"{out}/Package.swift", "w").write(manifest)
open(f"{out}/Sources/MyVenueApp/main.swift", "w").write(main)
PY
start=$SECONDS
(cd "$work/MyVenueApp" && swift build 2>&1 | tail -n 3)
bin="$(cd "$work/MyVenueApp" && swift build --show-bin-path)/MyVenueApp"
lines=$("$bin" | wc -l)
[ "$lines" -gt 100 ] || { echo "check-consumer.sh: the consumer printed $lines lines, expected the reports of the bundled walk" >&2; exit 1; }
echo "check-consumer.sh: a package made from the README's lines builds and runs ($lines lines, $((SECONDS - start)) s)"
