#!/usr/bin/env python3
"""Whether a calibration's models, with the radius `locate` reports, explain the readings of
beacons the positions were not made from: a check of the learned models' radius without truth.

    Scripts/Research/heldout-residuals.py PLAN RSSI CALIBRATION [FOLDS]

BIN=path/to/indoorpos picks the binary (default: the release build). The plan's beacons are dealt
into FOLDS folds (default 8) in the plan's order; for each fold, the samples of the other beacons are
located with the calibration (`locate --covariance --report-device-offset`), and every sample of
the fold's beacons is predicted at its device's report of that epoch: residual r = RSSI − offset −
(P₀ − 10 n log₁₀ d). Printed, pooled (the largest 1 % of r² left out): the mean r², the mean σ² of
the models, the mean position term g P gᵀ (g the model's gradient, P the report's covariance) and
their ratio r² / (σ² + g P gᵀ): above 1 the held-out readings scatter more than models and radius
allow.
"""

from __future__ import annotations

import bisect
import csv
import math
import os
import subprocess
import sys
import tempfile
from collections import defaultdict

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "reference"))

import simulated_files  # noqa: E402  (the binary: BIN or the release build)
from common import apply_calibration, identity, load_plan  # noqa: E402


def key_of(row):
    return identity(row["uuid"], int(row["major"]), int(row["minor"]))


def main():
    if len(sys.argv) < 4:
        raise SystemExit("usage: heldout-residuals.py PLAN RSSI CALIBRATION [FOLDS]")
    plan_path, rssi_path, calibration_path = sys.argv[1:4]
    folds = int(sys.argv[4]) if len(sys.argv) > 4 else 8
    binary = simulated_files.binary()
    plan = load_plan(plan_path)
    apply_calibration(plan, calibration_path)
    beacons = plan.beacons
    fold_of = {k: i % folds for i, k in enumerate(beacons)}
    with open(rssi_path, newline="") as f:
        reader = csv.DictReader(f)
        fields = reader.fieldnames
        rows = list(reader)
    squared, variance, position = [], [], []
    with tempfile.TemporaryDirectory() as scratch:
        for fold in range(folds):
            kept_path = os.path.join(scratch, "kept.csv")
            fixes_path = os.path.join(scratch, "fixes.csv")
            held = []
            with open(kept_path, "w", newline="") as f:
                writer = csv.DictWriter(f, fieldnames=fields)
                writer.writeheader()
                for r in rows:
                    if fold_of.get(key_of(r)) == fold:
                        held.append(r)
                    else:
                        writer.writerow(r)
            if not held:
                continue
            subprocess.run([binary, "locate", "--plan", plan_path, "--rssi", kept_path, "--calibration",
                            calibration_path, "--quiet", "--covariance", "--report-device-offset",
                            "--skip-bad-rows", "--output", fixes_path], check=True, stderr=subprocess.DEVNULL)
            reports = defaultdict(list)
            with open(fixes_path, newline="") as f:
                for r in csv.DictReader(f):
                    reports[r.get("device") or ""].append(
                        (float(r["timestamp"]), float(r["x"]), float(r["y"]), float(r["var_x"]),
                         float(r["var_y"]), float(r["cov_xy"]), float(r.get("device_offset") or 0)))
            stamps = {d: [a[0] for a in v] for d, v in reports.items()}
            for r in held:
                key, device = key_of(r), r.get("device") or ""
                if device not in reports or key not in beacons:
                    continue
                t = float(r["timestamp"])
                i = bisect.bisect_left(stamps[device], t)  # the report of the sample's epoch
                if i >= len(stamps[device]) or stamps[device][i] - t > 1.5:
                    continue
                _, x, y, vx, vy, cxy, offset = reports[device][i]
                b = beacons[key]
                p0, n, sigma = b.measured_power, b.exponent, b.sigma
                receiver = plan.elevations[b.level] + plan.receiver_height
                dx, dy = x - b.x, y - b.y
                d2 = dx * dx + dy * dy + (receiver - b.z) ** 2
                slope = 10 * n / math.log(10)
                gx, gy = -slope * dx / d2, -slope * dy / d2
                r_value = float(r["rssi"]) - offset - (p0 - 10 * n * math.log10(math.sqrt(d2)))
                squared.append(r_value * r_value)
                variance.append(sigma * sigma)
                position.append(gx * gx * vx + 2 * gx * gy * cxy + gy * gy * vy)
    squared, variance, position = map(np.array, (squared, variance, position))
    if len(squared) == 0:
        raise SystemExit("heldout-residuals.py: no held-out sample could be predicted")
    keep = squared <= np.quantile(squared, 0.99)
    r2, s2, p2 = squared[keep].mean(), variance[keep].mean(), position[keep].mean()
    print(f"{len(squared)} held-out samples: mean r² {r2:.1f} dB², σ² {s2:.1f}, position term {p2:.1f}; "
          f"ratio {r2 / (s2 + p2):.2f}")


if __name__ == "__main__":
    main()
