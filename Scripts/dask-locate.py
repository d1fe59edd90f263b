#!/usr/bin/env python3
"""Runs `indoorpos locate` as the map stage of a Dask job: the RSSI samples are split into
shards by device, each shard is positioned by its own `indoorpos locate` process on a
dask.distributed worker, and the shards' fixes are merged. With --check it also runs
`indoorpos locate` once on the whole file and checks that the merged output is byte-identical.

    python3 Scripts/dask-locate.py --plan PLAN --rssi RSSI --output FIXES
        [--calibration CAL] [--shards 4] [--workers 2] [--bin PATH] [--check]

A device's samples all go to one shard (by a CRC-32 of its name), in their order, so each
device is positioned exactly as in one process. The merged fixes are grouped by device (in name
order) and in time order within each, and the single-process output is put in the same order
before comparing (one process interleaves the devices' rows as their epochs close). Devices
share one thing in a single process: the site-wide watch that sets apart a beacon disagreeing
with the tracks; sharded runs keep one watch per shard, so the outputs are identical when no
beacon is set apart (the summary on standard error names any). See Docs/Guide/Scale.md.

Needs `pip install "dask[distributed]"`; uses a LocalCluster of --workers processes.
"""
import argparse
import csv
import os
import shutil
import subprocess
import sys
import tempfile
import zlib


def split(rssi, folder, shards):
    """Writes shard-K.csv files (header + the rows of the devices hashed to K); returns paths."""
    paths = [os.path.join(folder, f"shard-{k}.csv") for k in range(shards)]
    outputs = [open(path, "w", newline="") for path in paths]
    with open(rssi, newline="") as source:
        header = source.readline()
        names = [name.strip().lower() for name in header.lstrip("\ufeff").rstrip("\r\n").split(",")]
        if "device" not in names:
            sys.exit("dask-locate: the RSSI file has no device column: there is nothing to shard")
        column = names.index("device")
        for out in outputs:
            out.write(header)
        for line in source:
            fields = next(csv.reader([line]))
            device = fields[column].strip() if column < len(fields) else ""
            outputs[zlib.crc32(device.encode()) % shards].write(line)
    for out in outputs:
        out.close()
    return paths


def locate(binary, plan, rssi, calibration, output):
    """The map task: one `indoorpos locate` process over one shard."""
    # One thread per task: Dask runs as many tasks at once as its workers have threads.
    command = [binary, "locate", "--plan", plan, "--rssi", rssi, "--output", output, "--quiet", "--jobs", "1"]
    if calibration:
        command += ["--calibration", calibration]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"indoorpos locate failed on {rssi}: {result.stderr.strip()}")
    return output, result.stderr


def row_key(names):
    """The sort key of a fixes row: (device, timestamp)."""
    device, time = names.index("device"), names.index("timestamp")

    def key(row):
        fields = next(csv.reader([row]))
        return fields[device], float(fields[time])
    return key


def grouped(path):
    """The fixes CSV's header and rows, rows stably ordered by device, then timestamp."""
    with open(path, newline="") as f:
        lines = f.read().splitlines(keepends=True)
    header, rows = lines[0], lines[1:]
    return header, sorted(rows, key=row_key(header.rstrip("\r\n").split(",")))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plan", required=True)
    parser.add_argument("--rssi", required=True)
    parser.add_argument("--calibration")
    parser.add_argument("--output", required=True)
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bin", default=None, help="indoorpos binary (default: the release build)")
    parser.add_argument("--check", action="store_true", help="compare with one indoorpos locate run")
    args = parser.parse_args()
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        sys.exit('dask-locate: dask.distributed is not installed (pip install "dask[distributed]")')
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    binary = os.path.abspath(args.bin or os.path.join(root, ".build", "release", "indoorpos"))
    plan, rssi = os.path.abspath(args.plan), os.path.abspath(args.rssi)
    calibration = os.path.abspath(args.calibration) if args.calibration else None
    folder = tempfile.mkdtemp(prefix="dask-locate-")
    try:
        shards = split(rssi, folder, args.shards)
        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            futures = client.map(locate, [binary] * len(shards), [plan] * len(shards), shards,
                                 [calibration] * len(shards), [path + ".fixes.csv" for path in shards],
                                 pure=False)
            results = client.gather(futures)
        header, rows = None, []
        for path, _ in results:
            shard_header, shard_rows = grouped(path)
            header = header or shard_header
            rows += shard_rows
        rows.sort(key=row_key(header.rstrip("\r\n").split(",")))
        with open(args.output, "w", newline="") as out:
            out.write(header)
            out.writelines(rows)
        print(f"dask-locate: {len(rows)} positions from {len(shards)} shards on {args.workers} workers "
              f"-> {args.output}", file=sys.stderr)
        if args.check:
            single = os.path.join(folder, "single.csv")
            locate(binary, plan, rssi, calibration, single)
            single_header, single_rows = grouped(single)
            same = (single_header + "".join(single_rows)).encode() == open(args.output, "rb").read()
            print(f"dask-locate: merged output {'IS' if same else 'is NOT'} byte-identical to one "
                  f"indoorpos locate process (rows grouped by device)", file=sys.stderr)
            return 0 if same else 1
        return 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
