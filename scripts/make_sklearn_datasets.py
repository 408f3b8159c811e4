#!/usr/bin/python3
"""Write scikit-learn's bundled breast_cancer, wine and digits sets as ARFF, class last.

Run with Debian's /usr/bin/python3 (python3-sklearn); the data ship with the package, nothing
is downloaded. Values are written with repr() so they read back as the same float64.
Usage: scripts/make_sklearn_datasets.py [OUTDIR]   (default experiments/datasets)
"""
import os
import re
import sys

from sklearn import datasets


def quote(name):
    """ARFF-quote a name when it holds anything but safe characters."""
    if re.fullmatch(r"[A-Za-z0-9_.\-]+", name):
        return name
    return "'" + name.replace("\\", "\\\\").replace("'", "\\'") + "'"


def write_arff(path, relation, comment, names, X, y, classes):
    with open(path, "w", encoding="ascii", newline="\n") as f:
        for line in comment:
            f.write("% " + line + "\n")
        f.write("@relation " + quote(relation) + "\n\n")
        for n in names:
            f.write("@attribute " + quote(n) + " numeric\n")
        f.write("@attribute class {" + ",".join(quote(c) for c in classes) + "}\n\n@data\n")
        for row, t in zip(X, y):
            f.write(",".join(repr(float(v)) for v in row) + "," + quote(classes[int(t)]) + "\n")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "experiments/datasets"
    import sklearn
    src = "from scikit-learn %s (Debian python3-sklearn), written by scripts/make_sklearn_datasets.py" % sklearn.__version__

    b = datasets.load_breast_cancer()
    write_arff(os.path.join(out, "breast_cancer.arff"), "breast_cancer",
               ["Breast Cancer Wisconsin (Diagnostic), " + src,
                "class order follows sklearn's target codes 0, 1"],
               list(b.feature_names), b.data, b.target, list(b.target_names))

    w = datasets.load_wine()
    write_arff(os.path.join(out, "wine.arff"), "wine",
               ["Wine recognition (UCI), " + src], list(w.feature_names), w.data, w.target,
               list(w.target_names))

    d = datasets.load_digits()
    write_arff(os.path.join(out, "digits.arff"), "digits",
               ["Optical recognition of handwritten digits, 8x8 (UCI), " + src],
               list(d.feature_names), d.data, d.target, [str(c) for c in d.target_names])


if __name__ == "__main__":
    main()
