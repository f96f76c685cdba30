"""axe-core, the rules auditors run, in the page: no violation of WCAG 2.1's A and AA rules on the
default lesson, the race's last step, its controls shown by the focus, the key table open, the look-back view, the charts and a
kernel of one's own with its card. scripts/web.sh fetches axe-core from the npm registry into the
build folder (never into the sources); without it this part says so and is skipped."""
import json
import os
import time

from page_access import ax_find, ax_nodes, wait_for
from page_browser import load
from page_common import fail
from page_kernel import RACY_KERNEL, link_fragment

WCAG_21_A_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def violations(browser, source):
    """axe-core on the page as it is, WCAG 2.1 A and AA rules only: how many rules passed, the violations
    ('rule: selector, ...' each) and the rules it could not decide (left for a person to review)."""
    browser.send("Runtime.evaluate", {"expression": source})
    script = ("axe.run(document, {runOnly: {type: 'tag', values: " + json.dumps(WCAG_21_A_AA) + "}})"
              ".then(function(r) { return {rules: r.passes.length, review: r.incomplete.map(function(v) { return v.id; }),"
              " violations: r.violations.map(function(v) {"
              " return v.id + ': ' + v.nodes.map(function(n) { return n.target.join(' '); }).join(', '); })}; })")
    result = browser.send("Runtime.evaluate", {"expression": script, "awaitPromise": True, "returnByValue": True}, timeout=120)
    value = result.get("result", {}).get("value")
    if not value:
        fail(f"axe-core did not run in the page: {result}")
    return value["rules"], value["violations"], value["review"]


def axe(browser, url, axe_js):
    if not os.path.isfile(axe_js):
        print(f"page_test: skipped the WCAG rules: no axe-core at {axe_js} (scripts/web.sh fetches it with npm)")
        return
    with open(axe_js, encoding="utf-8") as f:
        source = f.read()

    def help_open():
        browser.evaluate("document.getElementById('mirror-help').click()")
        time.sleep(0.2)

    def controls_focused():
        browser.evaluate("document.getElementById('mirror-next').focus()")
        time.sleep(0.2)

    def card_graded():
        wait_for(browser, "the card's verdict", lambda n: ax_find(n, "heading", "Report card: WRONG") is not None, 90)

    views = [
        ("the default lesson", "", None),
        ("the race's last step", "?algo=kogge-stone-racy&op=sum&step=4", None),
        ("the lesson's controls, shown by the focus", "", controls_focused),
        ("the key table", "", help_open),
        ("the look-back view", "?lookback=fig6", None),
        ("the charts", "?charts=1", None),
        ("a kernel of one's own and its card", "?n=8" + link_fragment("racy.cu", RACY_KERNEL), card_graded),
    ]
    # First, that the run can fail: an image without a text alternative, put in the page for one run.
    load(browser, url)
    browser.evaluate("document.body.appendChild(Object.assign(document.createElement('img'), {id: 'no-alt', src: 'index.data'}))")
    _, planted, _ = violations(browser, source)
    browser.evaluate("document.getElementById('no-alt').remove()")
    if not any(v.startswith("image-alt: ") for v in planted):
        fail(f"axe-core did not report an image without alt put in the page: {planted}")
    found = []
    for name, tail, then in views:
        load(browser, url + tail)
        if then:
            then()
        passed, bad, review = violations(browser, source)
        print(f"page_test: axe-core on {name}: {passed} rules passed, {len(bad)} violations of WCAG 2.1 A and AA"
              + (f", to review by a person: {', '.join(review)}" if review else ""))
        found += [f"{name}: {v}" for v in bad]
    if found:
        fail("axe-core found violations of WCAG 2.1 A and AA:\n  " + "\n  ".join(found))
    if ax_find(ax_nodes(browser), "status") is None:
        fail("the live region is gone from the tree after the axe runs")
