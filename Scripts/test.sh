#!/usr/bin/env bash
# Runs the whole test suite, installing LAPACK/BLAS first when they are missing:
# the Python reference pipelines' tests (numpy and scipy from PyPI when missing), every Swift test, the
# HTML replay check in headless Chromium (installed as root when missing) and the documentation build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/ensure-lapack.sh
# The sources are formatted as swift-format formats them (.swift-format): exit 1 lists the files.
bash Scripts/check-format.sh
# Python 3 runs the reference pipelines' tests and the Dask example; numpy, scipy and
# dask[distributed] come from PyPI when it lacks them (as LAPACK comes from apt above).
command -v python3 >/dev/null 2>&1 \
    || { echo "test.sh: python3 is missing; run: sudo apt-get install -y python3 python3-pip" >&2; exit 1; }
python_needs() {  # python_needs MODULE PIP-REQUIREMENT
    python3 -c "import $1" 2>/dev/null && return 0
    echo "test.sh: installing $2 from PyPI" >&2
    python3 -m pip install --quiet --disable-pip-version-check "$2" \
        || { echo "test.sh: pip could not install $2; run: python3 -m pip install \"$2\"" >&2; exit 1; }
}
python_needs numpy numpy
python_needs scipy scipy
python_needs dask.distributed "dask[distributed]"
python3 -m unittest discover -s Scripts/reference -p 'test_*.py'
# Every relative link of the Markdown pages resolves, to the file and the heading.
python3 Scripts/check-doc-links.py
# The Swift suite is built and run optimised, with -enable-testing for its @testable imports:
# 524 tests take about 40 s instead of about 8 minutes in a debug build (measured 2026-11-27,
# 2-core machine; the build takes about 3 minutes either way). The library has no assert() that
# only a debug build would check; Scripts/sanitize.sh still runs the suite in debug builds.
config=(-c release -Xswiftc -enable-testing)
swift build --build-tests "${config[@]}" "$@"
swift test --skip-build "${config[@]}" "$@"
# The HTML replay page in headless Chromium (installed when missing as root; else skipped with a
# message), with the indoorpos just built.
BUILD_FLAGS="${config[*]} $*" bash Scripts/check-replay.sh
# The DocC catalog and the API of the modules the README and guides use build into one archive,
# with every documentation warning as an error, and it has the pages a newcomer looks for.
swift package generate-documentation --enable-experimental-combined-documentation --warnings-as-errors \
    --target IndoorPositioning --target BeaconModel --target LinearAlgebra --target Ranging --target Trilateration --target PositioningIO >/dev/null
archive=.build/plugins/Swift-DocC/outputs/IndoorPositioning.doccarchive/data/documentation
for page in beaconmodel/floorplan positioningio/rssisamplereader positioningio/calibrationfile \
            trilateration/trilaterationsolver linearalgebra/errorellipse trilateration/beaconobservation; do
    [ -f "$archive/$page.json" ] || { echo "test.sh: the documentation has no page $page" >&2; exit 1; }
done
echo "test.sh: documentation for IndoorPositioning, BeaconModel, LinearAlgebra, Ranging, Trilateration and PositioningIO builds without warnings"
# A consumer package made from the README's lines alone builds and runs the quick start.
bash Scripts/check-consumer.sh
# The Dask example (Docs/Guide/Scale.md): sharded `indoorpos locate` runs merge to the same bytes as one.
dask_dir="$(mktemp -d)"
python3 Scripts/make-device-batch.py 6 3000 30 "$dask_dir"
python3 Scripts/dask-locate.py --plan "$dask_dir/plan.json" --rssi "$dask_dir/rssi.csv" \
    --output "$dask_dir/merged.csv" --bin "$(swift build --show-bin-path "${config[@]}" "$@")/indoorpos" --check
rm -rf "$dask_dir"
