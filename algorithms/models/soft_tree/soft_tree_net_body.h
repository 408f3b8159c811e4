/* The soft tree's forward pass and data loss in one precision; soft_tree_net.c includes it,
 * then soft_tree_net_grad_body.h, for double and float. */
/* Both bodies expect REAL (double or float), FN(name) (name with the precision's suffix), BUF (the
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
