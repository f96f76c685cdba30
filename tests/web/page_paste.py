"""A whole file pasted into the page, as a student brings the file their homework lives in: the
browser's paste event (a ClipboardEvent carrying the text, as Ctrl+V or a menu's Paste makes one)
puts it into the editor over its selection, the launch pasted into the launch box runs it, and the
report card grades it case by case while the frames go on; pasted where no text box has the keyboard, the
file opens in the editor as the kernel and runs."""
import json
import os
import time
import urllib.parse

from page_browser import click, load, press, save, screenshot, wait_frames
from page_common import WIDTH, fail
from page_files import allow_downloads, click_file_item, downloaded
from page_images import read_png
from page_kernel import RACY_KERNEL, close_panel, verdict, wait_for_address, wait_for_verdict, with_control

# A course assignment's whole file: host code, an error-checking macro, one kernel whose loop reads and
# writes the same shared cells between two barriers (tests/fixtures/whole_files/MANIFEST.md).
WHOLE_FILE = os.path.join("tests", "fixtures", "whole_files", "ks_read_then_write_same_interval.cu")
LAUNCH = "prefix_sum<<<1, 1024>>>(in, out, n)"
# The launch box's row at 1280x800: the panel's top (the narration's 18 % of the column below the menu
# bar), its title bar, then the box.
LAUNCH_BOX_Y = 203


def paste(browser, text):
    """Pastes `text` as the browser does: a paste event whose clipboard data holds it, at the element
    that has the focus. Returns the pastes the page has taken so far."""
    return browser.evaluate("(function(text) { var data = new DataTransfer(); data.setData('text/plain', text);"
                            " (document.activeElement || document.body).dispatchEvent(new ClipboardEvent('paste',"
                            " {clipboardData: data, bubbles: true, cancelable: true})); return Module.pastes || 0; })("
                            + json.dumps(text) + ")")


def saved_kernel(browser, folder):
    """File > Save kernel: the editor's text, as the browser downloads it."""
    browser.evaluate("Module.lastDownload = null")
    click_file_item(browser, -2)
    return downloaded(browser, folder)


def pasted_into_editor(browser, url, out, root):
    """K, Ctrl+A, the whole file pasted: the editor holds the file byte for byte; the launch pasted
    into the launch box, Enter: the address carries the kernel and the launch, the card says WRONG (its race), and the frames went on
    while it was graded (their work printed for docs/performance.md)."""
    folder = os.path.join(out, "downloads")
    os.makedirs(folder, exist_ok=True)
    allow_downloads(browser, folder)
    with open(os.path.join(root, WHOLE_FILE), encoding="utf-8") as f:
        text = f.read()
    load(browser, url)
    press(browser, "k", "KeyK", 75)  # the panel opens with the editor's text box taking the keyboard
    with_control(browser, "a", "KeyA", 65)
    if (pastes := paste(browser, text)) != 1:
        fail(f"the page took {pastes} paste events for one paste")
    wait_frames(browser, browser.evaluate("Module.frames") + 4, time.monotonic() + 10)
    name, data = saved_kernel(browser, folder)
    if data.decode() != text:
        fail(f"after pasting {len(text)} bytes the editor holds {len(data)} (File > Save kernel downloaded {name})")
    # The launch pasted into the launch box (its first line, at the top of the panel), and Enter.
    click(browser, int(0.75 * WIDTH), LAUNCH_BOX_Y)
    wait_frames(browser, browser.evaluate("Module.frames") + 3, time.monotonic() + 10)
    paste(browser, LAUNCH + "\n")
    wait_frames(browser, browser.evaluate("Module.frames") + 3, time.monotonic() + 10)
    frames_before = browser.evaluate("Module.frames")
    press(browser, "Enter", "Enter", 13)
    href = wait_for_address(browser, "#file=")
    if "launch=" + urllib.parse.quote(LAUNCH, safe="") not in href.split("#", 1)[0].replace("+", "%20"):
        fail(f"the address {href} does not carry the launch {LAUNCH}")
    started = time.monotonic()
    shot = wait_for_verdict(browser, 1)
    graded_s = time.monotonic() - started
    save(shot, os.path.join(out, "web-pasted-whole-file.png"))
    good, bad = verdict(read_png(shot))
    if bad <= 30 or good > bad:
        fail(f"the pasted whole file's report card shows {bad} pixels of WRONG's red and {good} of CORRECT's green")
    frames = browser.evaluate("Module.frames") - frames_before
    work = sorted(browser.evaluate(f"Module.frameWorkMs.slice(-{min(frames, 240)})"))
    print(f"page_test: a whole file pasted ({len(text)} bytes) is the editor's text; launched as the launch box says, its card says "
          f"WRONG after {graded_s:.1f} s, {frames} frames drawn meanwhile (the window's work a frame: median "
          f"{work[len(work) // 2]:.1f} ms, slowest {work[-1]:.1f} ms)")
    graded_whole(browser, started, frames_before)
    close_panel(browser)


def graded_whole(browser, started, frames_before):
    """Follows the card to its last case, collecting every frame's work (the page grades 10 ms of it a
    frame, stopping inside a case): a figure for docs/performance.md, not a timed assertion; what is
    asserted is that the frames went on while it graded."""
    work = []
    seen = frames_before
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        now = browser.evaluate("Module.frames")
        work += browser.evaluate(f"Module.frameWorkMs.slice(-{min(now - seen, 240)})") if now > seen else []
        seen = now
        heading = browser.evaluate("(document.getElementById('mirror-verdict') || {}).textContent || ''")
        if heading.startswith("Report card: ") and "checking" not in heading:
            break
        time.sleep(0.5)
    else:
        fail("the pasted whole file's card was still grading after 300 s")
    done_s = time.monotonic() - started
    frames = seen - frames_before
    if frames < 10:
        fail(f"only {frames} frames were drawn while the card graded for {done_s:.1f} s")
    work.sort()
    print(f"page_test: the card graded all its cases {done_s:.1f} s after Enter ({heading}), {frames} frames drawn meanwhile "
          f"(the window's work a frame: median {work[len(work) // 2]:.1f} ms, 99th percentile {work[int(len(work) * 0.99)]:.1f} ms, "
          f"slowest {work[-1]:.1f} ms; {sum(w > 50 for w in work)} frames over 50 ms)")


def pasted_outside(browser, url, out):
    """Pasted where no text box has the keyboard: the file opens in the editor as pasted.cu and runs."""
    load(browser, url)
    paste(browser, RACY_KERNEL)
    wait_for_address(browser, "#file=pasted.cu&kernel=")
    shot = wait_for_verdict(browser, 1)
    save(shot, os.path.join(out, "web-pasted-outside.png"))
    good, bad = verdict(read_png(shot))
    if bad <= 30 or good > bad:
        fail(f"the racy kernel pasted outside the editor shows {bad} pixels of WRONG's red and {good} of CORRECT's green")
    print("page_test: a kernel pasted where no text box has the keyboard opens in the editor as pasted.cu and runs")


def pastes(browser, url, out, root):
    pasted_into_editor(browser, url, out, root)
    pasted_outside(browser, url, out)
