"""docs/python.md's example runs as written: its ```python blocks, in order, in one namespace,
from the repository root (as a notebook would)."""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_docs_example_runs(monkeypatch, capsys):
    with open(os.path.join(ROOT, "docs", "python.md"), encoding="utf-8") as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
    assert len(blocks) >= 4
    monkeypatch.chdir(ROOT)
    ns = {}
    for code in blocks:
        exec(compile(code, "docs/python.md", "exec"), ns)
    out = capsys.readouterr().out
    assert "physician-fee-freeze" in out and "accuracy" in out
    assert ns["trace"].chosen.sum() == 1
    assert ns["res"].cells.shape[0] > 0
    assert os.path.exists(ns["png"]) or os.path.exists(ns["png"][:-4] + ".gp")
