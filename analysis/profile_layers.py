#!/usr/bin/python3
"""profile_layers.py MODEL -o LAYERS.csv [--batch 8,32] [--input CxHxW] [--precision fp32]:
times the forward and backward pass of every leaf layer of a model in training mode and
writes the per-layer CSV that `paradise calibrate --profile` and `paradise predict
--layer-times` read.

MODEL: a torchvision model (resnet18, resnet50, vgg16, ...), `cosmoflow` / `unet3d`
defined here with the layer names of paradise's zoo (`paradise models --show MODEL`), a
class in a Python file, PATH.py:CLASS[(ARGS)] with --input, as analysis/import_model.py
takes it: the rows then carry the layer names of the model file import_model.py writes; or
a ParaDiSE .model file, or an .onnx file with --input (read as import_model.py reads it),
run by analysis/model_file.py with random weights: the rows carry the file's layer names.

Timing: forward pre-/post-hooks, and for backward a hook on the layer's output gradient
(start) and one on the autograd node that made the output (end), at every call; torch.cuda.Event pairs on
a GPU, time.perf_counter on the CPU (both synchronised). A module called k times per
forward (torchvision's ReLU in a residual block) gives k rows named as the zoo names them:
NAME1 ... NAME(k-1), then NAME. In-place activations run out of place (the hooks need the
output's own node). A layer of several autograd nodes is timed by its last node's backward. Times are the mean over --iters iterations after --warmup, per sample (/ batch).

Peak memory: torch.cuda.max_memory_allocated over one training iteration on a GPU (the same
value on every row of that batch); 0 on the CPU (not measured).

CSV: '#' comment lines (command, torch version, device), then
layer,forward_s,backward_s,batch,precision,peak_memory_bytes,calls,device
"""
import argparse
import contextlib
import math
import os
import sys
import time

import torch
import torch.nn as nn

import command
from paradise_h5 import InputError

ZOO_INPUTS = {"cosmoflow": (4, 128, 128, 128), "unet3d": (3, 128, 128, 128)}


class Named(nn.Module):
    """A network whose leaf modules carry paradise's zoo names (`zoo_names`)."""

    def zoo_names(self):
        return {}


class CosmoFlow(Named):
    """paradise's cosmoflow (src/model/zoo_hpc.cpp; analysis/reference/torch_counts.py)."""

    def __init__(self, cin=4):
        super().__init__()
        self.names, self.features, c = {}, nn.ModuleList(), cin
        for i, (f, k) in enumerate([(16, 3), (32, 3), (64, 3), (128, 3), (256, 2), (256, 2), (128, 2)]):
            conv, relu = nn.Conv3d(c, f, k, padding=1 if 0 < i < 4 else 0), nn.ReLU()
            self.features.extend([conv, relu])
            self.names.update({conv: f"conv{i + 1}", relu: f"conv{i + 1}.relu"})
            if i < 5:
                pool = nn.AvgPool3d(2)
                self.features.append(pool)
                self.names[pool] = f"conv{i + 1}.pool"
            c = f
        self.pool, self.flat = nn.AdaptiveAvgPool3d(1), nn.Flatten()
        self.head = nn.ModuleList([nn.Linear(128, 2048), nn.ReLU(), nn.Linear(2048, 256), nn.ReLU(),
                                   nn.Linear(256, 4)])
        self.names.update({self.pool: "avgpool", self.flat: "flatten"})
        self.names.update(zip(self.head, ["fc1", "fc1.relu", "fc2", "fc2.relu", "fc3"]))

    def zoo_names(self):
        return self.names

    def forward(self, x):
        for m in list(self.features) + [self.pool, self.flat] + list(self.head):
            x = m(x)
        return x


