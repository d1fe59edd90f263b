#!/usr/bin/env python3
"""Held-out check of path-loss calibrations on walked or driven tracks (Docs/Evidence/RangingStudies.md).

Usage: python3 Scripts/Research/ranging-heldout.py DATA_DIR PREFIX PLAIN.json ROBUST.json
  DATA_DIR     ../shared/data/danis-office (PREFIX tracks) or ../shared/data/kolakowski-flat (PREFIX robot)
  PLAIN.json   indoorpos calibrate --samples DATA_DIR/calibration.csv --output PLAIN.json
  ROBUST.json  the same with --robust
For every RSSI sample of PREFIX_rssi.csv it compares the reading (raw, and smoothed per beacon and
track with the defaults of RSSIKalmanFilter, q = 4 dB^2/s, R = 16 dB^2) with each model's
prediction at the true distance from PREFIX_truth.csv.
"""
import csv, json, math, statistics as st, sys
D=sys.argv[1].rstrip('/')+'/'
plan=json.load(open(D+'plan.json'))
h=plan['defaults']['receiverHeight']
pos={b['minor']:(b['x'],b['y'],b.get('z',0)) for b in plan['floors'][0]['beacons']}
truth={}
for r in csv.DictReader(open(D+sys.argv[2]+'_truth.csv')):
    truth[(r.get('device',''),r['timestamp'])]=(float(r['x']),float(r['y']))
rows=[]
for r in csv.DictReader(open(D+sys.argv[2]+'_rssi.csv')):
    rssi=float(r['rssi'])
    if rssi in (0,127): continue
    x,y=truth[(r.get('device',''),r['timestamp'])]
    bx,by,bz=pos[int(r['minor'])]
    d=math.sqrt((x-bx)**2+(y-by)**2+(h-bz)**2)
    rows.append((r.get('device',''),int(r['minor']),float(r['timestamp']),rssi,d))
def models(path):
    j=json.load(open(path))
    g=(j['all']['measuredPower'],j['all']['pathLossExponent'])
    per={b['minor']:(b['measuredPower'],b['pathLossExponent']) for b in j['beacons']}
    return g,per
gl,per=models(sys.argv[3])
glr,perr=models(sys.argv[4])
pp=(plan['defaults']['measuredPower'],plan['defaults']['pathLossExponent'])
cands={'plan defaults %s'%(pp,):lambda m:pp,'global LS':lambda m:gl,'per-beacon LS':lambda m:per[m],'per-beacon robust':lambda m:perr[m]}
# Kalman smoothing per device+beacon, q=4, R=16
def smooth(rows):
    state={}
    out=[]
    for dev,m,t,r,d in sorted(rows,key=lambda z:(z[0],z[1],z[2])):
        k=(dev,m)
        if k not in state: state[k]=[r,16.0,t]
        else:
            x,P,tl=state[k]; Pm=P+4*(t-tl); K=Pm/(Pm+16); x=x+K*(r-x); P=(1-K)**2*Pm+K*K*16; state[k]=[x,P,t]
        out.append((dev,m,t,state[k][0],d))
    return out
sm=smooth(rows)
print('samples',len(rows))
print('| model | RSSI | mean residual dB | RMS residual dB | median range error m | median abs ln(d/d) |')
for name,f in cands.items():
    for label,data in (('raw',rows),('kalman',sm)):
        res=[];err=[];lerr=[]
        for dev,m,t,r,d in data:
            p0,n=f(m)
            res.append(r-(p0-10*n*math.log10(d)))
            dh=10**((p0-r)/(10*n))
            err.append(abs(dh-d)); lerr.append(abs(math.log(dh/d)))
        rms=math.sqrt(sum(x*x for x in res)/len(res))
        print(f'| {name} | {label} | {st.mean(res):+.2f} | {rms:.2f} | {st.median(err):.2f} | {st.median(lerr):.3f} |')
