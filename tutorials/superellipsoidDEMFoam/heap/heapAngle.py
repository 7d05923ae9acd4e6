#!/usr/bin/python3
"""Angle of repose of the heaps of runs/<shape>/ (tutorial 'heap').

    heapAngle.py [--plot profiles.png] [--json results.json] <shape>=<run dir> ...

For each run, from the cloud at its latest written time (ascii):
  - the top of every particle's body: centre z plus the support function of
    its superellipsoid in the world's z direction (closed form for
    eps1 = eps2, else the highest of 7200 surface points);
  - the surface profile: in each of 8 sectors around the plate's centre
    (x = y = 0) and each radial bin one d_eq wide, the highest top;
  - a linear fit of height against radius over the flank: bins whose height
    is between 20 % and 80 % of the heap's height (the top cap and the toe
    left out) and whose centre is at least 2 d_eq from the axis (a sector's
    innermost bins hold a few particles only), all sectors together. The angle is atan(-slope); its
    uncertainty is the fit's standard error of the slope, turned into
    degrees. The spread of the 8 sectors' own fits is given as well;
  - the state of rest: kinetic energy (the solver's, translation and
    rotation), largest speed and angular speed, and the kinetic energy over
    the potential energy the particles on the plate released since they
    were fed (from the middle of the feeding region, plus their kinetic
    energy when fed). The heap is at rest when that ratio is below
    REST_CRITERION at the end. The solver's log gives its history after the
    feeding stopped (every step it printed; --rest-plot draws it).
"""
import argparse
import json
import os
import re

import numpy as np

G = 9.81
SECTORS = 8
# Kinetic energy over the released potential energy below which the heap is
# at rest: 1e-5 is the energy of one particle of a 1000-particle heap
# moving at about 3 % of its impact speed, or of the whole heap moving at
# 0.3 % of it. Ten times the 1e-6 of a bed in a closed container: a
# fixed-base heap stands at its angle of repose up to the plate's rim,
# where single particles still slip over the edge now and then (one such
# slip is several times 1e-5 while it lasts).
REST_CRITERION = 1e-5


def latest_time(run):
    times = [d for d in os.listdir(run) if re.fullmatch(r"[0-9.eE+-]+", d) and d != "0"
             and os.path.isdir(f"{run}/{d}/lagrangian")]
    return max(times, key=float)


def read_field(path, width):
    """An ascii OpenFOAM field (scalars, vectors, tensors or labels)."""
    text = open(path).read()
    body = text[text.index("\n", text.index("FoamFile")):]
    body = body.split("}", 1)[1]                      # past the header
    m = re.search(r"(\d+)\s*([({])", body)
    n = int(m.group(1))
    if m.group(2) == "{":                             # uniform list: n{value}
        value = np.array(re.findall(r"[-+0-9.eE]+", body[m.end():body.index("}", m.end())]), dtype=float)
        return np.tile(value, (n, 1)) if width > 1 else np.full(n, value[0])
    rest = body[m.end():]
    numbers = np.array(re.findall(r"[-+0-9.eE]+", rest[:rest.rindex(")")]), dtype=float)
    numbers = numbers[:n * width]
    return numbers.reshape(n, width) if width > 1 else numbers


def top_extent(rot, half, eps1, eps2):
    """Highest point of each body above its centre: support function of the
    superellipsoid in world z, n_body = R^T e_z = R's third row."""
    n = rot[:, 6:9]                                   # (zx zy zz): row z of R
    out = np.empty(len(n))
    same = np.isclose(eps1, eps2)
    p = 2.0 / eps1[same]                              # |x/a|^p + |y/b|^p + |z/c|^p <= 1
    q = p / (p - 1.0) if np.all(p > 1) else None
    if q is not None:
        s = np.abs(half[same] * n[same])
        out[same] = np.sum(s ** q[:, None], axis=1) ** (1.0 / q)
    else:
        same[:] = False
    if (~same).any():                                 # sample the surface
        eta, om = np.meshgrid(np.linspace(-np.pi / 2, np.pi / 2, 60),
                              np.linspace(-np.pi, np.pi, 120, endpoint=False))
        eta, om = eta.ravel(), om.ravel()
        spow = lambda v, e: np.sign(v) * np.abs(v) ** e
        for i in np.flatnonzero(~same):
            e1, e2 = eps1[i], eps2[i]
            pts = np.stack([half[i, 0] * spow(np.cos(eta), e1) * spow(np.cos(om), e2),
                            half[i, 1] * spow(np.cos(eta), e1) * spow(np.sin(om), e2),
                            half[i, 2] * spow(np.sin(eta), e1)], axis=1)
            out[i] = (pts @ n[i]).max()
    return out


def fit_line(r, h):
    A = np.stack([r, np.ones_like(r)], axis=1)
    coef, *_ = np.linalg.lstsq(A, h, rcond=None)
    resid = h - A @ coef
    dof = max(len(r) - 2, 1)
    cov = np.linalg.inv(A.T @ A) * (resid @ resid) / dof
    return coef, np.sqrt(cov[0, 0])


