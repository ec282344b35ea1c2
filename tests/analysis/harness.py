"""Shared by the analysis tests: the paradise binary (--paradise PATH or $PARADISE) and a
scratch directory per test module, removed when the module's tests are done."""
import os
import shutil
import sys
import tempfile


class Scratch:
    """The binary and the module's scratch directory (`work`, set by `open`)."""

    def __init__(self, prefix):
        self.prefix = prefix
        self.paradise = os.environ.get("PARADISE", "")
        self.work = ""

    def take_argv(self):
        """Removes `--paradise PATH` from sys.argv (before unittest.main reads it)."""
        if "--paradise" in sys.argv:
            i = sys.argv.index("--paradise")
            self.paradise = os.path.abspath(sys.argv[i + 1])
            del sys.argv[i:i + 2]

    def open(self):
        """setUpModule: checks the binary and makes the scratch directory."""
        if not self.paradise or not os.access(self.paradise, os.X_OK):
            raise RuntimeError("no paradise binary: pass --paradise PATH or set PARADISE")
        self.work = tempfile.mkdtemp(prefix=self.prefix)

    def close(self):
        """tearDownModule: removes the scratch directory."""
        if self.work:
            shutil.rmtree(self.work, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.work, name)
