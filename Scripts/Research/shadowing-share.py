#!/usr/bin/env python3
"""How correlated a site's readings are over time under a calibration's models, from the traffic
alone: an estimate of the tracker's shadowing model (`locate --shadowing-share`,
`--shadowing-time`) with no truth.

    Scripts/Research/shadowing-share.py PLAN RSSI CALIBRATION

BIN=path/to/indoorpos picks the binary (default: the release build). The traffic is located with
the calibration (`locate --calibration`); every sample gets its residual at its epoch's report,
r = RSSI − (P₀ − 10 n log₁₀ d), and each epoch's residuals lose their mean over the epoch's
beacons (the device offset's share). Per device and beacon, the epoch means at lags of 1–5 s
give the covariance, divided by the variance of single samples about the beacon's mean: the
correlation a single sample keeps after that lag. Fitted as s e^{−lag/τ} (least squares on the
logarithm of the positive values; s kept within 0–0.9 and τ within 1–60 s), printed with the
correlations. Docs/Evidence/TrackingStudies.md, "The shadowing model learned from the traffic".
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

LAGS = range(1, 6)


def epoch_residuals(plan, rssi_path, reports):
    """{(device, epoch time): [(beacon, residual)]}, each sample paired with its epoch's report."""
    stamps = {d: [a[0] for a in v] for d, v in reports.items()}
    residuals = defaultdict(list)
    with open(rssi_path, newline="") as f:
        for row in csv.DictReader(f):
            device = row.get("device") or ""
            try:
                key = identity(row["uuid"], int(row["major"]), int(row["minor"]))
                t, rssi = float(row["timestamp"]), float(row["rssi"])
            except (KeyError, ValueError):
                continue
            if device not in reports or key not in plan.beacons:
                continue
            i = bisect.bisect_left(stamps[device], t)
            if i >= len(stamps[device]) or stamps[device][i] - t > 1.5:
                continue
            epoch, x, y = reports[device][i]
            b = plan.beacons[key]
            receiver = plan.elevations[b.level] + plan.receiver_height
            d = math.sqrt((x - b.x) ** 2 + (y - b.y) ** 2 + (receiver - b.z) ** 2)
            model = b.measured_power - 10 * b.exponent * math.log10(max(d, 0.1))
            residuals[(device, epoch)].append((key, rssi - model))
    return residuals


def shadowing_model(residuals):
    """(correlations at LAGS, s, τ) from the epochs' residuals."""
    series = defaultdict(dict)  # (device, beacon) -> {epoch: mean residual}
    singles = defaultdict(list)  # (device, beacon) -> single residuals
    for (device, epoch), pairs in residuals.items():
        common = sum(r for _, r in pairs) / len(pairs)
        per_beacon = defaultdict(list)
        for key, r in pairs:
            per_beacon[key].append(r - common)
        for key, values in per_beacon.items():
            series[(device, key)][round(epoch, 3)] = sum(values) / len(values)
            singles[(device, key)].extend(values)
    means = {k: float(np.mean(v)) for k, v in singles.items()}
    variance = sum(float(np.sum((np.array(v) - means[k]) ** 2)) for k, v in singles.items()) / sum(
        len(v) for v in singles.values())
    correlations = []
    for lag in LAGS:
        products = [(v - means[k]) * (s[round(t + lag, 3)] - means[k])
                    for k, s in series.items() for t, v in s.items() if round(t + lag, 3) in s]
        correlations.append(float(np.mean(products)) / variance if products else float("nan"))
    points = [(lag, math.log(c)) for lag, c in zip(LAGS, correlations) if c > 0.02]
    if len(points) < 2:
        return correlations, 0.0, 5.0
    slope, intercept = np.polyfit([p[0] for p in points], [p[1] for p in points], 1)
    tau = -1 / slope if slope < 0 else 60.0
    return correlations, min(max(math.exp(intercept), 0.0), 0.9), min(max(tau, 1.0), 60.0)


def main():
    if len(sys.argv) != 4:
        raise SystemExit("usage: shadowing-share.py PLAN RSSI CALIBRATION")
    plan_path, rssi_path, calibration_path = sys.argv[1:4]
    plan = load_plan(plan_path)
    apply_calibration(plan, calibration_path)
    with tempfile.TemporaryDirectory() as scratch:
        fixes_path = os.path.join(scratch, "fixes.csv")
        subprocess.run([simulated_files.binary(), "locate", "--plan", plan_path, "--rssi", rssi_path,
                        "--calibration", calibration_path, "--quiet", "--skip-bad-rows", "--output", fixes_path],
                       check=True, stderr=subprocess.DEVNULL)
        reports = defaultdict(list)
        with open(fixes_path, newline="") as f:
            for r in csv.DictReader(f):
                reports[r.get("device") or ""].append((float(r["timestamp"]), float(r["x"]), float(r["y"])))
    correlations, share, tau = shadowing_model(epoch_residuals(plan, rssi_path, reports))
    print("correlation at " + " / ".join(f"{lag}" for lag in LAGS) + " s: "
          + " / ".join(f"{c:.2f}" for c in correlations) + f"; share {share:.2f}, time {tau:.1f} s")


if __name__ == "__main__":
    main()
