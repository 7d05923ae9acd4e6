#!/usr/bin/env python3
"""Measures the fluidization runs (after Allrun's two stages):

    python3 fluidizedBed.py <shape> ...      (runs/<shape>, shape sphere | prolate)

For every step of the inlet ramp (runs/<shape>/system/inletVelocity) and each
branch (rising up to the largest velocity, then falling):
  - the pressure drop dp = rho_f p_inlet (p = 0 at the outlet; p carries no
    hydrostatic part), time-averaged over the last 60 % of the step (the
    inletPressure function object writes every time step);
  - the total fluid force on the particles (fluidForce.dat), the same average,
    per column section;
  - the bed height H = 2 <z> (twice the mean height of the particle centres:
    exact for a uniformly filled bed) over the written times of that window,
    and the voidage eps = 1 - N V / (A H);
  - the share of the particles whose centres lie in the lowest cell row (on
    the distributor), and the rate of change of the particles' vertical
    momentum over the window (written times), per section, and what each
    wall patch holds up (wallLoads.dat, same average): the particles' balance
    is fluid force = W + dP/dt + (what the walls hold up), and
    dp = W/A + dP/dt / A - (what the walls hold up) / A + the fluid's own
    momentum terms.
Then per branch: the fixed-bed branch (dp < 0.8 W/A, W the bed's buoyant
weight, and the bed not expanded: H within 1 % of the branch's lowest-velocity step's) fitted by Ergun's form dp = a U + b U^2, U_mf where the fit reaches
W/A (the plateau: the mean of the steps 10 % or more above it), and Ergun's U_mf at the voidage of the fixed bed of that branch with the
shape's sphericity psi:
    Ar = 150 (1 - eps) / (psi^2 eps^3) Re + 1.75 / (psi eps^3) Re^2,
    Ar = rho_f (rho_p - rho_f) g d^3 / mu^2, Re = rho_f U d / mu, d = d_eq.
Writes runs/<shape>/ramp.dat, results.json, results.md, pressureDrop.png and
bedHeight.png (matplotlib; an SVG of the pressure drop when it is missing).
"""
import glob
import json
import math
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.environ.get("SEF_ROOT", os.path.join(here, "../../..")), "bin"))
import sefCloudField  # noqa: E402

G = 9.81
WINDOW = 0.6   # the averaged share of each step (its end)


def dictValue(path, key):
    text = re.sub(r"//[^\n]*", "", open(path).read())
    m = re.search(rf"\b{key}\s+(?:\[[^\]]*\]\s*)?([-+0-9.eE]+)\s*;", text)
    return float(m.group(1))


def shapeOf(case):
    text = re.sub(r"//[^\n]*", "", open(f"{case}/constant/particleShape").read())
    s = {k: float(v) for k, v in re.findall(r"\b(a|b|c|eps1|eps2|dEq)\s+([-+0-9.eE]+)\s*;", text)}
    return s


def sphericity(a, b, c, e1, e2, n=240):
    """pi^(1/3) (6 V)^(2/3) / S of the superellipsoid, its surface triangulated
    from the parametric form (converged to 1e-4 at n = 240)."""
    def sp(t, p):
        return math.copysign(abs(t) ** p, t)
    rows = []
    for i in range(n + 1):
        eta = -math.pi / 2 + math.pi * i / n
        ce, se = sp(math.cos(eta), e1), sp(math.sin(eta), e1)
        row = []
        for j in range(2 * n):
            w = -math.pi + math.pi * j / n
            row.append((a * ce * sp(math.cos(w), e2), b * ce * sp(math.sin(w), e2), c * se))
        rows.append(row)

    def tri(p, q, r):
        u = [q[k] - p[k] for k in range(3)]
        v = [r[k] - p[k] for k in range(3)]
        x = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
        return 0.5 * math.sqrt(x[0] ** 2 + x[1] ** 2 + x[2] ** 2)
    S = 0.0
    for i in range(n):
        for j in range(2 * n):
            jj = (j + 1) % (2 * n)
            p, q, r, s = rows[i][j], rows[i][jj], rows[i + 1][jj], rows[i + 1][j]
            S += tri(p, q, r) + tri(p, r, s)
    beta = lambda x, y: math.gamma(x) * math.gamma(y) / math.gamma(x + y)
    V = 2 * a * b * c * e1 * e2 * beta(e1 / 2 + 1, e1) * beta(e2 / 2, e2 / 2)
    return math.pi ** (1 / 3) * (6 * V) ** (2 / 3) / S


