#!/usr/bin/python3
"""PyTorch's training-step peak with activation recomputation, on ParaDiSE's own plan: the
oracle of --recompute's memory (src/strategy/memory/recompute.cpp, recomputed()).

For each model, paradise's plan is read from `paradise predict --recompute --format json`
(recompute_checkpoints: the layers that begin a segment) and applied with
torch.utils.checkpoint (use_reentrant=False, the model's input needing no gradient) to the
model traced by torch.fx, whose nodes are paradise's layers one for one (checked: their
number, and the kind of each module a node calls against the layer's op; each checkpoint's
layer and its node are recorded side by side).
Every segment but the last runs under checkpoint, given the tensors made before it that it
reads (a skip is handed to the segment that reads it, not to those it passes); the last
runs as usual. Between and inside segments each
tensor is dropped after its last reader, as a module's forward drops its locals. The peak
per sample is measured as torch_counts.py does (training_peak_per_sample: the most bytes
the CPU allocator holds at once over a step that grow with the batch, without the
operators' scratch; the raw peak and the scratch beside it).
The hand tests' models (tests/data/recompute/*.model, twins here) are measured with and
without their plan, their loss handing the output a new gradient of its size (Seed).

Run:  /usr/bin/python3 analysis/reference/torch_recompute.py --paradise build/ci/src/app/paradise \\
          > tests/data/torch_recompute.json
(Debian 12: python3-torch 1.13, python3-torchvision 0.14; CPU only, one thread: about 10 minutes.)
"""
import argparse
import json
import os
import subprocess
import sys

import torch
import torch.fx as fx
import torch.nn as nn
import torchvision
from torch.utils.checkpoint import checkpoint

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository
from torch_counts import CosmoFlow, UNet3D, training_peak_per_sample, two_byte_peak_per_sample  # noqa: E402

# name, paradise dataset (one sample's shape), PyTorch model, its input, batch, segmentation
CASES = [
    ("cosmoflow", "x:1000:4x128x128x128", lambda: CosmoFlow(4), (4, 128, 128, 128), 1, False),
    ("resnet50", "x:1000:3x224x224", lambda: torchvision.models.resnet50(weights=None), (3, 224, 224), 2, False),
    # a chain with max-pool indices and dropout masks, whose classifier's 411 MB weight
    # gradient does not grow with the batch (training_peak_per_sample leaves it out)
    ("vgg16", "x:1000:3x224x224", lambda: torchvision.models.vgg16(weights=None), (3, 224, 224), 2, False),
    # dense blocks: concatenated skips crossing the cuts
    ("densenet121", "x:1000:3x224x224", lambda: torchvision.models.densenet121(weights=None), (3, 224, 224), 2,
     False),
    ("unet3d", "x:1000:3x64x64x64", lambda: UNet3D(3, 3), (3, 64, 64, 64), 1, True),
]

# mixed precision's plan (2-byte elements) beside fp32's, where the two differ: each plan
# measured at 2 and 4 bytes per element (two_byte_peak_per_sample); a small side, as the
# float64 steps it needs run without oneDNN
MIXED = [("unet3d", "x:1000:3x24x24x24", lambda: UNet3D(3, 3), (3, 24, 24, 24), 1, True)]


class Seed(torch.autograd.Function):
    """The hand models' loss: its backward hands the output a new gradient of its size and
    saves nothing, as ParaDiSE starts the backward pass of an output nobody reads."""

    @staticmethod
    def forward(ctx, y):
        ctx.shape = y.shape
        return y.new_zeros(())

    @staticmethod
    def backward(ctx, g):
        return torch.ones(ctx.shape)


def conv(cin=8, cout=8):
    return nn.Conv2d(cin, cout, 3, padding=1)


class Chain(nn.Module):
    """tests/data/recompute/chain16.model"""

    def __init__(self, n=16):
        super().__init__()
        self.c = nn.ModuleList([conv() for _ in range(n)])

    def forward(self, x):
        for c in self.c:
            x = c(x)
        return x


