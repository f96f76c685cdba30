#!/usr/bin/env python3
"""Markdown tables of `scanviz bench --json` files, as docs/performance.md shows them.

    scripts/bench-table.py [--algorithm NAME] [--sizes 2^20,2^24] FILE.json ...

One table per device named in the files: a row per type and size, with G items/s, GB/s, the share
of the GPU's peak DRAM bandwidth (2 x memory clock x bus width, from the file), the share of the
copy and the ratio to CUB, all from the latency (one launch between events). Where several files
give the same type on the same device (runs one after the other), each cell shows the lowest and
highest of them ("93.7-94.1"). Files with both measures (rows with "back_to_back") add a second
table per device: microseconds a scan of the copy, CUB and the algorithm in each measure, as
"median (min-max)" over the rounds, and the algorithm's share of the copy, ratio to CUB and share of
the DRAM peak back to back. Exits 1 when a row of the algorithm is missing or was not verified, 2
for a file that is not a bench table.
"""
import argparse
import json
import math
import sys
from collections import defaultdict

TYPES = ["int32", "float", "int64", "double"]


def size_name(n):
    k = int(math.log2(n))
    return f"2^{k}" if 1 << k == n else str(n)


def parse_size(word):
    return 1 << int(word[2:]) if word.startswith("2^") else int(word)


def span(values, digits):
    lo, hi = min(values), max(values)
    a, b = f"{lo:.{digits}f}", f"{hi:.{digits}f}"
    return a if a == b else f"{a}-{b}"


def each_size(types, wanted):
    """(type, n) in table order: the types as TYPES lists them, the sizes ascending, those wanted."""
    for type_name in sorted(types, key=lambda t: TYPES.index(t) if t in TYPES else len(TYPES)):
        for n in sorted(types[type_name]):
            if not wanted or n in wanted:
                yield type_name, n


def us_cell(rows, key):
    """Microseconds a scan: the median of the rows' medians, and their lowest min and highest max."""
    spreads = [r[key] if key == "latency_ms" else r["back_to_back"]["ms"] for r in rows]
    mid = sorted(x["median"] for x in spreads)[len(spreads) // 2] * 1e3
    lo, hi = min(x["min"] for x in spreads) * 1e3, max(x["max"] for x in spreads) * 1e3
    digits = 2 if hi < 100 else 0
    return f"{mid:.{digits}f} ({lo:.{digits}f}-{hi:.{digits}f})"


def two_measures(device, types, algorithm, wanted):
    """The second table: both measures with their spreads (rows that have them)."""
    print(f"#### {device}: latency and back to back\n")
    print(f"Microseconds a scan, median (min-max) over the rounds; {algorithm}'s share of the copy, ratio to CUB "
          "and share of the peak DRAM bandwidth back to back (medians).\n")
    print("| type | n | copy latency | CUB latency | scan latency | % of the copy | copy in graph | CUB in graph "
          "| scan in graph | % of the copy | vs CUB | % of peak DRAM |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for type_name, n in each_size(types, wanted):
        by = types[type_name][n]
        if not all(by.get(a) and all("back_to_back" in r and "latency_ms" in r for r, _ in by[a])
                   for a in ("copy", "cub", algorithm)):
            continue
        scan = [r for r, _ in by[algorithm]]
        cells = [us_cell([r for r, _ in by[a]], "latency_ms") for a in ("copy", "cub", algorithm)]
        cells.append(span([r["percent_of_copy"] for r in scan], 1))
        cells += [us_cell([r for r, _ in by[a]], "back_to_back") for a in ("copy", "cub", algorithm)]
        cells.append(span([r["back_to_back"]["percent_of_copy"] for r in scan], 1))
        cells.append(span([r["back_to_back"]["vs_cub"] for r in scan], 2) + "x")
        peaks = [p for _, p in by[algorithm]]
        per_item = [r["bytes_per_s"] / r["items_per_s"] for r in scan]
        cells.append(span([100 * b * r["back_to_back"]["items_per_s"] / p for r, b, p in zip(scan, per_item, peaks)], 1)
                     if all(p > 0 for p in peaks) else "-")
        print(f"| {type_name} | {size_name(n)} | " + " | ".join(cells) + " |")
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--algorithm", default="decoupled-lookback")
    ap.add_argument("--sizes", help="comma-separated sizes to show (default: every size in the files)")
    a = ap.parse_args()
    # device -> type -> n -> list of (row, peak bytes/s)
    table = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    # device -> type -> n -> algorithm -> list of (row, peak bytes/s): the copy, CUB and the algorithm
    every = defaultdict(lambda: defaultdict(lambda: defaultdict(lambda: defaultdict(list))))
    for path in a.files:
        try:
            with open(path) as f:
                doc = json.load(f)
            if doc.get("format") != "scanviz-bench":
                raise ValueError("not a scanviz bench file")
        except (OSError, ValueError) as e:
            print(f"bench-table: {path}: {e}", file=sys.stderr)
            return 2
        peak = 2.0 * doc.get("memory_clock_khz", 0) * 1e3 * doc.get("memory_bus_bits", 0) / 8
        for row in doc["rows"]:
            if row["algorithm"] in ("copy", "cub", a.algorithm):
                every[doc["device"]][doc.get("type", "int32")][row["n"]][row["algorithm"]].append((row, peak))
            if row["algorithm"] == a.algorithm:
                table[doc["device"]][doc.get("type", "int32")][row["n"]].append((row, peak))
    if not table:
        print(f"bench-table: no rows of {a.algorithm} in the files", file=sys.stderr)
        return 1
    wanted = [parse_size(w) for w in a.sizes.split(",")] if a.sizes else None
    bad = 0
    for device, types in table.items():
        peaks = {p for t in types.values() for rows in t.values() for _, p in rows}
        peak_text = ", ".join(f"{p / 1e9:.0f} GB/s" for p in sorted(peaks) if p > 0) or "not in the files"
        print(f"#### {device}\n\n{a.algorithm}, inclusive sum; peak DRAM bandwidth {peak_text}.\n")
        print("| type | n | G items/s | GB/s | % of peak DRAM | % of the copy | vs CUB |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for type_name, n in each_size(types, wanted):
            runs = types[type_name][n]
            bad += sum(1 for row, _ in runs if not row["verified"])
            g = span([r["items_per_s"] / 1e9 for r, _ in runs], 1)
            gb = span([r["bytes_per_s"] / 1e9 for r, _ in runs], 0)
            pk = span([100 * r["bytes_per_s"] / p for r, p in runs], 1) if all(p > 0 for _, p in runs) else "-"
            cp = span([r["percent_of_copy"] for r, _ in runs], 1)
            cub = span([r["vs_cub"] for r, _ in runs], 2)
            print(f"| {type_name} | {size_name(n)} | {g} | {gb} | {pk} | {cp} | {cub}x |")
        print()
        if any("back_to_back" in r for t in every[device].values() for by in t.values() for rows in by.values()
               for r, _ in rows):
            two_measures(device, every[device], a.algorithm, wanted)
    if bad:
        print(f"bench-table: {bad} rows were not verified against the reference", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
