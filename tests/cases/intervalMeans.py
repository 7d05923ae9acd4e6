"""Checks a force file written with `loadsInterval n` (wallLoads.dat,
fluidForce.dat) against the same run's file written every step.

usage: intervalMeans.py <per-step file> <interval file> <case dir> <n> <tol>

- Its lines are where the rule puts them: after n steps since the last
  line, at every write time (the case's time directories) and at the last
  step; the count restarts at each line.
- Each line is the mean over the steps since the previous line (or the
  start) of the per-step lines, weighted by the steps' lengths: the
  difference, relative to the column's largest per-step magnitude, is at
  most <tol>. Both files are written with 12 significant digits, so the
  per-step lines carry relative errors up to 5e-13 each and their mean
  differs from the exact one by up to about 1e-12 of the scale: 1e-10
  leaves room for that and for nothing else (a step counted in the wrong
  line, or a mean divided by the wrong time, differs by far more wherever
  the force changes from step to step).
Prints the largest difference and the line count; exit status 1 on failure.
"""
import os
import sys

import numpy as np

perStepPath, intervalPath, case, n, tol = sys.argv[1:6]
n, tol = int(n), float(tol)
perStep, interval = np.loadtxt(perStepPath, ndmin=2), np.loadtxt(intervalPath, ndmin=2)
t = perStep[:, 0]
span = np.diff(np.concatenate(([0.0], t)))   # the runs start at time 0


def isTime(name):
    try:
        return float(name) > 0
    except ValueError:
        return False


written = sorted(float(d) for d in os.listdir(case) if isTime(d) and os.path.isdir(os.path.join(case, d)))
scaleT = 1e-9 * (t[-1] - t[0]) / len(t)
isWrite = np.array([any(abs(x - w) < scaleT for w in written) for x in t])

# where the rule puts the lines
expected, count = [], 0
for k in range(len(t)):
    count += 1
    if count == n or isWrite[k] or k == len(t) - 1:
        expected.append(k)
        count = 0
ok = len(expected) == len(interval) and np.allclose(interval[:, 0], t[expected], rtol=0, atol=scaleT)

worst = np.inf
if ok:
    scale = np.maximum(np.abs(perStep[:, 1:]).max(axis=0), 1e-300)
    first, worst = 0, 0.0
    for line, last in zip(interval, expected):
        rows = slice(first, last + 1)
        mean = (perStep[rows, 1:] * span[rows, None]).sum(axis=0) / span[rows].sum()
        worst = max(worst, (np.abs(line[1:] - mean) / scale).max())
        first = last + 1
    ok = worst <= tol
print(f"  {os.path.basename(intervalPath)} with loadsInterval {n}: {len(interval)} lines"
      f" ({len(expected)} expected: every {n} steps, {len(written)} write times, the last step);"
      f" largest difference from the per-step means {worst:.1e} of the column's scale")
sys.exit(0 if ok else 1)
