#!/usr/bin/python3
"""memory_limit.py FILE.h5 [-o OUT.png] [--pdf] [--limit largest_resolution|largest_batch]:
memory-limit curves from the file's `memlimit` group: the largest input side (cube edge for
3-D data; the sweep needs `[memlimit] resolution = LO..HI`) or the largest global batch
that fits, against the GPU count, one line per strategy.

Axes not shown are fixed at their first value unless chosen with --model, --batch, ...;
a strategy for which nothing fits at any GPU count is marked "(nothing fits)".
"""
import numpy as np

import command
import paradise_h5 as h5
from figure_output import axes_title, check_outputs, gpu_axis, plt, save, strategy_styles

LIMITS = {
    "largest_resolution": ("largest input side that fits", "largest input side "
                           "(pixels or voxels per edge)", "[memlimit] resolution = LO..HI"),
    "largest_batch": ("largest global batch that fits", "largest global batch (samples)",
                      "[memlimit] batch (on by default; not 'none')"),
}


def series(path, filters, limit):
    """{strategy: (gpus, limit with NaN where nothing fits)}, {fixed axis: value}."""
    root = h5.open_sweep(path)
    filters = h5.settled(root, filters, path)  # one-valued settings: the root's
    group = h5.open_sweep(path, "memlimit")
    if limit not in group.variables:
        raise h5.InputError(f"{path}: no variable 'memlimit/{limit}' (the sweep file needs "
                            f"{LIMITS[limit][2]})")
    da = h5.select(group[[limit]], filters, path, root, "memlimit/")[limit]
    lines, fixed = {}, {}
    for s in da.strategy.values:
        line, fixed = h5.fix_axes(da.sel(strategy=s), ("gpus",))
        values = line.values.astype(float)
        lines[str(s)] = (line.gpus.values, np.where(values > 0, values, np.nan))
    return lines, fixed, root


def plot(lines, fixed, root, limit):
    styles = strategy_styles([str(s) for s in root.strategy.values])
    fig, ax = plt.subplots(figsize=(8, 5.5))
    for s, (gpus, values) in lines.items():
        label = s if np.isfinite(values).any() else f"{s} (nothing fits)"
        ax.plot(gpus, values, label=label, **styles[s])
    gpu_axis(ax, next(iter(lines.values()))[0])
    # a log axis needs a positive value: with nothing fitting anywhere it stays linear
    if limit == "largest_batch" and any(np.isfinite(v).any() for _, v in lines.values()):
        ax.set_yscale("log", base=2)
    ax.set_ylabel(LIMITS[limit][1])
    ax.grid(True, alpha=0.3)
    ax.legend(title="strategy")
    axes_title(ax, f"Memory limit: {LIMITS[limit][0]} vs. GPUs\n{h5.panel_title(fixed)} "
                   f"({h5.source_label(root)})")
    fig.tight_layout()
    return fig


def main():
    p = command.parser(__doc__.split("\n\n")[0])
    p.add_argument("--limit", choices=sorted(LIMITS), default="largest_resolution",
                   help="which memlimit table (default largest_resolution)")
    args = p.parse_args()
    check_outputs(args, "memory-limit")  # before any work: a refused path wastes none
    with h5.reading(args.file):
        lines, fixed, root = series(args.file, h5.parse_filters(args), args.limit)
    save(plot(lines, fixed, root, args.limit), args, "memory-limit",
         notes={"fixed": h5.panel_title(fixed), "limit": args.limit})


if __name__ == "__main__":
    command.run(main)
