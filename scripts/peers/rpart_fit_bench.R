# rpart's side of scripts/bench/rpart.sh: time rpart() alone (system.time, elapsed) on a CSV
# of numeric attributes and a class in the last column, with the controls that make it grow
# what treelab's cart grows unpruned: cp = 0, minsplit = 2, minbucket = 1, no competitor or
# surrogate splits, no cross-validation, maxdepth = 30 (rpart's largest; treelab is given
# max_depth = 30). Prints: seconds leaves depth
# Usage: Rscript scripts/peers/rpart_fit_bench.R DATA.csv   (Debian r-cran-rpart)
suppressMessages(library(rpart))
path <- commandArgs(TRUE)[1]
d <- read.csv(path, colClasses = c(rep("numeric", 20), "factor"))
control <- rpart.control(cp = 0, minsplit = 2, minbucket = 1, maxcompete = 0, maxsurrogate = 0,
                         usesurrogate = 0, xval = 0, maxdepth = 30)
t <- system.time(f <- rpart(y ~ ., data = d, method = "class", control = control))
# a node's number n has depth floor(log2(n)) (rpart numbers children 2n and 2n + 1)
depth <- max(floor(log2(as.numeric(rownames(f$frame)))))
cat(sprintf("%.3f %d %d\n", t[["elapsed"]], sum(f$frame$var == "<leaf>"), depth))