class InPlace(nn.Module):
    """tests/data/recompute/inplace.model"""

    def __init__(self):
        super().__init__()
        self.c1, self.r1, self.c2, self.r2 = conv(1, 4), nn.ReLU(inplace=True), conv(4, 64), nn.ReLU(inplace=True)
        self.a2, self.c3, self.flat, self.fc = nn.AvgPool2d(4), conv(64, 8), nn.Flatten(), nn.Linear(512, 10)

    def forward(self, x):
        return self.fc(self.flat(self.c3(self.a2(self.r2(self.c2(self.r1(self.c1(x))))))))


class Skip(nn.Module):
    """tests/data/recompute/block.model (n = 3) and longskip.model (n = 5)"""

    def __init__(self, n):
        super().__init__()
        self.c, self.last = nn.ModuleList([conv() for _ in range(n)]), conv()

    def forward(self, x):
        y = x
        for c in self.c:
            y = c(y)
        return self.last(y + x)


class TailSkip(nn.Module):
    """tests/data/recompute/tailskip.model"""

    def __init__(self):
        super().__init__()
        self.c, self.last = nn.ModuleList([conv() for _ in range(6)]), conv(8, 40)

    def forward(self, x):
        skip = y = self.c[0](x)
        for c in self.c[1:]:
            y = c(y)
        return self.last(y + skip)


# the hand tests' models (tests/data/recompute/NAME.model), their PyTorch twins and inputs,
# with and without the plan, at batch 4
HAND = [("chain16", Chain, (8, 16, 16)), ("inplace", InPlace, (1, 32, 32)), ("block", lambda: Skip(3), (8, 16, 16)),
        ("longskip", lambda: Skip(5), (8, 16, 16)), ("tailskip", TailSkip, (8, 16, 16))]


# paradise's op of a module call, by the module's class name
MODULE_OPS = [("conv_transpose", "ConvTranspose"), ("conv", "Conv"), ("batchnorm", "BatchNorm"),
              ("activation", "ReLU"), ("maxpool", "MaxPool"), ("adaptive_avgpool", "AdaptiveAvgPool"),
              ("avgpool", "AvgPool"), ("dense", "Linear")]


def paradise_json(binary, *args):
    out = subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


class Checkpointed(nn.Module):
    """`model` traced, run in segments starting at the nodes `starts` (indices into the
    traced graph's nodes, the input placeholder node 0), all but the last checkpointed."""

    def __init__(self, model, starts):
        super().__init__()
        self.gm = fx.symbolic_trace(model)
        self.nodes = [n for n in self.gm.graph.nodes if n.op != "output"]
        self.result = next(n for n in self.gm.graph.nodes if n.op == "output").args[0]
        index = {n: i for i, n in enumerate(self.nodes)}
        self.last_use = {n: max([index[u] for u in n.users if u in index] + [index[n]]) for n in self.nodes}
        self.last_use[self.result] = len(self.nodes)
        self.bounds = list(zip([1] + starts, starts + [len(self.nodes)]))
        self.modules_ = dict(self.gm.named_modules())

    def run_node(self, n, env):
        args = fx.node.map_arg(n.args, lambda a: env[a])
        kwargs = fx.node.map_arg(n.kwargs, lambda a: env[a])
        if n.op == "call_module":
            return self.modules_[n.target](*args, **kwargs)
        if n.op == "call_function":
            return n.target(*args, **kwargs)
        if n.op == "call_method":
            return getattr(args[0], n.target)(*args[1:], **kwargs)
        if n.op == "get_attr":
            return getattr(self.gm, n.target)
        raise ValueError(f"node {n.name}: op {n.op}")

    def segment(self, begin, end, ins, outs):
        def run(*tensors):
            env = dict(zip(ins, tensors))
            del tensors
            for i in range(begin, end):
                n = self.nodes[i]
                env[n] = self.run_node(n, env)
                for a in list(env):
                    if self.last_use[a] <= i and a not in outs:
                        del env[a]
            return tuple(env[o] for o in outs)
        return run

    def forward(self, x):
        env = {self.nodes[0]: x}
        del x
        last = len(self.bounds) - 1
        for s, (begin, end) in enumerate(self.bounds):
            read = {a for n in self.nodes[begin:end] for a in n.all_input_nodes}
            ins = [n for n in env if n in read]
            outs = [n for n in self.nodes[begin:end] if self.last_use[n] >= end]
            run = self.segment(begin, end, ins, outs)
            tensors = [env[n] for n in ins]
            env = {n: t for n, t in env.items() if self.last_use[n] >= end}
            made = checkpoint(run, *tensors, use_reentrant=False) if s < last else run(*tensors)
            del tensors
            env.update(zip(outs, made))
            del made
        return env[self.result]


