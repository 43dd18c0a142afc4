#!/usr/bin/env python3
"""The nightly HTML report of a 64-variant matrix, opened in headless Chromium, must be readable.

Ten simulated nights of scripts/nightly.sh over six toggles (2^6 = 64 variants; the incident of
design §1 planted from night 6), then the report's page is loaded in Chromium with a probe that
records script errors and the rendered box of every SVG and of every label in it. Asserted: no
script error, no "plot not drawn", three plots each drawn with its labels, no two labels of a plot
overlapping and none outside its plot (the boxes Chromium laid out, not an estimate), and in a
screenshot every plot's area inked, not blank.

usage: many_variants_report.py ABTEST NIGHTLY_SH [--keep DIR]   (DIR: keep report and screenshot)
Exit 77 (CTest SKIP_RETURN_CODE) without chromium or gnuplot: the SVG geometry is also checked
without a browser by tests/harness/report/plots_test.cpp.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "harness" / "report"))
import png_ink  # noqa: E402

SKIP = 77
SCALE = 0.5  # the screenshot's device scale: a quarter of the pixels to decode in pure Python
WIDTH = 1200  # the window's: the page's 1000 px plots and its tables side by side with room

# Before the page's own content: collect script errors and console.error calls.
HOOK = """<script>window.__errors = [];
addEventListener('error', e => __errors.push(String(e.message || (e.target && e.target.outerHTML))), true);
const __console_error = console.error;
console.error = (...a) => { __errors.push(a.join(' ')); __console_error(...a); };</script>"""

# After it: the boxes Chromium laid out, written into the page for --dump-dom to print.
PROBE = """<script>addEventListener('load', () => {
  const page = document.documentElement, out = {errors: __errors, width: page.scrollWidth, height: page.scrollHeight,
    missing: document.body.innerText.includes('plot not drawn'), svgs: []};
  document.querySelectorAll('svg').forEach((svg, i) => {
    const r = svg.getBoundingClientRect(), s = {x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height,
      labels: 0, overlaps: [], outside: []};
    const boxes = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim())
      .map(t => ({text: t.textContent.trim(), b: t.getBoundingClientRect()}));
    s.labels = boxes.length;
    boxes.forEach((a, i) => {
      if (a.b.left < r.left - 1 || a.b.right > r.right + 1 || a.b.top < r.top - 1 || a.b.bottom > r.bottom + 1)
        s.outside.push(a.text);
      boxes.slice(i + 1).forEach(b => {
        const dx = Math.min(a.b.right, b.b.right) - Math.max(a.b.left, b.b.left);
        const dy = Math.min(a.b.bottom, b.b.bottom) - Math.max(a.b.top, b.b.top);
        if (dx > 1 && dy > 1) s.overlaps.push(`"${a.text}" and "${b.text}" by ${dx.toFixed(1)} x ${dy.toFixed(1)} px`);
      });
    });
    out.svgs.push(s);
  });
  const pre = document.createElement('pre');
  pre.id = 'abtest-probe';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});</script>"""


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def browse(browser, profile, *args):
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync",
           "--disable-background-networking", "--disable-component-update", f"--user-data-dir={profile}", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def scenario(path, night):
    effects = {"A1=4": 0.0583, "B1": 0.0583, "A1=4*B1": 0.0663, "A4": -0.004, "D4": -0.003} if night >= 6 else {}
    toggles = [{"id": "A1", "levels": ["0", "1", "2", "4"], "on": "4"}] + [{"id": t} for t in ("A2", "A4", "B1", "C2", "D4")]
    path.write_text(json.dumps({"toggles": toggles, "seed": 100 + night,
                                "metrics": {"proof.total_s": {"base": 88.9, "noise_cv": 0.02, "effects": effects}}}))


def main():
    abtest, nightly_sh = sys.argv[1], sys.argv[2]
    keep = Path(sys.argv[sys.argv.index("--keep") + 1]) if "--keep" in sys.argv else None
    browser = chromium()
    if not browser:
        print("SKIP: chromium is not installed (apt-get install chromium); plots_test checks the SVG without it")
        return SKIP
    if not shutil.which("gnuplot"):
        print("SKIP: gnuplot is not installed (apt-get install gnuplot-nox): the report has no plots to look at")
        return SKIP
    work = Path(tempfile.mkdtemp(prefix="abtest-many-variants-"))
    failures = []
    try:
        # Ten nights; the report is written on the last.
        for night in range(1, 11):
            scenario(work / f"night-{night}.json", night)
            run = subprocess.run([nightly_sh, "--db", str(work / "results.db"), "--simulate", str(work / f"night-{night}.json"),
                                  "--rounds", "3", "--out", str(work / "out")] + ([] if night == 10 else ["--no-report"]),
                                 env={**os.environ, "ABTEST": abtest}, capture_output=True, text=True, cwd=work)
            if run.returncode not in (0, 1):
                failures.append(f"night {night}: nightly.sh exited {run.returncode}\n{run.stdout}{run.stderr}")
                return 1
        if run.returncode != 1:
            failures.append(f"the planted incident was not flagged (nightly.sh exited {run.returncode})")
        html = (work / "out" / "report.html").read_text()
        page = work / "probe.html"
        page.write_text(html.replace("<head>", "<head>" + HOOK, 1).replace("</body>", PROBE + "</body>", 1))
        # The same width for the probe and the screenshot: the layout, and so the plots' places, depend on it.
        dom = browse(browser, work / "profile", f"--window-size={WIDTH},1000", "--dump-dom", page.as_uri()).stdout
        start = dom.find('<pre id="abtest-probe">')
        if start < 0:
            failures.append("the probe wrote nothing: the page did not load\n" + dom[-2000:])
            return 1
        probe = json.loads(dom[start + 23:dom.index("</pre>", start)].replace("&quot;", '"').replace("&lt;", "<")
                           .replace("&gt;", ">").replace("&amp;", "&"))
        print(f"page {probe['width']}x{probe['height']} px, {len(probe['svgs'])} plots, "
              f"labels per plot {[s['labels'] for s in probe['svgs']]}")
        if probe["errors"]:
            failures.append(f"script errors: {probe['errors']}")
        if probe["missing"]:
            failures.append("a plot was not drawn (the page says 'plot not drawn')")
        if len(probe["svgs"]) != 3:  # the simulator measures no phases
            failures.append(f"{len(probe['svgs'])} plots, expected 3: distributions, effects, the trend of proof.total_s")
        for i, s in enumerate(probe["svgs"]):
            if s["w"] < 100 or s["h"] < 100 or s["labels"] < 10:
                failures.append(f"plot {i} is {s['w']}x{s['h']} px with {s['labels']} labels")
            if s["overlaps"]:
                failures.append(f"plot {i}: {len(s['overlaps'])} overlapping labels, e.g. {s['overlaps'][:5]}")
            if s["outside"]:
                failures.append(f"plot {i}: labels outside the plot: {s['outside'][:5]}")
        # The screenshot: each plot's area must be inked (a blank or broken SVG is white).
        shot = work / "shot.png"
        browse(browser, work / "profile", f"--force-device-scale-factor={SCALE}", f"--screenshot={shot}",
               f"--window-size={WIDTH},{probe['height']}", (work / "out" / "report.html").as_uri())
        if not shot.exists():
            failures.append("chromium wrote no screenshot")
            return 1
        rows, bpp = png_ink.pixels(str(shot))
        for i, s in enumerate(probe["svgs"]):
            box = [int(v * SCALE) for v in (s["x"], s["y"], s["x"] + s["w"], s["y"] + s["h"])]
            ink = png_ink.ink_share(rows, bpp, *box)
            print(f"plot {i}: {s['w']:.0f}x{s['h']:.0f} px at y={s['y']:.0f}, inked {ink:.3f}")
            if ink < 0.03:
                failures.append(f"plot {i} looks blank in the screenshot (inked {ink:.3f} of its area)")
        if keep:
            keep.mkdir(parents=True, exist_ok=True)
            for f in (work / "out" / "report.html", shot):
                shutil.copy(f, keep / f.name)
        return 1 if failures else 0
    finally:
        for f in failures:
            print("FAIL:", f)
        if failures:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
