#!/usr/bin/env python3
"""The measurements behind the fallback estimate of fixes that one to three beacons cannot
determine (Docs/Reference/Trilateration.md, "Fixes the readings cannot determine"; the
figures are in Docs/Evidence/TrilaterationStudies.md). Truth is used only to
score; nothing here chooses a setting.

    fallback-study.py buckets FIXES.csv [DATA]
        RMSE and honesty of a `locate` output on uji-geo, by the number of beacons each scan heard.
    fallback-study.py uji FIXES.csv [DATA]
        uji-geo's scans of 1-3 beacons, by beacons heard: the weighted centroid, the outline
        posterior (what `--fallback outline-posterior` computes, here on a 0.25-m grid in numpy)
        and the posterior with non-detections, P(heard | d) a logistic in ln d fitted to the
        scans of four or more beacons at the positions FIXES.csv gives them (no truth); and the
        same with the device's offset in the logistic (P(heard | d, Δ), Δ summed over a grid).
    fallback-study.py simulate
        The same three on simulated scans where hearing a beacon means being near it: a 24 x 16 m
        room, beacons on the walls or on a 4-m grid, -75 dBm at 1 m, n = 2, a beacon heard when its
        reading is above -95 dBm, the phone's offset N(0, 5^2) dB; the logistic is fitted at the
        true positions of the scans of four or more beacons plus 1.5 m of noise.

    fallback-study.py detection FIXES.csv [DATA]
        What `--fallback detection-posterior` computes, here in numpy: the detection curve with a
        random intercept per scan (P(heard | d, Δ, u) = σ(a + b ln d + c Δ + u), u ~ N(0, ψ²)),
        fitted by maximum marginal likelihood on uji-geo's scans of four or more beacons at the
        positions FIXES.csv gives them (no truth), against the same curve without u (ψ = 0);
        RMSE and honesty (error within the posterior's √trace) of the scans of 1-3 beacons.
    fallback-study.py simulate-detection
        The same two on the simulated sites of `simulate` (the curve fitted at the true positions
        of the scans of four or more beacons plus 1.5 m of noise).

    fallback-study.py determined FIXES.csv [DATA]
        uji-geo's scans of four or more beacons, by beacons heard: the weighted centroid, the
        engine's fix (FIXES.csv, a `locate` output), the posterior mean over the outline, and the
        posterior mean with the engine's centroid prior (centre: the three strongest beacons'
        power-weighted centroid, standard deviation max(1 m, their weighted spread)).
    fallback-study.py simulate-determined
        Simulated scans of four or more beacons: the weighted centroid, the grid's maximum a
        posteriori (a stand-in for the engine's fix) and the posterior mean, both with that prior.
    fallback-study.py determined-detection FIXES.csv [DATA]
        uji-geo's scans of four or more beacons: the engine's fix, the posterior mean with the
        centroid prior, and the same with the beacons not heard (the curve of `detection`).
    fallback-study.py simulate-determined-detection
        The same on the simulated sites of `simulate`, the grid's maximum a posteriori with the
        prior standing in for the engine's fix.

The posterior uses the engine's defaults: sigma 4 dB per reading, the common offset's prior 10 dB.
"""
import csv
import json
import math
import os
import sys

import numpy as np

SIGMA, TAU = 4.0, 10.0


def log_posterior(readings, log_distances, slope, p0):
    """ℓ per cell: readings (k) against log-distance maps (k x cells), the offset integrated out;
    slope and p0 per beacon (arrays of k) or for all (numbers)."""
    slope, p0 = np.broadcast_to(slope, readings.shape), np.broadcast_to(p0, readings.shape)
    e = readings[:, None] - (p0[:, None] - slope[:, None] * log_distances)
    s2, s1 = (e ** 2).sum(0) / SIGMA ** 2, e.sum(0) / SIGMA ** 2
    return -0.5 * (s2 - s1 ** 2 / (1 / TAU ** 2 + len(readings) / SIGMA ** 2))


def mean_of(ll, gx, gy):
    """The mean cell position under weights e^ℓ."""
    p = np.exp(ll - ll.max())
    p /= p.sum()
    return np.array([(p * gx).sum(), (p * gy).sum()])


