"""Results of the hopper-discharge runs (called by Allrun; /usr/bin/python3).

For every runs/<name>/ with a summary: the bulk density of the settled bed
at the opening, the remaining fraction against time (from
postProcessing/particleOutlets/<startTime>/outlets.dat), the discharge
rate over the steady part and Beverloo's rate.

Slot hopper (candy, sphere): the steady part runs from 0.1 s after the
opening while the bed is higher than the orifice width; Beverloo's rate
for a slot,
    W = C rho_b sqrt(g) (b - k d)^1.5 (L - k d),  C = 0.58, k = 1.5,
b = 54 mm the orifice width, L = 55 mm its length (the hopper's depth).
C = 0.58 is Beverloo's constant for circular orifices (W = C rho_b sqrt(g)
(D - k d)^2.5); the constant usually quoted for slots is larger, 1.03
(Nedderman 1992, after Myers and Sellers): both are reported.

Cylindrical silo (silo, recognised by the macro DSILO in its
constant/superellipsoidCloudProperties): Beverloo's circular law with
C = 0.58, k = 1.5 and the orifice diameter D0 (macro D0). The bulk density
is that of the core of the settled bed: the particles whose centres lie
more than one d from the silo wall, more than one d above the floor and
more than one d below the bed top (95 % of the centres below), by particle
volume over the core's volume; the same over the whole cross-section (the
layer along the wall included) is reported as well. The steady part runs
from 0.1 s after the opening until the bed top falls to the silo diameter
(interpolated linearly between the written times) or the run ends.

Every run: what each wall patch holds up over the last 0.05 s before the
opening, as a share of the bed's weight (postProcessing/wallLoads). The
silo (patches gate, floor, walls = its side, lid): the base's share against
Janssen's (1 - exp(-x)) / x, x = 4 mu_w K H / Ds, at K = 0.5 and the K that
gives the measured share (H = 2 <z>, the fill height of a uniformly filled
bed; mu_w the wall friction of the collision dictionary).

Writes results.json, remaining.dat and images/remaining.png.
"""
import glob
import json
import math
import os
import re
import sys

import numpy as np

