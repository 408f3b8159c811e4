# ranger's side of scripts/bench/ensembles.sh: time one random forest's fit, one thread.
#   Rscript scripts/peers/ranger_fit_bench.R FILE   (Debian r-cran-ranger)
# prints: seconds cpu_seconds mean_leaves
# on the synthetic data of sklearn_fit_bench.py (20 numeric attributes, a 0/1 class, the last
# column), with treelab's random_forest settings: 100 trees, mtry = floor(sqrt(20)) = 4,
# fully grown (min.node.size = 1), bootstrap with replacement, a classification forest.
suppressMessages(library(ranger))
args <- commandArgs(trailingOnly = TRUE)
d <- read.csv(args[1])
target <- names(d)[ncol(d)]
d[[target]] <- factor(d[[target]])
t0 <- proc.time()
m <- ranger(dependent.variable.name = target, data = d, num.trees = 100, mtry = 4,
            min.node.size = 1, replace = TRUE, num.threads = 1, seed = 1, verbose = FALSE)
t1 <- proc.time()
dt <- t1 - t0
leaves <- mean(sapply(seq_len(m$num.trees), function(i)
  sum(treeInfo(m, i)$terminal)))
cat(sprintf("%.3f %.3f %.1f\n", dt[["elapsed"]], dt[["user.self"]] + dt[["sys.self"]], leaves))
