#!/usr/bin/python3
"""PyTorch reference of soft-tree distillation (Frosst and Hinton 2017) in treelab's design.

  torch_soft_tree_distill.py grad OUT.txt
    The soft tree's objective on the fixed batch of torch_soft_tree_grad.py (every gate, the
    full, lopsided and oblivious trees, mixture and expected loss, balance penalty, L2, row
    weights) with soft targets q[r][c] = softmax_c(sin(0.9 r + 0.4 c + 0.2)) in place of the
    labels: mixture -sum_c q_c log Y_c, expected -sum_l P_l sum_c q_c log Q_lc. Lines
    "gate shape loss objective gradient...", read by tests/test_soft_tree_slots.c.
  torch_soft_tree_distill.py cv OUT.txt DATA.arff...
    The folds of torch_soft_tree_cv.py; on each, the teacher is scikit-learn's GaussianNB
    (treelab's gaussian_nb is the same model, tests/fixtures of test_gaussian_nb), its
    training-row probabilities raised to 1/T and normalised are the targets of a sigmoid,
    full, depth-4 PyTorch tree trained as in torch_soft_tree_cv.py; lines
    "distill NAME T ACCURACY FIDELITY", fidelity the share of test rows where the tree's and
    the teacher's classes agree.
"""
import math
import sys

import numpy as np
import torch
from sklearn.naive_bayes import GaussianNB

import torch_soft_tree_cv as cvmod
import torch_soft_tree_grad as gradmod


def soft_targets(B, K):
    q = torch.tensor([[math.sin(0.9 * r + 0.4 * c + 0.2) for c in range(K)] for r in range(B)],
                     dtype=torch.float64)
    return torch.softmax(q, dim=1)


def grad(out):
    out.write("# gate shape loss objective gradient... (scripts/peers/torch_soft_tree_distill.py"
              f" grad, torch {torch.__version__})\n")
    for gname in ("sigmoid", "smooth_step", "entmoid"):
        for tree in gradmod.trees():
            for loss in ("mixture", "expected"):
                q = soft_targets(gradmod.B, gradmod.K)
                obj, g = gradmod.case(gname, tree, False, loss, q)
                out.write(" ".join([gname, tree[0], loss, f"{obj:.17g}"] +
                                   [f"{v:.17g}" for v in g]) + "\n")


def fit_predict(Xtr, qtr, Xte, K, seed):
    """torch_soft_tree_cv.fit_predict (sigmoid, full) on soft targets."""
    DEPTH = cvmod.DEPTH
    torch.manual_seed(seed)
    mu, sd = Xtr.mean(0), Xtr.std(0, ddof=1)
    sd[sd == 0] = 1
    xt = torch.tensor((Xtr - mu) / sd)
    xe = torch.tensor((Xte - mu) / sd)
    qt = torch.tensor(qtr)
    lin = torch.nn.Linear(xt.shape[1], 2 ** DEPTH - 1).double()
    phi = torch.nn.Parameter(0.1 * torch.randn(2 ** DEPTH, K, dtype=torch.float64))
    opt = torch.optim.Adam(list(lin.parameters()) + [phi], lr=cvmod.LR)
    n = len(qt)
    for _ in range(cvmod.EPOCHS):
        perm = torch.randperm(n)
        for at in range(0, n, cvmod.BATCH):
            idx = perm[at:at + cvmod.BATCH]
            Y, pen = cvmod.forward("sigmoid", False, lin, phi, xt[idx])
            Y = torch.clamp(Y, min=2.2250738585072014e-308)
            loss = -(qt[idx] * torch.log(Y)).sum(1).mean() + pen
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        return cvmod.forward("sigmoid", False, lin, phi, xe)[0].argmax(1).numpy()


def cv(out, paths, temperatures=(1.0, 2.0)):
    out.write(f"# scripts/peers/torch_soft_tree_distill.py cv, torch {torch.__version__}\n")
    for path in paths:
        name = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        X, y, K = cvmod.read_arff(path)
        fold = cvmod.stratified_folds(y, 10, 1)
        out.write(f"folds {name} " + " ".join(map(str, fold)) + "\n")
        for T in temperatures:
            correct = agree = 0
            for k in range(10):
                tr, te = fold != k, fold == k
                nb = GaussianNB().fit(X[tr], y[tr])
                p = nb.predict_proba(X[tr]) ** (1 / T)
                p /= p.sum(1, keepdims=True)
                pred = fit_predict(X[tr], p, X[te], K, 100 + k)
                correct += int((pred == y[te]).sum())
                agree += int((pred == nb.predict(X[te])).sum())
            out.write(f"distill {name} {T:g} {correct / len(y):.4f} {agree / len(y):.4f}\n")
            out.flush()
            print(name, T, correct / len(y), agree / len(y), flush=True)


def main():
    torch.set_num_threads(1)
    with open(sys.argv[2], "w") as out:
        if sys.argv[1] == "grad":
            grad(out)
        else:
            cv(out, sys.argv[3:])


if __name__ == "__main__":
    main()
