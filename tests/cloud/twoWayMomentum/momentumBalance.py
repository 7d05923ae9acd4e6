#!/usr/bin/env python3
"""Momentum balance of a two-way coupled superellipsoidParcelFoam case written
every step (ascii, writePrecision 17). Used by runTest; prints the measured
numbers and exits 0 if within the bound.

    momentumBalance.py cells <case> <rho_f> <gz> <X> <Y> <Z> <tol>
        per step n >= 2 and per cell: UTrans(cell) == - sum over the particles
        that were in the cell at the start of the step (the written cell of
        step n-1) of m (v_n - v_{n-1}) - (m - rho_f V) g dt; the error over
        max |UTrans| of the step < tol
    momentumBalance.py sum <case> <rho_f> <gz> <X> <Y> <Z> <tol>
        the same summed over the cells (a source divided over the cells a
        particle's volume is in, volumeFractionModel divided); also reports
        how many cells hold a source against how many hold a particle centre,
        and fails unless more do (the division happened)
    momentumBalance.py total <case> <rho_f> <gz> <X> <Y> <Z> <tol> [contErr]
        (periodic box, uniform mesh) per step n >= 2: the fluid momentum
        rho_f sum U V changes by sum UTrans, and fluid + particles by
        sum (m - rho_f V) g dt. Bound: tol times the size of the quantity;
        with 'contErr' plus rho_f max|U| V_box times the largest continuity
        error ('sum local') the solver printed in steps n-1 and n (see runTest)
"""
import math
import os
import re
import sys

sys.path.insert(0, os.path.join(os.environ["SEF_ROOT"], "bin"))
from sefCloudField import read  # noqa: E402


def fsum3(rows):
    return tuple(math.fsum(r[k] for r in rows) for k in range(3))


def internalVectors(path, key, nCells):
    """The internal values of a vol vector field: `key` uniform/nonuniform."""
    text = open(path).read()
    start = text.index(key, text.index("}", text.index("FoamFile")))
    m = re.match(re.escape(key) + r"\s+uniform\s+\(([^)]*)\)", text[start:])
    if m:
        return [tuple(float(x) for x in m.group(1).split())] * nCells
    m = re.compile(r"nonuniform\s+List<vector>\s*(\d+)\s*\(").search(text, start)
    n = int(m.group(1))
    rows = re.findall(r"\(([^()]*)\)", text[m.end():])[:n]
    assert n == nCells, f"{path}: {n} values, mesh has {nCells} cells"
    return [tuple(float(x) for x in r.split()) for r in rows]


def cellsOf(case, t):
    """The cell of every particle (from the positions file), by particleId."""
    text = open(f"{case}/{t}/lagrangian/particleCloud/positions").read()
    body = text[text.index("}", text.index("FoamFile")) + 1:]
    cells = [int(c) for c in re.findall(r"\)\s*(\d+)", body)]
    ids = [int(r[0]) for r in read(case, t, "particleId")]
    assert len(cells) == len(ids)
    return dict(zip(ids, cells))


def particles(case, t, rho_f):
    """particleId -> (mass, volume, velocity); ellipsoids only (eps1 = eps2 = 1)."""
    ids = [int(r[0]) for r in read(case, t, "particleId")]
    U = read(case, t, "U")
    axes = read(case, t, "halfAxes")
    rho = read(case, t, "rho")
    e1, e2 = read(case, t, "eps1"), read(case, t, "eps2")
    out = {}
    for k, i in enumerate(ids):
        assert e1[k][0] == 1 and e2[k][0] == 1, "the volume formula is for ellipsoids"
        V = 4.0 / 3.0 * math.pi * axes[k][0] * axes[k][1] * axes[k][2]
        out[i] = (rho[k][0] * V, V, U[k])
    return out


def continuityErrors(case):
    """Per time step (in order): the 'sum local' continuity errors printed."""
    log = open(f"{case}/log.solver").read()
    blocks = re.split(r"\nTime = ", log)[1:]
    return [[float(x) for x in re.findall(r"sum local = ([0-9.eE+-]+)", b)] for b in blocks]


