"""The RSSI samples and truth CSV files of a simulated site, as the Research scripts write them."""

from __future__ import annotations

import csv
import os


def write_samples_and_truth(directory: str, uuid: str, samples, truth) -> None:
    """`rssi.csv` (timestamp, device, uuid, major 1, minor, rssi) from (time, device, minor, rssi)
    samples, and `truth.csv` (timestamp, device, x, y, floor 0) from (time, device, x, y)."""
    with open(os.path.join(directory, "rssi.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["timestamp", "device", "uuid", "major", "minor", "rssi"])
        for t, device, minor, rssi in samples:
            w.writerow([f"{t:.3f}", device, uuid, 1, minor, rssi])
    with open(os.path.join(directory, "truth.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["timestamp", "device", "x", "y", "floor"])
        for t, device, x, y in truth:
            w.writerow([f"{t:.3f}", device, f"{x:.3f}", f"{y:.3f}", 0])
