#!/usr/bin/python3
"""Record scipy's values for the Wilcoxon, Holm / Bonferroni-Dunn and McNemar tests.

Run from the repository root: /usr/bin/python3 scripts/peers/scipy_stats_tests.py
Writes tests/fixtures/scipy_stats_tests.txt (read by tests/test_stats.c), records:
  wilcoxon NAME ZEROS N <a: N> <b: N> statistic p      ZEROS: wilcox (scipy's default) or
      zsplit (Demsar 2006); scipy.stats.wilcoxon(a, b, zero_method=ZEROS) with its other
      defaults, except where treelab takes the normal approximation for tied differences
      (mode="approx" then; scipy's "auto" would keep the exact distribution, truncating R+)
  control K N alpha C <ranks: K>  then K lines: z p holm bonferroni_dunn
      Demsar's section 3.2.2: z = (R_j - R_C) / sqrt(K (K+1) / (6 N)), p = 2 norm.sf(|z|),
      Holm's step-down and Bonferroni-Dunn decisions (1 = rejected) at alpha
  bd_cd K N alpha cd      norm.isf(alpha / (2 (K-1))) * sqrt(K (K+1) / (6 N))
  mcnemar N01 N10 chi2 p_chi2 p_exact   chi2 = (|N01 - N10| - 1)^2 / (N01 + N10) with
      stats.chi2.sf(chi2, 1); p_exact = stats.binomtest(min, N01 + N10, 0.5).pvalue
Values are printed with %.17g.
"""
import os
import sys

import numpy as np
import scipy
from scipy import stats

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scipy_stats import DEMSAR_TABLE6  # noqa: E402  (the table as printed)

OUT = "tests/fixtures/scipy_stats_tests.txt"

# Demsar (2006) table 6: C4.5, C4.5+m, C4.5+cf, C4.5+m+cf on 14 data sets
DEMSAR = np.array(DEMSAR_TABLE6)


def g(v):
    return "%.17g" % v


def wilcoxon(f, name, a, b, zeros, mode="auto"):
    res = stats.wilcoxon(a, b, zero_method=zeros, mode=mode)
    f.write(f"wilcoxon {name} {zeros} {len(a)} " + " ".join(map(g, a)) + " "
            + " ".join(map(g, b)) + f" {g(res.statistic)} {g(res.pvalue)}\n")


def control(f, ranks, n, alpha, c):
    k = len(ranks)
    se = np.sqrt(k * (k + 1) / (6.0 * n))
    z = [(r - ranks[c]) / se for r in ranks]
    p = [2 * stats.norm.sf(abs(v)) if j != c else 1.0 for j, v in enumerate(z)]
    holm = [0] * k
    others = sorted((j for j in range(k) if j != c), key=lambda j: p[j])
    for i, j in enumerate(others):
        if not p[j] < alpha / (k - 1 - i):
            break
        holm[j] = 1
    f.write(f"control {k} {n} {g(alpha)} {c} " + " ".join(map(g, ranks)) + "\n")
    for j in range(k):
        bd = int(j != c and p[j] < alpha / (k - 1))
        f.write(f"{g(z[j])} {g(p[j])} {holm[j]} {bd}\n")


def main():
    rng = np.random.default_rng(20240614)
    with open(OUT, "w") as f:
        f.write(f"# scipy {scipy.__version__}, scripts/peers/scipy_stats_tests.py\n")
        # Demsar's example: C4.5 against C4.5+m (zeros on lung cancer and mushroom)
        wilcoxon(f, "demsar_m", DEMSAR[:, 1], DEMSAR[:, 0], "zsplit")
        wilcoxon(f, "demsar_m", DEMSAR[:, 1], DEMSAR[:, 0], "wilcox")
        wilcoxon(f, "demsar_m_cf", DEMSAR[:, 3], DEMSAR[:, 0], "wilcox")
        for n in (6, 10, 20, 50):  # no ties, no zeros: exact
            a = rng.random(n)
            wilcoxon(f, f"exact_{n}", a, a - rng.normal(0.1, 0.3, n), "wilcox")
        a = rng.random(60)  # more than 50: normal approximation
        wilcoxon(f, "approx_60", a, a - rng.normal(0.05, 0.3, 60), "wilcox")
        a = np.round(rng.random(9), 1)  # ties among the differences, no zero
        b = a - np.array([0.1, 0.2, -0.1, 0.3, 0.2, 0.1, 0.4, -0.2, 0.2])
        wilcoxon(f, "ties_9", a, b, "wilcox", mode="approx")
        # Demsar's ranks for table 6 (as printed), C4.5 the control, and random ones
        control(f, [3.143, 2.000, 2.893, 1.964], 14, 0.05, 0)
        control(f, [3.143, 2.000, 2.893, 1.964], 14, 0.10, 0)
        control(f, [2.1, 3.9, 1.2, 4.4, 3.4], 20, 0.05, 2)
        for k, n, alpha in ((4, 14, 0.05), (4, 14, 0.10), (5, 20, 0.05), (10, 30, 0.10)):
            se = np.sqrt(k * (k + 1) / (6.0 * n))
            f.write(f"bd_cd {k} {n} {g(alpha)} {g(stats.norm.isf(alpha / (2 * (k - 1))) * se)}\n")
        for n01, n10 in ((10, 3), (3, 10), (25, 11), (7, 7), (0, 6), (1, 0), (40, 62)):
            chi2 = (abs(n01 - n10) - 1) ** 2 / (n01 + n10)
            exact = stats.binomtest(min(n01, n10), n01 + n10, 0.5).pvalue
            f.write(f"mcnemar {n01} {n10} {g(chi2)} {g(stats.chi2.sf(chi2, 1))} {g(exact)}\n")


if __name__ == "__main__":
    main()
