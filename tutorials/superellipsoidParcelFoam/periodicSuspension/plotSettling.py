#!/usr/bin/env python3
"""Settling of the periodic suspensions (Allrun): the particles' mean vertical
velocity relative to the fluid's mean, averaged over the written times from
AVERAGE_FROM (0.2 s) on, against Richardson-Zaki.

    plotSettling.py <runs dir> <images dir>

Writes <images>/settling.png, <images>/suspension.png and results.json."""
import json, math, os, re, sys

sys.path.insert(0, os.path.join(os.environ["SEF_ROOT"], "bin"))
from sefCloudField import read

runs, images = sys.argv[1], sys.argv[2]
average_from = float(os.environ.get("AVERAGE_FROM", "0.2"))
rho, mu, rho_p, d, g = 1000.0, 1e-2, 2500.0, 1e-3, 9.81


def sphere_terminal_velocity():
    """Schiller-Naumann: 18 mu v (1 + 0.15 Re^0.687) / d^2 = (rho_p - rho) g."""
    v = (rho_p - rho) * g * d * d / (18 * mu)
    for _ in range(200):
        re = rho * v * d / mu
        v = (rho_p - rho) * g * d * d / (18 * mu * (1 + 0.15 * re ** 0.687))
    return v


def garside_n(re):
    """Richardson-Zaki exponent from the terminal Re (Garside & Al-Dibouni 1977)."""
    return (5.1 + 0.27 * re ** 0.9) / (1 + 0.1 * re ** 0.9)


def fluid_mean(case, t):
    text = open(f"{case}/{t}/U").read()
    body = text[text.index("internalField"):]
    m = re.search(r"nonuniform List<vector>\s*\d+\s*\((.*?)\)\s*;", body, re.S)
    if m is None:
        return [float(x) for x in re.search(r"uniform\s*\(([^)]*)\)", body).group(1).split()]
    rows = re.findall(r"\(([^()]*)\)", m.group(1))
    cells = [[float(x) for x in r.split()] for r in rows]
    return [sum(c[k] for c in cells) / len(cells) for k in range(3)]


results = {}
for run in sorted(os.listdir(runs)):
    shape, phi = run.split("-")
    case = f"{runs}/{run}"
    times = sorted((t for t in os.listdir(case) if re.fullmatch(r"[0-9.e-]+", t) and float(t) >= average_from
                    and os.path.isdir(f"{case}/{t}/lagrangian")), key=float)
    if not times:
        continue
    slips = []
    for t in times:
        u = read(case, t, "U")
        up = sum(v[2] for v in u) / len(u)
        slips.append(up - fluid_mean(case, t)[2])
    slip = -sum(slips) / len(slips)                          # downward, > 0
    spread = (max(slips) - min(slips)) / 2
    eps = 1 - float(phi)
    results.setdefault(shape, []).append(
        {"solids": float(phi), "particles": len(read(case, times[-1], "U")), "slip": slip,
         "settlingVelocity": eps * slip, "slipSpread": spread, "averagedFrom": float(times[0]),
         "averagedTo": float(times[-1])})

vt = sphere_terminal_velocity()
re_t = rho * vt * d / mu
n = garside_n(re_t)
summary = {"sphereTerminalVelocity": vt, "sphereTerminalRe": re_t, "richardsonZakiN": n, "runs": results}
for shape, rows in results.items():
    rows.sort(key=lambda r: r["solids"])
    for r in rows:
        eps = 1 - r["solids"]
        r["richardsonZaki"] = vt * eps ** n
        r["overRichardsonZaki"] = r["settlingVelocity"] / r["richardsonZaki"]
    # the exponent fitted to this shape's runs: ln v_s = ln v_0 + n ln eps
    if len(rows) > 1:
        xs = [math.log(1 - r["solids"]) for r in rows]
        ys = [math.log(r["settlingVelocity"]) for r in rows]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        summary[f"{shape}FittedN"] = slope
        summary[f"{shape}FittedV0"] = math.exp(my - slope * mx)
json.dump(summary, open("results.json", "w"), indent=2)

print(f"sphere terminal velocity (Schiller-Naumann) {1e3 * vt:.2f} mm/s, Re_t {re_t:.2f}, Richardson-Zaki n {n:.2f}")
for shape, rows in results.items():
    for r in rows:
        print(f"  {shape:8s} solids {r['solids']:.2f} ({r['particles']} particles): slip {1e3 * r['slip']:.2f} mm/s,"
              f" settling (zero volume flux) {1e3 * r['settlingVelocity']:.2f} mm/s,"
              f" Richardson-Zaki {1e3 * r['richardsonZaki']:.2f} mm/s (ratio {r['overRichardsonZaki']:.3f})")
    if f"{shape}FittedN" in summary:
        print(f"  {shape}: fitted n {summary[shape + 'FittedN']:.2f}, v_0 {1e3 * summary[shape + 'FittedV0']:.2f} mm/s")

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
os.makedirs(images, exist_ok=True)
fig, ax = plt.subplots(figsize=(6, 4.2))
phis = [i / 100 for i in range(0, 41)]
ax.plot(phis, [1e3 * vt * (1 - p) ** n for p in phis], "k-", label=f"Richardson-Zaki, spheres (n = {n:.2f})")
for shape, marker in (("sphere", "o"), ("prolate", "s")):
    rows = results.get(shape, [])
    if rows:
        ax.errorbar([r["solids"] for r in rows], [1e3 * r["settlingVelocity"] for r in rows],
                    yerr=[1e3 * (1 - r["solids"]) * r["slipSpread"] for r in rows], fmt=marker,
                    label=f"{shape}s (simulated)", capsize=3)
ax.set_xlabel("solids fraction")
ax.set_ylabel("settling velocity (zero volume flux) [mm/s]")
ax.set_xlim(0, 0.35)
ax.set_ylim(bottom=0)
ax.grid(alpha=0.3)
ax.legend()
fig.tight_layout()
fig.savefig(f"{images}/settling.png", dpi=120)

# a picture: the particles of the 10 % runs at their last time, coloured by
# their vertical velocity relative to the mean
fig = plt.figure(figsize=(9, 4.4))
for k, shape in enumerate(("sphere", "prolate")):
    case = f"{runs}/{shape}-0.1"
    if not os.path.isdir(case):
        continue
    t = sorted((t for t in os.listdir(case) if re.fullmatch(r"[0-9.e-]+", t) and os.path.isdir(f"{case}/{t}/lagrangian")), key=float)[-1]
    x = read(case, t, "restartCentre")
    w = [v[2] for v in read(case, t, "U")]
    mean = sum(w) / len(w)
    ax = fig.add_subplot(1, 2, k + 1, projection="3d")
    s = ax.scatter([1e3 * p[0] for p in x], [1e3 * p[1] for p in x], [1e3 * p[2] for p in x],
                   c=[1e3 * (v - mean) for v in w], cmap="coolwarm", s=40, depthshade=False)
    ax.set_title(f"{shape}s, 10 % solids, t = {t} s")
    ax.set_xlabel("x [mm]"); ax.set_ylabel("y [mm]"); ax.set_zlabel("z [mm]")
    fig.colorbar(s, ax=ax, shrink=0.6, pad=0.12, label="u_z - mean [mm/s]")
fig.tight_layout()
fig.savefig(f"{images}/suspension.png", dpi=110)
