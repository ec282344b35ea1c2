#!/usr/bin/python3
"""breakdown.py FILE.h5 [-o OUT.png] [--pdf]: ParaDL-style stacked bars of compute and
communication time per epoch, one bar per strategy at each GPU count (storage = full), and
on top the framework's time per step over the epoch where the file has it (the extended
model's implementation profile; files written before it had none, and ParaDL's model none).

A black tick on each bar marks the epoch time: with the paradise variant's overlap of the
gradient exchange with the backward pass it lies below the bar's top (compute +
communication before overlap + framework); with ParaDL's model it is the top. Only feasible
configurations get a bar, and the legend names only the strategies that have one. Axes
not shown (model, dataset, system, batch, ...) are fixed at their first value unless chosen
with --model, --batch, ... (one value each: several are refused), and the title names
them. Times that span more than a decade are drawn on a log axis (on a linear one the
bars of the large GPU counts were too short to see).
"""

import numpy as np

import command
import paradise_h5 as h5
from figure_output import axes_title, check_outputs, log_value_axis, pyplot, save, strategy_colors

PARTS = ("compute_time_s", "communication_time_s", "epoch_time_s")
FRAMEWORK = "framework_time_s"  # optional: files before the step overhead lack it
# Bar groups (GPU counts) one chart shows: 1.1 inch each, so 32 make a figure 38 inches
# (5,700 pixels) wide; 512 counts made one matplotlib refused (84,930 pixels) and no one
# could read. More are refused, with a --gpus choice to suggest.
MAX_GPU_COUNTS = 32
# Times whose largest is more than this many times their least get a log axis.
LOG_SPAN = 10


def series(path, filters):
    """{strategy: {gpus, compute_time_s, communication_time_s}} (NaN: not feasible), fixed."""
    root = h5.open_sweep(path)
    filters = h5.settled(root, filters, path)  # one-valued settings: the root's
    h5.require(root, PARTS + ("status",), path,
               "the compute/communication bars need a storage = full sweep")
    parts = PARTS + ((FRAMEWORK,) if FRAMEWORK in root else ())
    ds = h5.select(root[list(parts) + ["status"]], filters, path, root)
    h5.check_one_value(ds, filters, ("strategy", "gpus"), path, "the bar chart")
    h5.check_flags(ds.status, path)
    check_gpu_counts(ds.gpus.values, path)
    out, fixed = {}, {}
    for s in ds.strategy.values:
        ok, fixed = h5.fix_axes(ds.status.sel(strategy=s) == h5.STATUS_OK, ("gpus",))
        values = {p: h5.fix_axes(ds[p].sel(strategy=s), ("gpus",))[0].values for p in parts}
        out[str(s)] = {"gpus": ds.gpus.values,
                       **{p: np.where(ok.values, v, np.nan) for p, v in values.items()}}
        if FRAMEWORK in out[str(s)] and not np.nansum(out[str(s)][FRAMEWORK]) > 0:
            del out[str(s)][FRAMEWORK]  # none (ParaDL's model): no empty segments
    if not any(np.isfinite(v[PARTS[0]]).any() for v in out.values()):
        raise h5.InputError(f"{path}: no feasible configuration at {h5.panel_title(fixed)}")
    return out, fixed, ds


def check_gpu_counts(gpus, path):
    """InputError when there are more GPU counts than bar groups one chart shows, suggesting
    --gpus with counts spread over the axis."""
    if len(gpus) <= MAX_GPU_COUNTS:
        return
    picks = np.unique(np.linspace(0, len(gpus) - 1, 8).round().astype(int))
    example = ",".join(str(gpus[i]) for i in picks)
    raise h5.InputError(f"{path}: {len(gpus)} GPU counts ({gpus[0]}..{gpus[-1]}), more than the "
                        f"{MAX_GPU_COUNTS} bar groups one chart shows; choose some with --gpus, "
                        f"e.g. --gpus {example}")


def plot(bars, fixed, ds):
    colors = strategy_colors(list(bars))
    gpus = ds.gpus.values
    from matplotlib.patches import Patch  # as pyplot(): only with a figure
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(max(8, 1.1 * len(gpus) + 3), 5.5))
    width = 0.8 / len(bars)
    drawn = [s for s, b in bars.items() if np.isfinite(b["compute_time_s"]).any()]
    for k, (s, b) in enumerate(bars.items()):
        ok = np.isfinite(b["compute_time_s"])
        x = np.arange(len(gpus))[ok] + (k - (len(bars) - 1) / 2) * width
        compute, comm = b["compute_time_s"][ok], b["communication_time_s"][ok]
        ax.bar(x, compute, width, color=colors[s], edgecolor="black", lw=0.5,
               label=f"{s} compute")
        ax.bar(x, comm, width, bottom=compute, color=colors[s], edgecolor="black", lw=0.5,
               hatch="///", alpha=0.55, label=f"{s} communication")
        if FRAMEWORK in b:
            ax.bar(x, b[FRAMEWORK][ok], width, bottom=compute + comm, color="white",
                   edgecolor=colors[s], lw=0.8, hatch="..", label=f"{s} framework")
        ax.plot(x, b["epoch_time_s"][ok], linestyle="none", marker="_", color="black",
                markersize=max(6.0, 300 * width / len(gpus)), markeredgewidth=2,
                label=f"{s} epoch")
    ax.set_xticks(range(len(gpus)))
    ax.set_xticklabels([str(g) for g in gpus])
    ax.set_xlabel("number of GPUs")
    ax.set_xlim(-0.5, len(gpus) - 0.5)  # a GPU count without bars is an empty group
    # the bars' tops (communication and framework stack on compute, whatever their own size)
    tops = [b["compute_time_s"] + b["communication_time_s"] + b.get(FRAMEWORK, 0)
            for b in bars.values()]
    values = np.concatenate([b[p] for b in bars.values() for p in ("compute_time_s",
                                                                    "epoch_time_s")] + tops)
    values = values[np.isfinite(values) & (values > 0)]
    if values.max() > LOG_SPAN * values.min():
        # the bars start at 0, which a log axis cannot show: its bottom below the least bar
        ax.set_ylim(bottom=10 ** np.floor(np.log10(values.min() * 0.8)))
        log_value_axis(ax, "time per epoch (s)")
    else:
        ax.set_ylabel("time per epoch (s)")
    ax.grid(True, axis="y", alpha=0.3)
    framework = any(FRAMEWORK in b for b in bars.values())
    handles = [Patch(color=colors[s]) for s in drawn] + [
        Patch(facecolor="white", edgecolor="black"),
        Patch(facecolor="white", edgecolor="black", hatch="///")] + (
        [Patch(facecolor="white", edgecolor="black", hatch="..")] if framework else []) + [
        plt.Line2D([], [], linestyle="none", marker="_", color="black", markeredgewidth=2)]
    ax.legend(handles, drawn + ["compute", "communication"] + (
        ["framework per step"] if framework else []) + ["epoch (after overlap)"], ncol=2)
    title = f"Compute and communication per epoch: {h5.panel_title(fixed)}"
    axes_title(ax, f"{title}\n({h5.source_label(ds)}; feasible configurations only)")
    fig.tight_layout()
    return fig


def main():
    args = command.parser(__doc__.split("\n\n")[0]).parse_args()
    check_outputs(args, "breakdown")  # before any work: a refused path wastes none
    with h5.reading(args.file):
        bars, fixed, ds = series(args.file, h5.parse_filters(args))
    save(plot(bars, fixed, ds), args, "breakdown", notes={"fixed": h5.panel_title(fixed)})


if __name__ == "__main__":
    command.run(main)
