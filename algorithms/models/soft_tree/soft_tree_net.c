/* Soft tree forward and backward passes over a batch, the matrix work done by CBLAS. */
#include <cblas.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "soft_tree_impl.h"

/* Keeps log(a) finite when a split routes a whole batch one way (large beta). */
#define ST_A_EPS 1e-12

static double sigmoid(double z)
{
    if (z >= 0)
        return 1.0 / (1.0 + exp(-z));
    double e = exp(z);
    return e / (1.0 + e);
}

/* Leaf outputs: softmax(phi) and log softmax(phi) per leaf, or phi itself for regression. */
static void leaf_outputs(const st_net *net, st_work *w)
{
    size_t L = net->tree.n_leaves, K = net->n_out;
    const double *phi = st_phi(net);
    if (net->regression) {
        memcpy(w->Q, phi, L * K * sizeof *phi);
        return;
    }
    for (size_t l = 0; l < L; l++) {
        const double *f = phi + l * K;
        double mx = f[0], s = 0;
        for (size_t c = 1; c < K; c++)
            mx = f[c] > mx ? f[c] : mx;
        for (size_t c = 0; c < K; c++)
            s += exp(f[c] - mx);
        double ls = mx + log(s);
        for (size_t c = 0; c < K; c++) {
            w->logQ[l * K + c] = f[c] - ls;
            w->Q[l * K + c] = exp(f[c] - ls);
        }
    }
}

void st_forward(const st_net *net, st_work *w, const double *X, size_t B)
{
    const st_tree *t = &net->tree;
    size_t M = t->n_inner, L = t->n_leaves, D = net->n_in, K = net->n_out;
    leaf_outputs(net, w);
    if (M) {
        /* All routing logits of the batch in one product: p = beta * X W^T. */
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)B, (int)M, (int)D, net->beta, X,
                    (int)D, st_W(net), (int)D, 0.0, w->p, (int)M);
        const double *b = st_b(net);
        for (size_t r = 0; r < B; r++)
            for (size_t s = 0; s < M; s++)
                w->p[r * M + s] = sigmoid(w->p[r * M + s] + net->beta * b[s]);
    }
    size_t N = t->n_nodes;
    const int *kid = t->kid;
    for (size_t r = 0; r < B; r++) {
        double *P = w->P + r * N;
        const double *p = w->p + r * M;
        P[0] = 1.0; /* the root, inner or (alone) a leaf, sits at position 0 */
        for (size_t s = 0; s < M; s++) {
            P[kid[2 * s]] = P[s] * (1.0 - p[s]);
            P[kid[2 * s + 1]] = P[s] * p[s];
        }
    }
    /* The mixture: Y = PL Q, PL the leaves' block of P. */
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)B, (int)K, (int)L, 1.0, w->P + M,
                (int)N, w->Q, (int)K, 0.0, w->Y, (int)K);
}

static double weight_sum(const double *wt, size_t B)
{
    if (!wt)
        return (double)B;
    double s = 0;
    for (size_t r = 0; r < B; r++)
        s += wt[r];
    return s;
}

/* Data loss of the forward pass in w; with want_grad, fills gPL (d loss / d PL) and gQ (d loss
 * / d leaf outputs, or d loss / d logQ for the expected classification loss). */
