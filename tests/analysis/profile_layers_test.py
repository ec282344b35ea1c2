#!/usr/bin/python3
"""Tests of analysis/profile_layers.py on the CPU (python3-torch, python3-torchvision): a
torchvision ResNet-18 at 3x64x64 is profiled at batches 2 and 4, the CSV has the documented
columns and the zoo's layer names, and it feeds `paradise calibrate --profile` and then
`paradise predict --layer-times`, whose compute must be the sum of the profiled times x the
samples (data strategy on 1 GPU, paradl variant). A .model file of every op and an ONNX export
run through analysis/model_file.py: shapes and parameters are paradise's, the rows carry the
files' layer names. No assertion on how long anything takes.

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
import warnings

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


# A model file of every op analysis/model_file.py builds (2-D; pend, ceil, crop, a channel
# scale by a map's pool and by a dense layer's flat output, both upsampling modes): each
# layer's output shape and the parameters are paradise's own (`paradise models --show FILE`),
# and the profile's rows carry the file's layer names, its loss's ("ce") too.
EVERY_OP = """model every_op
input 4x17x17
c1 conv out=8 k=3 p=1 bias=1
g1 groupnorm groups=2
a1 leaky_relu inplace=1
c2 conv out=8 k=2 pend=1
i2 instancenorm affine=1
a2 silu
p2 maxpool k=2 ceil=1
c3 conv out=8 k=3 p=1 groups=4
l3 layernorm
a3 hardswish
t3 conv_transpose out=8 k=2 s=2
cat concat from=t3,a2 crop=1
c4 conv out=8 k=1
b4 batchnorm
r4 relu6
sq adaptive_avgpool size=1
sg sigmoid
se channel_scale from=r4,sg
sqf flatten from=sq
sqd dense out=8
sqs sigmoid
se2 channel_scale from=se,sqs
sum add from=se2,r4
up upsample scale=2 mode=bilinear
upn upsample scale=2 mode=nearest from=sum
ap avgpool k=2 s=2 p=1 from=up
pool adaptive_avgpool size=2
sd stochastic_depth
fl flatten
fc dense out=10
dr dropout
tanh tanh from=dr
gelu gelu
ce softmax_ce
"""


def import_analysis(name):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "analysis"))
    return __import__(name)


class ModelFiles(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.model = os.path.join(WORK, "every_op.model")
        with open(cls.model, "w", encoding="utf-8") as f:
            f.write(EVERY_OP)
        cls.csv = os.path.join(WORK, "every_op.csv")
        r = subprocess.run([sys.executable, SCRIPT, cls.model, "--batch", "2", "--iters", "1",
                            "--warmup", "1", "--device", "cpu", "--threads", "2", "-o", cls.csv],
                           capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            raise AssertionError(f"profile_layers.py failed ({r.returncode}): {r.stderr}")
        show = subprocess.run([PARADISE, "models", "--show", cls.model, "--format", "json"],
                              capture_output=True, text=True, check=True)
        cls.show = json.loads(show.stdout)

    def test_every_layer_is_built_as_paradise_reads_it(self):
        torch = import_analysis("torch")
        model_file = import_analysis("model_file")
        net = model_file.ModelFileNet(EVERY_OP, "every_op.model")
        self.assertEqual(sum(p.numel() for p in net.parameters()), self.show["params"])
        shapes = {}
        for module, name in net.zoo_names().items():
            module.register_forward_hook(
                lambda m, i, out, name=name: shapes.__setitem__(name, "x".join(map(str, out.shape[1:]))))
        net.train()
        net(torch.randn(2, 4, 17, 17))
        expected = {l["name"]: l["output"] for l in self.show["layers"]
                    if l["name"] not in ("input", "ce")}
        self.assertEqual(shapes, expected)

    def test_the_profile_has_a_row_per_layer_named_as_the_file(self):
        rows, _ = read_rows(self.csv)
        layers = {l["name"] for l in self.show["layers"]} - {"input"}
        self.assertEqual({r["layer"] for r in rows}, layers)
        r = subprocess.run([PARADISE, "predict", "--model", self.model, "--dataset",
                            "x:1000:4x17x17", "--system", "dgx-a100", "--strategy", "data",
                            "--gpus", "1", "--batch", "2", "--layer-times", self.csv,
                            "--format", "json"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        # at another input (--input): the network is built for it
        r = subprocess.run([sys.executable, SCRIPT, self.model, "--input", "4x21x21", "--batch",
                            "2", "--iters", "1", "--warmup", "0", "--device", "cpu", "-o",
                            os.path.join(WORK, "every_op_21.csv")],
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_an_onnx_export_is_profiled_with_import_models_layer_names(self):
        torch = import_analysis("torch")
        import torchvision
        onnx_path = os.path.join(WORK, "r18.onnx")
        with warnings.catch_warnings():  # the export's notes on batch norm's counters
            warnings.simplefilter("ignore")
            torch.onnx.export(torchvision.models.resnet18(num_classes=10),
                              torch.zeros(1, 3, 64, 64), onnx_path,
                              training=torch.onnx.TrainingMode.TRAINING, do_constant_folding=False)
        imported, out = os.path.join(WORK, "r18-onnx.model"), os.path.join(WORK, "r18-onnx.csv")
        subprocess.run([sys.executable, os.path.join(os.path.dirname(SCRIPT), "import_model.py"),
                        onnx_path, "--input", "3x64x64", "-o", imported], check=True,
                       capture_output=True, timeout=300)
        r = subprocess.run([sys.executable, SCRIPT, onnx_path, "--input", "3x64x64", "--batch",
                            "2", "--iters", "1", "--warmup", "0", "--device", "cpu", "-o", out],
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(imported, encoding="utf-8") as f:
            names = [line.split()[0] for line in f if line.strip() and not line.startswith("#")]
        rows, _ = read_rows(out)
        self.assertEqual({row["layer"] for row in rows}, set(names[2:]))  # after model, input

    def test_a_bad_file_is_one_line_with_exit_code_2(self):
        out = os.path.join(WORK, "bad.csv")
        bad = os.path.join(WORK, "bad.model")
        with open(bad, "w", encoding="utf-8") as f:
            f.write("model bad\ninput 3x8x8\nc conv out=4 k=3\nx add from=c,nope\n")
        cases = [([os.path.join(WORK, "none.model")], ["none.model", "cannot read"]),
                 ([bad], ["bad.model:4", "'nope'"]),
                 ([os.path.join(WORK, "r18.onnx")], ["--input"])]
        # each a file that paradise refuses at the same line: a missing k=, a width that is
        # no number, groups that divide no channels, a negative size, a scale without from=
        for i, (body, words) in enumerate((
                ("c conv out=4\n", ["bad0.model:3", "needs k="]),
                ("c conv out=x k=3\n", ["bad1.model:3", "layer 'c'"]),
                ("c conv out=4 k=3 groups=2\n", ["bad2.model:3", "layer 'c'"]),
                (None, ["bad3.model:2", "input '3x-8x8'"]),
                ("s channel_scale\n", ["bad4.model:3", "needs from=X,S"]))):
            path = os.path.join(WORK, f"bad{i}.model")
            with open(path, "w", encoding="utf-8") as f:
                f.write("model bad\ninput 3x-8x8\n" if body is None else
                        "model bad\ninput 3x8x8\n" + body)
            cases.append(([path], words))
        for args, words in cases:
            r = subprocess.run([sys.executable, SCRIPT, *args, "-o", out], capture_output=True,
                               text=True, timeout=120)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertNotIn("Traceback", r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
            for w in words:
                self.assertIn(w, r.stderr)


if __name__ == "__main__":
    SCRATCH.take_argv()
    unittest.main()
