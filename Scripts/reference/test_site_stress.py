"""Tests of Scripts/Research/site-stress.py's simulated sites: the files it writes load and say what the
docstring promises (whole-dBm readings above the site's sensitivity, in time order, truth for
every device), and its radio terms have the sizes they are meant to have."""

from __future__ import annotations

import csv
import importlib.util
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from common import load_plan  # noqa: E402

spec = importlib.util.spec_from_file_location("site_stress", os.path.join(HERE, "..", "Research", "site-stress.py"))
site_stress = importlib.util.module_from_spec(spec)
spec.loader.exec_module(site_stress)


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class SiteStressTests(unittest.TestCase):
    def test_files_load_and_hold_what_the_docstring_says(self):
        with tempfile.TemporaryDirectory() as directory:
            site, count = site_stress.generate("floor", 7, directory)
            plan = load_plan(os.path.join(directory, "plan.json"))
            self.assertEqual(len(plan.beacons), 20)
            with open(os.path.join(directory, "plan.json")) as f:
                defaults = json.load(f)["defaults"]
            self.assertEqual((defaults["measuredPower"], defaults["pathLossExponent"]), (-59.0, 2.0))
            rows = read_rows(os.path.join(directory, "rssi.csv"))
            self.assertEqual(len(rows), count)
            times = [float(r["timestamp"]) for r in rows]
            self.assertEqual(times, sorted(times))
            rssi = [r["rssi"] for r in rows]
            self.assertTrue(all(v.lstrip("-").isdigit() for v in rssi), "readings in whole dBm")
            self.assertGreaterEqual(min(int(v) for v in rssi), -88)
            truth = read_rows(os.path.join(directory, "truth.csv"))
            self.assertEqual({r["device"] for r in truth}, {r["device"] for r in rows})
            for r in truth:
                self.assertTrue(0 <= float(r["x"]) <= site.width and 0 <= float(r["y"]) <= site.height)

    def test_scans_are_single_scans_of_three_phone_groups(self):
        with tempfile.TemporaryDirectory() as directory:
            site_stress.generate("scans", 2, directory)
            rows = read_rows(os.path.join(directory, "rssi.csv"))
            self.assertEqual({r["timestamp"] for r in rows}, {"0.500"})
            per_device = {}
            for r in rows:
                per_device.setdefault(r["device"], set()).add(r["minor"])
            self.assertLessEqual(len(per_device), 900)
            self.assertGreater(len(per_device), 800)
            # One reading per beacon heard in a scan.
            self.assertEqual(sum(len(v) for v in per_device.values()), len(rows))
            truth = read_rows(os.path.join(directory, "truth.csv"))
            points = {}
            for r in truth:
                points.setdefault(r["device"], set()).add((r["x"], r["y"]))
            self.assertTrue(all(len(p) == 1 for p in points.values()), "each scan holds one point")
            # The three groups read about 8 dB apart: compare the mean reading of the scans
            # k = 0, 1, 2 (mod 3) of the beacons they share (same positions on average).
            means = [[], [], []]
            for r in rows:
                means[(int(r["device"][4:]) - 1) % 3].append(int(r["rssi"]))
            m = [float(np.mean(v)) for v in means]
            self.assertGreater(m[2] - m[0], 8)  # 16 dB apart, less what the −92 dBm cut removes
            self.assertLess(m[0], m[1])

    def test_same_seed_same_bytes(self):
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            site_stress.generate("walls", 3, a)
            site_stress.generate("walls", 3, b)
            for name in ("plan.json", "rssi.csv", "truth.csv"):
                with open(os.path.join(a, name), "rb") as f, open(os.path.join(b, name), "rb") as g:
                    self.assertEqual(f.read(), g.read(), name)

    def test_wall_crossings(self):
        walls = [((10, 0), (10, 14)), ((20, 6), (20, 20))]
        self.assertEqual(site_stress.crossings((5, 5), (25, 10), walls), 2)
        self.assertEqual(site_stress.crossings((5, 16), (15, 16), walls), 0)  # above the first wall's end
        self.assertEqual(site_stress.crossings((12, 2), (18, 2), walls), 0)

    def test_spatial_field_has_its_spread_and_correlation_length(self):
        rng = np.random.default_rng(11)
        sigma, length = 6.0, 2.0
        values, near, far = [], [], []
        for _ in range(200):
            spatial = (rng.normal(0, 1 / length, size=(64, 2)), rng.uniform(0, 2 * math.pi, 64), sigma)
            x, y = rng.uniform(0, 20, 2)
            v = site_stress.field(spatial, x, y)
            values.append(v)
            near.append((v, site_stress.field(spatial, x + 0.2, y)))
            far.append((v, site_stress.field(spatial, x + 10, y)))
        self.assertAlmostEqual(float(np.std(values)), sigma, delta=0.15 * sigma)
        self.assertGreater(np.corrcoef(np.array(near).T)[0, 1], 0.9)
        self.assertLess(abs(np.corrcoef(np.array(far).T)[0, 1]), 0.3)

    def test_unknown_mode_is_refused_by_name(self):
        script = os.path.join(HERE, "..", "Research", "site-stress.py")
        with tempfile.TemporaryDirectory() as directory:
            run = subprocess.run([sys.executable, script, directory, "--modes", "causal,later"],
                                 capture_output=True, text=True)
        self.assertEqual(run.returncode, 1)
        self.assertIn("--modes takes causal, lag, smooth, got causal,later", run.stderr)
        self.assertEqual(run.stdout, "")


if __name__ == "__main__":
    unittest.main()
