# Record ranger's 10-fold CV accuracy of a random forest on the folds scikit-learn's were
# measured on (tests/fixtures/ensemble_cv/DATASET.folds), for the statistical test of
# treelab's random_forest (tests/test_ensembles.c).
# Run from the repository root: Rscript scripts/peers/ranger_cv.R   (Debian r-cran-ranger)
# Writes tests/fixtures/ensemble_cv/ranger_cv.txt in the format of sklearn_cv.txt:
#     DATASET random_forest MEAN SD  A1 A2 ...   (the CV accuracy for seeds 1..SEEDS)
# 50 trees, mtry = floor(sqrt(attributes)) (ranger's default), min.node.size = 1 and
# sampling with replacement (scikit-learn's, and treelab's, defaults; ranger's own
# min.node.size is 1 for classification too), majority vote of the trees (probability =
# FALSE: ranger's classification forest), one thread. SD is the population sd, as numpy's.
suppressMessages(library(ranger))
suppressMessages(library(foreign))
seeds <- 10
lines <- sprintf("# ranger %s: 10-fold CV accuracy on the folds of DATASET.folds, seeds 1..%d (scripts/peers/ranger_cv.R)",
                 packageVersion("ranger"), seeds)
for (name in c("iris", "wine", "diabetes", "ionosphere")) {
  d <- read.arff(file.path("experiments/datasets", paste0(name, ".arff")))
  target <- names(d)[ncol(d)]
  names(d) <- make.names(names(d), unique = TRUE)
  target <- names(d)[ncol(d)]
  fold <- scan(file.path("tests/fixtures/ensemble_cv", paste0(name, ".folds")), quiet = TRUE)
  acc <- sapply(seq_len(seeds), function(s) {
    right <- 0
    for (k in 0:9) {
      m <- ranger(dependent.variable.name = target, data = d[fold != k, ], num.trees = 50,
                  min.node.size = 1, replace = TRUE, num.threads = 1, seed = s)
      right <- right + sum(predict(m, d[fold == k, ], num.threads = 1)$predictions ==
                           d[fold == k, target])
    }
    right / nrow(d)
  })
  sd_pop <- sqrt(mean((acc - mean(acc))^2))
  lines <- c(lines, paste(name, "random_forest", sprintf("%.17g", mean(acc)),
                          sprintf("%.17g", sd_pop), paste(sprintf("%.17g", acc), collapse = " ")))
  cat(name, sprintf("%.4f (sd %.4f)\n", mean(acc), sd_pop))
}
writeLines(lines, "tests/fixtures/ensemble_cv/ranger_cv.txt")