static double data_loss_grad(const st_net *net, st_loss_kind loss, st_work *w, const double *y,
                             const double *wt, size_t B, int want_grad)
{
    size_t L = net->tree.n_leaves, K = net->n_out, M = net->tree.n_inner, N = net->tree.n_nodes;
    double ws = weight_sum(wt, B), total = 0;
    if (ws <= 0)
        return 0;
    if (want_grad)
        memset(w->dY, 0, B * K * sizeof *w->dY);
    for (size_t r = 0; r < B; r++) {
        double wr = (wt ? wt[r] : 1.0) / ws;
        const double *PL = w->P + r * N + M;
        double *gPL = w->gP + r * N + M;
        if (net->regression) {
            if (loss == ST_LOSS_MIXTURE) {
                double e = w->Y[r] - y[r];
                total += wr * e * e;
                w->dY[r] = 2.0 * wr * e;
            } else {
                for (size_t l = 0; l < L; l++) {
                    double e = w->Q[l] - y[r];
                    total += wr * PL[l] * e * e;
                    if (want_grad)
                        gPL[l] = wr * e * e;
                }
                w->dY[r] = 0; /* unused */
            }
            continue;
        }
        size_t c = (size_t)y[r];
        if (loss == ST_LOSS_MIXTURE) {
            double yc = w->Y[r * K + c] > DBL_MIN ? w->Y[r * K + c] : DBL_MIN;
            total -= wr * log(yc);
            w->dY[r * K + c] = -wr / yc;
        } else {
            for (size_t l = 0; l < L; l++) {
                total -= wr * PL[l] * w->logQ[l * K + c];
                if (want_grad)
                    gPL[l] = -wr * w->logQ[l * K + c];
            }
            w->dY[r * K + c] = -wr; /* d loss / d logQ = PL^T dY */
        }
    }
    if (!want_grad)
        return total;
    if (net->regression && loss == ST_LOSS_EXPECTED) {
        /* d loss / d v_l = sum_r w_r PL_rl 2 (v_l - y_r) */
        memset(w->gQ, 0, L * sizeof *w->gQ);
        for (size_t r = 0; r < B; r++) {
            double wr = (wt ? wt[r] : 1.0) / ws;
            for (size_t l = 0; l < L; l++)
                w->gQ[l] += 2.0 * wr * w->P[r * N + M + l] * (w->Q[l] - y[r]);
        }
        return total;
    }
    if (loss == ST_LOSS_MIXTURE)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)B, (int)L, (int)K, 1.0, w->dY,
                    (int)K, w->Q, (int)K, 0.0, w->gP + M, (int)N);
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)L, (int)K, (int)B, 1.0, w->P + M,
                (int)N, w->dY, (int)K, 0.0, w->gQ, (int)K);
    return total;
}

/* Gradient of the leaf parameters from gQ. */
static void leaf_grad(const st_net *net, st_loss_kind loss, const st_work *w, double *gphi)
{
    size_t L = net->tree.n_leaves, K = net->n_out;
    if (net->regression) {
        memcpy(gphi, w->gQ, L * K * sizeof *gphi);
        return;
    }
    for (size_t l = 0; l < L; l++) {
        const double *g = w->gQ + l * K, *q = w->Q + l * K;
        double dot = 0;
        for (size_t c = 0; c < K; c++)
            dot += loss == ST_LOSS_MIXTURE ? g[c] * q[c] : g[c];
        for (size_t c = 0; c < K; c++)
            gphi[l * K + c] = loss == ST_LOSS_MIXTURE ? q[c] * (g[c] - dot) : g[c] - q[c] * dot;
    }
}

/* Balance penalty lambda * sum_i 2^-depth(i) * -(log a_i + log(1 - a_i)) / 2, a_i the
 * path-weighted mean routing probability of inner node i over the batch. Leaves in w->a, per
 * inner slot, d penalty / d a_i, then sum_r w_r Pin_ri, then a_i. */
static double penalty(const st_net *net, double lambda, st_work *w, const double *wt, size_t B)
{
    const st_tree *t = &net->tree;
    size_t M = t->n_inner;
    double *coef = w->a, *den = w->a + M, *av = w->a + 2 * M, total = 0;
    /* Row by row, so the batch matrices are read in memory order. */
    for (size_t s = 0; s < M; s++)
        coef[s] = den[s] = 0;
    for (size_t r = 0; r < B; r++) {
        double wr = wt ? wt[r] : 1.0;
        const double *Pin = w->P + r * t->n_nodes, *p = w->p + r * M;
        for (size_t s = 0; s < M; s++) {
            coef[s] += wr * Pin[s] * p[s];
            den[s] += wr * Pin[s];
        }
    }
    for (size_t s = 0; s < M; s++) {
        double nu = coef[s], de = den[s];
        coef[s] = 0;
        if (de <= 0)
            continue;
        double a = nu / de, c = lambda * ldexp(1.0, -t->slot_depth[s]);
        a = a < ST_A_EPS ? ST_A_EPS : a > 1 - ST_A_EPS ? 1 - ST_A_EPS : a;
        av[s] = a;
        total -= c * 0.5 * (log(a) + log(1.0 - a));
        coef[s] = -c * 0.5 * (1.0 / a - 1.0 / (1.0 - a));
    }
    return total;
}

/* Backward through the routing, from gPL (and the penalty's terms when pen) to gz, the
 * gradient of the pre-beta logits w.x + b. */
