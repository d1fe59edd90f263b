#!/usr/bin/env python3
"""Zone figures: how well a run says which zone of the plan each phone is in.

    zones.py PLAN FIXES TRUTH [--events EVENTS] [--markdown LABEL]

FIXES is `indoorpos locate` output (its `zone` column is the library's zone decision); EVENTS,
if given, is `indoorpos monitor` output over the plan's zones. The truth's zone is the plan
zone containing the truth position, interpolated to each fix's time. Figures, per run:

- `held`: share of fixes whose zone (none included) is the true zone;
- `entries`: true entries into a zone (after each device's first fix) caught by an entry into
  the same zone within ±10 s, and their median latency (positive: late);
- `false`: reported entries with no true entry into that zone within ±10 s, as a share of the
  reported entries;
- `changes`: zone changes reported, against the truth's;
- `overlap`: the longest time two zones whose interiors do not overlap were held at once by the
  monitor's events (EVENTS only), seconds.

The same figures are printed for a plain point-in-polygon rule on the same fixes (the zone
containing each fix's x, y) and that rule with a 3-fix debounce (a zone is taken once it has
been the point-in-polygon zone of 3 fixes in a row). The truth serves only to score.
"""

from __future__ import annotations

import argparse
import bisect
import csv
import json
import statistics
import sys
from collections import defaultdict

WINDOW = 10.0  # seconds either side within which an entry counts as caught


def segment_distance(x: float, y: float, x1: float, y1: float, x2: float, y2: float) -> float:
    dx, dy = x2 - x1, y2 - y1
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else min(max(((x - x1) * dx + (y - y1) * dy) / length2, 0.0), 1.0)
    return ((x - x1 - t * dx) ** 2 + (y - y1 - t * dy) ** 2) ** 0.5


def inside(x: float, y: float, polygon) -> bool:
    """Even-odd rule, a point on an edge (within 1e-9 m) inside: the library's Polygon.contains,
    so that a point on the edge two zones share is in the first of them in plan order."""
    c = False
    n = len(polygon)
    for i in range(n):
        x1, y1 = polygon[i]
        x2, y2 = polygon[(i + 1) % n]
        if segment_distance(x, y, x1, y1, x2, y2) <= 1e-9:
            return True
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            c = not c
    return c


class Zones:
    def __init__(self, plan_path: str):
        with open(plan_path) as f:
            plan = json.load(f)
        self.zones = {}
        for floor in plan["floors"]:
            for zone in floor.get("zones") or []:
                self.zones.setdefault(floor["level"], []).append((zone["id"], zone["polygon"]))

    def __bool__(self) -> bool:
        return bool(self.zones)

    def at(self, x: float, y: float, level: int = 0) -> str:
        for zid, polygon in self.zones.get(level, []):
            if inside(x, y, polygon):
                return zid
        return ""


def read_truth(path: str) -> dict[str, list[tuple[float, float, float, int]]]:
    truth = defaultdict(list)
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            truth[r.get("device", "")].append(
                (float(r["timestamp"]), float(r["x"]), float(r["y"]), int(float(r.get("floor") or 0))))
    for d in truth:
        truth[d].sort()
    return truth


def true_zone(zones: Zones, track, t: float) -> str | None:
    """The zone of the truth interpolated to `t`; None outside the truth's time span."""
    times = [a[0] for a in track]
    if not track or t < times[0] - 1.0 or t > times[-1] + 1.0:
        return None
    i = min(max(bisect.bisect_left(times, t), 1), len(track) - 1)
    (t0, x0, y0, f0), (t1, x1, y1, _) = track[i - 1], track[i]
    a = min(max((t - t0) / (t1 - t0), 0.0), 1.0) if t1 > t0 else 0.0
    return zones.at(x0 + a * (x1 - x0), y0 + a * (y1 - y0), f0)


def entries(sequence):
    """(time, zone) of each change into a non-empty zone, after the first state."""
    out, previous = [], None
    for k, (t, z) in enumerate(sequence):
        if k > 0 and z != previous and z != "":
            out.append((t, z))
        previous = z
    return out


def debounced(sequence, count: int = 3):
    """A zone is taken once it has been the zone of `count` fixes in a row."""
    out, held, candidate, run = [], None, None, 0
    for t, z in sequence:
        if z == candidate:
            run += 1
        else:
            candidate, run = z, 1
        if held is None or run >= count:
            held = candidate
        out.append((t, held))
    return out