def main():
    mode, case = sys.argv[1], sys.argv[2]
    rho_f, gz, X, Y, Z, tol = (float(x) for x in sys.argv[3:9])
    useContErr = len(sys.argv) > 9 and sys.argv[9] == "contErr"
    g = (0.0, 0.0, gz)
    times = sorted((d for d in os.listdir(case)
                    if re.fullmatch(r"[0-9.eE+-]+", d) and float(d) > 0), key=float)
    assert len(times) >= 3, f"{case}: too few written steps {times}"
    nCells = int(re.search(r"nCells:\s*(\d+)", open(f"{case}/log.blockMesh").read()).group(1))

    P = {t: particles(case, t, rho_f) for t in times}
    UTrans = {t: internalVectors(f"{case}/{t}/particleCloud:UTrans", "value", nCells) for t in times}
    dts = {t: float(t) - float(s) for s, t in zip(times, times[1:])}
    checked = times[1:]                 # step 1 injects: v_{n-1} not written

    def weightImpulse(t):               # sum (m - rho_f V) g dt: what gravity less buoyancy gives
        return fsum3([tuple((m - rho_f * V) * g[k] * dts[t] for k in range(3))
                      for (m, V, v) in P[t].values()])

    ok = True
    if mode == "cells":
        worst, moved, ratio = 0.0, 0, 0.0
        for s, t in zip(times, checked):
            assert set(P[s]) == set(P[t]), f"particles lost or injected at {t}"
            cells = cellsOf(case, s)
            moved += sum(cellsOf(case, t)[i] != cells[i] for i in cells)
            expected = {}
            for i, (m, V, v) in P[t].items():
                v0 = P[s][i][2]
                lost = tuple(-(m * (v[k] - v0[k]) - (m - rho_f * V) * g[k] * dts[t]) for k in range(3))
                c = cells[i]
                expected[c] = tuple(a + b for a, b in zip(expected.get(c, (0.0,) * 3), lost))
            scale = max(abs(x) for r in UTrans[t] for x in r)
            assert scale > 0, f"UTrans is zero at {t}"
            err = max(abs(UTrans[t][c][k] - expected.get(c, (0.0,) * 3)[k])
                      for c in range(nCells) for k in range(3))
            worst = max(worst, err / scale)
            ratio = max(abs(x) for x in fsum3(UTrans[t])) / abs(weightImpulse(t)[2])
        print(f"  {len(P[times[-1]])} particles, steps 2-{len(times)}: max |UTrans - particle loss| per cell"
              f" / max |UTrans| = {worst:.2e} (bound {tol:g}); {moved} cell changes;"
              f" |sum UTrans| / weight impulse at the end {ratio:.3f}")
        ok = worst < tol and ratio > 0.05
    elif mode == "sum":
        worst, spread = 0.0, 0
        for s, t in zip(times, checked):
            assert set(P[s]) == set(P[t]), f"particles lost or injected at {t}"
            lost = fsum3([tuple(-(m * (v[k] - P[s][i][2][k]) - (m - rho_f * V) * g[k] * dts[t]) for k in range(3))
                          for i, (m, V, v) in P[t].items()])
            ut = fsum3(UTrans[t])
            scale = max(map(abs, ut))
            assert scale > 0, f"UTrans is zero at {t}"
            worst = max(worst, max(abs(ut[k] - lost[k]) for k in range(3)) / scale)
            sources = sum(any(x != 0.0 for x in r) for r in UTrans[t])
            centres = len(set(cellsOf(case, s).values()))
            spread = max(spread, sources - centres)
        print(f"  {len(P[times[-1]])} particles, steps 2-{len(times)}: |sum UTrans - particle loss| / |sum UTrans|"
              f" = {worst:.2e} (bound {tol:g}); cells with a source beyond those with a centre: up to {spread}")
        ok = worst < tol and spread > 0
    elif mode == "total":
        Vbox = X * Y * Z
        cont = continuityErrors(case)
        assert len(cont) == len(times), f"{len(cont)} steps in the log, {len(times)} written"
        U = {t: internalVectors(f"{case}/{t}/U", "internalField", nCells) for t in times}
        Pf = {t: tuple(rho_f * Vbox / nCells * x for x in fsum3(U[t])) for t in times}
        Pp = {t: fsum3([tuple(m * v[k] for k in range(3)) for (m, V, v) in P[t].values()]) for t in times}
        worstF = worstT = worstFc = worstTc = 0.0
        for n, (s, t) in enumerate(zip(times, checked), start=1):
            ut, W = fsum3(UTrans[t]), weightImpulse(t)
            errF = max(abs(Pf[t][k] - Pf[s][k] - ut[k]) for k in range(3))
            errT = max(abs(Pf[t][k] + Pp[t][k] - Pf[s][k] - Pp[s][k] - W[k]) for k in range(3))
            scaleF, scaleT = max(map(abs, ut)), max(map(abs, W))
            worstF, worstT = max(worstF, errF / scaleF), max(worstT, errT / scaleT)
            if useContErr:
                # rho_f max|U| V_box times the continuity error of the fluxes
                # the step convects with (end of step n-1) and makes (step n);
                # 1e-15: the round-off of the fluid momentum itself
                umax = max(math.sqrt(sum(x * x for x in r)) for r in U[s] + U[t])
                leak = rho_f * umax * Vbox * max(cont[n - 1][-1], max(cont[n]), 1e-15)
                worstFc = max(worstFc, errF / (tol * scaleF + leak))
                worstTc = max(worstTc, errT / (tol * scaleT + leak))
        print(f"  steps 2-{len(times)}: max |dP_fluid - sum UTrans| / |sum UTrans| = {worstF:.2e};"
              f" max |dP_fluid + dP_particles - sum (m - rho_f V) g dt| / |sum (m - rho_f V) g dt|"
              f" = {worstT:.2e}")
        if useContErr:
            print(f"  error / (tol {tol:g} x size + rho_f max|U| V_box x continuity error):"
                  f" fluid {worstFc:.2f}, total {worstTc:.2f} (bound 1)")
            ok = worstFc < 1 and worstTc < 1
        else:
            ok = worstF < tol and worstT < tol
    else:
        sys.exit(f"unknown mode {mode}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
