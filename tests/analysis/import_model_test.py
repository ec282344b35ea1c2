#!/usr/bin/python3
"""Tests of analysis/import_model.py (python3-torch, -torchvision, -onnx, on the CPU): models
imported from torchvision, from a Python file and from ONNX are read by `paradise models --show`
and checked against PyTorch's own counts, measured here on the same modules:
  parameters     sum of p.numel() over model.parameters(), exactly;
  forward MACs   forward hooks on every convolution and dense layer
                 (analysis/reference/torch_counts.py's macs_by_hooks), exactly;
  saved bytes    what autograd keeps for backward, by torch.autograd.graph.saved_tensors_hooks
                 (torch_counts.py's saved_bytes, dropout masks as on a GPU), within 2%.
Where the zoo has the model, the import must be the zoo's model layer for layer (the zoo is
checked against the same counts by tests/unit/model_reference_test.cpp).

    import_model_test.py --paradise BUILD/src/app/paradise [unittest arguments]
"""
import json
import os
import subprocess
import sys
import unittest

from harness import Scratch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(ROOT, "analysis", "import_model.py")
sys.path.insert(0, os.path.join(ROOT, "analysis", "reference"))
SCRATCH = Scratch("paradise-import-")
PARADISE = ""
WORK = ""

# Fifteen torchvision CNNs of the families users train (plain, residual, grouped, dense,
# depthwise, fire modules, neural-architecture-searched, squeeze-and-excitation with SiLU
# and stochastic depth), at 112 x 112 to keep the CPU's
# autograd pass short (Inception and GoogLeNet train with auxiliary classifiers and losses
# that a model file's one loss does not describe).
TORCHVISION = ["alexnet", "vgg11", "vgg16_bn", "resnet18", "resnet50", "resnet152",
               "resnext50_32x4d", "wide_resnet50_2", "densenet121", "mobilenet_v2",
               "squeezenet1_0", "mnasnet1_0", "regnet_x_400mf", "regnet_y_400mf",
               "efficientnet_b0"]
SHAPE = (3, 112, 112)
IN_ZOO = {"alexnet", "vgg11", "vgg16_bn", "resnet18", "resnet50", "resnext50_32x4d",
          "wide_resnet50_2", "densenet121", "mobilenet_v2", "efficientnet_b0"}

SMALL_3D = '''
import torch
import torch.nn as nn


class Small3d(nn.Module):
    """A residual 3-D block and a transposed-convolution decoder with a skip."""

    def __init__(self, cin, width=8, classes=3):
        super().__init__()
        self.stem = nn.Conv3d(cin, width, 3, padding=1)
        self.bn = nn.BatchNorm3d(width)
        self.act = nn.ReLU(inplace=True)
        self.down = nn.Conv3d(width, 2 * width, 2, stride=2)
        self.up = nn.ConvTranspose3d(2 * width, width, 2, stride=2)
        self.head = nn.Conv3d(2 * width, classes, 1)

    def forward(self, x):
        s = self.act(self.bn(self.stem(x)))
        y = self.act(self.down(s))
        y = torch.cat([self.up(y), s], 1)
        return self.head(y + y)
'''


def setUpModule():
    global PARADISE, WORK
    SCRATCH.open()
    PARADISE, WORK = SCRATCH.paradise, SCRATCH.work


def tearDownModule():
    SCRATCH.close()


def run_import(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                          cwd=WORK, timeout=600)


