"""What every analysis command shares: its argument parser (the sweep file, the options that
choose values on the axes, the output options), the checks of the files it writes, and the
error handling: bad input is one line on stderr naming the file and what is missing, and
exit code 2, never a traceback.

Output files: every path a command writes is checked before any work (check_output): not a
file the run reads, not another output of the same run, not a directory, in a folder that
exists and can be written, and, where a non-empty file is there already, one of the kind
written (a PNG for a .png, JSON for --data, ...), so that a mistyped path never replaces a
sweep file or anything else the user did not mean. Writing goes through Staging: each file
is written beside its final path under a temporary name and renamed when all are written,
so a failure (a full disk, `ulimit -f`, Ctrl-C) leaves neither a half-written file nor some
outputs of the run without the others.
"""
import argparse
import contextlib
import errno
import os
import stat
import sys
import tempfile

from paradise_h5 import AXES, InputError

AXIS_HELP = {
    "model": "model names", "dataset": "dataset names", "resolution": "input sides",
    "system": "system names", "network_bandwidth_gbps": "network bandwidths",
    "network_latency_us": "network latencies",
    "input_cpu_cores_per_node": "CPU cores per node (input pipeline)",
    "input_node_read_GBps": "storage read rates per node (GB/s)",
    "input_filesystem_GBps": "file-system aggregate read rates (GB/s)", "strategy": "strategies",
    "precision": "precisions (fp32, tf32, mixed)", "optimizer": "optimizers",
    "zero_stage": "ZeRO stages", "recompute": "recomputation settings (true, false)",
    "implementation": "implementation profiles",
    "spatial_split": "spatial splits (w, hw, all, auto)",
    "p2": "group sizes p2 (counts or auto)", "segments": "micro-batch counts (counts or auto)",
    "gpus": "GPU counts", "batch": "global batch sizes",
}


