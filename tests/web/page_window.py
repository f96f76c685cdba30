"""The window in the page: frame times as the browser paces them, the window following the page's
size, the hazard tooltip under the pointer, controls the lesson refuses, and lecture mode with the
browser's fullscreen."""
import os
import time

from page_browser import animation_frame_ms, click, hover, load, percentiles, press, resize, save, screenshot
from page_common import HEIGHT, WIDTH, fail
from page_images import BAD_TEXT, CELL_BORDER, HAZARD, close, count_colour, diagram_box, pixel, read_png
from page_lesson import check_default_lesson


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
    hazard's description in the red of wrong text, where the diagram had little of it."""
    if pointer is None:
        fail("the race at n = 64 with warps of 32 shows no hazard cell to point at")
    x, y = pointer
    box = (x + 8, y + 12, min(x + 700, after[0]), min(y + 200, after[1]))
    red_before, red_after = count_colour(before, box, BAD_TEXT, 12), count_colour(after, box, BAD_TEXT, 12)
    changed = sum(pixel(before, px, py) != pixel(after, px, py) for py in range(box[1], box[3]) for px in range(box[0], box[2]))
    if red_after <= red_before + 40 or changed <= 2000:
        fail(f"the pointer on the hazard cell at ({x}, {y}) opens no tooltip: {changed} pixels changed under it, "
             f"{red_after - red_before} more in the red of wrong text")
    print(f"page_test: the pointer on a hazard cell opens its tooltip ({changed} pixels changed, the hazard named in red)")


def frame_times(browser, url):
    """Frame times as the browser paces them (requestAnimationFrame), for docs/performance.md."""
    for name, query in (("default lesson", ""), ("kogge-stone-double-buffer n=1024", "?algo=kogge-stone-double-buffer&n=1024")):
        load(browser, url + query)
        interval, work = animation_frame_ms(browser, 120), browser.evaluate("Module.frameWorkMs.slice(-120)")
        print(f"page_test: {name}: frame interval {percentiles(interval)}; the window's work a frame {percentiles(work)}")


def follows_page(browser, url, out):
    """The browser window made smaller, then larger: the window follows the page."""
    load(browser, url)
    resized = {(900, 640): resize(browser, 900, 640, screen=(1920, 1080)),
               (1600, 1000): resize(browser, 1600, 1000)}
    resize(browser, WIDTH, HEIGHT, screen=(1920, 1080))
    for (w, h), (shot_resized, canvas) in resized.items():
        save(shot_resized, os.path.join(out, f"web-resized-{w}x{h}.png"))
        check_default_lesson(read_png(shot_resized), (w, h), wide=True)
        if canvas != [w, h]:
            fail(f"with the page at {w}x{h} the window's canvas is {canvas[0]}x{canvas[1]}")
    print("page_test: the window follows the page's size: " +
          ", ".join(f"{w}x{h}" for w, h in resized) + " (as large as its screen: a browser in fullscreen), "
          "the default lesson's row of 8 cells in the middle of each")


def hazard_tooltip(browser, url, out):
    """The pointer resting on a hazard cell of the race (warps of 32, as on a GPU) opens its tooltip."""
    hazard_before, _ = load(browser, url + "?algo=kogge-stone-racy&n=64&warp=32&step=1")
    pointer = first_colour(read_png(hazard_before), HAZARD)
    hazard_after = hover(browser, *pointer) if pointer else hazard_before
    save(hazard_after, os.path.join(out, "web-hazard-tooltip.png"))
    check_tooltip(read_png(hazard_before), read_png(hazard_after), pointer)


def refused_input(browser, url, out):
    """Typed input on the interval lesson: the slides' numbers are no intervals, so the panel says
    so and keeps the lesson; the address keeps naming the lesson on screen, not the refused one."""
    load(browser, url)
    refused_before = browser.evaluate("location.search")
    for x, y in ((100, 331), (30, 398)):  # the input combo, then its "typed" item (1280x800)
        browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        click(browser, x, y)
    refused_after = browser.evaluate("location.search")
    save(screenshot(browser), os.path.join(out, "web-refused-input.png"))
    if refused_after != refused_before:
        fail(f"after typed input the panel refused, the address says '{refused_after}', not the lesson on screen "
             f"('{refused_before}'): a copied link would open on an error")
    print("page_test: controls the lesson refuses leave the address on the lesson shown")


def lecture_mode(browser, url, out):
    """Lecture mode, by a link and by its key L: the page asks the browser for fullscreen (granted or
    not) and goes on drawing the lesson."""
    lecture, _ = load(browser, url + "?lecture=1")
    # The browser refuses the link's fullscreen (no key pressed yet): the first F asks again.
    press(browser, "f", "KeyF", 70)
    lecture_f_fullscreen, until = False, time.monotonic() + 5  # the browser answers the request in its own time
    while not lecture_f_fullscreen and time.monotonic() < until:
        time.sleep(0.05)
        lecture_f_fullscreen = browser.evaluate("document.fullscreenElement !== null")
    press(browser, "f", "KeyF", 70)
    load(browser, url)
    press(browser, "l", "KeyL", 76)
    lecture_key = screenshot(browser)
    lecture_said = browser.evaluate("document.getElementById('status').style.display == 'block' ? "
                                    "document.getElementById('status').textContent : ''")
    save(lecture, os.path.join(out, "web-lecture.png"))
    save(lecture_key, os.path.join(out, "web-lecture-key.png"))
    if lecture_said:
        fail(f"lecture mode stopped the page: '{lecture_said}'")
    if not lecture_f_fullscreen:
        fail("after a lecture=1 link the first F did not make the page fullscreen")
    for how, shot_lecture in (("the link lecture=1", lecture), ("the key L", lecture_key)):
        check_lecture(read_png(shot_lecture), how)
