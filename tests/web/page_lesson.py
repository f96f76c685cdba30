"""The lesson in the page: the default lesson's diagram, the timeline's keys, the address that
follows the window and opens there, File > Copy link, and links that name a lesson (or a bad value)."""
import os

from page_browser import copy_link, load, page_line, play_steps, save, screenshot, step_to
from page_common import HEIGHT, WIDTH, fail
from page_images import CELL_BORDER, CELL_FILL, close, count_cell_rows, diagram_box, pixel, read_png


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


def timeline(browser, url, out, shot):
    """The right arrow to step 2, the address after it, Space, Copy link and a link to a step, from the
    default lesson whose first screenshot is `shot`."""
    # The right arrow, as a person presses it, to step 2 (twice; step_to reads the step after each).
    arrow_presses = step_to(browser, 2)
    stepped = screenshot(browser)
    # The address follows the window (history.replaceState): it names step 2 now, and opens there.
    stepped_search = browser.evaluate("location.search")
    stepped_again, _ = load(browser, browser.evaluate("location.href"))
    # Space plays: the step the address names moves on by itself.
    playing_steps = play_steps(browser)
    # File > Copy link: the clipboard has it, or (headless Chromium grants no clipboard) the
    # page's link box shows it.
    copied = copy_link(browser)
    copied_search = browser.evaluate("location.search")
    copied_shot = screenshot(browser)
    # A link that names a lesson and a step opens there.
    linked, _ = load(browser, url + "?algo=kogge-stone-double-buffer&n=8&step=2")
    save(shot, os.path.join(out, "web-default.png"))
    save(stepped, os.path.join(out, "web-step2.png"))
    save(linked, os.path.join(out, "web-link-step2.png"))
    save(copied_shot, os.path.join(out, "web-copy-link.png"))
    image = read_png(shot)
    check_default_lesson(image)
    rows_before, rows_after = count_cell_rows(image), count_cell_rows(read_png(stepped))
    if (rows_before, rows_after) != (1, 3):
        fail(f"the diagram shows {rows_before} row(s) of cells at the start and {rows_after} at step 2, "
             "not 1 and 3 (the load, then a row a step)")
    print(f"page_test: the right arrow ({arrow_presses} presses) drew the rows of steps 1 and 2")
    if "step=2" not in stepped_search.split("&") and f"?step=2" not in stepped_search:
        fail(f"after the right arrow to step 2 the address says '{stepped_search}', not step=2")
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


def lesson_links(browser, url):
    """Links naming the lesson's type, exclusive scan, input and scan kind: the address names them back;
    a warp-level lesson on a block narrower than its warp opens."""
    lesson_searches = []
    for query in ("?algo=brent-kung&op=max&type=int64&exclusive=1&input=5,1,4,2",
                  "?scan=segmented:0.5&input=random:3", "?bench=examples/bench-h200.json&divergence=1"):
        load(browser, url + query)
        lesson_searches.append(browser.evaluate("location.search"))
    for search, keys in zip(lesson_searches, (("type=int64", "exclusive=1", "input=5%2C1%2C4%2C2", "op=max"),
                                              ("scan=segmented%3A0.5", "input=random%3A3"),
                                              ("bench=examples%2Fbench-h200.json", "divergence=1"))):
        if not all(key in search.lstrip("?").split("&") for key in keys):
            fail(f"a link naming {', '.join(keys)} leaves the address '{search}': the window did not take them all")
    print(f"page_test: links with the type, exclusive scan, input and scan open that lesson ({lesson_searches[0]}); "
          f"the bench table and divergence window stay in the address ({lesson_searches[2]})")
    # A warp-level lesson on a block narrower than its warp of 4: the warp narrows to the block
    # (this link stopped the page: "warp width 4 exceeds the block"); load fails if the page stops.
    load(browser, url + "?algo=warp-raking&n=2")
    print("page_test: ?algo=warp-raking&n=2 opens (its warp narrows to the block)")


def bad_links(browser, url):
    """Links the window cannot use say so on the page, in one line."""
    said_schedule = page_line(browser, url + "?schedule=sideways")
    if said_schedule != "scanviz: link: schedule: unknown schedule 'sideways' (in-order, reverse, round-robin, random[:SEED])":
        fail(f"the page with ?schedule=sideways says '{said_schedule}', not that the schedule is unknown")
    said = page_line(browser, url + "?n=eight")
    if said != "scanviz: link: n: 'eight' is not a whole number":
        fail(f"the page with ?n=eight says '{said}', not that n is not a whole number")
    print(f"page_test: a bad link says '{said}'")
    # Set from the link, then refused by the run's check (run/request.cpp), named as the link names it.
    said_n = [page_line(browser, url + query) for query in ("?n=0", "?n=99999999999")]
    if said_n != ["scanviz: link: n must be at least 1, not 0", "scanviz: link: n 99999999999 is too large"]:
        fail(f"the pages with ?n=0 and ?n=99999999999 say {said_n}, not that n must be at least 1 and is too large")
    said_missing = page_line(browser, url + "?trace=examples/none.json")
    if said_missing != "scanviz: link: cannot fetch examples/none.json":
        fail(f"the page with a missing trace says '{said_missing}', not that it cannot fetch it")
    print(f"page_test: a link to a missing trace says '{said_missing}'")
