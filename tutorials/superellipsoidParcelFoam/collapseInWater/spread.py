#!/usr/bin/env python3
"""Spread of the collapsing heaps against time, and the acceptance checks.

    python3 spread.py <run> ...     (run names as in Allrun; runs/<run>/)

Per run and written time (every 0.1 s), from the exact particle centres and
orientations:
  xWidth, yWidth  width of the heap's bounding box in x and y [m] (each
                  particle's extent along an axis: exact for ellipsoids,
                  sqrt(sum_j (R_kj h_j)^2); for blocky shapes the box bound
                  sum_j |R_kj| h_j, exact in the cube limit)
  r95             radius about the bed's initial axis (its centroid in x, y)
                  holding 95 % of the particle volume (every particle of a
                  run has the same volume: the 95th percentile of the
                  centres' horizontal distances)
  h95             height holding 95 % of the particle volume, each
                  particle's volume spread uniformly over its vertical
                  extent (as the dry solver's bed height)
Writes spread.dat (run time xWidth yWidth r95 h95), spread.png (r95 and
h95 against time, all runs), spread.md (the same as markdown tables: bounding
box x and y widths / r95 / h95 in cm at t = 0, 1, 2.5, 5, 10 s) and runs.dat (per run: particles at the start
and end, escaped, pushed back, largest overlap / d_eq, largest Re_p, drag
correction, wall time); prints the acceptance checks and exits non-zero if
one fails.
"""
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.join(os.environ.get("SEF_ROOT", os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../..")), "bin"))
from sefCloudField import read  # noqa: E402


def times(run, cloud="particleCloud"):
    out = []
    for d in os.listdir(run):
        if re.fullmatch(r"[0-9.e+-]+", d) and os.path.isdir(f"{run}/{d}/lagrangian/{cloud}"):
            out.append((float(d), d))
    return sorted(out)


def states(name):
    """(t, case, time directory, cloud) of every written state of a wet run;
    t = 0 is the settled bed of its dry stage (the wet run writes its first
    cloud after the first step)."""
    dry = f"runs/dry-{name.split('-')[0]}"
    last = times(dry, "superellipsoidCloud")[-1][1]
    return [(0.0, dry, last, "superellipsoidCloud")] + \
        [(t, f"runs/{name}", d, "particleCloud") for t, d in times(f"runs/{name}")]


def extents(R, h, blocky):
    """Half extents of a particle along x, y, z."""
    if blocky:
        return [sum(abs(R[3 * k + j]) * h[j] for j in range(3)) for k in range(3)]
    return [math.sqrt(sum((R[3 * k + j] * h[j]) ** 2 for j in range(3))) for k in range(3)]


def measure(case, t, cloud, axis):
    c = read(case, t, "restartCentre", cloud)
    R = read(case, t, "orientation", cloud)
    h = read(case, t, "halfAxes", cloud)
    e1 = read(case, t, "eps1", cloud)
    ext = [extents(R[i], h[i], e1[i][0] < 1) for i in range(len(c))]
    lo = [min(c[i][k] - ext[i][k] for i in range(len(c))) for k in range(3)]
    hi = [max(c[i][k] + ext[i][k] for i in range(len(c))) for k in range(3)]
    radii = sorted(math.hypot(p[0] - axis[0], p[1] - axis[1]) for p in c)
    r95 = radii[min(len(radii) - 1, int(math.ceil(0.95 * len(radii))) - 1)]
    spans = [(c[i][2] - ext[i][2], c[i][2] + ext[i][2]) for i in range(len(c))]

    def below(z):
        return sum(min(max((z - a) / (b - a), 0.0), 1.0) for a, b in spans)
    zlo, zhi = 0.0, hi[2]
    for _ in range(60):
        mid = 0.5 * (zlo + zhi)
        zlo, zhi = (mid, zhi) if below(mid) < 0.95 * len(spans) else (zlo, mid)
    return dict(xWidth=hi[0] - lo[0], yWidth=hi[1] - lo[1], r95=r95, h95=0.5 * (zlo + zhi),
                box=[lo[0], hi[0], lo[2], hi[2]], n=len(c))


def main(runs):
    table, summary = {}, {}
    for name in runs:
        run = f"runs/{name}"
        sources = states(name)
        c0 = read(*sources[0][1:3], "restartCentre", sources[0][3])
        axis = (sum(p[0] for p in c0) / len(c0), sum(p[1] for p in c0) / len(c0))
        table[name] = [(t, measure(case, d, cloud, axis)) for t, case, d, cloud in sources]
        s = json.load(open(f"{run}/postProcessing/particleCloudSummary.json"))
        drag = open(f"{run}/constant/dragCorrection").read().split()[1].rstrip(";")
        summary[name] = dict(start=table[name][0][1]["n"], end=s["parcels"], escaped=s["escaped"],
                             pushedBack=s["pushedBack"], maxOverlap=s["maxOverlapOverDeq"],
                             maxRe=s["maxReynolds"], drag=drag, wall=s["wallSeconds"],
                             endTime=sources[-1][0])
    with open("spread.dat", "w") as f:
        f.write("# run time[s] xWidth[m] yWidth[m] r95[m] h95[m]\n")
        for name, rows in table.items():
            for t, m in rows:
                f.write(f"{name} {t:.3f} {m['xWidth']:.5f} {m['yWidth']:.5f} {m['r95']:.5f} {m['h95']:.5f}\n")
    with open("runs.dat", "w") as f:
        f.write("# run particlesStart particlesEnd escaped pushedBack maxOverlap/dEq maxRe_p drag wallSeconds endTime\n")
        for name, s in summary.items():
            f.write(f"{name} {s['start']} {s['end']} {s['escaped']} {s['pushedBack']} {s['maxOverlap']:.2e} "
                    f"{s['maxRe']:.0f} {s['drag']} {s['wall']:.0f} {s['endTime']:g}\n")
    with open("boxes.json", "w") as f:   # bounding boxes for the renderer
        json.dump({name: {f"{t:g}": m["box"] for t, m in rows} for name, rows in table.items()}, f)
    plot(table)
    markdown(table, summary)
    return check(table, summary)


def markdown(table, summary):
    """spread.md: the tables of the README and doc/collapseInWater.md."""
    marks = [0, 1, 2.5, 5, 10]
    with open("spread.md", "w") as f:
        f.write("| run | drag | " + " | ".join(f"t = {t:g} s" for t in marks) + " |\n")
        f.write("| --- | --- |" + " --- |" * len(marks) + "\n")
        for name, rows in table.items():
            cells = []
            for t in marks:
                if rows[-1][0] < t - 1e-9:
                    cells.append("")
                    continue
                m = at(rows, t)
                cells.append(f"{100 * m['xWidth']:.1f} x {100 * m['yWidth']:.1f} / {100 * m['r95']:.1f} / {100 * m['h95']:.1f}")
            f.write(f"| {name} | {summary[name]['drag']} | " + " | ".join(cells) + " |\n")
        f.write("\n| run | particles (start, end) | escaped | pushed back | max overlap / d_eq | max Re_p | wall time [s] |\n")
        f.write("| --- | --- | --- | --- | --- | --- | --- |\n")
        for name, s in summary.items():
            f.write(f"| {name} | {s['start']}, {s['end']} | {s['escaped']} | {s['pushedBack']} | {s['maxOverlap']:.1e} | "
                    f"{s['maxRe']:.0f} | {s['wall']:.0f} |\n")


def plot(table):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no spread.png")
        return
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for name, rows in table.items():
        t = [r[0] for r in rows]
        style = "-" if "frictionless" in name else "--"
        axes[0].plot(t, [100 * r[1]["r95"] for r in rows], style, label=name)
        axes[1].plot(t, [100 * r[1]["h95"] for r in rows], style, label=name)
    axes[0].set_ylabel("radius holding 95 % of the volume [cm]")
    axes[1].set_ylabel("height holding 95 % of the volume [cm]")
    for ax in axes:
        ax.set_xlabel("t [s]")
        ax.grid(alpha=0.3)
    axes[1].legend(fontsize=7, ncol=2)
    fig.suptitle("Collapse of a particle column in water (solid: frictionless, dashed: mu = 0.25)")
    fig.tight_layout()
    fig.savefig("spread.png", dpi=90)


def at(rows, t):
    return min(rows, key=lambda r: abs(r[0] - t))[1]


def check(table, summary):
    ok = True

    def say(cond, text):
        nonlocal ok
        ok = ok and cond
        print(f"  {'ok  ' if cond else 'FAIL'} {text}")
    for name, s in summary.items():
        say(s["start"] == s["end"] and s["escaped"] == 0 and s["pushedBack"] == 0 and s["maxOverlap"] < 0.01,
            f"{name}: {s['start']} -> {s['end']} particles, escaped {s['escaped']}, pushed back {s['pushedBack']}, "
            f"max overlap {s['maxOverlap']:.2e} d_eq, max Re_p {s['maxRe']:.0f}, {s['wall']:.0f} s to t = {s['endTime']:g} s")
    for shape in ("sphere", "cube", "prolate"):
        free = f"{shape}-frictionless"
        for law in ("schwager", "coulomb"):
            fr = f"{shape}-{law}"
            if free not in table or fr not in table:
                continue
            for t in (5.0, 10.0):
                if table[free][-1][0] < t - 1e-9:
                    continue
                a, b = at(table[free], t), at(table[fr], t)
                say(b["h95"] > a["h95"] and b["r95"] < a["r95"],
                    f"t = {t:g} s: {fr} higher ({100 * b['h95']:.2f} cm) and narrower (r95 {100 * b['r95']:.2f} cm) "
                    f"than {free} ({100 * a['h95']:.2f}, {100 * a['r95']:.2f} cm)")
    base = "sphere-schwager"
    for variant in ("halfDt", "doubleSub", "parallel"):
        v = f"{base}-{variant}"
        if base in table and v in table:
            a, b = table[base][-1][1], table[v][-1][1]
            # the heap's measures (95 % of the volume); the bounding box is
            # where the one or two outermost particles ended, reported only
            change = max(abs(b[k] - a[k]) / a[k] for k in ("r95", "h95"))
            box = max(abs(b[k] - a[k]) / a[k] for k in ("xWidth", "yWidth"))
            say(change < 0.05, f"{v}: final r95 and h95 within {100 * change:.1f} % of {base} (bound 5 %; "
                               f"bounding box {100 * box:.1f} %)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
