#!/usr/bin/python3
"""PyTorch's own counts for the ParaDiSE model zoo: the oracle of tests/unit/model_reference_test.cpp.

For every model it records, with PyTorch's machinery rather than re-derived formulas:
  params                  sum of p.numel() over model.parameters()
  macs_hooks              forward multiply-accumulates of Conv/ConvTranspose/Linear, counted by
                          forward hooks (per sample): conv out.numel()*(Cin/groups)*prod(k);
                          transposed conv in.numel()*(Cout/groups)*prod(k); linear out*in
  published_gflops        torchvision's published "GFLOPS" (which are GMACs) when the weights
                          metadata has them (torchvision >= 0.15: meta["_ops"]), else null
  (every nn.Dropout runs as on a GPU, with native_dropout's bool mask: GpuDropout)
  saved_bytes_per_sample  what autograd keeps for backward in training mode (fp32), measured
                          with torch.autograd.graph.saved_tensors_hooks around forward + loss,
                          each storage counted once, parameters and buffers excluded
  training_peak_bytes_per_sample
                          the most bytes per sample the CPU allocator holds at once during a
                          training step (the input made, forward, loss, backward; the labels
                          held through it, as a training loop holds them) that grow
                          with the batch, from the profiler's memory events
                          (profile_memory=True) without the operators' scratch: the largest
                          difference, allocation by allocation, between the same step at
                          batch 2b and at b, over b (training_peak_per_sample), which drops
                          what does not grow with the batch (weight gradients, their
                          accumulation transients) wherever it is held
  training_peak_raw_bytes_per_sample, scratch_peak_bytes_per_sample
                          the allocator's raw peak and the operators' scratch peak, the peak
                          at 2b less the peak at b, over b

Run:  /usr/bin/python3 analysis/reference/torch_counts.py > tests/data/torch_reference.json
(Debian 12: python3-torch 1.13, python3-torchvision 0.14; CPU only, one thread: about 25 minutes,
most of it the training peaks of the 3D models and the 2-D U-Net.)
With --only NAME,... --merge OLD.json it measures those models alone and prints OLD.json with
their entries replaced or added (what a new zoo model needs).
"""
import json
import math
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision


class CosmoFlow(nn.Module):
    """ParaDiSE's cosmoflow (src/model/zoo_hpc.cpp): ParaDL's COSMOFLOW.net network."""

    def __init__(self, cin=4):
        super().__init__()
        layers, c = [], cin
        for i, (f, k) in enumerate([(16, 3), (32, 3), (64, 3), (128, 3), (256, 2), (256, 2), (128, 2)]):
            layers += [nn.Conv3d(c, f, k, padding=1 if 0 < i < 4 else 0), nn.ReLU(inplace=True)]
            if i < 5:
                layers.append(nn.AvgPool3d(2))
            c = f
        self.features = nn.Sequential(*layers, nn.AdaptiveAvgPool3d(1), nn.Flatten())
        self.head = nn.Sequential(nn.Linear(128, 2048), nn.ReLU(inplace=True), nn.Linear(2048, 256),
                                  nn.ReLU(inplace=True), nn.Linear(256, 4))

    def forward(self, x):
        return self.head(self.features(x))


def block3d(cin, cmid, cout):
    return nn.Sequential(nn.Conv3d(cin, cmid, 3, padding=1, bias=False), nn.BatchNorm3d(cmid), nn.ReLU(inplace=True),
                         nn.Conv3d(cmid, cout, 3, padding=1, bias=False), nn.BatchNorm3d(cout), nn.ReLU(inplace=True))


class UNet3D(nn.Module):
    """Cicek et al. 2016 with padded convolutions, as src/model/zoo_hpc.cpp builds it."""

    def __init__(self, cin=3, classes=3):
        super().__init__()
        self.e1, self.e2, self.e3 = block3d(cin, 32, 64), block3d(64, 64, 128), block3d(128, 128, 256)
        self.bottom = block3d(256, 256, 512)
        self.u3, self.d3 = nn.ConvTranspose3d(512, 512, 2, 2), block3d(768, 256, 256)
        self.u2, self.d2 = nn.ConvTranspose3d(256, 256, 2, 2), block3d(384, 128, 128)
        self.u1, self.d1 = nn.ConvTranspose3d(128, 128, 2, 2), block3d(192, 64, 64)
        self.out = nn.Conv3d(64, classes, 1)

    def forward(self, x):
        s1 = self.e1(x)
        s2 = self.e2(F.max_pool3d(s1, 2))
        s3 = self.e3(F.max_pool3d(s2, 2))
        x = self.bottom(F.max_pool3d(s3, 2))
        x = self.d3(torch.cat([self.u3(x), s3], 1))
        x = self.d2(torch.cat([self.u2(x), s2], 1))
        x = self.d1(torch.cat([self.u1(x), s1], 1))
        return self.out(x)


