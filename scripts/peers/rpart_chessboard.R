# R's rpart with its defaults on treelab's chessboard data (configs/literature/chessboard/),
# 10-fold CV (R's own shuffle, seed 1): mean accuracy and leaves per noise level, for the
# comparison in docs/optimal.md. Run from the repository root:
#   Rscript scripts/peers/rpart_chessboard.R
library(rpart)
cat("noise accuracy leaves (rpart", as.character(packageVersion("rpart")), "defaults)\n")
for (nz in c(0, 5, 10)) {
  d <- read.csv(sprintf("configs/literature/chessboard/chessboard_noise%d.csv", nz),
                stringsAsFactors = TRUE)
  set.seed(1)
  idx <- sample(nrow(d))
  fold <- cut(seq_along(idx), 10, labels = FALSE)
  acc <- c()
  leaves <- c()
  for (k in 1:10) {
    te <- idx[fold == k]
    m <- rpart(class ~ ., d[-te, ])
    acc <- c(acc, mean(predict(m, d[te, ], type = "class") == d$class[te]))
    leaves <- c(leaves, sum(m$frame$var == "<leaf>"))
  }
  cat(nz, sprintf("%.4f", mean(acc)), sprintf("%.1f", mean(leaves)), "\n")
}
