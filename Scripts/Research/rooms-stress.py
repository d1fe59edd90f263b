#!/usr/bin/env python3
"""A simulated store floor with rooms: walls, doors and zones, located with the walls in the
plan and without them, and scored on position (RMSE, honesty), on zones (Scripts/reference/
zones.py) and on steps through walls.

    Scripts/Research/rooms-stress.py [OUTPUT_DIR] [--seed N]

BIN=path/to/indoorpos picks the binary (default: the release build, built if missing).

The floor is 40 × 25 m, six rooms in two rows of three (13–14 m wide, 10 and 15 m deep), each
a zone of the plan, parted by walls of 6 dB with 2-m doors between neighbours (seven doors).
Thirteen beacons: two on the walls of each room and one near the middle, each with its own
P₀ ~ N(−59, 5²) dBm and n ~ U(1.6, 3.2) (the plan gives the generic −59 dBm, n = 2 and no
wall attenuation). Four phones (offsets ±6 dB) walk for ten minutes each from room to room
through the doors at 0.8–1.3 m/s and stop 5–40 s in each room. 4 dB of shadowing (half of it
correlated over 3 s), readings rounded to whole dBm, each advertisement (2 Hz) lost with
probability 0.3. The truth serves only to score.
"""

from __future__ import annotations

import csv
import json
import math
import os
import subprocess
import sys
from collections import deque

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))  # Scripts/Research
SCRIPTS = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(SCRIPTS, "reference"))

import evaluate  # noqa: E402
import zones as zone_figures  # noqa: E402
import simulated_files  # noqa: E402

UUID = "5A4BCFCE-174E-4BAC-A814-092E77F6B7E5"
RECEIVER_Z = 1.2
WIDTH, HEIGHT = 40.0, 25.0
WALL_LOSS = 6.0
# Rooms: id -> (x0, y0, x1, y1).
ROOMS = {
    "north-west": (0, 15, 13, 25), "north": (13, 15, 27, 25), "north-east": (27, 15, 40, 25),
    "south-west": (0, 0, 13, 15), "south": (13, 0, 27, 15), "south-east": (27, 0, 40, 15),
}
# Walls as segments; the gaps between them are the doors.
WALLS = [
    ((0, 15), (5, 15)), ((7, 15), (19, 15)), ((21, 15), (33, 15)), ((35, 15), (40, 15)),
    ((13, 0), (13, 6)), ((13, 8), (13, 19)), ((13, 21), (13, 25)),
    ((27, 0), (27, 6)), ((27, 8), (27, 19)), ((27, 21), (27, 25)),
]
# Doors: (room, room) -> the door's middle.
DOORS = {
    ("north-west", "south-west"): (6, 15), ("north", "south"): (20, 15), ("north-east", "south-east"): (34, 15),
    ("north-west", "north"): (13, 20), ("north", "north-east"): (27, 20),
    ("south-west", "south"): (13, 7), ("south", "south-east"): (27, 7),
}
BEACONS = [
    (0.3, 20), (6.5, 24.7), (16, 24.7), (24, 15.3), (39.7, 20), (33, 24.7),
    (0.3, 7), (6.5, 0.3), (16, 0.3), (24, 14.7), (39.7, 7), (33, 0.3), (20, 10),
]


