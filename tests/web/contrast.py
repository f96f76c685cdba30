"""WCAG contrast measured from a screenshot's pixels: the relative luminance of sRGB colours, their
ratio, and the window's text found as glyphs (small connected marks on a plain background), each
with the ratio of its darkest-or-lightest pixel to that background.

    python3 tests/web/contrast.py PNG [MIN_RATIO]   prints the glyph groups under MIN_RATIO (4.5)
"""
import sys


def luminance(rgb):
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(a, b):
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


TILE = 12


def tile_backgrounds(image):
    """Each TILE x TILE tile's most common colour and the share of its pixels that have it."""
    w, h, channels, rows = image
    tiles = {}
    for ty in range(0, h, TILE):
        for tx in range(0, w, TILE):
            counts = {}
            for y in range(ty, min(h, ty + TILE)):
                row = rows[y]
                for x in range(tx, min(w, tx + TILE)):
                    p = bytes(row[x * channels:x * channels + 3])
                    counts[p] = counts.get(p, 0) + 1
            colour, n = max(counts.items(), key=lambda kv: kv[1])
            tiles[(tx // TILE, ty // TILE)] = (tuple(colour), n / sum(counts.values()))
    return tiles


def glyphs(image, box=None, max_px=16):
    """The glyph-like marks in box (x0, y0, x1, y1): 8-connected pixels that differ from their tile's
    background, whose bounding box is at most max_px each way (a letter of the window's 13 px text;
    buttons, check boxes and radio buttons are larger) and which are not a filled rectangle. Each as (x0, y0, x1, y1, background, ink, ratio): ink is its pixel farthest in
    luminance from the background, as a glyph's stem is drawn in the text's own colour."""
    w, h, channels, rows = image
    x0, y0, x1, y1 = box or (0, 0, w, h)
    tiles = tile_backgrounds(image)

    def background(x, y):
        return tiles[(x // TILE, y // TILE)]

    def differs(x, y):
        bg, share = background(x, y)
        if share < 0.4:
            return False
        p = rows[y][x * channels:x * channels + 3]
        return abs(p[0] - bg[0]) + abs(p[1] - bg[1]) + abs(p[2] - bg[2]) > 24

    seen = set()
    found = []
    for y in range(y0, y1):
        for x in range(x0, x1):
            if (x, y) in seen or not differs(x, y):
                continue
            stack, pixels = [(x, y)], []
            seen.add((x, y))
            too_big = False
            while stack:
                px, py = stack.pop()
                pixels.append((px, py))
                if len(pixels) > max_px * max_px:
                    too_big = True
                for dy in (-1, 0, 1):
                    for dx in (-1, 0, 1):
                        qx, qy = px + dx, py + dy
                        if x0 <= qx < x1 and y0 <= qy < y1 and (qx, qy) not in seen and differs(qx, qy):
                            seen.add((qx, qy))
                            stack.append((qx, qy))
            xs, ys = [p[0] for p in pixels], [p[1] for p in pixels]
            bw, bh = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
            # Marks one or two pixels wide (an i, an l, a line) are left out: a stroke that thin never
            # reaches the text's colour, only its antialiased edge; the word's wider letters do.
            if too_big or bw > max_px or bh > max_px or bh < 4 or bw <= 2:
                continue
            if bw >= 4 and bh >= 4 and len(pixels) >= 0.85 * bw * bh:
                continue  # a filled rectangle: a swatch or a slider's grab, not text
            bg = background(min(xs) + bw // 2, min(ys) + bh // 2)[0]
            lb = luminance(bg)
            ink = max((tuple(rows[py][px * channels:px * channels + 3]) for px, py in pixels),
                      key=lambda c: abs(luminance(c) - lb))
            found.append((min(xs), min(ys), max(xs) + 1, max(ys) + 1, bg, ink, ratio(ink, bg)))
    return found


def alike(a, b):
    return max(abs(a[i] - b[i]) for i in range(3)) <= 64


def words(marks, gap=6):
    """Marks grouped into words: neighbours on one line (overlapping rows) less than `gap` apart,
    drawn in alike colours (a green "correct" after a black "result" is a word of its own).
    Each as (x0, y0, x1, y1, ratio, its background, its ink)."""
    groups = []
    for m in sorted(marks, key=lambda m: m[0]):
        for g in groups:
            if m[0] - g[2] < gap and m[1] < g[3] and m[3] > g[1] and alike(m[5], g[4][0][5]):
                g[0], g[1], g[2], g[3] = min(g[0], m[0]), min(g[1], m[1]), max(g[2], m[2]), max(g[3], m[3])
                g[4].append(m)
                break
        else:
            groups.append([m[0], m[1], m[2], m[3], [m]])
    out = []
    for g in groups:
        # A word's contrast: its glyphs' best, as each letter of a word is drawn in one colour (a
        # letter's thin parts alone never reach it).
        best = max(g[4], key=lambda m: m[6])
        out.append((g[0], g[1], g[2], g[3], best[6], best[4], best[5]))
    return out


if __name__ == "__main__":
    from page_images import read_png
    with open(sys.argv[1], "rb") as f:
        image = read_png(f.read())
    least = float(sys.argv[2]) if len(sys.argv) > 2 else 4.5
    for x0, y0, x1, y1, r, bg, ink in sorted(words(glyphs(image)), key=lambda g: (g[1], g[0])):
        if r < least:
            print(f"{x0},{y0}-{x1},{y1}: {r:.2f} ink #{bytes(ink).hex()} on #{bytes(bg).hex()}")
