#!/usr/bin/env python3
"""Steadiness of a track: how far the drawn dot moves from fix to fix compared with the truth.

For each device, consecutive fixes no more than --max-step-gap seconds apart whose timestamps both
lie inside the truth (linear interpolation, as evaluate.py) form a step. Prints the median fix-to-fix
step, the median true step over the same intervals, and the path-length ratio (sum of fix steps over
sum of true steps, pooled over devices).
  usage: steadiness.py FIXES.csv TRUTH.csv [--markdown LABEL]
"""
import argparse
import csv
import sys

import numpy as np


def read(path: str):
    tracks: dict[str, list[tuple[float, float, float]]] = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            device = row.get("device", "") or ""
            try:
                t, x, y = float(row["timestamp"]), float(row["x"]), float(row["y"])
            except (KeyError, ValueError):
                continue
            tracks.setdefault(device, []).append((t, x, y))
    return {d: np.array(sorted(v)) for d, v in tracks.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fixes")
    parser.add_argument("truth")
    parser.add_argument("--markdown", metavar="LABEL")
    parser.add_argument("--max-step-gap", type=float, default=5.0)
    parser.add_argument("--max-truth-gap", type=float, default=5.0)
    args = parser.parse_args()
    fixes, truth = read(args.fixes), read(args.truth)
    ours, true = [], []
    for device, track in fixes.items():
        reference = truth.get(device) if device in truth else (truth.get("") if len(truth) == 1 else None)
        if reference is None and len(truth) == 1:
            reference = next(iter(truth.values()))
        if reference is None or len(track) < 2:
            continue
        t = track[:, 0]
        tt = reference[:, 0]
        idx = np.searchsorted(tt, t)
        inside = (idx > 0) & (idx < len(tt))
        ok = inside.copy()
        ok[inside] = (tt[idx[inside]] - tt[idx[inside] - 1]) <= args.max_truth_gap
        tx, ty = np.interp(t, tt, reference[:, 1]), np.interp(t, tt, reference[:, 2])
        for k in range(1, len(track)):
            if ok[k] and ok[k - 1] and t[k] - t[k - 1] <= args.max_step_gap:
                ours.append(np.hypot(track[k, 1] - track[k - 1, 1], track[k, 2] - track[k - 1, 2]))
                true.append(np.hypot(tx[k] - tx[k - 1], ty[k] - ty[k - 1]))
    if not ours:
        print("no steps inside the truth", file=sys.stderr)
        return 1
    ours, true = np.array(ours), np.array(true)
    ratio = ours.sum() / true.sum() if true.sum() > 0 else float("inf")
    if args.markdown:
        print(f"| {args.markdown} | {np.median(ours):.2f} | {np.median(true):.2f} | {ratio:.1f}× | {len(ours)} |")
    else:
        print(f"median step {np.median(ours):.2f} m, true {np.median(true):.2f} m, "
              f"path-length ratio {ratio:.2f}, steps {len(ours)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
