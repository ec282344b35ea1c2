"""Figures of the analysis commands: matplotlib on the Agg backend, one colour per strategy,
saving as PNG and/or PDF, and the JSON sidecar (--data) with the values read back from the
drawn figure itself (lines, bars, images, titles, axis labels, legends), so that a test
checks what was plotted rather than what the command meant to plot.
"""
import functools
import json
import math
import os
import textwrap

import command
from paradise_h5 import InputError

DPI = 150


@functools.lru_cache(maxsize=None)
def pyplot():
    """matplotlib's pyplot on the Agg backend, imported at the first figure: a command that
    refuses its input does so without it (about half a second of start-up)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def strategy_colors(strategies):
    """{strategy: colour}, in the order of the file's strategy axis (stable across commands)."""
    palette = pyplot().get_cmap("tab10").colors
    return {s: palette[i % len(palette)] for i, s in enumerate(strategies)}


def strategy_styles(strategies):
    """{strategy: line style keywords}: colour, dash and marker, so that equal lines both show."""
    dashes, markers = ("-", "--", "-.", ":"), ("o", "s", "^", "D", "v", "P", "X", "*")
    return {s: {"color": c, "ls": dashes[i % len(dashes)], "marker": markers[i % len(markers)]}
            for i, (s, c) in enumerate(strategy_colors(strategies).items())}


def _number(x):
    x = float(x)
    return None if math.isnan(x) or math.isinf(x) else x


def _numbers(values):
    return [_number(v) for v in values]


def _legend_texts(legend):
    return [t.get_text() for t in legend.get_texts()] if legend is not None else []


def _axes_data(ax):
    from matplotlib.container import BarContainer  # as pyplot(): only with a figure
    bars = []
    for c in ax.containers:
        if isinstance(c, BarContainer):
            bars.append({
                "label": c.get_label(),
                "x": _numbers(r.get_x() + r.get_width() / 2 for r in c.patches),
                "bottom": _numbers(r.get_y() for r in c.patches),
                "height": _numbers(r.get_height() for r in c.patches),
            })
    images = []
    for im in ax.images:
        a = im.get_array()
        mask = a.mask if hasattr(a, "mask") else None
        rows = []
        for i in range(a.shape[0]):
            rows.append([None if (mask is not None and mask.shape and mask[i][j])
                         else _number(a[i][j]) for j in range(a.shape[1])])
        images.append({"array": rows})
    return {
        "title": ax.get_title(),
        "xlabel": ax.get_xlabel(),
        "ylabel": ax.get_ylabel(),
        "xticklabels": [t.get_text() for t in ax.get_xticklabels()],
        "yticklabels": [t.get_text() for t in ax.get_yticklabels()],
        "legend": _legend_texts(ax.get_legend()),
        "xscale": ax.get_xscale(),
        "yscale": ax.get_yscale(),
        # notes written on the panel (e.g. the strategies a Pareto panel could not draw)
        "texts": [t.get_text() for t in ax.texts],
        "lines": [{"label": ln.get_label(), "x": _numbers(ln.get_xdata()),
                   "y": _numbers(ln.get_ydata())} for ln in ax.get_lines()],
        "bars": bars,
        "images": images,
        # line collections (contours): the vertices of every drawn path
        "collections": [[_numbers(v) for path in c.get_paths() for v in path.vertices]
                        for c in ax.collections],
    }


def _titles_inside(fig):
    """Whether the drawn titles (the figure's, the panels') lie within the figure's width and
    clear of each other (after savefig drew them)."""
    renderer = fig.canvas.get_renderer()
    panels = [ax.title.get_window_extent(renderer) for ax in fig.axes if ax.get_title()]
    boxes = panels + ([fig._suptitle.get_window_extent(renderer)]
                      if fig._suptitle is not None else [])
    inside = all(b.x0 >= 0 and b.x1 <= fig.bbox.width for b in boxes)
    apart = not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    return bool(inside and apart)


def _legends_inside(fig):
    """Whether every drawn legend (the figure's, the panels') lies within the saved figure."""
    renderer = fig.canvas.get_renderer()
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes
                                   if ax.get_legend() is not None]
    boxes = [lg.get_window_extent(renderer) for lg in legends]
    return bool(all(b.x0 >= 0 and b.y0 >= 0 and b.x1 <= fig.bbox.width
                    and b.y1 <= fig.bbox.height for b in boxes))


def figure_data(fig):
    """Everything drawn on fig, as plain JSON-ready values (NaN becomes null)."""
    return {
        "title": getattr(fig, "paradise_title", None)
        or (fig._suptitle.get_text() if fig._suptitle is not None else ""),
        "titles_inside": _titles_inside(fig),
        "legends_inside": _legends_inside(fig),
        "legend": [t for lg in fig.legends for t in _legend_texts(lg)],
        "axes": [_axes_data(ax) for ax in fig.axes if ax.get_label() != "<colorbar>"],
    }


def outputs(args, command_name):
    """[(option, path, kind)]: every file the run writes, the image(s) first, then --data."""
    path = args.output if args.output is not None else _default(args.file, command_name)
    stem, ext = os.path.splitext(path)
    if ext.lower() not in (".png", ".pdf"):
        raise InputError(f"-o '{path}': the output must end in .png or .pdf")
    out = [("-o", path, ext.lower()[1:])]
    if args.pdf and ext.lower() == ".png":
        out.append(("--pdf", stem + ".pdf", "pdf"))
    if args.data is not None:
        out.append(("--data", args.data, "json"))
    return out


