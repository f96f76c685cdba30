#!/usr/bin/env python3
"""Runs every scanviz command that README.md and docs/*.md show, so the documentation stays true.

    python3 tests/docs/readme_commands.py PATH/TO/scanviz [--root DIR] [--timeout SECONDS] [--list]

What counts as a command: inside a fenced code block whose language is sh, bash, shell, console or
none, a line that starts with `scanviz ` (or is `scanviz` alone), optionally after a `$ ` prompt,
after VAR=value assignments, or after `xvfb-run` and its options. A line ending in a backslash goes
on on the next line. The whole line runs under bash with pipefail, so `&&` chains and `|` pipelines
(`scanviz trace ... --out - | scanviz stats -`) work; text after ` # ` is a comment. Blocks in
other languages (text, json) are output and are never run.

Each code block runs in a fresh temporary directory, its commands in order, so a command may read
the files an earlier command of the same block wrote (t.json). `scanviz` is the binary given as the
first argument (a link to it comes first on PATH). Without a DISPLAY one Xvfb server is started for
the whole run, so `render ... --out f.png` and `gui --frames N --screenshot f.png` work.

A command is expected to exit 0, unless its line ends with the comment `# exit N`.

Skipped, with the reason printed: commands that need a CUDA device (`bench`, `race`,
`--executor gpu`, `--measure`, `--amplify`), commands that open an interactive window (`scanviz`
alone, `gui` without `--frames`), and, in a build without the GUI, `render`, `gui` and charts to PNG.

Exit status: 0 when every command that ran passed, 1 when any failed (each failure is listed at the
end with its output), 2 on bad arguments. The last line reads `readme_commands: N passed, N failed,
N skipped`.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

SHELL_LANGUAGES = {"", "sh", "bash", "shell", "console"}
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([A-Za-z0-9_+-]*)")
EXPECT_EXIT = re.compile(r"\s#\s*exit\s+(\d+)\s*$")
ENV_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


@dataclass
class Command:
    source: str  # "README.md:123"
    text: str  # the command line as bash runs it (continuations joined)
    expected_exit: int = 0


@dataclass
class Block:
    source: str
    commands: list[Command] = field(default_factory=list)


def code_blocks(path: Path, root: Path):
    """Yields (first line number, language, lines) for each fenced code block of a Markdown file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    rel = path.relative_to(root).as_posix()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, language = m.group(1), m.group(2), m.group(3).lower()
        start = i + 1
        body = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence[0] * len(fence)):
            line = lines[i]
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            i += 1
        i += 1  # the closing fence
        yield rel, start, language, body


def words_before_scanviz(words: list[str]) -> int | None:
    """Index of the word `scanviz` when everything before it is a prompt, assignments or xvfb-run."""
    k = 0
    while k < len(words) and ENV_ASSIGNMENT.match(words[k]):
        k += 1
    if k < len(words) and words[k] == "xvfb-run":
        k += 1
        while k < len(words) and words[k].startswith("-"):
            # options of xvfb-run that take a value
            if words[k] in ("-s", "--server-args", "-n", "--server-num", "-e", "--error-file", "-f", "--auth-file",
                            "-p", "--xauth-protocol", "-w", "--wait"):
                k += 1
            k += 1
    if k < len(words) and words[k] == "scanviz":
        return k
    return None


def extract(root: Path) -> list[Block]:
    files = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
    blocks: list[Block] = []
    for path in files:
        if not path.is_file():
            continue
        for rel, start, language, body in code_blocks(path, root):
            if language not in SHELL_LANGUAGES:
                continue
            block = Block(f"{rel}:{start}")
            k = 0
            while k < len(body):
                number = start + 1 + k
                line = body[k].rstrip()
                while line.endswith("\\") and k + 1 < len(body):  # continuation
                    k += 1
                    line = line[:-1].rstrip() + " " + body[k].strip()
                k += 1
                text = line.strip()
                if text.startswith("$ "):
                    text = text[2:].strip()
                try:
                    words = shlex.split(text, comments=True)
                except ValueError:
                    words = text.split()
                if not words or words_before_scanviz(words) is None:
                    continue
                expected = 0
                m = EXPECT_EXIT.search(text)
                if m:
                    expected = int(m.group(1))
                block.commands.append(Command(f"{rel}:{number}", text, expected))
            if block.commands:
                blocks.append(block)
    return blocks


