"""What every part of the page test shares: the page's size, and skipping or failing in one line."""
import sys

SKIP = 77


WIDTH, HEIGHT = 1280, 800


def skip(why):
    print(f"page_test: skipped: {why}")
    sys.exit(SKIP)


def fail(why):
    print(f"page_test: FAILED: {why}")
    sys.exit(1)