def parser(description, output=True):
    """An ArgumentParser: FILE, one --AXIS option per grid axis, for plots -o, --pdf, --data."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("file", metavar="FILE.h5", help="the HDF5 file paradise sweep wrote")
    for axis in AXES:
        p.add_argument("--" + axis.replace("_", "-"), dest=axis, metavar="LIST",
                       help=f"only these {AXIS_HELP[axis]} (comma-separated; text compared "
                            "ignoring case)")
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
    """Calls main(); InputError becomes 'PROGRAM: error: MESSAGE' and exit code 2, and so does
    a failed write to standard output (`> /dev/full`), which Python reported as a traceback
    or, at exit, as 'Exception ignored'."""
    program = os.path.basename(sys.argv[0])
    try:
        main()
        sys.stdout.flush()  # here, not at exit: a full disk is said like any other error
    except InputError as e:
        print(f"{program}: error: {e}", file=sys.stderr)
        sys.exit(2)
    except BrokenPipeError:  # `summary.py ... | head`: the reader has what it wanted
        _drop_stdout()
        sys.exit(0)
    except OSError as e:
        if not _is_stdout_error(e):
            raise  # a file's error is an InputError where it is written; anything else is ours
        _drop_stdout()
        print(f"{program}: error: cannot write to standard output ({e.strerror})",
              file=sys.stderr)
        sys.exit(2)


def _is_stdout_error(error):
    """Whether an OSError came from writing standard output (no file name: print's error)."""
    return error.filename is None and error.errno in (errno.ENOSPC, errno.EIO, errno.EFBIG,
                                                      errno.EDQUOT, errno.EBADF)


def _drop_stdout():
    """Points stdout at /dev/null: the interpreter flushes it at exit and would report the
    same failed write again, as 'Exception ignored ...'."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


# What a file a command may replace must look like, by the kind it writes: a previous output
# of the same kind (a re-run) is replaced, anything else is refused.
HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"
KIND_NAMES = {"png": "a PNG image", "pdf": "a PDF file", "json": "a JSON file",
              "csv": "a CSV file", "model": "a paradise model file"}
SNIFF_BYTES = 4096  # enough to tell a kind apart; a file is never read whole to check it


def read_bounded(path, most, shown, expected):
    """The bytes of path, at most `most` (as paradise bounds what it reads: /dev/zero was read
    forever); InputError "SHOWN: cannot read (...)" or "SHOWN: larger than N MiB; EXPECTED"."""
    try:
        with open(path, "rb") as f:
            raw = f.read(most + 1)
    except OSError as e:
        raise InputError(f"{shown}: cannot read ({e.strerror})") from None
    if len(raw) > most:
        raise InputError(f"{shown}: larger than {most >> 20} MiB; {expected}")
    return raw


def _text(head):
    """head as text, or None for binary data (a NUL byte, or not UTF-8 before the cut)."""
    if b"\0" in head:
        return None
    try:
        return head.decode("utf-8")
    except UnicodeDecodeError as e:
        # a multi-byte character cut by SNIFF_BYTES is still text
        return head[:e.start].decode("utf-8") if e.start >= len(head) - 3 else None


def _is_kind(kind, head):
    """Whether head (the first bytes of an existing file) is a file of this kind."""
    if kind == "png":
        return head.startswith(b"\x89PNG\r\n\x1a\n")
    if kind == "pdf":
        return head.startswith(b"%PDF-")
    text = _text(head)
    if text is None:
        return False
    text = text.lstrip("\ufeff \t\r\n")
    if kind == "json":
        return text[:1] in ("{", "[")
    if kind == "model":  # its first statement that is no '#' comment names the model
        words = [ln.split() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
        return not words or words[0][0] == "model"
    # csv: text whose first line that is no '#' comment has a comma (a header or a row)
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    return not lines or "," in lines[0]


def _looks_like(head):
    """What an existing file seems to be, for the message."""
    if HDF5_SIGNATURE in head[:2048]:  # the signature may follow a user block
        return "an HDF5 file"
    for kind in ("png", "pdf"):
        if _is_kind(kind, head):
            return KIND_NAMES[kind]
    return "binary data" if _text(head) is None else "text"


def same_file(a, b):
    """Whether two paths name one file (also through links; for paths not there yet, by name)."""
    try:
        if os.path.exists(a) and os.path.exists(b):
            return os.path.samefile(a, b)
    except OSError:
        pass
    return os.path.realpath(a) == os.path.realpath(b)


def check_output(path, option, kind, inputs=(), others=()):
    """InputError unless path may receive this run's output of kind ('png', 'pdf', 'json',
    'csv'). inputs: [(what, path)] of files the run reads; others: [(option, path)] of the
    run's other outputs. Called before any work, so that nothing is computed (or written)
    for an output that is refused."""
    shown = f"{option} '{path}'"
    if not path:  # an empty value was taken for no option at all
        raise InputError(f"{option} '': an empty path")
    for what, source in inputs:  # writing it would destroy what the run reads
        if source and same_file(path, source):
            raise InputError(f"{shown}: is {what}, which this run reads; choose another path")
    for other, target in others:  # the second write would replace the first
        if target and same_file(path, target):
            raise InputError(f"{shown}: is also the {other} output of this run; choose "
                             "another path")
    if os.path.isdir(path):
        raise InputError(f"{shown}: is a directory")
    folder = os.path.dirname(os.path.realpath(path))  # a link's target is what is written
    if not os.path.isdir(folder):
        raise InputError(f"{shown}: no such directory '{folder}'")
    if not os.path.exists(path):
        if not os.access(folder, os.W_OK | os.X_OK):  # the file is created there
            raise InputError(f"{shown}: cannot write in '{folder}' (permission denied)")
        return
    _check_existing(path, shown, kind, folder)


def _check_existing(path, shown, kind, folder):
    """An existing output path: a device (/dev/stdout) is written in place; a regular file is
    replaced only when it is writable and empty or of the kind written."""
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        if not os.access(path, os.W_OK):
            raise InputError(f"{shown}: cannot write (permission denied)")
        return
    if not os.access(path, os.W_OK):  # read-only: the user protected it
        raise InputError(f"{shown}: the file is read-only; it is not replaced")
    if not os.access(folder, os.W_OK | os.X_OK):  # the new file is renamed over it there
        raise InputError(f"{shown}: cannot write in '{folder}' (permission denied)")
    if info.st_size == 0:
        return
    try:
        with open(path, "rb") as f:
            head = f.read(SNIFF_BYTES)
    except OSError as e:
        raise InputError(f"{shown}: cannot read the existing file ({e.strerror})") from None
    if not _is_kind(kind, head):
        raise InputError(f"{shown}: the file there is {_looks_like(head)}, not "
                         f"{KIND_NAMES[kind]} from an earlier run; it is not replaced "
                         "(remove it or choose another path)")


class Staging:
    """Files of one run written under temporary names beside their paths (`path`), renamed
    onto them together (`commit`) once every one is complete; `discard` removes what is left
    of a run that failed. A device (/dev/stdout) is written in place."""

    def __init__(self):
        self.files = []  # (temporary path, final path, option)
        self.committed = []

    def path(self, final, option):
        """Where to write `final`: a new temporary file in its folder (or final, a device).
        A symbolic link is followed: its target is replaced, as open() wrote through it."""
        if os.path.exists(final) and not os.path.isfile(final):
            return final
        shown, final = final, os.path.realpath(final)
        folder = os.path.dirname(final)
        try:
            fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(final)}.",
                                        suffix=".tmp")
        except OSError as e:
            raise InputError(f"{option} '{shown}': cannot write ({e.strerror})") from None
        os.close(fd)
        self.files.append((temp, final, option))
        return temp

    def commit(self):
        """Renames every temporary file onto its path, with the mode the file had (or a new
        file's: 0666 less the umask)."""
        for temp, final, option in self.files:
            try:
                os.chmod(temp, _mode_for(final))
                os.replace(temp, final)
            except OSError as e:
                raise InputError(f"{option} '{final}': cannot write ({e.strerror})") from None
            self.committed.append(final)
        self.files = []

    def discard(self):
        """Removes the temporary files left, and on a failed commit the files renamed."""
        for temp, _, _ in self.files:
            with contextlib.suppress(OSError):
                os.remove(temp)
        for final in self.committed:
            with contextlib.suppress(OSError):
                os.remove(final)
        self.files = []


def _mode_for(final):
    """The permission bits the written file gets: those of the file it replaces, else the
    usual 0666 less the umask (mkstemp made the temporary file 0600)."""
    if os.path.isfile(final):
        return stat.S_IMODE(os.stat(final).st_mode)
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextlib.contextmanager
def staged():
    """A Staging whose files are committed when the block ends normally and removed when it
    raises (an OSError while writing becomes the InputError of the file's own writer)."""
    staging = Staging()
    try:
        yield staging
        staging.commit()
        staging.committed = []  # done: nothing to undo
    finally:
        staging.discard()