# (SEF_ROOT, set by etc/bashrc: the tutorial may be copied anywhere)
sys.path.insert(0, os.path.join(os.environ.get("SEF_ROOT", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")), "bin"))
from sefCaseDict import macro  # noqa: E402
import sefLoads  # noqa: E402

C_BEVERLOO, C_SLOT, K_BEVERLOO, G = 0.58, 1.03, 1.5, 9.81
B_ORIFICE, L_ORIFICE = 0.054, 0.055
PAPER_TIMES = [0.9, 1.8, 2.7, 3.6, 6.6]   # [Superquadric-LIGGGHTS]'s snapshots after the opening


def centres(run, time):
    """Particle centres at a written time (serial or decomposed case)."""
    pts = []
    files = glob.glob(f"{run}/{time}/lagrangian/superellipsoidCloud/restartCentre") \
        or sorted(glob.glob(f"{run}/processor*/{time}/lagrangian/superellipsoidCloud/restartCentre"))
    for f in files:
        text = open(f).read()
        body = text[text.index("}", text.index("FoamFile")) + 1:]
        body = re.sub(r"//.*", "", body)
        for v in re.findall(r"\(([^()]*)\)", body):
            x = v.split()
            if len(x) == 3:
                pts.append([float(c) for c in x])
    return np.array(pts).reshape(-1, 3)


def writeTimes(run):
    names = {os.path.basename(p) for d in [run] + glob.glob(f"{run}/processor*")
             for p in glob.glob(f"{d}/[0-9]*") if os.path.isdir(f"{p}/lagrangian")}
    return sorted(names, key=float)


def hasMacro(path, key):
    try:
        macro(path, key)
        return True
    except KeyError:
        return False


def fitRate(t, m, lo, hi):
    """Least-squares rate of the mass that left over [lo, hi], and over its thirds."""
    w = (t >= lo) & (t <= hi)
    rate = float(np.polyfit(t[w], m[w], 1)[0]) if w.sum() > 3 else float("nan")
    thirds = []
    if w.sum() > 9:
        edges = np.linspace(lo, hi, 4)
        for a, b in zip(edges[:-1], edges[1:]):
            ww = (t >= a) & (t <= b)
            thirds.append(float(np.polyfit(t[ww], m[ww], 1)[0]) if ww.sum() > 1 else float("nan"))
    return rate, thirds


def crossing(heights, level):
    """When the bed top falls to level (linear between the written times)."""
    for (t0, h0), (t1, h1) in zip(heights, heights[1:]):
        if h0 > level >= h1:
            return t0 + (t1 - t0) * (h0 - level) / (h0 - h1)
    return heights[-1][0]


def kineticEnergyAt(run, time):
    """Ekin of the progress line at this time in the solver's log (None if absent)."""
    try:
        for line in open(f"{run}/log.superellipsoidDEMFoam", errors="replace"):
            m = re.match(r"^Time = (\S+) .*Ekin (\S+) J", line)
            if m and abs(float(m.group(1)) - time) < 1e-9:
                return float(m.group(2))
    except OSError:
        pass
    return None


def wallLoadsBeforeOpening(run, tOpen, window=0.05):
    """Mean vertical load of each wall patch over the last `window` s before
    the opening (postProcessing/wallLoads/*/wallLoads.dat), downward
    positive [N]; {} without the file."""
    files = glob.glob(f"{run}/postProcessing/wallLoads/*/wallLoads.dat")
    if not files:
        return {}
    loads = sefLoads.read(files)
    return {n: float(-loads.mean(f"{n}:F", tOpen - window, tOpen)[2]) for n in loads.patches}


def janssenBaseShare(D, H, muW, K):
    """Janssen: the share of a cylinder's bed weight on its base (diameter D,
    fill height H, wall friction muW fully mobilised, lateral stress ratio
    K), (1 - exp(-x)) / x with x = 4 muW K H / D."""
    x = 4 * muW * K * H / D
    return (1 - math.exp(-x)) / x


def janssenRatio(share, D, H, muW):
    """The K for which Janssen's base share is `share` (bisection: the share
    falls with K), or None outside 1e-3-10."""
    lo, hi = 1e-3, 10.0
    if not janssenBaseShare(D, H, muW, hi) <= share <= janssenBaseShare(D, H, muW, lo):
        return None
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if janssenBaseShare(D, H, muW, mid) > share else (lo, mid)
    return 0.5 * (lo + hi)


def analyse(run):
    props = f"{run}/constant/superellipsoidCloudProperties"
    a, b, c, n0 = (macro(props, k) for k in "ABCN")
    tOpen = macro(props, "OPEN")
    silo = hasMacro(props, "DSILO")
    n0 = int(n0)
    rho = 1338.0
    vol = 4 / 3 * math.pi * a * b * c
    dEq = 2 * (a * b * c) ** (1 / 3)
    s = json.load(open(f"{run}/postProcessing/demSummary.json"))
    # the outflow since the run began (a restarted run writes its lines
    # under its own start time; the totals go on)
    files = sorted(glob.glob(f"{run}/postProcessing/particleOutlets/*/outlets.dat"),
                   key=lambda f: float(f.split("/")[-2]))
    out = np.vstack([np.loadtxt(f, ndmin=2).reshape(-1, 5) for f in files])
    out = out[np.argsort(out[:, 0], kind="stable")]
    t, nLeft, mLeft = out[:, 0], out[:, 1], out[:, 2]

    times = writeTimes(run)
    tClosed = min(times, key=lambda x: abs(float(x) - tOpen))
    pts = centres(run, tClosed)
    z = pts[:, 2]
    top = np.percentile(z, 95)
    z1, z2 = dEq, top - dEq
    # settling: the kinetic energy at the opening against the potential
    # energy the particles released since the injection
    ekin = kineticEnergyAt(run, tOpen)
    released = None
    if times and float(times[0]) == 0 and len(centres(run, times[0])) == len(z):
        released = float(rho * vol * G * (np.sum(centres(run, times[0])[:, 2]) - np.sum(z)))
    # bed height (95 % of the centres below) at the written times
    heights = [(float(x), float(np.percentile(centres(run, x)[:, 2], 95)) if len(centres(run, x)) else 0.0)
               for x in times if float(x) >= tOpen - 1e-9]
    extra = {}
    loads = wallLoadsBeforeOpening(run, tOpen)   # [N], downward positive
    if silo:
        Ds, D0 = macro(props, "DSILO"), macro(props, "D0")
        r = np.hypot(pts[:, 0], pts[:, 1])
        inZ = (z > z1) & (z < z2)
        rCore = Ds / 2 - dEq
        phi = np.sum(inZ & (r < rCore)) * vol / (math.pi * rCore ** 2 * (z2 - z1))
        phiAll = np.sum(inZ) * vol / (math.pi * Ds ** 2 / 4 * (z2 - z1))
        phiWall = np.sum(inZ & (r >= rCore)) * vol / (math.pi * (Ds ** 2 / 4 - rCore ** 2) * (z2 - z1))
        rhoB = phi * rho
        beverloo = C_BEVERLOO * rhoB * math.sqrt(G) * (D0 - K_BEVERLOO * dEq) ** 2.5
        # steady part: from 0.1 s after the opening until the bed top falls
        # to the silo diameter or the run ends
        tEnd = crossing(heights, Ds)
        rate, thirds = fitRate(t, mLeft, tOpen + 0.1, tEnd)
        extra = {
            "siloDiameter": Ds,
            "orificeDiameter": D0,
            "orificeOverD": D0 / dEq,
            "solidFractionWholeSection": float(phiAll),
            "solidFractionWallLayer": float(phiWall),
            "coreRadius": rCore,
            "bulkDensityWholeSection": float(phiAll * rho),
            "bedTopAtWindowEnd": float(np.interp(tEnd, *np.array(heights).T)),
            "beverlooWholeSectionDensity": beverloo * phiAll / phi,
            "rateOverBeverlooWholeSectionDensity": rate / (beverloo * phiAll / phi),
            "bedTop": [[x, h] for x, h in heights],
        }
        # Janssen: what the side holds up (the patches of blockMeshDict.silo:
        # gate, floor, walls = the side, lid)
        if {"gate", "floor", "walls"} <= set(loads):
            muW = float(re.search(r"wall\s*\{[^}]*friction\s+([0-9.eE+-]+)", open(props).read()).group(1))
            H = 2 * float(np.mean(z))               # fill height of a uniformly filled bed
            base = (loads["gate"] + loads["floor"]) / sum(loads.values())
            extra.update({
                "fillHeight": H,
                "wallFriction": muW,
                "baseShare": base,
                "janssenBaseShareK05": janssenBaseShare(Ds, H, muW, 0.5),
                "janssenK": janssenRatio(base, Ds, H, muW),
                # the orifice's stress against the base's mean
                "gateOverMeanBaseStress": loads["gate"] / (loads["gate"] + loads["floor"]) * (Ds / D0) ** 2,
            })
    else:
        # slot hopper: the particles' volume between one d_eq above the floor
        # and one d_eq below the top, over the hopper's cross-section
        X, Y = macro(props, "XMAX"), 0.055
        phi = np.sum((z > z1) & (z < z2)) * vol / (X * Y * (z2 - z1))
        rhoB = phi * rho
        beverloo = (C_BEVERLOO * rhoB * math.sqrt(G) * (B_ORIFICE - K_BEVERLOO * dEq) ** 1.5
                    * (L_ORIFICE - K_BEVERLOO * dEq))
        # steady part: from 0.1 s after the opening while the bed is higher than b
        tEnd = max([h[0] for h in heights if h[1] > B_ORIFICE] + [tOpen + 0.2])
        rate, thirds = fitRate(t, mLeft, tOpen + 0.1, tEnd)
        extra = {
            "beverlooSlotConstant": beverloo * C_SLOT / C_BEVERLOO,
            "rateOverBeverlooSlotConstant": rate / (beverloo * C_SLOT / C_BEVERLOO),
        }

    def remaining(after):
        i = np.searchsorted(t, tOpen + after, side="right")
        return (n0 - (nLeft[i - 1] if i > 0 else 0)) / n0

    final = s["particles"] / n0
    left = s["particlesLeft"]
    t10 = next((float(t[i] - tOpen) for i in range(len(t)) if (n0 - nLeft[i]) / n0 <= 0.10), None)
    # (not for a silo run that ends with its bed still high)
    t99 = float(t[np.searchsorted(nLeft, 0.99 * left)] - tOpen) if left and not (silo and final > 0.1) else None
    grid = [0.25 * k for k in range(int((s["endTime"] - tOpen) / 0.25 + 1e-9) + 1)]
    picture = min((x for x in times if float(x) > tOpen),
                  key=lambda x: abs(remaining(float(x) - tOpen) - 0.6), default=times[-1])
    # what each wall patch holds up at rest before the opening, of the weight
    weight = n0 * rho * vol * G
    shares = {n: v / weight for n, v in loads.items()}
    return {
        "wallLoadSharesBeforeOpening": shares,
        "particlesInjected": n0,
        "dEq": dEq,
        "openAt": tOpen,
        "bedTopAtOpening": float(top),
        "kineticEnergyAtOpening": ekin,
        "potentialEnergyReleasedAtOpening": released,
        "solidFraction": float(phi),
        "bulkDensity": float(rhoB),
        "steadyWindow": [tOpen + 0.1, tEnd],
        "rate": rate,
        "rateThirds": thirds,
        "beverloo": beverloo,
        "rateOverBeverloo": rate / beverloo,
        **extra,
        "finalRemainingFraction": final,
        "timeTo10PercentRemaining": t10,
        "timeTo99PercentOfOutflow": t99,
        "remainingFraction": {f"{x:g}": remaining(x) for x in grid},
        "remainingAtPaperTimes": {f"{x:g}": remaining(x) for x in PAPER_TIMES if tOpen + x <= s["endTime"]},
        "particles": s["particles"],
        "particlesLeft": left,
        "particlesLost": s["particlesLost"],
        "massBalance": abs(s["particleMass"] + s["massLeft"] - n0 * rho * vol) / (n0 * rho * vol),
        "maxOverlapOverDeq": s["maxOverlapOverDeq"],
        "stepsWithOverlapAbove1Percent": s["stepsWithOverlapAbove1Percent"],
        "endTime": s["endTime"],
        "wallSeconds": s["wallSeconds"],
        "pictureTime": picture,
        "curve": (np.append(t - tOpen, s["endTime"] - tOpen), np.append((n0 - nLeft) / n0, final)),
    }


runs = {os.path.basename(r): r for r in sorted(glob.glob("runs/*"))
        if os.path.exists(f"{r}/postProcessing/demSummary.json")}
results = {name: analyse(r) for name, r in runs.items()}
report = {"beverlooConstants": {"C": C_BEVERLOO, "Cslot": C_SLOT, "k": K_BEVERLOO, "orificeWidth": B_ORIFICE,
                                "orificeLength": L_ORIFICE},
          "runs": {k: {kk: vv for kk, vv in v.items() if kk != "curve"} for k, v in results.items()}}
for par in [k for k in results if "Parallel" in k]:
    ser = par.replace("Parallel", "")
    if ser in results:
        p, s = results[par], results[ser]
        grid = np.arange(0, min(p["endTime"], s["endTime"]) - p["openAt"], 0.01)
        rp = np.interp(grid, *p["curve"], left=1.0)
        rs = np.interp(grid, *s["curve"], left=1.0)
        report["parallelVsSerial"] = {
            "runs": [ser, par],
            "maxRemainingFractionDifference": float(np.max(np.abs(rp - rs))),
            "rates": [s["rate"], p["rate"]],
            "commonEndAfterOpening": float(grid[-1]),
            "remainingAtCommonEnd": [float(rs[-1]), float(rp[-1])],
            "parallelAccounted": p["particles"] + p["particlesLeft"] == p["particlesInjected"]
                                 and p["particlesLost"] == 0,
        }
json.dump(report, open("results.json", "w"), indent=2)

# remaining fraction on a common grid (step curves sampled every 0.01 s)
names = list(results)
tMax = max(r["endTime"] - r["openAt"] for r in results.values())
grid = np.arange(0, tMax + 1e-9, 0.01)
cols = []
for n in names:
    tt, rr = results[n]["curve"]
    i = np.searchsorted(tt, grid, side="right")
    cols.append(np.where(i > 0, rr[np.maximum(i - 1, 0)], 1.0))
np.savetxt("remaining.dat", np.column_stack([grid] + cols), fmt="%.4f",
           header="time after the opening [s], remaining fraction of: " + " ".join(names))

for n, r in results.items():
    if "siloDiameter" in r:
        extra = (f"; bed top at the window's end {r['bedTopAtWindowEnd']:.3f} m; "
                 f"whole-section rho_b {r['bulkDensityWholeSection']:.0f} kg/m3: ratio "
                 f"{r['rateOverBeverlooWholeSectionDensity']:.3f}")
        if "baseShare" in r:
            K = r["janssenK"]
            extra += (f"; before the opening the base holds {r['baseShare']:.3f} of the weight (Janssen at fill height"
                      f" {r['fillHeight']:.3f} m, mu_w {r['wallFriction']:g}, K = 0.5: {r['janssenBaseShareK05']:.3f};"
                      f" Janssen's K for it " + (f"{K:.3f}" if K else "out of range") +
                      f"), the orifice {r['gateOverMeanBaseStress']:.2f} times the base's mean stress")
    else:
        extra = (f"; with the slot constant 1.03: {r['beverlooSlotConstant']:.3f} kg/s, "
                 f"ratio {r['rateOverBeverlooSlotConstant']:.3f}")
    print(f"    {n}: rate {r['rate']:.3f} kg/s over {r['steadyWindow'][0]:.2f}-{r['steadyWindow'][1]:.2f} s "
          f"(thirds {', '.join(f'{x:.3f}' for x in r['rateThirds'])}), Beverloo {r['beverloo']:.3f} kg/s "
          f"(rho_b {r['bulkDensity']:.0f} kg/m3, solids {r['solidFraction']:.3f}), ratio {r['rateOverBeverloo']:.3f}"
          f"{extra}; remaining at the end {r['finalRemainingFraction']:.3f}, 99 % of the outflow by "
          f"{r['timeTo99PercentOfOutflow']} s; max overlap {r['maxOverlapOverDeq']:.2e} d_eq"
          + ("; at rest before the opening the walls hold " + ", ".join(f"{k} {v:.3f}" for k, v in r["wallLoadSharesBeforeOpening"].items())
             + " of the weight" if r["wallLoadSharesBeforeOpening"] else ""))
if "parallelVsSerial" in report:
    p = report["parallelVsSerial"]
    print(f"    parallel vs serial: max difference of the remaining fraction {p['maxRemainingFractionDifference']:.3f}, "
          f"rates {p['rates'][0]:.3f} / {p['rates'][1]:.3f} kg/s, remaining {p['commonEndAfterOpening']:.2f} s after the opening "
          f"{p['remainingAtCommonEnd'][0]:.3f} / {p['remainingAtCommonEnd'][1]:.3f}, all accounted for: {p['parallelAccounted']}")

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 5), dpi=160)
    for n, r in results.items():
        tt, rr = results[n]["curve"]
        tt = np.concatenate([[0], tt]); rr = np.concatenate([[1], rr])
        style = {"ls": ":" if "Parallel" in n else ("-." if "silo" in n else ("--" if "sphere" in n else "-")),
                 "lw": 2.2 if "Full" in n else 1.5}
        label = ("spheres, silo (circular orifice)" if "silo" in n else
                 "candies, slot" if "candy" in n else "spheres, slot") + (" (paper's hopper)" if "Full" in n else "") \
            + (", 2 processors" if "Parallel" in n else "")
        ax.step(tt, rr, where="post", label=label, **style)
    if tMax > 6.6:
        ax.axvline(6.6, color="0.6", lw=0.8)
        ax.text(6.55, 0.95, "[Superquadric-LIGGGHTS]:\nlast snapshot 6.6 s", ha="right", va="top", fontsize=8, color="0.4")
    ax.set_xlabel("time after the opening [s]")
    ax.set_ylabel("fraction of the particles remaining")
    ax.set_ylim(0, 1.02)
    ax.set_xlim(0, tMax)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    os.makedirs("images", exist_ok=True)
    fig.savefig("images/remaining.png")
except ImportError:
    print("    (no matplotlib: no plot)")
