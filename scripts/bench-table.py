#!/usr/bin/env python3
"""Markdown tables of `scanviz bench --json` files, as docs/performance.md shows them.

    scripts/bench-table.py [--algorithm NAME] [--sizes 2^20,2^24] FILE.json ...

One table per device named in the files: a row per type and size, with G items/s, GB/s, the share
of the GPU's peak DRAM bandwidth (2 x memory clock x bus width, from the file), the share of the
copy and the ratio to CUB. Where several files give the same type on the same device (runs one after
the other), each cell shows the lowest and highest of them ("93.7-94.1"). Exits 1 when a row of the
algorithm is missing or was not verified, 2 for a file that is not a bench table.
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--algorithm", default="decoupled-lookback")
    ap.add_argument("--sizes", help="comma-separated sizes to show (default: every size in the files)")
    a = ap.parse_args()
    # device -> type -> n -> list of (row, peak bytes/s)
    table = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
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
        for type_name in sorted(types, key=lambda t: TYPES.index(t) if t in TYPES else len(TYPES)):
            for n in sorted(types[type_name]):
                if wanted and n not in wanted:
                    continue
                runs = types[type_name][n]
                bad += sum(1 for row, _ in runs if not row["verified"])
                g = span([r["items_per_s"] / 1e9 for r, _ in runs], 1)
                gb = span([r["bytes_per_s"] / 1e9 for r, _ in runs], 0)
                pk = span([100 * r["bytes_per_s"] / p for r, p in runs], 1) if all(p > 0 for _, p in runs) else "-"
                cp = span([r["percent_of_copy"] for r, _ in runs], 1)
                cub = span([r["vs_cub"] for r, _ in runs], 2)
                print(f"| {type_name} | {size_name(n)} | {g} | {gb} | {pk} | {cp} | {cub}x |")
        print()
    if bad:
        print(f"bench-table: {bad} rows were not verified against the reference", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
