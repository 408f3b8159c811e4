/* Which folders treelab may write results into, and the advisory lock that keeps two treelab
 * processes from writing one results folder. */
#include "treelab/tl_runner.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

int tl_results_is_ours(const char *dir)
{
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, TL_LOCK_FILE);
    if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
        return 1;
    snprintf(path, sizeof path, "%s/%s", dir, TL_CELLS_FILE);
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    FILE *f = fopen(path, "r");
    char line[32] = "";
    int ours =
        f && fgets(line, sizeof line, f) && !strncmp(line, TL_CELLS_MAGIC, strlen(TL_CELLS_MAGIC));
    if (f)
        fclose(f);
    return ours;
}

int tl_results_claim(const char *dir, int force, tl_err *err)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return errno == ENOENT ? TL_OK /* made by the caller */
                               : tl_err_set(err, TL_EIO, "%s: %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return tl_err_set(err, TL_EIO, "cannot write the results to %s: it is a file, not a folder",
                          dir);
    if (force || tl_results_is_ours(dir))
        return TL_OK;
    DIR *d = opendir(dir);
    if (!d)
        return tl_err_set(err, TL_EIO, "cannot read %s: %s", dir, strerror(errno));
    struct dirent *e;
    char first[256] = "";
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(first, sizeof first, "%s", e->d_name);
            break;
        }
    closedir(d);
    if (!first[0])
        return TL_OK; /* an empty folder made for the results */
    return tl_err_set(err, TL_EINVAL,
                      "%s is not a treelab results folder (it holds '%s', which treelab did "
                      "not write) and its files would be replaced; write to a new or empty "
                      "folder with --out, or pass --force to write into this one anyway",
                      dir, first);
}

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
