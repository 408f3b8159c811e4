/* The soft tree's passes in one precision; soft_tree_net.c includes it for double and float. */
/* Expects REAL (double or float), FN(name) (name with the precision's suffix), BUF (the
 * member of st_work with REAL buffers), BUFT (its type), LOGITS and WGRAD (st_logits_d,
 * st_wgrad_d or the float ones), SIGMOID (st_vsigmoid or st_vsigmoid_f), LOG_SIGMOID, TINY (the
 * smallest normal REAL), ST_LANES and st_fold. Sums of losses and the balance statistics are
 * kept in double in both precisions. The functions the clones call are inlined into them
 * (one that is not runs as baseline SSE2). */

/* softmax(f) into Q and log softmax(f) into logQ, K values; Q may be f itself (each f[c] is
 * read before Q[c] is written). */
static void FN(softmax_row)(const REAL *f, size_t K, REAL *Q, REAL *logQ)
{
    double mx = f[0], s = 0;
    for (size_t c = 1; c < K; c++)
        mx = f[c] > mx ? f[c] : mx;
    for (size_t c = 0; c < K; c++)
        s += exp(f[c] - mx);
    double ls = mx + log(s);
    for (size_t c = 0; c < K; c++) {
        logQ[c] = (REAL)(f[c] - ls);
        Q[c] = (REAL)exp(f[c] - ls);
    }
}

/* Leaf outputs: softmax(phi) and log softmax(phi) per leaf, or phi itself for regression. */
static void FN(leaf_outputs)(const st_net *net, const REAL *phi, BUFT *b)
{
    size_t L = net->tree.n_leaves, K = net->n_out;
    if (net->regression) {
        memcpy(b->Q, phi, L * K * sizeof *phi);
        return;
    }
    for (size_t l = 0; l < L; l++)
        FN(softmax_row)(phi + l * K, K, b->Q + l * K, b->logQ + l * K);
}

/* The routing logits z = beta (W x + b) of the batch XT into b->p, in one product. */
static void FN(logits)(const st_net *net, const REAL *th, BUFT *b, const REAL *XT, size_t B)
{
    size_t M = net->tree.n_inner, D = net->n_in;
    LOGITS(M, B, D, (REAL)net->beta, th, th + M * D, XT, b->p);
}

/* The mixture Y = Q^T PL (K x B) from the leaves' path probabilities PL (L x B): each row's
 * sum over the leaves in order, 32 rows at a time in registers. These products are too small
 * for BLAS to pay (OpenBLAS packed them on every call, as long as their arithmetic). */
static inline void FN(mixture)(const REAL *restrict Q, const REAL *restrict PL, REAL *restrict Y,
                               size_t L, size_t K, size_t B)
{
    for (size_t c = 0; c < K; c++) {
        size_t r0 = 0;
        for (; r0 + 32 <= B; r0 += 32) {
            REAL acc[32] = {0};
            for (size_t l = 0; l < L; l++) {
                REAL q = Q[l * K + c];
                const REAL *restrict pl = PL + l * B + r0;
                for (int i = 0; i < 32; i++)
                    acc[i] += q * pl[i];
            }
            memcpy(Y + c * B + r0, acc, sizeof acc);
        }
        for (size_t r = r0; r < B; r++) {
            REAL a = 0;
            for (size_t l = 0; l < L; l++)
                a += Q[l * K + c] * PL[l * B + r];
            Y[c * B + r] = a;
        }
    }
}

/* sum_r a[r] c[r] in double, in ST_LANES fixed lanes (see st_fold). */
static inline double FN(dot)(const REAL *restrict a, const REAL *restrict c, size_t n)
{
    double v[ST_LANES] = {0};
    size_t r = 0;
    for (; r + ST_LANES <= n; r += ST_LANES)
        for (int j = 0; j < ST_LANES; j++)
            v[j] += (double)a[r + j] * c[r + j];
    for (; r < n; r++)
        v[r % ST_LANES] += (double)a[r] * c[r];
    return st_fold(v);
}

