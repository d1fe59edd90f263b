"""The RSSI samples and truth CSV files of a simulated site, as the Research scripts write them,
and the indoorpos binary they run."""

from __future__ import annotations

import csv
import os
import subprocess


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


def binary() -> str:
    """The indoorpos to run: $BIN, else the release build Scripts/release-bin.sh makes (and
    builds if missing)."""
    if os.environ.get("BIN"):
        return os.environ["BIN"]
    scripts = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return subprocess.run(["bash", os.path.join(scripts, "release-bin.sh")], check=True,
                          capture_output=True, text=True).stdout.strip()
