#!/usr/bin/env python3
"""Reference positioning pipelines: the yardsticks the Swift library is measured against.

    pipelines.py --plan P --rssi R [--calibration CAL.json] --pipeline common|ml-kalman|centroid
                 [--epoch 1.0] [--filter kalman|none] [--skip-bad-rows] [--output F]

Both pipelines cut each device's samples into epoch windows [t0 + kE, t0 + (k+1)E), starting
at the device's first sample, and stamp each fix with the window's end (what a real-time app
shows). In a window they average the RSSI of each beacon (dBm) and pick the floor of the
strongest beacon; with at least 3 beacons of that floor they solve in 2D with the receiver at
the plan's receiverHeight (beacon heights from the plan), bounded to the floor outline's
bounding box plus 5 m so that no fix runs away:

- `common`: distance d = 10^((P0 - rssi) / (10 n)) per beacon, then least squares on the
  ranges with relative residuals (|x - b| - d) / d (scipy.optimize.least_squares), then a
  constant-velocity Kalman filter with a fixed measurement noise of 2.5 m per axis.
- `ml-kalman`: maximum likelihood on the mean RSSI, residual
  sqrt(m/sigma^2) (rssi - P0 + 10 n log10 |x - b|) with m the beacon's sample count in the
  window, covariance (J^T J)^-1 from the Fisher information, then the same filter with each
  fix's covariance as R.
- `centroid`: the weighted centroid (Blumenthal et al. 2007) that a practitioner writes first:
  the 3 strongest beacons of the window by mean RSSI (of any floor, from one beacon on), their
  positions averaged with weights 10^(rssi/10) in linear power; no model values, no filter.

The filter: state (x, y, vx, vy), white-acceleration process noise of spectral density
--process-noise (m^2/s^3), one predict per epoch; epochs without a fix only predict, and
epochs without any sample write no row.
`accuracy` = sqrt(var x + var y) of the filter state (or of the fix with --filter none).
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass

import numpy as np
from scipy.optimize import least_squares

from common import (CSVTable, InputError, apply_calibration, device_of, identity,
                    load_plan, run_main, write_csv)

LN10 = math.log(10.0)
BOUND_MARGIN = 5.0        # metres beyond the outline's bounding box a fix may go
COMMON_SIGMA = 2.5        # metres: the common pipeline's fixed measurement noise per axis
MIN_BEACONS = 3
CENTROID_BEACONS = 3       # the weighted centroid's strongest beacons per window


@dataclass
class Samples:
    """One device's samples, sorted by time: seconds, index into the beacon list, dBm."""
    time: np.ndarray
    beacon: np.ndarray
    rssi: np.ndarray


@dataclass
class Fix:
    """A position (m) with its 2×2 covariance (m²), the floor level and beacons used."""
    position: np.ndarray
    covariance: np.ndarray
    level: int
    beacons: int


def read_rssi(path: str, beacon_keys: list, skip_bad: bool) -> dict[str, Samples]:
    """Reads the RSSI CSV; skips no-reading rows and unknown beacons (counted on stderr).

    A malformed row (not a number, positive RSSI) is an error naming line and column, or,
    with `skip_bad`, skipped and counted.
    """
    table = CSVTable(path, ["timestamp", "uuid", "major", "minor", "rssi"])
    index = {key: i for i, key in enumerate(beacon_keys)}
    grouped: dict[str, list[tuple[float, int, float]]] = {}
    no_reading = unknown = bad = 0
    for row in table.rows:
        try:
            t = table.number(row, "timestamp")
            r = table.number(row, "rssi")
            if r in (0.0, 127.0):
                no_reading += 1
                continue
            if r > 0:
                raise InputError(f"{path}:{row.line}: column 'rssi': {r:g} dBm is positive; RSSI "
                                 "is negative dBm (0 and 127 mean 'no reading'); "
                                 "--skip-bad-rows skips such rows")
            key = identity(table.text(row, "uuid"), table.integer(row, "major"),
                           table.integer(row, "minor"))
        except InputError:
            if not skip_bad:
                raise
            bad += 1
            continue
        if key not in index:
            unknown += 1
            continue
        grouped.setdefault(device_of(table, row, "device"), []).append((t, index[key], r))
    if bad:
        print(f"note: {path}: skipped {bad} bad rows (--skip-bad-rows)", file=sys.stderr)
    if no_reading or unknown:
        print(f"note: {path}: skipped {no_reading} no-reading rows (rssi 0/127) and "
              f"{unknown} samples of beacons not in the plan", file=sys.stderr)
    if not grouped:
        raise InputError(f"{path}: no usable samples (every row was skipped)")
    result = {}
    for device, rows in grouped.items():
        rows.sort(key=lambda item: item[0])
        array = np.array(rows)
        result[device] = Samples(array[:, 0], array[:, 1].astype(int), array[:, 2])
    return result


