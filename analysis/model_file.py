"""A ParaDiSE .model file (docs/models-and-systems.md) as a PyTorch network with random
weights, one module per layer, so that analysis/profile_layers.py can time a hand-written
model or one import_model.py made from an ONNX file: each row of its CSV carries the file's
layer name, as `paradise calibrate --profile` and `predict --layer-times` look them up.

Each layer runs what PyTorch runs for it (docs/models-and-systems.md gives the file's ops):
conv and conv_transpose as nn.ConvNd / nn.ConvTransposeNd (an end padding `pend` larger
than `p` as an F.pad before the convolution), the pools, dense (on its input flattened),
the norms (layernorm over the channels at each position), the activations (leaky_relu's
slope 0.01, PyTorch's default), dropout (p = 0.5) and stochastic depth (one draw per
sample), add, concat (crop=1 centre-crops every input to the smallest), channel_scale,
flatten and upsample. A loss layer ends the network: it returns the loss's input, which
the profile scores with cross-entropy. Shapes come from a pass on the meta device, which
computes none of them.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from paradise_h5 import InputError  # the analysis commands' one-line error (exit code 2)

LOSSES = {"softmax_ce", "mse_loss", "l1_loss", "dice_loss"}
# the keys each op must have (src/model/model_file.cpp's op_specs)
REQUIRED = {"conv": ("out", "k"), "conv_transpose": ("out", "k"), "maxpool": ("k",),
            "avgpool": ("k",), "dense": ("out",), "groupnorm": ("groups",),
            "upsample": ("scale",)}
TWO_INPUTS = {"channel_scale"}
MANY_INPUTS = {"add", "concat"}
ACTIVATIONS = {
    "relu": nn.ReLU, "relu6": nn.ReLU6, "leaky_relu": nn.LeakyReLU, "sigmoid": nn.Sigmoid,
    "tanh": nn.Tanh, "gelu": nn.GELU, "silu": nn.SiLU, "hardswish": nn.Hardswish,
}


class Layer:
    def __init__(self, name, op, keys, inputs, line):
        self.name, self.op, self.keys, self.inputs, self.line = name, op, keys, inputs, line


def read(text, source):
    """(model name, input shape, [Layer]) of a model file's text; InputError at a line
    this reader does not take (`paradise models --show FILE` checks a file in full)."""
    name, shape, layers = None, None, []
    for number, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        where = f"{source}:{number}"
        if name is None or shape is None:
            if len(words) != 2 or words[0] != ("model" if name is None else "input"):
                raise InputError(f"{where}: expected 'model NAME' then 'input CxHxW'")
            if name is None:
                name = words[1]
            else:
                shape = parse_shape(words[1], where)
            continue
        layers.append(parse_layer(words, where, layers[-1].name if layers else "input"))
    if shape is None:
        raise InputError(f"{source}: no 'model NAME' and 'input CxHxW' lines")
    return name, shape, layers


def parse_shape(text, where):
    """'4x17x17' as a tuple of positive ints; InputError otherwise."""
    try:
        shape = tuple(int(v) for v in text.split("x"))
    except ValueError:
        shape = ()
    if len(shape) < 2 or min(shape) < 1:
        raise InputError(f"{where}: input '{text}': expected CxHxW or CxDxHxW, sizes >= 1")
    return shape


def parse_layer(words, where, previous):
    """A layer line's Layer: its keys checked as the op needs them."""
    if len(words) < 2 or any("=" not in w for w in words[2:]):
        raise InputError(f"{where}: expected 'NAME OP [key=value ...]'")
    op, keys = words[1], dict(w.split("=", 1) for w in words[2:])
    missing = [k for k in REQUIRED.get(op, ()) if k not in keys]
    if missing:
        raise InputError(f"{where}: layer '{words[0]}': op '{op}' needs {missing[0]}=")
    inputs = keys.pop("from").split(",") if "from" in keys else [previous]
    if op in TWO_INPUTS and len(inputs) != 2:
        raise InputError(f"{where}: layer '{words[0]}': op '{op}' needs from=X,S")
    if op not in TWO_INPUTS | MANY_INPUTS and len(inputs) != 1:
        raise InputError(f"{where}: layer '{words[0]}': op '{op}' takes exactly one input")
    return Layer(words[0], op, keys, inputs, where)


