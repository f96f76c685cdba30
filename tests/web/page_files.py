"""File > Export and Save trace in the page, clicked as a person does: the pictures and the trace
the browser downloads, read back (the SVG's cells, the PNG's pixels where the SVG puts them, the
GIF's frames, the trace's JSON)."""
import json
import math
import os
import shutil
import time
import xml.etree.ElementTree as ElementTree

from page_browser import click, console_lines, load, open_file_menu, press, save, screenshot, wait_frames
from page_common import HEIGHT, WIDTH, fail
from page_images import ACTIVE_FILL, close, count_cell_rows, gif_frames, hex_colour, pixel, read_png, svg_colour


def export_files(browser, url, folder):
    """Opens url, clicks File > Export step as PNG, as SVG, all steps as GIF, as PNG again, and Save
    trace, as a person does, and returns {extension: (file name, bytes)} for the files the browser
    downloaded into folder (under "again.png" the name the page gave the second PNG), and a
    screenshot after one more right arrow."""
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    allow_downloads(browser, folder)
    load(browser, url)
    files = {}
    # Save trace is the item above the three exports.
    for item, ext in ((0, ".png"), (1, ".svg"), (2, ".gif"), (0, "again.png"), (-1, ".json")):
        browser.evaluate("Module.lastDownload = null")
        click_file_item(browser, item)
        files[ext] = downloaded(browser, folder)
    # The pointer off the menu's place, where it rests on a control whose tooltip would cover the diagram.
    browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": WIDTH // 2, "y": HEIGHT - 120})
    press(browser, "ArrowRight", "ArrowRight", 39)
    return files, screenshot(browser)


# Dear ImGui's light style: a popup's 1-pixel border, black at 30 % over its white background.
MENU_BORDER = (0xB3, 0xB3, 0xB3)


def export_item(browser, item):
    """Where the open File menu's export item `item` (0 PNG, 1 SVG, 2 GIF) is: the middle of one of
    the last three lines of text above the popup's bottom border, so that items added above them
    move nothing here."""
    image = read_png(screenshot(browser))
    x0, x1 = 10, 200
    bottom = next((y for y in range(40, image[1])
                   if all(close(pixel(image, x, y), MENU_BORDER, 12) for x in range(x0, x1))), None)
    if bottom is None:
        fail("File menu: no bottom border under its items in the screenshot")
    inked = [any(max(pixel(image, x, y)) < 100 for x in range(x0, x1)) for y in range(bottom + 1)]
    starts = [y for y in range(25, bottom) if inked[y] and not inked[y - 1]]
    ends = [y for y in range(25, bottom) if inked[y] and not inked[y + 1]]
    if len(starts) < 3 or len(starts) != len(ends):
        fail(f"File menu: {len(starts)} line(s) of text above its bottom border at y = {bottom}, not its items")
    line = -3 + item
    if len(starts) < -line:
        fail(f"File menu: {len(starts)} line(s) of text above its bottom border, no item {line} from the end")
    return x0 + 30, (starts[line] + ends[line]) // 2


def click_file_item(browser, item):
    """Opens the File menu and clicks its item `item`, counted as export_item counts them (-1 Save
    trace, -2 Save kernel where a kernel is in the editor), as a person does."""
    open_file_menu(browser)
    x, y = export_item(browser, item)
    browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
    wait_frames(browser, browser.evaluate("Module.frames") + 3, time.monotonic() + 10)
    click(browser, x, y)


def allow_downloads(browser, folder):
    """Lets the browser save downloads into folder (a setting of the browser, not the page)."""
    session, browser.session = browser.session, None
    browser.send("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": os.path.abspath(folder)})
    browser.session = session


