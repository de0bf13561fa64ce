#!/usr/bin/env bash
# Renders `lanediff report`'s HTML in headless Chromium (Debian's chromium package, installed
# by scripts/setup.sh) with the network off, from a real (short, fixed-seed) simulator campaign
# with two planted errata, one of them accepted as known, plus the hand-written sweep record in
# TESTDATA_DIR. Checks what a person would look for, in the DOM as Chromium laid it out:
#   - every section is present and not empty (header with the run identities, buckets by
#     status, coverage, statistics and both timeline plots, matrix, SR curve, pk_u8 map,
#     sweeps, findings), and the plots are drawn (a curve, a red map cell);
#   - nothing overflows its box: no section, table, cell, pre, figure or caption is wider than
#     its box (scrollWidth > clientWidth), the page is no wider than the window, and every SVG
#     text (tick labels, axis titles) lies inside its plot.
# The check is a script injected into a copy of the page (the report itself holds none) that
# writes its verdict into the DOM, which --dump-dom prints once Chromium has loaded the page: no
# wait of ours. A full-page screenshot is kept as a CI artifact: OUT_DIR/report_screenshot.png.
# usage: render_in_chromium_test.sh LANEDIFF_BINARY TESTDATA_DIR OUT_DIR
set -euo pipefail
lanediff="$1"; testdata="$2"; out_dir="$3"
if ! command -v chromium >/dev/null; then
  echo "FAIL: chromium not installed (scripts/setup.sh installs it)"; exit 1
fi
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
mkdir -p "$work/runs" "$out_dir"
# A campaign that finds two root causes on two targets (deterministic: --execs and --seed).
"$lanediff" fuzz --device=sim --inject sr_wrap --inject byte12_swap --targets gfx942,gfx950 \
  --execs 300 --lanes-per-batch 64 --seed 5 --quiet --corpus "$work/corpus" \
  --out "$work/runs/campaign.textproto" >"$work/fuzz.log" 2>&1 || [ $? = 1 ] || {
  cat "$work/fuzz.log"; echo "FAIL: the campaign broke"; exit 1; }
"$lanediff" triage "$work/corpus" --accept v_cvt_sr_fp8_f32.sr_rounding=literal \
  --reason "planted sr_wrap" --link device_harness/sim/errata.h >/dev/null
"$lanediff" report --out "$work/report" --corpus "$work/corpus" "$work/runs" \
  "$testdata/run.textproto" >"$work/report.log" 2>&1 || { cat "$work/report.log"; echo "FAIL: report"; exit 1; }
html="$work/report/report.html"
grep -q '<script' "$html" && { echo "FAIL: the report itself holds a script"; exit 1; }

# The page plus the layout check, run by Chromium when the parser reaches it (after the body).
sed 's|</body></html>|<script>\n'"$(sed 's/[&|\\]/\\&/g' <<'JS' | tr '\n' ' '
(function () {
  var bad = [];
  var want = ["header", "verdict", "runs", "buckets", "coverage", "statistics", "lanes-over-time",
              "buckets-over-time", "matrix", "verdicts-section", "sr-probability", "src0-map",
              "sweeps", "findings"];
  want.forEach(function (id) {
    var e = document.getElementById(id);
    if (!e) bad.push("missing #" + id);
    else if (e.getBoundingClientRect().height < 10) bad.push("empty #" + id);
  });
  if (document.querySelectorAll(".bucket").length < 2) bad.push("fewer than two buckets shown");
  function name(e) { return e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && e.className.baseVal === undefined && e.className ? "." + e.className : ""); }
  document.querySelectorAll("header, section, table, td, th, pre, figure, figcaption, p, h1, h2, h3, h4").forEach(function (e) {
    if (e.scrollWidth > e.clientWidth + 1) bad.push("overflow: " + name(e) + " content " + e.scrollWidth + "px in a box of " + e.clientWidth + "px: " + e.textContent.slice(0, 60));
  });
  if (document.documentElement.scrollWidth > window.innerWidth) bad.push("the page is " + document.documentElement.scrollWidth + "px wide in a " + window.innerWidth + "px window");
  document.querySelectorAll("svg").forEach(function (svg) {
    var box = svg.getBoundingClientRect();
    svg.querySelectorAll("text").forEach(function (t) {
      var r = t.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1) {
        bad.push("cut off: text '" + t.textContent + "' outside svg#" + svg.id);
      }
    });
  });
  var p = document.createElement("pre");
  p.id = "layout-check";
  p.setAttribute("data-height", String(document.documentElement.scrollHeight));
  p.textContent = bad.length ? "LAYOUT-BAD\n" + bad.join("\n") : "LAYOUT-OK";
  document.body.appendChild(p);
})();
JS
)"'\n</script></body></html>|' "$html" > "$work/report/check.html"
grep -q 'LAYOUT-OK' "$work/report/check.html" || { echo "FAIL: could not inject the layout check"; exit 1; }

flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
       --disable-background-networking --disable-component-update --disable-sync
       --user-data-dir="$work/profile" --proxy-server=127.0.0.1:9 --window-size=1400,1000)
# --dump-dom prints the DOM once the page has loaded (Chromium's own completion); the timeout is
# only a guard against a hung browser.
timeout 300 chromium "${flags[@]}" --dump-dom "file://$work/report/check.html" >"$work/dom.html" \
  2>"$work/chromium.log" || { cat "$work/chromium.log"; echo "FAIL: chromium could not render the report"; exit 1; }
check() { grep -q -- "$1" "$work/dom.html" || { echo "FAIL: rendered DOM lacks $2"; exit 1; }; }
check 'id="layout-check"' "the layout check's verdict (did the script run?)"
if ! grep -q '>LAYOUT-OK<' "$work/dom.html"; then
  sed -n '/id="layout-check"/,/<\/pre>/p' "$work/dom.html"
  echo "FAIL: layout check (above)"; exit 1
fi
check '<table id="matrix">' "the compatibility matrix"
check 'agrees on silicon' "a silicon verdict in the matrix"
check 'simulator (not silicon)' "the simulator's results labelled as not silicon"
check 'class="status KNOWN"' "the accepted erratum as a KNOWN bucket"
check 'class="status NEW"' "the other erratum as a NEW bucket"
check 'class="series"' "a curve in a plot"
check 'rgb(255,0,0)' "a disagreement cell in the pk_u8 map (exponent 134)"
height=$(sed -n 's/.*id="layout-check" data-height="\([0-9]*\)".*/\1/p' "$work/dom.html" | head -n 1)
[ -n "$height" ] || height=4000
[ "$height" -le 16000 ] || height=16000
shot="$out_dir/report_screenshot.png"
timeout 300 chromium "${flags[@]/--window-size=1400,1000/--window-size=1400,$height}" \
  --screenshot="$shot" "file://$html" >/dev/null 2>>"$work/chromium.log" || {
  cat "$work/chromium.log"; echo "FAIL: no screenshot"; exit 1; }
size=$(stat -c %s "$shot")
# A blank page compresses to a few KB; the page's tables, text and plots need far more.
if [ "$size" -lt 40000 ]; then echo "FAIL: screenshot is $size bytes: blank page?"; exit 1; fi
cp "$html" "$out_dir/report.html"
echo "PASS: every section present, nothing overflows its box, plots drawn; screenshot ($size bytes, 1400x$height): $shot"
