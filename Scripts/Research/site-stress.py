#!/usr/bin/env python3
"""Simulated sites that break the log-distance model in the ways real buildings do, each
located by the weighted centroid (Scripts/reference/pipelines.py) and by `indoorpos locate`
with the plan's generic values and with `--self-calibrate`; RMSE and honesty per site.

    site-stress.py [OUTPUT_DIR] [--seed N] [--sites a,b,…] [--modes causal,lag,smooth]

BIN=path/to/indoorpos picks the binary (default: the release build, built if missing). The
plan every site is located with says only what an installer knows: beacon positions and the
generic −59 dBm at 1 m, n = 2. What the radio does differs per site:

- `model`: the plan is right (−59 dBm, n = 2), 4 dB of shadowing (half of it correlated over
  3 s), phones within ±3 dB: the control.
- `spread`: every beacon its own P₀ ~ N(−59, 5²) dBm and n ~ U(1.6, 3.2), phones ±6 dB.
- `ceiling`: `spread`'s radio from 12 beacons on a 8-m ceiling grid (an office fit-out).
- `walls`: `spread` plus interior walls of 6 dB each (three partitions across the floor).
- `shelves`: 24 beacons on a grid among bookshelves: a fixed spatial shadowing field per beacon
  (6 dB, correlation length 2 m, random Fourier features), three phones 8 dB apart.
- `static`: a phone held at 5 points for 2 minutes each, 7 beacons, `spread`'s radio.
- `room`: a phone held still at 5 points for 2 minutes each in a 7 × 10 m room, 7 beacons on
  its walls and ceiling at 2–2.9 m whose 1-m powers lie 19 dB apart (−79 to −60 dBm, n 1.4–2.8),
  a plan with one advertised power about 9 dB below their mean, and 2.5–6.5 dB of shadowing per
  beacon, most of it a fixed field of the place (1.5-m correlation) that a still phone keeps.
- `scans`: 900 single scans at random points of a 17 × 11 m office (22 beacons, two walls),
  each its own device, phones in three groups 8 dB apart: a site like uji-geo.
- `floor`: n ~ U(2.8, 3.6) with a receiver sensitivity of −88 dBm (far beacons unheard, the
  ones heard biased strong), 20 beacons on a grid.

`--modes` picks how `locate` reports (default `causal`): `lag` adds `--lag 3` (each position 3 s
late, refined by the samples in between) and `smooth` adds `--smooth`; each mode gets its own
row per site, named with its option (the causal row by the site alone). The centroid has no
such modes and is repeated.

Readings are rounded to whole dBm, as phones report them, and each advertisement is lost with
probability 0.3. The truth serves only to score (Scripts/reference/evaluate.py); nothing here
chooses a setting of the library.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))  # Scripts/Research
SCRIPTS = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(SCRIPTS, "reference"))

import evaluate  # noqa: E402  (Scripts/reference/evaluate.py)
import simulated_files  # noqa: E402

ROOT = os.path.dirname(SCRIPTS)
UUID = "5A4BCFCE-174E-4BAC-A814-092E77F6B7E5"
RECEIVER_Z = 1.2


class Site:
    def __init__(self, name, width, height, beacons, walls=(), spatial=None, plan_power=-59.0):
        self.name = name
        self.plan_power = plan_power  # the one advertised power the plan carries, dBm at 1 m
        self.width = width
        self.height = height
        self.beacons = beacons  # list of dicts: x, y, z, p0, n
        self.walls = list(walls)  # ((x1, y1), (x2, y2)), 6 dB each
        self.spatial = spatial  # per beacon (omega[K,2], phase[K], sigma) or None


def crossings(p, b, walls):
    """Walls the segment p-b crosses."""
    count = 0
    for (x1, y1), (x2, y2) in walls:
        d1 = (b[0] - p[0]) * (y1 - p[1]) - (b[1] - p[1]) * (x1 - p[0])
        d2 = (b[0] - p[0]) * (y2 - p[1]) - (b[1] - p[1]) * (x2 - p[0])
        d3 = (x2 - x1) * (p[1] - y1) - (y2 - y1) * (p[0] - x1)
        d4 = (x2 - x1) * (b[1] - y1) - (y2 - y1) * (b[0] - x1)
        if d1 * d2 < 0 and d3 * d4 < 0:
            count += 1
    return count


def field(spatial, x, y):
    omega, phase, sigma = spatial
    k = len(phase)
    return sigma * math.sqrt(2.0 / k) * float(np.sum(np.cos(omega[:, 0] * x + omega[:, 1] * y + phase)))


def perimeter(width, height, count, inset=0.5):
    """`count` beacons spread evenly along the walls."""
    length = 2 * (width + height)
    out = []
    for i in range(count):
        s = (i + 0.5) * length / count
        if s < width:
            out.append((s, inset))
        elif s < width + height:
            out.append((width - inset, s - width))
        elif s < 2 * width + height:
            out.append((2 * width + height - s, height - inset))
        else:
            out.append((inset, length - s))
    return out


def grid(width, height, nx, ny):
    return [((i + 0.5) * width / nx, (j + 0.5) * height / ny) for j in range(ny) for i in range(nx)]


def make_site(name, rng):
    if name == "model":
        pos = perimeter(30, 20, 10)
        beacons = [dict(x=x, y=y, z=2.5, p0=-59.0, n=2.0) for x, y in pos]
        return Site(name, 30, 20, beacons)
    if name in ("spread", "walls"):
        pos = perimeter(30, 20, 10) + [(10, 10), (20, 10)]
        beacons = [dict(x=x, y=y, z=2.5, p0=rng.normal(-59, 5), n=rng.uniform(1.6, 3.2)) for x, y in pos]
        walls = [((10, 0), (10, 14)), ((20, 6), (20, 20)), ((0, 10), (7, 10))] if name == "walls" else []
        return Site(name, 30, 20, beacons, walls=walls)
    if name == "ceiling":
        pos = grid(32, 24, 4, 3)
        beacons = [dict(x=x, y=y, z=2.8, p0=rng.normal(-59, 5), n=rng.uniform(1.6, 3.2)) for x, y in pos]
        return Site(name, 32, 24, beacons)
    if name == "shelves":
        pos = grid(24, 16, 6, 4)
        beacons = [dict(x=x, y=y, z=2.2, p0=rng.normal(-62, 3), n=rng.uniform(1.8, 2.6)) for x, y in pos]
        spatial = [(rng.normal(0, 1 / 2.0, size=(64, 2)), rng.uniform(0, 2 * math.pi, 64), 6.0) for _ in pos]
        return Site(name, 24, 16, beacons, spatial=spatial)
    if name == "static":
        pos = [(1, 1), (11, 0.5), (19, 1), (19.5, 11), (10, 11.5), (0.5, 11), (10, 6)]
        beacons = [dict(x=x, y=y, z=2.5, p0=rng.normal(-59, 5), n=rng.uniform(1.6, 3.2)) for x, y in pos]
        return Site(name, 20, 12, beacons)
    if name == "room":
        # A 7 x 10 m room with seven beacons on its walls and ceiling at 2-2.9 m, each with its
        # own 1-m power over 19 dB (-79 to -60 dBm) and exponent, a plan with one advertised
        # power for all about 9 dB below their mean, and per-beacon shadowing of 2.5-6.5 dB
        # of which most is a fixed field of the place (a still phone keeps it).
        pos = [(0.3, 2.0), (0.3, 8.0), (6.7, 1.5), (6.7, 6.0), (3.5, 9.7), (2.0, 0.3), (4.0, 5.0)]
        heights = [2.0, 2.2, 2.1, 2.4, 2.0, 2.3, 2.9]
        p0 = rng.permutation(np.linspace(-79, -60, len(pos)))
        beacons = [dict(x=x, y=y, z=z, p0=float(p), n=rng.uniform(1.4, 2.8), shadow=rng.uniform(2.5, 6.5))
                   for (x, y), z, p in zip(pos, heights, p0)]
        spatial = [(rng.normal(0, 1 / 1.5, size=(64, 2)), rng.uniform(0, 2 * math.pi, 64), 0.8 * b["shadow"])
                   for b in beacons]
        return Site(name, 7, 10, beacons, spatial=spatial, plan_power=round(float(np.mean(p0)) - 9.0))
    if name == "scans":
        pos = [(x, y) for x, y in grid(17, 11, 6, 4)][:22]
        beacons = [dict(x=x, y=y, z=2.5, p0=rng.normal(-62, 4), n=rng.uniform(1.8, 3.0)) for x, y in pos]
        walls = [((6, 0), (6, 7)), ((11, 4), (11, 11))]
        return Site(name, 17, 11, beacons, walls=walls)
    if name == "floor":
        pos = grid(40, 25, 5, 4)
        beacons = [dict(x=x, y=y, z=2.5, p0=rng.normal(-59, 3), n=rng.uniform(2.8, 3.6)) for x, y in pos]
        return Site(name, 40, 25, beacons)
    raise SystemExit(f"site-stress.py: unknown site {name}")


def walk(rng, site, duration, rate):
    """A walker between random waypoints at 0.8-1.3 m/s with pauses; positions at `rate` Hz."""
    t, x, y = 0.0, rng.uniform(1, site.width - 1), rng.uniform(1, site.height - 1)
    out = []
    while t < duration:
        tx, ty = rng.uniform(1, site.width - 1), rng.uniform(1, site.height - 1)
        speed = rng.uniform(0.8, 1.3)
        steps = max(1, int(math.hypot(tx - x, ty - y) / speed * rate))
        for k in range(steps):
            out.append((t, x + (tx - x) * (k + 1) / steps, y + (ty - y) * (k + 1) / steps))
            t += 1 / rate
        x, y = tx, ty
        for _ in range(int(rng.uniform(0, 4) * rate)):
            out.append((t, x, y))
            t += 1 / rate
    return [p for p in out if p[0] < duration]


def static_points(rng, site, rate):
    points = [(3, 3), (16, 3), (10, 6), (4, 9), (16, 9)]
    if site.name == "room":
        points = [(1.5, 1.5), (5.5, 2.0), (3.5, 5.0), (1.5, 8.5), (5.5, 8.0)]
    out, t = [], 0.0
    for px, py in points:
        for _ in range(int(120 * rate)):
            out.append((t, px, py))
            t += 1 / rate
        t += 5
    return out


def scans(rng, site, count=900):
    """Single scans, each its own device at its own point: one reading per beacon heard (above
    −92 dBm, and then 80 % of the time), phones in three groups 8 dB apart (as uji-geo's three
    transmit powers), 4 dB of shadowing."""
    samples, truth = [], []
    for k in range(count):
        device = f"scan{k + 1:04d}"
        x, y = rng.uniform(0.5, site.width - 0.5), rng.uniform(0.5, site.height - 0.5)
        offset = 8.0 * (k % 3 - 1) + rng.normal(0, 1)
        truth += [(0.0, device, x, y), (10.0, device, x, y)]
        for j, b in enumerate(site.beacons):
            d = math.sqrt((x - b["x"]) ** 2 + (y - b["y"]) ** 2 + (RECEIVER_Z - b["z"]) ** 2)
            rssi = b["p0"] - 10 * b["n"] * math.log10(max(d, 0.1)) + offset + rng.normal(0, 4)
            rssi -= 6.0 * crossings((x, y), (b["x"], b["y"]), site.walls)
            if rssi >= -92 and rng.uniform() < 0.8:
                samples.append((0.5, device, j + 1, round(rssi)))
    samples.sort(key=lambda s: (s[0], s[1], s[2]))
    return samples, truth


def traffic(rng, site, name):
    """(samples, truth) for the site's phones."""
    if name == "scans":
        return scans(rng, site)
    sensitivity = -88.0 if name == "floor" else -100.0
    phones = {"shelves": [-8.0, 0.0, 8.0]}.get(name)
    if phones is None:
        spread = 3.0 if name == "model" else 6.0
        phones = list(rng.uniform(-spread, spread, 3 if name not in ("static", "room") else 1))
    samples, truth = [], []
    rate = 10.0  # positions per second; each beacon advertises at 2 Hz
    for index, offset in enumerate(phones):
        device = f"{name}-phone{index + 1}"
        still = name in ("static", "room")
        path = static_points(rng, site, rate) if still else walk(rng, site, 240, rate)
        correlated = np.zeros(len(site.beacons))
        last = 0.0
        for k, (t, x, y) in enumerate(path):
            if k % 5 == 0:
                truth.append((t, device, x, y))
            dt = t - last
            last = t
            rho = math.exp(-dt / 3.0)
            correlated = rho * correlated + rng.normal(0, math.sqrt(8.0 * (1 - rho * rho)), len(site.beacons))
            for j, b in enumerate(site.beacons):
                if (k + j) % 5 != 0 or rng.uniform() < 0.3:
                    continue
                d = math.sqrt((x - b["x"]) ** 2 + (y - b["y"]) ** 2 + (RECEIVER_Z - b["z"]) ** 2)
                rssi = b["p0"] - 10 * b["n"] * math.log10(max(d, 0.1)) + offset
                if "shadow" in b:  # the room: the rest of the beacon's own shadowing, half correlated
                    rest = 0.6 * b["shadow"]
                    rssi += correlated[j] * rest / 4.0 + rng.normal(0, rest / math.sqrt(2))
                else:
                    rssi += correlated[j] + rng.normal(0, math.sqrt(8.0))
                if site.walls:
                    rssi -= 6.0 * crossings((x, y), (b["x"], b["y"]), site.walls)
                if site.spatial is not None:
                    rssi += field(site.spatial[j], x, y)
                if rssi < sensitivity:
                    continue
                samples.append((t, device, j + 1, round(rssi)))
    samples.sort(key=lambda s: (s[0], s[1], s[2]))
    return samples, truth


