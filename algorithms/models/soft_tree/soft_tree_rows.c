/* Soft tree passes row by row, for any gate and shape, skipping every subtree a row reaches
 * with path probability exactly 0 (conditional computation, Hazimeh et al. 2020). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "soft_tree_impl.h"

/* w.x in ST_LANES fixed lanes (see st_fold). */
static inline double dot(const double *restrict w, const double *restrict x, size_t D)
{
    double u[ST_LANES] = {0};
    size_t k = 0;
    for (; k + ST_LANES <= D; k += ST_LANES)
        for (int j = 0; j < ST_LANES; j++)
            u[j] += w[k + j] * x[k + j];
    for (; k < D; k++)
        u[k % ST_LANES] += w[k] * x[k];
    return st_fold(u);
}

static inline size_t push(st_reach *e, size_t *n, int pos, double P)
{
    e->pos[*n] = pos;
    e->P[*n] = P;
    return (*n)++;
}

/* Every node row x reaches, from entry `at` on; returns the entry past its last. A child is
 * reached when its path probability is above 0: a gate that is exactly 0 or 1 (smooth_step,
 * entmoid outside their band) leaves the other subtree unvisited. With bal, the balance
 * penalty's sums (see forward_d): weight * P into bal[M + s], weight * P * p into bal[s]. */
ST_CLONES static size_t reach_row(const st_net *net, const double *restrict x, double wr,
                                  st_reach *e, size_t at, double *bal)
{
    const st_tree *t = &net->tree;
    const st_gate_type *g = net->gate ? net->gate : &st_gate_sigmoid;
    size_t M = t->n_inner, D = net->n_in, n = at;
    const double *W = st_W(net), *b = st_b(net);
    push(e, &n, 0, 1.0); /* the root: inner, or alone a leaf, at position 0 */
    for (size_t i = at; i < n; i++) {
        size_t s = (size_t)e->pos[i];
        if (s >= M)
            continue;
        size_t row = st_split_row(net, s);
        double z = net->beta * (dot(W + row * D, x, D) + b[row]), p, dp, P = e->P[i];
        g->apply(net->gate_par, z, &p, &dp);
        e->p[i] = p;
        e->dp[i] = dp;
        /* both children written, kept when reached: no branch to mispredict (the reach
         * buffers have two entries to spare) */
        double Pl = P * (1 - p), Pr = P * p;
        e->pos[n] = t->kid[2 * s];
        e->P[n] = Pl;
        e->kid[2 * i] = Pl > 0 ? (int)n : -1;
        n += Pl > 0;
        e->pos[n] = t->kid[2 * s + 1];
        e->P[n] = Pr;
        e->kid[2 * i + 1] = Pr > 0 ? (int)n : -1;
        n += Pr > 0;
        if (bal) {
            bal[M + s] += wr * P;
            bal[s] += wr * P * p;
        }
    }
    return n;
}

size_t st_reach_row(const st_net *net, const double *x, double wr, st_reach *e, size_t at,
                    double *bal)
{
    return reach_row(net, x, wr, e, at, bal);
}

/* The forward pass of the batch in w: every row's reached nodes into w->e. */
static void forward(const st_net *net, st_work *w, size_t B, double *bal)
{
    size_t D = net->n_in, n = 0;
    if (bal)
        memset(bal, 0, 2 * net->tree.n_inner * sizeof *bal);
    for (size_t r = 0; r < B; r++) {
        w->e.start[r] = n;
        n = reach_row(net, w->d.X + r * D, w->d.wt[r], &w->e, n, bal);
    }
    w->e.start[B] = n;
}

/* Row r's mixture output Y (n_out) from its reached leaves. */
static void mixture(const st_net *net, const st_work *w, size_t r, double *Y)
{
    size_t M = net->tree.n_inner, K = net->n_out;
    const st_reach *e = &w->e;
    memset(Y, 0, K * sizeof *Y);
    for (size_t i = e->start[r]; i < e->start[r + 1]; i++) {
        if ((size_t)e->pos[i] < M)
            continue;
        const double *q = w->d.Q + ((size_t)e->pos[i] - M) * K;
        for (size_t c = 0; c < K; c++)
            Y[c] += e->P[i] * q[c];
    }
}

/* Row r's weighted data loss (wr its weight share, y its target); with want, d loss / d P into
 * its leaves' entries and d loss / d (leaf outputs) added to w->d.gQ (d loss / d logQ for the
 * expected classification loss), as data_loss_grad_d. */
