#!/usr/bin/env bash
# Checks the HTML replay page of `indoorpos render --format html` in a real headless browser:
# renders the bundled sample's replay, loads it in headless Chromium twice with the slider
# moved to two different times (the page's #t=SHARE fragment sets the slider and fires its
# input event, as a user's drag does), takes a screenshot each time, and checks that the
# position marker moved and the pictures differ. As root on Debian it installs Chromium when it is
# missing; elsewhere without Chromium it is skipped with a message.
#   usage: Scripts/check-replay.sh [OUTPUT_DIR]   (default: .build/replay-check)
#   BUILD_FLAGS="-c release …" builds and runs that configuration's indoorpos (Scripts/test.sh
#   passes its own, so that no second build is made); default: the debug build.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.build/replay-check}"
find_browser() { command -v chromium || command -v chromium-browser || command -v google-chrome || true; }
browser="$(find_browser)"
if [ -z "$browser" ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    # As root on Debian the check installs what it needs, as Scripts/ensure-lapack.sh does.
    echo "check-replay.sh: installing Chromium: apt-get install -y chromium" >&2
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq chromium; } >&2 || true
    browser="$(find_browser)"
fi
if [ -z "$browser" ]; then
    echo "check-replay.sh: skipped: no Chromium found (Debian, as root: apt-get install -y chromium)" >&2
    exit 0
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
bash Scripts/ensure-lapack.sh
read -ra build_flags <<< "${BUILD_FLAGS:-}"
swift build ${build_flags[@]+"${build_flags[@]}"} --product indoorpos >&2
bin="$(swift build ${build_flags[@]+"${build_flags[@]}"} --show-bin-path)/indoorpos"
examples=Docs/Examples
"$bin" locate --plan $examples/office-plan.json --rssi $examples/office-rssi.csv \
    --calibration $examples/office-calibration.json --quiet --output "$out/fixes.csv"
# Region events of the bundled regions (zones, a circle, beacons), as an app would get them.
"$bin" monitor --plan $examples/office-plan.json --regions $examples/office-regions.json \
    --rssi $examples/office-rssi.csv --output "$out/events.csv" 2>/dev/null
"$bin" render --plan $examples/office-plan.json --fixes "$out/fixes.csv" --truth $examples/office-truth.csv \
    --regions $examples/office-regions.json --events "$out/events.csv" --device rectangular_with_rotation --format html --output "$out/replay.html"

marker() {   # the marker's "cx cy visibility" in the DOM after the page's script ran at share $1
    "$browser" --headless --no-sandbox --disable-gpu --virtual-time-budget=3000 --dump-dom \
        "file://$out/replay.html#t=$1" 2>/dev/null |
        grep -o '<circle id="marker-0"[^>]*>' | head -1 |
        sed -E 's/.* cx="([^"]*)" cy="([^"]*)".* visibility="([^"]*)".*/\1 \2 \3/'
}
shot() {
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,900 \
        --virtual-time-budget=3000 --screenshot="$out/replay-$1.png" "file://$out/replay.html#t=$1" >/dev/null 2>&1
}
early="$(marker 0.2)"; late="$(marker 0.8)"
shot 0.2; shot 0.8
echo "marker at 20 %: $early"
echo "marker at 80 %: $late"
echo "screenshots: $out/replay-0.2.png $out/replay-0.8.png"
case "$early $late" in
    *hidden*|"") echo "check-replay.sh: FAILED: the marker is not shown" >&2; exit 1 ;;
esac
if [ "$early" = "$late" ]; then
    echo "check-replay.sh: FAILED: the marker did not move when the slider moved" >&2; exit 1
fi
if cmp -s "$out/replay-0.2.png" "$out/replay-0.8.png"; then
    echo "check-replay.sh: FAILED: the two screenshots are identical" >&2; exit 1
fi
echo "check-replay.sh: OK: the marker moved and the page redrew"
