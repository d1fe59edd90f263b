#!/usr/bin/env python3
"""Scores a fixes CSV against ground truth.

    evaluate.py FIXES.csv TRUTH.csv [--device-column device] [--max-gap 5]
                [--json | --markdown LABEL]

FIXES.csv: `timestamp,x,y,floor,accuracy` (FORMATS.md), optionally a device column and any
other columns. `floor` and `accuracy` may be missing; their metrics are then reported as n/a.
TRUTH.csv: `timestamp,[device,]x,y,floor` (`floor` optional).

The truth is interpolated linearly in time at each fix's timestamp, per device (its floor is
the floor of the nearest truth sample). Fixes outside their device's truth time span, inside a
gap between truth samples longer than --max-gap seconds, unless the position holds over it (a
`static` column of 1 on the earlier row, or equal positions on both) (default 5; nobody knows where the
device was then), or of a device the truth does not have, are skipped and counted. A truth file without a device column
applies to every device. For each device and overall it prints the count, the horizontal error
(m): RMSE, median and 90th percentile; the honesty (fraction of fixes whose error is at most
their `accuracy`; about 63 % is right for a 1-sigma radius of a circular Gaussian error); and
the floor hit rate.
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from common import CSVTable, InputError, device_of, run_main


def read_track(path: str, device_column: str, kind: str) -> tuple[dict[str, dict[str, np.ndarray]], bool]:
    """Per device: arrays of timestamp, x, y (and floor, accuracy when present), time-sorted."""
    table = CSVTable(path, ["timestamp", "x", "y"])
    optional = [c for c in ("floor", "accuracy") if table.has(c)] if kind == "fixes" else \
        [c for c in ("floor", "static") if table.has(c)]
    grouped: dict[str, list[list[float]]] = {}
    for row in table.rows:
        values = [table.number(row, c) for c in ["timestamp", "x", "y"] + optional]
        if "accuracy" in optional and values[-1] < 0:
            raise InputError(f"{path}:{row.line}: column 'accuracy': {values[-1]} is negative; "
                             "accuracy is a radius in metres")
        grouped.setdefault(device_of(table, row, device_column), []).append(values)
    if not grouped:
        raise InputError(f"{path}: no data rows after the header")
    tracks = {}
    for device, rows in grouped.items():
        array = np.array(rows)
        array = array[np.argsort(array[:, 0], kind="stable")]
        tracks[device] = {name: array[:, i]
                          for i, name in enumerate(["timestamp", "x", "y"] + optional)}
    return tracks, table.has(device_column)


def holds(truth: dict[str, np.ndarray], left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Whether the position holds from sample `left` to sample `right`: `left` is marked static,
    or both give the same position and floor (a receiver held still)."""
    same = (truth["x"][left] == truth["x"][right]) & (truth["y"][left] == truth["y"][right])
    if "floor" in truth:
        same &= truth["floor"][left] == truth["floor"][right]
    if "static" in truth:
        same |= truth["static"][left] == 1
    return same


def inside_truth(truth: dict[str, np.ndarray], times: np.ndarray, max_gap: float) -> np.ndarray:
    """Which `times` lie within the truth's span and not inside a gap longer than `max_gap` s
    (a gap over which the position holds counts as covered, whatever its length)."""
    t = truth["timestamp"]
    right = np.searchsorted(t, times, side="left")
    inside = (times >= t[0]) & (times <= t[-1])
    right = np.clip(right, 1, len(t) - 1) if len(t) > 1 else np.zeros_like(right)
    exact = np.isin(times, t)
    if len(t) > 1:
        left = np.maximum(right - 1, 0)
        covered = (t[right] - t[left] <= max_gap) | holds(truth, left, right)
    else:
        covered = np.ones(len(times), dtype=bool)
    return inside & (exact | covered)


def interpolate(truth: dict[str, np.ndarray], times: np.ndarray) -> dict[str, np.ndarray]:
    """Truth x, y (linear) and floor (nearest sample) at `times`, inside the truth's span."""
    t = truth["timestamp"]
    result = {"x": np.interp(times, t, truth["x"]), "y": np.interp(times, t, truth["y"])}
    if "static" in truth:
        # After a static sample the position stays where it is until the next sample.
        last = np.clip(np.searchsorted(t, times, side="right") - 1, 0, len(t) - 1)
        held = truth["static"][last] == 1
        result["x"] = np.where(held, truth["x"][last], result["x"])
        result["y"] = np.where(held, truth["y"][last], result["y"])
    if "floor" in truth:
        right = np.clip(np.searchsorted(t, times), 0, len(t) - 1)
        left = np.clip(right - 1, 0, len(t) - 1)
        nearest = np.where(np.abs(t[left] - times) <= np.abs(t[right] - times), left, right)
        result["floor"] = truth["floor"][nearest]
    return result


def summarise(errors: np.ndarray, honest: np.ndarray | None, floor_hits: np.ndarray | None,
              skipped: int) -> dict:
    """The metrics of one group of fixes; None where a metric has no data."""
    if len(errors) == 0:
        return {"count": 0, "skipped": skipped, "rmse": None, "median": None, "p90": None,
                "honesty": None, "floorHitRate": None}
    return {
        "count": int(len(errors)),
        "skipped": int(skipped),
        "rmse": float(np.sqrt(np.mean(errors ** 2))),
        "median": float(np.median(errors)),
        "p90": float(np.percentile(errors, 90)),
        "honesty": None if honest is None else float(np.mean(honest)),
        "floorHitRate": None if floor_hits is None else float(np.mean(floor_hits)),
    }


