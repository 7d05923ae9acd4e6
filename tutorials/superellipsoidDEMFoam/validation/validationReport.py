#!/usr/bin/python3
"""Plots and tables of the collision validation studies.
  validationReport.py <casesDir> <outDir>
Writes <outDir>/{wall,pair}_{centric,eccentric}.png, convergence.png,
kodam.png, results.json (every number) and results.md (the tables that
doc/validation.md quotes)."""
import json
import math
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import validationResults as vr

DT_ORDER = ["1", "0.5", "1x10", "0.1", "0.01", "0.001", "0.0001"]
COLORS = {"1": "tab:red", "0.5": "tab:orange", "1x10": "tab:purple", "0.1": "tab:green",
          "0.01": "tab:blue", "0.001": "tab:gray", "0.0001": "black"}
SHAPE_ORDER = ["sphere", "prolate", "cube", "diamond"]
DPI = 80


def label(tag):
    return "dt/t_ref = 1, 10 subcycles" if tag == "1x10" else "dt/t_ref = " + tag


def traces(casesDir, index, study):
    return {c["dtTag"]: (c, vr.loadTrace(casesDir, c)) for c in index["cases"] if c["study"] == study}


def plotStudy(casesDir, index, study, kind, outDir):
    dEq, U0, tRef = index["dEq"], index["U0"], index["tRef"]
    data = traces(casesDir, index, study)
    fig, ax = plt.subplots(2, 4, figsize=(13, 5.6), sharex=True)
    for j, shape in enumerate(SHAPE_ORDER):
        for tag in [t for t in DT_ORDER if t in data]:
            case, tr = data[tag]
            for p in case["particles"]:
                if p["shape"] != shape or p["kind"] != kind:
                    continue
                rows = tr[p["id"]]
                t = rows[:, 0] / tRef
                style = "--" if p["role"] == "B" else "-"
                lab = label(tag) if p["role"] != "B" else None
                if study == "wall":
                    ax[0, j].plot(t, rows[:, 2] / dEq, style, color=COLORS[tag], lw=1, label=lab)
                else:
                    ax[0, j].plot(t, (rows[:, 1] - 0.5) / dEq, style, color=COLORS[tag], lw=1, label=lab)
                if kind == "centric":
                    w = np.linalg.norm(rows[:, 7:10], axis=1) * dEq / U0
                else:
                    w = rows[:, 9] * dEq / U0
                ax[1, j].plot(t, w, style, color=COLORS[tag], lw=1)
        ax[0, j].set_title(shape)
        ax[1, j].set_xlabel("t / t_ref")
    ax[0, 0].set_ylabel("y / d_eq (centre)" if study == "wall" else "(x - 0.5 m) / d_eq  (A solid, B dashed)")
    ax[1, 0].set_ylabel("|omega| d_eq / u" if kind == "centric" else "omega_z d_eq / u")
    ax[0, 0].legend(fontsize=7)
    what = "particle-wall" if study == "wall" else "particle-particle"
    fig.suptitle("%s %s collision ([Superellipsoid-OpenFOAM] sec. %s), restitution %g, frictionless"
                 % (kind, what, "5.1" if study == "wall" else "5.2", index["restitution"]))
    fig.tight_layout()
    name = "%s_%s.png" % (study, kind)
    fig.savefig(os.path.join(outDir, name), dpi=DPI)
    plt.close(fig)
    return name


def convergenceTable(index, cases):
    """Errors of each dt against the smallest dt, per study/shape/kind/role."""
    t = vr.byKey(cases)
    tags = sorted({c["dtTag"] for c in cases}, key=DT_ORDER.index)
    ref = tags[-1]
    rows = []
    for (study, tag, shape, kind, role), p in sorted(t.items()):
        if tag == ref:
            continue
        r = t.get((study, ref, shape, kind, role))
        ev, ew = vr.velocityErrors(p, r, index["dEq"], index["U0"])
        rows.append(dict(study=study, dtTag=tag, shape=shape, kind=kind, role=role, ev=ev, ew=ew))
    return ref, rows


def plotConvergence(index, cases, outDir):
    ref, rows = convergenceTable(index, cases)
    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    for i, study in enumerate(("wall", "pair")):
        for j, shape in enumerate(SHAPE_ORDER):
            sel = [r for r in rows if r["study"] == study and r["shape"] == shape
                   and r["kind"] == "eccentric" and r["role"] in ("wall", "A")]
            plain = sorted([r for r in sel if r["dtTag"] != "1x10"], key=lambda r: -float(r["dtTag"]))
            if not plain:
                continue
            x = [float(r["dtTag"]) for r in plain]
            col = "C%d" % j
            ax[i].loglog(x, [max(r["ev"], 1e-17) for r in plain], "o-", color=col, label=shape + " |dv|/u")
            ax[i].loglog(x, [max(r["ew"], 1e-17) for r in plain], "s--", color=col, mfc="none",
                         label=shape + " |dw| r_eq/u")
            sub = [r for r in sel if r["dtTag"] == "1x10"]
            if sub:
                ax[i].loglog([1.0], [max(sub[0]["ev"], 1e-17)], "*", color=col, ms=12)
                ax[i].loglog([1.0], [max(sub[0]["ew"], 1e-17)], "x", color=col, ms=10)
        ax[i].axhline(0.02, color="gray", lw=0.8, ls=":")
        ax[i].set_xlabel("dt / t_ref   (star, x: dt/t_ref = 1 with 10 subcycles)")
        ax[i].set_ylabel("error vs dt/t_ref = %s" % ref)
        ax[i].set_title("eccentric %s collision (%s)" % (study, "particle" if study == "wall" else "particle A"))
        ax[i].grid(True, which="both", lw=0.3)
    ax[0].legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(os.path.join(outDir, "convergence.png"), dpi=DPI)
    plt.close(fig)
    return rows