class PreActBlock(nn.Module):
    """He et al. 2016 pre-activation block; basic (2 convs) or bottleneck (3 convs, x4)."""

    def __init__(self, cin, mid, stride, bottleneck):
        super().__init__()
        out = mid * 4 if bottleneck else mid
        self.bn1 = nn.BatchNorm2d(cin)
        if bottleneck:
            self.body = nn.Sequential(nn.Conv2d(cin, mid, 1, bias=False), nn.BatchNorm2d(mid), nn.ReLU(),
                                      nn.Conv2d(mid, mid, 3, stride, 1, bias=False), nn.BatchNorm2d(mid), nn.ReLU(),
                                      nn.Conv2d(mid, out, 1, bias=False))
        else:
            self.body = nn.Sequential(nn.Conv2d(cin, mid, 3, stride, 1, bias=False), nn.BatchNorm2d(mid), nn.ReLU(),
                                      nn.Conv2d(mid, mid, 3, 1, 1, bias=False))
        self.shortcut = nn.Conv2d(cin, out, 1, stride, bias=False) if stride != 1 or cin != out else None

    def forward(self, x):
        pre = F.relu(self.bn1(x))
        shortcut = self.shortcut(pre) if self.shortcut is not None else x
        return self.body(pre) + shortcut


class PreActResNet(nn.Module):
    def __init__(self, depth):
        super().__init__()
        bottleneck = depth >= 164
        n = (depth - 2) // (9 if bottleneck else 6)
        layers, cin = [nn.Conv2d(3, 16, 3, 1, 1, bias=False)], 16
        for stage in range(3):
            mid = 16 << stage
            for b in range(n):
                layers.append(PreActBlock(cin, mid, 2 if stage > 0 and b == 0 else 1, bottleneck))
                cin = mid * 4 if bottleneck else mid
        self.body = nn.Sequential(*layers, nn.BatchNorm2d(cin), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(cin, 10)

    def forward(self, x):
        return self.fc(self.body(x))


class GpuDropout(nn.Module):
    """nn.Dropout as it runs on a GPU: ATen's dropout takes the fused native_dropout there,
    which saves a bool mask (1 byte an element), and on the CPU an input-sized mask of the
    input's type (4 bytes in float32). ParaDiSE models the GPU; the CPU's mask made VGG16 at
    3x64x64, whose step peaks in the classifier's backward with both masks held, 1,952 B a
    sample above the model."""

    def __init__(self, p):
        super().__init__()
        self.p = p

    def forward(self, x):
        return torch.native_dropout(x, self.p, self.training)[0]


def on_gpu_terms(model):
    """`model` with every nn.Dropout a GpuDropout."""
    for name, child in model.named_children():
        if isinstance(child, nn.Dropout):
            setattr(model, name, GpuDropout(child.p))
        else:
            on_gpu_terms(child)
    return model


TORCHVISION = ["alexnet", "vgg11", "vgg11_bn", "vgg13", "vgg13_bn", "vgg16", "vgg16_bn", "vgg19", "vgg19_bn",
               "resnet18", "resnet34", "resnet50", "resnet101", "resnet152", "wide_resnet50_2",
               "resnext50_32x4d", "resnext101_32x8d", "densenet121", "mobilenet_v2"]


def resnext101_32x4d():
    """ResNeXt-101 32x4d (Xie et al. 2017) as torchvision's ResNet builds it; torchvision
    ships 32x8d and 64x4d only."""
    from torchvision.models.resnet import Bottleneck, ResNet
    return ResNet(Bottleneck, [3, 4, 23, 3], groups=32, width_per_group=4)


class SEBottleneck(nn.Module):
    """NVIDIA DeepLearningExamples' SEBottleneck (PyTorch/Classification/ConvNets,
    image_classification/models/resnet.py and common.py, default fused_se): ResNeXt's
    bottleneck whose output is scaled by a squeeze-and-excitation to 16 channels and added to
    the residual in one torch.addcmul."""

    def __init__(self, cin, planes, stride, groups=32, expansion=2, squeeze=16):
        super().__init__()
        out = planes * expansion
        self.conv1, self.bn1 = nn.Conv2d(cin, planes, 1, bias=False), nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, stride, 1, groups=groups, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.conv3, self.bn3 = nn.Conv2d(planes, out, 1, bias=False), nn.BatchNorm2d(out)
        self.relu = nn.ReLU(inplace=True)
        self.squeeze = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(out, squeeze, 1), nn.ReLU(inplace=True),
                                     nn.Conv2d(squeeze, out, 1), nn.Sigmoid())
        self.downsample = nn.Sequential(nn.Conv2d(cin, out, 1, stride, bias=False), nn.BatchNorm2d(out)) \
            if stride != 1 or cin != out else None

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        residual = self.downsample(x) if self.downsample is not None else x
        return self.relu(torch.addcmul(residual, out, self.squeeze(out), value=1))


