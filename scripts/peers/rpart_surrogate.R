# Record rpart's trees with surrogate splits on data with missing values, for treelab's CART
# with missing = surrogate (tests/test_missing.c).
# Run from the repository root: Rscript scripts/peers/rpart_surrogate.R   (Debian r-cran-rpart)
# rpart's default controls (minsplit 20, minbucket 7, cp 0.01, maxcompete 4, maxsurrogate 5,
# usesurrogate 2, surrogatestyle 0), and cp 0 for deeper trees; xval = 0, which changes no tree.
# For each case it writes into tests/fixtures/rpart_surrogate/:
#   DATA_train.arff the training data (DATA: NAME, or the case it shares its data with): the
#                   bundled data, with values removed at fixed places where it has none of
#                   its own (ARFF keeps the order of the levels, which rpart's ties follow:
#                   the class index)
#   DATA_test.arff  the same rows with values removed at other places
#   NAME.txt        the tree's leaves, the class names (the order of the probability
#                   columns), the root's surrogate splits (agreement, adjusted agreement,
#                   threshold or -1 for a nominal split, variable) and the predictions (class
#                   probabilities, or the value) for every training and test row, %.17g
suppressMessages(library(rpart))
suppressMessages(library(foreign))
out_dir <- "tests/fixtures/rpart_surrogate"

blank <- function(d, target, a, b, m) {
  cols <- setdiff(names(d), target)
  for (j in seq_along(cols)) {
    rows <- which(((seq_len(nrow(d)) * a + j * b) %% m) == 0)
    d[rows, cols[j]] <- NA
  }
  d
}

record <- function(name, d, target, method, blank_train, cp = 0.01, files = name) {
  train <- if (blank_train) blank(d, target, 7, 13, 10) else d
  test <- blank(d, target, 11, 3, 8)
  # ARFF keeps the order of the levels, which rpart's ties follow (its class index)
  write.arff(train, file.path(out_dir, paste0(files, "_train.arff")))
  write.arff(test, file.path(out_dir, paste0(files, "_test.arff")))
  f <- rpart(as.formula(paste0("`", target, "` ~ .")), data = train, method = method,
             control = rpart.control(xval = 0, cp = cp))
  leaves <- sum(f$frame$var == "<leaf>")
  lines <- c(sprintf("# rpart %s defaults, method %s (scripts/peers/rpart_surrogate.R)",
                     packageVersion("rpart"), method),
             sprintf("data %s", files), sprintf("target %s", target), sprintf("cp %.17g", cp), sprintf("leaves %d", leaves))
  if (method == "class")
    lines <- c(lines, paste0("classes ", paste(levels(train[[target]]), collapse = "|")))
  # the root's splits: the primary, maxcompete competitors, then the surrogates
  nprim <- 1 + f$frame$ncompete[1]
  nsur <- f$frame$nsurrogate[1]
  if (nsur > 0) {
    s <- f$splits[nprim + seq_len(nsur), , drop = FALSE]
    for (i in seq_len(nrow(s)))
      lines <- c(lines, sprintf("surrogate %.17g %.17g %.17g %s", s[i, "improve"], s[i, "adj"],
                                if (s[i, "ncat"] > 1) -1 else s[i, "index"], rownames(s)[i]))
  }
  pred <- function(tag, data) {
    p <- if (method == "class") predict(f, data, type = "prob") else
      matrix(predict(f, data), ncol = 1)
    sprintf("%s %d %s", tag, seq_len(nrow(p)),
            apply(p, 1, function(r) paste(sprintf("%.17g", r), collapse = " ")))
  }
  lines <- c(lines, pred("train", train), pred("test", test))
  writeLines(lines, file.path(out_dir, paste0(name, ".txt")))
  cat(name, ":", leaves, "leaves,", nsur, "root surrogates\n")
}

# Not recorded: iris (class) and soybean, where tests tie exactly and rpart's rounding picks
# another than treelab's first attribute (see tests/test_missing.c)
iris <- read.arff("experiments/datasets/iris.arff")
record("wine", read.arff("experiments/datasets/wine.arff"), "class", "class", TRUE)
record("vote", read.arff("experiments/datasets/vote.arff"), "Class", "class", FALSE)
record("iris_petalwidth", iris, "petalwidth", "anova", TRUE)
# grown further (cp 0: only splits that gain nothing are cut back), so that many nodes use
# their surrogates
record("wine_cp0", read.arff("experiments/datasets/wine.arff"), "class", "class", TRUE, 0, "wine")
record("glass_cp0", read.arff("experiments/datasets/glass.arff"), "Type", "class", TRUE, 0)
record("breast_cancer_cp0", read.arff("experiments/datasets/breast_cancer.arff"), "class",
       "class", TRUE, 0)
record("vote_cp0", read.arff("experiments/datasets/vote.arff"), "Class", "class", FALSE, 0, "vote")
record("breast_cancer_nominal", read.arff("experiments/datasets/breast-cancer.arff"), "Class",
       "class", FALSE, 0)
record("iris_petalwidth_cp0", iris, "petalwidth", "anova", TRUE, 0, "iris_petalwidth")
record("labor_cp0", read.arff("experiments/datasets/labor.arff"), "class", "class", FALSE, 0)