/* Inner slot s's children's path probabilities from its own, Ps, and its routing
 * probabilities ps. */
static inline void FN(split_rows)(const REAL *restrict Ps, const REAL *restrict ps,
                                  REAL *restrict Pl, REAL *restrict Pr, size_t B)
{
    for (size_t r = 0; r < B; r++) {
        Pl[r] = Ps[r] * (1 - ps[r]);
        Pr[r] = Ps[r] * ps[r];
    }
}

/* The balance penalty's sums of inner slot s in double, in ST_LANES fixed lanes (see st_fold):
 * *den = sum_r q_r and *num = sum_r q_r p_r, q_r = w_r P_r rounded to REAL. */
static inline void FN(balance_sums)(const REAL *restrict Ps, const REAL *restrict ps,
                                    const REAL *restrict wt, size_t B, double *den, double *num)
{
    double u[ST_LANES] = {0}, v[ST_LANES] = {0};
    size_t r = 0;
    for (; r + ST_LANES <= B; r += ST_LANES)
        for (int j = 0; j < ST_LANES; j++) {
            REAL q = wt[r + j] * Ps[r + j];
            u[j] += q;
            v[j] += (double)q * ps[r + j];
        }
    for (; r < B; r++) {
        REAL q = wt[r] * Ps[r];
        u[r % ST_LANES] += q;
        v[r % ST_LANES] += (double)q * ps[r];
    }
    *den = st_fold(u);
    *num = st_fold(v);
}

/* Routing and path probabilities and the mixture output Y of B rows XT (feature-major). With
 * bal (the balance penalty wanted), each inner slot's sums while its rows are at hand:
 * sum_r w_r P_r into bal[M + s], sum_r w_r P_r p_r into bal[s]. */
ST_CLONES static void FN(forward)(const st_net *net, const REAL *th, BUFT *b, const REAL *XT,
                                  size_t B, double *bal)
{
    const st_tree *t = &net->tree;
    size_t M = t->n_inner, L = t->n_leaves, K = net->n_out;
    FN(leaf_outputs)(net, th + M * (net->n_in + 1), b);
    if (M) {
        FN(logits)(net, th, b, XT, B);
        SIGMOID(b->p, M * B);
    }
    for (size_t r = 0; r < B; r++)
        b->P[r] = 1; /* the root, inner or (alone) a leaf, sits at position 0 */
    for (size_t s = 0; s < M; s++) {
        const REAL *Ps = b->P + s * B, *ps = b->p + s * B;
        FN(split_rows)
        (Ps, ps, b->P + (size_t)t->kid[2 * s] * B, b->P + (size_t)t->kid[2 * s + 1] * B, B);
        if (bal)
            FN(balance_sums)(Ps, ps, b->wt, B, &bal[M + s], &bal[s]);
    }
    FN(mixture)(b->Q, b->P + M * B, b->Y, L, K, B); /* PL: the leaves' block of P */
}

/* sum_r a[r] in double, in ST_LANES fixed lanes (see st_fold). */
static inline double FN(sum)(const REAL *restrict a, size_t n)
{
    double u[ST_LANES] = {0};
    size_t r = 0;
    for (; r + ST_LANES <= n; r += ST_LANES)
        for (int j = 0; j < ST_LANES; j++)
            u[j] += a[r + j];
    for (; r < n; r++)
        u[r % ST_LANES] += a[r];
    return st_fold(u);
}

/* Data loss of the forward pass in b, rows weighted b->wt / ws; with want, fills gPL (d loss /
 * d PL) and gQ (d loss / d leaf outputs, or d loss / d logQ for the expected classification
 * loss). */
