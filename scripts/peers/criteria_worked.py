#!/usr/bin/python3
"""Reference values for the worked examples of the twoing, chi_square, g_statistic, dkm and
distance criteria in tests/test_plugins.c, computed independently of treelab.

Run from the repository root: /usr/bin/python3 scripts/peers/criteria_worked.py
Prints the values the tests record (no test runs this script). Chi-square and G come from
scipy.stats.chi2_contingency (correction=False; lambda_="log-likelihood" for G), the
entropies of the distance measure from scipy.stats.entropy, twoing from exact fractions,
DKM from its formula.
"""
from fractions import Fraction as F
from math import log, sqrt

import numpy as np
from scipy.stats import chi2_contingency, entropy

TABLES = {
    # branches x classes
    "2-class, 2 branches": [[5, 1], [1, 3]],
    "3-class, 3 branches": [[3, 1, 0], [1, 2, 1], [0, 1, 3]],
}


def chi2(t):
    return chi2_contingency(np.array(t, float), correction=False)[0]


def g_stat(t):
    return chi2_contingency(np.array(t, float), correction=False, lambda_="log-likelihood")[0]


def distance(t):
    t = np.array(t, float)
    n = t.sum()
    h_joint = entropy(t.ravel() / n)
    h_class = entropy(t.sum(axis=0) / n)
    h_branch = entropy(t.sum(axis=1) / n)
    info = h_class + h_branch - h_joint
    return info / h_joint


def twoing(t):
    """Largest (p_L p_R / 4)(sum_j |p(j|L) - p(j|R)|)^2 over one branch against the rest."""
    t = [[F(x) for x in row] for row in t]
    k = len(t[0])
    par = [sum(row[j] for row in t) for j in range(k)]
    n = sum(par)
    best = F(0)
    for row in t:
        wl = sum(row)
        wr = n - wl
        s = sum(abs(row[j] / wl - (par[j] - row[j]) / wr) for j in range(k))
        best = max(best, (wl / n) * (wr / n) / 4 * s * s)
    return best


def dkm(stats):
    w = sum(stats)
    return sum(sqrt(x / w * (1 - x / w)) for x in stats if 0 < x < w)


def dkm_gain(t):
    par = [sum(row[j] for row in t) for j in range(len(t[0]))]
    n = sum(par)
    return dkm(par) - sum(sum(row) / n * dkm(row) for row in t)


def info_gain_bits(t):
    t = np.array(t, float)
    n = t.sum()
    return (entropy(t.sum(axis=0) / n, base=2)
            - sum(r.sum() / n * entropy(r / r.sum(), base=2) for r in t))


for name, t in TABLES.items():
    tw = twoing(t)
    print(f"{name} {t}:")
    print(f"  twoing      {tw} = {float(tw):.15g}")
    print(f"  chi_square  {chi2(t):.15g}")
    print(f"  g_statistic {g_stat(t):.15g}  (2 N ln 2 IG = "
          f"{2 * np.sum(t) * log(2) * info_gain_bits(t):.15g})")
    print(f"  dkm gain    {dkm_gain(t):.15g}")
    print(f"  distance    {distance(t):.15g}")

# weather.nominal (14 rows, play yes/no): the root's tables, in file order of the attributes
weather = {
    "outlook": [[2, 3], [4, 0], [3, 2]],  # sunny, overcast, rainy: (yes, no)
    "temperature": [[2, 2], [4, 2], [3, 1]],  # hot, mild, cool
    "humidity": [[3, 4], [6, 1]],  # high, normal
    "windy": [[6, 2], [3, 3]],  # FALSE, TRUE
}
print("weather.nominal, root:")
for a, t in weather.items():
    print(f"  {a:12s} gain {info_gain_bits(t):.6f}  chi2 {chi2(t):.6f}  G {g_stat(t):.6f}  "
          f"distance {distance(t):.6f}  twoing {float(twoing(t)):.6f}")
