"""The page as a screen reader and a keyboard meet it: the accessibility tree Chromium builds (over
the DevTools protocol) holds the canvas as a named image, the lesson's step as a heading, its
narration as a paragraph, the buffers as a table whose cells name races and wrong outputs, a live
region whose text changes when the step does, and a kernel's report card with its verdict; and a
script of Tab, Enter, Space and Escape alone steps a lesson, changes n, opens the key table and
leaves the kernel editor."""
import os
import time

from page_browser import load, press, save, screenshot, wait_frames
from page_common import fail
from page_images import close, pixel, read_png
from page_kernel import RACY_KERNEL, link_fragment

FOCUS_RING = (255, 191, 0)  # the canvas's focus outline (app/web/index.html)


def ax_nodes(browser):
    """The page's accessibility tree as Chromium gives it to a screen reader: (role, name, text) of
    each node not ignored, text being the names of its static text below it, in order."""
    browser.send("Accessibility.enable")
    nodes = browser.send("Accessibility.getFullAXTree")["nodes"]
    by_id = {n["nodeId"]: n for n in nodes}

    def value(n, key):
        return (n.get(key) or {}).get("value", "")

    def text(n):
        if value(n, "role") in ("StaticText", "text"):
            return value(n, "name")
        return " ".join(t for t in (text(by_id[c]) for c in n.get("childIds", []) if c in by_id) if t)

    return [(value(n, "role"), value(n, "name"), text(n)) for n in nodes if not n.get("ignored")]


def ax_find(nodes, role, start=""):
    """The first node of `role` whose name (or, without one, text) starts with `start`; None if none."""
    return next(((r, name, text) for r, name, text in nodes if r == role and (name or text).startswith(start)), None)


def live_text(browser):
    found = ax_find(ax_nodes(browser), "status")
    if found is None:
        fail("the accessibility tree has no node of role status (the page's live region)")
    return found[2]


def wait_for(browser, what, check, seconds=30):
    """Waits until check(ax_nodes) is true (a recording or a report card comes between frames)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check(ax_nodes(browser)):
            return
        time.sleep(0.3)
    fail(f"after {seconds} s the accessibility tree still lacks {what}")


def tree_of_a_lesson(browser, url):
    """The default lesson's tree, and its live region after the right arrow."""
    load(browser, url)
    nodes = ax_nodes(browser)
    image = ax_find(nodes, "image") or ax_find(nodes, "img")
    if image is None or "dataflow diagram of kogge-stone-double-buffer, n = 8" not in image[1]:
        fail(f"the canvas is not an image named by what it shows: {image}")
    step = ax_find(nodes, "heading", "Step ")
    if step is None or step[1] != "Step 1 of 5: load":
        fail(f"no heading with the default lesson's first step: {step}")
    narration = browser.evaluate("document.getElementById('mirror-narration').textContent")
    if not narration or not any(r == "paragraph" and t == narration for r, _, t in nodes):
        fail(f"the narration {narration!r} is not a paragraph of the tree")
    before = live_text(browser)
    if not before.startswith("Lesson: kogge-stone-double-buffer, n = 8"):
        fail(f"the live region says {before!r} as the lesson opens")
    press(browser, "ArrowRight", "ArrowRight", 39)
    wait_for(browser, "the heading of step 2", lambda n: ax_find(n, "heading", "Step 2 of 5") is not None)
    after = live_text(browser)
    if not after.startswith("Step 2 of 5: stride = 1.") or after == before:
        fail(f"after the right arrow the live region says {after!r} (before: {before!r})")
    narration2 = browser.evaluate("document.getElementById('mirror-narration').textContent")
    if narration2 == narration or narration2 not in after:
        fail(f"the live region {after!r} does not say step 2's narration {narration2!r}")
    print(f"page_test: the tree holds the canvas as an image, step 1's heading and narration; the live region "
          f"went from {before[:40]!r}... to {after[:60]!r}...")


def tree_of_a_race(browser, url):
    """The racy kernel's table names its race cells at step 2 and its wrong outputs at the last step."""
    load(browser, url + "?algo=kogge-stone-racy&op=sum&step=1")
    cells = [t for r, name, t in ax_nodes(browser) if r == "cell" and "race" in (name or t)]
    if not cells:
        fail("the racy lesson's step 2 has no table cell that says race")
    load(browser, url + "?algo=kogge-stone-racy&op=sum&step=4")
    nodes = ax_nodes(browser)
    wrong = [name or t for r, name, t in nodes if r == "cell" and "wrong, expected" in (name or t)]
    result = ax_find(nodes, "heading", "Result")
    if not wrong or result is None:
        fail(f"the racy lesson's last step names no wrong output ({wrong}) or no result heading ({result})")
    print(f"page_test: the race's table says {len(cells)} race cells at step 2 and {len(wrong)} wrong outputs "
          f"at the last ({wrong[0]!r})")


def tree_of_a_card(browser, url):
    """A kernel of one's own from a link: its card's verdict as a heading once graded, its hazards with
    both lines and threads, and the live region saying the card."""
    load(browser, url + "?n=8" + link_fragment("racy.cu", RACY_KERNEL))
    wait_for(browser, "the heading 'Report card: WRONG'", lambda n: ax_find(n, "heading", "Report card: WRONG") is not None, 90)
    nodes = ax_nodes(browser)
    hazards = [t for r, _, t in nodes if r == "listitem" and "wrote it (line" in t and "read it (line" in t]
    if not hazards:
        fail("the card lists no hazard with the lines and threads of both accesses")
    # The heading says WRONG from the first wrong case on; the live region says the card once every
    # case has run.
    wait_for(browser, "the live region saying the graded card",
             lambda n: "Report card: WRONG, " in (ax_find(n, "status") or ("", "", ""))[2], 90)
    said = live_text(browser)
    print(f"page_test: the card's verdict is a heading, hazards listed with both lines and threads: {len(hazards)} ({hazards[0][:70]!r}...), "
          f"the live region says {said!r}")


