#!/usr/bin/python3
"""validate_plot.py VALIDATE.json [-o OUT.png] [--pdf]: projected vs. measured time of the runs
`paradise validate --format json` compared (ParaDL's Figure 1 style): log-log, one marker
series per strategy, the y = x line and the ±threshold band, anomalies ringed in red.

Rows without a projection (status error or invalid) are left out and counted in the title.
"""
import argparse
import json
import math

import command
from figure_output import axes_title, check_outputs, pyplot, save, strategy_styles
from paradise_h5 import InputError


MOST_BYTES = 64 << 20  # as paradise bounds what it reads: /dev/zero was read forever
MOST_SECONDS = 1e100  # a time beyond is garbage, and 1.5 times it overflowed the axis limits
# The fields read, by where they are: what each must hold (None: null allowed)
# (anomaly: paradise validate's {part, cause, hint} or null; true/false also read)
MOST_THRESHOLD = 10  # a relative error of 1,000%, as paradise validate --threshold allows
ROW_FIELDS = {"strategy": "text", "projected_s": "number", "measured_s": "number",
              "anomaly": "anomaly"}


def read_json(path):
    """The JSON document in path; InputError if it cannot be read, is over MOST_BYTES, is not
    JSON or is nested deeper than Python's parser goes."""
    raw = command.read_bounded(path, MOST_BYTES, path, "expected paradise validate --format json")
    try:
        return json.loads(raw)
    except ValueError as e:  # also a UnicodeDecodeError
        raise InputError(f"{path}: not JSON ({e}); expected paradise validate --format json") \
            from None
    except RecursionError:  # [[[[...]]]]: paradise's output is three levels deep
        raise InputError(f"{path}: JSON nested too deeply; expected paradise validate "
                         "--format json") from None


def _is_number(v):
    """A finite JSON number (not true/false; 1e400 reads as inf)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    try:
        return math.isfinite(v)
    except OverflowError:  # an integer of 400 digits
        return False


# kind: (test, how the message says it)
KINDS = {"text": (lambda v: isinstance(v, str), "text"),
         "number": (_is_number, "a finite number"),
         "anomaly": (lambda v: isinstance(v, (bool, dict)), "an object, true or false"),
         "object": (lambda v: isinstance(v, dict), "an object"),
         "list": (lambda v: isinstance(v, list), "a list")}


def _expect(v, kind, where, path, null=True):
    """InputError naming the field unless v is of kind (or null where allowed)."""
    test, expected = KINDS[kind]
    if (v is None and null) or (v is not None and test(v)):
        return v
    shown = json.dumps(v)
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    raise InputError(f"{path}: {where} is {shown}, expected {expected}"
                     + (" or null" if null else ""))


def check_document(doc, path):
    """InputError naming the field (and row) of the first value of a wrong type: the fields
    the plot reads, as paradise validate writes them."""
    if not isinstance(doc, dict) or "rows" not in doc or "summary" not in doc:
        raise InputError(f"{path}: no 'rows' and 'summary' keys: expected the output of "
                         "paradise validate --format json")
    _expect(doc["rows"], "list", "'rows'", path, null=False)
    for i, r in enumerate(doc["rows"], start=1):
        _expect(r, "object", f"row {i}", path, null=False)
        for key, kind in ROW_FIELDS.items():
            if key not in r:
                raise InputError(f"{path}: row {i} has no '{key}'")
            _expect(r[key], kind, f"row {i}: '{key}'", path, null=key != "strategy")
            if kind == "number" and r[key] is not None and abs(r[key]) > MOST_SECONDS:
                raise InputError(f"{path}: row {i}: '{key}' is {r[key]:g}, more than "
                                 f"{MOST_SECONDS:g} s (implausible)")
            if key in ("projected_s", "measured_s") and r[key] is not None and r[key] <= 0:
                raise InputError(f"{path}: row {i}: '{key}' is {r[key]:g}, expected seconds > 0")
        _expect(r.get("basis"), "text", f"row {i}: 'basis'", path)
    summary = _expect(doc["summary"], "object", "'summary'", path, null=False)
    _expect(summary.get("mean_accuracy"), "number", "'summary.mean_accuracy'", path)
    per = _expect(summary.get("per_strategy", {}), "object", "'summary.per_strategy'", path,
                  null=False)
    for name, value in per.items():
        _expect(value, "number", f"'summary.per_strategy.{name}'", path)
    if "threshold" in doc:
        t = _expect(doc["threshold"], "number", "'threshold'", path, null=False)
        if t <= 0:
            raise InputError(f"{path}: 'threshold' is {t:g}, expected a number > 0")
    _expect(doc.get("variant"), "text", "'variant'", path)


def load(path):
    """The validate JSON: (compared rows, all rows, threshold, summary, variant); InputError if
    it is not paradise validate's output."""
    doc = read_json(path)
    check_document(doc, path)
    rows = doc["rows"]
    compared = [r for r in rows if r["projected_s"] is not None and r["measured_s"] is not None
                and r["projected_s"] > 0 and r["measured_s"] > 0]
    if not compared:
        raise InputError(f"{path}: no row with both a projection and a measurement")
    return compared, rows, float(doc.get("threshold", 0.25)), doc["summary"], doc.get("variant")


def plot(rows, total, threshold, summary, source):
    strategies = list(dict.fromkeys(r["strategy"] for r in rows))
    styles = strategy_styles(strategies)
    from matplotlib.ticker import FuncFormatter  # as pyplot(): only with a figure
    fig, ax = pyplot().subplots(figsize=(7.5, 6.5))
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
    check_outputs(args, "validate")  # before any work: a refused path wastes none
    if args.threshold is not None and not 0 < args.threshold <= MOST_THRESHOLD:
        raise InputError(f"--threshold {args.threshold:g}: expected a number > 0 and at most "
                         f"{MOST_THRESHOLD:g}")
    rows, all_rows, threshold, summary, variant = load(args.file)
    if args.threshold is not None:
        threshold = args.threshold
    elif threshold > MOST_THRESHOLD:  # the file's (an older paradise validate took any)
        raise InputError(f"{args.file}: 'threshold' is {threshold:g}, more than "
                         f"{MOST_THRESHOLD:g} (a band of 1,000%): give --threshold")
    source = f"{len(all_rows)} runs" + (f", {variant} model" if variant else "")
    fig = plot(rows, len(all_rows), threshold, summary, source)
    save(fig, args, "validate", notes={"threshold": threshold})


if __name__ == "__main__":
    command.run(main)
