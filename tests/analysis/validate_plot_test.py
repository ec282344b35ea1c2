#!/usr/bin/python3
"""Tests of analysis/validate_plot.py: it plots the output of `paradise validate --format json`
on NVIDIA's ResNet-50 runs (tests/data/measured/runs.csv) written by the real binary; the
values drawn (read back from the figure through --data) must equal the JSON's rows.

    validate_plot_test.py --paradise BUILD/src/app/paradise [unittest arguments]
"""
import json
import os
import struct
import subprocess
import sys
import unittest

from harness import Scratch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PLOT = os.path.join(ROOT, "analysis", "validate_plot.py")
RUNS = os.path.join(ROOT, "tests", "data", "measured", "runs.csv")
SCRATCH = Scratch("paradise-validate-plot-")
PARADISE = ""  # set by setUpModule from SCRATCH
WORK = ""


def setUpModule():
    global PARADISE, WORK
    SCRATCH.open()
    PARADISE, WORK = SCRATCH.paradise, SCRATCH.work


def tearDownModule():
    SCRATCH.close()


def validate_json(threshold):
    path = os.path.join(WORK, f"validate-{threshold}.json")
    with open(path, "w", encoding="utf-8") as f:
        subprocess.run([PARADISE, "validate", "--measured", RUNS, "--variant", "paradise",
                        "--threshold", str(threshold), "--format", "json"], check=True, stdout=f)
    with open(path, encoding="utf-8") as f:
        return path, json.load(f)


def run_plot(*args):
    return subprocess.run([sys.executable, PLOT, *args], capture_output=True, text=True,
                          cwd=WORK, timeout=120)


class ValidatePlot(unittest.TestCase):
    def test_points_are_each_runs_measured_and_projected_time_with_the_band(self):
        path, doc = validate_json(0.1)
        png, data = os.path.join(WORK, "v.png"), os.path.join(WORK, "v.json")
        r = run_plot(path, "-o", png, "--pdf", "--data", data)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(png, "rb") as f:
            head = f.read(24)
        self.assertEqual(head[:8], b"\x89PNG\r\n\x1a\n")
        self.assertGreaterEqual(struct.unpack(">II", head[16:24])[0], 1000)  # 7.5 in x 150 dpi
        self.assertGreater(os.path.getsize(png), 20_000)
        with open(os.path.splitext(png)[0] + ".pdf", "rb") as f:
            self.assertEqual(f.read(5), b"%PDF-")
        with open(data, encoding="utf-8") as f:
            drawn = json.load(f)
        ax, = drawn["axes"]
        self.assertIn("Projected vs. measured", ax["title"])
        self.assertTrue(drawn["titles_inside"])  # wrapped to the figure, not cut off
        self.assertEqual(ax["xlabel"], "measured time per iteration (s)")  # every row: iteration
        self.assertEqual(ax["ylabel"], "projected time per iteration (s)")
        lines = {ln["label"]: ln for ln in ax["lines"]}
        # one series per strategy: (measured_s, projected_s) of each row, in row order
        rows = [x for x in doc["rows"] if x["strategy"] == "data"]
        series = lines[f"data (mean accuracy {doc['summary']['per_strategy']['data']:.3f})"]
        self.assertEqual(series["x"], [x["measured_s"] for x in rows])
        self.assertEqual(series["y"], [x["projected_s"] for x in rows])
        # y = x and the band at (1 +- threshold) x
        ident = lines["projected = measured"]
        self.assertEqual(ident["x"], ident["y"])
        up, down = lines["+10% (anomaly threshold)"], lines["-10% (anomaly threshold)"]
        for a, b in zip(up["x"], up["y"]):
            self.assertAlmostEqual(b, 1.1 * a, delta=1e-12 * a)
        for a, b in zip(down["x"], down["y"]):
            self.assertAlmostEqual(b, 0.9 * a, delta=1e-12 * a)
        # the anomalies ringed: the rows validate flagged (at 10%, the 21.03 AMP rows)
        flagged = [x for x in doc["rows"] if x["anomaly"]]
        self.assertTrue(flagged)
        self.assertEqual(lines["anomaly"]["x"], [x["measured_s"] for x in flagged])
        self.assertIn("anomaly", ax["legend"])
        self.assertEqual(drawn["notes"]["threshold"], 0.1)

    def test_text_file_is_refused_in_one_line_with_exit_code_2(self):
        r = run_plot(RUNS, "-o", os.path.join(WORK, "x.png"))
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("runs.csv: not JSON", r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        r = run_plot(os.path.join(WORK, "nosuch.json"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("nosuch.json: cannot read", r.stderr)


if __name__ == "__main__":
    SCRATCH.take_argv()
    unittest.main()
