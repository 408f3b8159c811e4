#!/usr/bin/python3
"""PyTorch soft trees of the same design as treelab's soft_tree gates and shapes, 10-fold CV.

For each data set, stratified 10-fold assignments (numpy seed 1) and, for each variant (gate x
shape), the accuracy of a PyTorch tree trained on every fold with treelab's defaults: depth 4
(`depth = auto` for these sets), inputs standardised with the training fold's mean and sd,
W and b uniform in +-1/sqrt(D) (nn.Linear's default), leaf logits normal with sd 0.1, mixture
cross-entropy plus the balance penalty (lambda 0.001), Adam lr 0.01, batch 32, 100 epochs, no
early stopping, predictions by the mixture. The gates as in torch_soft_tree_grad.py.

Linear leaves (`linear` first: tests/fixtures/soft_tree/linear_cv.txt): leaf l's logits are
phi_l + A_l x, A starting at 0 (treelab's leaf = linear), the variants LINEAR_VARIANTS.

The sparse shape (`sparse` first: tests/fixtures/soft_tree/sparse_cv.txt): the full tree with
L1 * ||W||_1 (L1 = 0.01, treelab's default shape.l1) in the loss, and after each Adam step
every split weight soft-thresholded by lr * L1 (treelab's proximal step), the gates of
SPARSE_VARIANTS.

  [SEEDS=N] [ONLY=GATE:SHAPE] torch_soft_tree_cv.py [linear | sparse] OUT.txt DATA.arff...
      SEEDS: each variant's accuracy is the mean over N seeds of the fits (seed 100 + fold +
      1000 s; N = 1 is the seed every fixture was recorded with), ONLY: that variant alone
  torch_soft_tree_cv.py bench ROWS GATE SHAPE LEAF BATCH EPOCHS
      (scripts/bench/soft_tree_variants.sh) print the CPU seconds per epoch of one fit on the
      first ROWS rows of torch_soft_tree.py's synthetic data (LEAF constant or linear)
Writes, per data set, a line "folds NAME f0 f1 ..." (each row's fold) and, per variant, a line
"cv NAME GATE SHAPE ACCURACY"; tests/test_soft_tree_slots.c (test_soft_tree_leaf.c for linear
leaves) refits treelab on the same folds.
"""
import os
import sys

import numpy as np
import torch

from torch_soft_tree_grad import gate

VARIANTS = [("smooth_step", "full"), ("entmoid", "full"), ("sigmoid", "oblivious"),
            ("smooth_step", "oblivious")]
LINEAR_VARIANTS = [("sigmoid", "full"), ("smooth_step", "full")]
SPARSE_VARIANTS = [("sigmoid", "sparse"), ("smooth_step", "sparse")]
L1 = 0.01
DEPTH, EPOCHS, BATCH, LR, LAMBDA = 4, 100, 32, 0.01, 1e-3


def read_arff(path):
    X, y, classes = [], [], None
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("%"):
            continue
        if line.lower().startswith("@attribute") and "{" in line:
            classes = [c.strip().strip("'") for c in line[line.index("{") + 1:line.index("}")]
                       .split(",")]
        if line.startswith("@"):
            continue
        v = line.split(",")
        X.append([float(t) for t in v[:-1]])
        y.append(classes.index(v[-1].strip().strip("'")))
    return np.array(X), np.array(y), len(classes)


def stratified_folds(y, k, seed):
    rng = np.random.default_rng(seed)
    fold = np.empty(len(y), dtype=int)
    for c in np.unique(y):
        idx = np.flatnonzero(y == c)
        rng.shuffle(idx)
        fold[idx] = np.arange(len(idx)) % k
    return fold


def forward(gname, oblivious, lin, phi, x, gamma=1.0, A=None):
    """Mixture output and balance penalty of a full tree in heap order."""
    z = lin(x)  # B x (splits or levels)
    mu = torch.ones(x.shape[0], 1, dtype=x.dtype)
    pen = x.new_zeros(())
    for level in range(DEPTH):
        zl = z[:, level:level + 1].expand(-1, 2 ** level) if oblivious \
            else z[:, 2 ** level - 1:2 ** (level + 1) - 1]
        p = gate(gname, zl, gamma)
        # a split no row of the batch reaches has no penalty (treelab's den > 0); the safe
        # denominator keeps 0 / 0 out of the graph, whose NaN would reach every gradient
        den = mu.sum(0)
        reached = den > 0
        a = torch.clamp((mu * p).sum(0) / torch.where(reached, den, torch.ones_like(den)),
                        1e-12, 1 - 1e-12)
        term = torch.where(reached, torch.log(a) + torch.log(1 - a), torch.zeros_like(a))
        pen = pen - LAMBDA * 2.0 ** -level * 0.5 * term.sum()
        mu = torch.stack([mu * (1 - p), mu * p], dim=2).reshape(x.shape[0], -1)
    if A is None:
        return mu @ torch.softmax(phi, dim=1), pen
    F = phi[None, :, :] + torch.einsum("lkd,bd->blk", A, x)
    return torch.einsum("bl,blk->bk", mu, torch.softmax(F, dim=2)), pen


