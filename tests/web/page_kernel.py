"""A kernel of the reader's own in the page, as a student uses it: K opens the "Your kernel" panel,
the kernel is typed through the keyboard and run with Ctrl+Enter, the report card grades it and the
diagram shows its race in red; the address then carries the kernel (compressed in its fragment)
with n and the step, and opens the same kernel at the same step (File > Save kernel downloads the
bytes typed); a kernel typed with an error marks its line in the editor; a .cu dropped on the
page opens in the editor and runs; a link made by another program (Python's zlib) opens, and one
cut short is one line on the page."""
import base64
import os
import time
import zlib

from page_browser import drop_file, drop_files, load, page_line, press, save, screenshot, step_to, wait_frames
from page_common import HEIGHT, WIDTH, fail
from page_files import allow_downloads, click_file_item, downloaded
from page_images import BAD_TEXT, GOOD_TEXT, HAZARD, colour_in_diagram, count_cell_rows, count_colour, pixel, read_png

# Slide 14's Kogge-Stone (PMPP chapter 11), which the slide marks "Incorrect!": one buffer, threads
# read and write the same cells between two barriers. Typed as a student types it.
RACY_KERNEL = """#define BLOCK_DIM 8
__global__ void my_scan(float* input, float* output, unsigned int n) {
    __shared__ float x_s[BLOCK_DIM];
    unsigned int i = threadIdx.x;
    x_s[i] = i < n ? input[i] : 0.0f;
    __syncthreads();
    for (unsigned int stride = 1; stride < BLOCK_DIM; stride *= 2) {
        if (i >= stride) x_s[i] += x_s[i - stride];
        __syncthreads();
    }
    if (i < n) output[i] = x_s[i];
}
"""

# A kernel whose sixth line the front end cannot read.
BROKEN_KERNEL = RACY_KERNEL.replace("    __syncthreads();\n    for", "    __syncthreads(;\n    for")
BROKEN_LINE = 6

# The report card's verdict colours: the light theme's text colours.
VERDICT_GOOD, VERDICT_BAD = GOOD_TEXT, BAD_TEXT


