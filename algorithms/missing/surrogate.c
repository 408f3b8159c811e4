/* Surrogate splits (Breiman et al. 1984, sec. 5.3), as rpart computes and uses them: for a
 * binary test, the tests on other attributes that best agree with it on the node's rows
 * (numeric cuts at midpoints, nominal level sets), ranked by agreement and kept when they beat
 * the majority direction (adjusted agreement > 0). A row whose value is unknown follows the
 * first surrogate whose value it has; failing all, the majority direction of the known rows
 * (use_surrogate = 2), or it stays at the node. rpart's defaults: max_surrogate = 5,
 * use_surrogate = 2, the agreement counted over every row the test places (surrogatestyle 0);
 * rows with every attribute unknown are not grown on (na.rpart).
 * Multiway tests have no surrogates: their unknowns go to the heaviest branch (2) or stay. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "treelab/tl_grow.h"

static const tl_param_spec params[] = {
    {"max_surrogate", TL_PARAM_INT, "5", 0, 255, NULL,
     "surrogate splits kept per node (rpart's maxsurrogate)"},
    {"use_surrogate", TL_PARAM_INT, "2", 0, 2, NULL,
     "rpart's usesurrogate: 0 an unknown stays at the node, 1 surrogates then stay, 2 "
     "surrogates then the majority direction"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

typedef struct options {
    long max, use;
} options;

static void *init(const tl_params *p, tl_err *err)
{
    tl_param_reader rd = tl_params_reader(params, p, err);
    options o = {tl_params_int(&rd, "max_surrogate"), tl_params_int(&rd, "use_surrogate")};
    if (rd.rc)
        return NULL;
    options *out = malloc(sizeof *out);
    if (!out)
        tl_err_set(err, TL_ENOMEM, "out of memory");
    else
        *out = o;
    return out;
}

static void release(void *state)
{
    free(state);
}

enum { LEFT = -1, RIGHT = 1 }; /* rpart's directions; 0: the test cannot place the row */

/* What the node's test does, in rpart's terms: y[row] is LEFT, RIGHT or 0 for every row of
 * the node, where LEFT is the branch whose mean (class index, or target) is lower (rpart's
 * left son); tl/tr the weight sent each way. */
typedef struct primary {
    signed char *y;
    int left; /* our branch that rpart calls left */
    double tl, tr;
} primary;

static void mean_side(const tl_grow_ctx *g, const tl_node_rows *rows, const int *branch,
                      primary *pr)
{
    const tl_dataset *d = tl_grow_data(g);
    int regression = !tl_dataset_is_classification(d);
    double sum[2] = {0, 0}, w[2] = {0, 0};
    for (size_t i = 0; i < rows->n; i++) {
        uint32_t r = rows->rows[i];
        int b = branch[r];
        if (b != 0 && b != 1)
            continue;
        double wr = rows->w[r];
        sum[b] += wr * (regression ? d->y.num[r] : (double)d->y.code[r]);
        w[b] += wr;
    }
    /* rpart: left son = the side with the lower mean; on equal means the upper side */
    double m0 = w[0] > 0 ? sum[0] / w[0] : 0, m1 = w[1] > 0 ? sum[1] / w[1] : 0;
    pr->left = m0 < m1 ? 0 : 1;
    pr->tl = pr->left == 0 ? w[0] : w[1];
    pr->tr = pr->left == 0 ? w[1] : w[0];
    for (size_t i = 0; i < rows->n; i++) {
        uint32_t r = rows->rows[i];
        int b = branch[r];
        pr->y[r] = (signed char)(b < 0 || b > 1 ? 0 : b == pr->left ? LEFT : RIGHT);
    }
}

/* Our branch for an rpart direction. */
static unsigned char branch_of(const primary *pr, int dir)
{
    return (unsigned char)(dir == LEFT ? pr->left : 1 - pr->left);
}

/* The best cut on numeric attribute a (rpart's choose_surg): the agreement in *agree, the
 * surrogate in *s; 0 when no cut sends two rows each way and beats the majority, -1 when
 * there was no memory to sort the node's rows. */
