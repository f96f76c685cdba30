"""The page for a reader who sees less or is sensitive to motion, and for a first-time visitor: the
first seconds (the download's progress, the keys' hint, a heading that does not look disabled,
opaque menus, a bad link under the default lesson), less motion when the browser asks for it, and
the page at 200% zoom."""
import os
import re
import time

from contrast import glyphs, words
from page_browser import address_step, click, load, save, screenshot
from page_common import HEIGHT, WIDTH, fail
from page_images import count_cell_rows, pixel, read_png

# The page's #status line each time it changes, from the page's first script on.
STATUS_LOG_SCRIPT = """window.svStatusLog = [];
new MutationObserver(function() {
  var s = document.getElementById('status');
  if (s && window.svStatusLog[window.svStatusLog.length - 1] !== s.textContent) window.svStatusLog.push(s.textContent);
}).observe(document, {subtree: true, childList: true, characterData: true});"""


def metrics(browser, width, height, scale=1):
    browser.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": scale,
                                                         "mobile": False, "screenWidth": 1920, "screenHeight": 1080})


def words_in(image, box):
    """The words of text in box (x0, y0, x1, y1), found from the pixels (tests/web/contrast.py)."""
    x0, y0, x1, y1 = box
    return [w for w in words(glyphs(image)) if w[0] >= x0 and w[2] <= x1 and w[1] >= y0 and w[3] <= y1]


def lowest_text(image, box):
    """The word of text in box with the lowest contrast, or None."""
    return min(words_in(image, box), key=lambda w: w[4], default=None)


def first_seconds(browser, url, out):
    """What a first-time visitor meets at 1280x800 and 1920x1080."""
    script = browser.send("Page.addScriptToEvaluateOnNewDocument", {"source": STATUS_LOG_SCRIPT})["identifier"]
    # The download slowed to 40 MB/s, so that its progress shows for a few frames, as on a real network.
    browser.send("Network.enable")
    browser.send("Network.emulateNetworkConditions", {"offline": False, "latency": 20, "downloadThroughput": 40e6,
                                                      "uploadThroughput": -1})
    try:
        for width, height in ((WIDTH, HEIGHT), (1920, 1080)):
            metrics(browser, width, height)
            shot, _ = load(browser, url)
            save(shot, os.path.join(out, f"web-first-{width}.png"))
            log = browser.evaluate("window.svStatusLog") or []
            progress = [line for line in log if re.fullmatch(r"Downloading scanviz, [\d.]+ MB of [\d.]+ MB \(\d+%\)", line)]
            if not progress:
                fail(f"at {width}x{height} the page said {log} while it loaded, never how much of the download had come")
            image = read_png(shot)
            # The keys' hint in the menu bar, right of File and View: text where the bar was empty.
            hint = words_in(image, (110, 0, width, 22))
            if len(hint) < 5:
                fail(f"at {width}x{height} the menu bar shows {len(hint)} words right of its menus, not the keys' hint")
            # The lesson panel's text, "Algorithm" first, reads as text: 4.5:1 or more against the panel.
            panel = lowest_text(image, (0, 40, 300 if width == WIDTH else 350, 140))
            if panel is None or panel[4] < 4.5:
                fail(f"at {width}x{height} the lesson panel's heading is {panel and round(panel[4], 2)}:1 against the "
                     f"panel, under 4.5:1: it looks disabled")
            print(f"page_test: at {width}x{height} the download said '{progress[-1]}'; the lesson panel's top text is "
                  f"{panel[4]:.2f}:1 or more")
    finally:
        browser.send("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1,
                                                          "uploadThroughput": -1})
        browser.send("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script})
        metrics(browser, WIDTH, HEIGHT)
    # The View menu over the panels is opaque: its pixels are the same over two different diagrams.
    menus = []
    for query in ("", "?step=4"):
        load(browser, url + query)
        browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 60, "y": 11})
        click(browser, 60, 11)
        menus.append(screenshot(browser))
        save(menus[-1], os.path.join(out, f"web-menu{query.replace('?', '-').replace('=', '')}.png"))
    a, b = read_png(menus[0]), read_png(menus[1])
    box = (320, 40, 380, 340)  # inside the View menu, over the diagram's rows
    differ = sum(pixel(a, x, y) != pixel(b, x, y) for y in range(box[1], box[3]) for x in range(box[0], box[2]))
    if differ:
        fail(f"the View menu shows what is under it: {differ} of its pixels differ over the diagram at steps 0 and 4")
    # A bad link: its line in a bar at the top, the default lesson under it.
    shot, _ = load(browser, url + "?n=eight")
    save(shot, os.path.join(out, "web-bad-link.png"))
    line = browser.evaluate("[document.getElementById('status').textContent, "
                            "document.getElementById('status').getBoundingClientRect().bottom, "
                            "Module.canvas.getBoundingClientRect().top, Module.canvas.getBoundingClientRect().bottom]")
    if line[0] != "scanviz: link: n: 'eight' is not a whole number" or line[2] < line[1] - 0.5 or line[3] > HEIGHT + 0.5:
        fail(f"a bad link shows '{line[0]}' ending at {line[1]} px over a window from {line[2]} to {line[3]} px, not its "
             f"line above the window")
    rows = count_cell_rows(read_png(shot))
    if rows < 1:
        fail("a bad link's page shows no lesson under its line")
    print(f"page_test: a bad link says '{line[0]}' in a bar over the default lesson ({rows} row of cells)")


def less_motion(browser, url, out):
    """With prefers-reduced-motion: reduce, a link that plays does not."""
    def steps_seen(query, seconds):
        load(browser, url + query)
        seen, until = {address_step(browser)}, time.monotonic() + seconds
        while time.monotonic() < until:
            time.sleep(0.1)
            seen.add(address_step(browser))
        return seen

    playing = steps_seen("?play=1", 3)
    if len(playing) < 2:
        fail(f"a link with play=1 did not play: the address stayed at step {playing}")
    browser.send("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    try:
        if not browser.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches"):
            fail("the browser does not emulate prefers-reduced-motion")
        still = steps_seen("?play=1", 3)
        if len(still) != 1:
            fail(f"with less motion asked for, a link with play=1 still played: the address went through steps {still}")
    finally:
        browser.send("Emulation.setEmulatedMedia", {"features": []})
    print(f"page_test: less motion: play=1 stays at step {still.pop()} for 3 s (without it the address went through "
          f"{len(playing)} steps)")


def zoomed(browser, url, out):
    """The page at 200%: the browser's zoom (a CSS viewport of half the size at two device pixels a
    pixel) and the page's own font scale; the screenshots are left for a person to look at, and
    the panels' text must stay legible (measured) and in the window."""
    try:
        metrics(browser, WIDTH // 2, HEIGHT // 2, 2)
        shot, _ = load(browser, url)
        save(shot, os.path.join(out, "web-zoom-200.png"))
        canvas = browser.evaluate("[Module.canvas.width, Module.canvas.height]")
        if canvas != [WIDTH // 2, HEIGHT // 2]:
            fail(f"at 200% zoom the window is {canvas}, not the page's {WIDTH // 2}x{HEIGHT // 2}")
        metrics(browser, WIDTH, HEIGHT)
        shot, _ = load(browser, url + "?font-scale=2")
        save(shot, os.path.join(out, "web-font-scale-2.png"))
        image = read_png(shot)
        if count_cell_rows(image) < 1:
            fail("at font scale 2 the diagram shows no row of cells")
    finally:
        metrics(browser, WIDTH, HEIGHT)
