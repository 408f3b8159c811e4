#!/usr/bin/python3
"""What a `treelab run` would take on a quiet machine, from a `perf sched record` of it on a
busy one (scripts/bench/jobs.sh with PERF=1). Every thread and child process of the run has
its time split, by `perf sched timehist`, into running, asleep (a mutex, the disk, waiting
for a child) and waiting for a core; only the last comes from the other load. The estimate:
the main thread's own running time, plus the slower worker's running and asleep time (the
cells), plus the children's (gnuplot's) running time spread over `lanes` cores.

  jobs_lanes.py PERF.data MAIN_PID LANES   prints: estimate_s workers_cpu_s asleep_s...
"""
import re
import subprocess
import sys


def timehist(data, *args):
    return subprocess.run(["perf", "sched", "timehist", "-i", data, *args],
                          capture_output=True, text=True, check=True).stdout


def main():
    data, main_pid, lanes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    # parents from the summary: "comm[tid/pid]  parent ..." (a thread names its process)
    parent = {}
    for line in timehist(data, "-s").split("\n"):
        m = re.match(r"\s*.+\[(\d+)(?:/(\d+))?\]\s+(-?\d+)\s", line)
        if m:
            tid = int(m.group(1))
            parent[tid] = int(m.group(2)) if m.group(2) else int(m.group(3))

    def ours(tid):
        for _ in range(64):
            if tid == main_pid:
                return True
            if tid not in parent or parent[tid] == tid:
                return False
            tid = parent[tid]
        return False

    run, asleep, state = {}, {}, {}
    for line in timehist(data, "--state").split("\n"):
        f = line.split()
        m = re.match(r".*\[(\d+)(?:/\d+)?\]$", f[2]) if len(f) >= 7 else None
        if not m or not ours(int(m.group(1))):
            continue
        tid = int(m.group(1))
        try:
            wait, delay, ran = float(f[3]), float(f[4]), float(f[5])
        except ValueError:
            continue
        run[tid] = run.get(tid, 0.0) + ran
        # the wait before this slice: asleep unless the thread left the CPU runnable (R),
        # minus the time from its wake-up to getting a core
        if state.get(tid, "R") != "R":
            asleep[tid] = asleep.get(tid, 0.0) + wait - delay
        state[tid] = f[6]
    # the run's threads are the tasks whose process is main_pid; children have their own pid
    summary = timehist(data, "-s")
    threads = [t for t in run if t != main_pid and re.search(r"\[%d/%d\]" % (t, main_pid), summary)]
    children = [t for t in run if t != main_pid and t not in threads]
    lanes_s = [(run[t] + asleep.get(t, 0.0)) / 1000 for t in threads] or [0.0]
    main_s, child_s = run.get(main_pid, 0.0) / 1000, sum(run[t] for t in children) / 1000
    reports = main_s + child_s if lanes <= 1 else max(main_s, (main_s + child_s) / lanes)
    print("%.2f %.2f %s" % (max(lanes_s) + reports, sum(run[t] for t in threads) / 1000,
                            " ".join("%.2f" % (asleep.get(t, 0.0) / 1000) for t in threads)))


if __name__ == "__main__":
    main()
