/* MPI in a build without it (-DTREELAB_MPI=OFF): every entry point says how to get it. */
#include "run_state.h"

#include "treelab/tl_scale.h"

const int tl_mpi_built = 0;

static int not_built(tl_err *err)
{
    return tl_err_set(err, TL_EUNSUPPORTED,
                      "this treelab was built without MPI; rebuild with "
                      "cmake -DTREELAB_MPI=ON (scripts/setup.sh --mpi installs Open MPI)");
}

int tl_mpi_init(int threads, tl_err *err)
{
    (void)threads;
    return not_built(err);
}

int tl_mpi_rank(void)
{
    return 0;
}
int tl_mpi_size(void)
{
    return 1;
}
void tl_mpi_end(int status)
{
    (void)status;
}
int tl_mpi_clean(void)
{
    return 1;
}

int tl_run_mpi_master(tl_run_state *s, const char *header, int setup_rc, tl_err *err)
{
    (void)s, (void)header;
    return setup_rc ? setup_rc : not_built(err);
}

int tl_run_mpi_worker(const tl_experiment *x, tl_dataset *const *data, const tl_run_opts *o,
                      const tl_run_scale *sc, tl_err *err)
{
    (void)x, (void)data, (void)o, (void)sc;
    return not_built(err);
}

int tl_mpi_abandon(int rc, tl_err *err)
{
    (void)err;
    return rc;
}
