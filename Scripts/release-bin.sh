#!/usr/bin/env bash
# Builds `indoorpos` optimised, with the flags Scripts/test.sh builds the suite with, and prints
# the binary's path: the README's two commands and the measuring scripts then share one build
# (a build with other flags recompiles every module: 66 s instead of 0.7 s after test.sh).
#   usage: bin="$(bash Scripts/release-bin.sh)"
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release -Xswiftc -enable-testing)
swift build "${flags[@]}" --product indoorpos >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/indoorpos"
