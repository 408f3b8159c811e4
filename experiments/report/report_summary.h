/* What summary.md's writer shares with summary.csv's (internal to report/): the metrics by
 * task and the statistics of one (dataset, model) pair. */
#ifndef TL_REPORT_SUMMARY_H
#define TL_REPORT_SUMMARY_H

#include "report_util.h"

#define ALPHA 0.05

/* the task's own metrics, before leaves and depth */
#define N_CLS 10
#define N_REG 4
extern const char *const tl_rep_cls_names[N_CLS + 2];
extern const char *const tl_rep_reg_names[N_REG + 2];

/* One (dataset, model) pair: means, sds and the comparison with the baseline. */
typedef struct pair_stats {
    size_t n;
    double mean[N_CLS + 2], sd[N_CLS + 2];
    double fid_mean, fid_sd; /* fidelity to the teacher of a distilled model (else NaN) */
    double p;   /* corrected t-test p-value against the baseline (NaN: not tested) */
    int result; /* +1 win, 0 tie, -1 loss, 2 is the baseline, 3 not tested */
} pair_stats;

/* "win", "tie", "loss", "baseline" or "n/a" for pair_stats' result. */
const char *tl_rep_result_word(int r);

/* Groups of a dataset's cells that get a row each: one, or a learning curve's fractions. */
static inline size_t tl_rep_n_groups(const tl_rep *r)
{
    return r->meta.n_fractions ? r->meta.n_fractions : 1;
}

/* summary.md: its header; dataset d's table from its pairs ps (n_groups x n_models); the
 * comparison across datasets from every pair (dataset, group, model order). */
void tl_rep_sum_md_header(FILE *f, const tl_rep *r);
void tl_rep_sum_md_dataset(FILE *f, const tl_rep *r, size_t d, const pair_stats *ps);
int tl_rep_sum_md_overall(FILE *f, const tl_rep *r, const pair_stats *all, tl_err *err);

#endif
