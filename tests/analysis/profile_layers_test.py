#!/usr/bin/python3
"""Tests of analysis/profile_layers.py on the CPU (python3-torch, python3-torchvision): a
torchvision ResNet-18 at 3x64x64 is profiled at batches 2 and 4, the CSV has the documented
columns and the zoo's layer names, and it feeds `paradise calibrate --profile` and then
`paradise predict --layer-times`, whose compute must be the sum of the profiled times x the
samples (data strategy on 1 GPU, paradl variant). No assertion on how long anything takes.

    profile_layers_test.py --paradise BUILD/src/app/paradise [unittest arguments]
"""
import csv
import json
import os
import re
import resource
import subprocess
import sys
import unittest

from harness import Scratch

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "analysis", "profile_layers.py")
SCRATCH = Scratch("paradise-profile-")
PARADISE = ""  # set by setUpModule from SCRATCH
WORK = ""
COLUMNS = ["layer", "forward_s", "backward_s", "batch", "precision", "peak_memory_bytes", "calls",
           "device"]
DATASET = "small:1000:3x64x64"  # 1,000 samples of 3x64x64


def setUpModule():
    global PARADISE, WORK
    SCRATCH.open()
    PARADISE, WORK = SCRATCH.paradise, SCRATCH.work


def tearDownModule():
    SCRATCH.close()


def read_rows(path):
    with open(path, encoding="utf-8") as f:
        lines = [line for line in f if not line.startswith("#")]
    return list(csv.DictReader(lines)), lines[0].strip().split(",")


