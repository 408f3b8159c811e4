/* Conditional inference statistics (Strasser & Weber 1999; Hothorn, Hornik & Zeileis 2006)
 * for a nominal response, shared by the ctree criterion and the max_stat splitter. */
#ifndef TL_CTREE_STAT_H
#define TL_CTREE_STAT_H

#include <stddef.h>

/* libcoin's tolerance (sqrt of DBL_EPSILON): a linear statistic whose variance is at or below
 * it counts as constant. */
#define TLC_TOL 1.4901161193847656e-08
/* Draws of the Monte Carlo p-value of a maximum statistic with more than one component. */
#define TLC_MC_DRAWS 100000

typedef enum { TLC_QUADRATIC = 0, TLC_MAXIMUM = 1 } tlc_teststat;

/* A test's result: the statistic, its degrees of freedom (quadratic) or the number of
 * standardised components (maximum), and log(1 - p). ok = 0: undefined (constant attribute or
 * response in the node), which partykit leaves out of the Bonferroni count. */
typedef struct tlc_test {
    int ok;
    double stat;
    double dim;
    double log1mp;
} tlc_test;

/* The conditional-permutation test of independence between an nb x k weight table (rows: the
 * attribute's levels or a partition's branches; columns: classes) whose row totals are the
 * attribute's levels: quadratic = (N - 1) / N times Pearson's X^2 (the Moore-Penrose form of
 * Strasser & Weber's statistic for indicator scores), maximum = the largest standardised cell.
 * col: k doubles of scratch. */
tlc_test tlc_table_test(const double *table, size_t nb, size_t k, tlc_teststat type, double *col);

/* The same test for a numeric attribute: n its weight, sx = sum w x, sxx = sum w x^2, cls the k
 * class weights and csx the k class sums of w x (over the rows where x is known). */
tlc_test tlc_numeric_test(double n, double sx, double sxx, const double *cls, const double *csx,
                          size_t k, tlc_teststat type);

/* The standardised two-sample statistic of a binary partition (left: k class weights of one
 * side; parent: the node's), the one partykit maximises over cut points; 0 when undefined. */
double tlc_two_sample(const double *left, const double *parent, size_t k, tlc_teststat type);

/* A numeric target (influence h(y) = y): a numeric attribute's test from the sums over the
 * rows where x is known (n = sum w, sx = sum w x, sxx = sum w x^2, sy = sum w y, syy = sum
 * w (y - sy / n)^2, about the mean, sxy = sum w x y); a nominal one's from
 * nb levels' (w, sum w y, sum w y^2) and ss, the sum of squares about the mean over their
 * rows; a partition's two-sample statistic from (w, sum, sum of
 * squares) of one side and of the node. */
tlc_test tlc_reg_numeric_test(double n, double sx, double sxx, double sy, double syy, double sxy,
                              tlc_teststat type);
tlc_test tlc_reg_table_test(const double *levels, size_t nb, double ss, tlc_teststat type);
/* The response's sum of squares about its mean from nb levels' (w, sum w y, sum w y^2): a
 * partition's, where only its statistics are known (it scales a split statistic alike for
 * every cut of the node). */
double tlc_reg_levels_ss(const double *levels, size_t nb);
double tlc_reg_two_sample(const double *left, const double *parent, tlc_teststat type);

#endif
