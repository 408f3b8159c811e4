#!/usr/bin/env python3
"""The 4x4 chessboard of Grubinger, Zeileis & Pfeiffer (evtree, JSS 61 (2014)), as treelab's
literature config reads it: x1 and x2 uniform on [0, 4), the class by the parity of the cell
(floor(x1) + floor(x2) even: black, else white), 2000 rows, and a share of labels flipped
(exactly round(share * rows) rows, drawn without replacement). Python's own Mersenne Twister
with a fixed seed, so the files are the same on every machine.
Usage: scripts/literature/chessboard_data.py [OUT_DIR]   (default configs/literature/chessboard)
Writes chessboard_noise0.csv, chessboard_noise5.csv and chessboard_noise10.csv."""
import math
import os
import random
import sys

ROWS = 2000
SEED = 2014


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "configs/literature/chessboard"
    os.makedirs(out, exist_ok=True)
    for noise in (0, 5, 10):
        rng = random.Random(SEED + noise)
        x = [(rng.uniform(0, 4), rng.uniform(0, 4)) for _ in range(ROWS)]
        cls = [(math.floor(a) + math.floor(b)) % 2 for a, b in x]
        for i in rng.sample(range(ROWS), round(noise / 100 * ROWS)):
            cls[i] = 1 - cls[i]
        with open(os.path.join(out, f"chessboard_noise{noise}.csv"), "w") as f:
            f.write("x1,x2,class\n")
            for (a, b), c in zip(x, cls):
                f.write(f"{a:.6f},{b:.6f},{'white' if c else 'black'}\n")


if __name__ == "__main__":
    main()
