"""The tests import the package from this checkout when it is not installed."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import treelab  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.join(ROOT, "python"))
