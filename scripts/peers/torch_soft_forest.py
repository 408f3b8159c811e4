#!/usr/bin/python3
"""PyTorch reference of treelab's soft_forest: gradients on a fixed batch, and 10-fold CV.

A forest of m full trees of one gate and shape (a hyperplane per split, or one per level:
oblivious), each tree's parameters [W | b | phi] one after another.
- leaf_update = gradient (TEL, NODE): F(x) = sum_t sum_l mu_tl(x) phi_tl; classification
  loss -log softmax(F)_y, regression (F - y)^2, weighted mean; every parameter trained.
- leaf_update = closed_form (Kontschieder et al. 2015): phi_tl is a class distribution pi_tl,
  P_t(y|x) = sum_l mu_tl(x) pi_tl(y), the loss sum_t -log P_t(y|x) (weighted mean), the
  splits trained by the optimiser, pi by pi_tl(c) <- sum_{x: y=c} w pi_tl(c) mu_tl(x) /
  P_t(c|x), normalised over c, 20 rounds after every epoch (and before the first);
  prediction mean_t P_t(.|x).
Plus 0.5 * l2 * ||W||^2. Gates as in torch_soft_tree_grad.py.

  torch_soft_forest.py grad OUT.txt
    lines "grad GATE SHAPE TASK LEAF objective gradient..." (gradient of the closed-form
    leaves: 0, they are not trained by it) and "update GATE SHAPE pi..." (pi after 3 rounds of
    the closed-form update on the batch); read by tests/test_soft_forest.c
  torch_soft_forest.py cv OUT.txt DATA.arff...
    the folds of torch_soft_tree_cv.py and, per variant, "cv NAME GATE SHAPE LEAF ACCURACY"
  torch_soft_forest.py bench ROWS GATE SHAPE LEAF BATCH EPOCHS
    the first ROWS rows of torch_soft_tree.py's synthetic data, the cv design (10 trees of
    depth 3); prints the process's CPU seconds per epoch (leaf update included) and the
    training accuracy, for scripts/bench/soft_forest.sh
"""
import math
import sys

import numpy as np
import torch

from torch_soft_tree_cv import read_arff, stratified_folds
from torch_soft_tree_grad import gate

D, K, B = 3, 3, 9
BETA, L2, GAMMA, M, DEPTH = 1.7, 0.05, 1.5, 3, 2


def mu_of(gname, x, W, b, oblivious, depth, beta, gamma):
    """Leaf path probabilities (m x B x 2^depth) of a forest of full trees in heap order."""
    z = beta * (torch.einsum("bd,tsd->tbs", x, W) + b[:, None, :])
    mu = torch.ones(W.shape[0], x.shape[0], 1, dtype=x.dtype)
    for level in range(depth):
        zl = z[:, :, level:level + 1].expand(-1, -1, 2 ** level) if oblivious \
            else z[:, :, 2 ** level - 1:2 ** (level + 1) - 1]
        p = gate(gname, zl, gamma)
        mu = torch.stack([mu * (1 - p), mu * p], dim=3).reshape(W.shape[0], x.shape[0], -1)
    return mu


def unpack(theta, m, S, L, Kout):
    per = S * (D_ + 1) + L * Kout
    t = theta.reshape(m, per)
    W = t[:, :S * D_].reshape(m, S, D_)
    b = t[:, S * D_:S * D_ + S]
    phi = t[:, S * (D_ + 1):].reshape(m, L, Kout)
    return W, b, phi


def data_loss(mu, phi, y, wt, regression, closed):
    ws = wt.sum()
    out = torch.einsum("tbl,tlk->tbk", mu, phi)  # m x B x K
    if closed:
        Pt = out[:, torch.arange(len(y)), y]  # m x B
        Pt = torch.clamp(Pt, min=2.2250738585072014e-308)
        return -(wt / ws * torch.log(Pt)).sum()
    F = out.sum(0)
    if regression:
        return (wt / ws * (F[:, 0] - y) ** 2).sum()
    return -(wt / ws * torch.log_softmax(F, dim=1)[torch.arange(len(y)), y]).sum()


