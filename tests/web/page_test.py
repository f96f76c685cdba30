#!/usr/bin/env python3
"""The web build in a real browser: serves the site folder from a local HTTP server, opens it in
headless Chromium (driven over the DevTools protocol on a pipe, no other package needed), waits for
the window's first frame, takes a screenshot and checks its pixels, then presses the right arrow
twice and checks that the diagram shows the two steps more and that the address says step=2 (and
opens there); clicks File > Copy link and checks the link; presses Space and checks that the step
moves on; opens links to the charts with a schedule, measures frame times (requestAnimationFrame)
for the default lesson and n = 1024; opens links to a step, to the race, to
the look-back view, to a trace recorded on an H100 and to a bench table measured on an H200 (fetched
by the page) and checks each; drops the same two files on the window and checks that they open;
rests the pointer on a hazard cell and checks that its tooltip opens;
resizes the page and checks that the window follows; and opens links with a bad value and a missing
trace and checks the page's line about each; clicks File > Export (PNG, SVG, GIF) and checks
the files the browser downloads.

    tests/web/page_test.py SITE_DIR OUT_DIR

Exits 77 (ctest's skip code) with one line saying why when the site or the browser is missing.
"""
import base64
import functools
import http.server
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ElementTree
import zlib

SKIP = 77
WIDTH, HEIGHT = 1280, 800


def skip(why):
    print(f"page_test: skipped: {why}")
    sys.exit(SKIP)


def fail(why):
    print(f"page_test: FAILED: {why}")
    sys.exit(1)


# ---- a PNG reader for the screenshots (8-bit RGB or RGBA, not interlaced) ----

