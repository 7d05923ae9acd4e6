"""Results of the cylinder-discharge runs (Allrun calls it; runnable alone).

    /usr/bin/python3 cylinderResults.py [runs/<name> ...]   (default: every run)

For each run: the discharged volume V(t) = discharged mass / density
against the time after the opening (postProcessing/particleOutlets), its
final value V_f, and over the window from V = 0.1 V_f to V = 0.9 V_f
    rate        least-squares slope of V(t) [mm^3/s] (and mass rate [g/s])
    linearity   largest |V - line| over the window / volume discharged in it
                (and the largest f, in steps of 0.05, for which the window
                from 0.1 V_f to f V_f is linear within 5 %)
    quarters    slopes over the four quarters of the window (by time)
Also: volume left in the hopper, particles lost, largest overlap, kinetic
energy at the opening (from the log), solids fraction of the settled bed,
and the slot form of Beverloo's law with the periodic depth L = 4 mm (no
end walls, so no L - k d correction):
    Q = C phi sqrt(g) (b - k d)^1.5 L,  C = 1.03, k = 1.5, b = 3.6 mm,
d the volume-equivalent diameter. Writes results.json and
images/dischargedVolume.png.
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

RHO, G = 2500.0, 9.81
C_SLOT, K_BEVERLOO = 1.03, 1.5
A = 0.0005                        # a = b = D/2
COLOURS = {0.33: "C0", 0.5: "C1", 1.0: "C2", 1.5: "C3"}   # one per aspect ratio
EPS1, EPS2 = 1 / 3, 1.0           # n1 = 6 (along the axis), n2 = 2


def volume(a, b, c, e1, e2):
    """Superellipsoid volume 2 a b c e1 e2 B(e1/2 + 1, e1) B(e2/2, e2/2)."""
    beta = lambda x, y: math.gamma(x) * math.gamma(y) / math.gamma(x + y)
    return 2 * a * b * c * e1 * e2 * beta(e1 / 2 + 1, e1) * beta(e2 / 2, e2 / 2)


def centres(run, time):
    text = open(f"{run}/{time}/lagrangian/superellipsoidCloud/restartCentre").read()
    body = re.sub(r"//.*", "", text[text.index("}", text.index("FoamFile")) + 1:])
    pts = [[float(c) for c in v.split()] for v in re.findall(r"\(([^()]*)\)", body)]
    return np.array([p for p in pts if len(p) == 3]).reshape(-1, 3)


def slope(t, v):
    return float(np.polyfit(t, v, 1)[0]) if len(t) > 2 else float("nan")


def analyse(run):
    props = f"{run}/constant/superellipsoidCloudProperties"
    c, n0, tOpen = macro(props, "C"), int(macro(props, "N")), macro(props, "OPEN")
    # the hopper of this run (system/blockMeshDict, in mm): width, period, orifice
    mesh = f"{run}/system/blockMeshDict"
    width, depth = 1e-3 * macro(mesh, "X"), 1e-3 * macro(mesh, "Y")
    orifice = 1e-3 * (macro(mesh, "xo2") - macro(mesh, "xo1"))
    vp = volume(A, A, c, EPS1, EPS2)
    dEq = (6 * vp / math.pi) ** (1 / 3)
    s = json.load(open(f"{run}/postProcessing/demSummary.json"))
    files = sorted(glob.glob(f"{run}/postProcessing/particleOutlets/*/outlets.dat"),
                   key=lambda f: float(f.split("/")[-2]))
    out = np.vstack([np.loadtxt(f, ndmin=2).reshape(-1, 5) for f in files])
    out = out[np.argsort(out[:, 0], kind="stable")]
    t, n, v = out[:, 0] - tOpen, out[:, 1], out[:, 2] / RHO * 1e9    # s after opening, mm^3

    vf = v[-1]

    def window(hi):
        """Times, volumes, line and linearity from 0.1 V_f to hi V_f."""
        i0, i1 = np.searchsorted(v, 0.1 * vf), np.searchsorted(v, hi * vf)
        tw, vw = t[i0:i1 + 1], v[i0:i1 + 1]
        p = np.polyfit(tw, vw, 1)
        return tw, vw, p, float(np.max(np.abs(vw - np.polyval(p, tw))) / (vw[-1] - vw[0]))

    tw, vw, p, linearity = window(0.9)
    # how far the discharge stays linear within 5 % (from 0.1 V_f on)
    linearUpTo = max([f for f in np.arange(0.5, 0.951, 0.05) if window(f)[3] <= 0.05], default=None)
    edges = np.linspace(tw[0], tw[-1], 5)
    quarters = [slope(tw[(tw >= lo) & (tw <= hi)], vw[(tw >= lo) & (tw <= hi)])
                for lo, hi in zip(edges[:-1], edges[1:])]

    # kinetic energy at the opening: the last progress line before it
    ekin = None
    for line in open(f"{run}/log.superellipsoidDEMFoam"):
        m = re.match(r"^Time = (\S+) .*Ekin (\S+) J", line)
        if m and float(m.group(1)) <= tOpen + 1e-9:
            ekin = float(m.group(2))

    # solids fraction of the settled bed: particle volume between one d_eq
    # above the floor and one d_eq below the top (95 % of the centres)
    z = centres(run, f"{tOpen:g}")[:, 2]
    z1, z2 = dEq, np.percentile(z, 95) - dEq
    phi = float(np.sum((z > z1) & (z < z2)) * vp / (width * depth * (z2 - z1)))
    qBeverloo = C_SLOT * phi * math.sqrt(G) * (orifice - K_BEVERLOO * dEq) ** 1.5 * depth * 1e9

    rate = float(p[0])
    return {
        "alpha": 2 * c / (2 * A),
        "particlesInjected": n0,
        "particleVolume_mm3": vp * 1e9,
        "totalVolume_mm3": n0 * vp * 1e9,
        "dEq_mm": dEq * 1e3,
        "openAt": tOpen,
        "kineticEnergyAtOpening_J": ekin,
        "kineticEnergyAtOpeningOverPotentialDrop": ekin / s["potentialEnergyDrop"] if ekin else None,
        "bedTopAtOpening_mm": float(np.percentile(z, 95)) * 1e3,
        "solidFraction": phi,
        "window_s": [float(tw[0]), float(tw[-1])],
        "volumeRate_mm3s": rate,
        "fitIntercept_mm3": float(p[1]),
        "massRate_gs": rate * 1e-9 * RHO * 1e3,
        "numberRate_1s": rate / (vp * 1e9),
        "linearity": linearity,
        "linearWithin5PercentUpTo": None if linearUpTo is None else round(float(linearUpTo), 2),
        "quarterRates_mm3s": quarters,
        "quarterRatesSpread": (max(quarters) - min(quarters)) / rate,
        "beverlooSlot_mm3s": qBeverloo,
        "rateOverBeverloo": rate / qBeverloo,
        "dischargedVolume_mm3": float(vf),
        "remainingVolume_mm3": s["particleMass"] / RHO * 1e9,
        "remainingParticles": s["particles"],
        "lastOutflowAfterOpening_s": float(t[-1]),
        "particlesLeft": s["particlesLeft"],
        "particlesLost": s["particlesLost"],
        "accounted": s["particles"] + s["particlesLeft"] == n0 and s["particlesLost"] == 0,
        "maxOverlapOverDeq": s["maxOverlapOverDeq"],
        "stepsWithOverlapAbove1Percent": s["stepsWithOverlapAbove1Percent"],
        "endTime": s["endTime"],
        "wallSeconds": s["wallSeconds"],
        "curve": (t, v, n),
    }


runs = sys.argv[1:] or [r for r in glob.glob("runs/*") if os.path.exists(f"{r}/postProcessing/demSummary.json")]
# paper size first, then by aspect ratio (runs/alpha<alpha>[Full])
runs.sort(key=lambda r: ("Full" not in r, float(re.sub(r"[^0-9.]", "", os.path.basename(r.rstrip("/"))) or 0)))
results = {os.path.basename(r.rstrip("/")): analyse(r) for r in runs}
json.dump({k: {kk: vv for kk, vv in r.items() if kk != "curve"} for k, r in results.items()},
          open("results.json", "w"), indent=2)

for k, r in results.items():
    print(f"    {k}: {r['volumeRate_mm3s']:.0f} mm3/s ({r['massRate_gs']:.3f} g/s, "
          f"{r['numberRate_1s']:.0f} particles/s) over {r['window_s'][0]:.3f}-{r['window_s'][1]:.3f} s "
          f"after the opening; linearity {100 * r['linearity']:.1f} % (within 5 % up to "
          f"{r['linearWithin5PercentUpTo']} V_f), quarters "
          f"{', '.join(f'{q:.0f}' for q in r['quarterRates_mm3s'])}; Beverloo {r['beverlooSlot_mm3s']:.0f} "
          f"(phi {r['solidFraction']:.3f}, ratio {r['rateOverBeverloo']:.2f}); left "
          f"{r['remainingVolume_mm3']:.1f} mm3 ({r['remainingParticles']}), lost {r['particlesLost']}, "
          f"accounted {r['accounted']}; max overlap {r['maxOverlapOverDeq']:.2e} d_eq; "
          f"Ekin at opening {r['kineticEnergyAtOpening_J']:.1e} J; wall {r['wallSeconds']:.0f} s")

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4.5), dpi=140)
    for k, r in results.items():
        t, v, n = r["curve"]
        t = np.concatenate([[0], t, [r["endTime"] - r["openAt"]]])
        v = np.concatenate([[0], v, [v[-1]]])
        n = np.concatenate([[0], n, [n[-1]]])
        full = "Full" in k
        label = f"alpha = {r['alpha']:.2g}" + (", paper size" if full else ", half")
        colour = COLOURS.get(round(r["alpha"], 2), None)
        line, = ax.step(t, v, where="post", label=label, color=colour, lw=1.8 if full else 1.0,
                        ls="-" if full else "--")
        w = np.array(r["window_s"])
        ax.plot(w, r["fitIntercept_mm3"] + r["volumeRate_mm3s"] * w, "k:", lw=1)
        ax2.step(t, n, where="post", label=label, color=line.get_color(), lw=line.get_linewidth(),
                 ls=line.get_linestyle())
    ax.set_ylabel("discharged volume [mm$^3$]")
    ax2.set_ylabel("discharged particles")
    for a in (ax, ax2):
        a.set_xlabel("time after the opening [s]")
        a.set_xlim(left=0)
        a.set_ylim(bottom=0)
        a.grid(alpha=0.3)
    ax.legend(title="dotted: least-squares line, 10-90 %", fontsize=8, title_fontsize=8)
    fig.tight_layout()
    os.makedirs("images", exist_ok=True)
    fig.savefig("images/dischargedVolume.png")
except ImportError:
    print("    (no matplotlib: no plot)")
