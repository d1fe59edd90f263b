#!/usr/bin/env python3
"""Static fixes against the Cramér–Rao bound on data that follows the library's model.

    Scripts/Research/static-bound.py [OUTPUT_DIR] [--seed N] [--points K] [--readings M]
                                     [-- EXTRA_LOCATE_ARGS…]

BIN=path/to/indoorpos picks the binary (default: the release build, built if missing).

The site is the one of the solver's accuracy test: 8 beacons on the walls of a 24 × 16 m room at
2.5 m, the receiver at 1.2 m, every beacon exactly the plan's −59 dBm at 1 m with n = 2, and each
reading that plus independent Gaussian shadowing of σ = 4 dB (not rounded, no loss): the model
the solver assumes. K points (default 300) are drawn uniformly at least 0.5 m inside the walls;
each is its own device, heard for one 1-s window (M readings per beacon, default 4), and located
with `indoorpos locate --tracker none` (one fix per window) and, on the same readings, by the
reference pipeline's plain maximum likelihood (`Scripts/reference/pipelines.py --pipeline
ml-kalman --filter none`: no prior, no offset, bounded to the outline's box plus 5 m).

The bound is that of Patwari et al. (IEEE TSP 51(8), 2003) for the log-distance model: the
Fisher information of the horizontal position from m readings of beacon i at 3-D distance dᵢ is
m (10 n / (σ ln 10))² ΔᵢΔᵢᵀ / dᵢ⁴, Δᵢ the horizontal offset from the beacon. Two bounds are
printed:

- `known offset`: the phone's RSSI offset is known (it is 0 here);
- `unknown offset`: the offset is a further unknown, common to the window's readings, with the
  engine's default prior (σ₀ = 10 dB): the bound of a fix that estimates it, as the engine does
  for a device it has not learned yet.

The figure is the pooled ratio √(Σ|error|² / Σ tr CRLB). The bound is asymptotic: with few
readings the maximum-likelihood fix itself stays above it, which the reference row shows. The
truth serves only to score.
"""

from __future__ import annotations

import csv
import json
import math
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))  # Scripts/Research
SCRIPTS = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(SCRIPTS, "reference"))

import simulated_files  # noqa: E402

UUID = "5A4BCFCE-174E-4BAC-A814-092E77F6B7E5"
WIDTH, HEIGHT, BEACON_Z, RECEIVER_Z = 24.0, 16.0, 2.5, 1.2
P0, N, SIGMA, OFFSET_PRIOR = -59.0, 2.0, 4.0, 10.0
BEACONS = [(0.0, 0.0), (12.0, 0.0), (24.0, 0.0), (24.0, 8.0), (24.0, 16.0), (12.0, 16.0), (0.0, 16.0), (0.0, 8.0)]


def bound(x, y, offset_unknown, readings):
    """The Cramér–Rao bound of (x, y) at the point, m²: the trace of the position block."""
    k = 10 * N / (SIGMA * math.log(10))
    information = np.zeros((3, 3))
    for bx, by in BEACONS:
        dx, dy = x - bx, y - by
        d2 = dx * dx + dy * dy + (RECEIVER_Z - BEACON_Z) ** 2
        g = np.array([-k * SIGMA * dx / d2, -k * SIGMA * dy / d2, 1.0])  # d mean / d(x, y, offset) in dB
        information += readings * np.outer(g, g) / SIGMA**2
    if not offset_unknown:
        return float(np.trace(np.linalg.inv(information[:2, :2])))
    information[2, 2] += 1 / OFFSET_PRIOR**2
    return float(np.trace(np.linalg.inv(information)[:2, :2]))


def main():
    args = sys.argv[1:]
    extra = []
    if "--" in args:
        extra = args[args.index("--") + 1:]
        args = args[:args.index("--")]
    seed, count, readings, out = 1, 300, 4, ".build/static-bound"
    while args:
        a = args.pop(0)
        if a == "--seed":
            seed = int(args.pop(0))
        elif a == "--points":
            count = int(args.pop(0))
        elif a == "--readings":
            readings = int(args.pop(0))
        else:
            out = a
    rng = np.random.default_rng([seed, 1003])
    os.makedirs(out, exist_ok=True)
    plan = {
        "formatVersion": 1, "name": "model-following static points",
        "defaults": {"measuredPower": P0, "pathLossExponent": N, "receiverHeight": RECEIVER_Z},
        "floors": [{
            "level": 0, "elevation": 0.0,
            "outline": [[0, 0], [WIDTH, 0], [WIDTH, HEIGHT], [0, HEIGHT]], "zones": [],
            "beacons": [{"uuid": UUID, "major": 1, "minor": j + 1, "x": x, "y": y, "z": BEACON_Z}
                        for j, (x, y) in enumerate(BEACONS)]}]}
    with open(os.path.join(out, "plan.json"), "w") as f:
        json.dump(plan, f, indent=1)
    samples, truth, points = [], [], {}
    for p in range(count):
        device = f"point{p + 1:04d}"
        x, y = rng.uniform(0.5, WIDTH - 0.5), rng.uniform(0.5, HEIGHT - 0.5)
        points[device] = (x, y)
        truth += [(0.0, device, x, y), (10.0, device, x, y)]
        for r in range(readings):
            for j, (bx, by) in enumerate(BEACONS):
                d = math.sqrt((x - bx) ** 2 + (y - by) ** 2 + (RECEIVER_Z - BEACON_Z) ** 2)
                rssi = P0 - 10 * N * math.log10(d) + rng.normal(0, SIGMA)
                samples.append((0.05 + 0.9 * r / readings + 0.01 * j, device, j + 1, f"{rssi:.2f}"))
    samples.sort(key=lambda s: (s[0], s[1], s[2]))
    simulated_files.write_samples_and_truth(out, UUID, samples, truth)
    plan_path, rssi = os.path.join(out, "plan.json"), os.path.join(out, "rssi.csv")
    fixes, reference = os.path.join(out, "fixes.csv"), os.path.join(out, "ml.csv")
    subprocess.run([simulated_files.binary(), "locate", "--plan", plan_path, "--rssi", rssi, "--tracker", "none",
                    "--quiet", "--output", fixes] + extra, check=True)
    subprocess.run([sys.executable, os.path.join(SCRIPTS, "reference", "pipelines.py"), "--plan", plan_path,
                    "--rssi", rssi, "--pipeline", "ml-kalman", "--filter", "none", "--output", reference],
                   check=True, stderr=subprocess.DEVNULL)
    print(f"seed {seed}, {count} points, {readings} readings per beacon: RMSE / CRLB (known offset, unknown offset)")
    for label, path in (("indoorpos locate", fixes), ("plain ML (reference)", reference)):
        squared, known, unknown, honest, rows = 0.0, 0.0, 0.0, 0, 0
        with open(path) as f:
            for row in csv.DictReader(f):
                x, y = points[row["device"]]
                e2 = (float(row["x"]) - x) ** 2 + (float(row["y"]) - y) ** 2
                squared += e2
                known += bound(x, y, False, readings)
                unknown += bound(x, y, True, readings)
                honest += math.sqrt(e2) <= float(row["accuracy"])
                rows += 1
        print(f"  {label}: {rows} fixes, RMSE {math.sqrt(squared / rows):.3f} m, "
              f"{math.sqrt(squared / known):.3f}, {math.sqrt(squared / unknown):.3f}; honesty {100 * honest / rows:.0f} %")

if __name__ == "__main__":
    main()