def downloaded(browser, folder):
    """The file the page last handed to the browser, once the browser has saved it whole; then
    removed, so that a later download of the same name is not taken for this one."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        last = browser.evaluate("Module.lastDownload")
        if last and os.path.isfile(path := os.path.join(folder, last["name"])) and os.path.getsize(path) == last["size"]:
            with open(path, "rb") as f:
                data = f.read()
            os.remove(path)
            return last["name"], data
        time.sleep(0.1)
    fail("File > Export: the browser saved no file in 30 s; the page's last download: " +
         str(browser.evaluate("Module.lastDownload")) + "; it said:\n  " + "\n  ".join(console_lines(browser.events)[-5:]))


def check_exports(files, after):
    """The default lesson at step 2 exported from the page: the SVG's cells are the slide's (rows 0..2
    of 8 cells, threads 2..7 active at stride 2), the PNG is the diagram (as wide as the SVG, its
    cells' pixels in the SVG's colours where the SVG puts them), the GIF has one frame a step; and
    the window, whose WebGL context drew the PNG and GIF offscreen, still draws: step 3's four rows
    after the right arrow."""
    names = {ext: name for ext, (name, _) in files.items()}
    # The page removes its copy once downloaded: the second PNG gets the same name, not a numbered one.
    expected = {".png": "kogge-stone-double-buffer-n8-step2.png", ".svg": "kogge-stone-double-buffer-n8-step2.svg",
                ".gif": "kogge-stone-double-buffer-n8.gif", "again.png": "kogge-stone-double-buffer-n8-step2.png",
                ".json": "kogge-stone-double-buffer-n8.json"}
    if names != expected:
        fail(f"File > Export and Save trace downloaded {names}, not {expected}")
    try:
        trace = json.loads(files[".json"][1])
    except ValueError as e:
        fail(f"File > Save trace: not JSON ({e})")
    if trace.get("format") != "scanviz-trace" or trace.get("meta", {}).get("n") != 8 or len(trace.get("steps", [])) != 5:
        fail(f"File > Save trace: not the lesson's trace (format {trace.get('format')}, n {trace.get('meta', {}).get('n')}, "
             f"{len(trace.get('steps', []))} steps, not 5)")
    try:
        svg = ElementTree.fromstring(files[".svg"][1])
    except ElementTree.ParseError as e:
        fail(f"File > Export step as SVG: not XML ({e})")
    ns = "{http://www.w3.org/2000/svg}"
    cells = [(int(g.get("data-row")), int(g.get("data-column")), g.find(ns + "rect"))
             for g in svg.iter(ns + "g") if "cell" in g.get("class", "").split()]
    if sorted((r, c) for r, c, _ in cells) != [(r, c) for r in range(3) for c in range(8)]:
        fail(f"File > Export step as SVG: cells at {sorted((r, c) for r, c, _ in cells)}, not rows 0..2 of 8")
    active = {c for r, c, rect in cells if r == 2 and rect.get("fill") == svg_colour(ACTIVE_FILL)}
    if active != set(range(2, 8)):
        fail(f"File > Export step as SVG: row 2's active cells are columns {sorted(active)}, not 2..7 (stride 2)")
    png = files[".png"][1]
    if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
        fail(f"File > Export step as PNG: the file starts {png[:16]!r}, not a PNG's signature and IHDR")
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    svg_width, svg_height = float(svg.get("width")), float(svg.get("height"))
    # The two legends measure their text apart (the PNG with the window's font): heights agree to 10 px.
    if width != math.ceil(svg_width) or abs(height - svg_height) > 10:
        fail(f"File > Export step as PNG: {width}x{height} pixels, not the SVG's diagram ({svg_width}x{svg_height})")
    image = read_png(png)
    title = float(svg.find(ns + "g[@transform]").get("transform").split(",")[1].rstrip(")"))
    for r, c, rect in cells:
        x, y = int(float(rect.get("x"))) + 4, int(float(rect.get("y")) + title) + 4
        if not close(pixel(image, x, y), hex_colour(rect.get("fill")), 12):
            fail(f"File > Export step as PNG: cell ({r}, {c}) at ({x}, {y}) is {pixel(image, x, y)}, "
                 f"not its fill {rect.get('fill')}")
    gif = files[".gif"][1]
    frames = gif_frames(gif)
    if frames != 5:
        fail(f"File > Export all steps as GIF: {frames} frame(s), not 5 (the load, strides 1, 2 and 4, the store)")
    gif_width, gif_height = int.from_bytes(gif[6:8], "little"), int.from_bytes(gif[8:10], "little")
    if gif_width < width or gif_height <= height:
        fail(f"File > Export all steps as GIF: {gif_width}x{gif_height} pixels, not as wide as step 2's PNG "
             f"({width}x{height}) and taller: its frames end at the last step's five rows, the PNG at three")
    if (rows := count_cell_rows(read_png(after))) != 4:
        fail(f"after File > Export and the right arrow the window shows {rows} row(s) of cells, not step 3's 4")
    print(f"page_test: File > Export downloaded {width}x{height} {names['.png']} (the SVG's cells in its pixels), "
          f"{names['.svg']} ({len(cells)} cells) and {names['.gif']} ({frames} frames)")


def exports(browser, url, out):
    """File > Export, clicked as a person does: the browser downloads each picture."""
    files, exported_shot = export_files(browser, url + "?step=2", os.path.join(out, "downloads"))
    save(exported_shot, os.path.join(out, "web-exported.png"))
    check_exports(files, exported_shot)