def plotKodam(case, rows, outDir):
    fig, ax = plt.subplots(1, 2, figsize=(12, 4.6))
    R, H, e, V = case["R"], case["H"], case["restitution"], case["speed"]
    rc, alpha = math.hypot(R, H), math.atan2(H, R)
    # true cylinder (mass and inertia of the sharp cylinder, corner lever arm)
    mCyl = case["density"] * math.pi * R ** 2 * 2 * H
    iCyl = mCyl * (3 * R ** 2 + (2 * H) ** 2) / 12
    th = np.linspace(0, 90, 181)
    lev = rc * np.cos(alpha + np.radians(th))
    wT, vT = vr.kodamAnalytic(lev, mCyl, iCyl, e, V)
    ax[0].plot(th, wT * rc / V, "k-", lw=1.5, label="true cylinder (eqs. 41-42)")
    ax[1].plot(th, vT / V, "k-", lw=1.5, label="true cylinder (eqs. 41-42)")
    for j, eps1 in enumerate(sorted({r["eps1"] for r in rows}, reverse=True)):
        col = "C%d" % j
        sel = sorted([r for r in rows if r["eps1"] == eps1 and r["hit"]], key=lambda r: r["theta"])
        m, I = sel[0]["mass"], sel[0]["Iyy"]
        # eqs. 41-42 with the lowest point of the rounded shape (analytic support point)
        levD = []
        for t in th:
            rho, z = vr.supportPointCylinder(R, H, eps1, t)
            levD.append(math.cos(math.radians(t)) * rho + math.sin(math.radians(t)) * z)
        wD, vD = vr.kodamAnalytic(np.array(levD), m, I, e, V)
        wS, vS = vr.kodamAnalytic(lev, m, I, e, V)
        ax[0].plot(th, wD * rc / V, "-", color=col, lw=1, label="eps1 = %g: eqs. 41-42, rounded contact point" % eps1)
        ax[0].plot(th, wS * rc / V, ":", color=col, lw=1, label="eps1 = %g: eqs. 41-42, sharp corner" % eps1)
        ax[0].plot([r["theta"] for r in sel], [r["wSim"] * rc / V for r in sel], "o", color=col, mfc="none",
                   label="eps1 = %g: superellipsoidDEMFoam" % eps1)
        ax[1].plot(th, vD / V, "-", color=col, lw=1)
        ax[1].plot(th, vS / V, ":", color=col, lw=1)
        ax[1].plot([r["theta"] for r in sel], [r["vRatioSim"] for r in sel], "o", color=col, mfc="none")
    ax[0].set_ylabel("r omega_y^+ / V_z^-   (r = corner distance)")
    ax[1].set_ylabel("V_z^+ / V_z^-")
    for a in ax:
        a.set_xlabel("theta [deg]")
        a.grid(True, lw=0.3)
    ax[0].legend(fontsize=6.5)
    fig.suptitle("Kodam cylinder-wall impact ([Superquadric-LIGGGHTS] eqs. 41-42): "
                 "R = %g mm, L = %g mm, restitution %g, frictionless" % (R * 1e3, 2 * H * 1e3, e))
    fig.tight_layout()
    fig.savefig(os.path.join(outDir, "kodam.png"), dpi=DPI)
    plt.close(fig)


def fmt(v):
    return "(" + ", ".join("%+.4f" % x for x in v) + ")"


