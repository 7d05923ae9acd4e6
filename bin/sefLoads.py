"""The force files of superellipsoidDEMFoam and superellipsoidParcelFoam.

wallLoads.dat (per wall patch: the mean force and moment the particles put
on it) and fluidForce.dat (the fluid's force on the particles): each line
holds the mean over the time since the previous line (every step, or every
`loadsInterval` steps, at write times and at the last step), so a mean over
a window is the mean of its lines weighted by the time each covers. A
restarted run writes its own file under postProcessing/<dir>/<startTime>/;
read() joins them, a later run's lines replacing the earlier's after its
start.

    import glob, sefLoads
    loads = sefLoads.read(glob.glob("postProcessing/wallLoads/*/wallLoads.dat"))
    loads.time, loads.span       # when each line ends, the time it covers [s]
    loads.names                  # "gate:Fx", ..., "gate:Mz", "walls:Fx", ...
    loads.patches                # "gate", "walls" (wallLoads.dat)
    loads.vector("gate:F")       # (n, 3): gate:Fx, gate:Fy, gate:Fz
    loads.mean("gate:F", 0.1, 0.2)      # over the lines ending in (0.1, 0.2]
    loads.impulse("gate:F", 0.1, 0.2)   # sum of force times span [N s]
(fluidForce.dat: the columns Fx Fy Fz Px Py Pz, vectors "F" and "P".)
"""
import os

import numpy as np


class Loads:
    def __init__(self, names, rows, spans):
        self.names = names
        self.data = rows
        self.time = rows[:, 0] if len(rows) else np.zeros(0)
        self.span = spans
        self.patches = list(dict.fromkeys(n.split(":")[0] for n in names if ":" in n))

    def column(self, name):
        return self.data[:, 1 + self.names.index(name)]

    def vector(self, stem):
        """The (n, 3) columns stem + x, y, z ("gate:F": gate:Fx, gate:Fy, gate:Fz)."""
        return np.column_stack([self.column(stem + c) for c in "xyz"])

    def _window(self, t0, t1):
        tol = 1e-9 * max(1.0, abs(t1) if np.isfinite(t1) else 1.0)
        return (self.time > t0 + tol) & (self.time <= t1 + tol)

    def impulse(self, stem, t0=-np.inf, t1=np.inf):
        """Sum over the lines ending in (t0, t1] of the vector times its span."""
        sel = self._window(t0, t1)
        return (self.vector(stem)[sel] * self.span[sel, None]).sum(axis=0)

    def mean(self, stem, t0=-np.inf, t1=np.inf):
        """Time mean over the lines ending in (t0, t1]."""
        sel = self._window(t0, t1)
        return self.impulse(stem, t0, t1) / self.span[sel].sum()


def columnNames(path):
    """The names of a file's columns after the time: "# time  gate:Fx Fy Fz
    Mx My Mz  walls:Fx ..." gives gate:Fx ... gate:Mz, walls:Fx, ...;
    "# time Fx Fy ..." gives Fx, Fy, ..."""
    header = next(line for line in open(path) if line.startswith("# time"))
    names, group = [], ""
    for token in header.split()[2:]:
        if ":" in token:
            group, token = token.split(":", 1)
        names.append(f"{group}:{token}" if group else token)
    return names


def read(paths):
    """The lines of one output's files (a run and its restarts), joined."""
    paths = sorted(paths, key=lambda p: float(os.path.basename(os.path.dirname(p))))
    if not paths:
        raise FileNotFoundError("no force files given")
    names, rows, spans = None, [], []
    for p in paths:
        start = float(os.path.basename(os.path.dirname(p)))
        these = columnNames(p)
        if names is not None and these != names:
            raise ValueError(f"{p}: columns {these} differ from the earlier files' {names}")
        names = these
        # a restart replaces what an earlier run wrote after its start
        keep = [i for i, r in enumerate(rows) if r[0] <= start + 1e-9 * max(1.0, abs(start))]
        rows, spans = [rows[i] for i in keep], [spans[i] for i in keep]
        d = np.loadtxt(p, ndmin=2)
        if d.size == 0:
            continue
        if d.shape[1] != 1 + len(names):
            raise ValueError(f"{p}: {d.shape[1]} columns, the header names {1 + len(names)}")
        rows.extend(d)
        spans.extend(np.diff(d[:, 0], prepend=start))
    return Loads(names, np.array(rows).reshape(-1, 1 + len(names)), np.array(spans, dtype=float))