def fit_predict(gname, shape, Xtr, ytr, Xte, K, seed, linear=False):
    torch.manual_seed(seed)
    mu, sd = Xtr.mean(0), Xtr.std(0, ddof=1)
    sd[sd == 0] = 1
    xt = torch.tensor((Xtr - mu) / sd)
    xe = torch.tensor((Xte - mu) / sd)
    yt = torch.tensor(ytr)
    oblivious = shape == "oblivious"
    lin = torch.nn.Linear(xt.shape[1], DEPTH if oblivious else 2 ** DEPTH - 1).double()
    phi = torch.nn.Parameter(0.1 * torch.randn(2 ** DEPTH, K, dtype=torch.float64))
    params = list(lin.parameters()) + [phi]
    A = None
    if linear:
        A = torch.nn.Parameter(torch.zeros(2 ** DEPTH, K, xt.shape[1], dtype=torch.float64))
        params.append(A)
    opt = torch.optim.Adam(params, lr=LR)
    n = len(yt)
    for _ in range(EPOCHS):
        perm = torch.randperm(n)
        for at in range(0, n, BATCH):
            idx = perm[at:at + BATCH]
            Y, pen = forward(gname, oblivious, lin, phi, xt[idx], A=A)
            yc = torch.clamp(Y[torch.arange(len(idx)), yt[idx]], min=2.2250738585072014e-308)
            loss = -torch.log(yc).mean() + pen
            if shape == "sparse":
                loss = loss + L1 * lin.weight.abs().sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
            if shape == "sparse":
                with torch.no_grad():
                    w = lin.weight
                    w.copy_(torch.sign(w) * torch.clamp(w.abs() - LR * L1, min=0))
    with torch.no_grad():
        return forward(gname, oblivious, lin, phi, xe, A=A)[0].argmax(1).numpy()


def main(out, paths, mode=""):
    torch.set_num_threads(1)
    with open(out, "w") as f:
        f.write(f"# scripts/peers/torch_soft_tree_cv.py, torch {torch.__version__}\n")
        for path in paths:
            name = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
            X, y, K = read_arff(path)
            fold = stratified_folds(y, 10, 1)
            f.write(f"folds {name} " + " ".join(map(str, fold)) + "\n")
            f.flush()
            variants = {"linear": LINEAR_VARIANTS, "sparse": SPARSE_VARIANTS}.get(mode, VARIANTS)
            only = os.environ.get("ONLY")
            seeds = int(os.environ.get("SEEDS", "1"))
            for gname, shape in variants:
                if only and only != f"{gname}:{shape}":
                    continue
                accs = []
                for s in range(seeds):
                    correct = 0
                    for k in range(10):
                        tr, te = fold != k, fold == k
                        pred = fit_predict(gname, shape, X[tr], y[tr], X[te], K,
                                           100 + k + 1000 * s, mode == "linear")
                        correct += int((pred == y[te]).sum())
                    accs.append(correct / len(y))
                acc = sum(accs) / seeds
                if seeds > 1:
                    f.write(f"# {name} {gname} {shape}: mean of {seeds} seeds' CV accuracies "
                            + " ".join(f"{a:.4f}" for a in accs) + "\n")
                f.write(f"cv {name} {gname} {shape} {acc:.4f}\n")
                f.flush()
                print(name, gname, shape, acc, flush=True)


def bench(rows, gname, shape, leaf, batch, epochs):
    import time

    from torch_soft_tree import synthetic
    global BATCH, EPOCHS
    X, y = synthetic()
    BATCH, EPOCHS = batch, epochs
    c0 = time.process_time()
    pred = fit_predict(gname, shape, X[:rows], y[:rows], X[:rows], 2, 1, leaf == "linear")
    cpu = (time.process_time() - c0) / epochs
    print(f"{cpu:.4f} {(pred == y[:rows]).mean():.4f}")


if __name__ == "__main__":
    if sys.argv[1] == "bench":
        torch.set_num_threads(1)
        a = sys.argv[2:]
        bench(int(a[0]), a[1], a[2], a[3], int(a[4]), int(a[5]))
    elif sys.argv[1] in ("linear", "sparse"):
        main(sys.argv[2], sys.argv[3:], sys.argv[1])
    else:
        main(sys.argv[1], sys.argv[2:])