def figures(per_device: dict[str, list[tuple[float, str, str]]]) -> dict:
    """per_device: device -> [(time, reported zone, true zone)] in time order."""
    rows = held = 0
    true_entries = caught = reported_entries = false = 0
    changes = true_changes = 0
    latencies = []
    for series in per_device.values():
        rows += len(series)
        held += sum(1 for _, z, zt in series if z == zt)
        truth_in = entries([(t, zt) for t, _, zt in series])
        reported = entries([(t, z) for t, z, _ in series])
        true_entries += len(truth_in)
        reported_entries += len(reported)
        for t, z in truth_in:
            near = [tr for tr, zr in reported if zr == z and abs(tr - t) <= WINDOW]
            if near:
                caught += 1
                latencies.append(min(near, key=lambda x: abs(x - t)) - t)
        for t, z in reported:
            if not any(zt == z and abs(tt - t) <= WINDOW for tt, zt in truth_in):
                false += 1
        changes += sum(1 for a, b in zip(series, series[1:]) if a[1] != b[1])
        true_changes += sum(1 for a, b in zip(series, series[1:]) if a[2] != b[2])
    return {
        "rows": rows,
        "held": held / rows if rows else float("nan"),
        "true_entries": true_entries,
        "caught": caught / true_entries if true_entries else float("nan"),
        "latency": statistics.median(latencies) if latencies else float("nan"),
        "reported_entries": reported_entries,
        "false": false / reported_entries if reported_entries else 0.0,
        "changes": changes,
        "true_changes": true_changes,
    }


def longest_overlap(events_path: str, zone_ids: set[str]) -> float:
    """The longest time two zone regions were satisfied at once for one device, seconds."""
    by_device = defaultdict(list)
    with open(events_path, newline="") as f:
        for r in csv.DictReader(f):
            if r["region"] in zone_ids:
                by_device[r.get("device", "")].append((float(r["timestamp"]), r["region"], r["state"]))
    longest = 0.0
    for events in by_device.values():
        events.sort(key=lambda e: e[0])
        inside_now: set[str] = set()
        since = None
        for t, region, state in events:
            if state == "satisfied":
                inside_now.add(region)
            else:
                inside_now.discard(region)
            if len(inside_now) >= 2 and since is None:
                since = t
            elif len(inside_now) < 2 and since is not None:
                longest = max(longest, t - since)
                since = None
    return longest


def score(plan: str, fixes: str, truth: str, events: str | None = None) -> dict:
    """Zone figures of the library's `zone` column, the plain point-in-polygon rule and its
    3-fix debounce; `overlap` from the monitor's events when given."""
    zones = Zones(plan)
    reference = read_truth(truth)
    library, plain = defaultdict(list), defaultdict(list)
    with open(fixes, newline="") as f:
        for r in csv.DictReader(f):
            device = r.get("device", "")
            t = float(r["timestamp"])
            zt = true_zone(zones, reference.get(device, []), t)
            if zt is None:
                continue
            library[device].append((t, r.get("zone", ""), zt))
            plain[device].append((t, zones.at(float(r["x"]), float(r["y"]), int(float(r.get("floor") or 0))), zt))
    bounced = {}
    for device, series in plain.items():
        series.sort()
        smoothed = debounced([(t, z) for t, z, _ in series])
        bounced[device] = [(t, z, zt) for (t, z), (_, _, zt) in zip(smoothed, series)]
    for series in library.values():
        series.sort()
    result = {"library": figures(library), "point-in-polygon": figures(plain), "debounced": figures(bounced)}
    if events:
        ids = {zid for level in zones.zones.values() for zid, _ in level}
        result["library"]["overlap"] = longest_overlap(events, ids)
    return result


def markdown_rows(label: str, result: dict) -> str:
    lines = []
    for rule in ("library", "point-in-polygon", "debounced"):
        r = result[rule]
        overlap = f"{r['overlap']:.0f} s" if "overlap" in r else "—"
        lines.append(
            f"| {label} | {rule} | {100 * r['held']:.0f} % | {100 * r['caught']:.0f} % of {r['true_entries']} | "
            f"{r['latency']:+.1f} s | {100 * r['false']:.0f} % of {r['reported_entries']} | "
            f"{r['changes']} ({r['true_changes']}) | {overlap} |")
    return "\n".join(lines)


HEADER = ("| run | rule | held | entries caught (±10 s) | median latency | false entries | changes (true) | two at once |\n"
          "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("plan")
    parser.add_argument("fixes")
    parser.add_argument("truth")
    parser.add_argument("--events", help="indoorpos monitor events CSV over the plan's zones")
    parser.add_argument("--markdown", metavar="LABEL", default="run")
    args = parser.parse_args()
    if not Zones(args.plan):
        print("zones.py: the plan has no zones", file=sys.stderr)
        return 1
    print(HEADER)
    print(markdown_rows(args.markdown, score(args.plan, args.fixes, args.truth, args.events)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
