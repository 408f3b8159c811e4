/* Gaussian naive Bayes's state, shared by its plug-in (gaussian_nb.c), fit (_fit.c) and file
 * (_store.c). */
#ifndef TL_GAUSSIAN_NB_IMPL_H
#define TL_GAUSSIAN_NB_IMPL_H

#include <stdio.h>

#include "treelab/tl_model.h"

typedef struct gnb {
    double var_smoothing;
    size_t n_user_priors;
    double *user_priors;
    /* fitted (saved) */
    size_t k, p, n_lev_total;
    int *kind;          /* p: TL_ATTR_* */
    int *n_levels;      /* p: 0 for numeric attributes */
    double epsilon;     /* added to every variance */
    double *prior;      /* k */
    double *mean, *var; /* k x p; unused (0 / 1) for nominal attributes */
    double *level_prob; /* k x n_lev_total: class c's block holds every nominal attribute */
    /* not saved: lev_off laid out by tl_gnb_alloc_fit, the logarithms by tl_gnb_derive, so a loaded
     * model predicts identically */
    size_t *lev_off; /* p: where attribute j's levels start in a class block */
    double *log_prior, *log_norm, *log_level;
} gnb;

/* Frees the fitted arrays and zeroes their sizes (the parameters stay). */
void tl_gnb_clear_fit(gnb *g);
/* Allocates the fitted arrays for g->k classes and g->p attributes (kind, n_levels already
 * set); fills lev_off and n_lev_total. */
int tl_gnb_alloc_fit(gnb *g, tl_err *err);
/* The logarithms predict uses, from the saved values. */
void tl_gnb_derive(gnb *g);
/* The type's fit: priors, per-class moments and level probabilities of rows[0..n) of d. */
int tl_gnb_fit(void *state, const tl_dataset *d, const size_t *rows, size_t n,
               const tl_fit_ctx *ctx, tl_err *err);

int tl_gnb_save(const void *state, FILE *f, int indent, tl_err *err);
int tl_gnb_load(void *state, const tl_store *s, tl_err *err);
int tl_gnb_show(const void *state, const tl_schema *schema, tl_show_format fmt, FILE *f,
                tl_err *err);
int tl_gnb_check(const void *state, const tl_schema *schema, tl_err *err);

#endif