class Geometry:
    """The plan's beacons as arrays, for vectorised residuals."""

    def __init__(self, plan: Plan):
        self.keys = sorted(plan.beacons)
        beacons = [plan.beacons[k] for k in self.keys]
        self.level = np.array([b.level for b in beacons])
        self.xyz = np.array([[b.x, b.y, b.z] for b in beacons])
        self.power = np.array([b.measured_power for b in beacons])
        self.exponent = np.array([b.exponent for b in beacons])
        self.sigma = np.array([b.sigma for b in beacons])
        self.plan = plan

    def receiver_z(self, level: int) -> float:
        return self.plan.elevations[level] + self.plan.receiver_height

    def box(self, level: int) -> tuple[np.ndarray, np.ndarray]:
        x0, y0, x1, y1 = self.plan.bounds(level)
        return (np.array([x0, y0]) - BOUND_MARGIN, np.array([x1, y1]) + BOUND_MARGIN)


def distances(position: np.ndarray, anchors: np.ndarray, z: float) -> tuple[np.ndarray, np.ndarray]:
    """3D distances (m) from the receiver at (position, z) to the anchors, and the xy offsets."""
    offset = position[None, :] - anchors[:, :2]
    return np.sqrt((offset ** 2).sum(axis=1) + (z - anchors[:, 2]) ** 2), offset


def range_fix(anchors, power, exponent, rssi, z, box, start) -> np.ndarray:
    """Least squares on ranges from inverting the path-loss model (the common pipeline).

    A range from RSSI has a standard deviation proportional to the range itself
    (d σ ln10 / (10 n)), so each residual is divided by its range: (|x − b| − d) / d.
    """
    ranges = 10.0 ** ((power - rssi) / (10.0 * exponent))

    def residual(p):
        d, _ = distances(p, anchors, z)
        return (d - ranges) / ranges

    def jacobian(p):
        d, offset = distances(p, anchors, z)
        return offset / (np.maximum(d, 1e-6) * ranges)[:, None]

    return least_squares(residual, start, jac=jacobian, bounds=box, method="trf").x


def ml_fix(anchors, power, exponent, sigma, counts, rssi, z, box, starts):
    """Maximum likelihood on mean RSSI; returns (position, Fisher covariance)."""
    weight = np.sqrt(counts) / sigma
    slope = 10.0 * exponent / LN10       # d(10 n log10 d)/d(ln d)

    def residual(p):
        d, _ = distances(p, anchors, z)
        return weight * (rssi - power + 10.0 * exponent * np.log10(np.maximum(d, 1e-6)))

    def jacobian(p):
        d, offset = distances(p, anchors, z)
        return (weight * slope / np.maximum(d, 1e-6) ** 2)[:, None] * offset

    best = None
    for start in starts:
        solution = least_squares(residual, start, jac=jacobian, bounds=box, method="trf")
        if best is None or solution.cost < best.cost:
            best = solution
    j = jacobian(best.x)
    information = j.T @ j
    values, vectors = np.linalg.eigh(information)
    span = float(np.sum((box[1] - box[0]) ** 2))      # no variance beyond the box's size
    variances = np.minimum(1.0 / np.maximum(values, 1e-12), span)
    return best.x, (vectors * variances) @ vectors.T


