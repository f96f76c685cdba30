"""The views in the page: the race side by side, the look-back view, the charts with a schedule,
a trace recorded on an H100 and a bench table measured on an H200 (fetched by a link, or dropped on
the window)."""
import os

from page_browser import drop_file, load, save
from page_common import fail
from page_images import FLAG_A, FLAG_P, HAZARD, colour_in_diagram, count_colour, diagram_box, read_png

MOVED = (0x0B, 0x6E, 0x8A)  # the look-back view's mark of a tile whose look-back stopped elsewhere (light theme)


def check_views(default, race, lookback):
    """The racy kernel's hazards are red where the default lesson has none; the look-back view shows
    tiles flagged P (inclusive prefix) and A (aggregate)."""
    if colour_in_diagram(default, HAZARD) != 0:
        fail("the default lesson, which has no race, shows the hazard colour")
    if colour_in_diagram(race, HAZARD) < 2000:
        fail(f"the race shows {colour_in_diagram(race, HAZARD)} pixels of the hazard colour, not a row of hazard cells")
    check_lookback_flags(lookback, "the look-back view")
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


def check_lookback_flags(image, what):
    """The look-back view of `what` shows tiles flagged P (inclusive prefix) and A (aggregate)."""
    for name, rgb in (("P", FLAG_P), ("A", FLAG_A)):
        if colour_in_diagram(image, rgb) < 500:
            fail(f"{what} shows no tile flagged {name}")


def views(browser, url, out, default):
    """The race, the look-back view and the charts, each opened by a link; `default` is the default
    lesson's screenshot, which shows none of their colours."""
    # The race, side by side with the double-buffered kernel, and the look-back view.
    race, _ = load(browser, url + "?algo=kogge-stone-racy&n=40&side=1&step=3")
    lookback, _ = load(browser, url + "?lookback=fig6")
    lookback_search = browser.evaluate("location.search")
    # Its text mirror, as a screen reader reads it: the first table is Fig. 6's tiles, a flag a row.
    mirrored_flags = browser.evaluate(
        "Array.from((document.querySelector('#mirror-lesson table') || document.createElement('table'))"
        ".querySelectorAll('tbody tr')).map(r => r.children[1].textContent).join('')")
    # The charts window and an emulator schedule, named by the link, are what the window then
    # shows: the address, which the window writes from its state, names them back.
    # A float sum by decoupled look-back run twice: the tiles whose look-back stopped elsewhere marked.
    twice, _ = load(browser, url + "?lookback=run-to-run")
    charts, _ = load(browser, url + "?charts=1&schedule=random:5")
    charts_search = browser.evaluate("location.search")
    save(race, os.path.join(out, "web-race.png"))
    save(lookback, os.path.join(out, "web-lookback.png"))
    save(charts, os.path.join(out, "web-charts.png"))
    save(twice, os.path.join(out, "web-lookback-twice.png"))
    twice_image = read_png(twice)
    marks = count_colour(twice_image, (0, 0, twice_image[0], twice_image[1]), MOVED)
    if marks < 300:
        fail(f"the link ?lookback=run-to-run shows {marks} pixels of the marks of tiles whose look-back stopped elsewhere")
    print(f"page_test: the look-back view run twice marks the moved look-backs ({marks} pixels)")
    image = read_png(default)
    check_views(image, read_png(race), read_png(lookback))
    if mirrored_flags != "PAAPAPXA":
        fail(f"the look-back view's text mirror lists the flags '{mirrored_flags}', not Fig. 6's PAAPAPXA")
    print("page_test: the look-back view's text mirror lists Fig. 6's flags, a tile a row")
    if "lookback=fig6" not in lookback_search:
        fail(f"with the look-back view open the address says '{lookback_search}', not lookback=fig6")
    if "charts=1" not in charts_search or "schedule=random%3A5" not in charts_search:
        fail(f"the link with charts=1 and schedule=random:5 leaves the address '{charts_search}': the window did not "
             "open the charts or take the schedule")
    check_charts(image, read_png(charts))
    print(f"page_test: the links to the charts and a schedule open them ({charts_search})")


def files_from_elsewhere(browser, url, out, site):
    """A trace recorded on an H100 and a bench table measured on an H200, fetched by links, then
    dropped on the window as from a file manager: each opens the same way."""
    # A trace recorded on an H100, fetched by the page: the look-back view opens on it.
    traced, _ = load(browser, url + "?trace=examples/pipelined-h100.json")
    # A bench table measured on an H200, beside the page: the timing window shows it.
    benched, _ = load(browser, url + "?bench=examples/bench-h200.json")
    # The same files dropped on the window, as from a file manager, open the same way.
    plain, _ = load(browser, url)
    dropped_bench = drop_file(browser, os.path.join(site, "examples", "bench-h200.json"))
    load(browser, url)
    dropped_trace = drop_file(browser, os.path.join(site, "examples", "pipelined-h100.json"))
    save(traced, os.path.join(out, "web-trace-h100.png"))
    save(benched, os.path.join(out, "web-bench-h200.png"))
    save(dropped_bench, os.path.join(out, "web-drop-bench.png"))
    save(dropped_trace, os.path.join(out, "web-drop-trace.png"))
    check_lookback_flags(read_png(traced), "the H100 trace's look-back view")
    print("page_test: the H100 trace fetched by the link opens in the look-back view")
    check_bench(read_png(plain), read_png(benched), "the link ?bench=examples/bench-h200.json")
    check_bench(read_png(plain), read_png(dropped_bench), "bench-h200.json dropped on the window")
    check_lookback_flags(read_png(dropped_trace), "the look-back view of pipelined-h100.json dropped on the window")
    print("page_test: the H100 trace dropped on the window opens in the look-back view")
