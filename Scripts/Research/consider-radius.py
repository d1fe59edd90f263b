#!/usr/bin/env python3
"""Measures a radius widened by a Schmidt "consider" term whose per-beacon bias variance is
estimated from the traffic itself (no truth), on the causal outputs of Scripts/Research/accuracy.sh.

For every report: the epoch's per-beacon mean RSSI (the second before the report), its residual
against the model at the reported position, less the epoch's weighted mean residual (the device
offset). Pooled over all devices in input-time order, each beacon's mean centred residual r̄_b and
its sampling variance give σ_b² = mean_b(r̄_b² − var_b / N_b) (method of moments, from the
reports before this one). The report's radius becomes √(accuracy² + tr C) with
C = σ_b² F⁻¹ (Σ w_b² H_bᵀ H_b) F⁻¹, H_b = (∂h/∂x, ∂h/∂y, 1), w_b = N_b / σ², F = Σ w_b H_bᵀ H_b:
how far per-beacon biases of that spread move a fix with the device offset estimated.
The truth is used only to score honesty (error ≤ radius) before and after.
  usage: Scripts/Research/consider-radius.py ACCURACY_DIR [DATA_DIR]   (ACCURACY_DIR: Scripts/Research/accuracy.sh's output)
"""
import csv, json, math, sys, bisect
import numpy as np
from collections import defaultdict
LN10 = math.log(10)

def load_plan(path, calib=None):
    p = json.load(open(path))
    d = p['defaults']; sig = d.get('sigma', 4.0)
    beacons = {}
    for f in p['floors']:
        for b in f['beacons']:
            key = (b['uuid'].upper(), int(b['major']), int(b['minor']))
            beacons[key] = dict(x=b['x'], y=b['y'], z=b.get('z', 0.0),
                                p0=b.get('measuredPower', d['measuredPower']), n=b.get('pathLossExponent', d['pathLossExponent']), s=sig)
    if calib:
        c = json.load(open(calib))
        for b in c['beacons']:
            key = (b['uuid'].upper(), int(b['major']), int(b['minor']))
            if key in beacons:
                beacons[key].update(p0=b['measuredPower'], n=b['pathLossExponent'], s=b['sigma'])
    return beacons

def load_rssi(path):
    by_dev = defaultdict(list)
    with open(path) as f:
        r = csv.DictReader(f)
        for row in r:
            try:
                t = float(row['timestamp']); v = float(row['rssi'])
                key = (row['uuid'].upper(), int(row['major']), int(row['minor']))
            except Exception:
                continue
            by_dev[row.get('device') or ''].append((t, key, v))
    for d in by_dev: by_dev[d].sort(key=lambda s: s[0])
    return by_dev

def load_truth(path):
    tr = defaultdict(list)
    with open(path) as f:
        for row in csv.DictReader(f):
            tr[row.get('device') or ''].append((float(row['timestamp']), float(row['x']), float(row['y'])))
    for d in tr: tr[d].sort()
    return tr

def truth_at(tr, t):
    ts = [a[0] for a in tr]
    i = bisect.bisect_left(ts, t)
    if i <= 0: return tr[0][1:]
    if i >= len(tr): return tr[-1][1:]
    (t0, x0, y0), (t1, x1, y1) = tr[i-1], tr[i]
    a = (t - t0) / (t1 - t0) if t1 > t0 else 0
    return (x0 + a*(x1-x0), y0 + a*(y1-y0))

