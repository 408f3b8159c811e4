# Record rpart's cost-complexity table (the CP sequence of the fully grown tree) that
# treelab's CART path with ccp_risk = "error" is tested against.
# Run from the repository root: Rscript scripts/peers/rpart_cptable.R   (Debian r-cran-rpart)
# Writes tests/fixtures/rpart_<dataset>.txt: the root risk (misclassified share, or the mean
# squared error for regression), then one line per subtree: CP, splits, relative error, all
# with 17 significant digits. Trees are grown to purity (minsplit 2, minbucket 1, cp 0), with
# no competitor or surrogate splits and no cross-validation.
suppressMessages(library(rpart))
suppressMessages(library(foreign))
control <- rpart.control(minsplit = 2, minbucket = 1, cp = 0, xval = 0, maxcompete = 0,
                         maxsurrogate = 0)
record <- function(name, file, method) {
  if (grepl("\\.arff$", file)) d <- read.arff(file) else d <- read.csv(file)
  target <- names(d)[ncol(d)]
  f <- rpart(as.formula(paste0("`", target, "` ~ .")), data = d, method = method,
             control = control)
  root <- if (method == "class") {
    1 - max(table(d[[target]])) / nrow(d)
  } else {
    mean((d[[target]] - mean(d[[target]]))^2)
  }
  out <- file.path("tests/fixtures", paste0("rpart_", name, ".txt"))
  lines <- c(sprintf("# rpart %s, method %s, on %s (scripts/peers/rpart_cptable.R)",
                     packageVersion("rpart"), method, file),
             sprintf("root_risk %.17g", root),
             sprintf("%.17g %d %.17g", f$cptable[, "CP"], as.integer(f$cptable[, "nsplit"]),
                     f$cptable[, "rel error"]))
  writeLines(lines, out)
  cat(out, ":", nrow(f$cptable), "subtrees\n")
}
record("iris", "experiments/datasets/iris.arff", "class")
record("wine", "experiments/datasets/wine.arff", "class")
record("breast_cancer", "experiments/datasets/breast_cancer.arff", "class")
record("engagement", "experiments/datasets/engagement-regression.csv", "anova")