def kinetic_energy_history(run, after):
    """(time, kinetic energy) of the solver's progress lines from `after` on."""
    hist = []
    log = f"{run}/log.superellipsoidDEMFoam"
    if os.path.exists(log):
        for line in open(log):
            m = re.match(r"Time = ([-+0-9.eE]+) .*Ekin ([-+0-9.eE]+) J", line)
            if m and float(m.group(1)) >= after - 1e-9:
                hist.append((float(m.group(1)), float(m.group(2))))
    return np.array(hist).reshape(-1, 2)


def analyse(run):
    t = latest_time(run)
    cloud = f"{run}/{t}/lagrangian/superellipsoidCloud"
    x = read_field(f"{cloud}/restartCentre", 3)
    rot = read_field(f"{cloud}/orientation", 9)
    half = read_field(f"{cloud}/halfAxes", 3)
    e1, e2 = read_field(f"{cloud}/eps1", 1), read_field(f"{cloud}/eps2", 1)
    U, w = read_field(f"{cloud}/U", 3), read_field(f"{cloud}/omega", 3)
    summary = json.load(open(f"{run}/postProcessing/demSummary.json"))
    cp = open(f"{run}/constant/superellipsoidCloudProperties").read()
    feed = re.search(r"feeding\s*\{(.*?)\}", cp, re.S).group(1)
    fmin = [float(v) for v in re.search(r"min\s*\(([^)]*)\)", feed).group(1).split()]
    fmax = [float(v) for v in re.search(r"max\s*\(([^)]*)\)", feed).group(1).split()]
    U0 = [float(v) for v in re.search(r"U0\s*\(([^)]*)\)", feed).group(1).split()]
    zFeed = 0.5 * (fmin[2] + fmax[2])

    n = len(x)
    if n == 0:                                        # every particle left the plate
        return {"time": float(t), "particlesFed": summary["particlesFed"], "particlesOnPlate": 0,
                "particlesLeft": summary["particlesLeft"], "angleOfRepose": None,
                **(json.load(open(f"{run}/run.json")) if os.path.exists(f"{run}/run.json") else {})}
    mass = summary["particleMass"] / max(n, 1)
    top = x[:, 2] + top_extent(rot, half, e1, e2)
    vol = mass / float(re.search(r"density\s+([-+0-9.eE]+)", cp).group(1))
    dEq = (6 * vol / np.pi) ** (1 / 3)
    r = np.hypot(x[:, 0], x[:, 1])
    phi = np.arctan2(x[:, 1], x[:, 0])
    sector = ((phi + np.pi) / (2 * np.pi) * SECTORS).astype(int) % SECTORS
    nbin = int(np.ceil(r.max() / dEq)) + 1 if n else 1
    rbin = (r / dEq).astype(int)
    prof = np.full((SECTORS, nbin), np.nan)
    for s, b, z in zip(sector, rbin, top):
        if not z <= prof[s, b]:
            prof[s, b] = z
    rc = (np.arange(nbin) + 0.5) * dEq
    H = np.nanmax(prof)
    # the flank: 20-80 % of the height, and not within 2 d_eq of the axis
    # (there a sector's bin holds a few particles only)
    flank = (prof > 0.2 * H) & (prof < 0.8 * H) & (rc >= 2 * dEq)[None, :]
    ss, bb = np.nonzero(flank)
    coef, err = fit_line(rc[bb], prof[ss, bb])
    slope = -coef[0]
    angle = np.degrees(np.arctan(slope))
    angleErr = np.degrees(err / (1 + slope ** 2))
    sectorAngles = []
    for s in range(SECTORS):
        b = np.flatnonzero(flank[s])
        if len(b) >= 3:
            sectorAngles.append(float(np.degrees(np.arctan(-fit_line(rc[b], prof[s, b])[0][0]))))

    released = float(np.sum(mass * G * (zFeed - x[:, 2])) + n * 0.5 * mass * np.dot(U0, U0))
    KE = summary["kineticEnergy"]
    runInfo = json.load(open(f"{run}/run.json")) if os.path.exists(f"{run}/run.json") else {}
    hist = kinetic_energy_history(run, runInfo.get("feedingEnd", float(t)))
    lastHalf = hist[hist[:, 0] >= float(t) - 0.5 - 1e-9, 1] / released if len(hist) else np.array([])
    return {
        "time": float(t),
        "particlesFed": summary["particlesFed"],
        "particlesOwed": summary["particlesOwed"],
        "particlesOnPlate": n,
        "particlesLeft": summary["particlesLeft"],
        "outlets": {k: v["number"] for k, v in summary.get("outlets", {}).items()},
        "heapHeight": float(H),
        "angleOfRepose": float(angle),
        "angleFitStdError": float(angleErr),
        "flankBins": int(flank.sum()),
        "flankRadii": [float(rc[bb].min()), float(rc[bb].max())],
        "sectorAngles": sectorAngles,
        "sectorAngleStd": float(np.std(sectorAngles, ddof=1)) if len(sectorAngles) > 1 else None,
        "kineticEnergy": KE,
        "releasedPotentialEnergy": released,
        "kineticEnergyOverReleased": KE / released if released > 0 else None,
        "restCriterion": REST_CRITERION,
        "atRest": bool(released > 0 and KE / released < REST_CRITERION),
        # over the last 0.5 s, from the solver's progress lines
        "kineticEnergyOverReleasedLastHalfSecond": {
            "max": float(lastHalf.max()), "median": float(np.median(lastHalf)),
            "fractionBelowCriterion": float(np.mean(lastHalf < REST_CRITERION))} if len(lastHalf) else None,
        "_history": (hist, released),
        "maxSpeed": float(np.linalg.norm(U, axis=1).max()) if n else 0.0,
        "maxAngularSpeed": float(np.linalg.norm(w, axis=1).max()) if n else 0.0,
        "maxOverlapOverDeq": summary["maxOverlapOverDeq"],
        "_profile": (rc, prof, coef, flank),
        # the settings and run time Allrun recorded
        **runInfo,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", help="<shape>=<run dir>")
    ap.add_argument("--plot")
    ap.add_argument("--json")
    ap.add_argument("--rest-plot", help="kinetic energy over the released potential energy after the feeding")
    args = ap.parse_args()
    results = {}
    for item in args.runs:
        name, run = item.split("=", 1)
        results[name] = analyse(run)
        res = results[name]
        if res["angleOfRepose"] is None:
            print(f"{name:13s} no heap: all {res['particlesLeft']} particles left the plate")
            continue
        print(f"{name:13s} angle {res['angleOfRepose']:5.1f} +- {res['angleFitStdError']:.1f} deg "
              f"(8 sectors: sd {res['sectorAngleStd'] or 0:.1f}), height {1e3 * res['heapHeight']:.1f} mm, "
              f"{res['particlesOnPlate']} on the plate, {res['particlesLeft']} left, "
              f"KE {res['kineticEnergy']:.2e} J = {res['kineticEnergyOverReleased']:.1e} of the released, "
              f"max |U| {res['maxSpeed']:.1e} m/s, max |omega| {res['maxAngularSpeed']:.1e} rad/s, "
              f"{'at rest' if res['atRest'] else 'NOT at rest'} (criterion {REST_CRITERION:g})")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(12.8, 6.4), dpi=100)
        colours = ["tab:blue", "tab:red", "tab:green", "tab:orange"]
        for (name, res), col in zip(results.items(), colours):
            if res["angleOfRepose"] is None:
                continue
            rc, prof, coef, flank = res["_profile"]
            for s in range(prof.shape[0]):
                ok = ~np.isnan(prof[s])
                ax.plot(1e3 * rc[ok], 1e3 * prof[s, ok], ".", color=col, alpha=0.35, ms=5)
                ax.plot(1e3 * rc[flank[s]], 1e3 * prof[s, flank[s]], "o", color=col, ms=4)
            rr = np.array(res["flankRadii"]) + np.array([-1, 1]) * 0.004
            ax.plot(1e3 * rr, 1e3 * (coef[0] * rr + coef[1]), "-", color=col, lw=2.5,
                    label=f"{name}: {res['angleOfRepose']:.1f} $\\pm$ {res['angleFitStdError']:.1f}$^\\circ$")
        ax.set_xlabel("distance from the plate's centre r [mm]")
        ax.set_ylabel("top of the highest particle [mm]")
        ax.set_title("Heap surface in 8 sectors and radial bins of one d_eq (filled: the flank used in the fit)")
        ax.set_aspect("equal")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend(loc="upper right")
        fig.tight_layout()
        fig.savefig(args.plot)
    if args.rest_plot:
        plot_rest(results, args.rest_plot)
    if args.json:
        out = {k: {kk: vv for kk, vv in v.items() if not kk.startswith("_")} for k, v in results.items()}
        old = json.load(open(args.json)) if os.path.exists(args.json) else {}
        for k, v in out.items():
            old.setdefault(k, {}).update(v)
        json.dump(old, open(args.json, "w"), indent=2)


def plot_rest(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(9.6, 5.4), dpi=100)
    for (name, res), col in zip(results.items(), ["tab:blue", "tab:red", "tab:green", "tab:orange"]):
        hist, released = res.get("_history", (np.empty((0, 2)), 0))
        if len(hist) and released > 0:
            ax.semilogy(hist[:, 0] - res.get("feedingEnd", 0), hist[:, 1] / released, color=col, label=name)
    ax.axhline(REST_CRITERION, color="k", ls="--", lw=1, label=f"at rest: below {REST_CRITERION:g}")
    ax.set_xlabel("time after the feeding stopped [s]")
    ax.set_ylabel("kinetic energy / released potential energy")
    ax.grid(alpha=0.3, which="both")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)


if __name__ == "__main__":
    main()
