# Records tests/fixtures/scmamp_shaffer.txt's data lines: scmamp's Shaffer static correction
# of the all-pairs p-values of Garcia & Herrera (2008)'s five classifiers.
# Run: Rscript scripts/peers/scmamp_shaffer.R (needs the scmamp package).
suppressMessages(library(scmamp))
data(data_gh_2008)
raw <- friedmanAlignedRanksPost(data = data.gh.2008, control = NULL)
adj <- adjustShaffer(raw)
names <- colnames(raw)
for (i in 1:(length(names) - 1))
  for (j in (i + 1):length(names))
    cat(names[i], names[j], sprintf("%.6e", raw[i, j]), sprintf("%.6e", adj[i, j]), "\n")
