#!/usr/bin/env python3
"""Writes a large simulated RSSI batch and its floor plan, for measuring `indoorpos locate`
on millions of samples (Docs/Guide/Pipeline.md).

    python3 Scripts/make-large-batch.py 1000000 .build/large   # writes rssi.csv and plan.json
    /usr/bin/time -f "%e s, %M KB" .build/release/indoorpos locate \
        --plan .build/large/plan.json --rssi .build/large/rssi.csv --output .build/large/fixes.csv

A phone walks at 1.1 m/s with a slowly turning heading in a 24 x 16 m room with 8 beacons at
2.6 m; each beacon is heard at 4 Hz with log-distance RSSI (-59 dBm at 1 m, n = 2) and 4 dB
of Gaussian shadowing. Seeded, so every run writes the same file.
"""
import json
import math
import os
import random
import sys

UUID = "F7826DA6-4FA2-4E98-8024-BC5B71E0893E"
BEACONS = [(2, 2), (12, 1), (22, 2), (23, 8), (22, 14), (12, 15), (2, 14), (1, 8)]


def main():
    if len(sys.argv) != 3 or not sys.argv[1].isdigit():
        sys.exit("usage: make-large-batch.py SAMPLES OUTPUT_DIR")
    count, folder = int(sys.argv[1]), sys.argv[2]
    os.makedirs(folder, exist_ok=True)
    random.seed(7)
    x, y, heading = 12.0, 8.0, random.uniform(0, 2 * math.pi)
    rate = 32.0  # samples per second, all beacons together
    with open(os.path.join(folder, "rssi.csv"), "w") as out:
        out.write("timestamp,uuid,major,minor,rssi\n")
        for i in range(count):
            heading += random.gauss(0, 0.05)
            x += math.cos(heading) * 1.1 / rate
            y += math.sin(heading) * 1.1 / rate
            if not 1 < x < 23:
                heading, x = math.pi - heading, min(max(x, 1), 23)
            if not 1 < y < 15:
                heading, y = -heading, min(max(y, 1), 15)
            bx, by = BEACONS[i % len(BEACONS)]
            d = math.sqrt((x - bx) ** 2 + (y - by) ** 2 + 1.4 ** 2)
            rssi = -59 - 20 * math.log10(d) + random.gauss(0, 4)
            out.write(f"{(i + 1) / rate:.4f},{UUID},1,{i % len(BEACONS) + 1},{rssi:.1f}\n")
    plan = {"formatVersion": 1, "name": "large simulated batch",
            "defaults": {"measuredPower": -59, "pathLossExponent": 2, "receiverHeight": 1.2},
            "floors": [{"level": 0, "outline": [[0, 0], [24, 0], [24, 16], [0, 16]],
                        "beacons": [{"uuid": UUID, "major": 1, "minor": k + 1, "x": bx, "y": by, "z": 2.6}
                                    for k, (bx, by) in enumerate(BEACONS)]}]}
    with open(os.path.join(folder, "plan.json"), "w") as out:
        json.dump(plan, out, indent=1)


if __name__ == "__main__":
    main()