def posterior_mean(readings, log_distances, gx, gy, slope, p0, extra=None):
    """Posterior mean over the grid, with `extra` (per cell) added to ℓ."""
    ll = log_posterior(readings, log_distances, slope, p0)
    return mean_of(ll if extra is None else ll + extra, gx, gy)


def weighted_centroid(readings, positions):
    strongest = np.argsort(-readings)[:3]
    w = 10 ** (readings[strongest] / 10)
    return (w[:, None] * positions[strongest]).sum(0) / w.sum()


def fit_logistic(x, y):
    """P(heard) = 1 / (1 + exp(-(a + b ln d))) by Newton's method."""
    a = b = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-(a + b * x)))
        w = p * (1 - p) + 1e-12
        g = np.array([(y - p).sum(), ((y - p) * x).sum()])
        h = np.array([[w.sum(), (w * x).sum()], [(w * x).sum(), (w * x * x).sum()]])
        step = np.linalg.solve(h, g)
        a, b = a + step[0], b + step[1]
    return a, b


def detection_map(a, b, log_distances, heard):
    """Σ log P(heard) over the heard beacons + Σ log P(not heard) over the others, per cell."""
    p = 1 / (1 + np.exp(-(a + b * log_distances)))
    mask = np.zeros(len(log_distances), bool)
    mask[heard] = True
    return np.log(p[mask]).sum(0) + np.log1p(-p[~mask]).sum(0)


def fit_logistic_offset(x, offsets, y):
    """P(heard) = 1 / (1 + exp(-(a + b ln d + c Δ))) by Newton's method (Δ the device's offset)."""
    design = np.column_stack([np.ones_like(x), x, offsets])
    w = np.zeros(3)
    for _ in range(60):
        p = 1 / (1 + np.exp(-design @ w))
        h = (design * (p * (1 - p) + 1e-12)[:, None]).T @ design
        w = w + np.linalg.solve(h + 1e-9 * np.eye(3), design.T @ (y - p))
    return w


def posterior_mean_offset(readings, log_distances, heard, gx, gy, slope, p0, w):
    """The posterior mean with the detection model of fit_logistic_offset, Δ summed over a grid
    of 2 dB steps within ±45 dB (prior N(0, τ²)) instead of integrated in closed form."""
    e = readings[:, None] - (p0[:, None] - slope[:, None] * log_distances[heard])
    mask = np.zeros(len(log_distances), bool)
    mask[heard] = True
    total = None
    for offset in np.arange(-45, 45.1, 2.0):
        p = 1 / (1 + np.exp(-(w[0] + w[1] * log_distances + w[2] * offset)))
        ll = -0.5 * ((e - offset) ** 2).sum(0) / SIGMA ** 2 - 0.5 * offset ** 2 / TAU ** 2
        ll = ll + np.log(p[mask]).sum(0) + np.log1p(-p[~mask]).sum(0)
        total = ll if total is None else np.logaddexp(total, ll)
    p = np.exp(total - total.max())
    p /= p.sum()
    return np.array([(p * gx).sum(), (p * gy).sum()])


GH_X, GH_W = np.polynomial.hermite.hermgauss(12)


def fit_detection(lnd, offsets, heard, propensity=True):
    """(a, b, c, ψ) of P(heard) = σ(a + b ln d + c Δ + u), u ~ N(0, ψ²) per scan, by maximum
    marginal likelihood (Gauss-Hermite in u, a N(0, 10²) prior on b and c, b <= 0 <= c);
    `lnd` and `heard` are scans x beacons, `offsets` per scan. Without `propensity`, ψ = 0."""
    from scipy.optimize import minimize
    from scipy.special import logsumexp
    log_w = np.log(GH_W / math.sqrt(math.pi))

    def cost(t):
        a, b, c = t[:3]
        z = a + b * lnd + c * offsets[:, None]
        prior = 0.005 * (b * b + c * c)
        if not propensity:
            return -(heard * z - np.logaddexp(0, z)).sum() + prior
        zq = z[:, :, None] + (math.sqrt(2) * math.exp(t[3]) * GH_X)[None, None, :]
        lq = (heard[:, :, None] * zq - np.logaddexp(0, zq)).sum(1)
        return -logsumexp(lq + log_w, axis=1).sum() + prior
    start, bounds = [0, -0.5, 0.02], [(None, None), (None, 0), (0, None)]
    if propensity:
        start, bounds = start + [math.log(0.5)], bounds + [(math.log(0.01), math.log(20))]
    t = minimize(cost, start, method="L-BFGS-B", bounds=bounds).x
    return (*t[:3], math.exp(t[3]) if propensity else 0.0)


