/* Soft tree passes row by row, for any gate and shape, skipping every subtree a row reaches
 * with path probability exactly 0 (conditional computation, Hazimeh et al. 2020). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "soft_tree_rows.h"

/* Every node row x reaches, from entry `at` on; returns the entry past its last. A child is
 * reached when its path probability is above 0: a gate that is exactly 0 or 1 (smooth_step,
 * entmoid outside their band) leaves the other subtree unvisited. With bal, the balance
 * penalty's sums (see forward_d): weight * P into bal[M + s], weight * P * p into bal[s].
 * padded: W and x are e->W8 and e->x8, rows of e->D8 (see st_dot8). */
static inline __attribute__((always_inline)) size_t
reach_gen(const st_net *net, const double *restrict x, double wr, st_reach *e, size_t at,
          double *bal, int padded)
{
    const st_tree *t = &net->tree;
    const st_gate_type *g = net->gate ? net->gate : &st_gate_sigmoid;
    /* read once: the stores below could alias them for all the compiler knows */
    void (*apply)(const double *, double, double *, double *) = g->apply;
    size_t (*split_row)(const st_tree *, size_t) = net->shape ? net->shape->row : NULL;
    const double *par = net->gate_par, beta = net->beta;
    const int *kid = t->kid;
    size_t M = t->n_inner, D = padded ? e->D8 : net->n_in, n = at;
    const double *W = padded ? e->W8 : st_W(net), *b = st_b(net);
    st_push(e, &n, 0, 1.0); /* the root: inner, or alone a leaf, at position 0 */
    for (size_t i = at; i < n; i++) {
        size_t s = (size_t)e->pos[i];
        if (s >= M)
            continue;
        size_t row = split_row ? split_row(t, s) : s;
        double d = padded ? st_dot8(W + row * D, x, D) : st_dot(W + row * D, x, D);
        double z = beta * (d + b[row]), p, dp, P = e->P[i];
        apply(par, z, &p, &dp);
        e->p[i] = p;
        e->dp[i] = dp;
        /* both children written, kept when reached: no branch to mispredict (the reach
         * buffers have two entries to spare) */
        double Pl = P * (1 - p), Pr = P * p;
        e->pos[n] = kid[2 * s];
        e->P[n] = Pl;
        e->kid[2 * i] = Pl > 0 ? (int)n : -1;
        n += Pl > 0;
        e->pos[n] = kid[2 * s + 1];
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

ST_CLONES static size_t reach_row(const st_net *net, const double *restrict x, double wr,
                                  st_reach *e, size_t at, double *bal)
{
    return reach_gen(net, x, wr, e, at, bal, 0);
}

/* reach_row on the padded W and inputs: x is copied into e->x8 */
ST_CLONES static size_t reach_row8(const st_net *net, const double *restrict x, double wr,
                                   st_reach *e, size_t at, double *bal)
{
    memcpy(e->x8, x, net->n_in * sizeof *x);
    return reach_gen(net, e->x8, wr, e, at, bal, 1);
}

/* W into e->W8, rows padded (see st_dot8): before the passes of a batch. */
static void pad_weights(const st_net *net, st_reach *e)
{
    const double *W = st_W(net);
    for (size_t s = 0; s < net->n_split; s++)
        memcpy(e->W8 + s * e->D8, W + s * net->n_in, net->n_in * sizeof *W);
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
    pad_weights(net, &w->e);
    for (size_t r = 0; r < B; r++) {
        w->e.start[r] = n;
        n = reach_row8(net, w->d.X + r * D, w->d.wt[r], &w->e, n, bal);
    }
    w->e.start[B] = n;
}

/* The leaves' outputs a row's loss reads (n_leaves x n_out each, by leaf slot): Q (class
 * probabilities or values), logQ, and where the gradient d loss / d Q (d loss / d logQ for
 * the expected classification loss) is added. The batch's own (w->d) for constant leaves;
 * for leaves with extra parameters, the row's (w->lq), of the leaves it reaches only. */
typedef struct leaf_io {
    const double *Q, *logQ;
    double *gQ;
} leaf_io;

/* Leaf l's outputs for row x into Q + l K and logQ + l K: softmax of (or, regression, the
 * value) phi_l plus the leaf type's row-dependent part. */
static void leaf_row(const st_net *net, size_t l, const double *x, double *Q, double *logQ)
{
    size_t K = net->n_out;
    double *f = Q + l * K;
    memcpy(f, st_phi(net) + l * K, K * sizeof *f);
    net->leaf->add(st_extra(net) + l * net->n_extra, x, net->n_in, K, f);
    if (!net->regression)
        st_softmax_row(f, K, f, logQ + l * K);
}

/* The leaves row r of the batch (input x) reaches, their outputs for x into w->lq, their
 * gradients zeroed; the io reading them. The batch's constant leaves without extra
 * parameters. */
static leaf_io row_leaves(const st_net *net, st_work *w, size_t r, const double *x)
{
    size_t M = net->tree.n_inner, K = net->n_out, LK = net->tree.n_leaves * K;
    if (!net->n_extra)
        return (leaf_io){w->d.Q, w->d.logQ, w->d.gQ};
    leaf_io io = {w->lq, w->lq + LK, w->lq + 2 * LK};
    for (size_t i = w->e.start[r]; i < w->e.start[r + 1]; i++) {
        if ((size_t)w->e.pos[i] < M)
            continue;
        size_t l = (size_t)w->e.pos[i] - M;
        leaf_row(net, l, x, w->lq, w->lq + LK);
        memset(io.gQ + l * K, 0, K * sizeof *io.gQ);
    }
    return io;
}

/* Row r's leaf gradients in io (leaves with extra parameters) into the gradients of their
 * constants gphi and extra parameters gextra, through the softmax at the row's outputs. */
static void row_leaf_grad(const st_net *net, st_loss_kind loss, const st_work *w, size_t r,
                          const double *x, const leaf_io *io, double *gphi, double *gextra)
{
    size_t M = net->tree.n_inner, K = net->n_out, E = net->n_extra;
    double *g = w->d.dY; /* d loss / d (the leaf's logits or value) */
    for (size_t i = w->e.start[r]; i < w->e.start[r + 1]; i++) {
        if ((size_t)w->e.pos[i] < M)
            continue;
        size_t l = (size_t)w->e.pos[i] - M;
        const double *gq = io->gQ + l * K, *q = io->Q + l * K;
        double dot = 0;
        for (size_t c = 0; c < K; c++)
            dot += loss == ST_LOSS_MIXTURE ? gq[c] * q[c] : gq[c];
        for (size_t c = 0; c < K; c++) {
            g[c] = net->regression           ? gq[c]
                   : loss == ST_LOSS_MIXTURE ? q[c] * (gq[c] - dot)
                                             : gq[c] - q[c] * dot;
            gphi[l * K + c] += g[c];
        }
        net->leaf->grad(g, x, net->n_in, K, gextra + l * E);
    }
}

/* Row r's mixture output Y (n_out) from its reached leaves' outputs Q. */
static void mixture(const st_net *net, const st_work *w, const double *Q, size_t r, double *Y)
{
    size_t M = net->tree.n_inner, K = net->n_out;
    const st_reach *e = &w->e;
    memset(Y, 0, K * sizeof *Y);
    for (size_t i = e->start[r]; i < e->start[r + 1]; i++) {
        if ((size_t)e->pos[i] < M)
            continue;
        const double *q = Q + ((size_t)e->pos[i] - M) * K;
        for (size_t c = 0; c < K; c++)
            Y[c] += e->P[i] * q[c];
    }
}

/* Row r's weighted data loss (wr its weight share, y its target); with want, d loss / d P into
 * its leaves' entries and d loss / d (leaf outputs) added to w->d.gQ (d loss / d logQ for the
 * expected classification loss), as data_loss_grad_d. */
static double row_loss(const st_net *net, st_loss_kind loss, st_work *w, const leaf_io *io,
                       size_t r, double wr, double y, int want)
{
    size_t M = net->tree.n_inner, K = net->n_out, c = net->regression ? 0 : (size_t)y;
    st_reach *e = &w->e;
    const double *Q = io->Q;
    double *Y = w->d.Y, *gQ = io->gQ, total = 0, dY = 0;
    if (loss == ST_LOSS_MIXTURE) {
        mixture(net, w, Q, r, Y);
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
            gP = -wr * io->logQ[l * K + c];
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
static double row_loss_soft(const st_net *net, st_loss_kind loss, st_work *w, const leaf_io *io,
                            size_t r, double wr, const double *q, int want)
{
    size_t M = net->tree.n_inner, K = net->n_out;
    st_reach *e = &w->e;
    const double *Q = io->Q;
    double *Y = w->d.Y, *dY = w->d.dY, *gQ = io->gQ, total = 0;
    if (loss == ST_LOSS_MIXTURE) {
        mixture(net, w, Q, r, Y);
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
            gP += (loss == ST_LOSS_MIXTURE ? Q[l * K + c] : io->logQ[l * K + c]) * d;
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
    /* the penalty's coefficient over its denominator (st_rows_objective divides them) */
    const double *coef = w->a, *den = w->a + M, *av = w->a + 2 * M;
    double wr = w->d.wt[r], beta = net->beta;
    size_t (*split_row)(const st_tree *, size_t) = net->shape ? net->shape->row : NULL;
    for (size_t i = e->start[r + 1]; i-- > e->start[r];) {
        size_t s = (size_t)e->pos[i];
        if (s >= M)
            continue;
        int kl = e->kid[2 * i], kr = e->kid[2 * i + 1], on = pen && den[s] > 0;
        double gl = kl >= 0 ? e->g[kl] : 0, gr = kr >= 0 ? e->g[kr] : 0;
        double k = on ? coef[s] * wr : 0, a = on ? av[s] : 0, p = e->p[i], P = e->P[i];
        double gp = P * (gr - gl) + k * P;
        e->g[i] = gl * (1 - p) + gr * p + k * (p - a);
        double gz = beta * gp * e->dp[i];
        if (gz == 0)
            continue;
        size_t row = split_row ? split_row(&net->tree, s) : s;
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
    size_t LK = net->tree.n_leaves * net->n_out, LE = net->tree.n_leaves * net->n_extra;
    int want = grad != NULL, pen = obj->lambda > 0 && M > 0;
    const double *th = net->theta;
    double *gphi = grad ? grad + S * (D + 1) : NULL;
    st_leaf_outputs(net, w);
    forward(net, w, B, pen ? w->a : NULL);
    double ws = 0, total = 0;
    for (size_t r = 0; r < B; r++)
        ws += w->d.wt[r];
    if (want) {
        memset(w->d.gQ, 0, LK * sizeof *w->d.gQ);
        memset(grad, 0, net->n_theta * sizeof *grad);
    }
    for (size_t r = 0; ws > 0 && r < B; r++) {
        const double *x = w->d.X + r * D;
        leaf_io io = row_leaves(net, w, r, x);
        total += w->soft ? row_loss_soft(net, obj->loss, w, &io, r, w->d.wt[r] / ws,
                                         w->qb + r * net->n_out, want)
                         : row_loss(net, obj->loss, w, &io, r, w->d.wt[r] / ws, w->yb[r], want);
        if (want && net->n_extra)
            row_leaf_grad(net, obj->loss, w, r, x, &io, gphi, gphi + LK);
    }
    if (data_loss)
        *data_loss = total;
    if (pen)
        total += st_penalty(net, obj->lambda, w);
    if (obj->l2 > 0)
        for (size_t k = 0; k < S * D; k++)
            total += 0.5 * obj->l2 * th[k] * th[k];
    if (net->n_extra && net->leaf->penalty)
        total += net->leaf->penalty(net->leaf_par, st_extra(net), LE, want ? gphi + LK : NULL);
    if (!want)
        return total;
    /* A split that sends every row of the batch one way (a = 0 or 1: these gates reach both)
     * has its penalty clamped, a constant: no gradient, where 1 / (1 - a) would be 1e12. */
    for (size_t s = 0; pen && s < M; s++)
        if (w->a[M + s] > 0 && (w->a[2 * M + s] <= ST_A_EPS || w->a[2 * M + s] >= 1 - ST_A_EPS))
            w->a[s] = 0;
    for (size_t s = 0; pen && s < M; s++) /* back_row's factor, one division a split */
        if (w->a[M + s] > 0)
            w->a[s] /= w->a[M + s];
    if (!net->n_extra)
        st_leaf_grad(net, obj->loss, w, gphi);
    if (ws > 0) /* else the leaves' gradients were never written (and the penalty has no rows) */
        for (size_t r = 0; r < B; r++)
            back_row(net, w, w->d.X + r * D, r, pen, grad, grad + S * D);
    if (obj->l2 > 0)
        for (size_t k = 0; k < S * D; k++)
            grad[k] += obj->l2 * th[k];
    return total;
}

void st_rows_predict(const st_net *net, st_predict_kind mode, st_work *w, const double *X, size_t B,
                     double *out)
{
    size_t K = net->n_out, D = net->n_in, LK = net->tree.n_leaves * K;
    st_leaf_outputs(net, w);
    if (mode == ST_PREDICT_MIXTURE) {
        size_t n = 0;
        pad_weights(net, &w->e);
        for (size_t r = 0; r < B; r++) {
            w->e.start[0] = n = 0; /* one row at a time: entries from 0 */
            w->e.start[1] = reach_row8(net, X + r * D, 1.0, &w->e, n, NULL);
            leaf_io io = row_leaves(net, w, 0, X + r * D);
            mixture(net, w, io.Q, 0, out + r * K);
        }
        return;
    }
    for (size_t r = 0; r < B; r++) {
        size_t l = mode == ST_PREDICT_HARD ? st_hard_leaf(net, X + r * D)
                                           : st_max_path_leaf(net, X + r * D, &w->e);
        if (net->n_extra)
            leaf_row(net, l, X + r * D, w->lq, w->lq + LK);
        memcpy(out + r * K, (net->n_extra ? w->lq : w->d.Q) + l * K, K * sizeof *out);
    }
}