def read_png(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height = int.from_bytes(body[0:4], "big"), int.from_bytes(body[4:8], "big")
            depth, color, interlace = body[8], body[9], body[12]
            if depth != 8 or color not in (2, 6) or interlace:
                raise ValueError(f"unsupported PNG (depth {depth}, colour type {color}, interlace {interlace})")
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        kind, row = line[0], bytearray(line[1:])
        for x in range(stride):
            a = row[x - channels] if x >= channels else 0
            b = previous[x]
            c = previous[x - channels] if x >= channels else 0
            if kind == 1:
                row[x] = (row[x] + a) & 255
            elif kind == 2:
                row[x] = (row[x] + b) & 255
            elif kind == 3:
                row[x] = (row[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[x] = (row[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(row)
        previous = row
    return width, height, channels, rows


def pixel(image, x, y):
    _, _, channels, rows = image
    return tuple(rows[y][x * channels:x * channels + 3])


def count_colour(image, box, rgb, tolerance=6):
    """Pixels inside box (x0, y0, x1, y1) within tolerance of rgb in every channel."""
    x0, y0, x1, y1 = box
    n = 0
    for y in range(y0, y1):
        for x in range(x0, x1):
            p = pixel(image, x, y)
            n += all(abs(p[i] - rgb[i]) <= tolerance for i in range(3))
    return n


# ---- the local server and the browser ----

def serve(site):
    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm"}

        def log_message(self, *args):
            pass

    handler = functools.partial(Handler, directory=site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class Browser:
    """Headless Chromium over --remote-debugging-pipe: JSON messages ending in NUL on fds 3 and 4."""

    def __init__(self, executable, profile):
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()

        def child_fds():
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        args = [executable, "--headless", "--remote-debugging-pipe", f"--user-data-dir={profile}", "--no-first-run",
                f"--window-size={WIDTH},{HEIGHT}", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
                "--ignore-gpu-blocklist", "about:blank"]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # Chromium refuses to run its sandbox as root (CI containers)
        # The pipes' own fds close at exec (Python makes them close-on-exec); the copies on 3 and 4 stay.
        self.process = subprocess.Popen(args, preexec_fn=child_fds, close_fds=False,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer, self.next_id, self.events = b"", 0, []
        self.session = None

    def send(self, method, params=None, timeout=30):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session and not method.startswith("Target."):
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            reply = self.receive()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)
        raise TimeoutError(f"{method}: no answer in {timeout} s")

    def receive(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("the browser closed its pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        return result.get("result", {}).get("value")

    def close(self):
        try:
            self.session = None
            self.send("Browser.close", timeout=5)
        except (OSError, RuntimeError, TimeoutError):
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def console_lines(events):
    lines = []
    for e in events:
        if e.get("method") == "Runtime.consoleAPICalled":
            lines.append(" ".join(str(a.get("value", a.get("description", ""))) for a in e["params"]["args"]))
        elif e.get("method") == "Runtime.exceptionThrown":
            lines.append("exception: " + e["params"]["exceptionDetails"].get("exception", {}).get("description", ""))
    return lines


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    site, out = sys.argv[1], sys.argv[2]
    if not os.path.isfile(os.path.join(site, "index.html")):
        skip(f"no web build in {site} (scripts/web.sh makes it)")
    executable = shutil.which("chromium-headless-shell") or shutil.which("chromium")
    if not executable:
        skip("no headless Chromium (Debian: chromium-headless-shell)")
    os.makedirs(out, exist_ok=True)

    server = serve(site)
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    # Chromium's helper processes may still write the profile as it closes.
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        browser = Browser(executable, profile)
        try:
            target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
            browser.session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            browser.send("Runtime.enable")
            browser.send("Page.enable")
            browser.send("Emulation.setDeviceMetricsOverride",
                         {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False,
                          "screenWidth": 1920, "screenHeight": 1080})
            deadline = time.monotonic() + 60
            shot, first_frame_ms = load(browser, url)
            # The right arrow twice, as a person presses it: the timeline moves to step 2.
            # Each key is held for about a frame: Dear ImGui sees a press only when a frame finds the key
            # down, and a key held longer than its repeat delay (0.275 s) counts again.
            for _ in range(2):
                press(browser, "ArrowRight", "ArrowRight", 39)
            stepped = screenshot(browser)
            # The address follows the window (history.replaceState): it names step 2 now, and opens there.
            stepped_search = browser.evaluate("location.search")
            stepped_again, _ = load(browser, browser.evaluate("location.href"))
            # Space plays: the step the address names moves on by itself.
            playing_steps = play_steps(browser, deadline)
            # File > Copy link: the clipboard has it, or (headless Chromium grants no clipboard) the
            # page's link box shows it.
            copied = copy_link(browser)
            copied_search = browser.evaluate("location.search")
            copied_shot = screenshot(browser)
            # A link that names a lesson and a step opens there.
            linked, _ = load(browser, url + "?algo=kogge-stone-double-buffer&n=8&step=2")
            # A warp-level lesson on a block narrower than its warp of 4: the warp narrows to the
            # block (this link stopped the page: "warp width 4 exceeds the block").
            load(browser, url + "?algo=warp-raking&n=2")
            # The race, side by side with the double-buffered kernel, and the look-back view.
            race, _ = load(browser, url + "?algo=kogge-stone-racy&n=40&side=1&step=3")
            lookback, _ = load(browser, url + "?lookback=fig6")
            lookback_search = browser.evaluate("location.search")
            # The charts window and an emulator schedule, named by the link, are what the window then
            # shows: the address, which the window writes from its state, names them back.
            charts, _ = load(browser, url + "?charts=1&schedule=random:5")
            charts_search = browser.evaluate("location.search")
            said_schedule = page_line(browser, url + "?schedule=sideways")
            # The lesson's type, exclusive scan, typed input and scan kind: the address names them back.
            lesson_searches = []
            for query in ("?algo=brent-kung&op=max&type=int64&exclusive=1&input=5,1,4,2",
                          "?scan=segmented:0.5&input=random:3", "?bench=examples/bench-h200.json&divergence=1"):
                load(browser, url + query)
                lesson_searches.append(browser.evaluate("location.search"))
            # Frame times as the browser paces them (requestAnimationFrame), for docs/performance.md.
            frame_times = {}
            for name, query in (("default lesson", ""), ("kogge-stone-double-buffer n=1024",
                                                         "?algo=kogge-stone-double-buffer&n=1024")):
                load(browser, url + query)
                frame_times[name] = (animation_frame_ms(browser, 120), browser.evaluate("Module.frameWorkMs.slice(-120)"))
            # A trace recorded on an H100, fetched by the page: the look-back view opens on it.
            traced, _ = load(browser, url + "?trace=examples/pipelined-h100.json")
            # A bench table measured on an H200, beside the page: the timing window shows it.
            benched, _ = load(browser, url + "?bench=examples/bench-h200.json")
            # The same files dropped on the window, as from a file manager, open the same way.
            plain, _ = load(browser, url)
            dropped_bench = drop_file(browser, os.path.join(site, "examples", "bench-h200.json"))
            load(browser, url)
            dropped_trace = drop_file(browser, os.path.join(site, "examples", "pipelined-h100.json"))
            # The browser window made smaller, then larger: the window follows the page.
            load(browser, url)
            resized = {(900, 640): resize(browser, 900, 640, screen=(1920, 1080)),
                       (1600, 1000): resize(browser, 1600, 1000)}
            resize(browser, WIDTH, HEIGHT, screen=(1920, 1080))
            # The pointer resting on a hazard cell of the race (warps of 32, as on a GPU) opens its tooltip.
            hazard_before, _ = load(browser, url + "?algo=kogge-stone-racy&n=64&warp=32&step=1")
            pointer = first_colour(read_png(hazard_before), HAZARD)
            hazard_after = hover(browser, *pointer) if pointer else hazard_before
            # Typed input on the interval lesson: the slides' numbers are no intervals, so the panel says
            # so and keeps the lesson; the address keeps naming the lesson on screen, not the refused one.
            load(browser, url)
            refused_before = browser.evaluate("location.search")
            for x, y in ((100, 331), (30, 398)):  # the input combo, then its "typed" item (1280x800)
                browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
                click(browser, x, y)
            refused_after = browser.evaluate("location.search")
            refused_shot = screenshot(browser)
            # Lecture mode, by a link and by its key L: the page asks the browser for fullscreen (granted
            # or not) and goes on drawing the lesson.
            lecture, _ = load(browser, url + "?lecture=1")
            # The browser refuses the link's fullscreen (no key pressed yet): the first F asks again.
            press(browser, "f", "KeyF", 70)
            time.sleep(0.3)
            lecture_f_fullscreen = browser.evaluate("document.fullscreenElement !== null")
            press(browser, "f", "KeyF", 70)
            load(browser, url)
            press(browser, "l", "KeyL", 76)
            lecture_key = screenshot(browser)
            lecture_said = browser.evaluate("document.getElementById('status').style.display == 'block' ? "
                                            "document.getElementById('status').textContent : ''")
            # Links the window cannot use say so on the page, in one line.
            said = page_line(browser, url + "?n=eight")
            said_n = [page_line(browser, url + query) for query in ("?n=0", "?n=99999999999")]
            said_missing = page_line(browser, url + "?trace=examples/none.json")
            # File > Export, clicked as a person does: the browser downloads each picture.
            exports, exported_shot = export_files(browser, url + "?step=2", os.path.join(out, "downloads"))
        finally:
            browser.close()
            server.shutdown()
    print(f"page_test: first frame {first_frame_ms:.0f} ms after navigation")
    save(shot, os.path.join(out, "web-default.png"))
    save(stepped, os.path.join(out, "web-step2.png"))
    save(linked, os.path.join(out, "web-link-step2.png"))
    save(race, os.path.join(out, "web-race.png"))
    save(lookback, os.path.join(out, "web-lookback.png"))
    save(traced, os.path.join(out, "web-trace-h100.png"))
    save(charts, os.path.join(out, "web-charts.png"))
    save(copied_shot, os.path.join(out, "web-copy-link.png"))
    save(benched, os.path.join(out, "web-bench-h200.png"))
    save(dropped_bench, os.path.join(out, "web-drop-bench.png"))
    save(dropped_trace, os.path.join(out, "web-drop-trace.png"))
    for (w, h), (shot_resized, _) in resized.items():
        save(shot_resized, os.path.join(out, f"web-resized-{w}x{h}.png"))
    image = read_png(shot)
    check_default_lesson(image)
    rows_before, rows_after = count_cell_rows(image), count_cell_rows(read_png(stepped))
    if (rows_before, rows_after) != (1, 3):
        fail(f"the diagram shows {rows_before} row(s) of cells at the start and {rows_after} after the right arrow "
             "twice, not 1 and 3 (the load, then a row a step)")
    print("page_test: two presses of the right arrow drew the rows of steps 1 and 2")
    if "step=2" not in stepped_search.split("&") and f"?step=2" not in stepped_search:
        fail(f"after the right arrow twice the address says '{stepped_search}', not step=2")
    if count_cell_rows(read_png(stepped_again)) != 3:
        fail(f"the address after two steps ({stepped_search}) opens with {count_cell_rows(read_png(stepped_again))} "
             "row(s) of cells, not 3")
    print(f"page_test: the address follows the window ({stepped_search}) and opens there again")
    copied_link, shown_link = copied
    if not copied_link or not copied_link.endswith(copied_search) or "step=" not in copied_search:
        fail(f"File > Copy link copied '{copied_link}', not the page's address with its step ('{copied_search}')")
    print(f"page_test: File > Copy link copied {copied_link}" +
          (" (no clipboard here: the page's link box shows it)" if shown_link == copied_link else ""))
    if len(set(playing_steps)) < 2:
        fail(f"after Space the address's step stays at {playing_steps[0]}: the timeline does not play")
    print(f"page_test: Space plays: the step went {' -> '.join(map(str, playing_steps))}")
    if count_cell_rows(read_png(linked)) != 3:
        fail(f"the link to step 2 shows {count_cell_rows(read_png(linked))} row(s) of cells, not 3")
    print("page_test: the link to step 2 opened there")
    check_views(image, read_png(race), read_png(lookback))
    if "lookback=fig6" not in lookback_search:
        fail(f"with the look-back view open the address says '{lookback_search}', not lookback=fig6")
    if "charts=1" not in charts_search or "schedule=random%3A5" not in charts_search:
        fail(f"the link with charts=1 and schedule=random:5 leaves the address '{charts_search}': the window did not "
             "open the charts or take the schedule")
    check_charts(image, read_png(charts))
    print(f"page_test: the links to the charts and a schedule open them ({charts_search})")
    if said_schedule != "scanviz: --schedule: unknown schedule 'sideways' (in-order, reverse, round-robin, random[:SEED])":
        fail(f"the page with ?schedule=sideways says '{said_schedule}', not that the schedule is unknown")
    for search, keys in zip(lesson_searches, (("type=int64", "exclusive=1", "input=5%2C1%2C4%2C2", "op=max"),
                                              ("scan=segmented%3A0.5", "input=random%3A3"),
                                              ("bench=examples%2Fbench-h200.json", "divergence=1"))):
        if not all(key in search.lstrip("?").split("&") for key in keys):
            fail(f"a link naming {', '.join(keys)} leaves the address '{search}': the window did not take them all")
    print(f"page_test: links with the type, exclusive scan, input and scan open that lesson ({lesson_searches[0]}); "
          f"the bench table and divergence window stay in the address ({lesson_searches[2]})")
    for name, (interval, work) in frame_times.items():
        print(f"page_test: {name}: frame interval {percentiles(interval)}; the window's work a frame {percentiles(work)}")
    if said != "scanviz: link: n=eight is not a whole number":
        fail(f"the page with ?n=eight says '{said}', not that n is not a whole number")
    print(f"page_test: a bad link says '{said}'")
    if said_n != ["scanviz: link: n=0 must be at least 1", "scanviz: link: n=99999999999 is too large"]:
        fail(f"the pages with ?n=0 and ?n=99999999999 say {said_n}, not that n must be at least 1 and is too large")
    traced_image = read_png(traced)
    for name, rgb in (("P", FLAG_P), ("A", FLAG_A)):
        if colour_in_diagram(traced_image, rgb) < 500:
            fail(f"the H100 trace's look-back view shows no tile flagged {name}")
    print("page_test: the H100 trace fetched by the link opens in the look-back view")
    check_bench(read_png(plain), read_png(benched), "the link ?bench=examples/bench-h200.json")
    check_bench(read_png(plain), read_png(dropped_bench), "bench-h200.json dropped on the window")
    dropped_image = read_png(dropped_trace)
    for name, rgb in (("P", FLAG_P), ("A", FLAG_A)):
        if colour_in_diagram(dropped_image, rgb) < 500:
            fail(f"pipelined-h100.json dropped on the window shows no tile flagged {name} in the look-back view")
    print("page_test: the H100 trace dropped on the window opens in the look-back view")
    for (w, h), (shot_resized, canvas) in resized.items():
        check_default_lesson(read_png(shot_resized), (w, h), wide=True)
        if canvas != [w, h]:
            fail(f"with the page at {w}x{h} the window's canvas is {canvas[0]}x{canvas[1]}")
    print("page_test: the window follows the page's size: " +
          ", ".join(f"{w}x{h}" for w, h in resized) + " (as large as its screen: a browser in fullscreen), "
          "the default lesson's row of 8 cells in the middle of each")
    save(hazard_after, os.path.join(out, "web-hazard-tooltip.png"))
    save(refused_shot, os.path.join(out, "web-refused-input.png"))
    if refused_after != refused_before:
        fail(f"after typed input the panel refused, the address says '{refused_after}', not the lesson on screen "
             f"('{refused_before}'): a copied link would open on an error")
    print("page_test: controls the lesson refuses leave the address on the lesson shown")
    save(lecture, os.path.join(out, "web-lecture.png"))
    save(lecture_key, os.path.join(out, "web-lecture-key.png"))
    if lecture_said:
        fail(f"lecture mode stopped the page: '{lecture_said}'")
    if not lecture_f_fullscreen:
        fail("after a lecture=1 link the first F did not make the page fullscreen")
    for how, shot_lecture in (("the link lecture=1", lecture), ("the key L", lecture_key)):
        check_lecture(read_png(shot_lecture), how)
    check_tooltip(read_png(hazard_before), read_png(hazard_after), pointer)
    if said_missing != "scanviz: link: cannot fetch examples/none.json":
        fail(f"the page with a missing trace says '{said_missing}', not that it cannot fetch it")
    print(f"page_test: a link to a missing trace says '{said_missing}'")
    save(exported_shot, os.path.join(out, "web-exported.png"))
    check_exports(exports, exported_shot)
    print("page_test: passed")


def load(browser, url):
    """Opens url, waits for the window's first frame and a few more (the window lays its panels
    out over the first frames), and returns a screenshot and when the first frame was drawn (ms)."""
    browser.events.clear()
    browser.send("Page.navigate", {"url": url})
    first_frame_ms, deadline, stopped = None, time.monotonic() + 60, False
    while first_frame_ms is None and not stopped and time.monotonic() < deadline:
        time.sleep(0.1)
        first_frame_ms = browser.evaluate("window.Module && Module.firstFrameMs")
        stopped = any(e.get("method") == "Runtime.exceptionThrown" for e in browser.events)
    if first_frame_ms is None:
        fail(f"{url}: " + ("the page stopped" if stopped else "no frame in 60 s") + "; it said:\n  " +
             "\n  ".join(console_lines(browser.events)[-20:]))
    wait_frames(browser, 10, deadline)
    return screenshot(browser), first_frame_ms


def page_line(browser, url):
    """Opens url and returns the program's line on the page ("" when none comes in 30 s)."""
    browser.send("Page.navigate", {"url": url})
    said, deadline = "", time.monotonic() + 30
    while "scanviz:" not in said and time.monotonic() < deadline:
        time.sleep(0.1)
        said = browser.evaluate("document.getElementById('status').textContent") or ""
    return said


def press(browser, key, code, keycode):
    """A key pressed as a person does: down until a frame has seen it (Dear ImGui sees a press only
    when a frame finds the key down), then up, before its repeat delay (0.275 s) even where frames
    are slow: a second frame with the key still down may count it again."""
    for kind, frames in (("rawKeyDown", 1), ("keyUp", 2)):
        browser.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": code,
                                                "windowsVirtualKeyCode": keycode, "nativeVirtualKeyCode": keycode})
        wait_frames(browser, browser.evaluate("Module.frames") + frames, time.monotonic() + 10)


def click(browser, x, y):
    for kind in ("mousePressed", "mouseReleased"):
        browser.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})
        wait_frames(browser, browser.evaluate("Module.frames") + 3, time.monotonic() + 10)


def copy_link(browser):
    """Clicks File, then its first item (Copy link), and returns the link the page copied or shows."""
    open_file_menu(browser)
    browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 40, "y": 36})
    wait_frames(browser, browser.evaluate("Module.frames") + 3, time.monotonic() + 10)
    click(browser, 40, 36)
    time.sleep(0.5)  # the clipboard answers (or refuses) asynchronously
    return browser.evaluate("[Module.copiedLink, document.getElementById('link').style.display == 'block' ? "
                            "document.getElementById('link').value : '']")


def drop_file(browser, path):
    """Drops the file at `path` on the window as a file manager does (a drop event on the canvas,
    carrying the file), waits for the page to read it and the window to open it; a screenshot."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    name = os.path.basename(path)
    browser.evaluate("(function() { var files = new DataTransfer();"
                     f" files.items.add(new File([{json.dumps(text)}], {json.dumps(name)}, {{type: 'application/json'}}));"
                     " Module.canvas.dispatchEvent(new DragEvent('drop', {dataTransfer: files, bubbles: true, cancelable: true}));"
                     " })()")
    wait_frames(browser, browser.evaluate("Module.frames") + 10, time.monotonic() + 20)
    return screenshot(browser)


def resize(browser, width, height, screen=None):
    """Makes the page width x height, as a reader resizing the browser does, on a screen of that size
    or `screen` (width, height); returns a screenshot after a few frames and the window's canvas
    size then. A page as large as its screen is a browser in fullscreen (F11, as in a lecture)."""
    screen_width, screen_height = screen or (width, height)
    browser.send("Emulation.setDeviceMetricsOverride",
                 {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False,
                  "screenWidth": screen_width, "screenHeight": screen_height})
    wait_frames(browser, browser.evaluate("Module.frames") + 10, time.monotonic() + 20)
    return screenshot(browser), browser.evaluate("[Module.canvas.width, Module.canvas.height]")


def hover(browser, x, y):
    """Rests the pointer at (x, y) for a few frames; a screenshot."""
    browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
    wait_frames(browser, browser.evaluate("Module.frames") + 6, time.monotonic() + 10)
    return screenshot(browser)


def first_colour(image, rgb):
    """A point a few pixels into the first cell of colour rgb in the diagram, top to bottom; None
    when there is none."""
    x0, x1, y0, y1 = diagram_box(image)
    for y in range(y0, y1):
        for x in range(x0, x1):
            if close(pixel(image, x, y), rgb, 3):
                return x + 5, y + 5
    return None


def check_lecture(image, how):
    """Lecture mode: the diagram across the window, no lesson panel on the left. The default lesson's
    row of 8 cells starts left of where the lesson panel would end, in cells at least twice the
    width of the window's 8-cell row (the text twice the size)."""
    width, height = image[0], image[1]
    y0, y1 = int(0.05 * height), int(0.6 * height)
    top = next((y for y in range(y0, y1) if sum(close(pixel(image, x, y), CELL_BORDER) for x in range(width)) >= 8 * 60), None)
    if top is None:
        fail(f"{how}: no row of 8 wide cells across the window: lecture mode does not draw the diagram large")
    first = next(x for x in range(width) if close(pixel(image, x, top), CELL_BORDER))
    if first > int(0.24 * width):
        fail(f"{how}: the diagram's row starts at x = {first}, right of the lesson panel's place: not lecture mode")
    print(f"page_test: {how} opens lecture mode (the row of cells from x = {first}, the page still drawing)")


def check_tooltip(before, after, pointer):
    """Below and right of the pointer, resting on a hazard cell, the tooltip's lines appear: the
    hazard's description in the hazard red, where the diagram had little of it."""
    if pointer is None:
        fail("the race at n = 64 with warps of 32 shows no hazard cell to point at")
    x, y = pointer
    box = (x + 8, y + 12, min(x + 700, after[0]), min(y + 200, after[1]))
    red_before, red_after = count_colour(before, box, HAZARD, 12), count_colour(after, box, HAZARD, 12)
    changed = sum(pixel(before, px, py) != pixel(after, px, py) for py in range(box[1], box[3]) for px in range(box[0], box[2]))
    if red_after <= red_before + 40 or changed <= 2000:
        fail(f"the pointer on the hazard cell at ({x}, {y}) opens no tooltip: {changed} pixels changed under it, "
             f"{red_after - red_before} more in the hazard red")
    print(f"page_test: the pointer on a hazard cell opens its tooltip ({changed} pixels changed, the hazard named in red)")


def address_step(browser):
    search = browser.evaluate("location.search") or ""
    return next((int(p[5:]) for p in search.lstrip("?").split("&") if p.startswith("step=")), None)


def play_steps(browser, deadline):
    """Presses Space and returns the steps the address names over the next seconds (until it has
    moved twice), then Space again to stop."""
    steps = [address_step(browser)]
    press(browser, " ", "Space", 32)
    until = min(deadline, time.monotonic() + 8)
    while time.monotonic() < until and len(set(steps)) < 3:
        time.sleep(0.1)
        if (step := address_step(browser)) != steps[-1]:
            steps.append(step)
    press(browser, " ", "Space", 32)
    return steps


def animation_frame_ms(browser, frames):
    """The times between `frames` + 1 successive requestAnimationFrame callbacks, in ms."""
    script = ("new Promise(function(done) { var times = [], last = null; function tick(now) {"
              " if (last !== null) times.push(now - last); last = now;"
              f" if (times.length < {frames}) requestAnimationFrame(tick); else done(times); }}"
              " requestAnimationFrame(tick); })")
    result = browser.send("Runtime.evaluate", {"expression": script, "awaitPromise": True, "returnByValue": True},
                          timeout=120)
    return result["result"]["value"]


def percentiles(ms):
    ms = sorted(ms)
    return f"median {ms[len(ms) // 2]:.1f} ms, 99th percentile {ms[min(len(ms) - 1, int(0.99 * len(ms)))]:.1f} ms ({len(ms)} frames)"


def wait_frames(browser, frames, deadline):
    while browser.evaluate("Module.frames") < frames and time.monotonic() < deadline:
        time.sleep(0.05)


def screenshot(browser):
    return base64.b64decode(browser.send("Page.captureScreenshot", {"format": "png"})["data"])


def save(png, path):
    with open(path, "wb") as f:
        f.write(png)
    print(f"page_test: screenshot {path}")


# The light theme's cell fill and border (gui/diagram_model.cpp palette_light), which a page with no
# saved settings shows.
CELL_FILL, CELL_BORDER = (0xF8, 0xF9, 0xFA), (0x49, 0x50, 0x57)


def close(p, rgb, tolerance=6):
    return all(abs(p[i] - rgb[i]) <= tolerance for i in range(3))


def diagram_box(image):
    """The middle of the window, where the diagram is: (x0, x1, y0, y1)."""
    width, height = image[0], image[1]
    return int(0.25 * width), int(0.70 * width), int(0.05 * height), int(0.92 * height)


# The legend's strip under the cells (one line of 13 px text and its margins), in page pixels.
LEGEND_STRIP = 40


def count_cell_rows(image):
    """Rows of cells in the diagram: bands of lines that cross at least 9 cell borders (8 cells),
    above the legend's strip at the diagram's foot (its text has border-grey strokes too)."""
    x0, x1, y0, y1 = diagram_box(image)
    y1 -= LEGEND_STRIP
    rows, inside = 0, False
    for y in range(y0, y1):
        borders, x = 0, x0
        while x < x1:
            if close(pixel(image, x, y), CELL_BORDER):
                end = x
                while end < x1 and close(pixel(image, end, y), CELL_BORDER):
                    end += 1
                borders += end - x <= 3  # a vertical border, not a horizontal one
                x = end
            else:
                x += 1
        crossing = borders >= 9
        rows += crossing and not inside
        inside = crossing
    return rows


# The hazard colour (palette_light's cell_hazard) and the look-back view's flags P and A (the light
# LookbackPalette in gui/lookback_scene.cpp).
HAZARD, FLAG_P, FLAG_A = (0xE0, 0x31, 0x31), (0x2E, 0x9E, 0x44), (0xF2, 0xA9, 0x00)


def colour_in_diagram(image, rgb):
    x0, x1, y0, y1 = diagram_box(image)
    return count_colour(image, (x0, y0, x1, y1), rgb)


def check_views(default, race, lookback):
    """The racy kernel's hazards are red where the default lesson has none; the look-back view shows
    tiles flagged P (inclusive prefix) and A (aggregate)."""
    if colour_in_diagram(default, HAZARD) != 0:
        fail("the default lesson, which has no race, shows the hazard colour")
    if colour_in_diagram(race, HAZARD) < 2000:
        fail(f"the race shows {colour_in_diagram(race, HAZARD)} pixels of the hazard colour, not a row of hazard cells")
    for name, rgb in (("P", FLAG_P), ("A", FLAG_A)):
        if colour_in_diagram(lookback, rgb) < 500:
            fail(f"the look-back view shows no tile flagged {name}")
    print("page_test: the race shows its hazards; the look-back view its P and A tiles")


# The charts window's background (Dear ImGui's light window colour) and the colour of Blelloch's
# markers and dashed closed form in its charts.
CHART_WINDOW, CHART_BLELLOCH = (0xF0, 0xF0, 0xF0), (0x16, 0xA2, 0x7C)


def check_charts(default, charts):
    """The charts window covers most of the diagram, and its charts draw Blelloch's series, which the
    default lesson's window shows nowhere."""
    x0, x1, y0, y1 = diagram_box(charts)
    covered = colour_in_diagram(charts, CHART_WINDOW) / ((x1 - x0) * (y1 - y0))
    if covered < 0.4:
        fail(f"with charts=1 the charts window's background covers {covered:.0%} of the diagram, not most of it")
    whole = (0, 0, charts[0], charts[1])
    if count_colour(charts, whole, CHART_BLELLOCH) < 20 or count_colour(default, whole, CHART_BLELLOCH) != 0:
        fail("with charts=1 the window shows no series in Blelloch's colour (or the default lesson shows one too)")


# The timing window's chart: decoupled look-back's and CUB's series (app/chart.cpp algorithm_look).
CHART_LOOKBACK, CHART_CUB = (0xEE, 0x66, 0x77), (0x22, 0x88, 0x33)


def check_bench(plain, benched, how):
    """A bench table opened by `how` draws the timing window's chart: decoupled look-back's and CUB's
    series, colours the default lesson's window shows nowhere."""
    whole = (0, 0, benched[0], benched[1])
    for name, rgb in (("decoupled-lookback", CHART_LOOKBACK), ("cub", CHART_CUB)):
        if count_colour(plain, whole, rgb) != 0:
            fail(f"the default lesson's window shows {name}'s chart colour already")
        if count_colour(benched, whole, rgb) < 30:
            fail(f"{how} shows no {name} series in the timing window's chart")
    print(f"page_test: {how} opens the timing window on its table")


def check_default_lesson(image, size=(WIDTH, HEIGHT), wide=False):
    """The default lesson (kogge-stone-double-buffer, n = 8) at step 0 shows one row of 8 cells,
    drawn by the diagram's shaders in the middle of the window: a border line across the row, and
    just below it 8 stretches of cell fill, each closed by border pixels on both sides."""
    width, height = image[0], image[1]
    if (width, height) != size:
        fail(f"screenshot is {width}x{height}, not {size[0]}x{size[1]}")
    x0, x1, y0, y1 = diagram_box(image)
    if wide:  # the diagram's share of a page of another size: between the side panels, whatever their width
        x0, x1 = int(0.2 * width), int(0.75 * width)
    top = next((y for y in range(y0, y1)
                if sum(close(pixel(image, x, y), CELL_BORDER) for x in range(x0, x1)) >= 8 * 30), None)
    if top is None:
        fail("no row of cell borders in the diagram's part of the window: the diagram is not drawn")
    y = top + 3
    kinds = ["B" if close(pixel(image, x, y), CELL_BORDER) else "F" if close(pixel(image, x, y), CELL_FILL) else "."
             for x in range(x0, x1)]
    # The cells: the stretches between two border columns that are mostly fill (a cell's value may
    # reach this line in a small window).
    borders = [x for x in range(len(kinds)) if kinds[x] == "B"]
    runs = sum(1 for a, b in zip(borders, borders[1:]) if b - a > 10 and kinds[a + 1:b].count("F") >= 0.6 * (b - a - 1))
    if runs != 8:
        fail(f"{runs} bordered cells in the row at y = {y}, not the default lesson's 8")
    print(f"page_test: the diagram's row of 8 cells is drawn (top border at y = {top})")


# ---- File > Export: the pictures the browser downloads ----

def export_files(browser, url, folder):
    """Opens url, clicks File > Export step as PNG, as SVG, all steps as GIF, as PNG again, and Save
    trace, as a person does, and returns {extension: (file name, bytes)} for the files the browser
    downloaded into folder (under "again.png" the name the page gave the second PNG), and a
    screenshot after one more right arrow."""
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    session, browser.session = browser.session, None  # the download folder is the browser's setting
    browser.send("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": os.path.abspath(folder)})
    browser.session = session
    load(browser, url)
    files = {}
    # Save trace is the item above the three exports.
    for item, ext in ((0, ".png"), (1, ".svg"), (2, ".gif"), (0, "again.png"), (-1, ".json")):
        browser.evaluate("Module.lastDownload = null")
        open_file_menu(browser)
        x, y = export_item(browser, item)
        browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        wait_frames(browser, browser.evaluate("Module.frames") + 3, time.monotonic() + 10)
        click(browser, x, y)
        files[ext] = downloaded(browser, folder)
    # The pointer off the menu's place, where it rests on a control whose tooltip would cover the diagram.
    browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": WIDTH // 2, "y": HEIGHT - 120})
    press(browser, "ArrowRight", "ArrowRight", 39)
    return files, screenshot(browser)


def open_file_menu(browser):
    browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 20, "y": 11})
    click(browser, 20, 11)


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


