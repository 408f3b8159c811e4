# Record partykit's conditional inference trees (ctree with its defaults) for treelab's ctree
# preset (tests/test_ctree.c).
# Run from the repository root: Rscript scripts/peers/partykit_ctree.R
# (Debian r-cran-partykit, r-cran-foreign). partykit routes a row whose split value is missing
# at random, so every tree is grown on the complete cases of the bundled data only.
# For each case it writes tests/fixtures/partykit_ctree/NAME.txt:
#   a header (data, target, controls, number of complete rows and nodes), then the nodes in
#   partykit's order (depth first, left before right), one a line:
#     split ATTR numeric BREAK PVALUE         (x <= BREAK goes left)
#     split ATTR nominal LEVELS PVALUE        (LEVELS: the left levels' codes, 0-based, by ',')
#     leaf
#   where ATTR is the attribute's 0-based position among the data's columns without the
#   target, then one line per complete row (in file order): the predicted class's name, or
#   for a numeric target the predicted mean.
#   Numbers are %.17g.
suppressMessages(library(partykit))
suppressMessages(library(foreign))
out_dir <- "tests/fixtures/partykit_ctree"
dir.create(out_dir, showWarnings = FALSE)

# The levels of each nominal attribute in the order the ARFF header declares them (treelab's
# codes): read.arff sorts them, and partykit's enumeration of level sets (and its ties) follows
# the factor's order.
declared <- function(path, d) {
  for (line in grep("^@attribute", readLines(path), ignore.case = TRUE, value = TRUE)) {
    if (!grepl("\\{", line)) next
    name <- sub("^@attribute\\s+('([^']*)'|\"([^\"]*)\"|(\\S+)).*$", "\\2\\3\\4", line,
                ignore.case = TRUE)
    body <- sub("^[^{]*\\{(.*)\\}.*$", "\\1", line)
    lev <- regmatches(body, gregexpr("'[^']*'|\"[^\"]*\"|[^,]+", body))[[1]]
    lev <- gsub("^['\"]|['\"]$", "", trimws(lev))
    stopifnot(name %in% names(d), all(levels(d[[name]]) %in% lev))
    d[[name]] <- factor(as.character(d[[name]]), levels = lev)
  }
  d
}

record <- function(name, file, target, ctl = ctree_control(), ctl_text = "defaults") {
  set.seed(1) # mvtnorm's randomised quasi-Monte Carlo (teststat = maximum, > 1 component)
  path <- file.path("experiments/datasets", file)
  d <- declared(path, read.arff(path))
  cc <- d[complete.cases(d), , drop = FALSE]
  attrs <- setdiff(names(cc), target)
  f <- as.formula(paste0("`", target, "` ~ ."))
  ct <- ctree(f, data = cc, control = ctl)
  mf <- names(ct$data)
  lines <- c(sprintf("# partykit %s ctree, %s (scripts/peers/partykit_ctree.R)",
                     packageVersion("partykit"), ctl_text),
             sprintf("data experiments/datasets/%s", file), sprintf("target %s", target),
             sprintf("rows %d", nrow(cc)), sprintf("nodes %d", length(nodeids(ct))))
  for (id in nodeids(ct)) {
    n <- node_party(ct[[id]])
    s <- split_node(n)
    if (is.null(s)) {
      lines <- c(lines, "leaf")
      next
    }
    var <- mf[varid_split(s)]
    a <- match(var, attrs) - 1
    p <- sprintf("%.17g", info_node(n)$p.value)
    if (is.null(breaks_split(s))) {
      idx <- index_split(s)
      left <- which(!is.na(idx) & idx == 1) - 1
      lines <- c(lines, sprintf("split %d nominal %s %s", a, paste(left, collapse = ","), p))
    } else {
      stopifnot(right_split(s))
      lines <- c(lines, sprintf("split %d numeric %.17g %s", a, breaks_split(s), p))
    }
  }
  pred <- predict(ct, newdata = cc, type = "response")
  lines <- c(lines, if (is.factor(pred)) as.character(pred) else sprintf("%.17g", pred))
  writeLines(lines, file.path(out_dir, paste0(name, ".txt")))
}

record("iris", "iris.arff", "class")
record("diabetes", "diabetes.arff", "class")
record("glass", "glass.arff", "Type")
record("credit-g", "credit-g.arff", "class")
record("breast-cancer", "breast-cancer.arff", "Class")
record("vote", "vote.arff", "Class")
record("ionosphere", "ionosphere.arff", "class")
record("segment", "segment-challenge.arff", "class")
record("wine", "wine.arff", "class")
# teststat = maximum: on two classes and numeric attributes (or two-level ones) the p-value is
# the normal's; otherwise a multivariate normal probability, which partykit computes by
# randomised quasi-Monte Carlo (absolute error 0.001) and treelab by Monte Carlo
record("diabetes_maximum", "diabetes.arff", "class",
       ctree_control(teststat = "maximum", splitstat = "maximum"),
       "teststat = splitstat = maximum")
record("vote_maximum", "vote.arff", "Class",
       ctree_control(teststat = "maximum", splitstat = "maximum"),
       "teststat = splitstat = maximum")
record("iris_maximum", "iris.arff", "class", ctree_control(teststat = "maximum"),
       "teststat = maximum")
record("wine_maximum", "wine.arff", "class", ctree_control(teststat = "maximum"),
       "teststat = maximum")
record("breast-cancer_maximum", "breast-cancer.arff", "Class",
       ctree_control(teststat = "maximum"), "teststat = maximum")
# a numeric target (influence function y itself)
record("iris_length", "iris.arff", "sepallength")
record("glass_ri", "glass.arff", "RI")
record("diabetes_mass", "diabetes.arff", "mass")
record("iris_length_maximum", "iris.arff", "sepallength",
       ctree_control(teststat = "maximum", splitstat = "maximum"),
       "teststat = splitstat = maximum")
record("glass_splitmax", "glass.arff", "Type", ctree_control(splitstat = "maximum"),
       "splitstat = maximum")
record("diabetes_univariate", "diabetes.arff", "class",
       ctree_control(testtype = "Univariate", mincriterion = 0.99),
       "testtype = Univariate, mincriterion = 0.99")
