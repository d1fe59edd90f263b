#!/usr/bin/env python3
"""Tests of the reference scripts on synthetic data with seeded noise.

    python3 -m unittest discover -s Scripts/reference -p 'test_*.py'
"""

from __future__ import annotations

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

import calibrate  # noqa: E402
import evaluate  # noqa: E402
import pipelines  # noqa: E402
from common import load_plan  # noqa: E402

UUID = "F7826DA6-4FA2-4E98-8024-BC5B71E0893E"
ANCHORS = [(0.5, 0.5, 2.5), (9.5, 0.5, 2.5), (9.5, 7.5, 2.5), (0.5, 7.5, 2.5), (5.0, 4.0, 2.8)]
P0, N, HEIGHT = -59.0, 2.0, 1.2


def write(directory: str, name: str, text: str) -> str:
    path = os.path.join(directory, name)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    return path


def plan_json() -> str:
    beacons = [{"uuid": UUID, "major": 1, "minor": i + 1, "x": x, "y": y, "z": z}
               for i, (x, y, z) in enumerate(ANCHORS)]
    return json.dumps({"formatVersion": 1, "name": "test",
                       "defaults": {"measuredPower": P0, "pathLossExponent": N,
                                    "receiverHeight": HEIGHT},
                       "floors": [{"level": 0, "outline": [[0, 0], [10, 0], [10, 8], [0, 8]],
                                   "beacons": beacons}]})


def walk(t: np.ndarray) -> np.ndarray:
    """A slow loop inside the 10 × 8 m room (m), 0.25 m/s."""
    angle = 0.25 * t / 3.0
    return np.column_stack([5.0 + 3.0 * np.cos(angle), 4.0 + 2.5 * np.sin(angle)])


def rssi_csv(sigma: float, seed: int, duration: float = 60.0, rate: float = 2.0) -> str:
    rng = np.random.default_rng(seed)
    lines = ["timestamp,uuid,major,minor,rssi"]
    for t in np.arange(0.0, duration, 1.0 / rate):
        p = walk(np.array([t]))[0]
        for i, (x, y, z) in enumerate(ANCHORS):
            d = math.sqrt((p[0] - x) ** 2 + (p[1] - y) ** 2 + (HEIGHT - z) ** 2)
            r = P0 - 10 * N * math.log10(d) + sigma * rng.standard_normal()
            lines.append(f"{t + 0.01 * i:.3f},{UUID},1,{i + 1},{r:.2f}")
    return "\n".join(lines) + "\n"


def truth_csv(duration: float = 60.0) -> str:
    t = np.arange(0.0, duration + 2.0, 0.1)
    p = walk(t)
    return "timestamp,x,y,floor\n" + "".join(
        f"{a:.3f},{b[0]:.4f},{b[1]:.4f},0\n" for a, b in zip(t, p))


def run(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, os.path.join(HERE, script), *args],
                          capture_output=True, text=True, timeout=120)


