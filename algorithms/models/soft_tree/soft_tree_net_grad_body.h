/* The soft tree's backward pass, objective and predictions in one precision. They run the
 * forward pass of soft_tree_net_body.h, so soft_tree_net.c includes this right after it, with
 * the same macros (see there), for double and float. */

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
