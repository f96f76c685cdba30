#!/usr/bin/env python3
"""WCAG 2.1 contrast measured from the window's pixels, in every theme: scanviz gui draws a lesson
under Xvfb, saves a screenshot and its layout report, and this test measures

- every diagram cell: its fill (and a race cell's hatch) against the border around it, 3:1 or more
  (1.4.11, non-text contrast), the border against the canvas, and the cell's text against its fill
  and hatch, 4.5:1 or more (1.4.3);
- every other mark of text in the window (panels, menus, labels, legend), found as glyphs on a plain
  background (tests/web/contrast.py): 4.5:1 or more against that background.

    tests/gui/test_contrast.py SCANVIZ OUT_DIR

Exits 77 (ctest's skip code) without xvfb-run.
"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "web"))
from contrast import glyphs, ratio, words  # noqa: E402
from page_images import read_png  # noqa: E402

THEMES = ("light", "dark", "high-contrast")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The default lesson, the race at the step of its hazards (hatched cells), and its last step (wrong
# outputs under the WRONG banner), with the View menu open over the panels; then the views that open
# over the lesson: the timing window on a bench table, and the kernel editor with the slides' racy
# kernel and its card (a WRONG in the status line too). The diagram's cells are measured where no
# view covers them (the last field).
LESSONS = (("default", "", "", True), ("race", "--algo kogge-stone-racy --step 2", "", True),
           ("wrong", "--algo kogge-stone-racy --step 4", "", True), ("menu", "", "click:60,11", True),
           ("timing", "--timing --bench " + os.path.join(ROOT, "assets", "examples", "bench-h200.json"), "", False),
           ("editor", "--kernel " + os.path.join(ROOT, "assets", "kernels", "pmpp_kogge_stone_incorrect.cu"), "k", True))
TEXT, CELL = 4.5, 3.0


def draw(scanviz, out, name, args, keys):
    png, report = os.path.join(out, name + ".png"), os.path.join(out, name + ".json")
    config = os.path.join(out, "config")
    os.makedirs(config, exist_ok=True)
    command = ["xvfb-run", "-a", "-s", "-screen 0 1920x1080x24", scanviz, "gui", "--frames", "8", "--size", "1280x800",
               "--screenshot", png, "--report-layout", report] + args.split()
    if keys:
        command += ["--keys", keys]
    run = subprocess.run(command, env={**os.environ, "XDG_CONFIG_HOME": config, "LIBGL_ALWAYS_SOFTWARE": "1"},
                         capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        sys.exit(f"test_contrast: scanviz {' '.join(command[5:])} failed: {run.stderr.strip()}")
    with open(png, "rb") as f:
        image = read_png(f.read())
    with open(report) as f:
        return image, json.load(f)


def colour(image, x, y):
    _, _, channels, rows = image
    return tuple(rows[y][x * channels:x * channels + 3])


def commonest(image, points, count=1):
    seen = {}
    for x, y in points:
        c = colour(image, x, y)
        seen[c] = seen.get(c, 0) + 1
    return [c for c, _ in sorted(seen.items(), key=lambda kv: -kv[1])[:count]]


def check_cells(image, report, where, failures):
    """Each cell's fill and hatch against its border, the border against the canvas, its text against both."""
    measured = []
    for canvas in report["canvases"]:
        a = canvas["area"]
        for cell in canvas["cells"]:
            x0, y0 = round(cell["x"]), round(cell["y"])
            x1, y1 = round(cell["x"] + cell["w"]) - 1, round(cell["y"] + cell["h"]) - 1
            if x1 - x0 < 8 or y1 - y0 < 8:
                continue
            inside = [(x, y) for y in range(y0 + 3, y1 - 2) for x in range(x0 + 3, x1 - 2)]
            fills = commonest(image, inside, 2 if cell["race"] else 1)
            border = commonest(image, [(x, y0) for x in range(x0 + 2, x1 - 1)] + [(x0, y) for y in range(y0 + 2, y1 - 1)])[0]
            outside = commonest(image, [(x, round(a["y"] + a["h"]) - 3) for x in range(round(a["x"]) + 2, round(a["x"] + a["w"]) - 2)])[0]
            name = f"{where}: cell {cell['text'] or cell['value'] or '(empty)'} (row {cell['row']}, column {cell['col']})"
            for fill in fills:
                measured.append(ratio(fill, border))
                if ratio(fill, border) < CELL:
                    failures.append(f"{name}: fill #{bytes(fill).hex()} against its border #{bytes(border).hex()} is "
                                    f"{ratio(fill, border):.2f}:1")
            if ratio(border, outside) < CELL:
                failures.append(f"{name}: border #{bytes(border).hex()} against the canvas #{bytes(outside).hex()} is "
                                f"{ratio(border, outside):.2f}:1")
            if cell["text"] and cell["text_w"] > 0:
                tx0 = round(cell["x"] + (cell["w"] - cell["text_w"]) / 2)
                ty0 = round(cell["y"] + (cell["h"] - cell["text_px"]) / 2)
                text = [(x, y) for y in range(max(ty0, y0 + 3), min(round(ty0 + cell["text_px"]), y1 - 2))
                        for x in range(max(tx0, x0 + 3), min(round(tx0 + cell["text_w"]), x1 - 2))]
                if not text:
                    continue
                ink = max((colour(image, x, y) for x, y in text), key=lambda c: ratio(c, fills[0]))
                for fill in fills:
                    if ratio(ink, fill) < TEXT:
                        failures.append(f"{name}: its text #{bytes(ink).hex()} on #{bytes(fill).hex()} is "
                                        f"{ratio(ink, fill):.2f}:1")
    return measured


def check_text(image, report, where, failures):
    """Every glyph outside the diagram's cells and the legend's swatches, against its background."""
    masks = []
    for canvas in report["canvases"]:
        c = canvas["cells_area"]
        masks.append((c["x"], c["y"], c["x"] + c["w"], c["y"] + c["h"]))
        for e in canvas["legend"]:
            masks.append((e["x"] - 2, e["y"] - 2, e["x"] + e["w"] + 2, e["y"] + e["h"] + 2))
    lowest = None
    for x0, y0, x1, y1, r, bg, ink in words(glyphs(image)):
        if any(x0 >= m[0] and x1 <= m[2] and y0 >= m[1] and y1 <= m[3] for m in masks):
            continue
        lowest = r if lowest is None else min(lowest, r)
        if r < TEXT:
            failures.append(f"{where}: text at ({x0}, {y0})-({x1}, {y1}), #{bytes(ink).hex()} on #{bytes(bg).hex()}, is {r:.2f}:1")
    return lowest


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    if not shutil.which("xvfb-run"):
        print("test_contrast: skipped: no xvfb-run")
        sys.exit(77)
    scanviz, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    failures = []
    for theme in THEMES:
        for name, args, keys, measure_cells in LESSONS:
            where = f"{theme}, {name}"
            image, report = draw(scanviz, out, f"{theme}-{name}", f"--theme {theme} {args}", keys)
            cells = check_cells(image, report, where, failures) if measure_cells else []
            lowest = check_text(image, report, where, failures)
            measured = f"{len(cells)} cell fills, the lowest {min(cells):.2f}:1 against their borders; " if cells else ""
            print(f"test_contrast: {where}: {measured}" + (f"the lowest text {lowest:.2f}:1" if lowest else "no text found"))
    for f in failures:
        print("test_contrast: FAILED: " + f)
    if failures:
        sys.exit(1)
    print("test_contrast: passed")


if __name__ == "__main__":
    main()