def per_dim(text, rank, default):
    """'3' or '3x3' as a tuple of `rank` ints; `default` when absent."""
    if text is None:
        return (default,) * rank
    values = [int(v) for v in text.split("x")]
    return tuple(values * rank if len(values) == 1 else values)


def flag(keys, key, default):
    return keys.get(key, "1" if default else "0") in ("1", "true", "yes")


def centre_crop(x, sizes):
    """x cut to `sizes` in its spatial dimensions, centred (U-Net's crop-and-copy)."""
    for dim, size in enumerate(sizes, 2):
        start = (x.shape[dim] - size) // 2
        x = x.narrow(dim, start, size)
    return x


class Op(nn.Module):
    """A layer without weights: `fn` of its inputs."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *xs):
        return self.fn(*xs)


class ChannelNorm(nn.Module):
    """layernorm: over the channels at each position (mean and rstd per position)."""

    def __init__(self, channels, affine, device):
        super().__init__()
        self.norm = nn.LayerNorm(channels, elementwise_affine=affine, device=device)

    def forward(self, x):
        return self.norm(x.movedim(1, -1)).movedim(-1, 1)


class Padded(nn.Module):
    """A convolution whose end padding differs from its start's (pend): F.pad, then it."""

    def __init__(self, pads, conv):
        super().__init__()
        self.pads, self.conv = pads, conv

    def forward(self, x):
        return self.conv(F.pad(x, self.pads))


def conv_module(layer, x, rank, device):
    k = layer.keys
    kernel, stride = per_dim(k.get("k"), rank, 1), per_dim(k.get("s"), rank, 1)
    pad, dilation = per_dim(k.get("p"), rank, 0), per_dim(k.get("d"), rank, 1)
    groups, out = int(k.get("groups", 1)), int(k["out"])
    if layer.op == "conv_transpose":
        cls = nn.ConvTranspose3d if rank == 3 else nn.ConvTranspose2d
        return cls(x.shape[1], out, kernel, stride, pad, per_dim(k.get("outpad"), rank, 0),
                   groups, flag(k, "bias", True), dilation, device=device)
    cls = nn.Conv3d if rank == 3 else nn.Conv2d
    end = per_dim(k.get("pend"), rank, None) if "pend" in k else pad
    if end == pad:
        return cls(x.shape[1], out, kernel, stride, pad, dilation, groups, flag(k, "bias", False),
                   device=device)
    pads = [v for d in reversed(range(rank)) for v in (pad[d], end[d])]  # F.pad: last dim first
    return Padded(pads, cls(x.shape[1], out, kernel, stride, 0, dilation, groups,
                            flag(k, "bias", False), device=device))


def pool_module(layer, rank):
    k = layer.keys
    kernel = per_dim(k.get("k"), rank, 1)
    stride = per_dim(k.get("s"), rank, 1) if "s" in k else kernel
    pad, ceil = per_dim(k.get("p"), rank, 0), flag(k, "ceil", False)
    if layer.op == "maxpool":
        return (nn.MaxPool3d if rank == 3 else nn.MaxPool2d)(kernel, stride, pad, ceil_mode=ceil)
    return (nn.AvgPool3d if rank == 3 else nn.AvgPool2d)(kernel, stride, pad, ceil_mode=ceil)


def norm_module(layer, x, rank, device):
    c, k = x.shape[1], layer.keys
    if layer.op == "batchnorm":
        return (nn.BatchNorm3d if rank == 3 else nn.BatchNorm2d)(c, device=device)
    if layer.op == "groupnorm":
        return nn.GroupNorm(int(k["groups"]), c, affine=flag(k, "affine", True), device=device)
    if layer.op == "instancenorm":
        cls = nn.InstanceNorm3d if rank == 3 else nn.InstanceNorm2d
        return cls(c, affine=flag(k, "affine", False), device=device)
    return ChannelNorm(c, flag(k, "affine", True), device)


def channel_scale(x, s):
    """x times a per-channel scale, [N, C, 1, ...] or a flat [N, C] (a dense layer's)."""
    return x * s.reshape(s.shape[:2] + (1,) * (x.dim() - 2))


def stochastic_depth(x):
    keep = torch.empty((x.shape[0],) + (1,) * (x.dim() - 1), device=x.device).bernoulli_(0.8)
    return x * keep / 0.8