def link_fragment(name, text):
    """A kernel's fragment made here, as any other program makes one: raw deflate, base64url."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = packer.compress(text.encode()) + packer.flush()
    return f"#file={name}&kernel=" + base64.urlsafe_b64encode(data).decode().rstrip("=")


def type_text(browser, text):
    """Types `text` as a keyboard does: a key event for each character, Enter for each line's end
    (held for a frame, as Dear ImGui sees a key only when a frame finds it down)."""
    lines = text.split("\n")
    for number, line in enumerate(lines):
        for c in line:
            browser.send("Input.dispatchKeyEvent", {"type": "char", "text": c, "unmodifiedText": c, "key": c})
        wait_frames(browser, browser.evaluate("Module.frames") + 2, time.monotonic() + 10)
        if number + 1 < len(lines):
            press(browser, "Enter", "Enter", 13)


def with_control(browser, key, code, keycode):
    """A key pressed with Control held down around it (Ctrl+Enter, the editor's Run; Ctrl+A)."""
    control = {"key": "Control", "code": "ControlLeft", "windowsVirtualKeyCode": 17, "nativeVirtualKeyCode": 17}
    pressed = {"key": key, "code": code, "windowsVirtualKeyCode": keycode, "nativeVirtualKeyCode": keycode, "modifiers": 2}
    browser.send("Input.dispatchKeyEvent", {"type": "rawKeyDown", **control, "modifiers": 2})
    for kind in ("rawKeyDown", "keyUp"):
        browser.send("Input.dispatchKeyEvent", {"type": kind, **pressed})
        wait_frames(browser, browser.evaluate("Module.frames") + 2, time.monotonic() + 10)
    browser.send("Input.dispatchKeyEvent", {"type": "keyUp", **control, "modifiers": 0})
    wait_frames(browser, browser.evaluate("Module.frames") + 2, time.monotonic() + 10)


def type_kernel(browser, text, folder):
    """Replaces the editor's text (Ctrl+A) with `text`, typed, and makes sure it holds exactly that:
    File > Save kernel downloads the editor's text. Where it does not, it is typed again, up to three
    times, each attempt said (each Enter is down for one frame, so that a slow frame cannot repeat
    it: press). Leaves the text box taking the keyboard (K twice: the panel closed and opened)."""
    for _ in range(3):
        with_control(browser, "a", "KeyA", 65)
        type_text(browser, text)
        browser.evaluate("Module.lastDownload = null")
        click_file_item(browser, -2)
        name, data = downloaded(browser, folder)
        # The pointer off the menu's place, where it would rest on a control and open its tooltip.
        browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": WIDTH // 2, "y": HEIGHT - 120})
        for _ in range(2):
            press(browser, "k", "KeyK", 75)
        if data.decode() == text:
            return
        print(f"page_test: the editor held {len(data)} bytes after typing {len(text)}: typing again")
    fail(f"the editor never held the {len(text)} bytes typed (File > Save kernel downloaded {name}, {len(data)} bytes)")


def wait_for_address(browser, part, seconds=30):
    """Waits until the page's address holds `part` (the window writes it once a run is shown)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        href = browser.evaluate("location.href") or ""
        if part in href:
            wait_frames(browser, browser.evaluate("Module.frames") + 10, time.monotonic() + 10)
            return href
        time.sleep(0.1)
    fail(f"the page's address never held '{part}' in {seconds} s: it says {browser.evaluate('location.href')}")


def report_box(image):
    """Where the report card is: the lower part of the "Your kernel" panel, which takes the right-hand
    column (the right 46 % of the window) under the narration, the editor above the card."""
    width, height = image[0], image[1]
    return int(0.55 * width), int(0.68 * height), int(0.99 * width), int(0.99 * height)


def editor_box(image):
    width, height = image[0], image[1]
    return int(0.55 * width), int(0.25 * height), int(0.99 * width), int(0.62 * height)


def verdict(image):
    """The pixels of the report card in the verdict's two colours: (good, bad)."""
    box = report_box(image)
    return count_colour(image, box, VERDICT_GOOD, 12), count_colour(image, box, VERDICT_BAD, 12)


def wait_for_verdict(browser, which):
    """A screenshot once the report card, graded off the frame, shows its verdict in CORRECT's
    green (`which` 0) or WRONG's red (1); the last one after a minute without."""
    deadline = time.monotonic() + 60
    while True:
        shot = screenshot(browser)
        if verdict(read_png(shot))[which] > 30 or time.monotonic() > deadline:
            return shot
        time.sleep(0.3)


def band_line(image, band):
    """The editor's line the band is on: the lines of text right above it, each as tall as the band
    (a line of the editor is one font size), counted up to the first without text, which is the
    padding above the first line."""
    width = image[0]
    x0, x1, pitch = int(0.59 * width), int(0.95 * width), len(band)
    def inked(top):
        return any(max(pixel(image, x, y)) < 90 for y in range(top, top + pitch) for x in range(x0, x1, 2))
    above = 0
    while band[0] - (above + 1) * pitch > 0 and inked(band[0] - (above + 1) * pitch):
        above += 1
    return above + 1


def error_band_rows(image):
    """The rows of the editor where the error line's band is: a red tint over the light background,
    its red well above its green and blue."""
    x0, y0, x1, y1 = editor_box(image)
    rows = []
    for y in range(y0, y1):
        tinted = sum(1 for x in range(x0, x1, 4) if (p := pixel(image, x, y))[0] > 200 and 30 < p[0] - p[1] < 90 and abs(p[1] - p[2]) < 8)
        if tinted > (x1 - x0) // 8:
            rows.append(y)
    return rows


def close_panel(browser):
    """Escape (the text lets go of the keyboard), then K: the panel closes, the diagram shows whole.
    A few frames first: after a run the text box takes the keyboard back a frame later."""
    wait_frames(browser, browser.evaluate("Module.frames") + 10, time.monotonic() + 10)
    press(browser, "Escape", "Escape", 27)
    press(browser, "k", "KeyK", 75)


def typed_kernel(browser, url, out):
    """K, the kernel typed, Ctrl+Enter: the report card says WRONG where it said nothing, the race's
    cells are red, and the address carries the kernel, n and the step. Returns the address and the
    race's screenshot."""
    folder = os.path.join(out, "downloads")
    os.makedirs(folder, exist_ok=True)
    allow_downloads(browser, folder)
    load(browser, url)
    press(browser, "k", "KeyK", 75)  # the panel opens with the editor's text box taking the keyboard
    empty = read_png(screenshot(browser))
    type_kernel(browser, RACY_KERNEL, folder)
    with_control(browser, "Enter", "Enter", 13)
    wait_for_address(browser, "#file=")
    card = wait_for_verdict(browser, 1)
    save(card, os.path.join(out, "web-kernel-editor.png"))
    if sum(verdict(empty)) != 0:
        fail("the report card shows a verdict before any kernel ran")
    good, bad = verdict(read_png(card))
    if bad <= 30 or good > bad:
        fail(f"the report card of slide 14's racy Kogge-Stone shows {bad} pixels of WRONG's red and {good} of CORRECT's green")
    close_panel(browser)
    # The run opens at its first step, the load; the right arrow shows stride 1, where the race is.
    load_step = screenshot(browser)
    step_to(browser, 1)
    race = screenshot(browser)
    save(race, os.path.join(out, "web-kernel-race.png"))
    hazard = colour_in_diagram(read_png(race), HAZARD)
    if hazard < 1000 or colour_in_diagram(read_png(load_step), HAZARD) > 100:
        fail(f"the typed racy kernel's diagram shows {hazard} pixels of the hazard colour at stride 1 "
             f"({colour_in_diagram(read_png(load_step), HAZARD)} at the load), not its race's cells there")
    link = browser.evaluate("location.href")
    query = link.split("?", 1)[1].split("#", 1)[0].split("&") if "?" in link else []
    # A link leaves out what the default lesson has (n=8 among it): n is 8 named or not, nothing else.
    n_keys = [k for k in query if k.startswith("n=")]
    if n_keys not in ([], ["n=8"]) or not any(k.startswith("step=") for k in query) or "#file=your_kernel.cu&kernel=" not in link:
        fail(f"after the run the address is {link}: not n = 8, a step and the kernel in its fragment")
    print(f"page_test: the kernel typed in the editor and run (Ctrl+Enter) shows its race ({hazard} hazard pixels) "
          f"and the report card's WRONG ({bad} red pixels); the address carries it in {len(link)} characters")
    return link, race


def typed_error(browser, link, out):
    """The kernel typed again with an error on its sixth line, Ctrl+Enter: the editor marks that
    line, and the address keeps the last kernel that ran."""
    press(browser, "k", "KeyK", 75)
    type_kernel(browser, BROKEN_KERNEL, os.path.join(out, "downloads"))
    with_control(browser, "Enter", "Enter", 13)
    # Ctrl+Home: the cursor to the text's start, which the editor scrolls into view (the panel's column
    # is shorter than the text and its cursor at the end).
    with_control(browser, "Home", "Home", 36)
    deadline, band, shot = time.monotonic() + 30, [], None
    while not band and time.monotonic() < deadline:
        shot = screenshot(browser)
        band = error_band_rows(read_png(shot))
    save(shot, os.path.join(out, "web-kernel-error.png"))
    image = read_png(shot)
    if not band or band[-1] - band[0] + 1 != len(band) or not 10 <= len(band) <= 30:
        fail(f"the broken kernel's editor shows the error band on rows {band[:2]}..{band[-2:]}, not one line of text")
    line = band_line(image, band)
    if line != BROKEN_LINE:
        fail(f"the error band is on line {line} of the editor (rows from {band[0]}), not line {BROKEN_LINE}, where the error is")
    if (now := browser.evaluate("location.href")) != link:
        fail(f"after a kernel that does not compile the address became {now}, not the last run's {link}")
    close_panel(browser)
    print(f"page_test: a kernel typed with an error marks line {line} in the editor; the address keeps the last run")


def reopened_link(browser, link, race, out):
    """The link opens the same kernel (File > Save kernel downloads the bytes typed) at the same n
    and step (the same rows of cells, the same hazard cells), and the address comes back the same."""
    folder = os.path.join(out, "downloads")
    browser.send("Page.navigate", {"url": "about:blank"})  # the same address again would not reload
    load(browser, link)
    wait_for_address(browser, "#file=")
    reopened = screenshot(browser)
    save(reopened, os.path.join(out, "web-kernel-link-reopened.png"))
    before, after = read_png(race), read_png(reopened)
    rows = (count_cell_rows(before), count_cell_rows(after))
    hazards = (colour_in_diagram(before, HAZARD), colour_in_diagram(after, HAZARD))
    if rows[0] != rows[1] or rows[1] < 2 or abs(hazards[0] - hazards[1]) > hazards[0] // 20:
        fail(f"the link opens {rows[1]} row(s) of cells and {hazards[1]} hazard pixels, where the window it was "
             f"copied from showed {rows[0]} and {hazards[0]}")
    if (again := browser.evaluate("location.href")) != link:
        fail(f"the link {link} opened, and the window's address became {again}")
    browser.evaluate("Module.lastDownload = null")
    click_file_item(browser, -2)
    name, data = downloaded(browser, folder)
    if name != "your_kernel.cu" or data.decode() not in (RACY_KERNEL, RACY_KERNEL.rstrip("\n")):
        fail(f"File > Save kernel on the reopened link downloaded {name} ({len(data)} bytes), not the kernel typed")
    print(f"page_test: the link reopens the same kernel ({name}, {len(data)} bytes saved), {rows[1]} rows of cells "
          f"and {hazards[1]} hazard pixels at its step")


def dropped_kernel(browser, url, out, root):
    """The double-buffered Kogge-Stone's CUDA form (the one whose loads check n) dropped on the page:
    it opens in the editor and runs, its report card says CORRECT, its diagram has no hazard, and
    the address names it."""
    load(browser, url)
    drop_file(browser, os.path.join(root, "kernels", "block", "cuda", "kogge_stone_double_buffer.cu"), "text/plain")
    link = wait_for_address(browser, "#file=kogge_stone_double_buffer.cu&kernel=")
    shot = wait_for_verdict(browser, 0)
    save(shot, os.path.join(out, "web-kernel-dropped.png"))
    good, bad = verdict(read_png(shot))
    if good <= 30 or bad > 0:
        fail(f"the dropped double-buffered Kogge-Stone's report card shows {good} pixels of CORRECT's green and {bad} of WRONG's red")
    close_panel(browser)
    if (hazard := colour_in_diagram(read_png(screenshot(browser)), HAZARD)) != 0:
        fail(f"the dropped double-buffered Kogge-Stone's diagram shows {hazard} hazard pixels; it has no race")
    print(f"page_test: a dropped .cu opens in the editor and runs: CORRECT, no hazard, the address names it ({len(link)} characters)")


def dropped_class(browser, url, out, root):
    """Three .cu files dropped at once (a correct Kogge-Stone, the slides' racy one, one that does not
    compile) are a class: the class panel opens over the lower left of the window and, as the page
    grades them a frame's share at a time, shows CORRECT's green and WRONG's and ERROR's red there
    (the default lesson's own panel, which the class panel covers, has no red). The green is the word
    "correct" on the selected row's highlight: about 17 pixels keep its colour within 12 there."""
    load(browser, url)
    folder = os.path.join(out, "dropped-class")
    os.makedirs(folder, exist_ok=True)
    broken = os.path.join(folder, "broken.cu")
    with open(broken, "w", encoding="utf-8") as f:
        f.write("__global__ void scan(float* in, float* out, int n) {\n  out[threadIdx.x] = in[threadIdx.x]\n}\n")
    drop_files(browser, [os.path.join(root, "tests", "kernels", "correct_kogge_stone.cu"),
                         os.path.join(root, "assets", "kernels", "pmpp_kogge_stone_incorrect.cu"), broken], "text/plain")
    deadline, good, bad = time.monotonic() + 180, 0, 0
    while time.monotonic() < deadline:
        shot = screenshot(browser)
        image = read_png(shot)
        box = (0, int(0.52 * image[1]), int(0.54 * image[0]), int(0.92 * image[1]))
        good, bad = count_colour(image, box, VERDICT_GOOD, 12), count_colour(image, box, VERDICT_BAD, 12)
        if good > 10 and bad > 40:
            break
        time.sleep(0.5)
    save(shot, os.path.join(out, "web-class-dropped.png"))
    if good <= 10 or bad <= 40:
        fail(f"three .cu files dropped at once: the class panel shows {good} pixels of CORRECT's green and {bad} of WRONG's and ERROR's red")
    print(f"page_test: three .cu files dropped at once are a class, graded in the page: {good} green and {bad} red verdict pixels")


def fragment_kernel(href):
    """The kernel an address carries, read here as any other program reads it: base64url, raw inflate."""
    data = href.split("kernel=", 1)[1]
    return zlib.decompress(base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)), -15).decode()