def closed_form(mu, pi, y, wt, K_, rounds):
    """Rounds of the leaf update; mu m x n x L (fixed), pi m x L x K."""
    onehot = torch.nn.functional.one_hot(y, K_).to(mu.dtype)  # n x K
    for _ in range(rounds):
        P = torch.einsum("tnl,tlk->tnk", mu, pi)  # m x n x K
        share = torch.where(P > 0, wt[None, :, None] * onehot[None] / torch.where(P > 0, P, 1.0),
                            torch.zeros_like(P))
        acc = pi * torch.einsum("tnl,tnk->tlk", mu, share)
        z = acc.sum(2, keepdim=True)
        pi = torch.where(z > 0, acc / torch.where(z > 0, z, 1.0), pi)
    return pi


def grad_cases(out):
    global D_
    D_ = D
    X = torch.tensor([[math.sin(0.7 * (r * D + j) + 0.3) * 1.5 for j in range(D)]
                      for r in range(B)], dtype=torch.float64)
    wt = torch.tensor([0.5 + 0.1 * (r % 5) for r in range(B)], dtype=torch.float64)
    L = 2 ** DEPTH
    for gname in ("sigmoid", "smooth_step", "entmoid"):
        for shape in ("full", "oblivious"):
            S = DEPTH if shape == "oblivious" else L - 1
            for task, leaf in (("classification", "gradient"), ("regression", "gradient"),
                               ("classification", "closed_form")):
                regression, closed = task == "regression", leaf == "closed_form"
                Kout = 1 if regression else K
                per = S * (D + 1) + L * Kout
                vals = [0.8 * math.sin(1.3 * k + 0.5) for k in range(M * per)]
                if closed:  # leaves: distributions, 1.2 + sin normalised per leaf
                    for t in range(M):
                        for l in range(L):
                            at = t * per + S * (D + 1) + l * K
                            raw = [1.2 + math.sin(1.3 * (at + c) + 0.5) for c in range(K)]
                            vals[at:at + K] = [v / sum(raw) for v in raw]
                theta = torch.tensor(vals, dtype=torch.float64, requires_grad=True)
                W, b, phi = unpack(theta, M, S, L, Kout)
                if closed:
                    phi = phi.detach()
                y = torch.tensor([math.cos(1.1 * r) for r in range(B)], dtype=torch.float64) \
                    if regression else torch.tensor([(r * 7 + 3) % K for r in range(B)])
                mu = mu_of(gname, X, W, b, shape == "oblivious", DEPTH, BETA, GAMMA)
                obj = data_loss(mu, phi, y, wt, regression, closed) + 0.5 * L2 * (W ** 2).sum()
                obj.backward()
                out.write(" ".join(["grad", gname, shape, task, leaf, f"{obj.item():.17g}"] +
                                   [f"{v:.17g}" for v in theta.grad.tolist()]) + "\n")
                if closed:
                    pi = closed_form(mu.detach(), phi, y, wt, K, 3)
                    out.write(" ".join(["update", gname, shape] +
                                       [f"{v:.17g}" for v in pi.flatten().tolist()]) + "\n")


VARIANTS = [("sigmoid", "full", "gradient"), ("smooth_step", "full", "gradient"),
            ("entmoid", "oblivious", "gradient"), ("sigmoid", "full", "closed_form")]
TREES, CV_DEPTH, EPOCHS, BATCH, LR, ROUNDS = 10, 3, 100, 32, 0.01, 20