ST_CLONES static double FN(data_loss_grad)(const st_net *net, st_loss_kind loss, BUFT *b,
                                           const double *y, size_t B, double ws, int want)
{
    size_t L = net->tree.n_leaves, K = net->n_out, M = net->tree.n_inner;
    const REAL *PL = b->P + M * B, *wt = b->wt;
    REAL *gPL = b->gP + M * B, *dY = b->dY;
    double total = 0;
    if (ws <= 0)
        return 0;
    if (want)
        memset(dY, 0, B * K * sizeof *dY);
    if (net->regression && loss == ST_LOSS_MIXTURE) {
        for (size_t r = 0; r < B; r++) {
            double wr = wt[r] / ws, e = b->Y[r] - y[r];
            total += wr * e * e;
            dY[r] = (REAL)(2.0 * wr * e);
        }
    } else if (net->regression) {
        for (size_t l = 0; l < L; l++)
            for (size_t r = 0; r < B; r++) {
                double wr = wt[r] / ws, e = b->Q[l] - y[r];
                total += wr * PL[l * B + r] * e * e;
                if (want)
                    gPL[l * B + r] = (REAL)(wr * e * e);
            }
    } else if (loss == ST_LOSS_MIXTURE) {
        for (size_t r = 0; r < B; r++) {
            size_t c = (size_t)y[r];
            double wr = wt[r] / ws, yc = b->Y[c * B + r] > TINY ? b->Y[c * B + r] : TINY;
            total -= wr * log(yc);
            dY[c * B + r] = (REAL)(-wr / yc);
        }
    } else {
        for (size_t l = 0; l < L; l++)
            for (size_t r = 0; r < B; r++) {
                double wr = wt[r] / ws, lq = b->logQ[l * K + (size_t)y[r]];
                total -= wr * PL[l * B + r] * lq;
                if (want)
                    gPL[l * B + r] = (REAL)(-wr * lq);
            }
        if (want) /* d loss / d logQ = PL dY^T */
            for (size_t r = 0; r < B; r++)
                dY[(size_t)y[r] * B + r] = (REAL)(-wt[r] / ws);
    }
    if (!want)
        return total;
    if (net->regression && loss == ST_LOSS_EXPECTED) {
        /* d loss / d v_l = sum_r w_r PL_lr 2 (v_l - y_r) */
        for (size_t l = 0; l < L; l++) {
            double g = 0;
            for (size_t r = 0; r < B; r++)
                g += 2.0 * wt[r] / ws * PL[l * B + r] * (b->Q[l] - y[r]);
            b->gQ[l] = (REAL)g;
        }
        return total;
    }
    for (size_t l = 0; loss == ST_LOSS_MIXTURE && l < L; l++) { /* gPL = Q dY */
        REAL *restrict g = gPL + l * B;
        const REAL *q = b->Q + l * K;
        for (size_t r = 0; r < B; r++)
            g[r] = q[0] * dY[r];
        for (size_t c = 1; c < K; c++) {
            const REAL *restrict d = dY + c * B;
            for (size_t r = 0; r < B; r++)
                g[r] += q[c] * d[r];
        }
    }
    for (size_t l = 0; l < L; l++) /* gQ = PL dY^T */
        for (size_t c = 0; c < K; c++)
            b->gQ[l * K + c] = (REAL)FN(dot)(PL + l * B, dY + c * B, B);
    return total;
}

/* Gradient of the leaf parameters from gQ. */
static void FN(leaf_grad)(const st_net *net, st_loss_kind loss, const BUFT *b, REAL *gphi)
{
    size_t L = net->tree.n_leaves, K = net->n_out;
    if (net->regression) {
        memcpy(gphi, b->gQ, L * K * sizeof *gphi);
        return;
    }
    for (size_t l = 0; l < L; l++) {
        const REAL *g = b->gQ + l * K, *q = b->Q + l * K;
        double dot = 0;
        for (size_t c = 0; c < K; c++)
            dot += loss == ST_LOSS_MIXTURE ? (double)g[c] * q[c] : g[c];
        for (size_t c = 0; c < K; c++)
            gphi[l * K + c] =
                (REAL)(loss == ST_LOSS_MIXTURE ? q[c] * (g[c] - dot) : g[c] - q[c] * dot);
    }
}

