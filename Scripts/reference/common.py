"""Shared reading and writing for the reference scripts.

Everything here follows Docs/../FORMATS.md (the project's file contracts): CSV files with a
header row whose columns are found by name, floor plans and calibration files in JSON.
Bad input raises `InputError` with a message that names the file, line and column; the
scripts turn it into one line on standard error and a non-zero exit status via `run_main`.
"""

from __future__ import annotations

import csv
import json
import math
import os
import sys
from dataclasses import dataclass, field
from typing import Callable, Iterator


class InputError(Exception):
    """A problem with the user's input, reported as one line without a traceback."""


def run_main(main: Callable[[], int]) -> None:
    """Runs `main`, turning input and file errors into a one-line message and exit status 2."""
    try:
        status = main()
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
    except OSError as error:
        print(f"error: {error.filename or ''}: {error.strerror or error}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
    sys.exit(status)


# ---------------------------------------------------------------------------------------
# CSV
# ---------------------------------------------------------------------------------------

@dataclass
class CSVRow:
    """One data row: its 1-based line number in the file and its cells by column name."""
    line: int
    cells: dict[str, str]


class CSVTable:
    """A CSV file read as a header plus rows, with typed, line-numbered cell access."""

    def __init__(self, path: str, required: list[str]):
        self.path = path
        try:
            handle = open(path, newline="", encoding="utf-8-sig")
        except OSError as error:
            raise InputError(f"{path}: cannot open: {error.strerror}") from None
        with handle:
            reader = csv.reader(handle)
            try:
                header = next(reader)
            except StopIteration:
                raise InputError(f"{path}: the file is empty; a header row is required") from None
            except (csv.Error, UnicodeDecodeError) as error:
                raise InputError(f"{path}:1: cannot read the header: {error}") from None
            self.columns = [name.strip().lower() for name in header]
            missing = [name for name in required if name not in self.columns]
            if missing:
                raise InputError(
                    f"{path}:1: missing column(s) {', '.join(missing)}; "
                    f"the header has {', '.join(self.columns) or 'nothing'}")
            self.rows: list[CSVRow] = []
            try:
                for row in reader:
                    line = reader.line_num
                    if not row or all(not cell.strip() for cell in row):
                        continue
                    if len(row) < len(self.columns):
                        row = row + [""] * (len(self.columns) - len(row))
                    self.rows.append(CSVRow(line, dict(zip(self.columns, (c.strip() for c in row)))))
            except (csv.Error, UnicodeDecodeError) as error:
                raise InputError(f"{path}:{reader.line_num + 1}: cannot read the row: {error}") from None

    def has(self, column: str) -> bool:
        return column in self.columns

    def number(self, row: CSVRow, column: str, finite: bool = True) -> float:
        """The cell as a float; an error naming line and column if it is not a (finite) number."""
        text = row.cells.get(column, "")
        try:
            value = float(text)
        except ValueError:
            raise InputError(
                f"{self.path}:{row.line}: column '{column}': '{text}' is not a number") from None
        if finite and not math.isfinite(value):
            raise InputError(
                f"{self.path}:{row.line}: column '{column}': {text} is not a finite number")
        return value

    def integer(self, row: CSVRow, column: str) -> int:
        value = self.number(row, column)
        if value != int(value):
            raise InputError(
                f"{self.path}:{row.line}: column '{column}': {row.cells[column]} is not an integer")
        return int(value)

    def text(self, row: CSVRow, column: str) -> str:
        value = row.cells.get(column, "")
        if not value:
            raise InputError(f"{self.path}:{row.line}: column '{column}' is empty")
        return value


def write_csv(path: str | None, header: list[str], rows: list[list[object]]) -> None:
    """Writes a CSV to `path` (standard output when None); the file appears only when complete."""
    def format_cell(value: object) -> str:
        return f"{value:.4f}" if isinstance(value, float) else str(value)

    lines = [",".join(header)] + [",".join(format_cell(v) for v in row) for row in rows]
    text = "\n".join(lines) + "\n"
    if path is None or path == "-":
        sys.stdout.write(text)
        return
    temporary = f"{path}.partial"
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(temporary, path)


# ---------------------------------------------------------------------------------------
# Beacons, plans and calibration
# ---------------------------------------------------------------------------------------

Identity = tuple[str, int, int]
"""(uuid upper-cased, major, minor): a beacon's identity."""


def identity(uuid: str, major: int, minor: int) -> Identity:
    return (uuid.strip().upper(), int(major), int(minor))


@dataclass
class PlanBeacon:
    """A beacon of the plan with its absolute position (metres) and path-loss model."""
    identity: Identity
    level: int
    x: float
    y: float
    z: float                 # absolute height: floor elevation + beacon height (m)
    measured_power: float    # RSSI at 1 m (dBm)
    exponent: float          # log-distance path-loss exponent n
    sigma: float = 4.0       # RSSI noise (dB), from calibration when known


@dataclass
class Plan:
    """The parts of a floor plan the reference pipelines use."""
    name: str
    receiver_height: float
    elevations: dict[int, float]
    outlines: dict[int, list[tuple[float, float]]]
    beacons: dict[Identity, PlanBeacon] = field(default_factory=dict)

    def bounds(self, level: int) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of the floor's outline, or of its beacons without one."""
        points = self.outlines.get(level) or [(b.x, b.y) for b in self.beacons.values()
                                                if b.level == level]
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        return (min(xs), min(ys), max(xs), max(ys))


def _json(path: str) -> object:
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except json.JSONDecodeError as error:
        raise InputError(f"{path}:{error.lineno}: not valid JSON: {error.msg}") from None
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: not UTF-8 text: {error.reason}") from None


def _finite(value: object, where: str, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise InputError(f"{path}: {where}: {value!r} is not a finite number")
    return float(value)


def load_plan(path: str) -> Plan:
    """Reads a floor plan JSON (FORMATS.md); errors name the JSON path."""
    data = _json(path)
    if not isinstance(data, dict):
        raise InputError(f"{path}: the plan must be a JSON object")
    defaults = data.get("defaults", {}) or {}
    power = _finite(defaults.get("measuredPower", -59.0), "defaults.measuredPower", path)
    exponent = _finite(defaults.get("pathLossExponent", 2.0), "defaults.pathLossExponent", path)
    height = _finite(defaults.get("receiverHeight", 1.2), "defaults.receiverHeight", path)
    floors = data.get("floors")
    if not isinstance(floors, list) or not floors:
        raise InputError(f"{path}: floors: the plan needs at least one floor")
    plan = Plan(str(data.get("name", "")), height, {}, {})
    for i, floor in enumerate(floors):
        where = f"floors[{i}]"
        if not isinstance(floor, dict) or not isinstance(floor.get("level"), int):
            raise InputError(f"{path}: {where}.level: an integer level is required")
        level = floor["level"]
        if level in plan.elevations:
            raise InputError(f"{path}: {where}.level: level {level} appears twice")
        plan.elevations[level] = _finite(floor.get("elevation", 0.0), f"{where}.elevation", path)
        outline = floor.get("outline")
        if outline:
            if not isinstance(outline, list) or len(outline) < 3 or not all(
                    isinstance(p, list) and len(p) == 2 for p in outline):
                raise InputError(f"{path}: {where}.outline: needs 3 or more [x, y] points")
            plan.outlines[level] = [(_finite(p[0], f"{where}.outline[{k}][0]", path),
                                     _finite(p[1], f"{where}.outline[{k}][1]", path))
                                    for k, p in enumerate(outline)]
        beacons = floor.get("beacons", []) or []
        if not isinstance(beacons, list):
            raise InputError(f"{path}: {where}.beacons: must be a list")
        for j, beacon in enumerate(beacons):
            bw = f"{where}.beacons[{j}]"
            if not isinstance(beacon, dict):
                raise InputError(f"{path}: {bw}: must be an object")
            try:
                ident = identity(str(beacon["uuid"]), int(beacon["major"]), int(beacon["minor"]))
            except (KeyError, TypeError, ValueError):
                raise InputError(f"{path}: {bw}: uuid, major and minor are required") from None
            if ident in plan.beacons:
                raise InputError(f"{path}: {bw}: identity {ident} appears twice in the plan")
            plan.beacons[ident] = PlanBeacon(
                ident, level,
                _finite(beacon.get("x"), f"{bw}.x", path),
                _finite(beacon.get("y"), f"{bw}.y", path),
                plan.elevations[level] + _finite(beacon.get("z", 0.0), f"{bw}.z", path),
                _finite(beacon.get("measuredPower", power), f"{bw}.measuredPower", path),
                _finite(beacon.get("pathLossExponent", exponent), f"{bw}.pathLossExponent", path))
    if not plan.beacons:
        raise InputError(f"{path}: the plan has no beacons")
    return plan


def apply_calibration(plan: Plan, path: str) -> int:
    """Overrides the plan's per-beacon model with a calibration JSON; returns beacons changed.

    A beacon named in `beacons` takes its own values; every other beacon takes `all` when the
    file has it. `sigma` (dB) is kept for the maximum-likelihood weights.
    """
    data = _json(path)
    if not isinstance(data, dict):
        raise InputError(f"{path}: the calibration must be a JSON object")

    def model(entry: object, where: str) -> tuple[float, float, float]:
        if not isinstance(entry, dict):
            raise InputError(f"{path}: {where}: must be an object")
        p0 = _finite(entry.get("measuredPower"), f"{where}.measuredPower", path)
        n = _finite(entry.get("pathLossExponent"), f"{where}.pathLossExponent", path)
        sigma = _finite(entry.get("sigma", 4.0), f"{where}.sigma", path)
        if n <= 0 or sigma <= 0:
            raise InputError(f"{path}: {where}: pathLossExponent and sigma must be positive")
        return p0, n, sigma

    changed = 0
    if "all" in data:
        p0, n, sigma = model(data["all"], "all")
        for beacon in plan.beacons.values():
            beacon.measured_power, beacon.exponent, beacon.sigma = p0, n, sigma
            changed += 1
    entries = data.get("beacons", []) or []
    if not isinstance(entries, list):
        raise InputError(f"{path}: beacons: must be a list")
    for k, entry in enumerate(entries):
        where = f"beacons[{k}]"
        try:
            ident = identity(str(entry["uuid"]), int(entry["major"]), int(entry["minor"]))
        except (KeyError, TypeError, ValueError):
            raise InputError(f"{path}: {where}: uuid, major and minor are required") from None
        if ident in plan.beacons:
            b = plan.beacons[ident]
            b.measured_power, b.exponent, b.sigma = model(entry, where)
            changed += 1
    return changed


# ---------------------------------------------------------------------------------------
# Time series
# ---------------------------------------------------------------------------------------

def device_of(table: CSVTable, row: CSVRow, column: str | None) -> str:
    """The row's device name, or '' when the file has no device column."""
    if column is None or not table.has(column):
        return ""
    return row.cells.get(column, "")


def group_by_device(items: Iterator[tuple[str, object]]) -> dict[str, list[object]]:
    groups: dict[str, list[object]] = {}
    for device, item in items:
        groups.setdefault(device, []).append(item)
    return groups