static double row_loss(const st_net *net, st_loss_kind loss, st_work *w, size_t r, double wr,
                       double y, int want)
{
    size_t M = net->tree.n_inner, K = net->n_out, c = net->regression ? 0 : (size_t)y;
    st_reach *e = &w->e;
    double *Y = w->d.Y, *Q = w->d.Q, *gQ = w->d.gQ, total = 0, dY = 0;
    if (loss == ST_LOSS_MIXTURE) {
        mixture(net, w, r, Y);
        if (net->regression) {
            double d = Y[0] - y;
            total = wr * d * d;
            dY = 2.0 * wr * d;
        } else {
            double yc = Y[c] > DBL_MIN ? Y[c] : DBL_MIN;
            total = -wr * log(yc);
            dY = -wr / yc;
        }
    }
    for (size_t i = e->start[r]; i < e->start[r + 1]; i++) {
        if ((size_t)e->pos[i] < M)
            continue;
        size_t l = (size_t)e->pos[i] - M;
        double P = e->P[i], gP, gq;
        if (loss == ST_LOSS_MIXTURE) { /* only output c of the mixture has a gradient */
            gP = Q[l * K + c] * dY;
            gq = P * dY;
        } else if (net->regression) {
            double d = Q[l] - y;
            gP = wr * d * d;
            gq = 2.0 * wr * P * d;
        } else {
            gP = -wr * w->d.logQ[l * K + c];
            gq = -wr * P;
        }
        if (loss == ST_LOSS_EXPECTED)
            total += P * gP;
        if (want) {
            e->g[i] = gP;
            gQ[l * K + c] += gq;
        }
    }
    return total;
}

/* row_loss against soft targets q (n_out class probabilities): the cross-entropy
 * -sum_c q_c log Y_c of the mixture Y, or the path-weighted leaves' -sum_c q_c log Q_lc. */
static double row_loss_soft(const st_net *net, st_loss_kind loss, st_work *w, size_t r, double wr,
                            const double *q, int want)
{
    size_t M = net->tree.n_inner, K = net->n_out;
    st_reach *e = &w->e;
    double *Y = w->d.Y, *dY = w->d.dY, *Q = w->d.Q, *gQ = w->d.gQ, total = 0;
    if (loss == ST_LOSS_MIXTURE) {
        mixture(net, w, r, Y);
        for (size_t c = 0; c < K; c++) {
            double yc = Y[c] > DBL_MIN ? Y[c] : DBL_MIN;
            total -= q[c] > 0 ? wr * q[c] * log(yc) : 0;
            dY[c] = -wr * q[c] / yc;
        }
    }
    for (size_t i = e->start[r]; i < e->start[r + 1]; i++) {
        if ((size_t)e->pos[i] < M)
            continue;
        size_t l = (size_t)e->pos[i] - M;
        double P = e->P[i], gP = 0;
        for (size_t c = 0; c < K; c++) {
            double d = loss == ST_LOSS_MIXTURE ? dY[c] : -wr * q[c];
            gP += (loss == ST_LOSS_MIXTURE ? Q[l * K + c] : w->d.logQ[l * K + c]) * d;
            if (want)
                gQ[l * K + c] += P * d;
        }
        if (loss == ST_LOSS_EXPECTED)
            total += P * gP;
        if (want)
            e->g[i] = gP;
    }
    return total;
}

/* Row r backward, its reached nodes in reverse (children before parents): from its leaves'
 * gradients (and the penalty's share, see route_rows_d) to the split parameters' gradients
 * gW, gb. A subtree not reached adds nothing: its P is 0 because its parent's p is exactly 0
 * or 1, where the gate's dp is 0 and the parent's gradient takes the unvisited child's with
 * weight 0. */
ST_CLONES static void back_row(const st_net *net, const st_work *w, const double *restrict x,
                               size_t r, int pen, double *restrict gW, double *restrict gb)
{
    size_t M = net->tree.n_inner, D = net->n_in;
    const st_reach *e = &w->e;
    const double *coef = w->a, *den = w->a + M, *av = w->a + 2 * M;
    double wr = w->d.wt[r];
    for (size_t i = e->start[r + 1]; i-- > e->start[r];) {
        size_t s = (size_t)e->pos[i];
        if (s >= M)
            continue;
        int kl = e->kid[2 * i], kr = e->kid[2 * i + 1], on = pen && den[s] > 0;
        double gl = kl >= 0 ? e->g[kl] : 0, gr = kr >= 0 ? e->g[kr] : 0;
        double k = on ? coef[s] / den[s] * wr : 0, a = on ? av[s] : 0, p = e->p[i], P = e->P[i];
        double gp = P * (gr - gl) + k * P;
        e->g[i] = gl * (1 - p) + gr * p + k * (p - a);
        double gz = net->beta * gp * e->dp[i];
        if (gz == 0)
            continue;
        size_t row = st_split_row(net, s);
        double *restrict gw = gW + row * D;
        for (size_t j = 0; j < D; j++)
            gw[j] += gz * x[j];
        gb[row] += gz;
    }
}

