"""Experiments from Python: `treelab run` on a config (the same program, so the same bytes),
its results as DataFrames; the plug-in registries; datasets loaded by the C loaders."""
import json
import os
import subprocess
import sys

from . import _data, _lib
from ._lib import lib, safe_call
from ._params import learners


def version():
    return lib.tl_version().decode()


class RunResult:
    """What `treelab run` wrote into `out`: ``cells`` (metrics.csv, one row a fold),
    ``summary`` (summary.csv), ``tests`` (each model against the baseline: the corrected
    resampled t-test's p and verdict, from summary.csv), ``report_path`` (summary.md) and
    ``json`` (metrics.json as a dict)."""

    def __init__(self, out):
        import pandas as pd
        self.out = out
        # round_trip: the files hold each double's shortest exact form; pandas' default
        # parser can land one ulp away from it
        self.cells = pd.read_csv(os.path.join(out, "metrics.csv"), float_precision="round_trip")
        self.summary = pd.read_csv(os.path.join(out, "summary.csv"), float_precision="round_trip")
        cols = [c for c in ("dataset", "model", "p_vs_baseline", "vs_baseline")
                if c in self.summary.columns]
        self.tests = self.summary[cols].copy()
        self.report_path = os.path.join(out, "summary.md")
        path = os.path.join(out, "metrics.json")
        self.json = json.load(open(path, encoding="utf-8")) if os.path.exists(path) else None

    def __repr__(self):
        return "RunResult(%r: %d cells)" % (self.out, len(self.cells))


def run(config, out=None, jobs=1, resume=False, quiet=False, extra_args=()):
    """Run an experiment file as `treelab run CONFIG --out OUT --jobs JOBS` does (it is that
    program), progress on stderr as it shows it; a RunResult. A failure raises ValueError
    (the config or the data: exit status 1) or TreelabError (internal: 2) with its message."""
    args = [_lib.cli_path(), "run", os.fspath(config), "--jobs", str(int(jobs))]
    if out is not None:
        args += ["--out", os.fspath(out)]
    if resume:
        args.append("--resume")
    if quiet:
        args.append("--quiet")
    args += list(extra_args)
    # stderr (progress, warnings, the error) is passed on as it comes; its last line kept
    # for the exception
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         bufsize=1)
    last = ""
    for line in p.stderr:
        sys.stderr.write(line)
        sys.stderr.flush()
        last = line.strip() or last
    stdout = p.stdout.read()
    if p.wait() != 0:
        raise (ValueError if p.returncode == 1 else _lib.TreelabError)(
            last or "treelab run: exit status %d" % p.returncode)
    if out is None:  # the program's default: results/NAME under the current folder
        for line in stdout.splitlines():
            if line.startswith("report: "):
                out = os.path.dirname(line.split()[1])
    return RunResult(os.fspath(out))


def plugins():
    """Every learner and plug-in the C registries hold, with its parameter table, as a
    DataFrame: kind (learner, criterion, splitter, pruner, missing), name, summary, params."""
    import pandas as pd
    from ._params import _params_of
    rows = [{"kind": "learner", "name": name, "summary": s, "params": p}
            for name, (s, _, p) in learners().items()]
    for kind in ("criterion", "splitter", "pruner", "missing"):
        at = getattr(lib, "tl_%s_at" % kind)
        i = 0
        while at(i):
            t = at(i).contents
            rows.append({"kind": kind, "name": t.name.decode(),
                         "summary": (t.summary or b"").decode(),
                         "params": _params_of(t.params)})
            i += 1
    return pd.DataFrame(rows)


def load_dataset(path, target=None):
    """A data file (ARFF or CSV) read by treelab's own loaders, as a DataFrame: nominal
    attributes as pandas categoricals (their declared levels, unknown as NaN), numeric ones as
    float64 (NaN unknown), the target last; the rows' ARFF weights {w} in
    ``.attrs["sample_weight"]`` (None when every row weighs 1). Rows with an unknown target
    are dropped, as treelab does."""
    d = safe_call(lib.tl_dataset_load, os.fspath(path).encode(),
                  target.encode() if target else None)
    try:
        return _data.read(d)
    finally:
        lib.tl_dataset_free(d)
