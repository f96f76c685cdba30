"""Headless Chromium driven over the DevTools protocol on a pipe (no other package needed), the
local server for the site, and a person's input: keys, clicks, drops, the pointer, the page's size."""
import base64
import functools
import http.server
import json
import os
import subprocess
import threading
import time

from page_common import HEIGHT, WIDTH, fail

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


def wait_frames(browser, frames, deadline):
    while browser.evaluate("Module.frames") < frames and time.monotonic() < deadline:
        time.sleep(0.05)


def screenshot(browser):
    return base64.b64decode(browser.send("Page.captureScreenshot", {"format": "png"})["data"])


def save(png, path):
    with open(path, "wb") as f:
        f.write(png)
    print(f"page_test: screenshot {path}")


# The page side of press: a key armed in window.svReleaseAfterFrame is released (a key-up to the
# window, as the browser sends one) right after the window's next frame. The frame loop asked for
# that frame before the key went down, so its callback runs first: exactly one frame sees the key.
KEY_RELEASE_SCRIPT = """addEventListener('keydown', function(e) {
  if (!e.isTrusted || window.svReleaseAfterFrame !== e.keyCode) return;
  window.svReleaseAfterFrame = null;
  var key = e.key, code = e.code, keyCode = e.keyCode;
  requestAnimationFrame(function() {
    var up = new KeyboardEvent('keyup', {key: key, code: code});
    Object.defineProperty(up, 'keyCode', {value: keyCode});
    dispatchEvent(up);
  });
}, true);"""


def install_key_release(browser):
    """KEY_RELEASE_SCRIPT in every page the browser opens from now on."""
    browser.send("Page.addScriptToEvaluateOnNewDocument", {"source": KEY_RELEASE_SCRIPT})


def press(browser, key, code, keycode):
    """A key pressed as a person does, down for exactly one of the window's frames: Dear ImGui sees a
    press only when a frame finds the key down, and a second frame that finds it still down after
    the repeat delay (0.275 s, one slow frame) counts it again (the arrows and a text field's keys
    repeat). The page releases it after that frame (install_key_release); the browser's key-up follows."""
    browser.evaluate(f"window.svReleaseAfterFrame = {keycode}")
    for kind, frames in (("rawKeyDown", 1), ("keyUp", 2)):
        browser.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": code,
                                                "windowsVirtualKeyCode": keycode, "nativeVirtualKeyCode": keycode})
        wait_frames(browser, browser.evaluate("Module.frames") + frames, time.monotonic() + 10)


def click(browser, x, y):
    for kind in ("mousePressed", "mouseReleased"):
        browser.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})
        wait_frames(browser, browser.evaluate("Module.frames") + 3, time.monotonic() + 10)


def hover(browser, x, y):
    """Rests the pointer at (x, y) for a few frames; a screenshot."""
    browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
    wait_frames(browser, browser.evaluate("Module.frames") + 6, time.monotonic() + 10)
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


def drop_file(browser, path, media_type="application/json"):
    """Drops the file at `path` on the window as a file manager does (a drop event on the canvas,
    carrying the file of `media_type`), waits for the page to read it and the window to open it; a
    screenshot."""
    return drop_files(browser, [path], media_type)


def drop_files(browser, paths, media_type="application/json"):
    """Drops the files at `paths` on the window in one drop, as a file manager's selection arrives;
    waits for the page to read them and the window to open them; a screenshot."""
    adds = ""
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        name = os.path.basename(path)
        adds += f" files.items.add(new File([{json.dumps(text)}], {json.dumps(name)}, {{type: {json.dumps(media_type)}}}));"
    browser.evaluate("(function() { var files = new DataTransfer();" + adds +
                     " Module.canvas.dispatchEvent(new DragEvent('drop', {dataTransfer: files, bubbles: true, cancelable: true}));"
                     " })()")
    wait_frames(browser, browser.evaluate("Module.frames") + 10, time.monotonic() + 20)
    return screenshot(browser)


def open_file_menu(browser):
    browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 20, "y": 11})
    click(browser, 20, 11)


def copy_link(browser):
    """Clicks File, then its first item (Copy link), and returns the link the page copied or shows."""
    open_file_menu(browser)
    browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 40, "y": 36})
    wait_frames(browser, browser.evaluate("Module.frames") + 3, time.monotonic() + 10)
    click(browser, 40, 36)
    time.sleep(0.5)  # the clipboard answers (or refuses) asynchronously
    return browser.evaluate("[Module.copiedLink, document.getElementById('link').style.display == 'block' ? "
                            "document.getElementById('link').value : '']")


def address_step(browser):
    search = browser.evaluate("location.search") or ""
    return next((int(p[5:]) for p in search.lstrip("?").split("&") if p.startswith("step=")), None)


def step_to(browser, target, presses=6):
    """The arrows, as a person steps to `target`: Right while the address's step is before it, Left
    while after, each press moving it that way; returns the presses. The step is read after each
    press, not assumed from the presses (held, an arrow keeps stepping)."""
    count = 0
    while (step := address_step(browser) or 0) != target:
        if count == presses:
            fail(f"{presses} presses of the arrows left the address at step {step}, not {target}")
        key = ("ArrowRight", "ArrowRight", 39) if step < target else ("ArrowLeft", "ArrowLeft", 37)
        press(browser, *key)
        count += 1
        moved = address_step(browser) or 0
        if (moved - step) * (target - step) <= 0:
            fail(f"{key[0]} at step {step} left the address at step {moved}: the arrow did not step that way")
    return count


def play_steps(browser):
    """Presses Space and returns the steps the address names over the next seconds (until it has
    moved twice), then Space again to stop."""
    steps = [address_step(browser)]
    press(browser, " ", "Space", 32)
    until = time.monotonic() + 8
    while time.monotonic() < until and len(set(steps)) < 3:
        time.sleep(0.1)
        if (step := address_step(browser)) != steps[-1]:
            steps.append(step)
    stop_playing(browser)
    return steps


def stop_playing(browser):
    """Space again, and the address's step then stays put for more than two steps' time (the window
    plays a step a second): Space stopped the timeline, once, however slow the frames (a toggle acts
    once a press, gui/platform/keys.hpp)."""
    press(browser, " ", "Space", 32)
    step, until = address_step(browser), time.monotonic() + 2.5
    while time.monotonic() < until:
        time.sleep(0.1)
        if address_step(browser) != step:
            fail(f"Space pressed during play did not stop the timeline: the address's step went {step} -> "
                 f"{address_step(browser)}")


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
