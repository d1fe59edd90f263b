#!/usr/bin/env python3
"""Writes a simulated RSSI batch of many phones, rows in time order across devices, with the
floor plan of Scripts/make-large-batch.py (24 x 16 m room, 8 beacons at 2.6 m), for measuring
`indoorpos locate` on venues with many devices and for the Dask example.

    python3 Scripts/make-device-batch.py DEVICES SAMPLES_PER_DEVICE SPAN_SECONDS OUTPUT_DIR

Device k (named phone000000, phone000001, ...) starts at k * SPAN / DEVICES seconds and is heard
32 times a second (the 8 beacons in turn) while it walks at 1.1 m/s with a slowly turning
heading; RSSI follows -59 dBm at 1 m, n = 2, with 4 dB of Gaussian shadowing. Seeded, so every
run writes the same files (rssi.csv and plan.json). For example 200000 phones heard once each
over an hour: `make-device-batch.py 200000 1 3600 .build/devices`.
"""
import heapq
import json
import math
import os
import random
import sys

UUID = "F7826DA6-4FA2-4E98-8024-BC5B71E0893E"
BEACONS = [(2, 2), (12, 1), (22, 2), (23, 8), (22, 14), (12, 15), (2, 14), (1, 8)]
RATE = 32.0


def walk(device, start, count):
    """Yields (time, row text) for one phone."""
    rng = random.Random(device * 7919 + 1)
    x, y, heading = rng.uniform(2, 22), rng.uniform(2, 14), rng.uniform(0, 2 * math.pi)
    for i in range(count):
        heading += rng.gauss(0, 0.05)
        x += math.cos(heading) * 1.1 / RATE
        y += math.sin(heading) * 1.1 / RATE
        if not 1 < x < 23:
            heading, x = math.pi - heading, min(max(x, 1), 23)
        if not 1 < y < 15:
            heading, y = -heading, min(max(y, 1), 15)
        k = (device + i) % len(BEACONS)
        bx, by = BEACONS[k]
        d = math.sqrt((x - bx) ** 2 + (y - by) ** 2 + 1.4 ** 2)
        rssi = -59 - 20 * math.log10(d) + rng.gauss(0, 4)
        t = start + i / RATE
        yield t, f"{t:.4f},{UUID},1,{k + 1},{rssi:.1f},phone{device:06d}\n"


def main():
    if len(sys.argv) != 5 or not (sys.argv[1].isdigit() and sys.argv[2].isdigit()):
        sys.exit("usage: make-device-batch.py DEVICES SAMPLES_PER_DEVICE SPAN_SECONDS OUTPUT_DIR")
    devices, per_device, span, folder = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
    os.makedirs(folder, exist_ok=True)
    streams = (walk(k, k * span / devices, per_device) for k in range(devices))
    with open(os.path.join(folder, "rssi.csv"), "w") as out:
        out.write("timestamp,uuid,major,minor,rssi,device\n")
        for _, row in heapq.merge(*streams, key=lambda item: item[0]):
            out.write(row)
    plan = {"formatVersion": 1, "name": "simulated venue",
            "defaults": {"measuredPower": -59, "pathLossExponent": 2, "receiverHeight": 1.2},
            "floors": [{"level": 0, "outline": [[0, 0], [24, 0], [24, 16], [0, 16]],
                        "beacons": [{"uuid": UUID, "major": 1, "minor": k + 1, "x": bx, "y": by, "z": 2.6}
                                    for k, (bx, by) in enumerate(BEACONS)]}]}
    with open(os.path.join(folder, "plan.json"), "w") as out:
        json.dump(plan, out, indent=1)


if __name__ == "__main__":
    main()