double st_rows_objective(const st_net *net, const st_objective *obj, st_work *w, size_t B,
                         double *grad, double *data_loss)
{
    size_t M = net->tree.n_inner, S = net->n_split, D = net->n_in;
    size_t LK = net->tree.n_leaves * net->n_out;
    int want = grad != NULL, pen = obj->lambda > 0 && M > 0;
    const double *th = net->theta;
    st_leaf_outputs(net, w);
    forward(net, w, B, pen ? w->a : NULL);
    double ws = 0, total = 0;
    for (size_t r = 0; r < B; r++)
        ws += w->d.wt[r];
    if (want)
        memset(w->d.gQ, 0, LK * sizeof *w->d.gQ);
    for (size_t r = 0; ws > 0 && r < B; r++)
        total += w->soft ? row_loss_soft(net, obj->loss, w, r, w->d.wt[r] / ws,
                                         w->qb + r * net->n_out, want)
                         : row_loss(net, obj->loss, w, r, w->d.wt[r] / ws, w->yb[r], want);
    if (data_loss)
        *data_loss = total;
    if (pen)
        total += st_penalty(net, obj->lambda, w);
    if (obj->l2 > 0)
        for (size_t k = 0; k < S * D; k++)
            total += 0.5 * obj->l2 * th[k] * th[k];
    if (!want)
        return total;
    /* A split that sends every row of the batch one way (a = 0 or 1: these gates reach both)
     * has its penalty clamped, a constant: no gradient, where 1 / (1 - a) would be 1e12. */
    for (size_t s = 0; pen && s < M; s++)
        if (w->a[M + s] > 0 && (w->a[2 * M + s] <= ST_A_EPS || w->a[2 * M + s] >= 1 - ST_A_EPS))
            w->a[s] = 0;
    memset(grad, 0, S * (D + 1) * sizeof *grad);
    st_leaf_grad(net, obj->loss, w, grad + S * (D + 1));
    if (ws > 0) /* else the leaves' gradients were never written (and the penalty has no rows) */
        for (size_t r = 0; r < B; r++)
            back_row(net, w, w->d.X + r * D, r, pen, grad, grad + S * D);
    if (obj->l2 > 0)
        for (size_t k = 0; k < S * D; k++)
            grad[k] += obj->l2 * th[k];
    return total;
}

/* log g(z) of gate g. */
static double log_gate(const st_gate_type *g, const double *par, double z)
{
    double p, dp;
    if (g->log_p)
        return g->log_p(par, z);
    g->apply(par, z, &p, &dp);
    return log(p);
}

/* The leaf of row x by max_path: the largest log path probability (lowest leaf on ties), in
 * logs since products of probabilities underflow in deep trees; a subtree of log path
 * probability -inf is skipped. */
static size_t max_path_leaf(const st_net *net, const double *x, st_reach *e)
{
    const st_tree *t = &net->tree;
    const st_gate_type *g = net->gate ? net->gate : &st_gate_sigmoid;
    size_t M = t->n_inner, D = net->n_in, n = 0, best = 0;
    double best_lp = -INFINITY;
    const double *W = st_W(net), *b = st_b(net);
    push(e, &n, 0, 0.0); /* P holds log path probabilities here */
    for (size_t i = 0; i < n; i++) {
        size_t s = (size_t)e->pos[i];
        double lp = e->P[i];
        if (s >= M) {
            if (lp > best_lp || (lp == best_lp && s - M < best))
                best_lp = lp, best = s - M;
            continue;
        }
        size_t row = st_split_row(net, s);
        double z = net->beta * (dot(W + row * D, x, D) + b[row]);
        double ll = lp + log_gate(g, net->gate_par, -z), lr = lp + log_gate(g, net->gate_par, z);
        if (ll > -INFINITY)
            push(e, &n, t->kid[2 * s], ll);
        if (lr > -INFINITY)
            push(e, &n, t->kid[2 * s + 1], lr);
    }
    return best;
}

/* The leaf of row x by hard routing: right where z > 0 (p > 1/2). */
static size_t hard_leaf(const st_net *net, const double *x)
{
    const st_tree *t = &net->tree;
    size_t M = t->n_inner, D = net->n_in, s = 0;
    const double *W = st_W(net), *b = st_b(net);
    while (s < M) {
        size_t row = st_split_row(net, s);
        s = (size_t)t->kid[2 * s + (dot(W + row * D, x, D) + b[row] > 0)];
    }
    return s - M;
}

void st_rows_predict(const st_net *net, st_predict_kind mode, st_work *w, const double *X, size_t B,
                     double *out)
{
    size_t K = net->n_out, D = net->n_in;
    st_leaf_outputs(net, w);
    if (mode == ST_PREDICT_MIXTURE) {
        size_t n = 0;
        for (size_t r = 0; r < B; r++) {
            w->e.start[0] = n = 0; /* one row at a time: entries from 0 */
            w->e.start[1] = reach_row(net, X + r * D, 1.0, &w->e, n, NULL);
            mixture(net, w, 0, out + r * K);
        }
        return;
    }
    for (size_t r = 0; r < B; r++) {
        size_t l = mode == ST_PREDICT_HARD ? hard_leaf(net, X + r * D)
                                           : max_path_leaf(net, X + r * D, &w->e);
        memcpy(out + r * K, w->d.Q + l * K, K * sizeof *out);
    }
}
