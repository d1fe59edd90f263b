#!/usr/bin/env python3
"""Fits the log-distance path-loss model to calibration samples.

    calibrate.py CAL.csv [--output CAL.json] [--min-samples 3]

CAL.csv has `distance,rssi` (metres, dBm) and optionally `uuid,major,minor`. For every beacon
and for all samples together it fits, by ordinary least squares,

    rssi = P0 - 10 n log10(distance)

and reports sigma, the residual standard deviation (dB, with two degrees of freedom removed).
The result is the calibration JSON of FORMATS.md. rssi 0 and 127 ("no reading") are skipped;
a beacon with fewer samples than --min-samples, or with a single distance, is left out of
`beacons` (it then takes `all`), with a note on standard error.
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from common import CSVTable, InputError, identity, run_main


def fit(distance: np.ndarray, rssi: np.ndarray) -> dict[str, float]:
    """Least-squares P0 (dBm at 1 m), n and sigma (dB) for rssi = P0 - 10 n log10 d."""
    design = np.column_stack([np.ones_like(distance), -10.0 * np.log10(distance)])
    (p0, n), *_ = np.linalg.lstsq(design, rssi, rcond=None)
    residual = rssi - design @ np.array([p0, n])
    dof = max(len(rssi) - 2, 1)
    sigma = float(np.sqrt(residual @ residual / dof))
    return {"measuredPower": round(float(p0), 3), "pathLossExponent": round(float(n), 4),
            "sigma": round(sigma, 3), "count": int(len(rssi))}


def read_samples(path: str) -> tuple[dict, np.ndarray, np.ndarray, int]:
    """(per-identity (d, rssi) lists, all distances, all rssi, skipped no-reading rows)."""
    table = CSVTable(path, ["distance", "rssi"])
    named = all(table.has(c) for c in ("uuid", "major", "minor"))
    per_beacon: dict = {}
    distances, values = [], []
    skipped = 0
    for row in table.rows:
        d = table.number(row, "distance")
        r = table.number(row, "rssi")
        if r in (0.0, 127.0):
            skipped += 1
            continue
        if d <= 0:
            raise InputError(f"{path}:{row.line}: column 'distance': {d} must be positive (metres)")
        if r > 0:
            raise InputError(f"{path}:{row.line}: column 'rssi': {r} dBm is positive; "
                             "RSSI is negative dBm")
        if named:
            major, minor = table.integer(row, "major"), table.integer(row, "minor")
            if not (0 <= major <= 65535 and 0 <= minor <= 65535):
                raise InputError(f"{path}:{row.line}: major/minor out of range 0...65535")
            key = identity(table.text(row, "uuid"), major, minor)
            per_beacon.setdefault(key, ([], []))
            per_beacon[key][0].append(d)
            per_beacon[key][1].append(r)
        distances.append(d)
        values.append(r)
    return per_beacon, np.array(distances), np.array(values), skipped


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("samples", help="calibration CSV: [uuid,major,minor,]distance,rssi")
    parser.add_argument("--output", help="write the JSON here instead of standard output")
    parser.add_argument("--min-samples", type=int, default=3,
                        help="fewest samples for a per-beacon fit (default 3)")
    args = parser.parse_args()

    per_beacon, distances, values, skipped = read_samples(args.samples)
    if skipped:
        print(f"note: skipped {skipped} rows with rssi 0 or 127 (no reading)", file=sys.stderr)
    if len(values) < 3 or np.ptp(np.log10(distances)) == 0:
        raise InputError(f"{args.samples}: need at least 3 samples at 2 or more distances "
                         f"to fit a path-loss model (have {len(values)})")
    result: dict = {}
    beacons = []
    for key in sorted(per_beacon):
        d, r = (np.array(v) for v in per_beacon[key])
        if len(r) < max(args.min_samples, 3) or np.ptp(np.log10(d)) == 0:
            print(f"note: beacon {key[0]} {key[1]} {key[2]}: {len(r)} samples at "
                  f"{len(set(d.tolist()))} distance(s) cannot be fitted; it takes 'all'",
                  file=sys.stderr)
            continue
        beacons.append({"uuid": key[0], "major": key[1], "minor": key[2], **fit(d, r)})
    if per_beacon:
        result["beacons"] = beacons
    result["all"] = fit(distances, values)
    text = json.dumps(result, indent=2) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    run_main(main)