def key(browser, name, code, keycode, text=None, shift=False):
    """A key as the keyboard sends it to whatever has the focus (the browser's own default actions
    included: Tab moves the focus, Enter and Space press a button)."""
    common = {"key": name, "code": code, "windowsVirtualKeyCode": keycode, "nativeVirtualKeyCode": keycode,
              "modifiers": 8 if shift else 0}
    if shift:
        browser.send("Input.dispatchKeyEvent", {"type": "rawKeyDown", "key": "Shift", "code": "ShiftLeft",
                                                "windowsVirtualKeyCode": 16, "modifiers": 8})
    browser.send("Input.dispatchKeyEvent", {"type": "keyDown", **common, **({"text": text} if text else {})})
    browser.send("Input.dispatchKeyEvent", {"type": "keyUp", **common})
    if shift:
        browser.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": "Shift", "code": "ShiftLeft",
                                                "windowsVirtualKeyCode": 16, "modifiers": 0})
    wait_frames(browser, browser.evaluate("Module.frames") + 3, time.monotonic() + 10)


def focused(browser):
    return browser.evaluate("document.activeElement ? document.activeElement.id : ''")


def tab_to(browser, target, most=12, shift=False):
    for _ in range(most):
        if focused(browser) == target:
            return
        key(browser, "Tab", "Tab", 9, shift=shift)
    fail(f"{most} presses of {'Shift+' if shift else ''}Tab did not reach #{target} (the focus is on #{focused(browser)})")


def keyboard_only(browser, url, out):
    """Tab, Enter, Space, digits and Escape alone: to the canvas (its focus ring), to Next, step twice,
    n = 16, the key table and back, and into and out of the kernel editor."""
    load(browser, url)
    key(browser, "Tab", "Tab", 9)
    if focused(browser) != "canvas":
        fail(f"the first Tab put the focus on #{focused(browser)}, not the window's canvas")
    focused_canvas = screenshot(browser)
    save(focused_canvas, os.path.join(out, "page-keyboard-canvas.png"))
    ring = read_png(focused_canvas)
    if not close(pixel(ring, 1, 300), FOCUS_RING, 30) or not close(pixel(ring, ring[0] - 2, 300), FOCUS_RING, 30):
        fail(f"the canvas has the focus but no ring: its edge is {pixel(ring, 1, 300)}")
    tab_to(browser, "mirror-next")
    shot = screenshot(browser)
    save(shot, os.path.join(out, "page-keyboard-controls.png"))
    key(browser, "Enter", "Enter", 13, text="\r")
    key(browser, " ", "Space", 32, text=" ")
    wait_for(browser, "step 3's heading after Enter and Space on Next", lambda n: ax_find(n, "heading", "Step 3 of 5") is not None)
    if "step=2" not in (browser.evaluate("location.search") or ""):
        fail(f"Enter and Space on Next left the address at {browser.evaluate('location.search')!r}, not step=2")
    time.sleep(2.5)  # Space pressed a button: the window did not start playing
    if "step=2" not in (browser.evaluate("location.search") or ""):
        fail("Space on the Next button also played the lesson")
    tab_to(browser, "mirror-n")
    for _ in range(4):
        key(browser, "Backspace", "Backspace", 8)
    for digit in "16":
        key(browser, digit, f"Digit{digit}", ord(digit), text=digit)
    key(browser, "Enter", "Enter", 13, text="\r")
    wait_for(browser, "the lesson at n = 16", lambda n: ax_find(n, "heading", "Lesson: kogge-stone-double-buffer, n = 16") is not None)
    tab_to(browser, "mirror-help")
    key(browser, "Enter", "Enter", 13, text="\r")
    if browser.evaluate("document.getElementById('help').hidden") or focused(browser) != "help-close":
        fail("Enter on Keys did not open the key table with the focus on its Close button")
    if ax_find(ax_nodes(browser), "dialog", "Keys") is None:
        fail("the key table is not a dialog named Keys in the tree")
    save(screenshot(browser), os.path.join(out, "page-keyboard-help.png"))
    key(browser, "Escape", "Escape", 27)
    if not browser.evaluate("document.getElementById('help').hidden") or focused(browser) != "mirror-help":
        fail("Escape did not close the key table and give the focus back to Keys")
    # The kernel editor: K on the canvas opens it and takes Tab (it indents); Escape leaves the text,
    # and Tab then leaves the canvas: no key trap.
    tab_to(browser, "canvas", shift=True)
    press(browser, "k", "KeyK", 75)
    key(browser, "Tab", "Tab", 9)
    if focused(browser) != "canvas":
        fail(f"Tab in the kernel editor moved the focus to #{focused(browser)}: the editor should take it")
    press(browser, "Escape", "Escape", 27)
    key(browser, "Tab", "Tab", 9)
    if focused(browser) == "canvas":
        fail("after Escape in the kernel editor, Tab still did not leave the canvas (a key trap)")
    print(f"page_test: by keyboard alone: Tab to the canvas (its ring) and to Next, Enter and Space stepped to "
          f"step 3, n = 16 typed, the key table opened and closed, Escape then Tab left the editor (to #{focused(browser)})")


def access(browser, url, out):
    tree_of_a_lesson(browser, url)
    tree_of_a_race(browser, url)
    keyboard_only(browser, url, out)
    tree_of_a_card(browser, url)
