#!/usr/bin/env python3
"""The shadowing a place keeps, measured at the true positions: a check of what
`calibrate --from-traffic` reports as `placeShadowingSigma`, which it measures at the positions it
tracked.

    Scripts/Research/place-variance-truth.py PLAN RSSI TRUTH [LABEL]

Every sample is paired with its device's true position as `Scripts/reference/evaluate.py` pairs
fixes with the truth (linear between rows, inside the truth's span, not across a gap of more than
5 s over which the position changed). Each beacon's P₀ and n, and each device's
offset, are fitted on those pairs by least squares (alternating, 20 passes). The residuals are then
split as the learner splits them (`PlaceClusters`): one-way ANOVA by beacon, device and 2-m cell of
the position, the between-cell component s²_between = (MSB − MSW) / n₀ pooled over the beacons.
Printed: the residuals' σ, σ_f = √s²_between with each device's own cells and with the cells
across devices (the learner's fallback for single scans), and the within-cell σ.

The truth is the point of this script: it measures the data, it sets nothing.
"""

from __future__ import annotations

import csv
import math
import os
import sys
from collections import defaultdict

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "reference"))

import evaluate  # noqa: E402  (the truth's pairing rules)
from common import identity, load_plan  # noqa: E402

CELL = 2.0  # metres, PlaceClusters.cellSize


def main():
    if len(sys.argv) < 4:
        raise SystemExit("usage: place-variance-truth.py PLAN RSSI TRUTH [LABEL]")
    plan_path, rssi_path, truth_path = sys.argv[1:4]
    label = sys.argv[4] if len(sys.argv) > 4 else rssi_path
    plan = load_plan(plan_path)
    beacons = plan.beacons
    truth, _ = evaluate.read_track(truth_path, "device", "truth")
    samples = defaultdict(list)  # device -> (identity, time, RSSI)
    with open(rssi_path, newline="") as f:
        for r in csv.DictReader(f):
            try:
                key = identity(r["uuid"], int(r["major"]), int(r["minor"]))
                t, rssi = float(r["timestamp"]), float(r["rssi"])
            except (KeyError, ValueError):
                continue
            if key in beacons:
                samples[r.get("device") or ""].append((key, t, rssi))
    pairs = []
    for device, heard in samples.items():
        if device not in truth:
            continue
        # The truth's own rules (Scripts/reference/evaluate.py): inside its span, not across a
        # gap of more than 5 s over which the position changed, linear between rows.
        times = np.array([h[1] for h in heard])
        covered = evaluate.inside_truth(truth[device], times, max_gap=5.0)
        at = evaluate.interpolate(truth[device], times)
        for k, (key, _, rssi) in enumerate(heard):
            if not covered[k]:
                continue
            px, py = float(at["x"][k]), float(at["y"][k])
            b = beacons[key]
            receiver = plan.elevations[b.level] + plan.receiver_height
            d = max(math.sqrt((px - b.x) ** 2 + (py - b.y) ** 2 + (receiver - b.z) ** 2), 0.1)
            pairs.append((key, device, px, py, d, rssi))
    if not pairs:
        raise SystemExit(f"{label}: no sample could be paired with a true position")
    keys = sorted({p[0] for p in pairs})
    devices = sorted({p[1] for p in pairs})
    k_index = {k: i for i, k in enumerate(keys)}
    d_index = {d: i for i, d in enumerate(devices)}
    slot = np.array([k_index[p[0]] for p in pairs], dtype=int)
    dev = np.array([d_index[p[1]] for p in pairs], dtype=int)
    log_d = np.log10(np.array([p[4] for p in pairs]))
    rssi = np.array([p[5] for p in pairs])
    x = np.array([p[2] for p in pairs])
    y = np.array([p[3] for p in pairs])
    offset = np.zeros(len(devices))
    p0 = np.zeros(len(keys))
    n = np.full(len(keys), 2.0)
    for _ in range(20):
        for k in range(len(keys)):
            m = slot == k
            design = np.c_[np.ones(m.sum()), -10 * log_d[m]]
            p0[k], n[k] = np.linalg.lstsq(design, rssi[m] - offset[dev[m]], rcond=None)[0]
        residual = rssi - p0[slot] + 10 * n[slot] * log_d
        for j in range(1, len(devices)):  # the first device is the reference
            offset[j] = residual[dev == j].mean()
    residual = rssi - p0[slot] + 10 * n[slot] * log_d - offset[dev]
    cx = np.floor(x / CELL).astype(int)
    cy = np.floor(y / CELL).astype(int)
    own = anova(zip(slot, dev, cx, cy), residual)
    shared = anova(zip(slot, np.zeros_like(dev), cx, cy), residual)
    print(f"{label}: {len(pairs)} samples paired, residual σ {residual.std():.2f} dB; σ_f {fmt(own[0])} "
          f"with each device's cells (within-cell σ {fmt(own[1])}), {fmt(shared[0])} across devices")


def anova(cells_of_pairs, residual):
    """(s²_between, MSW) of the one-way ANOVA by cell within each beacon, dB²; None when it cannot tell."""
    cells = defaultdict(lambda: [0, 0.0, 0.0])
    for key, r in zip(cells_of_pairs, residual):
        c = cells[tuple(int(v) for v in key)]
        c[0] += 1
        c[1] += r
        c[2] += r * r
    within = between = pairs = 0.0
    total, sums, sizes, count = defaultdict(float), defaultdict(float), defaultdict(float), defaultdict(int)
    for key, (m, s, s2) in cells.items():
        within += s2 - s * s / m
        between += s * s / m
        pairs += m
        total[key[0]] += m
        sums[key[0]] += s
        sizes[key[0]] += m * m
        count[key[0]] += 1
    groups = size_term = 0.0
    for k in total:
        between -= sums[k] ** 2 / total[k]
        groups += count[k]
        size_term += sizes[k] / total[k]
    within_freedom, between_freedom = pairs - groups, groups - len(total)
    if within_freedom <= 0 or between_freedom <= 0:
        return None, None
    msw, msb = within / within_freedom, between / between_freedom
    n0 = (pairs - size_term) / between_freedom
    return max(0.0, (msb - msw) / n0), msw


def fmt(variance):
    return "—" if variance is None else f"{math.sqrt(variance):.2f} dB"


if __name__ == "__main__":
    main()