/* Balance penalty lambda * sum_i 2^-depth(i) * -(log a_i + log(1 - a_i)) / 2, a_i the
 * path-weighted mean routing probability of inner node i over the batch, from the sums the
 * forward pass left in w->a (sum_r w_r Pin_ri p_ri, then sum_r w_r Pin_ri). Leaves in w->a, per
 * inner slot, d penalty / d a_i, then sum_r w_r Pin_ri, then a_i. */
static double FN(penalty)(const st_net *net, double lambda, st_work *w)
{
    const st_tree *t = &net->tree;
    size_t M = t->n_inner;
    double *coef = w->a, *den = w->a + M, *av = w->a + 2 * M, total = 0;
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

/* One inner slot's rows backward: from its children's gradients gl, gr (and the penalty's
 * share k w_r, a its mean) to its own path probability's gradient gPs and gz, the gradient of
 * the pre-beta logits; returns sum_r gz_r, the bias gradient, in ST_LANES fixed lanes (see
 * st_fold). */
static inline double FN(route_rows)(const REAL *restrict gl, const REAL *restrict gr,
                                    const REAL *restrict Ps, const REAL *restrict ps,
                                    const REAL *restrict wt, REAL *restrict gPs, REAL *restrict gz,
                                    size_t B, REAL k, REAL a, REAL beta)
{
    double u[ST_LANES] = {0};
    size_t r = 0;
    for (; r + ST_LANES <= B; r += ST_LANES)
        for (int j = 0; j < ST_LANES; j++) {
            size_t i = r + (size_t)j;
            REAL pr = ps[i], kr = k * wt[i];
            REAL gp = Ps[i] * (gr[i] - gl[i]) + kr * Ps[i];
            gPs[i] = gl[i] * (1 - pr) + gr[i] * pr + kr * (pr - a);
            gz[i] = beta * gp * pr * (1 - pr);
            u[j] += gz[i];
        }
    for (; r < B; r++) {
        REAL pr = ps[r], kr = k * wt[r];
        REAL gp = Ps[r] * (gr[r] - gl[r]) + kr * Ps[r];
        gPs[r] = gl[r] * (1 - pr) + gr[r] * pr + kr * (pr - a);
        gz[r] = beta * gp * pr * (1 - pr);
        u[r % ST_LANES] += gz[r];
    }
    return st_fold(u);
}

/* Backward through the routing, from gPL (and the penalty's terms when pen) to gz, and the
 * bias gradient gb. Children come after parents, so a reverse sweep over the inner slots sees
 * each node's gradient whole. */
ST_CLONES static void FN(route_backward)(const st_net *net, const st_work *w, BUFT *b, size_t B,
                                         int pen, REAL *gb)
{
    const st_tree *t = &net->tree;
    size_t M = t->n_inner;
    const double *coef = w->a, *den = w->a + M, *av = w->a + 2 * M;
    REAL beta = (REAL)net->beta;
    for (size_t s = M; s-- > 0;) {
        /* d a / d(p, P) of a row is k w_r: the penalty's share, zero without it */
        int on = pen && den[s] > 0;
        REAL k = (REAL)(on ? coef[s] / den[s] : 0), a = (REAL)(on ? av[s] : 0);
        gb[s] = (REAL)FN(route_rows)(
            b->gP + (size_t)t->kid[2 * s] * B, b->gP + (size_t)t->kid[2 * s + 1] * B, b->P + s * B,
            b->p + s * B, b->wt, b->gP + s * B, b->gz + s * B, B, k, a, beta);
    }
}

/* Objective of B rows XT (feature-major; targets y, weights in b->wt) for parameters th; grad
 * (may be NULL) gets its gradient. */
static double FN(objective)(const st_net *net, const st_objective *obj, st_work *w, const REAL *th,
                            const REAL *XT, const double *y, size_t B, REAL *grad,
                            double *data_loss)
{
    BUFT *b = &w->BUF;
    size_t M = net->tree.n_inner, D = net->n_in;
    int want = grad != NULL, pen = obj->lambda > 0 && M > 0;
    FN(forward)(net, th, b, XT, B, pen ? w->a : NULL);
    double ws = FN(sum)(b->wt, B);
    double dl = FN(data_loss_grad)(net, obj->loss, b, y, B, ws, want);
    double total = dl;
    if (data_loss)
        *data_loss = dl;
    if (pen)
        total += FN(penalty)(net, obj->lambda, w);
    if (obj->l2 > 0)
        for (size_t k = 0; k < M * D; k++)
            total += 0.5 * obj->l2 * th[k] * th[k];
    if (!want)
        return total;
    REAL *gW = grad, *gb = grad + M * D;
    FN(leaf_grad)(net, obj->loss, b, gb + M);
    if (M == 0)
        return total;
    FN(route_backward)(net, w, b, B, pen, gb);
    WGRAD(M, D, B, b->gz, XT, gW); /* gW = gz X in one product */
    if (obj->l2 > 0)
        for (size_t k = 0; k < M * D; k++)
            gW[k] += (REAL)obj->l2 * th[k];
    return total;
}

/* Predictions of B rows into out (B x n_out, row-major). hard follows each row's likelier
 * branch at every split. max_path picks the leaf of the largest log path probability, a sum
 * of log-sigmoids: products of probabilities underflow to 0 in deep trees with a large beta,
 * and every leaf would tie. */
static void FN(predict)(const st_net *net, st_predict_kind mode, BUFT *b, const REAL *th,
                        const REAL *XT, size_t B, double *out)
{
    const st_tree *t = &net->tree;
    size_t K = net->n_out, M = t->n_inner, L = t->n_leaves;
    if (mode == ST_PREDICT_MIXTURE) {
        FN(forward)(net, th, b, XT, B, NULL);
        for (size_t c = 0; c < K; c++)
            for (size_t r = 0; r < B; r++)
                out[r * K + c] = b->Y[c * B + r];
        return;
    }
    FN(leaf_outputs)(net, th + M * (net->n_in + 1), b);
    if (M)
        FN(logits)(net, th, b, XT, B);
    if (mode == ST_PREDICT_HARD) { /* right where p > 1/2, i.e. z > 0 */
        for (size_t r = 0; r < B; r++) {
            size_t pos = 0;
            while (pos < M)
                pos = (size_t)t->kid[2 * pos + (b->p[pos * B + r] > 0)];
            for (size_t c = 0; c < K; c++)
                out[r * K + c] = b->Q[(pos - M) * K + c];
        }
        return;
    }
    if (M)
        LOG_SIGMOID(b->p, b->gz, M * B); /* log p; log(1 - p) = log p - z */
    REAL *LP = b->P;
    for (size_t r = 0; r < B; r++)
        LP[r] = 0;
    for (size_t s = 0; s < M; s++) {
        const REAL *restrict Ls = LP + s * B, *restrict lp = b->gz + s * B,
                             *restrict z = b->p + s * B;
        REAL *restrict Ll = LP + (size_t)t->kid[2 * s] * B;
        REAL *restrict Lr = LP + (size_t)t->kid[2 * s + 1] * B;
        for (size_t r = 0; r < B; r++) {
            Ll[r] = Ls[r] + (lp[r] - z[r]);
            Lr[r] = Ls[r] + lp[r];
        }
    }
    for (size_t r = 0; r < B; r++) {
        size_t best = 0;
        for (size_t l = 1; l < L; l++)
            if (LP[(M + l) * B + r] > LP[(M + best) * B + r])
                best = l;
        for (size_t c = 0; c < K; c++)
            out[r * K + c] = b->Q[best * K + c];
    }
}