def show(model, *args):
    r = subprocess.run([PARADISE, "models", "--show", model, "--format", "json", *args],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def layer_rows(doc):
    keys = ("name", "op", "input", "output", "params", "forward_macs", "saved_bytes_per_sample")
    return [tuple(layer[k] for k in keys) for layer in doc["layers"]]


def torch_counts(model, shape, segmentation=False):
    """(parameters, forward MACs per sample, saved bytes per sample) by PyTorch's machinery."""
    import torch
    import torch_counts as tc
    model = tc.on_gpu_terms(model)
    params = sum(p.numel() for p in model.parameters())
    torch.manual_seed(0)
    x = torch.randn((2,) + tuple(shape))  # 2 samples: batch norm trains on 1x1 tiles too
    macs = tc.macs_by_hooks(model, x)
    saved, _ = tc.saved_bytes(model, x, segmentation)
    return params, macs, saved


class Torchvision(unittest.TestCase):
    def test_every_model_matches_pytorchs_parameters_macs_and_saved_bytes(self):
        import torchvision
        for name in TORCHVISION:
            with self.subTest(model=name):
                shape = SHAPE
                out = os.path.join(WORK, f"{name}.model")
                r = run_import(name, "--input", "x".join(map(str, shape)), "-o", out)
                self.assertEqual(r.returncode, 0, r.stderr)
                doc = show(out)
                params, macs, saved = torch_counts(getattr(torchvision.models, name)(), shape)
                self.assertEqual(doc["params"], params)
                self.assertEqual(doc["forward_macs"], macs)
                got = doc["saved_activation_bytes_per_sample"]
                self.assertLess(abs(got - saved) / saved, 0.02, (got, saved))

    def test_a_zoo_model_imports_as_the_zoo_has_it_layer_for_layer(self):
        for name in sorted(IN_ZOO):
            with self.subTest(model=name):
                out = os.path.join(WORK, f"zoo-{name}.model")
                r = run_import(name, "--input", "3x112x112", "-o", out)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertEqual(layer_rows(show(out)), layer_rows(show(name, "--input", "3x112x112")))


class PythonFile(unittest.TestCase):
    def test_a_class_in_a_file_with_arguments_matches_pytorch(self):
        import importlib.util
        path = os.path.join(WORK, "small3d.py")
        with open(path, "w") as f:
            f.write(SMALL_3D)
        out = os.path.join(WORK, "small3d.model")
        r = run_import(f"{path}:Small3d(4, width=6)", "--input", "4x16x16x16", "-o", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        spec = importlib.util.spec_from_file_location("small3d", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        params, macs, saved = torch_counts(module.Small3d(4, width=6), (4, 16, 16, 16), True)
        doc = show(out)
        self.assertEqual(doc["params"], params)
        self.assertEqual(doc["forward_macs"], macs)
        self.assertLess(abs(doc["saved_activation_bytes_per_sample"] - saved) / saved, 0.02)
        names = [layer["name"] for layer in doc["layers"]]
        # the module act runs twice: act1 then act (profile_layers.py's rule); cat and the
        # sum run in the top module, and the loss is appended
        self.assertEqual(names, ["input", "stem", "bn", "act1", "down", "act", "up", "cat",
                                 "add", "head", "loss"])


    def test_profile_layers_times_the_same_class_under_the_imported_names(self):
        import csv
        path = os.path.join(WORK, "small3d_profiled.py")
        with open(path, "w") as f:
            f.write(SMALL_3D)
        source, shape = f"{path}:Small3d(4, width=6)", "4x16x16x16"
        model, times = (os.path.join(WORK, f"profiled.{k}") for k in ("model", "csv"))
        self.assertEqual(run_import(source, "--input", shape, "-o", model).returncode, 0)
        profiler = os.path.join(ROOT, "analysis", "profile_layers.py")
        r = subprocess.run([sys.executable, profiler, source, "--input", shape, "-o", times,
                            "--batch", "2", "--iters", "1", "--warmup", "0"],
                           capture_output=True, text=True, cwd=WORK, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(times) as f:
            rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
        timed = {row["layer"] for row in rows}
        # every module the profiler times is a layer of the imported file (the rest are
        # operations outside modules: the concatenation and the sum)
        layers = {layer["name"] for layer in show(model)["layers"]}
        self.assertEqual(timed, {"stem", "bn", "act1", "act", "down", "up", "head", "loss"})
        self.assertLessEqual(timed, layers)
        r = subprocess.run([PARADISE, "predict", "--model", model, "--layer-times", times,
                            "--dataset", f"small:100:{shape}", "--system", "abci", "--gpus", "1",
                            "--batch", "2", "--strategy", "data", "--format", "json"],
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)


    def test_an_imported_file_runs_through_predict_and_a_sweep_alike(self):
        # the round trip of issue 38: import, predict, sweep; the sweep engine and predict are
        # two paths to the same cost model, so each point's epoch time is predict's
        import h5py
        import numpy as np
        path = os.path.join(WORK, "small3d_trip.py")
        with open(path, "w") as f:
            f.write(SMALL_3D)
        model = os.path.join(WORK, "trip.model")
        r = run_import(f"{path}:Small3d(4, width=6)", "--input", "4x16x16x16", "-o", model)
        self.assertEqual(r.returncode, 0, r.stderr)
        dataset = "small:1000:4x16x16x16"
        predicted = []
        for gpus in (1, 2):
            r = subprocess.run([PARADISE, "predict", "--model", model, "--dataset", dataset,
                                "--system", "dgx-a100", "--strategy", "data", "--gpus",
                                str(gpus), "--batch", "8", "--format", "json"],
                               capture_output=True, text=True, timeout=120)
            self.assertEqual(r.returncode, 0, r.stderr)
            predicted.append(json.loads(r.stdout)["epoch_time_s"])
        ini, out = os.path.join(WORK, "trip.ini"), os.path.join(WORK, "trip.h5")
        with open(ini, "w") as f:
            f.write(f"[sweep]\nmodel = {model}\ndataset = {dataset}\nsystem = dgx-a100\n"
                    "strategy = data\ngpus = 1, 2\nbatch = 8\nvariant = paradise\n"
                    "[output]\nstorage = full\n")
        r = subprocess.run([PARADISE, "sweep", ini, "-o", out, "--quiet"], capture_output=True,
                           text=True, timeout=300, cwd=WORK)
        self.assertEqual(r.returncode, 0, r.stderr)
        with h5py.File(out, "r") as f:
            swept = np.asarray(f["epoch_time_s"][()], dtype=float).ravel()
            gpus = list(f["gpus"][()])
        self.assertEqual(gpus, [1, 2])
        np.testing.assert_allclose(swept, predicted, rtol=1e-12)


class Onnx(unittest.TestCase):
    def test_an_export_in_training_mode_imports_as_the_model_itself(self):
        import torch
        import torchvision
        for name in ("resnet18", "densenet121", "squeezenet1_0"):
            with self.subTest(model=name):
                onnx_path = os.path.join(WORK, f"{name}.onnx")
                torch.onnx.export(getattr(torchvision.models, name)(), torch.zeros(1, 3, 224, 224),
                                  onnx_path, training=torch.onnx.TrainingMode.TRAINING,
                                  do_constant_folding=False)
                a, b = (os.path.join(WORK, f"{name}-{k}.model") for k in ("onnx", "torch"))
                r = run_import(onnx_path, "--input", "3x224x224", "-o", a, "--inplace")
                self.assertEqual(r.returncode, 0, r.stderr)
                r = run_import(name, "--input", "3x224x224", "-o", b)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertEqual(layer_rows(show(a)), layer_rows(show(b)))


    def test_an_eval_mode_export_with_folded_constants_imports(self):
        # the default export (eval mode, constants folded) folds each batch norm into its
        # convolution and gives equal folded biases one initializer, read by the others'
        # convolutions through Identity nodes: nodes with no data input, which made the
        # importer fail with an IndexError. Folding turns each batch norm's weight and bias
        # (2 C) into its convolution's bias (C), so the model has PyTorch's parameters less
        # one per batch-norm channel.
        import torch
        import torchvision
        model = torchvision.models.resnet18().eval()
        onnx_path = os.path.join(WORK, "resnet18-eval.onnx")
        torch.onnx.export(model, torch.zeros(1, 3, 64, 64), onnx_path)
        out = os.path.join(WORK, "resnet18-eval.model")
        r = run_import(onnx_path, "--input", "3x64x64", "-o", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        norm_channels = sum(m.num_features for m in model.modules()
                            if isinstance(m, torch.nn.BatchNorm2d))
        self.assertEqual(show(out)["params"],
                         sum(p.numel() for p in model.parameters()) - norm_channels)
        # two convolutions with equal weights: the second reads the first's through Identity
        # nodes, and each keeps its 3 x 3 x 9 weights and 3 biases (84)
        tied = torch.nn.Sequential(torch.nn.Conv2d(3, 3, 3, padding=1), torch.nn.ReLU(),
                                   torch.nn.Conv2d(3, 3, 3, padding=1))
        with torch.no_grad():
            tied[2].weight.copy_(tied[0].weight)
            tied[2].bias.copy_(tied[0].bias)
        onnx_path = os.path.join(WORK, "tied.onnx")
        torch.onnx.export(tied.eval(), torch.zeros(1, 3, 8, 8), onnx_path)
        out = os.path.join(WORK, "tied.model")
        r = run_import(onnx_path, "--input", "3x8x8", "-o", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(show(out)["params"], 2 * 84)

    def test_silu_and_squeeze_excitation_exports_give_pytorchs_totals(self):
        # EfficientNet's SiLU exports as x * sigmoid(x) and its squeeze-and-excitation as a
        # Mul (stochastic depth off: ONNX cannot export its bernoulli draw); RegNetY's
        # squeeze-and-excitation runs its ReLU out of place, which --inplace does not know,
        # so the totals, not every layer's saved bytes, are PyTorch's
        import torch
        import torchvision
        models = {"efficientnet_b0": torchvision.models.efficientnet_b0(stochastic_depth_prob=0.0),
                  "regnet_y_400mf": torchvision.models.regnet_y_400mf()}
        mul = {"efficientnet_b0": "features.1.0.block.1.mul",
               "regnet_y_400mf": "trunk_output.block1.block1-0.f.se.mul"}
        for name, model in models.items():
            with self.subTest(model=name):
                onnx_path = os.path.join(WORK, f"{name}-se.onnx")
                torch.onnx.export(model, torch.zeros(1, 3, 112, 112), onnx_path,
                                  training=torch.onnx.TrainingMode.TRAINING,
                                  do_constant_folding=False)
                out = os.path.join(WORK, f"{name}-se-onnx.model")
                r = run_import(onnx_path, "--input", "3x112x112", "-o", out, "--inplace")
                self.assertEqual(r.returncode, 0, r.stderr)
                doc = show(out)
                params, macs, saved = torch_counts(model, SHAPE)
                self.assertEqual(doc["params"], params)
                self.assertEqual(doc["forward_macs"], macs)
                got = doc["saved_activation_bytes_per_sample"]
                self.assertLess(abs(got - saved) / saved, 0.02, (got, saved))
                self.assertIn(mul[name], [layer["name"] for layer in doc["layers"]])


class Refusals(unittest.TestCase):
    def test_an_unsupported_operation_is_named_and_nothing_is_written(self):
        cases = [("convnext_tiny", "operation permute"), ("mobilenet_v3_small", "Hardsigmoid"),
                 ("not_a_model", "not a torchvision model")]
        for source, fragment in cases:
            with self.subTest(source=source):
                out = os.path.join(WORK, f"refused-{source}.model")
                r = run_import(source, "--input", "3x64x64", "-o", out)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn(fragment, r.stderr)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                self.assertFalse(os.path.exists(out))

    def test_a_file_that_is_no_model_file_is_not_replaced(self):
        out = os.path.join(WORK, "notes.model")
        with open(out, "w") as f:
            f.write("my notes, not a model\n")
        r = run_import("resnet18", "--input", "3x64x64", "-o", out)
        self.assertEqual(r.returncode, 2, r.stderr)
        with open(out) as f:
            self.assertEqual(f.read(), "my notes, not a model\n")


if __name__ == "__main__":
    SCRATCH.take_argv()
    unittest.main()
