"""What tools/paradl-table8 and tools/paradl-logs share: paradise run from ParaDL's model
folder (tests/data/paradl/model, where the rows' .net file is), validate's summary and
calibrate's two accuracy figures."""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = os.path.join(ROOT, "tests", "data", "paradl", "model")  # the rows name ParaDL's .net
DEFAULT_PARADISE = os.path.join(ROOT, "build", "ci", "src", "app", "paradise")


def run(paradise, args):
    done = subprocess.run([paradise, *args], cwd=MODELS, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{os.path.basename(sys.argv[0])}: paradise {' '.join(args)} failed:\n"
                 f"{done.stderr}")
    return done.stdout


def validate(paradise, table, strategies, *options):
    """(mean accuracy, accuracy per strategy in `strategies`' order, rank tau, rows)."""
    out = json.loads(run(paradise, ["validate", "--measured", table, "--format", "json",
                                    *options]))
    summary = out["summary"]
    return (summary["mean_accuracy"], [summary["per_strategy"].get(s) for s in strategies],
            summary["rank_agreement"]["kendall_tau"], out["rows"])


def calibrate(paradise, table, out, base="chainermnx"):
    """(fitted mean accuracy, held-out mean accuracy or None, calibrate's text)."""
    text = run(paradise, ["calibrate", "--measured", table, "--implementation", base,
                          "-o", out])
    # one GPU count alone has nothing to hold out: "-"
    m = re.search(r"fitted (-?[0-9.]+), held out .*? (-?[0-9.]+|-)\s*$", text, re.M)
    if not m:
        sys.exit(f"{os.path.basename(sys.argv[0])}: no accuracy line in calibrate's output:\n"
                 f"{text}")
    return float(m.group(1)), None if m.group(2) == "-" else float(m.group(2)), text


def line(name, mean, per=None, tau=None):
    """One row of the markdown table: projection, mean accuracy, per strategy, rank tau."""
    per_text = ", ".join(f"{a:.3f}" if a is not None else "-" for a in per) if per else ""
    tau_text = f"{tau:.3f}" if tau is not None else ""
    mean_text = f"{mean:.3f}" if mean is not None else "-"
    print(f"| {name} | {mean_text} | {per_text} | {tau_text} |")
