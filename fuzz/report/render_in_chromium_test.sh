#!/usr/bin/env bash
# Renders `lanediff report`'s HTML in headless Chromium (Debian's chromium package, installed
# by scripts/setup.sh) with the network off, and checks what a person would look for: the
# compatibility matrix, the SR probability curve and the pk_u8 map, drawn (not just present in
# the source), and a screenshot that is not blank.
# usage: render_in_chromium_test.sh LANEDIFF_BINARY TESTDATA_DIR
set -euo pipefail
lanediff="$1"; testdata="$2"
if ! command -v chromium >/dev/null; then
  echo "FAIL: chromium not installed (scripts/setup.sh installs it)"; exit 1
fi
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
"$lanediff" report --out "$work/report" "$testdata/run.textproto" >/dev/null
html="$work/report/report.html"
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
       --disable-background-networking --disable-component-update --disable-sync
       --user-data-dir="$work/profile" --proxy-server=127.0.0.1:9 --virtual-time-budget=2000)
# The DOM after rendering: computed by Chromium's parser, so malformed markup would show.
timeout 120 chromium "${flags[@]}" --dump-dom "file://$html" >"$work/dom.html" 2>"$work/chromium.log" || {
  cat "$work/chromium.log"; echo "FAIL: chromium could not render the report"; exit 1; }
check() { grep -q -- "$1" "$work/dom.html" || { echo "FAIL: rendered DOM lacks $2"; exit 1; }; }
check '<table id="matrix">' "the compatibility matrix"
check 'agrees on silicon' "a silicon verdict in the matrix"
check '<svg id="sr-probability"' "the SR probability plot"
check 'class="series"' "a curve in the SR plot"
check '<svg id="pk-u8-map"' "the pk_u8 disagreement map"
check 'rgb(255,0,0)' "a disagreement cell in the map (exponent 134)"
timeout 120 chromium "${flags[@]}" --window-size=1400,1600 --screenshot="$work/shot.png" "file://$html" \
  >/dev/null 2>>"$work/chromium.log" || { cat "$work/chromium.log"; echo "FAIL: no screenshot"; exit 1; }
size=$(stat -c %s "$work/shot.png")
# A blank 1400x1600 PNG compresses to a few KB; the page's table, text and plots need far more.
if [ "$size" -lt 40000 ]; then echo "FAIL: screenshot is $size bytes: blank page?"; exit 1; fi
echo "PASS: matrix, SR curve and pk_u8 map rendered; screenshot $size bytes"