def fit_predict(gname, shape, leaf, Xtr, ytr, Xte, K_, seed):
    global D_
    torch.manual_seed(seed)
    mu0, sd = Xtr.mean(0), Xtr.std(0, ddof=1)
    sd[sd == 0] = 1
    xt = torch.tensor((Xtr - mu0) / sd)
    xe = torch.tensor((Xte - mu0) / sd)
    yt = torch.tensor(ytr)
    D_ = xt.shape[1]
    oblivious, closed = shape == "oblivious", leaf == "closed_form"
    L = 2 ** CV_DEPTH
    S = CV_DEPTH if oblivious else L - 1
    r = 1 / math.sqrt(D_)
    W = torch.nn.Parameter((torch.rand(TREES, S, D_, dtype=torch.float64) * 2 - 1) * r)
    b = torch.nn.Parameter((torch.rand(TREES, S, dtype=torch.float64) * 2 - 1) * r)
    if closed:
        phi = torch.full((TREES, L, K_), 1.0 / K_, dtype=torch.float64)
        params = [W, b]
    else:
        phi = torch.nn.Parameter(0.1 * torch.randn(TREES, L, K_, dtype=torch.float64))
        params = [W, b, phi]
    opt = torch.optim.Adam(params, lr=LR)
    wt = torch.ones(len(yt), dtype=torch.float64)
    n = len(yt)

    def update(phi):
        with torch.no_grad():
            mu = mu_of(gname, xt, W, b, oblivious, CV_DEPTH, 1.0, 1.0)
            return closed_form(mu, phi, yt, wt, K_, ROUNDS)

    if closed:
        phi = update(phi)
    for _ in range(EPOCHS):
        perm = torch.randperm(n)
        for at in range(0, n, BATCH):
            idx = perm[at:at + BATCH]
            mu = mu_of(gname, xt[idx], W, b, oblivious, CV_DEPTH, 1.0, 1.0)
            loss = data_loss(mu, phi, yt[idx], wt[idx], False, closed)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if closed:
            phi = update(phi)
    with torch.no_grad():
        mu = mu_of(gname, xe, W, b, oblivious, CV_DEPTH, 1.0, 1.0)
        out = torch.einsum("tbl,tlk->tbk", mu, phi).sum(0)
        return out.argmax(1).numpy()


def cv(out, paths):
    out.write(f"# scripts/peers/torch_soft_forest.py cv, torch {torch.__version__}\n")
    for path in paths:
        name = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        X, y, K_ = read_arff(path)
        fold = stratified_folds(y, 10, 1)
        out.write(f"folds {name} " + " ".join(map(str, fold)) + "\n")
        out.flush()
        for gname, shape, leaf in VARIANTS:
            correct = 0
            for k in range(10):
                tr, te = fold != k, fold == k
                pred = fit_predict(gname, shape, leaf, X[tr], y[tr], X[te], K_, 100 + k)
                correct += int((pred == y[te]).sum())
            acc = correct / len(y)
            out.write(f"cv {name} {gname} {shape} {leaf} {acc:.4f}\n")
            out.flush()
            print(name, gname, shape, leaf, acc, flush=True)


def bench(rows, gname, shape, leaf, batch, epochs):
    import time

    from torch_soft_tree import synthetic
    global BATCH, EPOCHS
    X, y = synthetic()
    BATCH, EPOCHS = batch, epochs
    c0 = time.process_time()
    pred = fit_predict(gname, shape, leaf, X[:rows], y[:rows], X[:rows], 2, 1)
    cpu = (time.process_time() - c0) / epochs
    print(f"{cpu:.4f} {(pred == y[:rows]).mean():.4f}")


def main():
    torch.set_num_threads(1)
    if sys.argv[1] == "bench":
        a = sys.argv[2:]
        bench(int(a[0]), a[1], a[2], a[3], int(a[4]), int(a[5]))
        return
    with open(sys.argv[2], "w") as out:
        if sys.argv[1] == "grad":
            out.write("# kind gate shape task leaf objective gradient... / kind gate shape pi... "
                      f"(scripts/peers/torch_soft_forest.py, torch {torch.__version__})\n")
            grad_cases(out)
        else:
            cv(out, sys.argv[3:])


if __name__ == "__main__":
    main()