def downloaded(browser, folder):
    """The file the page last handed to the browser, once the browser has saved it whole."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        last = browser.evaluate("Module.lastDownload")
        if last and os.path.isfile(path := os.path.join(folder, last["name"])) and os.path.getsize(path) == last["size"]:
            with open(path, "rb") as f:
                return last["name"], f.read()
        time.sleep(0.1)
    fail("File > Export: the browser saved no file in 30 s; the page's last download: " +
         str(browser.evaluate("Module.lastDownload")) + "; it said:\n  " + "\n  ".join(console_lines(browser.events)[-5:]))


def gif_frames(data):
    """The number of images in a GIF, walking its blocks (GIF89a: header, screen, extensions, images)."""
    if data[:6] != b"GIF89a":
        fail(f"File > Export all steps as GIF: the file starts {data[:6]!r}, not GIF89a")
    pos = 13 + (3 << ((data[10] & 7) + 1) if data[10] & 0x80 else 0)  # the global colour table, if any
    frames = 0

    def skip_sub_blocks(pos):
        while data[pos]:
            pos += 1 + data[pos]
        return pos + 1

    while pos < len(data) and data[pos] != 0x3B:
        if data[pos] == 0x21:  # an extension: its label, then sub-blocks
            pos = skip_sub_blocks(pos + 2)
        elif data[pos] == 0x2C:  # an image: descriptor, local colour table, LZW code size, sub-blocks
            flags = data[pos + 9]
            pos += 10 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0)
            pos = skip_sub_blocks(pos + 1)
            frames += 1
        else:
            fail(f"File > Export all steps as GIF: byte {pos} is 0x{data[pos]:02x}, no GIF block")
    if pos >= len(data):
        fail("File > Export all steps as GIF: the file ends before its trailer")
    return frames


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


# The light theme's active-thread fill (palette_light's cell_active).
ACTIVE_FILL = (0xB2, 0xF2, 0xBB)


def svg_colour(rgb):
    return "#" + "".join(f"{v:02x}" for v in rgb)


def hex_colour(text):
    return tuple(int(text[k:k + 2], 16) for k in (1, 3, 5))


if __name__ == "__main__":
    main()