class UNet3D(Named):
    """paradise's unet3d (Cicek et al. 2016, padded; src/model/zoo_hpc.cpp)."""

    def __init__(self, cin=3, classes=3):
        super().__init__()
        self.names = {}

        def block(name, a, mid, b):
            mods = nn.ModuleList([nn.Conv3d(a, mid, 3, padding=1, bias=False), nn.BatchNorm3d(mid),
                                  nn.ReLU(), nn.Conv3d(mid, b, 3, padding=1, bias=False),
                                  nn.BatchNorm3d(b), nn.ReLU()])
            self.names.update(zip(mods, [f"{name}.{s}" for s in
                                         ("conv1", "bn1", "relu1", "conv2", "bn2", "relu2")]))
            return mods

        self.enc1, self.enc2, self.enc3 = block("enc1", cin, 32, 64), block("enc2", 64, 64, 128), \
            block("enc3", 128, 128, 256)
        self.bottom = block("bottom", 256, 256, 512)
        self.dec3, self.dec2, self.dec1 = block("dec3", 768, 256, 256), block("dec2", 384, 128, 128), \
            block("dec1", 192, 64, 64)
        self.pools = nn.ModuleList([nn.MaxPool3d(2) for _ in range(3)])
        self.ups = nn.ModuleList([nn.ConvTranspose3d(c, c, 2, 2) for c in (128, 256, 512)])
        self.out = nn.Conv3d(64, classes, 1)
        self.names.update({p: f"pool{i + 1}" for i, p in enumerate(self.pools)})
        self.names.update({u: f"up{i + 1}" for i, u in enumerate(self.ups)})
        self.names[self.out] = "out"

    def zoo_names(self):
        return self.names

    def forward(self, x):
        run = lambda mods, y: [y := m(y) for m in mods][-1]  # noqa: E731
        s1 = run(self.enc1, x)
        s2 = run(self.enc2, self.pools[0](s1))
        s3 = run(self.enc3, self.pools[1](s2))
        y = run(self.bottom, self.pools[2](s3))
        y = run(self.dec3, torch.cat([self.ups[2](y), s3], 1))
        y = run(self.dec2, torch.cat([self.ups[1](y), s2], 1))
        y = run(self.dec1, torch.cat([self.ups[0](y), s1], 1))
        return self.out(y)


