#!/usr/bin/env python3
"""The web build in a real browser: serves the site folder from a local HTTP server, opens it in
headless Chromium (driven over the DevTools protocol on a pipe, no other package needed), waits for
the window's first frame, takes a screenshot and checks its pixels, then steps to step 2 with the
right arrow and checks that the diagram shows the two steps more and that the address says step=2
(and opens there); presses Space and checks that the step moves on, and again that it stops; clicks
File > Copy link and checks the link; opens links to the charts with a schedule, measures frame times (requestAnimationFrame)
for the default lesson and n = 1024; opens links to a step, to the race, to
the look-back view, to a trace recorded on an H100 and to a bench table measured on an H200 (fetched
by the page) and checks each; drops the same two files on the window and checks that they open;
rests the pointer on a hazard cell and checks that its tooltip opens;
resizes the page and checks that the window follows; and opens links with a bad value and a missing
trace and checks the page's line about each; clicks File > Export (PNG, SVG, GIF) and checks
the files the browser downloads; types a kernel of one's own into the "Your kernel" editor, runs it
and checks its race, report card, link, File > Save kernel, an error line and a dropped .cu; reads the
page's accessibility tree (the lesson's hidden mirror, its live region, the card), steps a lesson by
keyboard alone and runs axe-core's WCAG 2.1 A and AA rules on its views; checks the first seconds of a
visit (the download's progress, the keys' hint, the panel's text contrast, opaque menus, a bad link
over the default lesson), less motion where the browser asks for it, and the page at 200%.

    tests/web/page_test.py SITE_DIR OUT_DIR [SCENARIO...]

SCENARIO names the scenarios to run (timeline, views, lesson_links, frame_times, files, follows_page,
tooltip, refused_input, lecture, bad_links, exports, kernels, pastes, access, first_seconds, less_motion, zoomed,
axe); none: every one;
-SCENARIO: every one but those so named (ctest runs the accessibility scenarios as a test of their own).

The scenarios live beside it by the window's parts: page_lesson.py (the lesson, the timeline, the
address and links), page_views.py (the race, look-back, charts, timing), page_window.py (frame
times, the page's size, tooltips, lecture mode), page_files.py (Export and Save trace), page_kernel.py
(a kernel of one's own: the editor, the report card, its link), page_paste.py (a whole file
pasted), page_access.py (the accessibility tree and the keyboard), page_seeing.py (the first seconds,
less motion, 200% zoom) and page_axe.py (axe-core); the browser
client is page_browser.py and the PNG and GIF readers page_images.py.

Exits 77 (ctest's skip code) with one line saying why when the site or the browser is missing.
"""
import os
import shutil
import sys
import tempfile

import page_access
import page_axe
import page_files
import page_kernel
import page_lesson
import page_paste
import page_seeing
import page_views
import page_window
from page_browser import Browser, install_key_release, load, serve
from page_common import HEIGHT, WIDTH, skip

# The source tree: the kernels the test drops on the page (assets/kernels/).
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        sys.exit(2)
    site, out = sys.argv[1], sys.argv[2]
    only = {a for a in sys.argv[3:] if not a.startswith("-")}
    left_out = {a[1:] for a in sys.argv[3:] if a.startswith("-")}
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
            install_key_release(browser)
            browser.send("Emulation.setDeviceMetricsOverride",
                         {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False,
                          "screenWidth": 1920, "screenHeight": 1080})
            shot, first_frame_ms = load(browser, url)
            print(f"page_test: first frame {first_frame_ms:.0f} ms after navigation")
            # Each scenario acts as a person does, then checks what the page shows (tests/web/page_*.py).
            scenarios = [
                ("timeline", lambda: page_lesson.timeline(browser, url, out, shot)),
                ("views", lambda: page_views.views(browser, url, out, shot)),
                ("lesson_links", lambda: page_lesson.lesson_links(browser, url)),
                ("frame_times", lambda: page_window.frame_times(browser, url)),
                ("files", lambda: page_views.files_from_elsewhere(browser, url, out, site)),
                ("follows_page", lambda: page_window.follows_page(browser, url, out)),
                ("tooltip", lambda: page_window.hazard_tooltip(browser, url, out)),
                ("refused_input", lambda: page_window.refused_input(browser, url, out)),
                ("lecture", lambda: page_window.lecture_mode(browser, url, out)),
                ("bad_links", lambda: page_lesson.bad_links(browser, url)),
                ("exports", lambda: page_files.exports(browser, url, out)),
                ("kernels", lambda: page_kernel.kernels(browser, url, out, ROOT)),
                ("pastes", lambda: page_paste.pastes(browser, url, out, ROOT)),
                ("access", lambda: page_access.access(browser, url, out)),
                ("first_seconds", lambda: page_seeing.first_seconds(browser, url, out)),
                ("less_motion", lambda: page_seeing.less_motion(browser, url, out)),
                ("zoomed", lambda: page_seeing.zoomed(browser, url, out)),
                # axe-core as scripts/web.sh fetches it, beside the site in the build folder.
                ("axe", lambda: page_axe.axe(browser, url, os.path.join(os.path.dirname(os.path.abspath(site)), "axe-core", "axe.min.js"))),
            ]
            unknown = (only | left_out) - {name for name, _ in scenarios}
            if unknown:
                print(f"page_test: no scenario {', '.join(sorted(unknown))}")
                sys.exit(2)
            for name, scenario in scenarios:
                if (not only or name in only) and name not in left_out:
                    scenario()
        finally:
            browser.close()
            server.shutdown()
    print("page_test: passed")


if __name__ == "__main__":
    main()