def se_resnext101_32x4d():
    """NVIDIA's se-resnext101-32x4d: layers 3-4-23-3, widths 128-256-512-1024, expansion 2."""
    stem = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(inplace=True),
            nn.MaxPool2d(3, 2, 1)]
    blocks, cin = [], 64
    for i, (width, n) in enumerate(zip([128, 256, 512, 1024], [3, 4, 23, 3])):
        for b in range(n):
            blocks.append(SEBottleneck(cin, width, 2 if i > 0 and b == 0 else 1))
            cin = width * 2
    return nn.Sequential(*stem, *blocks, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(cin, 1000))


class UNet2D(nn.Module):
    """Ronneberger et al. 2015 (Fig. 1): unpadded 3x3 convolutions with ReLU, 2x2 max pooling,
    2x2 up-convolutions, centre-cropped skips, 1x1 to 2 classes; 572^2 in, 388^2 out."""

    def __init__(self, cin=1, classes=2):
        super().__init__()
        def block(i, o):
            return nn.Sequential(nn.Conv2d(i, o, 3), nn.ReLU(inplace=True), nn.Conv2d(o, o, 3), nn.ReLU(inplace=True))
        widths = [64, 128, 256, 512]
        self.down = nn.ModuleList([block(i, o) for i, o in zip([cin] + widths[:-1], widths)])
        self.bottom = block(512, 1024)
        self.ups = nn.ModuleList([nn.ConvTranspose2d(2 * w, w, 2, 2) for w in reversed(widths)])
        self.up = nn.ModuleList([block(2 * w, w) for w in reversed(widths)])
        self.out = nn.Conv2d(64, classes, 1)

    def forward(self, x):
        skips = []
        for d in self.down:
            x = d(x)
            skips.append(x)
            x = F.max_pool2d(x, 2)
        x = self.bottom(x)
        for upconv, block, skip in zip(self.ups, self.up, reversed(skips)):
            x = upconv(x)
            dh, dw = (skip.shape[2] - x.shape[2]) // 2, (skip.shape[3] - x.shape[3]) // 2
            x = block(torch.cat([skip[:, :, dh:dh + x.shape[2], dw:dw + x.shape[3]], x], 1))
        return self.out(x)