def markdown(index, cases, convRows, kodamRows):
    dEq, U0 = index["dEq"], index["U0"]
    t = vr.byKey(cases)
    tags = sorted({c["dtTag"] for c in cases}, key=DT_ORDER.index)
    ref = tags[-1]
    L = ["# Validation results (generated by tutorials/superellipsoidDEMFoam/validation/Allrun)", ""]
    L += ["## Converged post-collision velocities (dt/t_ref = %s)" % ref, "",
          "u in m/s, omega d_eq/|u| dimensionless; t_col: first step with a collision, in t_ref.", "",
          "| study | shape | kind | body | u | omega d_eq/u | t_col/t_ref |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for study in ("wall", "pair"):
        for shape in SHAPE_ORDER:
            for kind in ("centric", "eccentric"):
                for role in (("wall",) if study == "wall" else ("A", "B")):
                    p = t.get((study, ref, shape, kind, role))
                    if p is None:
                        continue
                    L.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                        study, shape, kind, role, fmt(p["v"]), fmt(np.multiply(p["w"], dEq / U0)),
                        "-" if p["tCollision"] is None else "%.3f" % (p["tCollision"] / index["tRef"])))
    L += ["", "## Error per time step against dt/t_ref = %s" % ref, "",
          "e_v = |u - u_ref|/|u0|, e_w = |omega - omega_ref| (d_eq/2)/|u0| (post-collision, end of run).", ""]
    for study in ("wall", "pair"):
        for kind in ("centric", "eccentric"):
            L += ["### %s, %s" % (study, kind), "",
                  "| shape | body | " + " | ".join("%s: e_v / e_w" % tg for tg in tags if tg != ref) + " |",
                  "| --- | --- | " + " | ".join("---" for tg in tags if tg != ref) + " |"]
            for shape in SHAPE_ORDER:
                for role in (("wall",) if study == "wall" else ("A", "B")):
                    cells = []
                    for tg in tags:
                        if tg == ref:
                            continue
                        r = [x for x in convRows if (x["study"], x["dtTag"], x["shape"], x["kind"], x["role"])
                             == (study, tg, shape, kind, role)]
                        cells.append("%.1e / %.1e" % (r[0]["ev"], r[0]["ew"]) if r else "-")
                    L.append("| %s | %s | %s |" % (shape, role, " | ".join(cells)))
            L.append("")
    L += ["## Largest centric |omega| d_eq/|u| per time step", "",
          "| dt/t_ref | wall | pair |", "| --- | --- | --- |"]
    for tg in tags:
        cells = []
        for study in ("wall", "pair"):
            vals = [p["wNorm"] for c in cases if c["study"] == study and c["dtTag"] == tg
                    for p in c["results"] if p["kind"] == "centric"]
            cells.append("%.1e" % max(vals) if vals else "-")
        L.append("| %s | %s |" % (tg, " | ".join(cells)))
    L += ["", "## Energy and overlap per case (restitution 1, frictionless: energy conserved)", "",
          "| case | E_kin end / start | max overlap / d_eq | fallbacks | wall seconds |", "| --- | --- | --- | --- | --- |"]
    for c in cases:
        L.append("| %s | %.6f | %.2e | %d | %.2f |" % (c["name"], c["energyRatio"], c["maxOverlapOverDeq"],
                                                     c["fallbacks"], c["wallSeconds"]))
    if kodamRows:
        L += ["", "## Kodam impact: solver vs eqs. 41-42", "",
              "r = corner distance of the true cylinder; lever = r cos(alpha + theta) of the detected "
              "contact point (superellipsoidContact) and of the sharp corner.", "",
              "| eps1 | theta | lever detected / corner | r w/V sim | eq. 41 detected | rel. err | V+/V- sim | eq. 42 detected | rel. err | eq. 41 / 42 sharp corner |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        for r in sorted(kodamRows, key=lambda r: (-r["eps1"], r["theta"])):
            if not r["hit"]:
                L.append("| %g | %g | no impact | | | | | | | |" % (r["eps1"], r["theta"]))
                continue
            ew, ev = vr.kodamErrors(r)
            rc, V = r["rCorner"], r["speed"]
            ratio = r["lever"] / r["leverCorner"] if abs(r["leverCorner"]) > 1e-12 else float("nan")
            L.append("| %g | %g | %.3f | %+.5f | %+.5f | %.1e | %+.5f | %+.5f | %.1e | %+.4f / %+.4f |" % (
                r["eps1"], r["theta"], ratio, r["wSim"] * rc / V, r["wDetected"] * rc / V, ew,
                r["vRatioSim"], r["vRatioDetected"], ev, r["wCorner"] * rc / V, r["vRatioCorner"]))
    return "\n".join(L) + "\n"


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    casesDir, outDir = sys.argv[1], sys.argv[2]
    os.makedirs(outDir, exist_ok=True)
    index, cases = vr.studyResults(casesDir)
    convRows = []
    if cases:
        for study in sorted({c["study"] for c in cases}):
            for kind in ("centric", "eccentric"):
                plotStudy(casesDir, index, study, kind, outDir)
        convRows = plotConvergence(index, cases, outDir)
    kodamRows = []
    if any(c["study"] == "kodam" for c in index["cases"]):
        kcase, kodamRows = vr.kodamResults(casesDir)
        plotKodam(kcase, kodamRows, outDir)
    with open(os.path.join(outDir, "results.json"), "w") as f:
        json.dump(dict(cases=[{k: v for k, v in c.items()} for c in cases],
                       convergence=convRows, kodam=kodamRows), f, indent=1, default=float)
    with open(os.path.join(outDir, "results.md"), "w") as f:
        f.write(markdown(index, cases, convRows, kodamRows))
    for name in sorted(os.listdir(outDir)):
        if name.endswith(".png"):
            print("  %s: %d kB" % (name, os.path.getsize(os.path.join(outDir, name)) // 1024))


if __name__ == "__main__":
    main()
