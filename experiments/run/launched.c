/* Whether a process launcher (mpirun, srun) started this process, and with how many ranks. */
#include <stdlib.h>

#include "treelab/tl_scale.h"

size_t tl_mpi_launched(void)
{
    /* Open MPI's mpirun, then PMI (srun, MPICH's hydra): read before MPI_Init, which a
     * program started by hand does not need */
    const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = getenv(vars[i]);
        long n = v ? strtol(v, NULL, 10) : 0;
        if (n > 0)
            return (size_t)n;
    }
    return 0;
}