def miss_table(model, lnd, v):
    """Σ over the beacons of log(1 - σ(a + b ln d + v)) per v (rows) and cell (columns)."""
    a, b = model[0], model[1]
    return np.array([-np.logaddexp(0, a + b * lnd + x).sum(0) for x in v])


def detection_posterior(readings, ids, lnd, gx, gy, slope, p0, model, v, table, extra=None):
    """Posterior mean and √trace of the covariance over the grid, the readings' offset Δ
    integrated out in closed form and v = c Δ + u summed on the grid `v` (trapezoid; with
    ψ = 0, v = c Δ is Gaussian too and is summed the same way)."""
    a, b, c, psi = model
    k = len(ids)
    e = readings[:, None] - (p0 - slope * lnd[ids])
    s1, s2 = e.sum(0) / SIGMA ** 2, (e ** 2).sum(0) / SIGMA ** 2
    t = k / SIGMA ** 2 + 1 / TAU ** 2
    # Given the readings, Δ ~ N(S₁/T, 1/T) per cell, so v = c Δ + u ~ N(μ, var) with μ = c S₁/T,
    # var = ψ² + c²/T; the heard beacons' log-odds add k v, which moves the centre to
    # m = μ + k var and adds k μ + k² var / 2.
    var_v = psi ** 2 + c * c / t
    mu = c * s1 / t
    m = mu + k * var_v
    base = -0.5 * s2 + s1 ** 2 / (2 * t) + (a + b * lnd[ids]).sum(0) + k * mu + 0.5 * k * k * var_v
    if var_v < 0.04:
        # Narrower than the grid: v at its centre.
        ll = base + np.array([np.interp(m[j], v, table[:, j]) for j in range(table.shape[1])])
    else:
        g = -0.5 * (v[:, None] - m[None, :]) ** 2 / var_v + table
        peak = g.max(0)
        ll = base + peak + np.log(np.exp(g - peak).sum(0))
    if extra is not None:
        ll = ll + extra
    p = np.exp(ll - ll.max())
    p /= p.sum()
    mx, my = (p * gx).sum(), (p * gy).sum()
    return np.array([mx, my]), math.sqrt((p * ((gx - mx) ** 2 + (gy - my) ** 2)).sum())