class CalibrateTests(unittest.TestCase):
    def test_fit_recovers_model_within_standard_error(self):
        rng = np.random.default_rng(7)
        d = rng.uniform(0.5, 15.0, 2000)
        r = -61.0 - 10 * 1.8 * np.log10(d) + 3.0 * rng.standard_normal(2000)
        result = calibrate.fit(d, r)
        # Standard errors here are about 0.15 dB for P0 and 0.02 for n: allow 4 of them.
        self.assertAlmostEqual(result["measuredPower"], -61.0, delta=0.6)
        self.assertAlmostEqual(result["pathLossExponent"], 1.8, delta=0.08)
        self.assertAlmostEqual(result["sigma"], 3.0, delta=0.2)
        self.assertEqual(result["count"], 2000)

    def test_cli_writes_per_beacon_and_all(self):
        with tempfile.TemporaryDirectory() as tmp:
            rows = ["uuid,major,minor,distance,rssi"]
            for minor, p0 in ((1, -55.0), (2, -65.0)):
                for d in (1.0, 2.0, 4.0, 8.0):
                    rows.append(f"{UUID.lower()},1,{minor},{d},{p0 - 20 * math.log10(d):.3f}")
            rows.append(f"{UUID},1,3,2.0,0")      # no reading: skipped
            path = write(tmp, "cal.csv", "\n".join(rows) + "\n")
            done = run("calibrate.py", path)
            self.assertEqual(done.returncode, 0, done.stderr)
            data = json.loads(done.stdout)
            fitted = {b["minor"]: b for b in data["beacons"]}
            self.assertEqual(sorted(fitted), [1, 2])
            self.assertAlmostEqual(fitted[1]["measuredPower"], -55.0, delta=0.01)
            self.assertAlmostEqual(fitted[2]["pathLossExponent"], 2.0, delta=0.001)
            self.assertEqual(fitted[1]["uuid"], UUID)
            self.assertEqual(data["all"]["count"], 8)

    def test_bad_row_names_line_and_column(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = write(tmp, "cal.csv", "distance,rssi\n1,-50\n2,abc\n")
            done = run("calibrate.py", path)
            self.assertEqual(done.returncode, 2)
            self.assertIn(":3: column 'rssi'", done.stderr)
            self.assertNotIn("Traceback", done.stderr)

    def test_single_distance_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = write(tmp, "cal.csv", "distance,rssi\n2,-50\n2,-52\n2,-51\n")
            done = run("calibrate.py", path)
            self.assertEqual(done.returncode, 2)
            self.assertIn("2 or more distances", done.stderr)


class EvaluateTests(unittest.TestCase):
    def test_known_errors(self):
        truth = {"timestamp": np.array([0.0, 10.0]), "x": np.array([0.0, 10.0]),
                 "y": np.array([0.0, 0.0]), "floor": np.array([0.0, 0.0])}
        # Fixes at t = 1..4 with errors 3, 4, 0, 0 m and one outside the span.
        fixes = {"timestamp": np.array([1.0, 2.0, 3.0, 4.0, 11.0]),
                 "x": np.array([1.0, 2.0, 3.0, 4.0, 11.0]),
                 "y": np.array([3.0, -4.0, 0.0, 0.0, 0.0]),
                 "floor": np.array([0.0, 0.0, 1.0, 0.0, 0.0]),
                 "accuracy": np.array([2.0, 5.0, 1.0, 1.0, 1.0])}
        result = evaluate.evaluate({"": fixes}, {"": truth}, False, 20.0)["overall"]
        self.assertEqual(result["count"], 4)
        self.assertEqual(result["skipped"], 1)
        self.assertAlmostEqual(result["rmse"], math.sqrt((9 + 16) / 4))
        self.assertAlmostEqual(result["median"], 1.5)
        self.assertAlmostEqual(result["honesty"], 0.75)
        self.assertAlmostEqual(result["floorHitRate"], 0.75)

    def test_fixes_inside_truth_gaps_are_skipped(self):
        truth = {"timestamp": np.array([0.0, 1.0, 30.0, 31.0]), "x": np.array([0.0, 0.0, 5.0, 5.0]),
                 "y": np.zeros(4)}
        times = np.array([0.5, 1.0, 15.0, 30.5])
        self.assertEqual(evaluate.inside_truth(truth, times, 5.0).tolist(),
                         [True, True, False, True])

    def test_a_held_position_covers_any_gap(self):
        # Two rows per surveyed point, 120 s apart: equal positions hold over the gap.
        truth = {"timestamp": np.array([0.0, 120.0, 130.0, 250.0]), "x": np.array([1.0, 1.0, 4.0, 4.0]),
                 "y": np.zeros(4)}
        times = np.array([60.0, 125.0, 200.0])
        self.assertEqual(evaluate.inside_truth(truth, times, 5.0).tolist(), [True, False, True])
        # One row per point with a static column: the point holds until the next row.
        static = {"timestamp": np.array([0.0, 100.0, 200.0]), "x": np.array([1.0, 4.0, 7.0]),
                  "y": np.zeros(3), "static": np.array([1.0, 1.0, 1.0])}
        times = np.array([50.0, 150.0])
        self.assertEqual(evaluate.inside_truth(static, times, 5.0).tolist(), [True, True])
        self.assertEqual(evaluate.interpolate(static, times)["x"].tolist(), [1.0, 4.0])

    def test_cli_rejects_nan_with_line_number(self):
        with tempfile.TemporaryDirectory() as tmp:
            fixes = write(tmp, "f.csv", "timestamp,x,y,floor,accuracy\n1,0,0,0,1\n2,nan,0,0,1\n")
            truth = write(tmp, "t.csv", "timestamp,x,y,floor\n0,0,0,0\n5,0,0,0\n")
            done = run("evaluate.py", fixes, truth)
            self.assertEqual(done.returncode, 2)
            self.assertIn("f.csv:3: column 'x'", done.stderr)

    def test_cli_without_accuracy_reports_na(self):
        with tempfile.TemporaryDirectory() as tmp:
            fixes = write(tmp, "f.csv", "timestamp,x,y\n1,3,4\n")
            truth = write(tmp, "t.csv", "timestamp,x,y,floor\n0,0,0,0\n5,0,0,0\n")
            done = run("evaluate.py", fixes, truth, "--json")
            self.assertEqual(done.returncode, 0, done.stderr)
            overall = json.loads(done.stdout)["overall"]
            self.assertAlmostEqual(overall["rmse"], 5.0)
            self.assertIsNone(overall["honesty"])


class PipelineTests(unittest.TestCase):
    def locate(self, pipeline: str, sigma: float, seed: int, *extra: str) -> dict:
        with tempfile.TemporaryDirectory() as tmp:
            plan = write(tmp, "plan.json", plan_json())
            rssi = write(tmp, "rssi.csv", rssi_csv(sigma, seed))
            truth = write(tmp, "truth.csv", truth_csv())
            fixes = os.path.join(tmp, "fixes.csv")
            done = run("pipelines.py", "--plan", plan, "--rssi", rssi, "--pipeline", pipeline,
                       "--output", fixes, *extra)
            self.assertEqual(done.returncode, 0, done.stderr)
            tracks, _ = evaluate.read_track(fixes, "device", "fixes")
            reference, _ = evaluate.read_track(truth, "device", "truth")
            return evaluate.evaluate(tracks, reference, False, 5.0)["overall"]

    def test_noise_free_fixes_are_exact(self):
        # Without noise and without the filter the only error is the window's lag: the fix
        # stands for the window's end while its samples are up to 1 s older (≤ 0.25 m).
        for pipeline in ("common", "ml-kalman"):
            result = self.locate(pipeline, 0.0, 1, "--filter", "none")
            self.assertLess(result["p90"], 0.3, pipeline)

    def test_noisy_track_is_located_within_model_bounds(self):
        # σ = 4 dB, 5 anchors, 2 samples per anchor per 1-s epoch: the Cramér–Rao bound in
        # this room is about 0.8–1.2 m per fix; the filtered RMSE must stay below 2 m.
        for pipeline in ("common", "ml-kalman"):
            result = self.locate(pipeline, 4.0, 2)
            self.assertLess(result["rmse"], 2.0, pipeline)
            self.assertGreater(result["count"], 55, pipeline)

    def test_ml_accuracy_is_honest_on_model_data(self):
        # When the data follow the model, the Fisher covariance is the right size: the
        # share of fixes within their 1-sigma radius is near 63 % (not 20 % nor 99 %).
        result = self.locate("ml-kalman", 4.0, 3, "--filter", "none")
        self.assertGreater(result["honesty"], 0.45)
        self.assertLess(result["honesty"], 0.85)

    def test_positive_rssi_is_an_error_or_skipped(self):
        with tempfile.TemporaryDirectory() as tmp:
            plan = write(tmp, "plan.json", plan_json())
            text = rssi_csv(0.0, 4, duration=5.0) + f"3.0,{UUID},1,1,42\n"
            rssi = write(tmp, "rssi.csv", text)
            line = text.count("\n")
            done = run("pipelines.py", "--plan", plan, "--rssi", rssi, "--pipeline", "common")
            self.assertEqual(done.returncode, 2)
            self.assertIn(f"rssi.csv:{line}: column 'rssi'", done.stderr)
            done = run("pipelines.py", "--plan", plan, "--rssi", rssi, "--pipeline", "common",
                       "--skip-bad-rows")
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertIn("skipped 1 bad rows", done.stderr)

    def test_epoch_timestamps_are_window_ends(self):
        plan = load_plan_from_text(plan_json())
        geometry = pipelines.Geometry(plan)
        t = np.array([10.0, 10.2, 10.4, 11.5, 11.6, 11.7])
        samples = pipelines.Samples(t, np.array([0, 1, 2, 0, 1, 2]),
                                    np.array([-70.0, -70.0, -70.0, -70.0, -70.0, -70.0]))
        rows = pipelines.run_device(geometry, samples, "common", 1.0, 0.5, True)
        self.assertEqual([row[0] for row in rows], [11.0, 12.0])


class CentroidTests(unittest.TestCase):
    """The weighted centroid: the three strongest beacons of a window by mean RSSI, weights in
    linear power 10^(rssi/10), from one beacon on, never filtered."""

    def geometry(self):
        return pipelines.Geometry(load_plan_from_text(plan_json()))

    def test_weights_are_linear_power_of_the_three_strongest(self):
        geometry = self.geometry()
        # Beacons 0, 1, 2 at -60, -63, -70 dBm (means of two samples each), beacon 4 at -90:
        # only the first three count, weighted 1 : 10^-0.3 : 10^-1.
        beacon = np.array([0, 0, 1, 1, 2, 2, 4])
        rssi = np.array([-59.0, -61.0, -62.0, -64.0, -70.0, -70.0, -90.0])
        fix = pipelines.locate_epoch(geometry, beacon, rssi, "centroid")
        w = np.array([1.0, 10 ** -0.3, 10 ** -1.0])
        expected = (np.array([[0.5, 0.5], [9.5, 0.5], [9.5, 7.5]]) * w[:, None]).sum(0) / w.sum()
        np.testing.assert_allclose(fix.position, expected, atol=1e-12)
        self.assertEqual(fix.beacons, 3)

    def test_one_beacon_gives_its_position(self):
        fix = pipelines.locate_epoch(self.geometry(), np.array([3]), np.array([-80.0]), "centroid")
        np.testing.assert_allclose(fix.position, [0.5, 7.5])
        self.assertEqual(fix.beacons, 1)

    def test_a_common_offset_does_not_move_it(self):
        geometry = self.geometry()
        beacon = np.array([0, 1, 2, 3, 4])
        rssi = np.array([-61.0, -66.0, -72.0, -75.0, -64.0])
        a = pipelines.locate_epoch(geometry, beacon, rssi, "centroid").position
        b = pipelines.locate_epoch(geometry, beacon, rssi - 9.0, "centroid").position
        np.testing.assert_allclose(a, b, atol=1e-12)

    def test_cli_writes_one_unfiltered_row_per_window(self):
        with tempfile.TemporaryDirectory() as tmp:
            plan = write(tmp, "plan.json", plan_json())
            rssi = write(tmp, "rssi.csv", rssi_csv(4.0, 5, duration=10.0))
            fixes = os.path.join(tmp, "fixes.csv")
            done = run("pipelines.py", "--plan", plan, "--rssi", rssi, "--pipeline", "centroid",
                       "--output", fixes)
            self.assertEqual(done.returncode, 0, done.stderr)
            tracks, _ = evaluate.read_track(fixes, "device", "fixes")
            self.assertEqual(sum(len(t["timestamp"]) for t in tracks.values()), 10)


def load_plan_from_text(text: str):
    with tempfile.TemporaryDirectory() as tmp:
        return load_plan(write(tmp, "plan.json", text))


if __name__ == "__main__":
    unittest.main()