def centroid_fix(geometry: Geometry, ids, means) -> Fix:
    """The weighted centroid (Blumenthal et al. 2007): the CENTROID_BEACONS strongest beacons by
    mean RSSI, their positions averaged with weights in linear power 10^(RSSI/10); works from
    one beacon on. Its `accuracy` is the weighted spread of those beacons about the centroid
    (it has no error model; the figure is only for the output column)."""
    strongest = np.argsort(-means, kind="stable")[:CENTROID_BEACONS]
    anchors = geometry.xyz[ids[strongest], :2]
    w = 10.0 ** ((means[strongest] - means[strongest].max()) / 10.0)
    w = w / w.sum()
    position = (anchors * w[:, None]).sum(axis=0)
    spread = ((anchors - position) ** 2 * w[:, None]).sum(axis=0)
    level = int(geometry.level[ids[strongest[0]]])
    return Fix(position, np.diag(spread), level, len(strongest))


def locate_epoch(geometry: Geometry, beacon, rssi, pipeline: str) -> Fix | None:
    """The fix from one window's samples, or None with fewer than MIN_BEACONS on the floor
    (the centroid needs one beacon)."""
    ids, inverse, counts = np.unique(beacon, return_inverse=True, return_counts=True)
    means = np.bincount(inverse, weights=rssi) / counts
    if pipeline == "centroid":
        return centroid_fix(geometry, ids, means)
    level = int(geometry.level[ids[np.argmax(means)]])
    on_floor = geometry.level[ids] == level
    ids, means, counts = ids[on_floor], means[on_floor], counts[on_floor]
    if len(ids) < MIN_BEACONS:
        return None
    anchors = geometry.xyz[ids]
    z = geometry.receiver_z(level)
    box = geometry.box(level)
    # Start at the centroid weighted by received power in milliwatts (a standard first guess).
    w = 10.0 ** ((means - means.max()) / 10.0)
    centroid = np.clip((anchors[:, :2] * w[:, None]).sum(axis=0) / w.sum(), box[0], box[1])
    power, exponent = geometry.power[ids], geometry.exponent[ids]
    ranged = range_fix(anchors, power, exponent, means, z, box, centroid)
    if pipeline == "common":
        return Fix(ranged, np.eye(2) * COMMON_SIGMA ** 2, level, len(ids))
    position, covariance = ml_fix(anchors, power, exponent, geometry.sigma[ids], counts,
                                  means, z, box, [centroid, ranged])
    return Fix(position, covariance, level, len(ids))


class ConstantVelocityKalman:
    """Kalman filter on (x, y, vx, vy) with white-acceleration process noise.

    F = [[I, dt I], [0, I]], Q = q [[dt³/3 I, dt²/2 I], [dt²/2 I, dt I]], H = [I 0].
    """

    def __init__(self, q: float):
        self.q = q
        self.state: np.ndarray | None = None
        self.covariance = np.zeros((4, 4))

    def predict(self, dt: float) -> None:
        if self.state is None or dt <= 0:
            return
        f = np.eye(4)
        f[0, 2] = f[1, 3] = dt
        i2 = np.eye(2)
        q = self.q * np.block([[dt ** 3 / 3 * i2, dt ** 2 / 2 * i2], [dt ** 2 / 2 * i2, dt * i2]])
        self.state = f @ self.state                               # x⁻ = F x
        self.covariance = f @ self.covariance @ f.T + q           # P⁻ = F P Fᵀ + Q

    def update(self, z: np.ndarray, r: np.ndarray) -> None:
        if self.state is None:
            self.state = np.array([z[0], z[1], 0.0, 0.0])
            self.covariance = np.diag([r[0, 0], r[1, 1], 1.0, 1.0])   # speed prior 1 m/s
            self.covariance[:2, :2] = r
            return
        h = np.hstack([np.eye(2), np.zeros((2, 2))])
        s = h @ self.covariance @ h.T + r                         # S = H P Hᵀ + R
        k = np.linalg.solve(s, h @ self.covariance).T             # K = P Hᵀ S⁻¹
        self.state = self.state + k @ (z - h @ self.state)        # x = x⁻ + K (z − H x⁻)
        a = np.eye(4) - k @ h                                     # Joseph form:
        self.covariance = a @ self.covariance @ a.T + k @ r @ k.T  # P = A P Aᵀ + K R Kᵀ


