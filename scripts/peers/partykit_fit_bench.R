# Synthetic data and partykit's side of scripts/bench/ctree.sh (Debian r-cran-partykit).
#   Rscript scripts/peers/partykit_fit_bench.R data ROWS FILE
#       write ROWS x 20 numeric attributes (normal, 4 decimals) + a class c0/c1 that depends
#       on five of them, with 10% label noise (scripts/peers/sklearn_fit_bench.py's design,
#       drawn with R's generator, seed 12345)
#   Rscript scripts/peers/partykit_fit_bench.R fit FILE
#       time ctree() alone with its defaults (system.time); prints: elapsed_seconds leaves depth
#       cpu_seconds (user + system)
suppressMessages(library(partykit))
args <- commandArgs(TRUE)
if (args[1] == "data") {
  rows <- as.integer(args[2])
  set.seed(12345)
  X <- round(matrix(rnorm(rows * 20), ncol = 20), 4)
  score <- X[, 1] + 0.5 * X[, 2] * X[, 3] - 0.7 * abs(X[, 4]) + 0.3 * X[, 5]
  y <- as.integer(score > 0)
  flip <- runif(rows) < 0.1
  y[flip] <- 1L - y[flip]
  d <- data.frame(X)
  names(d) <- paste0("x", 0:19)
  d$y <- paste0("c", y)
  write.csv(d, args[3], row.names = FALSE, quote = FALSE)
} else {
  d <- read.csv(args[2], colClasses = c(rep("numeric", 20), "factor"))
  t <- system.time(f <- ctree(y ~ ., data = d))
  cat(sprintf("%.3f %d %d %.3f\n", t[["elapsed"]], width(f), depth(f),
              t[["user.self"]] + t[["sys.self"]]))
}
