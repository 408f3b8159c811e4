#!/usr/bin/python3
"""PyTorch reference of the soft tree's objective and its gradient for every gate and shape.

Writes tests/fixtures/soft_tree/gradients.txt, read by tests/test_soft_tree_slots.c: for fixed
parameters and a fixed batch (formulas below, the same in the test), in float64, autograd's
gradient of

  data loss (weighted mean; mixture or expected, classification or regression)
  + lambda * sum_i 2^-depth(i) * -(log a_i + log(1 - a_i)) / 2     (balance penalty)
  + 0.5 * l2 * ||W||^2

where split i routes right with p_i = gate(beta * (w_row(i) . x + b_row(i))), row(i) = the
split's slot (full, lopsided trees) or its depth (oblivious), and a_i the path-weighted mean
of p_i over the batch.

Gates: sigmoid; smooth_step (TEL: -2 u^3 + 3 u / 2 + 1/2, u = z / gamma, clamped to 0 and 1
outside |z| < gamma / 2); entmoid (NODE: entmax 1.5 of (z, 0), its first component).

Linear leaves (`linear`): leaf l's logits (regression: value) are phi_l + A_l x, with theta's
last block A (leaves x outputs x inputs, after phi) and 0.5 * LEAF_L2 * ||A||^2 added.

The sparse shape (`sparse`): the full tree with L1 * ||W||_1 added (autograd's sign(w)).

  torch_soft_tree_grad.py OUT.txt [linear | sparse]
One line per case: gate shape task loss objective gradient... (tests/fixtures/soft_tree/
gradients.txt; with linear, linear_gradients.txt; with sparse, sparse_gradients.txt)
"""
import math
import sys

import torch

D, K, B = 3, 3, 9
BETA, LAMBDA, L2, GAMMA = 1.7, 0.3, 0.05, 1.5
LEAF_L2 = 0.07
L1 = 0.04


def trees():
    """(name, left, right, rows by inner slot) in node order, parents first."""
    full_l = [1, 3, 5, -1, -1, -1, -1]
    full_r = [2, 4, 6, -1, -1, -1, -1]
    lop_l = [1, 3, -1, 5, -1, -1, -1]
    lop_r = [2, 4, -1, 6, -1, -1, -1]
    obl_l = [2 * i + 1 if i < 7 else -1 for i in range(15)]
    obl_r = [2 * i + 2 if i < 7 else -1 for i in range(15)]
    return [("full", full_l, full_r, False), ("lopsided", lop_l, lop_r, False),
            ("oblivious", obl_l, obl_r, True)]


def gate(name, z, gamma=GAMMA):
    if name == "sigmoid":
        return torch.sigmoid(z)
    if name == "smooth_step":
        u = z / gamma
        cubic = -2 * u ** 3 + 1.5 * u + 0.5
        return torch.where(z <= -gamma / 2, torch.zeros_like(z),
                           torch.where(z >= gamma / 2, torch.ones_like(z), cubic))
    x = z.abs()  # entmoid
    inside = x < 2
    d = (torch.sqrt(torch.where(inside, 8 - x * x, torch.ones_like(x))) - x) / 2
    low = torch.where(inside, 0.25 * d * d, torch.zeros_like(x))
    return torch.where(z >= 0, 1 - low, low)


def problem(regression):
    X = torch.tensor([[math.sin(0.7 * (r * D + j) + 0.3) * 1.5 for j in range(D)]
                      for r in range(B)], dtype=torch.float64)
    if regression:
        y = [math.cos(1.1 * r) for r in range(B)]
    else:
        y = [(r * 7 + 3) % K for r in range(B)]
    wt = torch.tensor([0.5 + 0.1 * (r % 5) for r in range(B)], dtype=torch.float64)
    return X, y, wt


