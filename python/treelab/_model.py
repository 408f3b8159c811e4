"""A fitted C model in Python: its handle (saved as text to pickle) and its tree as tree_ arrays."""
import ctypes
import os
import tempfile

import numpy as np

from . import _lib
from ._lib import lib, safe_call


class _Model:
    """A fitted tl_model handle, freed with the object."""

    def __init__(self, handle):
        self.handle = handle

    def __del__(self):
        if getattr(self, "handle", None):
            lib.tl_model_free(self.handle)
            self.handle = None

    def text(self):
        """The model file's content (treelab's own text format)."""
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "model.cfg")
            safe_call(lib.tl_model_save, self.handle, path.encode())
            with open(path, encoding="utf-8") as f:
                return f.read()

    @classmethod
    def from_text(cls, text):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "model.cfg")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            return cls(safe_call(lib.tl_model_load, path.encode()))

    def show(self, fmt):
        n = ctypes.c_size_t()
        ptr = safe_call(lib.tl_model_show_text, self.handle, fmt, ctypes.byref(n))
        return _lib.text_of(ptr, n.value)


class Tree:
    """A fitted hard tree as scikit-learn's ``tree_`` arrays, nodes numbered depth first
    (a node, then its first child's subtree, then the next...). Leaves have feature and
    threshold -2 (scikit-learn's TREE_UNDEFINED) and children -1. ``children[i]`` lists every
    child (multiway splits); children_right is -2 for a node with more than two. ``value``
    holds the weighted class counts (classification) or the prediction (regression), shaped
    (node_count, 1, n_classes or 1); ``kind`` is 0 numeric, 1 multiway, 2 subset, -1 leaf."""

    def __init__(self, tree_ptr, width, regression):
        n = ctypes.cast(tree_ptr, ctypes.POINTER(ctypes.c_size_t))[0]  # tl_tree.n_nodes
        attr = np.empty(n, np.int32)
        kind = np.empty(n, np.int32)
        thr = np.empty(n)
        first = np.empty(n, np.int64)
        nch = np.empty(n, np.int64)
        weight = np.empty(n)
        value = np.empty((n, width))

        def p(a, t):
            return a.ctypes.data_as(ctypes.POINTER(t))
        lib.tl_tree_arrays(tree_ptr, p(attr, ctypes.c_int), p(kind, ctypes.c_int),
                           p(thr, ctypes.c_double), p(first, ctypes.c_int64),
                           p(nch, ctypes.c_int64), p(weight, ctypes.c_double),
                           p(value, ctypes.c_double))
        order, stack = [], [0]  # depth-first renumbering
        while stack:
            i = stack.pop()
            order.append(i)
            stack.extend(range(first[i] + nch[i] - 1, first[i] - 1, -1) if nch[i] else ())
        new = np.empty(n, np.int64)
        new[order] = np.arange(len(order))
        order = np.asarray(order, dtype=np.int64)
        self.node_count = len(order)
        self.kind = kind[order]
        leaf = self.kind < 0
        self.feature = np.where(leaf, -2, attr[order]).astype(np.int64)
        self.threshold = np.where(leaf, -2.0, thr[order])
        self.children = [new[first[i]:first[i] + nch[i]] if nch[i] else np.empty(0, np.int64)
                         for i in order]
        self.children_left = np.array([c[0] if len(c) else -1 for c in self.children],
                                      dtype=np.int64)
        self.children_right = np.array([c[1] if len(c) == 2 else (-1 if not len(c) else -2)
                                        for c in self.children], dtype=np.int64)
        self.weighted_n_node_samples = weight[order]
        self.value = value[order].reshape(self.node_count, 1, width)
        self.n_outputs = 1
        self.n_leaves = int(leaf.sum())
        depth = np.zeros(self.node_count, np.int64)
        for i, c in enumerate(self.children):
            depth[c] = depth[i] + 1
        self.max_depth = int(depth.max())