def traced_plan(binary, model, dataset, make, loss_layer, precision="fp32"):
    """paradise's plan for `model` (a name or a file) at `precision` as its layers' names,
    the layer indices that begin a segment, and the PyTorch model traced (its nodes checked
    against paradise's layers: the input, one per traced node, and `loss_layer` a loss)."""
    table = paradise_json(binary, "models", "--show", model, "--format", "json")["layers"]
    layers = [l["name"] for l in table]
    plan = paradise_json(binary, "predict", "--model", model, "--dataset", dataset, "--gpus", "1", "--batch", "1",
                         "--recompute", "--precision", precision, "--format", "json")["recompute_checkpoints"]
    starts = [layers.index(c) for c in plan]
    traced = Checkpointed(make(), starts)
    if len(traced.nodes) != len(layers) - loss_layer:
        sys.exit(f"{model}: {len(traced.nodes)} traced nodes for {len(layers)} paradise layers")
    for layer, node in zip(table, traced.nodes):  # every module call: the same kind of layer
        kind = type(traced.modules_[node.target]).__name__ if node.op == "call_module" else ""
        expected = next((op for op, prefix in MODULE_OPS if kind.startswith(prefix)), None)
        if expected is not None and expected != layer["op"]:
            sys.exit(f"{model}: layer {layer['name']} ({layer['op']}) is traced node {node.name} ({kind})")
    return table, plan, starts, traced


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--paradise", required=True, help="the paradise binary")
    binary = parser.parse_args().paradise
    torch.set_num_threads(1)
    hand = {}
    for name, make, shape in HAND:
        path = os.path.join(ROOT, "tests", "data", "recompute", name + ".model")
        dataset = "small:1000:" + "x".join(map(str, shape))
        _, plan, starts, _ = traced_plan(binary, path, dataset, make, 0)
        hand[name] = {"model": f"recompute/{name}.model", "dataset": dataset, "batch": 4, "checkpoints": plan}
        for key, cuts in (("plain", []), ("recompute", starts)):
            torch.manual_seed(0)
            hand[name][key] = training_peak_per_sample(lambda: Checkpointed(make(), cuts), shape, 4, False,
                                                       lambda out: Seed.apply(out))
        print(name, plan, hand[name]["plain"]["training_peak_bytes_per_sample"],
              hand[name]["recompute"]["training_peak_bytes_per_sample"], file=sys.stderr)
    models = {}
    for name, dataset, make, shape, batch, segmentation in CASES:
        _, plan, starts, traced = traced_plan(binary, name, dataset, make, 1)
        calls = [traced.nodes[i].target if traced.nodes[i].op == "call_module" else traced.nodes[i].name
                 for i in starts]
        torch.manual_seed(0)
        peaks = training_peak_per_sample(lambda: Checkpointed(make(), starts), shape, batch, segmentation)
        models[name] = {"input": "x".join(map(str, shape)), "batch": batch, "checkpoints": plan,
                        "checkpoint_layers": starts, "traced_calls": [str(c) for c in calls], **peaks}
        print(name, plan, calls, {k: round(v) for k, v in peaks.items()}, file=sys.stderr)
    mixed = {}
    for name, dataset, make, shape, batch, segmentation in MIXED:
        mixed[name] = {"dataset": dataset, "input": "x".join(map(str, shape)), "batch": batch}
        for precision in ("mixed", "fp32"):
            _, plan, starts, _ = traced_plan(binary, name, dataset, make, 1, precision)
            mixed[name][precision] = {"checkpoints": plan, **two_byte_peak_per_sample(
                lambda: Checkpointed(make(), starts), shape, batch, segmentation)}
            print(name, precision, plan, mixed[name][precision], file=sys.stderr)
    json.dump({"torch_version": torch.__version__, "checkpoint": "torch.utils.checkpoint, use_reentrant=False",
               "hand_models": hand, "models": models, "mixed_plans": mixed}, sys.stdout, indent=1,
              sort_keys=True)
    print()


if __name__ == "__main__":
    main()
