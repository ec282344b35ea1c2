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

    def assert_refused(self, args, *words):
        """One line on stderr with each of words, exit code 2, no traceback."""
        r = run_plot(*args)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        for w in words:
            self.assertIn(w, r.stderr)

    def test_a_value_of_the_wrong_type_is_named_by_field_and_row(self):
        # wrong types in an otherwise valid document gave tracebacks (TypeError, KeyError,
        # AttributeError, ValueError; 1e400 read as inf and broke the axis limits)
        _, doc = validate_json(0.25)
        cases = [
            (lambda d: d["rows"][0].update(projected_s="abc"), "row 1: 'projected_s' is \"abc\""),
            (lambda d: d["rows"][1].update(strategy=5), "row 2: 'strategy' is 5, expected text"),
            (lambda d: d["rows"].__setitem__(0, 3), "row 1 is 3, expected an object"),
            (lambda d: d.update(summary=[]), "'summary' is [], expected an object"),
            (lambda d: d["summary"].update(per_strategy=5), "'summary.per_strategy' is 5"),
            (lambda d: d.update(threshold="x"), "'threshold' is \"x\", expected a finite number"),
            (lambda d: d["summary"].update(per_strategy={"data": "x"}),
             "'summary.per_strategy.data' is \"x\""),
            (lambda d: d["rows"][0].update(measured_s=float("inf")),
             "row 1: 'measured_s' is Infinity, expected a finite number"),
            (lambda d: d["rows"][0].update(anomaly=5), "row 1: 'anomaly' is 5"),
            # impossible values (found by a probe): a row dropped without a word, a band that
            # overflowed matplotlib
            (lambda d: d["rows"][0].update(projected_s=-2.0),
             "row 1: 'projected_s' is -2, expected seconds > 0"),
            (lambda d: d["rows"][1].update(measured_s=0.0),
             "row 2: 'measured_s' is 0, expected seconds > 0"),
            (lambda d: d.update(threshold=1e300), "'threshold' is 1e+300, more than 10"),
        ]
        path = os.path.join(WORK, "typed.json")
        for change, words in cases:
            with self.subTest(words=words):
                bad = json.loads(json.dumps(doc))
                change(bad)
                with open(path, "w", encoding="utf-8") as f:
                    json.dump(bad, f)  # inf is written as Infinity, as 1e400 reads
                self.assert_refused([path, "-o", os.path.join(WORK, "typed.png")], path, words)

    def test_a_files_threshold_past_10_is_replaced_by_the_option(self):
        # an older paradise validate wrote any threshold: --threshold overrides it, as always
        _, doc = validate_json(0.25)
        doc["threshold"] = 20
        path = os.path.join(WORK, "old-threshold.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        out = os.path.join(WORK, "old-threshold.png")
        r = run_plot(path, "--threshold", "0.25", "-o", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(os.path.getsize(out) > 0)

    def test_an_endless_or_deeply_nested_input_is_refused(self):
        # /dev/zero was read for ever (no bound, as paradise has); [[[...]]] 100,000 deep
        # raised RecursionError
        self.assert_refused(["/dev/zero", "-o", os.path.join(WORK, "zero.png")], "/dev/zero",
                            "larger than 64 MiB")
        deep = os.path.join(WORK, "deep.json")
        with open(deep, "w", encoding="utf-8") as f:
            f.write("[" * 100_000 + "]" * 100_000)
        self.assert_refused([deep, "-o", os.path.join(WORK, "deep.png")], deep,
                            "nested too deeply")

    def test_data_path_that_is_the_input_is_refused_and_the_input_kept(self):
        # `validate_plot.py v.json --data v.json` replaced its input with the sidecar
        path, _ = validate_json(0.2)
        with open(path, "rb") as f:
            before = f.read()
        png = os.path.join(WORK, "same.png")
        self.assert_refused([path, "-o", png, "--data", path], "--data", "is the input file")
        with open(path, "rb") as f:
            self.assertEqual(f.read(), before)
        self.assertFalse(os.path.exists(png))


if __name__ == "__main__":
    SCRATCH.take_argv()
    unittest.main()
