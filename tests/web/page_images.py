"""The pictures the page test reads: a PNG decoder (8-bit RGB or RGBA, not interlaced) for the
screenshots and exports, a GIF block walker, and the window's colours and where its diagram is."""
import zlib

from page_common import fail

def read_png(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height = int.from_bytes(body[0:4], "big"), int.from_bytes(body[4:8], "big")
            depth, color, interlace = body[8], body[9], body[12]
            if depth != 8 or color not in (2, 6) or interlace:
                raise ValueError(f"unsupported PNG (depth {depth}, colour type {color}, interlace {interlace})")
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        kind, row = line[0], bytearray(line[1:])
        for x in range(stride):
            a = row[x - channels] if x >= channels else 0
            b = previous[x]
            c = previous[x - channels] if x >= channels else 0
            if kind == 1:
                row[x] = (row[x] + a) & 255
            elif kind == 2:
                row[x] = (row[x] + b) & 255
            elif kind == 3:
                row[x] = (row[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[x] = (row[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(row)
        previous = row
    return width, height, channels, rows


def pixel(image, x, y):
    _, _, channels, rows = image
    return tuple(rows[y][x * channels:x * channels + 3])


def count_colour(image, box, rgb, tolerance=6):
    """Pixels inside box (x0, y0, x1, y1) within tolerance of rgb in every channel."""
    x0, y0, x1, y1 = box
    n = 0
    for y in range(y0, y1):
        for x in range(x0, x1):
            p = pixel(image, x, y)
            n += all(abs(p[i] - rgb[i]) <= tolerance for i in range(3))
    return n


def close(p, rgb, tolerance=6):
    return all(abs(p[i] - rgb[i]) <= tolerance for i in range(3))


# The light theme's cell fill and border (gui/model/diagram_model.cpp palette_light), which a page with no
# saved settings shows.
CELL_FILL, CELL_BORDER = (0xF8, 0xF9, 0xFA), (0x34, 0x3A, 0x40)


def diagram_box(image):
    """The middle of the window, where the diagram is: (x0, x1, y0, y1)."""
    width, height = image[0], image[1]
    return int(0.25 * width), int(0.70 * width), int(0.05 * height), int(0.92 * height)


# The legend's strip under the cells (one line of 13 px text and its margins), in page pixels.
LEGEND_STRIP = 40


def count_cell_rows(image):
    """Rows of cells in the diagram: bands of lines that cross at least 9 cell borders (8 cells),
    above the legend's strip at the diagram's foot (its text has border-grey strokes too)."""
    x0, x1, y0, y1 = diagram_box(image)
    y1 -= LEGEND_STRIP
    rows, inside = 0, False
    for y in range(y0, y1):
        borders, x = 0, x0
        while x < x1:
            if close(pixel(image, x, y), CELL_BORDER):
                end = x
                while end < x1 and close(pixel(image, end, y), CELL_BORDER):
                    end += 1
                borders += end - x <= 3  # a vertical border, not a horizontal one
                x = end
            else:
                x += 1
        crossing = borders >= 9
        rows += crossing and not inside
        inside = crossing
    return rows


# The hazard colour (palette_light's cell_hazard) and the look-back view's flags P and A (the light
# LookbackPalette in gui/model/lookback_scene.cpp).
HAZARD, FLAG_P, FLAG_A = (0xF8, 0x60, 0x60), (0x2E, 0x9E, 0x44), (0xF2, 0xA9, 0x00)
# The light theme's green and red of text that says something is right or wrong (gui/draw/text_colours.hpp's
# kTextOnLight).
GOOD_TEXT, BAD_TEXT = (0x1A, 0x6B, 0x2B), (0xB4, 0x1A, 0x1A)


def colour_in_diagram(image, rgb):
    x0, x1, y0, y1 = diagram_box(image)
    return count_colour(image, (x0, y0, x1, y1), rgb)


# The light theme's active-thread fill (palette_light's cell_active).
ACTIVE_FILL = (0xB2, 0xF2, 0xBB)


def svg_colour(rgb):
    return "#" + "".join(f"{v:02x}" for v in rgb)


def hex_colour(text):
    return tuple(int(text[k:k + 2], 16) for k in (1, 3, 5))


def gif_frames(data):
    """The number of images in a GIF, walking its blocks (GIF89a: header, screen, extensions, images)."""
    if data[:6] != b"GIF89a":
        fail(f"File > Export all steps as GIF: the file starts {data[:6]!r}, not GIF89a")
    pos = 13 + (3 << ((data[10] & 7) + 1) if data[10] & 0x80 else 0)  # the global colour table, if any
    frames = 0

    def skip_sub_blocks(pos):
        while data[pos]:
            pos += 1 + data[pos]
        return pos + 1

    while pos < len(data) and data[pos] != 0x3B:
        if data[pos] == 0x21:  # an extension: its label, then sub-blocks
            pos = skip_sub_blocks(pos + 2)
        elif data[pos] == 0x2C:  # an image: descriptor, local colour table, LZW code size, sub-blocks
            flags = data[pos + 9]
            pos += 10 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0)
            pos = skip_sub_blocks(pos + 1)
            frames += 1
        else:
            fail(f"File > Export all steps as GIF: byte {pos} is 0x{data[pos]:02x}, no GIF block")
    if pos >= len(data):
        fail("File > Export all steps as GIF: the file ends before its trailer")
    return frames