def detection_rows(scans, fit_scans, lnd_cells, gx, gy, slope, p0, centroid):
    """RMSE (honesty) of the centroid and of the detection posterior without and with the
    scan propensity, for `scans` of 1-3 beacons: (truth, ids, readings)."""
    v = np.arange(-15, 15.001, 0.1)
    fits = [fit_detection(*fit_scans, propensity=False), fit_detection(*fit_scans)]
    for label, f in zip(("without u", "with u"), fits):
        print(f"{label}: a {f[0]:.3f}, b {f[1]:.3f}, c {f[2]:.3f}, ψ {f[3]:.2f}")
    tables = [miss_table(f, lnd_cells, v) for f in fits]
    out = {}
    for truth, ids, readings in scans:
        row = [(((centroid(readings, ids) - truth) ** 2).sum(), None)]
        for f, table in zip(fits, tables):
            mean, spread = detection_posterior(readings, ids, lnd_cells, gx, gy, slope, p0, f, v, table)
            e2 = ((mean - truth) ** 2).sum()
            row.append((e2, math.sqrt(e2) <= spread))
        out.setdefault(len(ids), []).append(row)
    print("| beacons heard | scans | weighted centroid | without u (honesty) | with u (honesty) |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for k in sorted(out):
        cells = [f"{math.sqrt(np.mean([r[0][0] for r in out[k]])):.2f}"]
        for j in (1, 2):
            rmse = math.sqrt(np.mean([r[j][0] for r in out[k]]))
            cells.append(f"{rmse:.2f} ({100 * np.mean([r[j][1] for r in out[k]]):.0f} %)")
        print(f"| {k} | {len(out[k])} | " + " | ".join(cells) + " |")


def rows(rmse_by_count, labels):
    print("| beacons heard | scans | " + " | ".join(labels) + " |")
    print("| ---: | ---: |" + " ---: |" * len(labels))
    for k in sorted(rmse_by_count):
        a = np.sqrt(np.array(rmse_by_count[k]).mean(0))
        print(f"| {k} | {len(rmse_by_count[k])} | " + " | ".join(f"{v:.2f}" for v in a) + " |")


def load_uji(data):
    site = os.path.join(data, "uji-geo")
    plan = json.load(open(os.path.join(site, "plan.json")))
    d = plan["defaults"]
    floor = plan["floors"][0]
    index = {b["minor"]: i for i, b in enumerate(floor["beacons"])}
    beacons = np.array([(b["x"], b["y"], b["z"]) for b in floor["beacons"]])
    scans = {}
    for r in csv.DictReader(open(os.path.join(site, "rssi.csv"))):
        scans.setdefault(r["device"], {})[index[int(r["minor"])]] = float(r["rssi"])
    truth = {r["device"]: (float(r["x"]), float(r["y"])) for r in csv.DictReader(open(os.path.join(site, "truth.csv")))}
    return d, floor, beacons, scans, truth


def buckets(fixes, data):
    _, _, _, scans, truth = load_uji(data)
    out = {}
    for r in csv.DictReader(open(fixes)):
        t = truth[r["device"]]
        e = math.hypot(float(r["x"]) - t[0], float(r["y"]) - t[1])
        for key in (min(len(scans[r["device"]]), 4), "all"):
            out.setdefault(key, []).append((e * e, e <= float(r["accuracy"])))
    print("| beacons heard | scans | RMSE (m) | honesty |")
    print("| --- | ---: | ---: | ---: |")
    for key in [1, 2, 3, 4, "all"]:
        v = out.get(key, [])
        if v:
            label = "4 or more" if key == 4 else key
            rmse = math.sqrt(sum(e for e, _ in v) / len(v))
            print(f"| {label} | {len(v)} | {rmse:.2f} | {100 * sum(h for _, h in v) / len(v):.0f} % |")


def uji_grid(data):
    """uji-geo with a 0.25-m grid over its outline: the plan's defaults, beacons, scans, truth,
    the cell centres and every beacon's ln d over them."""
    d, floor, beacons, scans, truth = load_uji(data)
    rz = d["receiverHeight"]
    outline = np.array(floor["outline"])
    xs = np.arange(outline[:, 0].min() + 0.125, outline[:, 0].max(), 0.25)
    ys = np.arange(outline[:, 1].min() + 0.125, outline[:, 1].max(), 0.25)
    gx, gy = (g.ravel() for g in np.meshgrid(xs, ys))
    lnd = np.array([0.5 * np.log((gx - b[0]) ** 2 + (gy - b[1]) ** 2 + (b[2] - rz) ** 2) for b in beacons])
    return d, beacons, scans, truth, gx, gy, lnd


def room_grid():
    """The simulated 24 x 16 m room's cell centres (0.25 m)."""
    xs, ys = np.arange(0.125, 24, 0.25), np.arange(0.125, 16, 0.25)
    return tuple(g.ravel() for g in np.meshgrid(xs, ys))


def uji(fixes, data):
    d, beacons, scans, truth, gx, gy, lnd = uji_grid(data)
    rz, slope0 = d["receiverHeight"], 10 * d["pathLossExponent"] / math.log(10)
    estimated = {r["device"]: (float(r["x"]), float(r["y"])) for r in csv.DictReader(open(fixes))}
    x, y, offsets = [], [], []
    for device, heard in scans.items():
        if len(heard) >= 4 and device in estimated:
            p = np.array(estimated[device])
            ln = [0.5 * math.log((p[0] - b[0]) ** 2 + (p[1] - b[1]) ** 2 + (b[2] - rz) ** 2) for b in beacons]
            # The scan's offset: its residuals' mean at the reported position, shrunk by the prior.
            residuals = [heard[i] - (d["measuredPower"] - slope0 * ln[i]) for i in heard]
            offset = sum(residuals) / SIGMA ** 2 / (1 / TAU ** 2 + len(residuals) / SIGMA ** 2)
            for i in range(len(beacons)):
                x.append(ln[i])
                y.append(1.0 if i in heard else 0.0)
                offsets.append(offset)
    a, b = fit_logistic(np.array(x), np.array(y))
    w = fit_logistic_offset(np.array(x), np.array(offsets), np.array(y))
    print(f"P(heard | d) fitted at the reported positions: {[round(1 / (1 + math.exp(-(a + b * math.log(m)))), 2) for m in (1, 3, 10)]} at 1, 3, 10 m")
    out = {}
    for device, heard in scans.items():
        if not 1 <= len(heard) <= 3:
            continue
        ids = np.array(sorted(heard))
        readings = np.array([heard[i] for i in ids])
        t = np.array(truth[device])
        slope = np.full(len(ids), slope0)
        p0 = np.full(len(ids), d["measuredPower"])
        c = weighted_centroid(readings, beacons[ids, :2])
        m1 = posterior_mean(readings, lnd[ids], gx, gy, slope, p0)
        m2 = posterior_mean(readings, lnd[ids], gx, gy, slope, p0, detection_map(a, b, lnd, ids))
        m3 = posterior_mean_offset(readings, lnd, ids, gx, gy, slope, p0, w)
        out.setdefault(len(ids), []).append([((v - t) ** 2).sum() for v in (c, m1, m2, m3)])
    rows(out, ["weighted centroid", "outline posterior", "with non-detections", "non-detections with the offset"])


def simulate():
    rng = np.random.default_rng(1)
    gx, gy = room_grid()
    for name, beacons, shadowing in simulated_sites():
        lnd = np.array([0.5 * np.log((gx - b[0]) ** 2 + (gy - b[1]) ** 2 + 1.96) for b in beacons])
        slope = 10 * 2 / math.log(10)
        scans = []
        for _ in range(6000):
            t = np.array([rng.uniform(0, 24), rng.uniform(0, 16)])
            dist = np.sqrt(((beacons - t) ** 2).sum(1) + 1.96)
            offset = rng.normal(0, 5)
            r = -75 - 20 * np.log10(dist) + offset + rng.normal(0, shadowing, len(beacons))
            scans.append((t, r, offset))
        x, y, offsets = [], [], []
        for t, r, offset in scans:
            if (r > -95).sum() >= 4:
                p = t + rng.normal(0, 1.5, 2)
                estimate = offset + rng.normal(0, 2)
                for i, b in enumerate(beacons):
                    x.append(0.5 * math.log(((p - b) ** 2).sum() + 1.96))
                    y.append(float(r[i] > -95))
                    offsets.append(estimate)
        a, b = fit_logistic(np.array(x), np.array(y))
        w = fit_logistic_offset(np.array(x), np.array(offsets), np.array(y))
        out = {}
        for t, r, _ in scans:
            ids = np.where(r > -95)[0]
            if not 1 <= len(ids) <= 3:
                continue
            k = len(ids)
            c = weighted_centroid(r[ids], beacons[ids])
            m1 = posterior_mean(r[ids], lnd[ids], gx, gy, np.full(k, slope), np.full(k, -75.0))
            m2 = posterior_mean(r[ids], lnd[ids], gx, gy, np.full(k, slope), np.full(k, -75.0), detection_map(a, b, lnd, ids))
            m3 = posterior_mean_offset(r[ids], lnd, ids, gx, gy, np.full(k, slope), np.full(k, -75.0), w)
            out.setdefault(k, []).append([((v - t) ** 2).sum() for v in (c, m1, m2, m3)])
        print(f"\n{name} (RMSE m)\n")
        rows(out, ["weighted centroid", "outline posterior", "with non-detections", "non-detections with the offset"])


def uji_fit_scans(fixes, data):
    """uji-geo on its grid (`uji_grid`), the engine's positions FIXES.csv gives, and the curve's
    fitting data: ln d to every beacon, the readings' offset and which were heard, for every
    scan of four or more beacons at its estimated position (no truth)."""
    d, beacons, scans, truth, gx, gy, lnd = uji_grid(data)
    rz, slope0, p0 = d["receiverHeight"], 10 * d["pathLossExponent"] / math.log(10), d["measuredPower"]
    estimated = {r["device"]: (float(r["x"]), float(r["y"])) for r in csv.DictReader(open(fixes))}
    ln_fit, offsets, heard_fit = [], [], []
    for device, heard in scans.items():
        if len(heard) >= 4 and device in estimated:
            p = np.array(estimated[device])
            ln = np.array([0.5 * math.log((p[0] - b[0]) ** 2 + (p[1] - b[1]) ** 2 + (b[2] - rz) ** 2) for b in beacons])
            residuals = [heard[i] - (p0 - slope0 * ln[i]) for i in heard]
            offsets.append(sum(residuals) / SIGMA ** 2 / (1 / TAU ** 2 + len(residuals) / SIGMA ** 2))
            ln_fit.append(ln)
            heard_fit.append([1.0 if i in heard else 0.0 for i in range(len(beacons))])
    grid = (d, beacons, scans, truth, gx, gy, lnd, slope0, p0)
    return grid, estimated, (np.array(ln_fit), np.array(offsets), np.array(heard_fit))


def detection(fixes, data):
    (d, beacons, scans, truth, gx, gy, lnd, slope0, p0), _, fit_scans = uji_fit_scans(fixes, data)
    fallbacks = []
    for device, heard in scans.items():
        if 1 <= len(heard) <= 3:
            ids = np.array(sorted(heard))
            fallbacks.append((np.array(truth[device]), ids, np.array([heard[i] for i in ids])))
    detection_rows(
        fallbacks, fit_scans, lnd, gx, gy, slope0, p0, lambda r, ids: weighted_centroid(r, beacons[ids, :2]))


def determined_detection(fixes, data):
    """uji-geo's scans of four or more beacons: the engine's fix, the posterior mean with the
    centroid prior, and the same with the beacons not heard as evidence (the curve with u fitted
    as `detection` fits it)."""
    (d, beacons, scans, truth, gx, gy, lnd, slope0, p0), engine, fit_scans = uji_fit_scans(fixes, data)
    f = fit_detection(*fit_scans)
    print(f"curve: a {f[0]:.3f}, b {f[1]:.3f}, c {f[2]:.3f}, ψ {f[3]:.2f}")
    v = np.arange(-15, 15.001, 0.1)
    table = miss_table(f, lnd, v)
    out = {}
    for device, ids, readings, t, prior, ll in uji_determined(scans, truth, beacons, gx, gy, lnd, slope0, p0):
        with_misses = detection_posterior(readings, ids, lnd, gx, gy, slope0, p0, f, v, table, prior)[0]
        estimates = (np.array(engine[device]), mean_of(ll + prior, gx, gy), with_misses)
        out.setdefault(min(len(ids), 7), []).append([((e - t) ** 2).sum() for e in estimates])
    rows(out, ["engine's fix", "posterior mean with the prior", "… and the beacons not heard"])
    every = np.sqrt(np.array(sum(out.values(), [])).mean(0))
    print("| 4 or more | " + str(sum(len(x) for x in out.values())) + " | " + " | ".join(f"{x:.2f}" for x in every) + " |")


def simulate_determined_detection():
    """Simulated scans of four or more beacons (the sites of `simulate`): the grid's maximum a
    posteriori with the centroid prior (a stand-in for the engine's fix), the posterior mean with
    the prior, and the same with the beacons not heard (the curve fitted at the true positions of
    other scans plus 1.5 m of noise)."""
    rng = np.random.default_rng(3)
    gx, gy = room_grid()
    slope = 20 / math.log(10)
    for name, beacons, shadowing in simulated_sites():
        lnd = np.array([0.5 * np.log((gx - b[0]) ** 2 + (gy - b[1]) ** 2 + 1.96) for b in beacons])
        ln_fit, offsets, heard_fit, scored = [], [], [], []
        for n in range(5000):
            t, offset, r, ids = draw_scan(rng, beacons, shadowing)
            if len(ids) < 4:
                continue
            if n % 2 == 0:
                p = t + rng.normal(0, 1.5, 2)
                ln_fit.append([0.5 * math.log(((p - b) ** 2).sum() + 1.96) for b in beacons])
                offsets.append(offset + rng.normal(0, 2))
                heard_fit.append((r > -95).astype(float))
            elif len(scored) < 1200:
                scored.append((t, ids, r[ids]))
        f = fit_detection(np.array(ln_fit), np.array(offsets), np.array(heard_fit))
        v = np.arange(-15, 15.001, 0.1)
        table = miss_table(f, lnd, v)
        out = {}
        for t, ids, readings in scored:
            centre, sd = centroid_prior(readings, beacons[ids])
            prior = -0.5 * ((gx - centre[0]) ** 2 + (gy - centre[1]) ** 2) / sd ** 2
            ll = log_posterior(readings, lnd[ids], slope, -75.0) + prior
            best = np.argmax(ll)
            with_misses = detection_posterior(readings, ids, lnd, gx, gy, slope, -75.0, f, v, table, prior)[0]
            estimates = (np.array([gx[best], gy[best]]), mean_of(ll, gx, gy), with_misses)
            out.setdefault(min(len(ids), 8), []).append([((e - t) ** 2).sum() for e in estimates])
        print(f"\n{name}, ψ {f[3]:.2f} (RMSE m)\n")
        rows(out, ["maximum a posteriori with the prior", "posterior mean with the prior", "… and the beacons not heard"])


def draw_scan(rng, beacons, shadowing):
    """One simulated scan of the `simulate` sites: the true position, the phone's offset, every
    beacon's reading and the beacons heard (above -95 dBm)."""
    t = np.array([rng.uniform(0, 24), rng.uniform(0, 16)])
    dist = np.sqrt(((beacons - t) ** 2).sum(1) + 1.96)
    offset = rng.normal(0, 5)
    r = -75 - 20 * np.log10(dist) + offset + rng.normal(0, shadowing, len(beacons))
    return t, offset, r, np.where(r > -95)[0]


def simulate_detection():
    rng = np.random.default_rng(1)
    gx, gy = room_grid()
    for name, beacons, shadowing in simulated_sites():
        lnd = np.array([0.5 * np.log((gx - b[0]) ** 2 + (gy - b[1]) ** 2 + 1.96) for b in beacons])
        ln_fit, offsets, heard_fit, fallbacks = [], [], [], []
        for _ in range(6000):
            t, offset, r, ids = draw_scan(rng, beacons, shadowing)
            if len(ids) >= 4:
                p = t + rng.normal(0, 1.5, 2)
                ln_fit.append([0.5 * math.log(((p - b) ** 2).sum() + 1.96) for b in beacons])
                offsets.append(offset + rng.normal(0, 2))
                heard_fit.append((r > -95).astype(float))
            elif len(ids) >= 1:
                fallbacks.append((t, ids, r[ids]))
        print(f"\n{name} (RMSE m)\n")
        detection_rows(
            fallbacks, (np.array(ln_fit), np.array(offsets), np.array(heard_fit)), lnd, gx, gy,
            10 * 2 / math.log(10), -75.0, lambda r, ids: weighted_centroid(r, beacons[ids]))


def simulated_sites():
    """The simulated rooms of `simulate`: name, beacons, shadowing σ (dB)."""
    walls = np.array([(0.5, 0.5), (12, 0.3), (23.5, 0.5), (23.7, 8), (23.5, 15.5), (12, 15.7), (0.5, 15.5), (0.3, 8)])
    grid = np.array([(x, y) for x in np.arange(2, 24, 4.0) for y in np.arange(2, 16, 4.0)])
    return (("walls, 4 dB", walls, 4.0), ("walls, 8 dB", walls, 8.0), ("grid, 8 dB", grid, 8.0))


def centroid_prior(readings, positions):
    """The engine's centroid prior: centre and standard deviation (see the docstring)."""
    strongest = np.argsort(-readings)[:3]
    w = 10 ** (readings[strongest] / 10)
    centre = (w[:, None] * positions[strongest]).sum(0) / w.sum()
    spread = math.sqrt((w * ((positions[strongest] - centre) ** 2).sum(1)).sum() / w.sum())
    return centre, max(1.0, spread)


def uji_determined(scans, truth, beacons, gx, gy, lnd, slope, p0):
    """uji-geo's scans of four or more beacons: device, the beacons heard, their readings, the
    truth, the centroid prior's log-density per cell and the readings' log-likelihood per cell."""
    for device, heard in scans.items():
        if len(heard) < 4:
            continue
        ids = np.array(sorted(heard))
        readings = np.array([heard[i] for i in ids])
        centre, sd = centroid_prior(readings, beacons[ids, :2])
        prior = -0.5 * ((gx - centre[0]) ** 2 + (gy - centre[1]) ** 2) / sd ** 2
        yield device, ids, readings, np.array(truth[device]), prior, log_posterior(readings, lnd[ids], slope, p0)


def determined(fixes, data):
    d, beacons, scans, truth, gx, gy, lnd = uji_grid(data)
    slope = 10 * d["pathLossExponent"] / math.log(10)
    engine = {r["device"]: (float(r["x"]), float(r["y"])) for r in csv.DictReader(open(fixes))}
    out = {}
    for device, ids, readings, t, prior, ll in uji_determined(
        scans, truth, beacons, gx, gy, lnd, slope, d["measuredPower"]
    ):
        estimates = (weighted_centroid(readings, beacons[ids, :2]), np.array(engine[device]),
                     mean_of(ll, gx, gy), mean_of(ll + prior, gx, gy))
        out.setdefault(min(len(ids), 7), []).append([((v - t) ** 2).sum() for v in estimates])
    rows(out, ["weighted centroid", "engine's fix", "posterior mean", "posterior mean with the prior"])
    every = np.sqrt(np.array(sum(out.values(), [])).mean(0))
    print("| 4 or more | " + str(sum(len(v) for v in out.values())) + " | " + " | ".join(f"{v:.2f}" for v in every) + " |")


def simulate_determined():
    rng = np.random.default_rng(2)
    walls = np.array([(0.5, 0.5), (12, 0.3), (23.5, 0.5), (23.7, 8), (23.5, 15.5), (12, 15.7), (0.5, 15.5), (0.3, 8)])
    grid = np.array([(x, y) for x in np.arange(2, 24, 4.0) for y in np.arange(2, 16, 4.0)])
    gx, gy = room_grid()
    slope = 20 / math.log(10)
    cases = (("walls, every beacon heard, 4 dB, -59 dBm", walls, 4.0, -59, -200),
             ("walls, every beacon heard, 8 dB, -59 dBm", walls, 8.0, -59, -200),
             ("walls, heard above -95 dBm, 4 dB, -75 dBm", walls, 4.0, -75, -95),
             ("grid, heard above -95 dBm, 8 dB, -75 dBm", grid, 8.0, -75, -95),
             ("grid, heard above -95 dBm, 4 dB, -70 dBm", grid, 4.0, -70, -95))
    for name, beacons, shadowing, p0, floor in cases:
        lnd = np.array([0.5 * np.log((gx - b[0]) ** 2 + (gy - b[1]) ** 2 + 1.96) for b in beacons])
        out = {}
        for _ in range(3000):
            t = np.array([rng.uniform(0, 24), rng.uniform(0, 16)])
            offset = rng.normal(0, 5)
            dist = np.sqrt(((beacons - t) ** 2).sum(1) + 1.96)
            r = p0 - 20 * np.log10(dist) + offset + rng.normal(0, shadowing, len(beacons))
            ids = np.where(r > floor)[0]
            if len(ids) < 4:
                continue
            centre, sd = centroid_prior(r[ids], beacons[ids])
            ll = log_posterior(r[ids], lnd[ids], slope, p0)
            ll = ll - 0.5 * ((gx - centre[0]) ** 2 + (gy - centre[1]) ** 2) / sd ** 2
            best = np.argmax(ll)
            estimates = (weighted_centroid(r[ids], beacons[ids]), np.array([gx[best], gy[best]]), mean_of(ll, gx, gy))
            out.setdefault(min(len(ids), 8), []).append([((v - t) ** 2).sum() for v in estimates])
        print(f"\n{name} (RMSE m)\n")
        rows(out, ["weighted centroid", "maximum a posteriori with the prior", "posterior mean with the prior"])


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "simulate-determined-detection":
        simulate_determined_detection()
    elif len(sys.argv) >= 2 and sys.argv[1] == "simulate-detection":
        simulate_detection()
    elif len(sys.argv) >= 2 and sys.argv[1] == "simulate":
        simulate()
    elif len(sys.argv) >= 2 and sys.argv[1] == "simulate-determined":
        simulate_determined()
    elif len(sys.argv) >= 3 and sys.argv[1] in ("buckets", "uji", "determined", "detection", "determined-detection"):
        data = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data")
        {"buckets": buckets, "uji": uji, "determined": determined, "detection": detection,
         "determined-detection": determined_detection}[sys.argv[1]](
            sys.argv[2], data)
    else:
        sys.exit(__doc__)