class ProfileLayers(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.csv = os.path.join(WORK, "resnet18.csv")
        r = subprocess.run([sys.executable, SCRIPT, "resnet18", "--input", "3x64x64", "--batch",
                            "2,4", "--iters", "2", "--warmup", "1", "--device", "cpu",
                            "--threads", "2", "-o", cls.csv],
                           capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            raise AssertionError(f"profile_layers.py failed ({r.returncode}): {r.stderr}")

    def test_csv_has_the_documented_columns_and_the_zoos_layer_names(self):
        rows, header = read_rows(self.csv)
        self.assertEqual(header, COLUMNS)
        show = subprocess.run([PARADISE, "models", "--show", "resnet18", "--input", "3x64x64",
                               "--format", "json"], capture_output=True, text=True, check=True)
        zoo = [layer["name"] for layer in json.loads(show.stdout)["layers"]]
        for batch in ("2", "4"):
            names = [r["layer"] for r in rows if r["batch"] == batch]
            self.assertEqual(len(names), len(set(names)))
            self.assertLessEqual(set(names), set(zoo))
            # every module of torchvision's ResNet-18 is a zoo layer; the zoo's input, flatten,
            # residual adds and torchvision's functional flatten are not modules
            self.assertEqual(set(zoo) - set(names),
                             {"input", "flatten"} | {n for n in zoo if n.endswith(".add")})
        for r in rows:
            self.assertEqual(r["precision"], "fp32")
            self.assertEqual(r["device"], "cpu")
            self.assertEqual(int(r["peak_memory_bytes"]), 0)  # not measured on the CPU
            self.assertGreaterEqual(float(r["forward_s"]), 0)
            if r["layer"].endswith("conv1") or r["layer"] == "fc":
                # the hooks fired in both passes (a value, not a speed)
                self.assertGreater(float(r["forward_s"]), 0, r)
                self.assertGreater(float(r["backward_s"]), 0, r)
        # torchvision's BasicBlock calls its one ReLU twice: the zoo's relu1 and relu
        calls = {r["layer"]: int(r["calls"]) for r in rows}
        self.assertEqual(calls["layer1.0.relu1"], 2)
        self.assertEqual(calls["layer1.0.relu"], 2)
        self.assertEqual(calls["conv1"], 1)

    def test_profile_feeds_calibrate_and_predict_computes_the_sum_times_the_samples(self):
        out = os.path.join(WORK, "resnet18-layers.csv")
        r = subprocess.run([PARADISE, "calibrate", "--system", "abci", "--profile", self.csv,
                            "--model", "resnet18", "--dataset", DATASET, "--layer-times-out", out],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("batch 4", r.stdout)  # the largest batch's rows are used
        rows, header = read_rows(out)
        self.assertEqual(header, COLUMNS[:6])
        r = subprocess.run([PARADISE, "predict", "--model", "resnet18", "--dataset", DATASET,
                            "--system", "abci", "--strategy", "data", "--gpus", "1", "--batch",
                            "4", "--variant", "paradl", "--layer-times", out, "--format", "json"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        p = json.loads(r.stdout)
        profiled, _ = read_rows(self.csv)
        # ParaDL's data-parallel compute on 1 GPU: D samples x sum over layers of the measured
        # forward + backward seconds per sample (docs/cost-model.md §paradl-compute), batch-4 rows
        per_sample = sum(float(x["forward_s"]) + float(x["backward_s"])
                         for x in profiled if x["batch"] == "4")
        self.assertAlmostEqual(p["epoch_compute_s"], 1000 * per_sample,
                               delta=1e-12 * 1000 * per_sample)

    def test_profile_fits_the_gemm_curve_into_the_calibrated_system_file(self):
        cal = os.path.join(WORK, "cal.system")
        args = ["--profile", self.csv, "--model", "resnet18", "--dataset", DATASET,
                "--layer-times-out", os.path.join(WORK, "lt.csv")]
        r = subprocess.run([PARADISE, "calibrate", "--system", "abci", "-o", cal] + args,
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        m = re.search(r"e_max ([0-9.]+) \(was 0\.8000\), h ([0-9.]+) \(was 32\.00\)", r.stdout)
        self.assertIsNotNone(m, r.stdout)
        # both batches have a row, each predicted by the curve fitted to the other alone
        for batch in ("2", "4"):
            self.assertRegex(r.stdout, rf"\n +{batch} +[0-9.]+ +[0-9.]+ +-?[0-9.]+% +[0-9.]+ +-?[0-9.]+%")
        keys = {}
        with open(cal, encoding="utf-8") as f:
            for line in f:
                if "=" in line and not line.startswith("#"):
                    k, v = (x.strip() for x in line.split("=", 1))
                    keys[k] = v
        self.assertAlmostEqual(float(keys["gemm_efficiency_max"]), float(m.group(1)), places=4)
        self.assertAlmostEqual(float(keys["gemm_half_dim"]), float(m.group(2)), places=2)
        # the written file is read back with its curve: a second fit starts from it
        r2 = subprocess.run([PARADISE, "calibrate", "--system", cal] + args,
                            capture_output=True, text=True)
        self.assertEqual(r2.returncode, 0, r2.stderr)
        self.assertIn(f"(was {m.group(1)}), h", r2.stdout)
        self.assertIn(f"(was {m.group(2)})", r2.stdout)

    def test_unknown_model_is_one_line_with_exit_code_2(self):
        r = subprocess.run([sys.executable, SCRIPT, "resnet51", "-o", os.path.join(WORK, "x.csv")],
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 2)
        self.assertIn("model 'resnet51'", r.stderr)
        self.assertNotIn("Traceback", r.stderr)

    def assert_refused(self, args, *words, **kwargs):
        """One line on stderr with each of words, exit code 2, no traceback."""
        r = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                           timeout=120, **kwargs)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        for w in words:
            self.assertIn(w, r.stderr)

    def test_bad_options_are_one_line_before_profiling(self):
        # torch's tracebacks, at every batch: a shape of the wrong length or channels, a zero
        # size, an unknown device, --threads -1, a batch whose input alone fills no memory
        out = os.path.join(WORK, "bad.csv")
        for args, words in ((["--input", "3x8"], "--input '3x8': resnet18 takes a 3-part shape"),
                            (["--input", "3x1x1x1"], "--input '3x1x1x1'"),
                            (["--input", "0x32x32"], "every size must be positive"),
                            (["--input", "1x32x32"], "resnet18 takes 3 channels"),
                            (["--device", "tpu"], "--device 'tpu': expected cpu, cuda or cuda:N"),
                            (["--threads", "-1"], "--threads -1: expected 1 to"),
                            # found by a probe: 10^8 threads and 10^11 iterations ran until
                            # killed; an empty --input and cpu:0 were taken silently
                            (["--threads", "99999999"], "--threads 99999999: expected 1 to"),
                            (["--iters", "99999999999"], "expected --iters 1 to 10,000"),
                            (["--input", ""], "--input '': expected a sample shape"),
                            (["--device", "cpu:0"], "--device 'cpu:0': expected cpu, cuda"),
                            (["--input", "3x32x32", "--batch", "100000000000"],
                             "--batch 100000000000 at input 3x32x32")):
            with self.subTest(args=args):
                self.assert_refused(["resnet18", "-o", out, *args], words)
        self.assertFalse(os.path.exists(out))

    def test_what_torch_refuses_is_one_line_naming_model_batch_and_input(self):
        # one sample at 1x1 in BatchNorm's training mode, the model's own limit
        self.assert_refused(["resnet18", "--input", "3x32x32", "--batch", "1", "--iters", "1",
                             "--warmup", "0", "--device", "cpu", "-o",
                             os.path.join(WORK, "one.csv")],
                            "resnet18 at batch 1, input 3x32x32: torch cannot run it",
                            "Expected more than 1 value per channel")

    def test_small_input_profiles_the_shape_probe_in_eval_mode(self):
        # 3x32x32: the output-shape probe ran one sample in training mode, and BatchNorm
        # refused it at every batch ("Expected more than 1 value per channel when training")
        out = os.path.join(WORK, "small.csv")
        r = subprocess.run([sys.executable, SCRIPT, "resnet18", "--input", "3x32x32", "--batch",
                            "2", "--iters", "1", "--warmup", "0", "--device", "cpu",
                            "--threads", "2", "-o", out],
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        rows, header = read_rows(out)
        self.assertEqual(header, COLUMNS)
        self.assertIn("conv1", {x["layer"] for x in rows})

    def test_output_is_checked_first_and_never_left_half_written(self):
        # `-o victim.h5` replaced a sweep output with CSV (and only after profiling); a write
        # cut short (`ulimit -f`) left a partial CSV: it is written under a temporary name
        victim = os.path.join(WORK, "victim.h5")
        with open(victim, "wb") as f:
            f.write(b"\x89HDF\r\n\x1a\n" + bytes(1000))
        self.assert_refused(["resnet18", "-o", victim], "-o", "an HDF5 file, not a CSV file")
        self.assert_refused(["resnet18", "-o", "/nonexist/x.csv"], "no such directory")
        with open(victim, "rb") as f:
            self.assertEqual(f.read(8), b"\x89HDF\r\n\x1a\n")
        folder = os.path.join(WORK, "fsize")
        os.mkdir(folder)

        def limit():
            resource.setrlimit(resource.RLIMIT_FSIZE, (2_000, 2_000))  # under the CSV's size

        self.assert_refused(["resnet18", "--input", "3x32x32", "--batch", "2", "--iters", "1",
                             "--warmup", "0", "--device", "cpu", "-o",
                             os.path.join(folder, "x.csv")], "cannot write", preexec_fn=limit)
        self.assertEqual(os.listdir(folder), [])  # no partial CSV, no temporary file


if __name__ == "__main__":
    SCRATCH.take_argv()
    unittest.main()
