#!/usr/bin/env python3
"""Checks the repository's text for history and its documents for broken links.

Usage: python3 tests/docs/check_docs.py [ROOT]
ROOT defaults to the repository this script lives in. Exit status 0 when clean, 1 with one
`path:line: problem` line per finding, 2 when ROOT is not usable.

(a) History: every tracked text file (git ls-files; binaries skipped) is searched for references
    that only make sense to whoever wrote them: work sessions, issue and pull-request numbers used as
    history, log folders of a device run, absolute paths of a developer's machine, and commit hashes
    in prose. Genuine system paths (/usr/, /dev/, /etc/, /proc/) are fine, and /tmp/ is fine outside
    Markdown and plain-text documents (scripts use temporary folders).
(b) Links: every relative link and image in README.md and docs/*.md must name an existing file, and a
    #fragment must name a heading (GitHub's anchor for it) or an explicit anchor of the target.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

# This file spells the patterns out, so it is the one file the history check skips.
SELF = "tests/docs/check_docs.py"

BINARY_SUFFIXES = {
    ".png", ".jpg", ".jpeg", ".gif", ".ico", ".bmp", ".webp", ".pdf", ".ttf", ".otf", ".woff", ".woff2",
    ".xz", ".gz", ".tgz", ".zip", ".bz2", ".zst", ".a", ".o", ".so", ".bin",
}
PROSE_SUFFIXES = {".md", ".txt", ".rst"}
SLASH_COMMENT_SUFFIXES = {".c", ".h", ".cc", ".cpp", ".hpp", ".cu", ".cuh", ".vert", ".frag", ".glsl", ".js", ".ts"}

FLAGS = re.IGNORECASE

# --- (a) history patterns: (kind, regex, where) where is "all" or "prose" (the prose part of a line) ---
HISTORY = [
    ("session reference",
     re.compile(r"\bsessions?\s+#?\d+", FLAGS), "all"),
    ("session reference",
     re.compile(r"\b(?:previous|earlier|last|next)\s+sessions?\b|\bsession's\b", FLAGS), "all"),
    ("issue number",
     re.compile(r"\b(?:issues?|pull\s+requests?|PRs?|tickets?)\s+#?\d+\b"
                r"(?!\s*(?:instructions?|loads?|stores?|requests?|times|cycles|warps?|copies|bytes)\b)", FLAGS), "all"),
    ("issue number",
     re.compile(r"(?<![\w&#/])#\d{1,5}(?!\w)"), "prose"),
    ("log folder",
     re.compile(r"\.device-s\d+", FLAGS), "all"),
    ("log folder",
     re.compile(r"\(/\d+\b|`/\d+`|(?<![\w./])/\d+\s+(?:to|and)\s+/\d+\b"), "all"),
    ("absolute path of a developer's machine",
     re.compile(r"(?:^|(?<=[\s(\[<`'=:,;|>])|(?<=(?<![\w}])\"))"
                r"/(?:work|root|home/[A-Za-z0-9._-]+|Users/[A-Za-z0-9._-]+)(?:/|\b)"), "all"),
]
TMP_PATH = re.compile(r"(?:^|(?<=[\s(\[<`'=:,;|>\"]))/tmp/\S")
# A commit hash: 7 to 40 hex digits with at least one letter and one digit, standing alone.
HASH = re.compile(r"(?<![\w./#-])[0-9a-f]{7,40}(?![\w-])")


def prose_part(path, line):
    """The part of a line that is prose: the whole line of a document, else its comment."""
    suffix = Path(path).suffix.lower()
    if suffix in PROSE_SUFFIXES or suffix == "" and "/" not in path and path.isupper():
        return line
    if suffix in SLASH_COMMENT_SUFFIXES:
        at = line.find("//")
        return line[at + 2:] if at >= 0 else ""
    if suffix == ".json":
        return line
    # Shell, CMake, Python, YAML, .ci/run, .gitignore: a '#' at the start or after a blank.
    m = re.search(r"(?:^|\s)#(?![!{])", line)
    return line[m.end():] if m else ""


def looks_like_hash(word):
    return any(c.isdigit() for c in word) and any(c in "abcdef" for c in word)


def text_of(file):
    try:
        data = file.read_bytes()
    except OSError:
        return None
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def listed_files(root):
    try:
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], check=True, capture_output=True).stdout
        return sorted(p for p in out.decode().split("\0") if p)
    except (OSError, subprocess.CalledProcessError):
        pass
    # No git (an exported tree): every file but build outputs and hidden folders.
    files = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and not d.startswith("build")]
        for name in names:
            files.append(os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/"))
    return sorted(files)


def check_history(root):
    problems = []
    for rel in listed_files(root):
        if rel == SELF or Path(rel).suffix.lower() in BINARY_SUFFIXES:
            continue
        text = text_of(root / rel)
        if text is None:
            continue
        prose_file = Path(rel).suffix.lower() in PROSE_SUFFIXES
        for number, line in enumerate(text.splitlines(), 1):
            prose = prose_part(rel, line)
            found = []
            for kind, pattern, where in HISTORY:
                m = pattern.search(line if where == "all" else prose)
                if m:
                    found.append((kind, m.group(0)))
            if prose_file and (m := TMP_PATH.search(line)):
                found.append(("temporary path of a machine", m.group(0)))
            for m in HASH.finditer(prose):
                if looks_like_hash(m.group(0)):
                    found.append(("commit hash", m.group(0)))
                    break
            seen = set()
            for kind, what in found:
                if kind not in seen:
                    seen.add(kind)
                    problems.append(f"{rel}:{number}: {kind}: '{what.strip()}'")
    return problems


# --- (b) links ---
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
REFERENCE_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HTML_REF = re.compile(r"<(?:img|a|source)\b[^>]*?\b(?:src|href)\s*=\s*[\"']([^\"']+)[\"']", FLAGS)
HTML_ANCHOR = re.compile(r"<[a-z]+\b[^>]*?\b(?:id|name)\s*=\s*[\"']([^\"']+)[\"']", FLAGS)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")


def strip_inline_markup(text):
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link's text stays, its target goes
    return re.sub(r"<[^>]+>", "", text)


def github_anchor(heading):
    text = strip_inline_markup(heading).strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def markdown_lines(text):
    """(line number, line) of the lines outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if m:
            if fence is None:
                fence = m.group(1)
            elif m.group(1) == fence:
                fence = None
            continue
        if fence is None:
            yield number, line


