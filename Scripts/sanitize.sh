#!/usr/bin/env bash
# Runs the whole Swift test suite under AddressSanitizer and/or ThreadSanitizer, each in its own
# build folder (.build-address, .build-thread), and prints how long each took.
#   Scripts/sanitize.sh                 # both
#   Scripts/sanitize.sh thread          # one
#   FILTER='ShardedEngineTests|LocateJobsTests' Scripts/sanitize.sh thread   # some tests only
# Exit status non-zero when a build, a test or a sanitizer report fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/ensure-lapack.sh
kinds=("$@")
[[ ${#kinds[@]} -gt 0 ]] || kinds=(address thread)
# Swift's crash backtracer and the sanitizers' reports get in each other's way.
export SWIFT_BACKTRACE=enable=no
# Leaks that Foundation and XCTest keep until exit are not ours (see the file); any other leak fails.
export LSAN_OPTIONS="suppressions=$PWD/Scripts/lsan-suppressions.txt:print_suppressions=0"
for kind in "${kinds[@]}"; do
    case $kind in address|thread) ;; *) echo "sanitize.sh: unknown sanitizer '$kind' (address or thread)" >&2; exit 2;; esac
    start=$(date +%s)
    swift build --build-tests --sanitize="$kind" --build-path ".build-$kind"
    built=$(date +%s)
    # Tests that limit a subprocess's address space skip the limit under a sanitizer.
    INDOORPOS_SANITIZER="$kind" swift test --skip-build --sanitize="$kind" --build-path ".build-$kind" \
        ${FILTER:+--filter "$FILTER"}
    done_at=$(date +%s)
    echo "sanitize.sh: $kind: build $((built - start)) s, tests $((done_at - built)) s, clean" >&2
done
