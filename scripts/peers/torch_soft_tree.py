#!/usr/bin/python3
"""PyTorch soft decision tree of the same design as treelab's soft_tree, for the benchmark.

Full binary tree of `depth`; inner node i routes right with sigmoid(beta (w_i.x + b_i)); leaf
distributions softmax(phi); mixture cross-entropy plus Frosst and Hinton's balance penalty
lambda * sum_i 2^-depth(i) * -(log a_i + log(1 - a_i)) / 2. Adam, one thread.

  torch_soft_tree.py data OUT.csv          write the synthetic benchmark data (numpy seed 1)
  torch_soft_tree.py bench DEPTH BATCH EPOCHS [DTYPE]
      print "seconds_per_epoch cpu_seconds_per_epoch test_accuracy" (wall-clock and the
      process's CPU time around the epochs; DTYPE float64, the default, or float32)
"""
import sys
import time

import numpy as np

N_TRAIN, N_TEST, D = 100_000, 20_000, 20


def synthetic():
    """Two classes from a noisy quadratic-plus-linear rule on 20 standard normal inputs."""
    rng = np.random.default_rng(1)
    n = N_TRAIN + N_TEST
    X = rng.standard_normal((n, D))
    w = rng.standard_normal(D)
    score = X @ w + 0.5 * (X[:, 0] ** 2 - X[:, 1] * X[:, 2]) + 0.5 * rng.standard_normal(n)
    y = (score > 0).astype(np.int64)
    return X, y


def write_data(path):
    X, y = synthetic()
    with open(path, "w") as f:
        f.write(",".join(f"x{j}" for j in range(D)) + ",class\n")
        for i in range(len(y)):
            f.write(",".join(f"{v:.17g}" for v in X[i]) + f",c{y[i]}\n")


def bench(depth, batch, epochs, dtype_name="float64"):
    import torch

    dtype = getattr(torch, dtype_name)
    torch.set_num_threads(1)
    torch.manual_seed(1)
    X, y = synthetic()
    # Standardise with the training rows' statistics, as treelab does.
    mu, sd = X[:N_TRAIN].mean(0), X[:N_TRAIN].std(0, ddof=1)
    X = (X - mu) / sd
    Xt = torch.tensor(X[:N_TRAIN], dtype=dtype)
    yt = torch.tensor(y[:N_TRAIN])
    Xv = torch.tensor(X[N_TRAIN:], dtype=dtype)
    yv = torch.tensor(y[N_TRAIN:])
    M, L, K = 2 ** depth - 1, 2 ** depth, 2
    beta, lam = 1.0, 1e-3
    lin = torch.nn.Linear(D, M).to(dtype)
    phi = torch.nn.Parameter(0.1 * torch.randn(L, K, dtype=dtype))
    opt = torch.optim.Adam(list(lin.parameters()) + [phi], lr=0.01)

    def forward(x):
        p = torch.sigmoid(beta * lin(x))
        mu = torch.ones(x.shape[0], 1, dtype=x.dtype)
        pen = x.new_zeros(())
        for level in range(depth):
            pl = p[:, 2 ** level - 1: 2 ** (level + 1) - 1]
            a = (mu * pl).sum(0) / mu.sum(0)
            pen = pen - lam * 2.0 ** -level * 0.5 * (torch.log(a) + torch.log(1 - a)).sum()
            mu = torch.stack([mu * (1 - pl), mu * pl], dim=2).reshape(x.shape[0], -1)
        return mu @ torch.softmax(phi, dim=1), pen

    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(epochs):
        perm = torch.randperm(N_TRAIN)
        for at in range(0, N_TRAIN, batch):
            idx = perm[at: at + batch]
            Y, pen = forward(Xt[idx])
            loss = -torch.log(Y[torch.arange(len(idx)), yt[idx]]).mean() + pen
            opt.zero_grad()
            loss.backward()
            opt.step()
    secs = (time.perf_counter() - t0) / epochs
    cpu = (time.process_time() - c0) / epochs
    with torch.no_grad():
        acc = (forward(Xv)[0].argmax(1) == yv).double().mean().item()
    print(f"{secs:.4f} {cpu:.4f} {acc:.4f}")


if __name__ == "__main__":
    if sys.argv[1] == "data":
        write_data(sys.argv[2])
    else:
        bench(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), *sys.argv[5:6])