class UNet2DMedical(nn.Module):
    """NVIDIA DeepLearningExamples' UNet_Medical (TensorFlow2/Segmentation/UNet_Medical/model/
    layers.py, unet.py) in PyTorch: unpadded 3x3 convolutions with ReLU, 2x2 max pooling,
    drop-out 0.5 after the bottleneck, 3x3 transposed convolutions of stride 2 with 'same'
    padding (p=1, output_padding=1) and ReLU, centre-cropped skips after the upsampled maps."""

    def __init__(self):
        super().__init__()
        def convs(i, o):
            return nn.Sequential(nn.Conv2d(i, o, 3), nn.ReLU(inplace=True), nn.Conv2d(o, o, 3), nn.ReLU(inplace=True))
        def up(i, o):
            return nn.Sequential(nn.ConvTranspose2d(i, o, 3, 2, 1, output_padding=1), nn.ReLU(inplace=True))
        self.down = nn.ModuleList([convs(i, o) for i, o in ((1, 64), (64, 128), (128, 256), (256, 512))])
        self.bottleneck = nn.Sequential(convs(512, 1024), nn.Dropout(0.5), up(1024, 512))
        self.up = nn.ModuleList([nn.Sequential(convs(2 * w, w), up(w, w // 2)) for w in (512, 256, 128)])
        self.output = nn.Sequential(convs(128, 64), nn.Conv2d(64, 2, 1))

    def forward(self, x):
        skips = []
        for d in self.down:
            x = d(x)
            skips.append(x)
            x = F.max_pool2d(x, 2)
        x = self.bottleneck(x)
        for block in list(self.up) + [self.output]:
            skip = skips.pop()
            dh, dw = (skip.shape[2] - x.shape[2]) // 2, (skip.shape[3] - x.shape[3]) // 2
            x = block(torch.cat([x, skip[:, :, dh:dh + x.shape[2], dw:dw + x.shape[3]]], 1))
        return x


class MlperfCosmoFlow(nn.Module):
    """MLPerf HPC's CosmoFlow (mlcommons/hpc cosmoflow/models/cosmoflow.py, configs/cosmo.yaml):
    five 2^3 'same' convolutions 32..512 with LeakyReLU(0.3) and 2^3 max pooling, dense
    128-64-4 with LeakyReLU and dropout 0.5, tanh times 1.2; trained on mean squared error."""

    def __init__(self):
        super().__init__()
        layers, c = [], 4
        for i in range(5):
            layers += [nn.Conv3d(c, 32 << i, 2, padding="same"), nn.LeakyReLU(0.3), nn.MaxPool3d(2)]
            c = 32 << i
        self.features = nn.Sequential(*layers, nn.Flatten())
        self.head = nn.Sequential(nn.Linear(512 * 4 ** 3, 128), nn.LeakyReLU(0.3), nn.Dropout(0.5),
                                  nn.Linear(128, 64), nn.LeakyReLU(0.3), nn.Dropout(0.5), nn.Linear(64, 4), nn.Tanh())

    def forward(self, x):
        return self.head(self.features(x)) * 1.2


class MlperfUNet3D(nn.Module):
    """MLPerf Training's 3-D U-Net for KiTS19 (mlcommons/training image_segmentation/pytorch/
    model/unet3d.py, layers.py): filters 32-64-128-256-320, 3^3 convolutions without bias,
    affine InstanceNorm3d, one shared LeakyReLU(0.01), strided-convolution downsampling,
    ConvTranspose3d(2, 2) with bias, skip concatenation, a 1^3 convolution to 3 classes."""

    def __init__(self):
        super().__init__()
        self.act = nn.LeakyReLU(0.01)
        filters = [32, 64, 128, 256, 320]
        def block(i, o, s):
            return nn.ModuleList([nn.Conv3d(i, o, 3, s, 1, bias=False), nn.InstanceNorm3d(o, affine=True),
                                  nn.Conv3d(o, o, 3, 1, 1, bias=False), nn.InstanceNorm3d(o, affine=True)])
        self.input_block = block(1, 32, 1)
        self.downsample = nn.ModuleList([block(i, o, 2) for i, o in zip(filters[:-1], filters[1:])])
        self.bottleneck = block(320, 320, 2)
        ups = [(320, 320)] + list(zip(reversed(filters[1:]), reversed(filters[:-1])))
        self.upconv = nn.ModuleList([nn.ConvTranspose3d(i, o, 2, 2) for i, o in ups])
        self.upsample = nn.ModuleList([block(2 * o, o, 1) for _, o in ups])
        self.output = nn.Conv3d(32, 3, 1)

    def run(self, b, x):
        return self.act(b[3](b[2](self.act(b[1](b[0](x))))))

    def forward(self, x):
        x = self.run(self.input_block, x)
        skips = [x]
        for d in self.downsample:
            x = self.run(d, x)
            skips.append(x)
        x = self.run(self.bottleneck, x)
        for upconv, b, skip in zip(self.upconv, self.upsample, reversed(skips)):
            x = self.run(b, torch.cat((upconv(x), skip), 1))
        return self.output(x)


class NnUNet(nn.Module):
    """nnU-Net as NVIDIA DeepLearningExamples build it (PyTorch/Segmentation/nnUNet,
    nnunet/nn_unet.py: MONAI's DynUNet with the defaults depth 5, min_fmap 4, BraTS Task01's
    4 modalities and 4 labels, patches 192x160 and 128^3): six levels of two 3^k convolutions
    without bias, affine instance norm and one in-place LeakyReLU(0.01) per block (DynUNet's
    UnetBasicBlock), strides 1, 2, 2, 2, 2, 2, filters 32-64-128-256-320-320 (3-D) or
    32-64-128-256-512-512 (2-D), transposed convolutions with bias, a 1^k output convolution."""

    def __init__(self, rank):
        super().__init__()
        conv = nn.Conv3d if rank == 3 else nn.Conv2d
        up = nn.ConvTranspose3d if rank == 3 else nn.ConvTranspose2d
        norm = nn.InstanceNorm3d if rank == 3 else nn.InstanceNorm2d
        widest = 320 if rank == 3 else 512
        f = [32, 64, 128, 256, min(512, widest), widest]
        self.act = nn.LeakyReLU(0.01, inplace=True)
        def block(i, o, s):
            return nn.ModuleList([conv(i, o, 3, s, 1, bias=False), norm(o, affine=True),
                                  conv(o, o, 3, 1, 1, bias=False), norm(o, affine=True)])
        self.input_block = block(4, f[0], 1)
        self.downsamples = nn.ModuleList([block(f[i - 1], f[i], 2) for i in range(1, 5)])
        self.bottleneck = block(f[4], f[5], 2)
        self.transp = nn.ModuleList([up(f[5 - i], f[4 - i], 2, 2) for i in range(5)])
        self.upsamples = nn.ModuleList([block(2 * f[4 - i], f[4 - i], 1) for i in range(5)])
        self.output_block = conv(f[0], 4, 1)

    def run(self, b, x):
        return self.act(b[3](b[2](self.act(b[1](b[0](x))))))

    def forward(self, x):
        skips = [self.run(self.input_block, x)]
        for d in self.downsamples:
            skips.append(self.run(d, skips[-1]))
        x = self.run(self.bottleneck, skips[-1])
        for t, b, skip in zip(self.transp, self.upsamples, reversed(skips)):
            x = self.run(b, torch.cat((t(x), skip), 1))
        return self.output_block(x)


def dice_ce_loss(out, target):
    """MLPerf's DiceCELoss (losses.py) against an all-background target: softmax Dice over the
    non-background channels of a one-hot target, plus cross-entropy, halved (NVIDIA's nnU-Net
    loss, MONAI's DiceLoss(include_background=False, softmax=True) plus cross-entropy, keeps
    the same tensors)."""
    onehot = F.one_hot(target, num_classes=out.shape[1]).movedim(-1, 1).float()[:, 1:]
    p = torch.softmax(out, dim=1)[:, 1:]
    dims = list(range(2, out.dim()))
    dice = (2.0 * torch.sum(onehot * p, dim=dims) + 1e-6) / (torch.sum(onehot, dim=dims) + torch.sum(p, dim=dims) + 1e-6)
    return (torch.mean(1.0 - dice) + F.cross_entropy(out, target)) / 2


def mse_loss(out, target):
    return F.mse_loss(out, target)


def labels(out, segmentation, loss=None):
    """The step's labels, all zero: a float target of the output's shape for mse_loss, else
    class indices (int64) per sample or, for a segmentation, per position. The step holds
    them until its backward has run, as a training loop holds its batch's labels."""
    if loss is mse_loss:
        return torch.zeros_like(out)
    return torch.zeros((out.shape[0],) + tuple(out.shape[2:]) if segmentation else (out.shape[0],),
                       dtype=torch.long)


def macs_by_hooks(model, x):
    total = [0]

    def hook(m, inputs, out):
        ks = getattr(m, "kernel_size", 1)
        k = math.prod(ks) if isinstance(ks, tuple) else ks
        if isinstance(m, (nn.Conv2d, nn.Conv3d)):
            total[0] += out.numel() * (m.in_channels // m.groups) * k
        elif isinstance(m, (nn.ConvTranspose2d, nn.ConvTranspose3d)):
            total[0] += inputs[0].numel() * (m.out_channels // m.groups) * k
        elif isinstance(m, nn.Linear):
            total[0] += out.numel() * m.in_features

    handles = [m.register_forward_hook(hook) for m in model.modules()]
    with torch.no_grad():
        model.eval()(x)
    for h in handles:
        h.remove()
    return total[0] // x.shape[0]


def saved_bytes(model, x, segmentation, loss=None):
    model.train()
    owned = {p.data_ptr() for p in model.parameters()} | {b.data_ptr() for b in model.buffers()}
    seen, by_dtype = {}, {}

    def pack(t):
        storage = t.storage()
        ptr = storage.data_ptr()
        if ptr not in owned and ptr not in seen:
            seen[ptr] = storage.nbytes()
            by_dtype[str(t.dtype)] = by_dtype.get(str(t.dtype), 0) + storage.nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = model(x)
        (loss or F.cross_entropy)(out, labels(out, segmentation, loss))
    n = x.shape[0]
    return sum(seen.values()) / n, {k: v / n for k, v in sorted(by_dtype.items())}


def step_allocations(results):
    """A step's allocations from the profiler's results: (sizes in order without the
    operators' scratch, raw peak, scratch peak), in bytes. Scratch is what an ATen operator
    allocates and frees before it returns (oneDNN's reordered copies of a convolution's
    input and gradient, im2col columns): the convolution workspace, a part of its own in
    ParaDiSE, and a property of the CPU kernels. Each allocation in the profiler's event tree
    has its address and the operator it runs under: an allocation is scratch when the same
    outermost aten:: call frees it. The raw peak is the allocator's own."""
    events = []  # (time, order, bytes, address, outermost aten:: call)

    def walk(node, call):
        if call is None and node.name.startswith("aten::"):
            call = node.id
        fields = node.extra_fields
        if type(fields).__name__ == "_ExtraFields_Allocation":
            events.append((node.start_time_ns, len(events), fields.alloc_size, fields.ptr, call))
        for child in node.children:
            walk(child, call)

    for root in results.experimental_event_tree():
        walk(root, None)
    events.sort()
    scratch, made = [False] * len(events), {}
    for i, (_, _, n, ptr, call) in enumerate(events):
        if n > 0:
            made[ptr] = i
        elif ptr in made:
            j = made.pop(ptr)
            if call is not None and events[j][4] == call:
                scratch[i] = scratch[j] = True
    held, peak = [0, 0], [0, 0]
    for (_, _, n, _, _), x in zip(events, scratch):
        for k in (0, 1):
            if k == 0 or x:
                held[k] += n
                peak[k] = max(peak[k], held[k])
    return [e[2] for e, x in zip(events, scratch) if not x], peak[0], peak[1]


def training_step(model, shape, batch, segmentation, loss=None, dtype=torch.float32):
    """step_allocations of a training step (the input made, forward, loss, backward): the
    loss cross-entropy (per voxel for a segmentation) or loss(output); model and input in
    `dtype`."""
    from torch.profiler import ProfilerActivity, profile
    model.to(dtype).train()

    def step():
        x = torch.randn((batch,) + shape, dtype=dtype)
        out = model(x)
        target = labels(out, segmentation, loss)
        value = (loss or F.cross_entropy)(out, target)
        del out, x
        value.backward()

    step()  # lazy initialisations and the weight gradients' first allocation out of the way
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        step()
    return step_allocations(prof.profiler.kineto_results)


def training_peak_per_sample(make, shape, batch, segmentation, loss=None):
    """Per sample: the most bytes held at once that grow with the batch. The same step at
    batch b and 2b makes the same allocations in the same order (checked), so their running
    sums differ, at each allocation, by b samples' share of what is held then; the peak is
    the largest difference over b. What does not grow with the batch drops out, wherever it
    is held: weight gradients and their accumulation transients (a classifier's 411 MB in
    VGG16's), which at a small batch move the step's own peak to another layer. Beside it
    the raw peak's and the scratch's differences over b."""
    steps = []
    for b in (batch, 2 * batch):
        torch.manual_seed(0)
        steps.append(training_step(make(), shape, b, segmentation, loss))
    (small, raw_small, scratch_small), (large, raw_large, scratch_large) = steps
    if len(small) != len(large) or any((a > 0) != (c > 0) for a, c in zip(small, large)):
        sys.exit(f"the steps at batch {batch} and {2 * batch} allocate differently ({len(small)} and "
                 f"{len(large)} allocations and frees): no per-sample peak")
    held_small = held_large = peak = 0
    for a, c in zip(small, large):
        held_small += a
        held_large += c
        peak = max(peak, held_large - held_small)
    return {"training_peak_bytes_per_sample": peak / batch,
            "training_peak_raw_bytes_per_sample": (raw_large - raw_small) / batch,
            "scratch_peak_bytes_per_sample": (scratch_large - scratch_small) / batch}


def two_byte_peak_per_sample(make, shape, batch, segmentation):
    """training_peak_per_sample's peak with every floating-point tensor at 2 bytes per
    element, integer ones (max-pool indices, labels) and masks as they are: what ParaDiSE's
    mixed precision counts. PyTorch 1.13 on the CPU cannot run these models in half or
    bfloat16 (max_pool3d has no BFloat16 kernel; ConvTranspose3d's bfloat16 output has the
    wrong shape), so the steps run at 4 and 8 bytes per element, at batches b and 2b: each
    allocation's growth over b samples either doubles from float32 to float64 (a
    floating-point tensor: halved for 2 bytes) or stays (anything else: kept); any other
    ratio, or steps that allocate differently, is an error. Returns the per-sample peaks at
    4 bytes (training_peak_bytes_per_sample's) and at 2."""
    growth = {}
    for dtype in (torch.float32, torch.float64):
        steps = []
        for b in (batch, 2 * batch):
            torch.manual_seed(0)
            steps.append(training_step(make(), shape, b, segmentation, dtype=dtype)[0])
        if len(steps[0]) != len(steps[1]) or any((a > 0) != (c > 0) for a, c in zip(*steps)):
            sys.exit(f"{dtype}: the steps at batch {batch} and {2 * batch} allocate differently")
        growth[dtype] = [c - a for a, c in zip(*steps)]
    single, double = growth[torch.float32], growth[torch.float64]
    if len(single) != len(double):
        sys.exit(f"float32 and float64 steps allocate differently ({len(single)} and {len(double)})")
    held = peak = held4 = peak4 = 0
    for i, (g4, g8) in enumerate(zip(single, double)):
        if g8 == 2 * g4:
            held += g4 / 2
        elif g8 == g4:
            held += g4
        else:
            sys.exit(f"allocation {i}: grows by {g4} B at float32 and {g8} B at float64")
        held4 += g4
        peak, peak4 = max(peak, held), max(peak4, held4)
    return {"training_peak_bytes_per_sample": peak4 / batch, "two_byte_peak_bytes_per_sample": peak / batch}


# torchvision's published GFLOPS (GMACs) per model: the "_ops" field of the weights metadata
# in torchvision >= 0.15 (torchvision/models/*.py), shown in the table of
# https://pytorch.org/vision/stable/models.html. Debian's torchvision 0.14 predates the
# field, so the figures are transcribed here; the script prefers the metadata when present.
PUBLISHED_GFLOPS = {
    "alexnet": 0.714, "vgg11": 7.609, "vgg11_bn": 7.609, "vgg13": 11.308, "vgg13_bn": 11.308,
    "vgg16": 15.47, "vgg16_bn": 15.47, "vgg19": 19.632, "vgg19_bn": 19.632, "resnet18": 1.814,
    "resnet34": 3.664, "resnet50": 4.089, "resnet101": 7.801, "resnet152": 11.514,
    "wide_resnet50_2": 11.398, "resnext50_32x4d": 4.23, "densenet121": 2.834, "mobilenet_v2": 0.301,
    "resnext101_32x8d": 16.414, "efficientnet_b0": 0.386, "efficientnet_b1": 0.687,
    "efficientnet_b2": 1.088, "efficientnet_b3": 1.827, "efficientnet_b4": 4.394,
}


def published(name):
    try:
        meta = torchvision.models.get_model_weights(name).DEFAULT.meta
    except (AttributeError, ValueError):
        meta = {}
    return meta.get("_ops", PUBLISHED_GFLOPS.get(name)), meta.get("num_params")


def cases():
    """(key, name, make, shape, batch, segmentation, loss) of every model, then of the small
    inputs."""
    def zoo(n):
        return lambda: on_gpu_terms(getattr(torchvision.models, n)(weights=None))

    runs = [(n, n, zoo(n), (3, 224, 224), 2, False, None) for n in TORCHVISION]
    runs += [("resnext101_32x4d", "resnext101_32x4d", lambda: on_gpu_terms(resnext101_32x4d()),
              (3, 224, 224), 2, False, None),
             ("resnet110", "resnet110", lambda: PreActResNet(110), (3, 32, 32), 2, False, None),
             ("resnet1001", "resnet1001", lambda: PreActResNet(1001), (3, 32, 32), 2, False, None),
             ("cosmoflow", "cosmoflow", lambda: CosmoFlow(4), (4, 128, 128, 128), 1, False, None),
             ("unet3d", "unet3d", lambda: UNet3D(3, 3), (3, 64, 64, 64), 1, True, None),
             ("se_resnext101_32x4d", "se_resnext101_32x4d", se_resnext101_32x4d, (3, 224, 224), 2, False, None)]
    # EfficientNets at the crops torchvision publishes its GFLOPS at (B2: 288, not the paper's 260)
    runs += [(n, n, zoo(n), (3, side, side), 2, False, None) for n, side in
             (("efficientnet_b0", 224), ("efficientnet_b1", 240), ("efficientnet_b2", 288),
              ("efficientnet_b3", 300), ("efficientnet_b4", 380))]
    runs += [("unet2d", "unet2d", UNet2D, (1, 572, 572), 1, True, None),
             ("unet2d_medical", "unet2d_medical", lambda: on_gpu_terms(UNet2DMedical()), (1, 572, 572), 1,
              True, None),
             ("mlperf_cosmoflow", "mlperf_cosmoflow", lambda: on_gpu_terms(MlperfCosmoFlow()),
              (4, 128, 128, 128), 1, False, mse_loss),
             # 64^3, not the 128^3 it trains at, to keep the CPU's step short (a bottleneck of 2^3:
             # instance norm in training needs more than one voxel); at batches 2 and 4, since
             # the CPU's steps at 1 and 2 allocate differently (no per-sample peak)
             ("mlperf_unet3d", "mlperf_unet3d", MlperfUNet3D, (1, 64, 64, 64), 2, True, dice_ce_loss),
             ("nnunet2d", "nnunet2d", lambda: NnUNet(2), (4, 192, 160), 2, True, dice_ce_loss),
             # 64^3 for the CPU's sake, as mlperf_unet3d (128^3 patches in training)
             ("nnunet3d", "nnunet3d", lambda: NnUNet(3), (4, 64, 64, 64), 2, True, dice_ce_loss)]
    # small inputs, where the step peaks in the classifier's backward with the dropout masks
    # held (at 224 it peaks in the convolutions' backward, after autograd freed them)
    small = [(f"{n}@3x64x64", n, zoo(n), (3, 64, 64), 1, False, None) for n in ("alexnet", "vgg16")]
    return runs, small


def measure(make, shape, batch, segmentation, loss, name):
    model = make()
    x = torch.randn((batch,) + shape)
    gflops, pub_params = published(name)
    per_sample, by_dtype = saved_bytes(model, x, segmentation, loss)
    entry = {
        "model": name,
        "input": "x".join(map(str, shape)),
        "params": sum(p.numel() for p in model.parameters()),
        "macs_hooks": macs_by_hooks(model, x[:1]),
        "published_gflops": gflops,
        "published_params": pub_params,
        "saved_bytes_per_sample": per_sample,
        "saved_bytes_by_dtype": by_dtype,
        "batch": batch,
    }
    try:
        entry.update(training_peak_per_sample(make, shape, batch, segmentation, loss))
    except SystemExit as e:  # no per-sample peak: the entry says why, the others still count
        entry["training_peak_unavailable"] = str(e)
    return entry


def main():
    import argparse
    p = argparse.ArgumentParser(description="PyTorch's counts for the ParaDiSE zoo")
    p.add_argument("--only", help="comma-separated keys to measure (default: all)")
    p.add_argument("--merge", help="an earlier output whose other entries are kept")
    args = p.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    doc = {"models": {}, "small_inputs": {}}
    if args.merge:
        with open(args.merge) as f:
            doc = json.load(f)
    only = set(args.only.split(",")) if args.only else None
    runs, small = cases()
    for section, group in (("models", runs), ("small_inputs", small)):
        for key, name, make, shape, batch, segmentation, loss in group:
            if only is not None and key not in only:
                continue
            entry = measure(make, shape, batch, segmentation, loss, name)
            doc[section][key] = entry
            print(key, entry["params"], entry["macs_hooks"], round(entry["saved_bytes_per_sample"]),
                  entry.get("training_peak_bytes_per_sample"), file=sys.stderr)
    doc.update({"torch_version": torch.__version__, "torchvision_version": torchvision.__version__,
                "published_note": "torchvision publishes GFLOPS (= GMACs) in weights.meta['_ops'] from 0.15 on; "
                                  "for older torchvision the 0.15 figures in PUBLISHED_GFLOPS are used",
                "dropout": "every nn.Dropout runs as on a GPU: native_dropout, a bool mask (GpuDropout)"})
    json.dump(doc, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
