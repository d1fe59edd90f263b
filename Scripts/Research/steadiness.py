#!/usr/bin/env python3
"""Steadiness of a track: how far the drawn dot moves from fix to fix compared with the truth.

For each device, consecutive fixes at most --max-step-gap seconds apart that are both scored by
evaluate.py's rules (inside the truth's span, not inside a truth gap longer than --max-truth-gap
unless the position holds over it) form a step: the distance between the two fixes beside the
distance between the truth at the same two times. Prints the median fix-to-fix step, the median
true step, the path-length ratio (sum of fix steps over sum of true steps, pooled over devices)
and the dot's mean speed over the steps in which the truth moved slower than 0.05 m/s.
`indoorpos evaluate` prints the same figures (Sources/Evaluation/Steadiness.swift).
  usage: steadiness.py FIXES.csv TRUTH.csv [--markdown LABEL] [--json]
"""
import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
import evaluate  # noqa: E402  (the reference scorer: its truth coverage and interpolation)

STILL_SPEED = 0.05


def steps(fixes, truth, truth_has_devices: bool, max_step_gap: float, max_truth_gap: float):
    """Arrays (fix step, true step, interval) pooled over devices."""
    drawn, true, interval = [], [], []
    shared = None if truth_has_devices else next(iter(truth.values()))
    for device in sorted(fixes):
        reference = shared if shared is not None else truth.get(device)
        track = fixes[device]
        if reference is None:
            continue
        t = track["timestamp"]
        ok = evaluate.inside_truth(reference, t, max_truth_gap)
        at = evaluate.interpolate(reference, t)
        for k in range(1, len(t)):
            dt = t[k] - t[k - 1]
            if ok[k] and ok[k - 1] and 0 < dt <= max_step_gap:
                drawn.append(np.hypot(track["x"][k] - track["x"][k - 1], track["y"][k] - track["y"][k - 1]))
                true.append(np.hypot(at["x"][k] - at["x"][k - 1], at["y"][k] - at["y"][k - 1]))
                interval.append(dt)
    return np.array(drawn), np.array(true), np.array(interval)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fixes")
    parser.add_argument("truth")
    parser.add_argument("--markdown", metavar="LABEL")
    parser.add_argument("--json", action="store_true", help="the figures as JSON (as evaluate --format json)")
    parser.add_argument("--max-step-gap", type=float, default=5.0)
    parser.add_argument("--max-truth-gap", type=float, default=5.0)
    args = parser.parse_args()
    fixes, _ = evaluate.read_track(args.fixes, "device", "fixes")
    truth, truth_has_devices = evaluate.read_track(args.truth, "device", "truth")
    ours, true, dt = steps(fixes, truth, truth_has_devices, args.max_step_gap, args.max_truth_gap)
    if len(ours) == 0:
        print("no steps inside the truth", file=sys.stderr)
        return 1
    ratio = ours.sum() / true.sum() if true.sum() > 0 else None
    still = true < STILL_SPEED * dt
    still_speed = float(np.mean(ours[still] / dt[still])) if still.any() else None
    if args.json:
        print(json.dumps({"steps": int(len(ours)), "pathRatio": ratio, "medianStep": float(np.median(ours)),
                          "medianTrueStep": float(np.median(true)), "stillSpeed": still_speed,
                          "stillSteps": int(still.sum())}))
    elif args.markdown:
        shown = "n/a" if ratio is None else f"{ratio:.1f}×"
        print(f"| {args.markdown} | {np.median(ours):.2f} | {np.median(true):.2f} | {shown} | {len(ours)} |")
    else:
        shown = "n/a" if ratio is None else f"{ratio:.2f}"
        speed = "" if still_speed is None else f", dot speed {still_speed:.2f} m/s while the truth stands still"
        print(f"median step {np.median(ours):.2f} m, true {np.median(true):.2f} m, "
              f"path-length ratio {shown}, steps {len(ours)}{speed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