def run_device(geometry: Geometry, samples: Samples, pipeline: str, epoch: float,
               q: float, use_filter: bool) -> list[tuple[float, int, int, np.ndarray, np.ndarray]]:
    """(timestamp, level, beacons used, position, covariance) per epoch from the first fix on.

    Epochs with samples but no fix carry the filter's prediction, the last fix's level and
    0 beacons. Epochs without any sample (the device was not heard) give no row, as a live
    app gets no callback then; the filter still predicts across them.
    """
    t0 = samples.time[0]
    window = np.floor((samples.time - t0) / epoch).astype(int)
    boundaries = np.flatnonzero(np.diff(window)) + 1
    starts = np.concatenate([[0], boundaries])
    ends = np.concatenate([boundaries, [len(window)]])
    kalman = ConstantVelocityKalman(q)
    output = []
    last_fix: Fix | None = None
    previous = None
    for s, e in zip(starts, ends):
        k = int(window[s])
        stamp = t0 + (k + 1) * epoch
        fix = locate_epoch(geometry, samples.beacon[s:e], samples.rssi[s:e], pipeline)
        if not use_filter:
            if fix is not None:
                output.append((stamp, fix.level, fix.beacons, fix.position, fix.covariance))
            continue
        if kalman.state is not None:
            kalman.predict((k - previous) * epoch)
        previous = k
        if fix is not None:
            kalman.update(fix.position, fix.covariance)
            last_fix = fix
        if kalman.state is not None and last_fix is not None:
            output.append((stamp, last_fix.level, fix.beacons if fix else 0,
                           kalman.state[:2].copy(), kalman.covariance[:2, :2].copy()))
    return output


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plan", required=True, help="floor plan JSON")
    parser.add_argument("--rssi", required=True, help="RSSI samples CSV")
    parser.add_argument("--calibration", help="calibration JSON (overrides the plan's models)")
    parser.add_argument("--pipeline", required=True, choices=["common", "ml-kalman", "centroid"],
                        help="centroid: the weighted centroid of the three strongest beacons, never filtered")
    parser.add_argument("--epoch", type=float, default=1.0, help="window length, s (default 1)")
    parser.add_argument("--process-noise", type=float, default=0.5,
                        help="Kalman white-acceleration density, m²/s³ (default 0.5)")
    parser.add_argument("--filter", choices=["kalman", "none"], default="kalman",
                        help="'none' writes the per-epoch fixes without the Kalman filter")
    parser.add_argument("--skip-bad-rows", action="store_true",
                        help="skip (and count) malformed RSSI rows instead of stopping")
    parser.add_argument("--output", help="fixes CSV path (default standard output)")
    args = parser.parse_args()
    if not (math.isfinite(args.epoch) and 0.01 <= args.epoch <= 3600):
        raise InputError(f"--epoch {args.epoch}: must be between 0.01 and 3600 seconds")
    if not (math.isfinite(args.process_noise) and args.process_noise > 0):
        raise InputError(f"--process-noise {args.process_noise}: must be positive")

    plan = load_plan(args.plan)
    if args.calibration:
        apply_calibration(plan, args.calibration)
    geometry = Geometry(plan)
    devices = read_rssi(args.rssi, geometry.keys, args.skip_bad_rows)
    has_device = any(device for device in devices)
    rows = []
    for device in sorted(devices):
        for stamp, level, used, position, covariance in run_device(
                geometry, devices[device], args.pipeline, args.epoch,
                args.process_noise, args.filter == "kalman" and args.pipeline != "centroid"):
            accuracy = math.sqrt(max(covariance[0, 0] + covariance[1, 1], 0.0))
            row = [stamp, float(position[0]), float(position[1]), level, accuracy]
            rows.append(row + ([device] if has_device else []) + [used])
    header = ["timestamp", "x", "y", "floor", "accuracy"] + (["device"] if has_device else [])
    write_csv(args.output, header + ["beacons"], rows)
    return 0


if __name__ == "__main__":
    run_main(main)
