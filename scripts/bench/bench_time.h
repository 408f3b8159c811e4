/* What the in-process benchmark drivers share: the process's own clocks, and the usage
 * check and REPEATS argument of the load drivers (FILE [REPEATS]). */
#ifndef BENCH_TIME_H
#define BENCH_TIME_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Seconds on clock (CLOCK_MONOTONIC: wall; CLOCK_PROCESS_CPUTIME_ID: this process's CPU). */
static inline double bench_now(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* `NAME FILE [REPEATS]`: the repeats (at least 1, def when not given), or 0 after printing
 * the usage when FILE is missing. */
static inline int bench_file_repeats(int argc, char **argv, const char *name, int def)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE [REPEATS]\n", name);
        return 0;
    }
    int repeats = argc > 2 ? atoi(argv[2]) : def;
    return repeats > 0 ? repeats : 1;
}

#endif