def case(gname, tree, regression, loss, soft=None, linear=False, l1=0.0):
    """One case; soft (B x K soft targets, classification) in place of the labels: mixture
    -sum_c soft_c log Y_c, expected -sum_l P_l sum_c soft_c log Q_lc (torch_soft_tree_distill.py)."""
    _, left, right, oblivious = tree
    n = len(left)
    inner = [i for i in range(n) if left[i] >= 0]
    leaves = [i for i in range(n) if left[i] < 0]
    slot = {}
    for s, i in enumerate(inner):
        slot[i] = s
    for s, i in enumerate(leaves):
        slot[i] = s
    depth = [0] * n
    for i in inner:
        depth[left[i]] = depth[right[i]] = depth[i] + 1
    S = (max(depth[i] for i in inner) + 1) if oblivious else len(inner)
    Kout = 1 if regression else K
    L = len(leaves)
    n_theta = S * (D + 1) + L * Kout * (D + 1 if linear else 1)
    theta = torch.tensor([0.8 * math.sin(1.3 * k + 0.5) for k in range(n_theta)],
                         dtype=torch.float64, requires_grad=True)
    W = theta[:S * D].reshape(S, D)
    b = theta[S * D:S * D + S]
    phi = theta[S * (D + 1):S * (D + 1) + L * Kout].reshape(L, Kout)
    X, y, wt = problem(regression)
    # the leaves' logits (values) per row: B x L x Kout
    F = phi[None, :, :].expand(B, L, Kout)
    if linear:
        A = theta[S * (D + 1) + L * Kout:].reshape(L, Kout, D)
        F = F + torch.einsum("lkd,bd->blk", A, X)
    ws = wt.sum()
    P = {0: torch.ones(B, dtype=torch.float64)}
    pen = torch.zeros((), dtype=torch.float64)
    for i in inner:
        row = depth[i] if oblivious else slot[i]
        p = gate(gname, BETA * (X @ W[row] + b[row]))
        q = wt * P[i]
        den = q.sum()
        if den > 0:
            a = torch.clamp((q * p).sum() / den, 1e-12, 1 - 1e-12)
            pen = pen - LAMBDA * 2.0 ** -depth[i] * 0.5 * (torch.log(a) + torch.log(1 - a))
        P[left[i]] = P[i] * (1 - p)
        P[right[i]] = P[i] * p
    PL = torch.stack([P[i] for i in leaves], dim=1)  # B x L
    if regression:
        v = F[:, :, 0]  # B x L
        yt = torch.tensor(y, dtype=torch.float64)
        if loss == "mixture":
            data = (wt / ws * ((PL * v).sum(1) - yt) ** 2).sum()
        else:
            data = (wt / ws * (PL * (v - yt[:, None]) ** 2).sum(1)).sum()
    elif soft is not None:
        if loss == "mixture":
            Y = torch.clamp(torch.einsum("bl,blk->bk", PL, torch.softmax(F, dim=2)),
                            min=2.2250738585072014e-308)
            data = -(wt / ws * (soft * torch.log(Y)).sum(1)).sum()
        else:
            logQ = torch.log_softmax(F, dim=2)
            data = -(wt / ws * (PL * torch.einsum("bk,blk->bl", soft, logQ)).sum(1)).sum()
    else:
        logQ = torch.log_softmax(F, dim=2)  # B x L x K
        yi = torch.tensor(y)
        if loss == "mixture":
            Y = torch.einsum("bl,blk->bk", PL, torch.softmax(F, dim=2))
            yc = torch.clamp(Y[torch.arange(B), yi], min=2.2250738585072014e-308)
            data = -(wt / ws * torch.log(yc)).sum()
        else:
            data = -(wt / ws * (PL * logQ[torch.arange(B), :, yi]).sum(1)).sum()
    obj = data + pen + 0.5 * L2 * (W ** 2).sum()
    if linear:
        obj = obj + 0.5 * LEAF_L2 * (A ** 2).sum()
    if l1:
        obj = obj + l1 * W.abs().sum()
    obj.backward()
    return obj.item(), theta.grad.tolist()


def main(out, mode=""):
    torch.set_num_threads(1)
    with open(out, "w") as f:
        f.write("# gate shape task loss objective gradient... (scripts/peers/torch_soft_tree_grad.py,"
                f" torch {torch.__version__})\n")
        for gname in ("sigmoid", "smooth_step", "entmoid"):
            for tree in trees() if mode != "sparse" else [("sparse",) + trees()[0][1:]]:
                for regression in (0, 1):
                    for loss in ("mixture", "expected"):
                        obj, g = case(gname, tree, regression, loss, linear=mode == "linear",
                                      l1=L1 if mode == "sparse" else 0.0)
                        f.write(" ".join([gname, tree[0], "regression" if regression else
                                          "classification", loss, f"{obj:.17g}"] +
                                         [f"{v:.17g}" for v in g]) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "")