static void route_backward(const st_net *net, st_work *w, const double *wt, size_t B, int pen)
{
    const st_tree *t = &net->tree;
    size_t M = t->n_inner, N = t->n_nodes;
    const double *coef = w->a, *den = w->a + M, *av = w->a + 2 * M;
    const int *kid = t->kid;
    for (size_t r = 0; r < B; r++) {
        double *gP = w->gP + r * N, *gz = w->gz + r * M;
        const double *P = w->P + r * N, *p = w->p + r * M;
        double wr = wt ? wt[r] : 1.0;
        for (size_t s = 0; s < M; s++)
            gP[s] = 0;
        /* Children come after parents, so a reverse sweep sees each node's gradient whole. */
        for (size_t s = M; s-- > 0;) {
            double gl = gP[kid[2 * s]], gr = gP[kid[2 * s + 1]];
            double pr = p[s], gp = P[s] * (gr - gl);
            gP[s] += gl * (1.0 - pr) + gr * pr;
            if (pen && den[s] > 0) {
                double k = coef[s] * wr / den[s]; /* d a / d(p, P) of this row */
                gp += k * P[s];
                gP[s] += k * (pr - av[s]);
            }
            gz[s] = net->beta * gp * pr * (1.0 - pr);
        }
    }
}

double st_objective_grad(const st_net *net, const st_objective *obj, st_work *w, const double *X,
                         const double *y, const double *wt, size_t B, double *grad,
                         double *data_loss)
{
    size_t M = net->tree.n_inner, D = net->n_in;
    st_forward(net, w, X, B);
    int want = grad != NULL, pen = obj->lambda > 0 && M > 0;
    double dl = data_loss_grad(net, obj->loss, w, y, wt, B, want);
    double total = dl;
    if (data_loss)
        *data_loss = dl;
    if (pen)
        total += penalty(net, obj->lambda, w, wt, B);
    const double *W = st_W(net);
    if (obj->l2 > 0)
        for (size_t k = 0; k < M * D; k++)
            total += 0.5 * obj->l2 * W[k] * W[k];
    if (!want)
        return total;
    double *gW = grad, *gb = grad + M * D, *gphi = gb + M;
    leaf_grad(net, obj->loss, w, gphi);
    if (M == 0)
        return total;
    route_backward(net, w, wt, B, pen);
    /* The weight gradient in one product: gW = gz^T X. */
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)M, (int)D, (int)B, 1.0, w->gz, (int)M,
                X, (int)D, 0.0, gW, (int)D);
    for (size_t s = 0; s < M; s++)
        gb[s] = 0;
    for (size_t r = 0; r < B; r++)
        for (size_t s = 0; s < M; s++)
            gb[s] += w->gz[r * M + s];
    if (obj->l2 > 0)
        cblas_daxpy((int)(M * D), obj->l2, W, 1, gW, 1);
    return total;
}

double st_data_loss(const st_net *net, st_loss_kind loss, st_work *w, const double *X,
                    const double *y, const double *wt, size_t n)
{
    double total = 0, ws = 0;
    for (size_t at = 0; at < n; at += w->cap) {
        size_t B = n - at < w->cap ? n - at : w->cap;
        const double *wb = wt ? wt + at : NULL;
        st_forward(net, w, X + at * net->n_in, B);
        double bw = weight_sum(wb, B);
        total += bw * data_loss_grad(net, loss, w, y + at, wb, B, 0);
        ws += bw;
    }
    return ws > 0 ? total / ws : 0;
}

void st_predict_rows(const st_net *net, st_predict_kind mode, st_work *w, const double *X, size_t n,
                     double *out)
{
    size_t K = net->n_out, L = net->tree.n_leaves;
    for (size_t at = 0; at < n; at += w->cap) {
        size_t B = n - at < w->cap ? n - at : w->cap;
        st_forward(net, w, X + at * net->n_in, B);
        for (size_t r = 0; r < B; r++) {
            const double *src = w->Y + r * K;
            if (mode == ST_PREDICT_MAX_PATH) {
                const double *PL = w->P + r * net->tree.n_nodes + net->tree.n_inner;
                size_t best = 0;
                for (size_t l = 1; l < L; l++)
                    if (PL[l] > PL[best])
                        best = l;
                src = w->Q + best * K;
            }
            memcpy(out + (at + r) * K, src, K * sizeof *out);
        }
    }
}
