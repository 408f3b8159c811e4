# Sourced by the C4.5 benchmark and identity scripts: `c45_synth ROWS CLASSES MISSING OUT`
# writes the synthetic ARFF set: 8 numeric and 2 nominal attributes, CLASSES (2, 3 or 5)
# from a noisy rule, each cell but c2 and the class unknown with probability MISSING.
# ROWS 10^5, 3 classes, 0.05 is the set docs/speed.md's C4.5 figures were first measured on.
c45_synth() {
  awk -v n="$1" -v classes="$2" -v miss="$3" 'BEGIN {
    srand(1);
    print "@relation synth" n;
    for (j = 1; j <= 8; j++) print "@attribute x" j " numeric";
    print "@attribute c1 {a,b,c,d}"; print "@attribute c2 {u,v,w}";
    printf "@attribute class {k0"; for (c = 1; c < classes; c++) printf ",k" c; print "}";
    print "@data";
    for (i = 0; i < n; i++) {
      line = ""; s = 0;
      for (j = 1; j <= 8; j++) { x[j] = int(rand() * 100000) / 1000; s += (j <= 3 ? x[j] : 0) }
      c1 = substr("abcd", int(rand() * 4) + 1, 1); c2 = substr("uvw", int(rand() * 3) + 1, 1);
      low = (s + (c1 == "a" ? 40 : 0) + 30 * rand()) < 170;
      if (classes == 2) k = low ? 0 : 1;
      else if (classes == 3) k = low ? 0 : ((x[4] < 50) ? 1 : 2);
      else k = low ? 0 : ((x[4] < 50) ? ((x[5] < 50) ? 1 : 2) : ((x[6] < 50) ? 3 : 4));
      for (j = 1; j <= 8; j++) line = line (rand() < miss ? "?" : sprintf("%.3f", x[j])) ",";
      print line (rand() < miss ? "?" : c1) "," c2 ",k" k;
    }
  }' > "$4"
}
