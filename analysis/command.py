"""What every analysis command shares: its argument parser (the sweep file, the options that
choose values on the axes, the output options) and the error handling: bad input is one
line on stderr naming the file and what is missing, and exit code 2, never a traceback.
"""
import argparse
import os
import sys

from paradise_h5 import AXES, InputError

AXIS_HELP = {
    "model": "model names", "dataset": "dataset names", "resolution": "input sides",
    "system": "system names", "network_bandwidth_gbps": "network bandwidths",
    "network_latency_us": "network latencies", "strategy": "strategies",
    "precision": "precisions (fp32, tf32, mixed)", "optimizer": "optimizers",
    "zero_stage": "ZeRO stages", "recompute": "recomputation settings (true, false)",
    "gpus": "GPU counts", "batch": "global batch sizes",
}


def parser(description, output=True):
    """An ArgumentParser: FILE, one --AXIS option per grid axis, for plots -o, --pdf, --data."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("file", metavar="FILE.h5", help="the HDF5 file paradise sweep wrote")
    for axis in AXES:
        p.add_argument("--" + axis.replace("_", "-"), dest=axis, metavar="LIST",
                       help=f"only these {AXIS_HELP[axis]} (comma-separated)")
    if output:
        p.add_argument("-o", "--output", metavar="PATH",
                       help="image to write: PATH.png (default: FILE-COMMAND.png in the "
                            "current directory) or PATH.pdf")
        p.add_argument("--pdf", action="store_true",
                       help="also write the PDF next to the PNG (same name, .pdf)")
        p.add_argument("--data", metavar="JSON",
                       help="also write the plotted values, read back from the figure, as JSON")
    return p


def run(main):
    """Calls main(); InputError becomes 'PROGRAM: error: MESSAGE' and exit code 2."""
    program = os.path.basename(sys.argv[0])
    try:
        main()
    except InputError as e:
        print(f"{program}: error: {e}", file=sys.stderr)
        sys.exit(2)
    except BrokenPipeError:  # `summary.py ... | head`
        sys.exit(0)
