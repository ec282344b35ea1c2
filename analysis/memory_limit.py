#!/usr/bin/python3
"""memory_limit.py FILE.h5 [-o OUT.png] [--pdf] [--limit largest_resolution|largest_batch]:
memory-limit curves from the file's `memlimit` group: the largest input side (cube edge for
3-D data; the sweep needs `[memlimit] resolution = LO..HI`) or the largest global batch
that fits, against the GPU count, one line per strategy.

Axes not shown are fixed at their first value unless chosen with --model, --batch, ...
(one value each: several are refused; the title names them); a strategy for which nothing
fits at any GPU count is marked "(nothing fits)". A limit at the top of its search (the
table's NAME_at_search_end) is a lower bound, drawn with an upward arrow: a larger batch or
side may fit. Batches, and sides that span more than a decade, get a log2 axis.
"""
import numpy as np

import command
import paradise_h5 as h5
from figure_output import axes_title, check_outputs, gpu_axis, pyplot, save, strategy_styles

LIMITS = {
    "largest_resolution": ("largest input side that fits", "largest input side "
                           "(pixels or voxels per edge)", "[memlimit] resolution = LO..HI"),
    "largest_batch": ("largest global batch that fits", "largest global batch (samples)",
                      "[memlimit] batch (on by default; not 'none')"),
}


def series(path, filters, limit):
    """{strategy: (gpus, limit with NaN where nothing fits, lower bound flags)}, {fixed axis:
    value}, the root dataset."""
    root = h5.open_sweep(path)
    filters = h5.settled(root, filters, path)  # one-valued settings: the root's
    group = h5.open_sweep(path, "memlimit")
    if limit not in group.variables:
        raise h5.InputError(f"{path}: no variable 'memlimit/{limit}' (the sweep file needs "
                            f"{LIMITS[limit][2]})")
    at_end = limit + "_at_search_end"
    if at_end not in group.variables:  # written by paradise with every memlimit table
        raise h5.InputError(f"{path}: no variable 'memlimit/{at_end}' beside '{limit}' (a file "
                            "from an older paradise: run the sweep again)")
    ds = h5.select(group[[limit, at_end]], filters, path, root, "memlimit/")
    h5.check_one_value(ds, filters, ("strategy", "gpus"), path, "the memory-limit plot")
    lines, fixed = {}, {}
    for s in ds.strategy.values:
        line, fixed = h5.fix_axes(ds[limit].sel(strategy=s), ("gpus",))
        top, _ = h5.fix_axes(ds[at_end].sel(strategy=s), ("gpus",))
        values = line.values.astype(float)
        if not np.isin(top.values, (0, 1)).all():
            raise h5.InputError(f"{path}: variable 'memlimit/{at_end}' holds "
                                f"{top.values[~np.isin(top.values, (0, 1))][0]}, not 0 or 1; the "
                                "file is damaged or was edited")
        lines[str(s)] = (line.gpus.values, np.where(values > 0, values, np.nan), top.values == 1)
    return lines, fixed, root


def plot(lines, fixed, root, limit):
    styles = strategy_styles([str(s) for s in root.strategy.values])
    fig, ax = pyplot().subplots(figsize=(8, 5.5))
    bound_x, bound_y = [], []
    for s, (gpus, values, at_end) in lines.items():
        label = s if np.isfinite(values).any() else f"{s} (nothing fits)"
        ax.plot(gpus, values, label=label, **styles[s])
        bound_x += list(gpus[at_end])
        bound_y += list(values[at_end])
    if bound_x:  # one legend entry for every strategy's lower bounds
        ax.plot(bound_x, bound_y, ls="none", marker=r"$\uparrow$", color="black", markersize=14,
                label="top of the search: a larger value may fit")
    gpu_axis(ax, next(iter(lines.values()))[0])
    # a log axis needs a positive value: with nothing fitting anywhere it stays linear;
    # batches double from one limit to the next, sides get a log axis where they span over
    # a decade (a linear one flattened the small GPU counts' limits)
    found = np.concatenate([v[np.isfinite(v)] for _, v, _ in lines.values()])
    if found.size and (limit == "largest_batch" or found.max() > 10 * found.min()):
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