def run(plan, rssi, truth, fixes, calib=None, epoch=1.0):
    beacons = load_plan(plan, calib)
    by_dev = load_rssi(rssi); tr = load_truth(truth)
    rows = list(csv.DictReader(open(fixes)))
    rows.sort(key=lambda r: float(r['timestamp']))
    times = {d: [s[0] for s in v] for d, v in by_dev.items()}
    stats = defaultdict(lambda: [0.0, 0.0, 0.0])  # per beacon: count, sum, sumsq of centred residual
    inside0 = inside1 = total = 0
    sb2_trace = []
    for r in rows:
        d = r.get('device') or ''; t = float(r['timestamp']); x = float(r['x']); y = float(r['y'])
        z = float(r['z']) if r.get('z') else 1.2
        acc = float(r['accuracy'])
        ts = times.get(d, [])
        lo = bisect.bisect_right(ts, t - epoch - 1e-9); hi = bisect.bisect_right(ts, t + 1e-9)
        sums = defaultdict(lambda: [0.0, 0])
        for s in by_dev[d][lo:hi]:
            if s[1] in beacons:
                sums[s[1]][0] += s[2]; sums[s[1]][1] += 1
        res = {}; H = []; W = []
        for k, (sm, c) in sums.items():
            b = beacons[k]
            dx, dy, dz = x - b['x'], y - b['y'], z - b['z']
            d2 = max(dx*dx + dy*dy + dz*dz, 1e-4)
            pred = b['p0'] - 10 * b['n'] * math.log10(math.sqrt(d2))
            res[k] = sm / c - pred
            slope = 10 * b['n'] / LN10
            H.append([-slope*dx/d2, -slope*dy/d2, 1.0]); W.append(c / b['s']**2)
        o = 0.0
        if res:
            o = float(np.average(list(res.values()), weights=[sums[k][1] for k in res]))
        # sigma_b^2 from the pooled stats so far (before this epoch's residuals)
        num = 0.0; cnt = 0
        for k, st in stats.items():
            if st[0] >= 5:
                mean = st[1] / st[0]; var = st[2] / st[0] - mean*mean
                num += mean*mean - var / st[0]; cnt += 1
        sb2 = max(0.0, num / cnt) if cnt else 0.0
        sb2_trace.append(sb2)
        extra = 0.0
        if len(H) >= 3:
            H = np.array(H); W = np.array(W)
            F = (H.T * W) @ H
            try:
                Fi = np.linalg.inv(F)
                C = sb2 * Fi @ ((H.T * W**2) @ H) @ Fi
                extra = C[0,0] + C[1,1]
            except np.linalg.LinAlgError:
                pass
        for k in res:
            st = stats[k]; v = res[k] - o
            st[0] += 1; st[1] += v; st[2] += v*v
        if d not in tr: continue
        tx, ty = truth_at(tr[d], t)
        err = math.hypot(x - tx, y - ty)
        rad = math.sqrt(acc*acc + max(0.0, extra))
        total += 1; inside0 += err <= acc; inside1 += err <= rad
    return inside0/total, inside1/total, math.sqrt(np.median(sb2_trace)), math.sqrt(sb2_trace[-1])

if __name__ == '__main__':
    A = sys.argv[1]
    D = sys.argv[2] if len(sys.argv) > 2 else '../shared/data'
    sets = [('danis plan', 'danis-office', 'tracks_rssi.csv', 'tracks_truth.csv', None, 'plan'),
            ('danis cal', 'danis-office', 'tracks_rssi.csv', 'tracks_truth.csv', f'{A}/danis-office-calibration.json', 'calibrated'),
            ('kol plan', 'kolakowski-flat', 'robot_rssi.csv', 'robot_truth.csv', None, 'plan'),
            ('kol cal', 'kolakowski-flat', 'robot_rssi.csv', 'robot_truth.csv', f'{A}/kolakowski-flat-calibration.json', 'calibrated'),
            ('uji plan', 'uji-geo', 'rssi.csv', 'truth.csv', None, 'plan')]
    for label, s, rs, tt, cal, m in sets:
        h0, h1, med, last = run(f'{D}/{s}/plan.json', f'{D}/{s}/{rs}', f'{D}/{s}/{tt}', f'{A}/{s}-{m}-estimated-causal.csv', cal)
        print(f'{label:12s} honesty {h0*100:.0f}% -> {h1*100:.0f}%  sigma_b median {med:.2f} last {last:.2f}')