def ergunUmf(eps, psi, d, rhoF, rhoP, mu):
    Ar = rhoF * (rhoP - rhoF) * G * d ** 3 / mu ** 2
    a, b = 1.75 / (psi * eps ** 3), 150 * (1 - eps) / (psi ** 2 * eps ** 3)
    Re = (-b + math.sqrt(b * b + 4 * a * Ar)) / (2 * a)
    return Re * mu / (rhoF * d)


def ergunDp(U, eps, psi, d, H, rhoF, mu):
    return H * (150 * mu * U * (1 - eps) ** 2 / (psi ** 2 * eps ** 3 * d ** 2)
                + 1.75 * rhoF * U ** 2 * (1 - eps) / (psi * eps ** 3 * d))


def series(path, col=1):
    out = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        w = line.split()
        if len(w) > col:         # (a line being written)
            out.append((float(w[0]), float(w[col])))
    return out


def timeAverage(s, t0, t1):
    """Mean of a step-wise series (value at the end of each step) over (t0, t1]."""
    total = weight = 0.0
    prev = None
    for t, v in s:
        if prev is not None and t > t0 and prev < t1:
            dt = min(t, t1) - max(prev, t0)
            total += v * dt
            weight += dt
        prev = t
    return total / weight if weight > 0 else float("nan")


def steps(case):
    text = re.sub(r"//[^\n]*", "", open(f"{case}/system/inletVelocity").read())
    table = [(float(t), float(u)) for t, u in re.findall(r"\(\s*([-+0-9.eE]+)\s+\(\s*\S+\s+\S+\s+([-+0-9.eE]+)\s*\)\s*\)", text)]
    out = []
    for (t0, u0), (t1, u1) in zip(table, table[1:]):
        if u0 == u1 and u0 > 0:
            out.append((t0, t1, u0))
    top = max(u for _, _, u in out)
    rising = True
    marked = []
    for t0, t1, u in out:
        marked.append(("rising" if rising else "falling", t0, t1, u))
        if u == top:
            rising = False
    return marked


def writtenTimes(case):
    times = []
    for d in os.listdir(case):
        try:
            t = float(d)
        except ValueError:
            continue
        if os.path.isdir(f"{case}/{d}/lagrangian/particleCloud"):
            times.append((t, d))
    return sorted(times)


