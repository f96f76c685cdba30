#!/usr/bin/env bash
# Makes the zip to upload as a Gradescope programming assignment's autograder: setup.sh,
# run_autograder and rubric.json at its root, with scanviz's sources (scanviz-src/, from this
# repository's HEAD) that setup.sh builds, or with SCANVIZ_BINARY=PATH a program already built for
# Gradescope's Ubuntu 24.04 image (bin/scanviz; the portable preset links it statically).
#   graders/gradescope/make_autograder.sh [OUT.zip]     (default: autograder.zip here)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="$(realpath -m "${1:-autograder.zip}")"
command -v zip > /dev/null || { echo "make_autograder: zip is missing (apt-get install zip)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$here/setup.sh" "$here/run_autograder" "$here/rubric.json" "$work/"
if [ -n "${SCANVIZ_BINARY:-}" ]; then
  install -D -m 755 "$SCANVIZ_BINARY" "$work/bin/scanviz"
else
  mkdir "$work/scanviz-src"
  git -C "$repo" archive HEAD | tar -x -C "$work/scanviz-src"
fi
rm -f "$out"
(cd "$work" && zip -q -r -X "$out" .)
echo "make_autograder: wrote $out ($(du -h "$out" | cut -f1))"