def crossings(a, b):
    def side(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    count = 0
    for c, d in WALLS:
        s1, s2 = side(a, b, c), side(a, b, d)
        s3, s4 = side(c, d, a), side(c, d, b)
        if s1 * s2 < 0 and s3 * s4 < 0:
            count += 1
    return count


def neighbours(room):
    for (a, b), door in DOORS.items():
        if a == room:
            yield b, door
        elif b == room:
            yield a, door


def route(start, goal):
    """The doors from room `start` to room `goal` (breadth-first)."""
    previous = {start: None}
    queue = deque([start])
    while queue:
        room = queue.popleft()
        if room == goal:
            break
        for other, door in neighbours(room):
            if other not in previous:
                previous[other] = (room, door)
                queue.append(other)
    doors, room = [], goal
    while previous[room] is not None:
        room, door = previous[room]
        doors.append(door)
    return doors[::-1]


def point_in(rng, room, margin=1.0):
    x0, y0, x1, y1 = ROOMS[room]
    return rng.uniform(x0 + margin, x1 - margin), rng.uniform(y0 + margin, y1 - margin)


def walk(rng, duration, rate):
    rooms = list(ROOMS)
    room = rooms[rng.integers(len(rooms))]
    x, y = point_in(rng, room)
    t, out = 0.0, []

    def go(tx, ty, speed):
        nonlocal t, x, y
        steps = max(1, int(math.hypot(tx - x, ty - y) / speed * rate))
        for k in range(steps):
            out.append((t, x + (tx - x) * (k + 1) / steps, y + (ty - y) * (k + 1) / steps))
            t += 1 / rate
        x, y = tx, ty

    while t < duration:
        for _ in range(int(rng.uniform(5, 40) * rate)):
            out.append((t, x, y))
            t += 1 / rate
        goal = rooms[rng.integers(len(rooms))]
        while goal == room:
            goal = rooms[rng.integers(len(rooms))]
        speed = rng.uniform(0.8, 1.3)
        for door in route(room, goal):
            go(door[0], door[1], speed)
        go(*point_in(rng, goal), speed)
        room = goal
    return [p for p in out if p[0] < duration]


def traffic(rng, beacons):
    samples, truth = [], []
    rate = 10.0
    for index, offset in enumerate(rng.uniform(-6, 6, 4)):
        device = f"shopper{index + 1}"
        correlated = np.zeros(len(beacons))
        last = 0.0
        for k, (t, x, y) in enumerate(walk(rng, 600, rate)):
            if k % 5 == 0:
                truth.append((t, device, x, y))
            rho = math.exp(-(t - last) / 3.0)
            last = t
            correlated = rho * correlated + rng.normal(0, math.sqrt(8.0 * (1 - rho * rho)), len(beacons))
            for j, b in enumerate(beacons):
                if (k + j) % 5 != 0 or rng.uniform() < 0.3:
                    continue
                d = math.sqrt((x - b["x"]) ** 2 + (y - b["y"]) ** 2 + (RECEIVER_Z - b["z"]) ** 2)
                rssi = b["p0"] - 10 * b["n"] * math.log10(max(d, 0.1)) + offset
                rssi += correlated[j] + rng.normal(0, math.sqrt(8.0))
                rssi -= WALL_LOSS * crossings((x, y), (b["x"], b["y"]))
                if rssi >= -100:
                    samples.append((t, device, j + 1, round(rssi)))
    samples.sort(key=lambda s: (s[0], s[1], s[2]))
    return samples, truth


def write(directory, beacons, samples, truth):
    os.makedirs(directory, exist_ok=True)
    floor = {
        "level": 0, "elevation": 0.0,
        "outline": [[0, 0], [WIDTH, 0], [WIDTH, HEIGHT], [0, HEIGHT]],
        "zones": [{"id": zid, "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}
                  for zid, (x0, y0, x1, y1) in ROOMS.items()],
        "beacons": [{"uuid": UUID, "major": 1, "minor": j + 1, "x": b["x"], "y": b["y"], "z": b["z"]}
                    for j, b in enumerate(beacons)],
    }
    plan = {"formatVersion": 1, "name": "simulated store with rooms",
            "defaults": {"measuredPower": -59.0, "pathLossExponent": 2.0, "receiverHeight": RECEIVER_Z},
            "floors": [floor]}
    with open(os.path.join(directory, "plan.json"), "w") as f:
        json.dump(plan, f, indent=1)
    floor["walls"] = [{"from": list(a), "to": list(b)} for a, b in WALLS]
    with open(os.path.join(directory, "plan-walls.json"), "w") as f:
        json.dump(plan, f, indent=1)
    simulated_files.write_samples_and_truth(directory, UUID, samples, truth)


def steps_through_walls(fixes):
    """Consecutive tracked reports of one device whose straight step crosses a wall."""
    last, count, steps = {}, 0, 0
    with open(fixes, newline="") as f:
        for r in csv.DictReader(f):
            p = (float(r["x"]), float(r["y"]))
            device = r.get("device", "")
            if device in last:
                steps += 1
                count += crossings(last[device], p) > 0
            last[device] = p
    return count, steps


def main():
    args = sys.argv[1:]
    seed, out = 1, ".build/rooms-stress"
    while args:
        a = args.pop(0)
        if a == "--seed":
            seed = int(args.pop(0))
        else:
            out = a
    rng = np.random.default_rng([seed, 7])
    beacons = [dict(x=x, y=y, z=2.5, p0=rng.normal(-59, 5), n=rng.uniform(1.6, 3.2)) for x, y in BEACONS]
    samples, truth = traffic(rng, beacons)
    directory = os.path.join(out, f"seed{seed}")
    write(directory, beacons, samples, truth)
    truth_csv = os.path.join(directory, "truth.csv")
    bin_path = simulated_files.binary()
    print(f"seed {seed}: {len(samples)} samples, 4 phones x 600 s")
    print()
    position_rows, zone_rows = [], []
    for label, plan_name, extra in (
        ("plan values", "plan.json", []),
        ("plan values, walls in the plan", "plan-walls.json", []),
        ("`--self-calibrate`", "plan.json", ["--self-calibrate"]),
        ("`--self-calibrate`, walls in the plan", "plan-walls.json", ["--self-calibrate"]),
    ):
        plan = os.path.join(directory, plan_name)
        rssi = os.path.join(directory, "rssi.csv")
        tag = label.replace("`", "").replace(",", "").replace(" ", "-")
        fixes = os.path.join(directory, f"{tag}.csv")
        events = os.path.join(directory, f"{tag}-events.csv")
        subprocess.run([bin_path, "locate", "--plan", plan, "--rssi", rssi, "--quiet", "--output", fixes] + extra,
                       check=True)
        subprocess.run([bin_path, "monitor", "--plan", plan, "--rssi", rssi, "--output", events] + extra,
                       stderr=subprocess.DEVNULL,
                       check=True)
        tracks, _ = evaluate.read_track(fixes, "device", "fixes")
        reference, has_devices = evaluate.read_track(truth_csv, "device", "truth")
        overall = evaluate.evaluate(tracks, reference, has_devices, max_gap=5.0)["overall"]
        crossed, steps = steps_through_walls(fixes)
        position_rows.append(
            f"| {label} | {overall['rmse']:.2f} | {100 * overall['honesty']:.0f} % | {crossed} of {steps} |")
        zone_rows.append(zone_figures.markdown_rows(label, zone_figures.score(plan, fixes, truth_csv, events)))
    print("| run | RMSE m | honesty | steps through a wall |")
    print("| --- | ---: | ---: | ---: |")
    print("\n".join(position_rows))
    print()
    print(zone_figures.HEADER)
    print("\n".join(zone_rows))


if __name__ == "__main__":
    main()