def skip_reason(command: Command, has_gui: bool) -> str | None:
    try:
        words = shlex.split(command.text, comments=True)
    except ValueError:
        words = command.text.split()
    # Each scanviz invocation of the line (a pipeline may hold several).
    invocations: list[list[str]] = []
    current: list[str] | None = None
    for w in words:
        if w in ("|", "&&", "||", ";"):
            if current is not None:
                invocations.append(current)
            current = None
        elif w == "scanviz" and current is None:
            current = []
        elif current is not None:
            current.append(w)
    if current is not None:
        invocations.append(current)
    for args in invocations:
        sub = next((a for a in args if not a.startswith("-")), "")
        joined = " ".join(args)
        if sub in ("bench", "race"):
            return f"needs a CUDA device (scanviz {sub})"
        if re.search(r"--executor(=|\s+)gpu\b", joined):
            return "needs a CUDA device (--executor gpu)"
        for option in ("--measure", "--amplify"):
            if option in args or any(a.startswith(option + "=") for a in args):
                return f"needs a CUDA device ({option})"
        opens_window = not args or sub == "gui" or (sub == "" and args[0].startswith("-") and args[0] not in ("--help", "-h"))
        if opens_window and not any(a == "--frames" or a.startswith("--frames=") for a in args):
            return "opens an interactive window (gui without --frames)"
        if not has_gui:
            if sub in ("render", "gui"):
                return f"this scanviz is built without the GUI (scanviz {sub})"
            if sub == "chart" and re.search(r"\.png\b|--format(=|\s+)png\b", joined):
                return "this scanviz is built without the GUI (chart to PNG)"
    return None


class Display:
    """One Xvfb server for the whole run, when there is no DISPLAY and Xvfb is installed."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen | None = None
        self.display = os.environ.get("DISPLAY", "")

    def __enter__(self) -> "Display":
        if self.display or not shutil.which("Xvfb"):
            return self
        read_fd, write_fd = os.pipe()
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
            pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write_fd)
        with os.fdopen(read_fd) as f:
            number = f.readline().strip()
        if number:
            self.display = ":" + number
        return self

    def __exit__(self, *exc) -> None:
        if self.proc:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def main() -> int:
    parser = argparse.ArgumentParser(description="Run the scanviz commands of README.md and docs/*.md.")
    parser.add_argument("scanviz", help="the scanviz binary to run as `scanviz`")
    parser.add_argument("--root", help="the repository (default: two folders above this script)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds one command may take (default 300)")
    parser.add_argument("--list", action="store_true", help="only list the commands found and whether they would run")
    a = parser.parse_args()

    root = Path(a.root).resolve() if a.root else Path(__file__).resolve().parents[2]
    binary = Path(a.scanviz).resolve()
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        print(f"readme_commands: {a.scanviz} is not an executable file", file=sys.stderr)
        return 2
    if not (root / "README.md").is_file():
        print(f"readme_commands: no README.md in {root}", file=sys.stderr)
        return 2

    help_text = subprocess.run([str(binary), "--help"], capture_output=True, text=True).stdout
    has_gui = re.search(r"^\s+render\b", help_text, re.MULTILINE) is not None

    blocks = extract(root)
    if a.list:
        for block in blocks:
            for c in block.commands:
                reason = skip_reason(c, has_gui)
                print(f"{c.source}: {'skip (' + reason + ')' if reason else 'run'}: {c.text}")
        return 0

    passed = skipped = 0
    failures: list[tuple[Command, str]] = []
    with tempfile.TemporaryDirectory(prefix="readme-commands-") as top, Display() as display:
        bin_dir = Path(top) / "bin"
        bin_dir.mkdir()
        (bin_dir / "scanviz").symlink_to(binary)
        env = dict(os.environ)
        env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
        env["XDG_CONFIG_HOME"] = str(Path(top) / "config")  # the window's saved settings stay here
        if display.display:
            env["DISPLAY"] = display.display
        for b, block in enumerate(blocks):
            work = Path(top) / f"block{b}"
            work.mkdir()
            for c in block.commands:
                reason = skip_reason(c, has_gui)
                if reason:
                    skipped += 1
                    print(f"skip  {c.source}: {c.text}\n      ({reason})")
                    continue
                try:
                    r = subprocess.run(["bash", "-c", "set -o pipefail\n" + c.text], cwd=work, env=env,
                                       stdin=subprocess.DEVNULL, capture_output=True, text=True, errors="replace",
                                       timeout=a.timeout)
                    code, output = r.returncode, (r.stdout + r.stderr)
                except subprocess.TimeoutExpired as e:
                    code, output = None, f"timed out after {a.timeout:g} s"
                if code == c.expected_exit:
                    passed += 1
                    print(f"ok    {c.source}: {c.text}")
                else:
                    got = "a timeout" if code is None else f"exit {code}"
                    tail = "\n".join(output.strip().splitlines()[-8:])
                    failures.append((c, f"expected exit {c.expected_exit}, got {got}\n{tail}"))
                    print(f"FAIL  {c.source}: {c.text}\n      (expected exit {c.expected_exit}, got {got})")

    if failures:
        print(f"\n{len(failures)} failing command(s):")
        for c, why in failures:
            print(f"\n{c.source}: {c.text}")
            for line in why.splitlines():
                print("    " + line)
    print(f"readme_commands: {passed} passed, {len(failures)} failed, {skipped} skipped")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