def measure(shape):
    case = f"runs/{shape}"
    rhoF = dictValue(f"{case}/constant/transportProperties", "rho")
    mu = rhoF * dictValue(f"{case}/constant/transportProperties", "nu")
    s = shapeOf(case)
    d = s["dEq"]
    rhoP = 2500.0
    V = math.pi / 6 * d ** 3
    scale = d / 2 / (s["a"] * s["b"] * s["c"]) ** (1 / 3)
    psi = sphericity(s["a"] * scale, s["b"] * scale, s["c"] * scale, s["eps1"], s["eps2"])
    box = [float(x) for x in re.search(r"vertices\s*\(\s*\([^)]*\)\s*\(([^)]*)\)\s*\(([^)]*)\)", open(f"{case}/system/blockMeshDict").read()).group(2).split()]
    A = box[0] * box[1]
    # every start time's file (a restarted run writes its own)
    p = sorted(sum((series(f) for f in glob.glob(f"{case}/postProcessing/inletPressure/*/surfaceFieldValue.dat")), []))
    F = sorted(sum((series(f, 3) for f in glob.glob(f"{case}/postProcessing/particleCloud/*/fluidForce.dat")), []))
    # the particles' loads on each wall patch (Fz column of each group)
    loadFiles = glob.glob(f"{case}/postProcessing/particleCloud/*/wallLoads.dat")
    patches = re.findall(r"(\w+):Fx", next((l for l in open(loadFiles[0]) if l.startswith("# time")), "")) if loadFiles else []
    loads = {n: sorted(sum((series(f, 3 + 6 * k) for f in loadFiles), [])) for k, n in enumerate(patches)}
    times = writtenTimes(case)
    N = len(sefCloudField.read(case, times[0][1], "restartCentre"))
    Wa = N * V * (rhoP - rhoF) * G / A
    heights, lowest, momentum = {}, {}, {}
    cell = float(re.search(r"\(\s*\d+\s+\d+\s+(\d+)\s*\)\s*simpleGrading", open(f"{case}/system/blockMeshDict").read()).group(1))
    dz = re.findall(r"\(0 0 ([0-9.]+)\)", open(f"{case}/system/blockMeshDict").read())
    cellHeight = max(float(x) for x in dz) / cell
    mass = rhoP * V
    for t, name in times:
        z = [c[2] for c in sefCloudField.read(case, name, "restartCentre")]
        heights[t] = 2 * sum(z) / len(z)
        lowest[t] = sum(1 for x in z if x < cellHeight) / len(z)
        momentum[t] = mass * sum(u[2] for u in sefCloudField.read(case, name, "U"))
    rows = []
    for branch, t0, t1, U in steps(case):
        a0 = t1 - WINDOW * (t1 - t0)
        if a0 >= p[-1][0]:
            break
        dp = rhoF * timeAverage(p, a0, t1)
        Fz = timeAverage(F, a0, t1) / A
        hs = [h for t, h in heights.items() if a0 - 1e-9 <= t <= t1 + 1e-9]
        H = sum(hs) / len(hs) if hs else float("nan")
        inside = sorted(t for t in heights if a0 - 1e-9 <= t <= t1 + 1e-9)
        low = sum(lowest[t] for t in inside) / len(inside) if inside else float("nan")
        # the particles' vertical momentum change over the window, per section
        dPdt = (momentum[inside[-1]] - momentum[inside[0]]) / (inside[-1] - inside[0]) / A if len(inside) > 1 else float("nan")
        # what the walls hold up (a downward load on a patch holds the bed up)
        support = {n: -timeAverage(L, a0, t1) / A for n, L in loads.items()}
        rows.append(dict(branch=branch, U=U, dp=dp, dpOverWeight=dp / Wa, fluidForcePerArea=Fz, H=H,
                         eps=1 - N * V / (A * H), lowestCellShare=low, momentumRatePerArea=dPdt,
                         wallSupportPerArea=support, t0=a0, t1=t1))
    result = dict(shape=shape, particles=N, dEq=d, rhoP=rhoP, rhoF=rhoF, mu=mu, sphericity=psi, section=A,
                  buoyantWeightPerArea=Wa, steps=rows, heights=sorted(heights.items()))
    for branch in ("rising", "falling"):
        pts = [r for r in rows if r["branch"] == branch]
        # the fixed bed: not expanded (H within 1 % of the branch's
        # lowest-velocity step's: after fluidization the bed settles to
        # another packing) and
        # well below the weight (dp < 0.8 W/A)
        settled = min(pts, key=lambda r: r["U"])["H"] if pts else float("nan")
        fixed = [r for r in pts if r["dp"] < 0.8 * Wa and r["H"] < 1.01 * settled]
        b = dict(points=len(pts))
        if len(fixed) >= 2:
            # least squares dp = a U + b U^2 (through the origin)
            s11 = sum(r["U"] ** 2 for r in fixed)
            s12 = sum(r["U"] ** 3 for r in fixed)
            s22 = sum(r["U"] ** 4 for r in fixed)
            y1 = sum(r["U"] * r["dp"] for r in fixed)
            y2 = sum(r["U"] ** 2 * r["dp"] for r in fixed)
            det = s11 * s22 - s12 * s12
            ca, cb = (y1 * s22 - y2 * s12) / det, (s11 * y2 - s12 * y1) / det
            Umf = (-ca + math.sqrt(ca * ca + 4 * cb * Wa)) / (2 * cb) if cb > 0 else Wa / ca
            eps = sum(r["eps"] for r in fixed) / len(fixed)
            H = sum(r["H"] for r in fixed) / len(fixed)
            Ue = ergunUmf(eps, psi, d, rhoF, rhoP, mu)
            b.update(fit=[ca, cb], UmfCurve=Umf, epsFixed=eps, HFixed=H, UmfErgun=Ue, deviation=Umf / Ue - 1,
                     fixedVsErgun=[r["dp"] / ergunDp(r["U"], eps, psi, d, H, rhoF, mu) - 1 for r in fixed])
        # the plateau: the steps 10 % and more above U_mf of the curve
        fluid = [r for r in pts if "UmfCurve" in b and r["U"] >= 1.1 * b["UmfCurve"]]
        if fluid:
            b["plateau"] = sum(r["dp"] for r in fluid) / len(fluid)
            b["plateauOverWeight"] = b["plateau"] / Wa
            b["plateauPoints"] = len(fluid)
            # less the particles' momentum rate: a window of a slugging bed
            # catches it rising or falling (dp = W/A + dP/dt/A - walls)
            b["plateauLessMomentumRate"] = sum(r["dp"] - r["momentumRatePerArea"] for r in fluid) / len(fluid)
            b["plateauLessMomentumRateOverWeight"] = b["plateauLessMomentumRate"] / Wa
            ca, cb = b["fit"]
            b["UmfCurveAtPlateau"] = (-ca + math.sqrt(ca * ca + 4 * cb * b["plateau"])) / (2 * cb) if cb > 0 else b["plateau"] / ca
        result[branch] = b
    json.dump(result, open(f"{case}/results.json", "w"), indent=1)
    with open(f"{case}/ramp.dat", "w") as out:
        out.write("# branch U[m/s] dp[Pa] dp/(W/A) fluidForce/A[Pa] H[m] eps\n")
        for r in rows:
            out.write(f"{r['branch']} {r['U']:g} {r['dp']:.2f} {r['dpOverWeight']:.4f} {r['fluidForcePerArea']:.2f} {r['H']:.5f} {r['eps']:.4f}\n")
    return result