static int numeric_surrogate(const tl_grow_ctx *g, const tl_node_rows *rows, size_t a,
                             const primary *pr, tl_surrogate *s, double *agree)
{
    const double *x = tl_grow_data(g)->cols[a].num, *w = rows->w;
    const uint32_t *sorted = tl_grow_view(g, rows, a, TL_VIEW_SORTED);
    if (!sorted) /* out of memory sorting the rows (none kept for the splitter) */
        return -1;
    size_t n = rows->n;
    while (n > 0 && isnan(x[sorted[n - 1]]))
        n--;
    if (n == 0)
        return 0;
    /* every row sent to the upper side first, then moved across in order of x */
    long ll = 0, rl = 0, lr = 0, rr = 0;
    double llw = 0, rlw = 0, lrw = 0, rrw = 0, lastx = x[sorted[0]];
    for (size_t i = 0; i < n; i++) {
        uint32_t r = sorted[i];
        if (pr->y[r] == LEFT) {
            ll += w[r] > 0;
            llw += w[r];
        } else if (pr->y[r] == RIGHT) {
            rl += w[r] > 0;
            rlw += w[r];
        }
    }
    double best = llw > rlw ? llw : rlw;
    int dir = LEFT, success = 0;
    double cut = lastx;
    for (size_t i = 0; i < n && ll + rl >= 2; i++) {
        uint32_t r = sorted[i];
        if (lr + rr >= 2 && x[r] != lastx) {
            if (llw + rrw > best) {
                success = 1;
                best = llw + rrw;
                dir = RIGHT; /* x < cut goes right */
                cut = (x[r] + lastx) / 2;
            } else if (lrw + rlw > best) {
                success = 1;
                best = lrw + rlw;
                dir = LEFT;
                cut = (x[r] + lastx) / 2;
            }
        }
        if (pr->y[r] == LEFT) {
            ll -= w[r] > 0;
            lr += w[r] > 0;
            llw -= w[r];
            lrw += w[r];
        } else if (pr->y[r] == RIGHT) {
            rl -= w[r] > 0;
            rr += w[r] > 0;
            rlw -= w[r];
            rrw += w[r];
        }
        lastx = x[r];
    }
    if (!success)
        return 0;
    *s = (tl_surrogate){
        .attr = (int)a, .kind = TL_SPLIT_NUMERIC, .threshold = cut, .below = branch_of(pr, dir)};
    *agree = best;
    return 1;
}

/* Each level of nominal attribute a sent where most of its rows go (rpart's choose_surg);
 * 0 when fewer than two rows agree or disagree. lw, rw, lc, rc: 4 x levels scratch. */
static int nominal_surrogate(const tl_grow_ctx *g, const tl_node_rows *rows, size_t a,
                             const primary *pr, double *scratch, tl_surrogate *s, double *agree)
{
    const tl_dataset *d = tl_grow_data(g);
    size_t nl = d->schema.attrs[a].n_levels;
    const int *code = d->cols[a].code;
    double *lw = scratch, *rw = scratch + nl, *lc = scratch + 2 * nl, *rc = scratch + 3 * nl;
    memset(scratch, 0, 4 * nl * sizeof *scratch);
    for (size_t i = 0; i < rows->n; i++) {
        uint32_t r = rows->rows[i];
        int c = code[r];
        double wr = rows->w[r];
        if (c < 0 || pr->y[r] == 0)
            continue;
        if (pr->y[r] == LEFT) {
            lc[c] += wr > 0;
            lw[c] += wr;
        } else {
            rc[c] += wr > 0;
            rw[c] += wr;
        }
    }
    double llw = 0, rrw = 0;
    for (size_t c = 0; c < nl; c++) {
        llw += lw[c];
        rrw += rw[c];
    }
    int defdir = llw > rrw ? LEFT : RIGHT;
    double sum = 0, against = 0, with = 0;
    *s = (tl_surrogate){.attr = (int)a, .kind = TL_SPLIT_SUBSET};
    for (size_t c = 0; c < nl; c++) {
        if (lc[c] == 0 && rc[c] == 0)
            continue;
        int dir;
        if (lw[c] < rw[c] || (lw[c] == rw[c] && defdir == RIGHT)) {
            dir = RIGHT;
            sum += rw[c];
            against += lc[c];
            with += rc[c];
        } else {
            dir = LEFT;
            sum += lw[c];
            against += rc[c];
            with += lc[c];
        }
        s->known_mask |= 1ull << c;
        if (branch_of(pr, dir) == 0)
            s->left_mask |= 1ull << c;
    }
    *agree = sum;
    return against > 1 && with > 1;
}

/* Insert s by agreement (a later one only passes an earlier one when strictly better),
 * keeping at most max. */
static void insert(tl_surrogate *list, size_t *n, size_t max, const tl_surrogate *s)
{
    size_t at = 0;
    while (at < *n && !(s->agree > list[at].agree))
        at++;
    if (at >= max)
        return;
    size_t keep = *n < max ? *n : max - 1;
    memmove(list + at + 1, list + at, (keep - at) * sizeof *list);
    list[at] = *s;
    *n = keep + 1;
}

/* The node's surrogates, best first, into list (room for o->max); SIZE_MAX when out of
 * memory. */
