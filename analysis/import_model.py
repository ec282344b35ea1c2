#!/usr/bin/python3
"""import_model.py SOURCE --input CxHxW|CxDxHxW -o FILE.model: a CNN from PyTorch or ONNX as a
paradise model file (docs/models-and-systems.md, "Model files").

SOURCE is one of
  a torchvision model name      resnet50, vgg16_bn, densenet121, ...
  PATH.py:CLASS[(ARGS)]         a class defined in a Python file, built with literal
                                arguments: 'net.py:UNet(in_channels=4, depth=3)'
  PATH.onnx                     an ONNX graph (export it with training=TrainingMode.TRAINING
                                or PRESERVE: an eval-mode export folds batch norm into the
                                convolutions, and the file then holds no batch norm to import)

A PyTorch model is traced with torch.fx; its layers keep the names of its modules
(`layer1.0.conv1`), as profile_layers.py names its rows, so that a profile of the same
model lines up with the imported file. A module called k times in one forward pass gives
NAME1 ... NAME(k-1), then NAME; an operation outside any module (an addition, a
concatenation, a flatten) is named after the module it runs in and the operation
(`layer1.0.add`). A node this importer has no paradise layer for is refused with its
name and operation; nothing is written then.

The file ends with a softmax cross-entropy loss (--loss softmax_ce, the default) or none
(--loss none). An ONNX graph keeps no in-place flag: its activations are imported out of
place unless --inplace marks them all in place.
"""
import argparse
import ast
import importlib.util
import operator
import os
import re

import command
from paradise_h5 import InputError

ANALYSIS = os.path.dirname(os.path.abspath(__file__))
NAME_TOKEN = re.compile(r"^[A-Za-z0-9_.\-]+$")  # what a model file takes as a layer name


class Layer:
    """One line of the model file: NAME OP key=value ... [from=A,B]."""

    def __init__(self, name, op, keys=None, inputs=()):
        self.name, self.op, self.keys, self.inputs = name, op, dict(keys or {}), list(inputs)

    def line(self, previous):
        words = [self.name, self.op] + [f"{k}={v}" for k, v in self.keys.items()]
        if len(self.inputs) > 1 or (self.inputs and self.inputs[0] != previous):
            words.append("from=" + ",".join(self.inputs))
        return " ".join(words)


def per_dim(values):
    """A window attribute as the model file writes it: '3' or '3x3x1'."""
    values = [int(v) for v in (values if isinstance(values, (tuple, list)) else [values])]
    return str(values[0]) if len(set(values)) == 1 else "x".join(map(str, values))


def parse_shape(text):
    """'3x224x224' -> (3, 224, 224); CxHxW or CxDxHxW, every extent >= 1."""
    try:
        shape = tuple(int(v) for v in text.lower().split("x"))
    except ValueError:
        shape = ()
    if len(shape) not in (3, 4) or min(shape) < 1:
        raise InputError(f"--input '{text}': expected CxHxW or CxDxHxW, every extent >= 1")
    return shape


# ---------------------------------------------------------------------------------------------
# Names: a module called k times gives NAME1 ... NAME(k-1), NAME (profile_layers.py's rule).

def call_names(keys):
    """keys: the module path (or scope.op) of each call in order -> the layer name of each."""
    total = {}
    for k in keys:
        total[k] = total.get(k, 0) + 1
    seen, names = {}, []
    for k in keys:
        seen[k] = seen.get(k, 0) + 1
        names.append(k if seen[k] == total[k] else f"{k}{seen[k]}")
    return names


def unique(names):
    """Names made distinct (a module named like an operation's scope.op) and checked as tokens."""
    used, out = set(), []
    for n in names:
        if not NAME_TOKEN.match(n):
            n = re.sub(r"[^A-Za-z0-9_.\-]", "_", n)
        base, i = n, 2
        while n in used or n == "input":
            n, i = f"{base}_{i}", i + 1
        used.add(n)
        out.append(n)
    return out


# ---------------------------------------------------------------------------------------------
# PyTorch: torch.fx with the module scope of every node.