def write_site(directory, site, samples, truth):
    os.makedirs(directory, exist_ok=True)
    plan = {
        "formatVersion": 1, "name": f"simulated site: {site.name}",
        "defaults": {"measuredPower": site.plan_power, "pathLossExponent": 2.0, "receiverHeight": RECEIVER_Z},
        "floors": [{
            "level": 0, "elevation": 0.0,
            "outline": [[0, 0], [site.width, 0], [site.width, site.height], [0, site.height]],
            "zones": [],
            "beacons": [{"uuid": UUID, "major": 1, "minor": j + 1, "x": round(b["x"], 3), "y": round(b["y"], 3),
                         "z": b["z"]} for j, b in enumerate(site.beacons)]}]}
    with open(os.path.join(directory, "plan.json"), "w") as f:
        json.dump(plan, f, indent=1)
    simulated_files.write_samples_and_truth(directory, UUID, samples, truth)


def generate(name, seed, directory):
    """Writes site `name`'s plan.json, rssi.csv and truth.csv for `seed` into `directory`;
    returns the site and the number of samples."""
    rng = np.random.default_rng([seed, sum(map(ord, name))])
    site = make_site(name, rng)
    samples, truth = traffic(rng, site, name)
    write_site(directory, site, samples, truth)
    return site, len(samples)