def evaluate(fixes, truth, truth_has_devices: bool, max_gap: float) -> dict:
    per_device = {}
    pooled_errors, pooled_honest, pooled_floor = [], [], []
    total_skipped = 0
    has_accuracy = all("accuracy" in f for f in fixes.values())
    has_floor = all("floor" in f for f in fixes.values()) and \
        all("floor" in t for t in truth.values())
    for device in sorted(fixes):
        fix = fixes[device]
        reference = truth.get(device) if truth_has_devices else next(iter(truth.values()))
        if reference is None:
            total_skipped += len(fix["timestamp"])
            per_device[device] = summarise(np.array([]), None, None, len(fix["timestamp"]))
            continue
        t = fix["timestamp"]
        inside = inside_truth(reference, t, max_gap)
        skipped = int((~inside).sum())
        total_skipped += skipped
        at = interpolate(reference, t[inside])
        errors = np.hypot(fix["x"][inside] - at["x"], fix["y"][inside] - at["y"])
        honest = errors <= fix["accuracy"][inside] if has_accuracy else None
        floor_hits = fix["floor"][inside] == at["floor"] if has_floor else None
        per_device[device] = summarise(errors, honest, floor_hits, skipped)
        pooled_errors.append(errors)
        if honest is not None:
            pooled_honest.append(honest)
        if floor_hits is not None:
            pooled_floor.append(floor_hits)
    overall = summarise(np.concatenate(pooled_errors) if pooled_errors else np.array([]),
                        np.concatenate(pooled_honest) if has_accuracy and pooled_honest else None,
                        np.concatenate(pooled_floor) if has_floor and pooled_floor else None,
                        total_skipped)
    return {"devices": per_device, "overall": overall}


def format_table(result: dict) -> str:
    def cell(value, percent=False):
        if value is None:
            return "n/a"
        return f"{100 * value:.1f}%" if percent else f"{value:.3f}"

    header = f"{'device':<30} {'count':>6} {'skipped':>7} {'RMSE':>7} {'median':>7} " \
             f"{'P90':>7} {'honesty':>8} {'floor':>7}"
    lines = [header, "-" * len(header)]
    rows = list(result["devices"].items()) if len(result["devices"]) > 1 or \
        next(iter(result["devices"])) != "" else []
    for name, m in rows + [("overall", result["overall"])]:
        lines.append(f"{name or '-':<30} {m['count']:>6} {m['skipped']:>7} {cell(m['rmse']):>7} "
                     f"{cell(m['median']):>7} {cell(m['p90']):>7} "
                     f"{cell(m['honesty'], True):>8} {cell(m['floorHitRate'], True):>7}")
    lines.append("errors in metres (horizontal); honesty = share of fixes with error <= accuracy")
    return "\n".join(lines)


def render(result: dict, args: argparse.Namespace) -> str:
    if args.json:
        return json.dumps(result, indent=2)
    if args.markdown:
        m = result["overall"]
        if m["count"] == 0:
            return f"| {args.markdown} | n/a | n/a | n/a | n/a | 0 |"
        honesty = "n/a" if m["honesty"] is None else f"{100 * m['honesty']:.0f} %"
        return (f"| {args.markdown} | {m['rmse']:.2f} | {m['median']:.2f} | {m['p90']:.2f} "
                f"| {honesty} | {m['count']} |")
    return format_table(result)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("fixes", help="fixes CSV: timestamp,x,y,floor,accuracy[,device,...]")
    parser.add_argument("truth", help="truth CSV: timestamp,[device,]x,y,floor")
    parser.add_argument("--device-column", default="device",
                        help="name of the device column in both files (default 'device')")
    parser.add_argument("--max-gap", type=float, default=5.0,
                        help="skip fixes inside truth gaps longer than this, s (default 5)")
    parser.add_argument("--json", action="store_true", help="print the metrics as JSON")
    parser.add_argument("--markdown", metavar="LABEL",
                        help="print only the overall metrics as a Markdown table row: "
                             "| LABEL | RMSE | median | P90 | honesty | count |")
    args = parser.parse_args()
    column = args.device_column.strip().lower()

    fixes, _ = read_track(args.fixes, column, "fixes")
    truth, truth_has_devices = read_track(args.truth, column, "truth")
    if not (args.max_gap > 0):
        raise InputError(f"--max-gap {args.max_gap}: must be a positive number of seconds")
    result = evaluate(fixes, truth, truth_has_devices, args.max_gap)
    if result["overall"]["skipped"]:
        print(f"note: skipped {result['overall']['skipped']} fixes outside the truth's time span, "
              f"inside truth gaps over {args.max_gap:g} s, or of devices without truth",
              file=sys.stderr)
    if result["overall"]["count"] == 0:
        print(render(result, args))
        raise InputError("no fix falls inside the truth's time span; check the timestamps "
                         "(same epoch and units?) and the device names")
    print(render(result, args))
    return 0


if __name__ == "__main__":
    run_main(main)