def load_torch(source):
    """The nn.Module a torchvision name or PATH.py:CLASS[(ARGS)] names, in training mode."""
    import torch.nn as nn
    import torchvision
    if ":" not in source:
        factory = getattr(torchvision.models, source, None)
        if not callable(factory) or source.startswith("_") or source[:1].isupper():
            raise InputError(f"model '{source}': not a torchvision model name, PATH.py:CLASS "
                             "or PATH.onnx")
        return factory()
    path, _, call = source.rpartition(":")
    try:
        expr = ast.parse(call, mode="eval").body
        if isinstance(expr, ast.Name):
            cls, args, kwargs = expr.id, [], {}
        elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name):
            cls = expr.func.id
            args = [ast.literal_eval(a) for a in expr.args]
            kwargs = {k.arg: ast.literal_eval(k.value) for k in expr.keywords}
        else:
            raise ValueError
    except (SyntaxError, ValueError):
        raise InputError(f"model '{source}': expected PATH.py:CLASS or PATH.py:CLASS(ARGS) "
                         "with literal arguments") from None
    if not os.path.isfile(path):
        raise InputError(f"model '{source}': no such file '{path}'")
    spec = importlib.util.spec_from_file_location("imported_model", path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # the user's file: any error it raises is its own
        raise InputError(f"{path}: cannot run it ({type(e).__name__}: {e})") from None
    klass = getattr(module, cls, None)
    if not (isinstance(klass, type) and issubclass(klass, nn.Module)):
        raise InputError(f"{path}: defines no nn.Module class '{cls}'")
    try:
        return klass(*args, **kwargs)
    except Exception as e:
        raise InputError(f"{source}: cannot build it ({type(e).__name__}: {e})") from None


def trace(model, shape):
    """model's fx graph, each node with meta['scope'] (the module it runs in) and its output
    shape in meta['shape'] (None for what is no tensor)."""
    import torch
    import torch.fx as fx
    import torch.nn as nn
    from torch.fx.passes.shape_prop import ShapeProp

    class ScopedTracer(fx.Tracer):
        def __init__(self):
            super().__init__()
            self.scope = [""]

        def call_module(self, m, forward, args, kwargs):
            self.scope.append(self.path_of_module(m))
            try:
                return super().call_module(m, forward, args, kwargs)
            finally:
                self.scope.pop()

        def is_leaf_module(self, m, qualified_name):
            # a layer norm subclass (ConvNeXt's LayerNorm2d) is one layer, not its permutes
            return isinstance(m, nn.LayerNorm) or super().is_leaf_module(m, qualified_name)

        def create_node(self, *args, **kwargs):
            node = super().create_node(*args, **kwargs)
            node.meta["scope"] = self.scope[-1]
            return node

    try:
        graph = ScopedTracer().trace(model)
    except Exception as e:  # data-dependent control flow and the like
        raise InputError(f"cannot trace the model with torch.fx ({type(e).__name__}: {e})") from None
    gm = fx.GraphModule(model, graph)
    gm.eval()  # shapes only: batch norm at batch 1 with 1x1 tiles refuses training mode
    try:
        with torch.no_grad():
            ShapeProp(gm).propagate(torch.zeros((1,) + shape))
    except Exception as e:
        raise InputError(f"--input {'x'.join(map(str, shape))}: the model does not run on it "
                         f"({type(e).__name__}: {e})") from None
    for n in gm.graph.nodes:
        meta = n.meta.get("tensor_meta")
        n.meta["shape"] = tuple(meta.shape) if hasattr(meta, "shape") else None
    return gm


def module_layer(m, node):
    """(op, keys) of a leaf module, or None for one that passes its input through."""
    import torch.nn as nn
    conv = (nn.Conv2d, nn.Conv3d)
    if isinstance(m, conv + (nn.ConvTranspose2d, nn.ConvTranspose3d)):
        if isinstance(m.padding, str):
            raise InputError(f"node '{node}' ({type(m).__name__}): padding='{m.padding}' is "
                             "not supported; give the padding as numbers")
        keys = {"out": m.out_channels, "k": per_dim(m.kernel_size), "s": per_dim(m.stride),
                "p": per_dim(m.padding), "d": per_dim(m.dilation)}
        if not isinstance(m, conv):
            keys["outpad"] = per_dim(m.output_padding)
        keys.update(groups=m.groups, bias=int(m.bias is not None))
        return ("conv" if isinstance(m, conv) else "conv_transpose"), keys
    if isinstance(m, (nn.BatchNorm2d, nn.BatchNorm3d)):
        if not m.affine:
            raise InputError(f"node '{node}' ({type(m).__name__}): affine=False is not "
                             "supported (paradise's batchnorm has a scale and a shift)")
        return "batchnorm", {}
    norm = norm_layer(m, node)
    if norm is not None:
        return norm
    for cls, op in ((nn.ReLU, "relu"), (nn.ReLU6, "relu6"), (nn.LeakyReLU, "leaky_relu"),
                    (nn.Sigmoid, "sigmoid"), (nn.Tanh, "tanh"), (nn.GELU, "gelu"),
                    (nn.SiLU, "silu"), (nn.Hardswish, "hardswish")):
        if type(m) is cls:
            return op, {"inplace": int(getattr(m, "inplace", False))}
    if isinstance(m, (nn.MaxPool2d, nn.MaxPool3d)):
        if per_dim(m.dilation) != "1" or m.return_indices:
            raise InputError(f"node '{node}' ({type(m).__name__}): dilation or return_indices "
                             "is not supported")
        return "maxpool", pool_keys(m)
    if isinstance(m, (nn.AvgPool2d, nn.AvgPool3d)):
        return "avgpool", pool_keys(m)
    if isinstance(m, (nn.AdaptiveAvgPool2d, nn.AdaptiveAvgPool3d)):
        size = m.output_size if isinstance(m.output_size, (tuple, list)) else [m.output_size]
        if any(s is None for s in size):
            raise InputError(f"node '{node}' ({type(m).__name__}): an output size of None is "
                             "not supported")
        return "adaptive_avgpool", {"size": per_dim(size)}
    if isinstance(m, nn.Linear):
        return "dense", {"out": m.out_features, "bias": int(m.bias is not None)}
    if isinstance(m, (nn.Dropout, nn.Dropout2d, nn.Dropout3d, nn.AlphaDropout)):
        return "dropout", {}
    if isinstance(m, nn.Flatten):
        return "flatten", {}
    if isinstance(m, nn.Identity):
        return None
    if isinstance(m, nn.Upsample):
        return upsample_layer(node, m.mode, m.scale_factor)
    raise InputError(f"node '{node}': module {type(m).__name__} is not supported "
                     f"(docs/models-and-systems.md lists the layer types)")


UPSAMPLE_MODES = ("nearest", "bilinear", "trilinear")


def upsample_layer(node, mode, scale):
    """(op, keys) of an upsampling by one integer factor, nearest or (bi/tri)linear."""
    scales = set(scale) if isinstance(scale, (tuple, list)) else {scale}
    factor = next(iter(scales)) if len(scales) == 1 else None
    if mode not in UPSAMPLE_MODES or factor is None or float(factor) % 1 or factor < 1:
        raise InputError(f"node '{node}' (upsample, mode '{mode}', scale {scale}): only "
                         "nearest, bilinear or trilinear upsampling by one integer factor is "
                         "supported")
    keys = {"scale": int(factor)}
    if mode != "nearest":
        keys["mode"] = mode
    return "upsample", keys


def norm_layer(m, node):
    """(op, keys) of a group, instance or layer norm module; None for another module."""
    import torch.nn as nn
    if isinstance(m, nn.GroupNorm):
        return "groupnorm", {"groups": m.num_groups, "affine": int(m.affine)}
    if isinstance(m, (nn.InstanceNorm2d, nn.InstanceNorm3d)):
        return "instancenorm", {"affine": int(m.affine)}
    if isinstance(m, nn.LayerNorm):
        # over the channels at every position: ConvNeXt's LayerNorm2d (it permutes inside),
        # or nn.LayerNorm(C) on a flat (batch, C) input (node.meta: the input's shape)
        src = node_input_shape(node)
        per_position = type(m).__name__ == "LayerNorm2d" or (src is not None and len(src) == 2)
        if len(m.normalized_shape) != 1 or not per_position:
            raise InputError(f"node '{node}' (LayerNorm{tuple(m.normalized_shape)}): only a "
                             "layer norm over the channels is supported (nn.LayerNorm(C) on a "
                             "flat input, or torchvision's LayerNorm2d)")
        return "layernorm", {"affine": int(m.elementwise_affine)}
    return None


def node_input_shape(node):
    """The shape of an fx node's first tensor input (None if unknown or a name string)."""
    args = [a for a in getattr(node, "args", ()) if hasattr(a, "op")]
    return args[0].meta.get("shape") if args else None


def pool_keys(m):
    """k, s, p, ceil of a max or average pooling module."""
    stride = m.stride if m.stride is not None else m.kernel_size
    return {"k": per_dim(m.kernel_size), "s": per_dim(stride), "p": per_dim(m.padding),
            "ceil": int(m.ceil_mode)}


def function_layer(node):
    """(op, keys, tensor inputs) of a call_function / call_method node, None to pass its input
    through, or 'skip' for shape arithmetic (no tensor)."""
    import torch
    import torch.nn.functional as F
    if node.meta.get("shape") is None:
        return "skip"
    target, args, kw = node.target, node.args, node.kwargs
    tensors = [a for a in args if hasattr(a, "op")]
    name = target if isinstance(target, str) else getattr(target, "__name__", str(target))
    activations = {F.relu: "relu", torch.relu: "relu", F.relu6: "relu6", torch.sigmoid: "sigmoid",
                   F.sigmoid: "sigmoid", torch.tanh: "tanh", F.gelu: "gelu", F.silu: "silu",
                   F.leaky_relu: "leaky_relu", F.hardswish: "hardswish", "relu": "relu",
                   "relu_": "relu", "sigmoid": "sigmoid", "tanh": "tanh"}
    if target in (operator.add, operator.iadd, torch.add, "add", "add_"):
        if len(tensors) == 2 and len(args) == 2 and "alpha" not in kw:
            return "add", {}, tensors
        raise InputError(f"node '{node.name}' ({name}): only the sum of two tensors is supported")
    if target in activations:
        inplace = int(kw.get("inplace", False) or (isinstance(target, str) and target.endswith("_")))
        return activations[target], {"inplace": inplace}, tensors[:1]
    if target is torch.cat:
        dim = kw.get("dim", args[1] if len(args) > 1 else 0)
        if dim != 1:
            raise InputError(f"node '{node.name}' (cat): only a concatenation of channels "
                             f"(dim=1) is supported, not dim={dim}")
        return "concat", {}, list(args[0])
    if target in (torch.flatten, "flatten", "view", "reshape"):
        src = tensors[0].meta.get("shape")
        if len(node.meta["shape"]) == 2 and src and int(node.meta["shape"][1]) == prod(src[1:]):
            return "flatten", {}, tensors[:1]
        raise InputError(f"node '{node.name}' ({name}): only a flatten to (batch, features) "
                         "is supported")
    if target in (F.adaptive_avg_pool2d, F.adaptive_avg_pool3d):
        size = kw.get("output_size", args[1] if len(args) > 1 else None)
        return "adaptive_avgpool", {"size": per_dim(size)}, tensors[:1]
    if target in (F.dropout, F.dropout2d, F.dropout3d):
        return "dropout", {}, tensors[:1]
    if target in (F.max_pool2d, F.max_pool3d, F.avg_pool2d, F.avg_pool3d):
        return functional_pool(node, name, tensors)
    if target in (torch.mean, "mean"):
        return spatial_mean(node, tensors)
    if target in ("contiguous",):
        return None
    more = scale_or_resize_layer(node, name, tensors)
    if more != "unknown":
        return more
    raise InputError(f"node '{node.name}': operation {name} is not supported "
                     "(docs/models-and-systems.md lists the layer types)")


def scale_or_resize_layer(node, name, tensors):
    """The squeeze-and-excitation product (channel_scale, the feature map first), stochastic
    depth (None where it drops nothing: p = 0 or not training), F.interpolate; 'unknown' for
    anything else."""
    import torch
    import torch.nn.functional as F
    args, kw = node.args, node.kwargs
    if node.target in (operator.mul, operator.imul, torch.mul, "mul", "mul_") and len(tensors) == 2:
        shapes = [t.meta.get("shape") or () for t in tensors]
        per_channel = [len(sh) > 2 and prod(sh[2:]) == 1 and len(sh) == len(shapes[0])
                       for sh in shapes]
        if per_channel.count(True) == 1 and shapes[0][1] == shapes[1][1]:
            x, scale = (tensors[1], tensors[0]) if per_channel[0] else tensors
            return "channel_scale", {}, [x, scale]
        raise InputError(f"node '{node.name}' ({name}): only the product of a tensor and a "
                         f"per-channel scale [N, C, 1, ...] is supported, not {shapes}")
    if name == "stochastic_depth":
        given = dict(zip(["input", "p", "mode", "training"], args), **kw)
        if not given.get("training", True) or float(given.get("p", 0)) == 0:
            return None
        return "stochastic_depth", {}, tensors[:1]
    if node.target in (F.interpolate, F.upsample):
        given = dict(zip(["input", "size", "scale_factor", "mode"], args), **kw)
        src, out = tensors[0].meta.get("shape"), node.meta["shape"]
        ratios = {int(o) / int(i) for o, i in zip(out[2:], src[2:])} if src else {None}
        return upsample_layer(node.name, given.get("mode", "nearest"),
                              tuple(ratios) if len(ratios) == 1 else given.get("scale_factor")) \
            + (tensors[:1],)
    return "unknown"


def functional_pool(node, name, tensors):
    """F.max_pool2d / F.avg_pool2d (and 3-D) with their arguments by position or keyword."""
    args, kw = node.args, node.kwargs
    order = ["input", "kernel_size", "stride", "padding"]
    order += ["dilation", "ceil_mode"] if "max" in name else ["ceil_mode"]
    given = dict(zip(order, args))
    given.update(kw)
    if "max" in name and (per_dim(given.get("dilation", 1)) != "1" or given.get("return_indices")):
        raise InputError(f"node '{node.name}' ({name}): dilation or return_indices is not supported")
    k = given["kernel_size"]
    stride = given.get("stride") or k
    keys = {"k": per_dim(k), "s": per_dim(stride), "p": per_dim(given.get("padding", 0)),
            "ceil": int(bool(given.get("ceil_mode", False)))}
    return ("maxpool" if "max" in name else "avgpool"), keys, tensors[:1]


def spatial_mean(node, tensors):
    """x.mean([2, 3]) (MnasNet's head): the global average pool, flattened unless keepdim."""
    args, kw = node.args, node.kwargs
    dims = kw.get("dim", args[1] if len(args) > 1 else None)
    rank = len(tensors[0].meta.get("shape") or ())
    dims = sorted(d % rank for d in (dims if isinstance(dims, (list, tuple)) else [dims])) \
        if dims is not None and rank else None
    if dims != list(range(2, rank)):
        raise InputError(f"node '{node.name}' (mean): only a mean over every spatial dimension "
                         "is supported")
    keepdim = kw.get("keepdim", args[2] if len(args) > 2 else False)
    return "adaptive_avgpool", {"size": 1, **({} if keepdim else {FLATTEN_AFTER: 1})}, tensors[:1]


FLATTEN_AFTER = "_flatten_after"  # a key no model file has: one node, two layers


def prod(values):
    out = 1
    for v in values:
        out *= int(v)
    return out


def torch_layers(model, shape):
    """The paradise layers of a PyTorch model, in execution order."""
    gm = trace(model, shape)
    modules = dict(gm.named_modules())
    found, alias = [], {}  # (key, op, keys, input nodes); fx node -> the node it passes on
    for node in gm.graph.nodes:
        if node.op in ("placeholder", "output", "get_attr"):
            continue
        if node.op == "call_module":
            layer = module_layer(modules[node.target], node)
            inputs, key = [a for a in node.args if hasattr(a, "op")][:1], node.target
        else:
            layer = function_layer(node)
            if layer == "skip":
                continue
            if layer is not None:
                op, keys, inputs = layer
                scope = node.meta.get("scope", "")
                key = f"{scope}.{op_word(op)}" if scope else op_word(op)
                if scope.rpartition(".")[2] == op_word(op):  # StochasticDepth's module
                    key = scope
                layer = (op, keys)
            else:
                inputs = [a for a in node.args if hasattr(a, "op")][:1]
        if layer is None:
            alias[node] = alias.get(inputs[0], inputs[0])
            continue
        keys = dict(layer[1])
        flatten_after = keys.pop(FLATTEN_AFTER, False)
        found.append((key, layer[0], keys, [alias.get(i, i) for i in inputs],
                      (node, "pool") if flatten_after else node))
        if flatten_after:
            found.append((f"{key}.flatten", "flatten", {}, [(node, "pool")], node))
    inputs = {n: "input" for n in gm.graph.nodes if n.op == "placeholder"}
    return named_layers(found, inputs, lambda node, what: (
        f"node '{getattr(node, 'name', node)}': reads '{what}', which is no layer (a parameter "
        "or constant used as data is not supported)"))


def named_layers(found, inputs, unread):
    """Layers of the found (key, op, keys, inputs, made) entries: names by call_names, each
    input the layer that made it (`inputs`: the model input's makers); InputError(unread(made,
    what)) for an input no layer made."""
    names = unique(call_names([f[0] for f in found]))
    maker = {f[4]: n for f, n in zip(found, names)}
    maker.update(inputs)
    layers = []
    for (_, op, keys, ins, made), name in zip(found, names):
        try:
            layers.append(Layer(name, op, keys, [maker[i] for i in ins]))
        except KeyError as e:
            raise InputError(unread(made, e.args[0])) from None
    return layers


def op_word(op):
    """The word an operation outside a module is named by (zoo: `layer1.0.add`, `...cat`)."""
    return {"concat": "cat", "adaptive_avgpool": "avgpool", "channel_scale": "mul"}.get(op, op)


# ---------------------------------------------------------------------------------------------
# ONNX

ONNX_ACTIVATIONS = {"Relu": "relu", "Sigmoid": "sigmoid", "Tanh": "tanh", "LeakyRelu": "leaky_relu",
                    "HardSwish": "hardswish"}


def onnx_scope_path(node_name):
    """'/layer1/layer1.0/relu_1/Relu' -> ('layer1.0.relu_1', 'Relu'): the module path the
    exporter's scoped node name spells, each scope either a full path or a child's name."""
    parts = [p for p in node_name.split("/") if p]
    paths = scope_paths(parts[:-1])
    return (paths[-1] if paths else ""), (parts[-1] if parts else node_name)


def scope_paths(components):
    """The module path after each scope component: a component is a full path
    ('layer1.0' in 'layer1'), a child's name ('block' in 'features.1.0'), or a path from the
    same module as the component before it ('block.0' after 'block': features.1.0.block.0)."""
    paths, path, base, prev = [], "", "", ""
    for comp in components:
        if not path or comp.startswith(path + "."):
            path = comp
        elif prev and comp.startswith(prev + "."):
            path = f"{base}.{comp}" if base else comp
        else:
            base, path = path, f"{path}.{comp}"
        prev = comp
        paths.append(path)
    return paths


def onnx_layers(path, shape):
    """The paradise layers of an ONNX graph, in its node order."""
    import onnx
    try:
        proto = onnx.load(path)
    except Exception as e:
        raise InputError(f"{path}: not an ONNX model ({type(e).__name__}: {e})") from None
    g = proto.graph
    init = {t.name: t for t in g.initializer}
    data_inputs = [i.name for i in g.input if i.name not in init]
    if len(data_inputs) != 1:
        raise InputError(f"{path}: expected one data input, found {len(data_inputs)}")
    found, alias = [], {data_inputs[0]: "input"}
    parents = onnx_parents(g.node)
    shapes = onnx_shapes(proto)
    silu = onnx_silu_pairs(g.node)
    for n in g.node:
        if n.op_type == "Constant":  # a value (pads, a dropout ratio), no layer
            init.update({o: n for o in n.output})
            continue
        if n.output[0] in silu.values():
            continue  # the sigmoid of x * sigmoid(x): part of the silu its Mul becomes
        layer = onnx_node_layer(n, init, path) if n.op_type != "Mul" else \
            onnx_mul_layer(n, silu, shapes, path)
        ins = [alias.get(i, i) for i in n.input if i and i not in init]
        if n.op_type == "Mul":
            ins = onnx_mul_inputs(n, silu, shapes, alias)
        if n.op_type == "Identity" and n.input[0] in init:
            # an initializer under a second name (the export's deduplicated tensors: equal
            # biases, tied or equal weights) is that initializer
            init[n.output[0]] = init[n.input[0]]
            continue
        if layer is None and not ins:  # computed from constants alone: a constant too
            init.update({o: n for o in n.output})
            continue
        if layer is None:
            alias[n.output[0]] = ins[0]
            continue
        found.append((onnx_key(n, layer[0], init, parents), layer[0], layer[1], ins, n.output[0]))
    return named_layers(found, {"input": "input"}, lambda out, what: (
        f"{path}: node output '{out}' reads '{what}', which no supported node makes"))


def onnx_shapes(proto):
    """Every value's shape by ONNX's shape inference ({} where it fails)."""
    import onnx
    try:
        inferred = onnx.shape_inference.infer_shapes(proto).graph
    except Exception:  # noqa: BLE001 (inference is a help here, not a requirement)
        return {}
    out = {}
    for v in list(inferred.value_info) + list(inferred.input) + list(inferred.output):
        dims = v.type.tensor_type.shape.dim
        out[v.name] = tuple(d.dim_value if d.HasField("dim_value") else None for d in dims)
    return out


def onnx_silu_pairs(nodes):
    """{Mul's output: the Sigmoid's output} for every x * sigmoid(x) (how SiLU exports) whose
    sigmoid nothing else reads."""
    maker = {o: n for n in nodes for o in n.output}
    readers = {}
    for n in nodes:
        for i in n.input:
            readers[i] = readers.get(i, 0) + 1
    pairs = {}
    for n in nodes:
        if n.op_type != "Mul" or len(n.input) != 2:
            continue
        for a, b in (n.input, reversed(n.input)):
            m = maker.get(b)
            if m is not None and m.op_type == "Sigmoid" and m.input[0] == a and readers[b] == 1:
                pairs[n.output[0]] = b
    return pairs


def onnx_mul_layer(n, silu, shapes, path):
    """A Mul: silu (x * sigmoid(x)) or the squeeze-and-excitation channel_scale."""
    if n.output[0] in silu:
        return "silu", {"inplace": 0}
    dims = [shapes.get(i) for i in n.input]
    if None not in dims and len(dims) == 2 and len(dims[0]) == len(dims[1]) > 2 \
            and dims[0][1] == dims[1][1] and [prod(d[2:]) == 1 for d in dims].count(True) == 1:
        return "channel_scale", {}
    raise InputError(f"{path}: node '{n.name or n.output[0]}' (Mul): only x * sigmoid(x) "
                     f"(SiLU) or a tensor times a per-channel scale is supported, not {dims}")


def onnx_mul_inputs(n, silu, shapes, alias):
    """The layer inputs of a Mul: x of a silu; the feature map, then the scale, of a
    channel_scale."""
    ins = list(n.input)
    if n.output[0] in silu:
        ins = [i for i in ins if i != silu[n.output[0]]]
    elif prod((shapes.get(ins[0]) or (1, 1, 1))[2:]) == 1:
        ins.reverse()
    return [alias.get(i, i) for i in ins]


def onnx_key(n, op, init, parents):
    """The module path (or scope.op) an ONNX node's layer is named by: a weighted node's
    weight names its module; the exporter's scoped name ('/layer1/layer1.0/relu_1/Relu')
    names a module call (relu's second call) when its scope holds no other module (is in
    no `parents`), else the operation run inside that module ('/layer1/layer1.0/Add':
    layer1.0.add)."""
    weight = next((i for i in n.input if i in init and i.endswith(".weight")), None)
    if weight:
        return weight[: -len(".weight")]
    if not n.name.startswith("/"):
        return n.name or op_word(op)
    scope, _ = onnx_scope_path(n.name)
    if scope and scope not in parents:
        return re.sub(r"_\d+$", "", scope)  # relu_1: the module relu's second call
    return f"{scope}.{op_word(op)}" if scope else op_word(op)


def onnx_parents(nodes):
    """The scopes that hold another scope: modules with children, not leaf modules."""
    scopes = {onnx_scope_path(n.name)[0] for n in nodes if n.name.startswith("/")}
    parents = set()
    for sc in scopes:
        parts = sc.split(".")
        parents.update(".".join(parts[:i]) for i in range(1, len(parts)))
    # the exporter's own scopes ('layer1', then 'layer1.0') are parents too
    for n in nodes:
        parents.update(scope_paths([p for p in n.name.split("/") if p][:-2]))
    return parents


def onnx_node_layer(n, init, path):
    """(op, keys) of an ONNX node, None to pass its input through."""
    from onnx import helper, numpy_helper
    a = {x.name: helper.get_attribute_value(x) for x in n.attribute}
    where = f"{path}: node '{n.name or n.output[0]}' ({n.op_type})"
    if n.op_type in ("Conv", "ConvTranspose"):
        w = numpy_helper.to_array(init[n.input[1]]) if n.input[1] in init else None
        if w is None:
            raise InputError(f"{where}: the weight is no initializer")
        rank = w.ndim - 2
        if rank not in (2, 3):
            raise InputError(f"{where}: only 2-D and 3-D convolutions are supported")
        pads = list(a.get("pads", [0] * 2 * rank))
        if pads[:rank] != pads[rank:]:
            raise InputError(f"{where}: asymmetric padding {pads} is not supported")
        group = int(a.get("group", 1))
        out = w.shape[0] if n.op_type == "Conv" else w.shape[1] * group
        keys = {"out": out, "k": per_dim(list(w.shape[2:])), "s": per_dim(a.get("strides", [1])),
                "p": per_dim(pads[:rank] or [0]), "d": per_dim(a.get("dilations", [1]))}
        if n.op_type == "ConvTranspose":
            keys["outpad"] = per_dim(a.get("output_padding", [0]))
        keys.update(groups=group, bias=int(len(n.input) > 2 and bool(n.input[2])))
        return ("conv" if n.op_type == "Conv" else "conv_transpose"), keys
    if n.op_type == "BatchNormalization":
        return "batchnorm", {}
    if n.op_type == "InstanceNormalization":  # an affine module's weight is an initializer
        return "instancenorm", {"affine": int(n.input[1] in init and
                                              n.input[1].endswith(".weight"))}
    if n.op_type == "Resize":
        return onnx_resize(n, a, init, where)
    if n.op_type in ONNX_ACTIVATIONS:
        return ONNX_ACTIVATIONS[n.op_type], {"inplace": 0}
    if n.op_type in ("MaxPool", "AveragePool"):
        k = list(a["kernel_shape"])
        pads = list(a.get("pads", [0] * 2 * len(k)))
        if pads[: len(k)] != pads[len(k):]:
            raise InputError(f"{where}: asymmetric padding {pads} is not supported")
        return ("maxpool" if n.op_type == "MaxPool" else "avgpool"), {
            "k": per_dim(k), "s": per_dim(a.get("strides", k)), "p": per_dim(pads[: len(k)]),
            "ceil": int(a.get("ceil_mode", 0))}
    if n.op_type == "GlobalAveragePool":
        return "adaptive_avgpool", {"size": 1}
    if n.op_type == "Flatten":
        if int(a.get("axis", 1)) != 1:
            raise InputError(f"{where}: only a flatten from axis 1 is supported")
        return "flatten", {}
    if n.op_type == "Gemm":
        w = init.get(n.input[1])
        if w is None or int(a.get("transB", 0)) != 1 or int(a.get("transA", 0)) != 0:
            raise InputError(f"{where}: only a dense layer (weight initializer, transB=1) is "
                             "supported")
        return "dense", {"out": numpy_helper.to_array(w).shape[0],
                         "bias": int(len(n.input) > 2 and bool(n.input[2]))}
    if n.op_type == "Add":
        if any(i in init for i in n.input):
            raise InputError(f"{where}: only the sum of two computed tensors is supported")
        return "add", {}
    if n.op_type == "Concat":
        if int(a.get("axis", 1)) != 1:
            raise InputError(f"{where}: only a concatenation of channels (axis 1) is supported")
        return "concat", {}
    if n.op_type == "Dropout":
        return "dropout", {}
    if n.op_type == "Identity":
        return None
    if n.op_type == "Pad" and all(v == 0 for v in constant_values(n, init)):
        return None  # the exporter's zero padding before AveragePool: nothing padded
    raise InputError(f"{where}: operation {n.op_type} is not supported "
                     "(docs/models-and-systems.md lists the layer types)")


def onnx_resize(n, a, init, where):
    """A Resize by constant scales [1, 1, s, s(, s)]: nearest or (bi/tri)linear upsample."""
    scales = [float(v) for v in constant_values(n, init, 2)] if len(n.input) > 2 else []
    rank = len(scales) - 2
    mode = {"nearest": "nearest", "linear": {2: "bilinear", 3: "trilinear"}.get(rank)}.get(
        a.get("mode", b"nearest").decode() if isinstance(a.get("mode"), bytes) else "nearest")
    if rank < 1 or scales[:2] != [1.0, 1.0] or mode is None:
        raise InputError(f"{where}: only a nearest, bilinear or trilinear resize by constant "
                         f"scales is supported (scales {scales})")
    return upsample_layer(where, mode, tuple(scales[2:]))


def constant_values(n, init, index=1):
    """The pads of a Pad node (its second input, an initializer or a Constant), flattened;
    [1] (not all zero) when they cannot be read; another input by its index."""
    from onnx import helper, numpy_helper
    source = init.get(n.input[index]) if len(n.input) > index else None
    if source is None:
        return [1]
    if hasattr(source, "op_type"):  # a Constant node: its value attribute
        source = next((helper.get_attribute_value(a) for a in source.attribute
                       if a.name == "value"), None)
    return [1] if source is None else list(numpy_helper.to_array(source).ravel())


# ---------------------------------------------------------------------------------------------

def model_text(name, shape, layers, loss, source):
    lines = [f"# imported by analysis/import_model.py from {source}",
             f"model {name}", f"input {'x'.join(map(str, shape))}"]
    previous = "input"
    for layer in layers:
        lines.append(layer.line(previous))
        previous = layer.name
    if loss != "none":
        lines.append(f"{unique([l.name for l in layers] + ['loss'])[-1]} {loss}")
    return "\n".join(lines) + "\n"


def import_layers(source, shape):
    if source.lower().endswith(".onnx"):
        if not os.path.isfile(source):
            raise InputError(f"model '{source}': no such file")
        return onnx_layers(source, shape)
    return torch_layers(load_torch(source), shape)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("source", metavar="SOURCE",
                   help="torchvision name, PATH.py:CLASS[(ARGS)] or PATH.onnx")
    p.add_argument("--input", required=True, help="sample shape CxHxW or CxDxHxW")
    p.add_argument("-o", "--output", required=True, help="the .model file to write")
    p.add_argument("--name", help="the model's name (default: the output file's stem)")
    p.add_argument("--loss", default="softmax_ce",
                   choices=("softmax_ce", "mse_loss", "l1_loss", "dice_loss", "none"))
    p.add_argument("--inplace", action="store_true",
                   help="ONNX: mark every activation in place (ONNX keeps no in-place flag; "
                        "torchvision's models run their ReLUs in place)")
    args = p.parse_args()
    shape = parse_shape(args.input)
    name = args.name or os.path.splitext(os.path.basename(args.output))[0]
    if not NAME_TOKEN.match(name):
        raise InputError(f"--name '{name}': letters, digits, '_', '.' and '-' only")
    inputs = [("the model", args.source)] if ":" not in args.source else []
    command.check_output(args.output, "-o", "model", inputs=inputs)
    layers = import_layers(args.source, shape)
    if args.inplace:
        for layer in layers:
            if "inplace" in layer.keys:
                layer.keys["inplace"] = 1
    text = model_text(name, shape, layers, args.loss, args.source)
    with command.staged() as staging:
        temp = staging.path(args.output, "-o")
        with open(temp, "w", encoding="utf-8") as f:
            f.write(text)
    print(f"wrote {args.output}: {text.count(chr(10)) - 3} layers")


if __name__ == "__main__":
    command.run(main)