def anchors_of(file, cache):
    if file not in cache:
        anchors = set()
        counts = {}
        text = text_of(file) or ""
        previous = ""
        for _, line in markdown_lines(text):
            m = HEADING.match(line)
            title = m.group(2) if m else None
            if title is None and previous.strip() and re.match(r"^\s{0,3}(=+|-+)\s*$", line):
                title = previous.strip()  # a setext heading
            if title is not None:
                base = github_anchor(title)
                n = counts.get(base, 0)
                counts[base] = n + 1
                anchors.add(base if n == 0 else f"{base}-{n}")
            anchors.update(a for a in HTML_ANCHOR.findall(line))
            previous = line
        cache[file] = anchors
    return cache[file]


def check_links(root):
    problems = []
    documents = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
    cache = {}
    for doc in documents:
        text = text_of(doc)
        if text is None:
            continue
        rel_doc = doc.relative_to(root).as_posix()
        for number, line in markdown_lines(text):
            plain = CODE_SPAN.sub("", line)
            targets = [m.group(1) for m in INLINE_LINK.finditer(plain)]
            targets += [m.group(1) for m in REFERENCE_DEF.finditer(plain)]
            targets += HTML_REF.findall(plain)
            for target in targets:
                target = target.strip("<>")
                if re.match(r"^[a-z][a-z0-9+.-]*:", target, FLAGS) or target.startswith("//"):
                    continue  # a URL (https:, mailto:, ...)
                path_part, _, fragment = target.partition("#")
                if path_part.startswith("/"):
                    problems.append(f"{rel_doc}:{number}: absolute link '{target}' (links are relative to the file)")
                    continue
                resolved = (doc.parent / path_part).resolve() if path_part else doc
                try:
                    resolved.relative_to(root.resolve())
                except ValueError:
                    problems.append(f"{rel_doc}:{number}: link '{target}' leaves the repository")
                    continue
                if not resolved.exists():
                    problems.append(f"{rel_doc}:{number}: broken link '{target}': no {path_part}")
                    continue
                if fragment and resolved.suffix.lower() == ".md":
                    if fragment.lower() not in anchors_of(resolved, cache):
                        problems.append(f"{rel_doc}:{number}: broken anchor '{target}': no heading "
                                        f"'#{fragment}' in {resolved.relative_to(root.resolve()).as_posix()}")
    return problems


def main(argv):
    root = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parents[2]
    if len(argv) > 2 or not root.is_dir():
        print("usage: check_docs.py [REPOSITORY_ROOT]", file=sys.stderr)
        return 2
    root = root.resolve()
    history = check_history(root)
    links = check_links(root)
    for line in history + links:
        print(line)
    if history or links:
        print(f"check_docs: {len(history)} history reference(s), {len(links)} broken link(s)", file=sys.stderr)
        return 1
    print("check_docs: no history references, every link resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