def report(results):
    lines = ["# Fluidized bed: measured", ""]
    for r in results:
        lines += [f"## {r['shape']}", "",
                  f"{r['particles']} particles, d_eq {r['dEq'] * 1e3:g} mm, sphericity {r['sphericity']:.3f}; "
                  f"buoyant weight per section W/A = {r['buoyantWeightPerArea']:.1f} Pa", "",
                  "| branch | U [m/s] | dp [Pa] | dp / (W/A) | fluid force / A [Pa] | H [mm] | eps | in the lowest cell row | dP/dt / A [Pa] | held by the walls / A [Pa] |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        for s in r["steps"]:
            held = ", ".join(f"{n} {v:.0f}" for n, v in s.get("wallSupportPerArea", {}).items())
            lines.append(f"| {s['branch']} | {s['U']:g} | {s['dp']:.0f} | {s['dpOverWeight']:.3f} | {s['fluidForcePerArea']:.0f} | "
                         f"{s['H'] * 1e3:.1f} | {s['eps']:.3f} | {s['lowestCellShare']:.1%} | {s['momentumRatePerArea']:.0f} | {held} |")
        lines.append("")
        for branch in ("rising", "falling"):
            b = r.get(branch, {})
            if "UmfCurve" in b:
                lines.append(f"- {branch}: U_mf from the curve {b['UmfCurve']:.3f} m/s; Ergun at the fixed bed's eps "
                             f"{b['epsFixed']:.3f} (psi {r['sphericity']:.3f}) {b['UmfErgun']:.3f} m/s: {b['deviation']:+.1%}; "
                             f"fixed-bed dp against Ergun: " + ", ".join(f"{x:+.1%}" for x in b["fixedVsErgun"]))
            if "plateau" in b:
                lines.append(f"- {branch}: plateau dp {b['plateau']:.0f} Pa = {b['plateauOverWeight']:.3f} W/A "
                             f"({b['plateauPoints']} steps); the fit reaches it at {b['UmfCurveAtPlateau']:.3f} m/s; "
                             f"less the particles' momentum rate dP/dt/A {b['plateauLessMomentumRateOverWeight']:.3f} W/A")
        lines.append("")
    open("results.md", "w").write("\n".join(lines))
    json.dump(results, open("results.json", "w"), indent=1)
    print("\n".join(lines))


def plots(results):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        svg(results)
        return
    colours = {"sphere": "tab:blue", "prolate": "tab:orange"}
    fig, ax = plt.subplots(figsize=(7.5, 5))
    for r in results:
        c = colours.get(r["shape"], "k")
        for branch, marker, fill in (("rising", "o", c), ("falling", "s", "none")):
            pts = [s for s in r["steps"] if s["branch"] == branch]
            ax.plot([s["U"] for s in pts], [s["dp"] for s in pts], marker=marker, color=c, mfc=fill, ls="-" if branch == "rising" else "--",
                    label=f"{r['shape']} {branch}")
            b = r.get(branch, {})
            if "fit" in b:
                us = [b["UmfCurve"] * k / 50 for k in range(51)]
                ax.plot(us, [b["fit"][0] * u + b["fit"][1] * u * u for u in us], color=c, lw=0.8, ls=":")
                ax.plot([b["UmfCurve"]], [r["buoyantWeightPerArea"]], marker="x", color=c, ms=10)
        ax.axhline(r["buoyantWeightPerArea"], color=c, lw=0.8, alpha=0.6)
    ax.set_xlabel("superficial gas velocity U [m/s]")
    ax.set_ylabel("pressure drop across the bed [Pa]")
    ax.set_title("pressure drop against U (line: buoyant weight per area; x: U_mf from the fit)", fontsize=9)
    ax.set_xlim(left=0)
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig("pressureDrop.png", dpi=110)
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for r in results:
        c = colours.get(r["shape"], "k")
        for branch, marker, fill in (("rising", "o", c), ("falling", "s", "none")):
            pts = [s for s in r["steps"] if s["branch"] == branch]
            ax.plot([s["U"] for s in pts], [s["H"] * 1e3 for s in pts], marker=marker, color=c, mfc=fill,
                    ls="-" if branch == "rising" else "--", label=f"{r['shape']} {branch}")
    ax.set_xlabel("superficial gas velocity U [m/s]")
    ax.set_ylabel("bed height 2<z> [mm]")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig("bedHeight.png", dpi=110)
    print("wrote pressureDrop.png bedHeight.png")


def svg(results):
    """Without matplotlib: the pressure drop curve as a plain SVG."""
    W, H, m = 700, 450, 60
    umax = max(s["U"] for r in results for s in r["steps"]) * 1.1
    pmax = max(max(s["dp"] for s in r["steps"]) for r in results) * 1.15
    X = lambda u: m + (W - 2 * m) * u / umax
    Y = lambda p: H - m - (H - 2 * m) * p / pmax
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}"><rect width="100%" height="100%" fill="white"/>',
           f'<line x1="{m}" y1="{H - m}" x2="{W - m}" y2="{H - m}" stroke="black"/><line x1="{m}" y1="{H - m}" x2="{m}" y2="{m}" stroke="black"/>',
           f'<text x="{W / 2}" y="{H - 15}" text-anchor="middle">U [m/s] (0 - {umax:.2f})</text>',
           f'<text x="15" y="{H / 2}" transform="rotate(-90 15 {H / 2})" text-anchor="middle">dp [Pa] (0 - {pmax:.0f})</text>']
    for r, c in zip(results, ("blue", "darkorange", "green")):
        out.append(f'<line x1="{m}" x2="{W - m}" y1="{Y(r["buoyantWeightPerArea"]):.1f}" y2="{Y(r["buoyantWeightPerArea"]):.1f}" stroke="{c}" stroke-opacity="0.5"/>')
        for branch, dash in (("rising", ""), ("falling", ' stroke-dasharray="5,3"')):
            pts = [s for s in r["steps"] if s["branch"] == branch]
            path = " ".join(f"{X(s['U']):.1f},{Y(s['dp']):.1f}" for s in pts)
            out.append(f'<polyline points="{path}" fill="none" stroke="{c}"{dash}/>')
            for s in pts:
                out.append(f'<circle cx="{X(s["U"]):.1f}" cy="{Y(s["dp"]):.1f}" r="4" fill="{c if branch == "rising" else "white"}" stroke="{c}"/>')
    out.append("</svg>")
    open("pressureDrop.svg", "w").write("\n".join(out))
    print("wrote pressureDrop.svg (no matplotlib)")


if __name__ == "__main__":
    results = [measure(shape) for shape in (sys.argv[1:] or ["sphere", "prolate"])]
    report(results)
    plots(results)