def from_model_file(name, input_text):
    """(network, input shape, None) of a .model file, or of an .onnx file through
    import_model.py's reading of it (at --input): analysis/model_file.py's network, each
    module named as the file's layer."""
    import import_model
    import model_file
    if name.lower().endswith(".onnx"):
        if not input_text:
            raise InputError(f"model '{name}': give its sample shape with --input CxHxW or "
                             "CxDxHxW")
        shape = import_model.parse_shape(input_text)
        text = import_model.model_text("onnx", shape, import_model.import_layers(name, shape),
                                       "softmax_ce", name)
    else:
        shape = import_model.parse_shape(input_text) if input_text else None
        try:
            with open(name, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            raise InputError(f"model '{name}': cannot read "
                             f"({getattr(e, 'strerror', None) or 'not UTF-8 text'})") from None
    net = model_file.ModelFileNet(text, name, shape=shape)
    return net, net.shape, None


def build(name, input_text=None):
    """(model, default input shape, segmentation?) for a torchvision name, cosmoflow/unet3d,
    a PATH.py:CLASS, a .model file or an .onnx file."""
    if name.lower().endswith((".model", ".onnx")):
        return from_model_file(name, input_text)
    if name == "cosmoflow":
        return CosmoFlow(), ZOO_INPUTS[name], False
    if name == "unet3d":
        return UNet3D(), ZOO_INPUTS[name], True
    if ":" in name:  # PATH.py:CLASS[(ARGS)], as import_model.py builds it: --input gives the shape
        import import_model
        return import_model.load_torch(name), None, None
    import torchvision
    try:
        return getattr(torchvision.models, name)(), (3, 224, 224), False
    except AttributeError:
        raise InputError(f"model '{name}': not a torchvision model, cosmoflow, unet3d, "
                         "PATH.py:CLASS, a .model file or an .onnx file") from None


class Timer:
    """Start/stop marks per (layer, call, phase): CUDA events or perf_counter."""

    def __init__(self, cuda):
        self.cuda, self.marks = cuda, []

    def mark(self):
        if self.cuda:
            e = torch.cuda.Event(enable_timing=True)
            e.record()
            return e
        return time.perf_counter()

    def seconds(self, a, b):
        return a.elapsed_time(b) / 1e3 if self.cuda else b - a


def leaf_names(model):
    """{module: zoo name} of the leaf modules."""
    if hasattr(model, "zoo_names"):  # Named, or analysis/model_file.py's network
        return dict(model.zoo_names())
    return {m: n for n, m in model.named_modules() if n and not list(m.children())}


def profile(model, names, x, target, loss_fn, timer, iters, warmup):
    """{(module name, call): [forward_s, backward_s]} summed over `iters` iterations."""
    calls, marks = {}, {}

    def pre(m, _inputs):
        c = calls[m] = calls.get(m, 0) + 1
        marks[(m, c, "f0")] = timer.mark()

    def post(m, _inputs, out):
        c = calls[m]
        marks[(m, c, "f1")] = timer.mark()
        if isinstance(out, torch.Tensor) and out.grad_fn is not None:
            # backward of this call: from its output's gradient (a hook on the tensor, run
            # before the node) to the end of the node that made it (a hook on the node)
            out.register_hook(lambda g, m=m, c=c: marks.__setitem__((m, c, "b0"), timer.mark()))
            out.grad_fn.register_hook(
                lambda gi, go, m=m, c=c: marks.__setitem__((m, c, "b1"), timer.mark()))

    handles = []
    for m in list(names) + [loss_fn]:
        if hasattr(m, "inplace"):
            m.inplace = False  # an in-place op would move the output's hooks to its node
        handles += [m.register_forward_pre_hook(pre), m.register_forward_hook(post)]
    totals = {}
    for it in range(warmup + iters):
        calls.clear()
        marks.clear()
        model.zero_grad(set_to_none=True)
        loss = loss_fn(model(x), target)
        loss.backward()
        if timer.cuda:
            torch.cuda.synchronize()
        if it < warmup:
            continue
        for m, n in calls.items():
            for c in range(1, n + 1):
                f = timer.seconds(marks[(m, c, "f0")], marks[(m, c, "f1")])
                b0, b1 = marks.get((m, c, "b0")), marks.get((m, c, "b1"))
                b = timer.seconds(b0, b1) if b0 is not None and b1 is not None else 0.0
                key = (m, c, n)
                t = totals.setdefault(key, [0.0, 0.0])
                t[0] += f
                t[1] += b
    for h in handles:
        h.remove()
    return totals


def row_name(base, call, calls):
    """The zoo's names for a module called `calls` times: NAME1 .. NAME(k-1), then NAME."""
    return base if call == calls else f"{base}{call}"


def parse_batches(text):
    """--batch as positive integers; InputError otherwise."""
    try:
        batches = [int(b) for b in text.split(",")]
        if any(b < 1 for b in batches):
            raise ValueError
    except ValueError:
        raise InputError(f"--batch '{text}': expected positive integers, e.g. 8,32") from None
    return batches


MAX_ITERATIONS = 10_000  # a layer profile averages a handful; more is a typo


def parse_device(text):
    """--device as a torch.device: cpu, cuda or cuda:N of a GPU this machine has."""
    try:
        device = torch.device(text)
    except RuntimeError:  # torch's list of every device type it knows, in a traceback
        device = None
    if device is None or device.type not in ("cpu", "cuda") or (device.type == "cpu" and
                                                                  device.index is not None):
        raise InputError(f"--device '{text}': expected cpu, cuda or cuda:N")
    if device.type == "cuda":
        count = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if count == 0:
            raise InputError(f"--device {text}: no CUDA device")
        if device.index is not None and device.index >= count:
            raise InputError(f"--device {text}: no such CUDA device ({count} here)")
    return device


def parse_input(text, default, model):
    """--input as a sample shape the model takes: positive sizes, as many as its default
    (CxHxW or CxDxHxW) and its number of channels; InputError otherwise (torch's errors
    came at every batch, as tracebacks)."""
    form = "CxHxW" if len(default) == 3 else "CxDxHxW"
    parts = text.split("x")
    if not all(p.strip().isdigit() for p in parts):
        raise InputError(f"--input '{text}': expected sizes {form}, e.g. "
                         f"{'x'.join(map(str, default))}")
    shape = tuple(int(p) for p in parts)
    if len(shape) != len(default):
        raise InputError(f"--input '{text}': {model} takes a {len(default)}-part shape {form}")
    if min(shape) < 1:
        raise InputError(f"--input '{text}': every size must be positive")
    if shape[0] != default[0]:
        raise InputError(f"--input '{text}': {model} takes {default[0]} channels (C of {form})")
    return shape


def device_memory_bytes(device):
    """The memory of the device the model runs on: the GPU's, or the machine's for the CPU."""
    if device.type == "cuda":
        return torch.cuda.get_device_properties(device).total_memory
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def check_input_size(batches, shape, device):
    """InputError when the largest batch's input and its gradient alone exceed the device's
    memory (`--batch 100000000000`: torch's allocator error, or the kernel's OOM killer)."""
    need = 2 * 4 * max(batches) * math.prod(shape)  # fp32 input and its gradient
    have = device_memory_bytes(device)
    if need > have:
        raise InputError(f"--batch {max(batches)} at input {'x'.join(map(str, shape))}: the "
                         f"input and its gradient alone take {need / 1e9:.4g} GB, more than "
                         f"the {have / 1e9:.4g} GB of the device ({device})")


@contextlib.contextmanager
def model_run(model_name, batch, shape):
    """Around the calls into torch that run the model: what torch refuses (BatchNorm's one
    value per channel in training, an input too small for the pools, out of memory) becomes
    an InputError naming the model, batch and input."""
    try:
        yield
    except (RuntimeError, ValueError) as e:
        cause = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise InputError(f"{model_name} at batch {batch}, input {'x'.join(map(str, shape))}: "
                         f"torch cannot run it ({cause})") from None


def output_shape(model, x):
    """The model's output shape for one sample, in eval mode and without gradients: in
    training mode BatchNorm refuses a batch of one at 1x1 (resnet18 at 3x32x32)."""
    model.eval()
    try:
        with torch.no_grad():
            return model(x[:1]).shape
    finally:
        model.train()


def write_csv(path, rows, shape, device):
    """The CSV, written under a temporary name and renamed when complete (a full disk or
    `ulimit -f` left a partial file)."""
    with command.staged() as staging:
        temp = staging.path(path, "-o")
        try:
            with open(temp, "w", encoding="utf-8") as f:
                f.write(f"# {' '.join([os.path.basename(sys.argv[0])] + sys.argv[1:])}\n")
                f.write(f"# torch {torch.__version__}, {device}, input "
                        f"{'x'.join(map(str, shape))}; seconds per sample, mean of the timed "
                        "iterations\n")
                f.write("layer,forward_s,backward_s,batch,precision,peak_memory_bytes,calls,"
                        "device\n")
                for r in rows:
                    f.write(f"{r[0]},{r[1]!r},{r[2]!r},{r[3]},{r[4]},{r[5]},{r[6]},{device}\n")
        except OSError as e:
            raise InputError(f"-o '{path}': cannot write ({e.strerror})") from None


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("model", help="torchvision model name, cosmoflow, unet3d, PATH.py:CLASS[(ARGS)], "
                   "a .model file or an .onnx file")
    p.add_argument("-o", "--output", required=True, help="the CSV to write")
    p.add_argument("--batch", default="8", help="comma-separated batch sizes (default 8)")
    p.add_argument("--input", help="sample shape CxHxW or CxDxHxW (default: the model's)")
    p.add_argument("--precision", default="fp32", choices=("fp32", "tf32", "mixed"))
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu",
                   help="cpu, cuda or cuda:N (default: cuda where there is one)")
    p.add_argument("--iters", type=int, default=5, help="timed iterations (default 5)")
    p.add_argument("--warmup", type=int, default=2, help="untimed iterations first (default 2)")
    p.add_argument("--threads", type=int, help="CPU threads (torch.set_num_threads)")
    args = p.parse_args()
    command.check_output(args.output, "-o", "csv")  # first: profiling takes minutes
    batches = parse_batches(args.batch)
    if not 1 <= args.iters <= MAX_ITERATIONS or not 0 <= args.warmup <= MAX_ITERATIONS:
        raise InputError(f"--iters {args.iters} / --warmup {args.warmup}: expected --iters "
                         f"1 to {MAX_ITERATIONS:,} and --warmup 0 to {MAX_ITERATIONS:,}")
    cores = os.cpu_count() or 1  # 10^8 threads ran for minutes without an answer
    if args.threads is not None and not 1 <= args.threads <= cores:  # 0 was ignored
        raise InputError(f"--threads {args.threads}: expected 1 to {cores} (this machine's "
                         "cores)")
    if args.input is not None and not args.input.strip():  # it used the default silently
        raise InputError("--input '': expected a sample shape CxHxW or CxDxHxW")
    dev = parse_device(args.device)
    cuda = dev.type == "cuda"
    model, shape, segmentation = build(args.model, args.input)
    if shape is None:  # a model from a file: its shape is the user's
        if not args.input:
            raise InputError(f"model '{args.model}': give its sample shape with --input CxHxW "
                             "or CxDxHxW")
        import import_model
        shape = import_model.parse_shape(args.input)
    elif args.input:
        shape = parse_input(args.input, shape, args.model)
    check_input_size(batches, shape, dev)
    if args.threads is not None:
        torch.set_num_threads(args.threads)
    if cuda:
        torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = \
            args.precision == "tf32"
    model = model.to(dev).train()
    names = leaf_names(model)
    loss_fn = nn.CrossEntropyLoss()
    # the loss row: "loss", or a model file's loss layer (none where the file has none)
    names_with_loss = {**names, loss_fn: getattr(model, "loss_name", "loss")}
    rows = []
    timer = Timer(cuda)
    for b in batches:
        torch.manual_seed(0)
        with model_run(args.model, b, shape):
            x = torch.randn(b, *shape, device=dev, requires_grad=True)  # conv1's data gradient
            out_shape = output_shape(model, x)
        classes = out_shape[1]
        if segmentation is None:  # a model from a file: a per-voxel output is segmentation
            segmentation = len(out_shape) > 2
        target = torch.randint(0, classes, (b, *out_shape[2:]) if segmentation else (b,),
                               device=dev)
        if cuda:
            torch.cuda.reset_peak_memory_stats(dev)
        autocast = torch.autocast(device_type="cuda" if cuda else "cpu",
                                  dtype=torch.float16 if cuda else torch.bfloat16,
                                  enabled=args.precision == "mixed")
        with autocast, model_run(args.model, b, shape):
            totals = profile(model, names, x, target, loss_fn, timer, args.iters, args.warmup)
        peak = torch.cuda.max_memory_allocated(dev) if cuda else 0
        for (m, call, calls), (f, bw) in totals.items():
            if names_with_loss[m] is None:
                continue
            rows.append((row_name(names_with_loss[m], call, calls), f / args.iters / b,
                         bw / args.iters / b, b, args.precision, peak, calls))
    device = (torch.cuda.get_device_name(dev) if cuda else "cpu").replace(",", " ")
    command.check_output(args.output, "-o", "csv")  # again: it may have changed meanwhile
    write_csv(args.output, rows, shape, device)
    print(f"wrote {args.output}: {len(rows)} rows ({len(rows) // len(batches)} layers x "
          f"{len(batches)} batches) on {device}")


if __name__ == "__main__":
    command.run(main)
