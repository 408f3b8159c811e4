/* Soft tree passes over a batch in double or float (float32: float kernels and products). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "soft_tree_impl.h"

#define REAL double
#define FN(name) name##_d
#define BUF d
#define BUFT st_bufs_d
#define LOGITS st_logits_d
#define WGRAD st_wgrad_d
#define SIGMOID st_vsigmoid
#define LOG_SIGMOID st_vlog_sigmoid
#define TINY DBL_MIN
#include "soft_tree_net_body.h"
#include "soft_tree_net_grad_body.h"
#undef REAL
#undef FN
#undef BUF
#undef BUFT
#undef LOGITS
#undef WGRAD
#undef SIGMOID
#undef LOG_SIGMOID
#undef TINY

#define REAL float
#define FN(name) name##_f
#define BUF f
#define BUFT st_bufs_f
#define LOGITS st_logits_f
#define WGRAD st_wgrad_f
#define SIGMOID st_vsigmoid_f
#define LOG_SIGMOID st_vlog_sigmoid_f
#define TINY FLT_MIN
#include "soft_tree_net_body.h"
#include "soft_tree_net_grad_body.h"

void st_softmax_row(const double *f, size_t K, double *Q, double *logQ)
{
    softmax_row_d(f, K, Q, logQ);
}

void st_leaf_outputs(const st_net *net, st_work *w)
{
    leaf_outputs_d(net, st_phi(net), &w->d);
}

double st_penalty(const st_net *net, double lambda, st_work *w)
{
    return penalty_d(net, lambda, w);
}

void st_leaf_grad(const st_net *net, st_loss_kind loss, st_work *w, double *gphi)
{
    leaf_grad_d(net, loss, &w->d, gphi);
}

/* float: the parameters rounded once per pass (training keeps and updates them in double). */
static void load_theta(const st_net *net, st_work *w)
{
    if (net->single)
        for (size_t k = 0; k < net->n_theta; k++)
            w->f.theta[k] = (float)net->theta[k];
}

/* Inputs, targets (when d has them) and weights (1 when d has none) of rows idx[0..B) of d,
 * or of its first B rows when idx is NULL, into the batch buffers in the net's precision, the
 * inputs feature-major (input j of the batch's row r at [j * B + r]), as the products read
 * them. */
void st_gather(const st_net *net, st_work *w, const st_data *d, const size_t *idx, size_t B)
{
    size_t D = net->n_in;
    for (size_t r = 0; r < B; r++) {
        size_t i = idx ? idx[r] : r;
        double wr = d->wt ? d->wt[i] : 1.0;
        if (net->single)
            w->f.wt[r] = (float)wr;
        else
            w->d.wt[r] = wr;
        if (d->y)
            w->yb[r] = d->y[i];
    }
    w->soft = d->q && w->qb;
    for (size_t r = 0; w->soft && r < B; r++)
        memcpy(w->qb + r * net->n_out, d->q + (idx ? idx[r] : r) * net->n_out,
               net->n_out * sizeof *w->qb);
    if (!st_net_dense(net)) { /* the row passes read each row's inputs together */
        for (size_t r = 0; r < B; r++)
            memcpy(w->d.X + r * D, d->X + (idx ? idx[r] : r) * D, D * sizeof *d->X);
        return;
    }
    /* input by input: the batch's rows stay in L1 while each input's row fills in order */
    for (size_t j = 0; j < D; j++) {
        const double *x = d->X + j;
        if (net->single) {
            float *restrict xt = w->f.X + j * B;
            for (size_t r = 0; r < B; r++)
                xt[r] = (float)x[(idx ? idx[r] : r) * D];
        } else {
            double *restrict xt = w->d.X + j * B;
            for (size_t r = 0; r < B; r++)
                xt[r] = x[(idx ? idx[r] : r) * D];
        }
    }
}

static void put_rows(const st_net *net, st_work *w, const double *X, const double *y,
                     const double *wt, size_t B)
{
    st_data d = {.X = X, .y = y, .wt = wt, .n = B};
    st_gather(net, w, &d, NULL, B);
}

/* The objective of the batch in the buffers, parameters already loaded. */
static double pass(const st_net *net, const st_objective *obj, st_work *w, size_t B, double *grad,
                   double *data_loss)
{
    if (!st_net_dense(net))
        return st_rows_objective(net, obj, w, B, grad, data_loss);
    if (!net->single)
        return objective_d(net, obj, w, net->theta, w->d.X, w->yb, B, grad, data_loss);
    double total =
        objective_f(net, obj, w, w->f.theta, w->f.X, w->yb, B, grad ? w->f.grad : NULL, data_loss);
    for (size_t k = 0; grad && k < net->n_theta; k++)
        grad[k] = w->f.grad[k];
    return total;
}

double st_batch_grad(const st_net *net, const st_objective *obj, st_work *w, size_t B, double *grad,
                     double *data_loss)
{
    load_theta(net, w);
    double total = pass(net, obj, w, B, grad, data_loss);
    if (net->shape && net->shape->penalty)
        total += net->shape->penalty(net->shape_par, st_W(net), net->n_split * net->n_in, grad);
    return total;
}

double st_objective_grad(const st_net *net, const st_objective *obj, st_work *w, const double *X,
                         const double *y, const double *wt, size_t B, double *grad,
                         double *data_loss)
{
    put_rows(net, w, X, y, wt, B);
    return st_batch_grad(net, obj, w, B, grad, data_loss);
}

double st_data_loss(const st_net *net, st_loss_kind loss, st_work *w, const double *X,
                    const double *y, const double *wt, size_t n)
{
    st_objective obj = {loss, 0, 0};
    double total = 0, ws = 0;
    load_theta(net, w);
    for (size_t at = 0; at < n; at += w->cap) {
        size_t B = n - at < w->cap ? n - at : w->cap;
        double bw = 0;
        for (size_t r = 0; r < B; r++)
            bw += wt ? wt[at + r] : 1.0;
        put_rows(net, w, X + at * net->n_in, y + at, wt ? wt + at : NULL, B);
        total += bw * pass(net, &obj, w, B, NULL, NULL);
        ws += bw;
    }
    return ws > 0 ? total / ws : 0;
}

void st_predict_rows(const st_net *net, st_predict_kind mode, st_work *w, const double *X, size_t n,
                     double *out)
{
    size_t K = net->n_out, D = net->n_in;
    load_theta(net, w);
    for (size_t at = 0; at < n; at += w->cap) {
        size_t B = n - at < w->cap ? n - at : w->cap;
        if (!st_net_dense(net)) {
            st_rows_predict(net, mode, w, X + at * D, B, out + at * K);
            continue;
        }
        put_rows(net, w, X + at * D, NULL, NULL, B);
        if (net->single)
            predict_f(net, mode, &w->f, w->f.theta, w->f.X, B, out + at * K);
        else
            predict_d(net, mode, &w->d, net->theta, w->d.X, B, out + at * K);
    }
}