static size_t find_surrogates(const tl_grow_ctx *g, const tl_node_rows *rows, const tl_split *sp,
                              const options *o, const primary *pr, double *scratch,
                              tl_surrogate *list)
{
    const tl_dataset *d = tl_grow_data(g);
    size_t n = 0;
    double total = pr->tl + pr->tr, major = (pr->tl > pr->tr ? pr->tl : pr->tr) / total;
    for (size_t a = 0; a < d->schema.n_attrs && total > 0; a++) {
        if (a == sp->attr)
            continue;
        const tl_attr_info *ai = &d->schema.attrs[a];
        tl_surrogate s;
        double agree = 0;
        int ok = ai->kind == TL_ATTR_NUMERIC
                     ? numeric_surrogate(g, rows, a, pr, &s, &agree)
                     : ai->n_levels <= TL_SUBSET_MAX_LEVELS &&
                           nominal_surrogate(g, rows, a, pr, scratch, &s, &agree);
        if (ok < 0)
            return SIZE_MAX;
        if (!ok)
            continue;
        s.agree = agree / total;
        s.adj = (s.agree - major) / (1 - major);
        if (s.adj <= 1e-10) /* no better than the majority direction */
            continue;
        insert(list, &n, (size_t)o->max, &s);
    }
    return n;
}

/* The levels of attr that the node's rows have, with some weight. */
static uint64_t seen_levels(const tl_dataset *d, const tl_node_rows *rows, size_t attr)
{
    uint64_t m = 0;
    for (size_t i = 0; i < rows->n; i++) {
        int c = d->cols[attr].code[rows->rows[i]];
        if (c >= 0 && c < 64 && rows->w[rows->rows[i]] > 0)
            m |= 1ull << c;
    }
    return m;
}

static int route(const void *state, const tl_grow_ctx *g, tl_tree *t, size_t node,
                 const tl_node_rows *rows, const tl_split *sp, int *branch, tl_err *err)
{
    const options *o = state;
    const tl_dataset *d = tl_grow_data(g);
    int use = (int)o->use;
    t->unknown[node] = (signed char)(use == 2 ? TL_UNKNOWN_HEAVIEST : TL_UNKNOWN_STOP);
    if (sp->n_branches != 2) { /* multiway: the heaviest branch, or stay */
        int to =
            use == 2 ? tl_grow_heaviest_branch(g, rows, branch, sp->n_branches) : TL_UNKNOWN_STOP;
        tl_grow_send_unknown(rows, branch, to);
        return TL_OK;
    }
    size_t max_levels = 2;
    for (size_t a = 0; a < d->schema.n_attrs; a++)
        if (d->schema.attrs[a].n_levels > max_levels)
            max_levels = d->schema.attrs[a].n_levels;
    primary pr = {malloc(d->n_rows), 0, 0, 0};
    double *scratch = malloc(4 * max_levels * sizeof *scratch);
    tl_surrogate *list = malloc(((size_t)o->max + 1) * sizeof *list);
    int rc = TL_OK;
    if (!pr.y || !scratch || !list) {
        rc = tl_err_set(err, TL_ENOMEM, "out of memory finding surrogate splits");
        goto done;
    }
    mean_side(g, rows, branch, &pr);
    if (sp->kind == TL_SPLIT_SUBSET) /* a level no row here had is unknown (rpart) */
        t->seen[node] = seen_levels(d, rows, sp->attr);
    size_t n = o->max > 0 ? find_surrogates(g, rows, sp, o, &pr, scratch, list) : 0;
    if (n == SIZE_MAX) {
        rc = tl_err_set(err, TL_ENOMEM, "out of memory sorting a node's rows for its surrogates");
        goto done;
    }
    if (use > 0 && n && (rc = tl_tree_set_surrogates(t, node, list, n, err)))
        goto done;
    /* rpart's default direction: where the test sends more weight; none on a tie */
    int fallback =
        use == 2 && pr.tl != pr.tr ? branch_of(&pr, pr.tl > pr.tr ? LEFT : RIGHT) : TL_UNKNOWN_STOP;
    for (size_t i = 0; i < rows->n; i++) {
        uint32_t r = rows->rows[i];
        if (branch[r] >= 0)
            continue;
        int b = -1;
        for (size_t j = 0; use > 0 && j < n && b < 0; j++)
            b = tl_surrogate_branch(&list[j], d, r);
        branch[r] = b >= 0 ? b : fallback;
    }
done:
    free(pr.y);
    free(scratch);
    free(list);
    return rc;
}

static const tl_missing_type surrogate = {
    .name = "surrogate",
    .summary = "surrogate splits, then the majority direction (CART, rpart)",
    .reference = "Breiman et al. (1984), sec. 5.3; Therneau & Atkinson, rpart (2019), sec. 5",
    .params = params,
    .init = init,
    .free = release,
    .known_rows = 1,
    .scoring = TL_MISSING_SCORE_SHARE,
    .route = route,
};

const tl_missing_type *const tl_missing_surrogate = &surrogate;
