/* Running gnuplot and Graphviz as child processes: argument list, no shell, stderr captured. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plot_internal.h"
#include "treelab/tl_log.h"

const char *tlp_gnuplot_program = "gnuplot";
const char *tlp_dot_program = "dot";
int tlp_render = 1;

void tl_plot_set_render(int on)
{
    tlp_render = on != 0;
}

const char *tl_plot_gnuplot(void)
{
    return tlp_gnuplot_program;
}

const char *tl_plot_dot(void)
{
    return tlp_dot_program;
}

int tl_plot_found(const char *program)
{
    if (!program || !*program)
        return 0;
    if (strchr(program, '/'))
        return access(program, X_OK) == 0;
    const char *path = getenv("PATH");
    char buf[TLP_PATH_MAX];
    /* execvp's default search path when PATH is unset */
    for (const char *p = path ? path : "/bin:/usr/bin";;) {
        size_t len = strcspn(p, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)(len ? len : 1), len ? p : ".", program);
        if (access(buf, X_OK) == 0)
            return 1;
        if (!p[len])
            return 0;
        p += len + 1;
    }
}

void tl_plot_set_gnuplot(const char *program)
{
    tlp_gnuplot_program = program ? program : "gnuplot";
}

void tl_plot_set_dot(const char *program)
{
    tlp_dot_program = program ? program : "dot";
}

/* In the child: only async-signal-safe calls; exec failure is reported through the pipe. */
static void child(const char *dir, char *const argv[], int errfd, int report)
{
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
    }
    dup2(errfd, 2);
    int e = 0;
    if (chdir(dir) != 0)
        e = errno;
    else {
        execvp(argv[0], argv);
        e = errno;
    }
    ssize_t w = write(report, &e, sizeof e);
    (void)w;
    _exit(127);
}

/* Last part of the captured stderr, trimmed, into buf. */
static void read_tail(FILE *f, char *buf, size_t size)
{
    buf[0] = '\0';
    if (fseek(f, 0, SEEK_END) != 0)
        return;
    long len = ftell(f);
    long start = len > (long)size - 1 ? len - (long)size + 1 : 0;
    if (fseek(f, start, SEEK_SET) != 0)
        return;
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
        buf[--n] = '\0';
}

int tlp_start(const char *dir, char *const argv[], tlp_child *c, int *missing, tl_err *err)
{
    *missing = 0;
    c->pid = 0;
    c->program = argv[0];
    if (!(c->errf = tmpfile()))
        return tl_err_set(err, TL_EIO, "cannot create a temporary file for %s's messages: %s",
                          argv[0], strerror(errno));
    int fds[2];
    if (pipe(fds) != 0) {
        fclose(c->errf);
        return tl_err_set(err, TL_EINTERNAL, "pipe: %s", strerror(errno));
    }
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        fclose(c->errf);
        return tl_err_set(err, TL_EINTERNAL, "cannot start %s: %s", argv[0], strerror(e));
    }
    if (pid == 0)
        child(dir, argv, fileno(c->errf), fds[1]);
    close(fds[1]);
    /* the pipe closes at a successful exec, or carries exec's errno */
    int exec_errno = 0;
    ssize_t got;
    do
        got = read(fds[0], &exec_errno, sizeof exec_errno);
    while (got < 0 && errno == EINTR);
    close(fds[0]);
    c->pid = pid;
    if (got != (ssize_t)sizeof exec_errno)
        return TL_OK;
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    fclose(c->errf);
    c->pid = 0;
    if (exec_errno == ENOENT || exec_errno == EACCES || exec_errno == ENOTDIR) {
        *missing = 1;
        return TL_OK;
    }
    return tl_err_set(err, TL_EINTERNAL, "cannot run %s in %s: %s", argv[0], dir,
                      strerror(exec_errno));
}

int tlp_wait(tlp_child *c, tl_err *err)
{
    if (!c->pid)
        return TL_OK;
    int status = 0;
    while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
        ;
    c->pid = 0;
    char tail[700];
    read_tail(c->errf, tail, sizeof tail);
    fclose(c->errf);
    if (WIFSIGNALED(status))
        return tl_err_set(err, TL_EINTERNAL, "%s was killed by signal %d%s%s", c->program,
                          WTERMSIG(status), tail[0] ? ": " : "", tail);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return tl_err_set(err, TL_EINTERNAL, "%s failed (exit status %d)%s%s", c->program,
                          WIFEXITED(status) ? WEXITSTATUS(status) : -1, tail[0] ? ": " : "", tail);
    if (tail[0])
        tl_warn("%s: %s", c->program, tail);
    return TL_OK;
}

int tlp_run(const char *dir, char *const argv[], int *missing, tl_err *err)
{
    tlp_child c;
    int rc = tlp_start(dir, argv, &c, missing, err);
    return rc ? rc : tlp_wait(&c, err);
}