def check_outputs(args, command_name):
    """InputError unless every output path may be written (see command.check_output): called
    first, before the file is read, and again by save."""
    planned = outputs(args, command_name)
    reads = [("the input file", args.file)]
    for option, path, kind in planned:
        others = [(o, p) for o, p, _ in planned if (o, p) != (option, path)]
        command.check_output(path, option, kind, reads, others)
    return planned


def save(fig, args, command_name, notes=None):
    """Writes the PNG (and the PDF with --pdf, or only the PDF for -o X.pdf) and the sidecar,
    all or none: each under a temporary name, renamed when every one is complete.

    notes: extra values for the sidecar (e.g. the contour level). Returns the paths written."""
    planned = check_outputs(args, command_name)
    with command.staged() as staging:
        for option, path, kind in planned:  # the sidecar last: it reads the drawn figure
            temp = staging.path(path, option)
            try:
                if kind == "json":
                    data = {**figure_data(fig), "notes": notes or {}}
                    with open(temp, "w", encoding="utf-8") as f:
                        json.dump(data, f, indent=1)
                else:
                    fig.savefig(temp, dpi=DPI, format=kind)
            except OSError as e:
                raise InputError(f"{option} '{path}': cannot write ({e.strerror})") from None
    pyplot().close(fig)
    for _, path, _ in planned:
        print(f"wrote {path}")
    return [p for o, p, _ in planned if o != "--data"]


def _default(file, command):
    stem = os.path.splitext(os.path.basename(file))[0]
    return f"{stem}-{command}.png"


def fit_width(text, size, inches):
    """text with each line wrapped to `inches` at font size `size` (long titles were cut off
    at the figure's sides)."""
    from matplotlib.font_manager import FontProperties  # as pyplot(): only with a figure
    points = FontProperties(size=size).get_size_in_points()
    # an average character of the sans-serif font is about 0.55 em wide; 0.6 leaves room
    # for runs of wide ones (digits, "m", "w")
    chars = max(20, int(inches * 72 / (0.6 * points)))
    return "\n".join(textwrap.fill(line, chars) for line in text.split("\n"))


def suptitle(fig, text):
    """The figure's title wrapped to its width; the sidecar keeps the text unwrapped.
    Returns the fraction of the figure's height below it (tight_layout's rect top: it
    leaves no room for a figure title)."""
    from matplotlib.font_manager import FontProperties  # as pyplot(): only with a figure
    size = pyplot().rcParams["figure.titlesize"]
    wrapped = fit_width(text, size, fig.get_figwidth())
    fig.suptitle(wrapped)
    fig.paradise_title = text
    points = FontProperties(size=size).get_size_in_points()
    height = (wrapped.count("\n") + 1) * 1.25 * points / 72 + 0.15  # inches, with the pad
    return max(0.5, 1 - height / fig.get_figheight())


def legend_below(fig, handles, labels, top, most_columns=7):
    """A figure legend centred under the panels, in as many columns as fit the figure's
    width, and tight_layout with its height kept free (a fixed 6% strip and 7 columns cut a
    one-panel figure's legend off at both sides and the bottom)."""
    renderer = fig.canvas.get_renderer()
    for ncol in range(min(len(labels), most_columns), 0, -1):
        legend = fig.legend(handles, labels, loc="lower center", ncol=ncol)
        box = legend.get_window_extent(renderer)
        if box.width <= 0.98 * fig.bbox.width or ncol == 1:
            break
        legend.remove()
    fig.tight_layout(rect=(0, min(0.5, box.height / fig.bbox.height + 0.01), 1, top))
    return legend


def axes_title(ax, text, **kwargs):
    """A panel's title wrapped to the panel's width (the title is centred on it, so the
    figure's width let it run past the edge or into the next panel's)."""
    size = kwargs.get("fontsize", pyplot().rcParams["axes.titlesize"])
    inches = ax.get_position().width * ax.figure.get_figwidth()
    ax.set_title(fit_width(text, size, inches), **kwargs)


def grid_of(n, width=6.0, height=4.2):
    """A figure with n panels in a near-square grid; returns (fig, list of n axes)."""
    cols = max(1, math.ceil(math.sqrt(n)))
    rows = math.ceil(n / cols)
    fig, axs = pyplot().subplots(rows, cols, figsize=(width * cols, height * rows + 0.8),
                                 squeeze=False)
    flat = [ax for row in axs for ax in row]
    for ax in flat[n:]:
        ax.remove()
    return fig, flat[:n]


def gpu_axis(ax, gpus, label="number of GPUs"):
    """A log2 GPU-count axis with the swept counts as plain tick labels."""
    ax.set_xscale("log", base=2)
    ticks = sorted({int(g) for g in gpus})
    ax.set_xticks(ticks)
    ax.set_xticklabels([str(g) for g in ticks])
    ax.minorticks_off()
    ax.set_xlabel(label)


def log_value_axis(ax, label):
    """A log y axis with plain numbers; minor ticks labelled when it spans under two decades."""
    from matplotlib.ticker import FuncFormatter, NullFormatter  # as pyplot(): with a figure
    ax.set_yscale("log")
    ax.set_ylabel(label)
    plain = FuncFormatter(lambda v, _: f"{v:g}")
    ax.yaxis.set_major_formatter(plain)
    lo, hi = ax.get_ylim()
    some = FuncFormatter(lambda v, _: f"{v:g}" if f"{v:g}"[0] in "25" else "")
    ax.yaxis.set_minor_formatter(some if hi / lo < 100 else NullFormatter())