def upsample(layer, rank):
    mode = layer.keys.get("mode", "nearest")
    scale = float(layer.keys["scale"])
    corners = None if mode == "nearest" else False
    return Op(lambda x: F.interpolate(x, scale_factor=scale, mode=mode, align_corners=corners))


def concat(layer):
    crop = flag(layer.keys, "crop", False)

    def cat(*xs):
        if crop:
            sizes = [min(x.shape[d] for x in xs) for d in range(2, xs[0].dim())]
            xs = [centre_crop(x, sizes) for x in xs]
        return torch.cat(xs, 1)
    return Op(cat)


def module_for(layer, xs, rank, device):
    """The module of one layer, built for its inputs `xs` (meta tensors)."""
    op, x = layer.op, xs[0]
    if op in ("conv", "conv_transpose"):
        return conv_module(layer, x, rank, device)
    if op in ("maxpool", "avgpool"):
        return pool_module(layer, rank)
    if op == "adaptive_avgpool":
        size = per_dim(layer.keys.get("size"), rank, 1)
        return (nn.AdaptiveAvgPool3d if rank == 3 else nn.AdaptiveAvgPool2d)(size)
    if op == "dense":
        linear = nn.Linear(math.prod(x.shape[1:]), int(layer.keys["out"]),
                           flag(layer.keys, "bias", True), device=device)
        return nn.Sequential(nn.Flatten(), linear) if x.dim() > 2 else linear
    if op in ("batchnorm", "groupnorm", "instancenorm", "layernorm"):
        return norm_module(layer, x, rank, device)
    if op in ACTIVATIONS:
        return ACTIVATIONS[op]()
    simple = {"add": lambda *ys: sum(ys[1:], ys[0]), "channel_scale": channel_scale,
              "flatten": lambda y: y.flatten(1), "dropout": nn.Dropout(0.5),
              "stochastic_depth": stochastic_depth}
    if op in simple:
        fn = simple[op]
        return fn if isinstance(fn, nn.Module) else Op(fn)
    if op == "concat":
        return concat(layer)
    if op == "upsample":
        return upsample(layer, rank)
    raise InputError(f"{layer.line}: op '{op}' is not one this reader builds")


class ModelFileNet(nn.Module):
    """The network of a model file: `zoo_names()` gives each module its layer's name."""

    def __init__(self, text, source, device="cpu", shape=None):
        super().__init__()
        self.name, self.shape, layers = read(text, source)
        self.shape = tuple(shape) if shape else self.shape
        self.rank = len(self.shape) - 1
        if self.rank not in (2, 3):
            raise InputError(f"{source}: input {'x'.join(map(str, self.shape))}: the profile "
                             "runs 2-D and 3-D models")
        self.steps, self.output, self.loss_name = [], None, None
        self.layers = nn.ModuleList()
        values = {"input": torch.empty((1,) + self.shape, device="meta")}
        for layer in layers:
            missing = [i for i in layer.inputs if i not in values]
            if missing:
                raise InputError(f"{layer.line}: from '{missing[0]}': no such earlier layer")
            if layer.op in LOSSES:
                self.output = self.output or layer.inputs[0]
                self.loss_name = self.loss_name or layer.name
                continue
            xs = [values[i] for i in layer.inputs]
            try:
                module = module_for(layer, xs, self.rank, "meta")
                values[layer.name] = module(*xs)
            except (RuntimeError, ValueError, TypeError, IndexError) as e:
                cause = (str(e).strip().splitlines() or [type(e).__name__])[0]
                raise InputError(f"{layer.line}: layer '{layer.name}': {cause}") from None
            self.layers.append(module)
            self.steps.append((layer.name, layer.inputs))
        if not self.steps:
            raise InputError(f"{source}: no layers")
        self.output = self.output or self.steps[-1][0]
        self.to_empty(device=device)
        for m in self.modules():
            if hasattr(m, "reset_parameters") and m is not self:
                m.reset_parameters()

    def zoo_names(self):
        return {m: name for m, (name, _) in zip(self.layers, self.steps)}

    def forward(self, x):
        values = {"input": x}
        for module, (name, inputs) in zip(self.layers, self.steps):
            values[name] = module(*[values[i] for i in inputs])
        return values[self.output]
