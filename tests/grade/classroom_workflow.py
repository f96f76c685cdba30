#!/usr/bin/env python3
"""Checks graders/github-classroom/classroom.yml against the program and its default rubric.

    python3 tests/grade/classroom_workflow.py PATH/TO/scanviz ROOT

Every autograding-command-grader step must run `scanviz check FILE --only ITEM` for an ITEM of the
default rubric (assets/grading/default_rubric.json), with that item's points as its max-score; every
item must have its step; the reporter must list every step's id as a runner and read each one's
result. Then each step's command runs as written, in a scratch folder holding the student's file:
a correct kernel passes every step (exit 0), a racy one fails the race step (exit 1).
Exits 77 (skipped) without PyYAML.
"""

import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import yaml
except ImportError:
    print("skipped: PyYAML (python3-yaml) is not installed")
    sys.exit(77)

GRADER = "classroom-resources/autograding-command-grader@v1"
REPORTER = "classroom-resources/autograding-grading-reporter@v1"


def main(argv):
    exe, root = Path(argv[1]).resolve(), Path(argv[2])
    workflow = yaml.safe_load((root / "graders/github-classroom/classroom.yml").read_text())
    rubric = json.loads((root / "assets/grading/default_rubric.json").read_text())
    points = {item["id"]: item["points"] for item in rubric["items"]}
    failures = []

    def expect(ok, what):
        if not ok:
            failures.append(what)

    steps = [s for job in workflow["jobs"].values() for s in job["steps"]]
    graders = [s for s in steps if s.get("uses") == GRADER]
    reporters = [s for s in steps if s.get("uses") == REPORTER]
    expect(len(reporters) == 1, "one reporter step")
    commands = {}
    for step in graders:
        words = shlex.split(step["with"]["command"])
        expect(words[:2] == ["scanviz", "check"] and len(words) == 5 and words[3] == "--only",
               f"step {step['id']}: the command is `scanviz check FILE --only ITEM`: {words}")
        item = words[4] if len(words) == 5 else None
        expect(item in points, f"step {step['id']}: --only {item} is an item of the default rubric ({sorted(points)})")
        expect(step["id"] == item, f"step {step['id']}: its id is the item's")
        expect(str(step["with"].get("max-score")) == str(points.get(item)), f"step {step['id']}: max-score is the item's points")
        expect(int(step["with"].get("timeout", 0)) > 0, f"step {step['id']}: a timeout")
        commands[step["id"]] = words
    expect(sorted(commands) == sorted(points), f"a step for each item: {sorted(commands)} against {sorted(points)}")
    if reporters:
        runners = reporters[0]["with"]["runners"].split(",")
        expect(sorted(runners) == sorted(commands), f"the reporter's runners are the steps: {runners}")
        env = reporters[0].get("env", {})
        for step_id in commands:
            expect(env.get(step_id.upper() + "_RESULTS") == "${{ steps.%s.outputs.result }}" % step_id,
                   f"the reporter reads {step_id}'s result")

    # Each command as the runner runs it, `scanviz` on PATH, in a folder holding the student's file.
    cases = [("tests/kernels/correct_kogge_stone.cu", {item: 0 for item in commands}),
             ("tests/kernels/missing_barrier.cu", {"race-free": 1, "fault-free": 0})]
    with tempfile.TemporaryDirectory() as scratch:
        bindir = Path(scratch) / "bin"
        bindir.mkdir()
        os.symlink(exe, bindir / "scanviz")
        env = dict(os.environ, PATH=f"{bindir}:{os.environ.get('PATH', '')}")
        for kernel, wanted in cases:
            for step_id, words in commands.items():
                shutil.copy(root / kernel, Path(scratch) / words[2])
                if step_id not in wanted:
                    continue
                code = subprocess.run(words, cwd=scratch, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE).returncode
                expect(code == wanted[step_id], f"{kernel}: step {step_id} exits {code}, not {wanted[step_id]}")

    for f in failures:
        print("FAIL:", f)
    print(f"classroom_workflow: {len(graders)} steps, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