def score(fixes, truth):
    """RMSE (m) and honesty ("54 %") of a fixes CSV, as `evaluate.py --markdown` prints them."""
    tracks, _ = evaluate.read_track(fixes, "device", "fixes")
    reference, has_devices = evaluate.read_track(truth, "device", "truth")
    overall = evaluate.evaluate(tracks, reference, has_devices, max_gap=5.0)["overall"]
    return overall["rmse"], f"{100 * overall['honesty']:.0f} %"


MODES = {"causal": [], "lag": ["--lag", "3"], "smooth": ["--smooth"]}
MODE_LABELS = {"causal": "", "lag": ", `--lag 3`", "smooth": ", `--smooth`"}


def main():
    args = sys.argv[1:]
    seed, names, out = 1, ["model", "spread", "ceiling", "walls", "shelves", "static", "room", "floor", "scans"], ".build/site-stress"
    modes = ["causal"]
    while args:
        a = args.pop(0)
        if a == "--seed":
            seed = int(args.pop(0))
        elif a == "--sites":
            names = args.pop(0).split(",")
        elif a == "--modes":
            modes = args.pop(0).split(",")
            unknown = [m for m in modes if m not in MODES]
            if unknown or not modes:
                raise SystemExit(f"site-stress.py: --modes takes {', '.join(MODES)}, got {','.join(modes)}")
        else:
            out = a
    bin_path = simulated_files.binary()
    print(f"seed {seed}; RMSE m (honesty)")
    print()
    print("| site | samples | weighted centroid | plan values | `--learn-online` | `--self-calibrate` |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name in names:
        directory = os.path.join(out, name)
        _, count = generate(name, seed, directory)
        plan, rssi, truth_csv = (os.path.join(directory, f) for f in ("plan.json", "rssi.csv", "truth.csv"))
        centroid = os.path.join(directory, "centroid.csv")
        subprocess.run([sys.executable, os.path.join(SCRIPTS, "reference", "pipelines.py"), "--plan", plan,
                        "--rssi", rssi, "--pipeline", "centroid", "--output", centroid], check=True,
                       stderr=subprocess.DEVNULL)
        c = score(centroid, truth_csv)
        for mode in modes:
            rows = {}
            for label, extra in (("plan", []), ("online", ["--learn-online"]), ("learned", ["--self-calibrate"])):
                suffix = "" if mode == "causal" else f"-{mode}"
                fixes = os.path.join(directory, f"{label}{suffix}.csv")
                subprocess.run([bin_path, "locate", "--plan", plan, "--rssi", rssi, "--quiet", "--output", fixes]
                               + extra + MODES[mode], check=True)
                rows[label] = score(fixes, truth_csv)
            cells = " | ".join(f"{rows[k][0]:.2f} ({rows[k][1]})" for k in ("plan", "online", "learned"))
            print(f"| {name}{MODE_LABELS[mode]} | {count} | {c[0]:.2f} ({c[1]}) | {cells} |", flush=True)


if __name__ == "__main__":
    main()
