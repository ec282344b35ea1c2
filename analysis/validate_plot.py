#!/usr/bin/python3
"""validate_plot.py VALIDATE.json [-o OUT.png] [--pdf]: projected vs. measured time of the runs
`paradise validate --format json` compared (ParaDL's Figure 1 style): log-log, one marker
series per strategy, the y = x line and the ±threshold band, anomalies ringed in red.

Rows without a projection (status error or invalid) are left out and counted in the title.
"""
import argparse
import json
import math

from matplotlib.ticker import FuncFormatter

import command
from figure_output import axes_title, plt, save, strategy_styles
from paradise_h5 import InputError


def load(path):
    """The validate JSON: (compared rows, all rows, threshold, summary, variant); InputError if
    it is not paradise validate's output."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise InputError(f"{path}: cannot read ({e.strerror})") from None
    except ValueError as e:
        raise InputError(f"{path}: not JSON ({e}); expected paradise validate --format json") \
            from None
    if not isinstance(doc, dict) or "rows" not in doc or "summary" not in doc:
        raise InputError(f"{path}: no 'rows' and 'summary' keys: expected the output of "
                         "paradise validate --format json")
    rows = doc["rows"]
    for i, r in enumerate(rows):
        for key in ("strategy", "projected_s", "measured_s", "anomaly"):
            if key not in r:
                raise InputError(f"{path}: row {i + 1} has no '{key}'")
    compared = [r for r in rows if r["projected_s"] is not None and r["measured_s"] is not None
                and r["projected_s"] > 0 and r["measured_s"] > 0]
    if not compared:
        raise InputError(f"{path}: no row with both a projection and a measurement")
    return compared, rows, float(doc.get("threshold", 0.25)), doc["summary"], doc.get("variant")


def plot(rows, total, threshold, summary, source):
    strategies = list(dict.fromkeys(r["strategy"] for r in rows))
    styles = strategy_styles(strategies)
    fig, ax = plt.subplots(figsize=(7.5, 6.5))
    lo = min(min(r["measured_s"], r["projected_s"]) for r in rows) / 1.5
    hi = max(max(r["measured_s"], r["projected_s"]) for r in rows) * 1.5
    x = [lo, hi]
    ax.fill_between(x, [v * (1 - threshold) for v in x], [v * (1 + threshold) for v in x],
                    color="0.85", zorder=0)
    pct = f"{100 * threshold:g}%"
    ax.plot(x, x, color="black", lw=1, label="projected = measured")
    ax.plot(x, [v * (1 + threshold) for v in x], color="0.5", ls="--", lw=0.8,
            label=f"+{pct} (anomaly threshold)")
    ax.plot(x, [v * (1 - threshold) for v in x], color="0.5", ls="--", lw=0.8,
            label=f"-{pct} (anomaly threshold)")
    for s in strategies:
        mine = [r for r in rows if r["strategy"] == s]
        st = styles[s]
        acc = summary.get("per_strategy", {}).get(s)
        label = s + (f" (mean accuracy {acc:.3f})" if acc is not None else "")
        ax.plot([r["measured_s"] for r in mine], [r["projected_s"] for r in mine], ls="none",
                marker=st["marker"], color=st["color"], ms=7, mec="black", mew=0.5, label=label)
    bad = [r for r in rows if r["anomaly"]]
    if bad:
        ax.plot([r["measured_s"] for r in bad], [r["projected_s"] for r in bad], ls="none",
                marker="o", ms=14, mfc="none", mec="red", mew=1.5, label="anomaly")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_aspect("equal")
    plain = FuncFormatter(lambda v, _: f"{v:g}")
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(plain)
        axis.set_minor_formatter(plain if hi / lo < 30 else FuncFormatter(lambda v, _: ""))
    bases = {r.get("basis") for r in rows}
    per = f" per {bases.pop()}" if len(bases) == 1 and None not in bases else ""
    ax.set_xlabel(f"measured time{per} (s)")
    ax.set_ylabel(f"projected time{per} (s)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    mean = summary.get("mean_accuracy")
    left_out = total - len(rows)
    axes_title(ax, "Projected vs. measured: " + source +
               (f"\nmean accuracy {mean:.3f} over {len(rows)} runs" if mean is not None else "")
               + (f"; {left_out} not compared" if left_out else ""), fontsize=10)
    fig.tight_layout()
    return fig


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("file", metavar="VALIDATE.json", help="paradise validate --format json output")
    p.add_argument("--threshold", type=float,
                   help="band half-width as a fraction (default: the file's threshold)")
    p.add_argument("-o", "--output", metavar="PATH",
                   help="PATH.png (default FILE-validate.png in the current directory) or PATH.pdf")
    p.add_argument("--pdf", action="store_true", help="also write the PDF next to the PNG")
    p.add_argument("--data", metavar="JSON", help="also write the plotted values as JSON")
    args = p.parse_args()
    rows, all_rows, threshold, summary, variant = load(args.file)
    if args.threshold is not None:
        if not (args.threshold > 0 and math.isfinite(args.threshold)):
            raise InputError(f"--threshold {args.threshold}: must be > 0")
        threshold = args.threshold
    source = f"{len(all_rows)} runs" + (f", {variant} model" if variant else "")
    fig = plot(rows, len(all_rows), threshold, summary, source)
    save(fig, args, "validate", notes={"threshold": threshold})


if __name__ == "__main__":
    command.run(main)
