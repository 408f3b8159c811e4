/* The advisory lock that keeps two treelab processes from writing one results folder. */
#include "treelab/tl_runner.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

int tl_results_lock(const char *dir, int *fd, tl_err *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, TL_LOCK_FILE);
    /* close-on-exec: gnuplot and dot, run while the lock is held, must not keep it after us */
    *fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (*fd < 0)
        return errno == ENOENT
                   ? tl_err_set(err, TL_EIO, "%s: no such results folder", dir)
                   : tl_err_set(err, TL_EIO, "cannot lock %s: %s", path, strerror(errno));
    if (flock(*fd, LOCK_EX | LOCK_NB) == 0)
        return TL_OK;
    int e = errno;
    close(*fd);
    *fd = -1;
    if (e == EWOULDBLOCK)
        return tl_err_set(err, TL_EINVAL,
                          "%s is in use: another treelab run (or report) holds "
                          "it; wait for that one to finish, or write elsewhere with --out",
                          dir);
    return tl_err_set(err, TL_EIO, "cannot lock %s: %s", path, strerror(e));
}

void tl_results_unlock(int fd)
{
    if (fd >= 0)
        close(fd); /* closing the only descriptor releases the flock */
}