def made_elsewhere(browser, url):
    """A link whose kernel Python's zlib compressed opens it, and the address the window writes back
    carries the same text (read back with Python's zlib); a link cut short is one line on the page."""
    load(browser, url + "?n=8" + link_fragment("elsewhere.cu", RACY_KERNEL))
    href = wait_for_address(browser, "#file=elsewhere.cu&kernel=")
    if fragment_kernel(href) != RACY_KERNEL:
        fail(f"the link made with Python's zlib opened, and the address's kernel became {fragment_kernel(href)!r}")
    said = page_line(browser, url + "?n=8" + link_fragment("cut.cu", RACY_KERNEL)[:-30])
    if said != "scanviz: link: the kernel in the address is cut short: the link was not copied whole":
        fail(f"a link whose kernel was cut short says '{said}'")
    print(f"page_test: a link made with Python's zlib opens its kernel; one cut short says '{said}'")


def kernels(browser, url, out, root):
    """A kernel of one's own in the page: typed and run, an error typed, its link reopened, a .cu
    dropped, three dropped at once (a class), a link made elsewhere."""
    link, race = typed_kernel(browser, url, out)
    typed_error(browser, link, out)
    reopened_link(browser, link, race, out)
    dropped_kernel(browser, url, out, root)
    dropped_class(browser, url, out, root)
    made_elsewhere(browser, url)
