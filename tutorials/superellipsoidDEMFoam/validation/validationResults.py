#!/usr/bin/python3
"""Numbers of the collision validation studies, from the solved cases that
validationCases.py wrote (postProcessing/particleTrace.dat of each case).

As a command it checks the acceptance criteria (used by the case tests):
  validationResults.py check-centric <casesDir>     |omega| d_eq / u < 1e-6, every centric particle
  validationResults.py check-subcycling <casesDir>  dt/t_ref = 1 x 10 subcycles vs 0.1: within 2 %
  validationResults.py check-kodam <casesDir>       10 <= theta <= 80: eqs. 41-42 within 1 %
Exit status 0 when the criterion holds.
"""
import json
import math
import os
import subprocess
import sys

import numpy as np

CENTRIC_LIMIT = 1e-6      # |omega| d_eq / |u|
SUBCYCLING_LIMIT = 0.02   # post-collision velocities, 1 x 10 subcycles vs dt/t_ref = 0.1
KODAM_LIMIT = 0.01        # relative to eqs. 41-42 with the detected contact point
KODAM_THETA_RANGE = (10.0, 80.0)
# Every centric particle is asserted: 4 shapes x (1 wall + 2 pair bodies)
# per time step. The cube pair (flat face on flat face) used to spin; since
# the contact point is the centre of the overlap patch it passes too.
CENTRIC_PER_DT = 12


def loadIndex(casesDir):
    with open(os.path.join(casesDir, "cases.json")) as f:
        return json.load(f)


def loadTrace(casesDir, case):
    """{id: array of rows (time x y z Ux Uy Uz wx wy wz qw qx qy qz)}."""
    d = np.loadtxt(os.path.join(casesDir, case["name"], "postProcessing", "particleTrace.dat"))
    ids = d[:, 1].astype(int)
    return {i: np.delete(d[ids == i], 1, axis=1) for i in np.unique(ids)}


def loadSummary(casesDir, case):
    with open(os.path.join(casesDir, case["name"], "postProcessing", "demSummary.json")) as f:
        return json.load(f)


def firstChange(rows, tol=1e-12):
    """Index of the first trace row whose velocity or spin differs from the
    initial one (the first collision), or None."""
    d = np.linalg.norm(rows[:, 4:10] - rows[0, 4:10], axis=1)
    k = np.where(d > tol)[0]
    return int(k[0]) if len(k) else None


def studyResults(casesDir):
    """Per study case and particle: final velocity and spin, first-collision
    time, plus the energy balance of each case (restitution 1, frictionless:
    kinetic energy must be conserved)."""
    index = loadIndex(casesDir)
    dEq, U0, tRef = index["dEq"], index["U0"], index["tRef"]
    out = []
    for case in index["cases"]:
        if case["study"] not in ("wall", "pair"):
            continue
        trace = loadTrace(casesDir, case)
        summary = loadSummary(casesDir, case)
        moving = sum(1 for p in case["particles"] if p["role"] in ("wall", "A"))
        mass = index["density"] * math.pi / 6 * dEq ** 3     # every shape: volume of the d_eq sphere
        energy0 = moving * 0.5 * mass * U0 ** 2
        particles = []
        for p in case["particles"]:
            rows = trace[p["id"]]
            k = firstChange(rows)
            particles.append(dict(p, v=rows[-1, 4:7].tolist(), w=rows[-1, 7:10].tolist(),
                                  tEnd=float(rows[-1, 0]),
                                  tCollision=None if k is None else float(rows[k, 0]),
                                  wNorm=float(np.linalg.norm(rows[-1, 7:10]) * dEq / U0)))
        out.append(dict(case, results=particles, energyRatio=summary["kineticEnergy"] / energy0,
                        maxOverlapOverDeq=summary["maxOverlapOverDeq"],
                        particlesLost=summary["particlesLost"], fallbacks=summary.get("fallbacks", 0),
                        wallSeconds=summary["wallSeconds"]))
    return index, out


def byKey(cases):
    """{(study, dtTag, shape, kind, role): particle result}."""
    table = {}
    for c in cases:
        for p in c["results"]:
            table[(c["study"], c["dtTag"], p["shape"], p["kind"], p["role"])] = p
    return table


def velocityErrors(p, ref, dEq, U0):
    """Differences in post-collision velocity |dv| / |u| and spin
    |dw| (d_eq / 2) / |u| (the rim speed), both relative to the impact speed."""
    ev = np.linalg.norm(np.subtract(p["v"], ref["v"])) / U0
    ew = np.linalg.norm(np.subtract(p["w"], ref["w"])) * 0.5 * dEq / U0
    return float(ev), float(ew)


def checkCentric(casesDir):
    index, cases = studyResults(casesDir)
    ok, n, dts = True, 0, set()
    for c in cases:
        for p in c["results"]:
            if p["kind"] != "centric":
                continue
            good = p["wNorm"] < CENTRIC_LIMIT
            n += 1
            dts.add(c["dtTag"])
            ok = ok and good
            print("  %s %-5s dt/tref %-6s %-7s %-4s |w| d_eq/u = %.2e" % (
                "ok  " if good else "FAIL", c["study"], c["dtTag"], p["shape"], p["role"], p["wNorm"]))
    complete = n == CENTRIC_PER_DT * len(dts) and n > 0
    if not complete:
        print("  FAIL: %d centric particles checked, expected %d per time step" % (n, CENTRIC_PER_DT))
    return ok and complete


def checkSubcycling(casesDir):
    index, cases = studyResults(casesDir)
    t = byKey(cases)
    ok, n = True, 0
    for (study, tag, shape, kind, role), p in sorted(t.items()):
        if tag != "1x10" or kind != "eccentric":
            continue
        ref = t.get((study, "0.1", shape, kind, role))
        if ref is None:
            continue
        n += 1
        ev, ew = velocityErrors(p, ref, index["dEq"], index["U0"])
        good = ev < SUBCYCLING_LIMIT and ew < SUBCYCLING_LIMIT
        ok = ok and good
        print("  %s %-4s %-7s %-4s |dv|/u = %.2e  |dw| r_eq/u = %.2e" % (
            "ok  " if good else "FAIL", study, shape, role, ev, ew))
    return ok and n > 0


def shapeInfo(shape, density):
    """Volume and principal inertia from the project's superellipsoidInfo."""
    out = subprocess.run(["superellipsoidInfo", "-a", repr(shape["a"]), "-b", repr(shape["b"]),
                          "-c", repr(shape["c"]), "-eps1", repr(shape["eps1"]), "-eps2",
                          repr(shape["eps2"]), "-rho", repr(density)],
                         capture_output=True, text=True, check=True).stdout
    info = {}
    for line in out.splitlines():
        f = line.split()
        if f and f[0] in ("volume", "inertia", "boundingRadius"):
            info[f[0]] = [float(x) for x in f[1:]]
    return dict(volume=info["volume"][0], inertia=info["inertia"])


def detectedContact(shape, position, orientation, gap=0.0):
    """Contact point of the shape in the given pose against the floor z = 0,
    from superellipsoidContact (the same detection the solver uses). A pose
    up to `gap` above the floor (a contact before penetration: the solver met
    the body at its deepest point with a gap) is lowered until it touches;
    its deepest point keeps its place relative to the centre."""
    for k in range(9):
        lowered = list(position)
        lowered[2] -= gap * k / 8
        body = dict(shape, density=1000.0, position=lowered, orientation=list(orientation))
        payload = dict(bodies=[body], wall=dict(point=[0.0, 0.0, 0.0], normal=[0.0, 0.0, 1.0]))
        r = json.loads(subprocess.run(["superellipsoidContact"], input=json.dumps(payload),
                                      capture_output=True, text=True, check=True).stdout)
        if r["contact"]:
            return np.array(r["point"]) + np.array([0.0, 0.0, position[2] - lowered[2]])
        if gap == 0.0:
            break
    raise RuntimeError("superellipsoidContact: no contact for pose %s %s" % (position, orientation))


def kodamAnalytic(lever, mass, Iyy, e, V):
    """[Superquadric-LIGGGHTS], eqs. (41)-(42) (Kodam et al.) with r cos(alpha + theta) =
    lever, the horizontal distance of the contact point from the centre:
    returns (omega_y^+, V_z^+), both in Kodam's sense (V^- > 0 towards the wall)."""
    w = mass * V * (1 + e) * lever / (Iyy + mass * lever ** 2)   # eq. (41)
    return w, w * lever - e * V                                  # eq. (42)


def supportPointCylinder(R, H, eps1, theta):
    """Lowest point of the cylinder-like superellipsoid (eps2 = 1, axis along
    body z) tilted by theta about y: the surface point whose outward normal is
    -z in the world, found in the profile plane (rho, z) of the body."""
    n = 2.0 / eps1
    # world -z in the body frame: (sin th, 0, -cos th); profile normal
    # ~ ((rho/R)^(n-1)/R, (|z|/H)^(n-1)/H) must be parallel to (sin th, cos th)
    th = math.radians(theta)
    s, c = math.sin(th), math.cos(th)
    if s == 0:
        return 0.0, -H
    if c == 0:
        return R, 0.0
    # (rho/R) = k (|z|/H) with k = (tan th R / H)^(1/(n-1)); on the surface
    k = (s / c * R / H) ** (1.0 / (n - 1))
    zh = (1.0 + k ** n) ** (-1.0 / n)
    return R * k * zh, -H * zh


def kodamResults(casesDir):
    index = loadIndex(casesDir)
    case = next(c for c in index["cases"] if c["study"] == "kodam")
    trace = loadTrace(casesDir, case)
    e, V, rho, dt = case["restitution"], case["speed"], case["density"], case["dt"]
    infos = {}
    rows = []
    for p in case["particles"]:
        shape = p["shape"]
        key = p["type"]
        if key not in infos:
            infos[key] = shapeInfo(shape, rho)
        info = infos[key]
        mass, Iyy = rho * info["volume"], info["inertia"][1]
        tr = trace[p["id"]]
        k = firstChange(tr)
        if k is None:
            rows.append(dict(p, hit=False))
            continue
        before, after = tr[k - 1], tr[k]
        # The pose the solver resolved: contacts are detected and resolved at
        # the start of a step (after the first half kick, before the drift),
        # i.e. at the positions of the last free row.
        pose = before[1:4]
        # (two substeps' travel: the farthest a contact before penetration
        # can be met above the floor)
        point = detectedContact(shape, pose, before[10:14], gap=2.0 * dt * V)
        lever = point[0] - pose[0]
        r = float(np.linalg.norm(point - pose))
        wK, vK = kodamAnalytic(lever, mass, Iyy, e, V)
        # sharp corner of the true cylinder: r, alpha of the corner
        R, H = shape["a"], shape["c"]
        rc, alpha = math.hypot(R, H), math.atan2(H, R)
        leverCorner = rc * math.cos(alpha + math.radians(p["theta"]))
        wC, vC = kodamAnalytic(leverCorner, mass, Iyy, e, V)
        # Kodam's sense: omega positive when the contact is at +x (the
        # solver's omega_y is then negative); V^+/V^- = U_z^+ / U_z^-
        wSim = -after[8]
        vRatio = after[6] / before[6]
        rows.append(dict(p, hit=True, tImpact=float(after[0]), mass=mass, Iyy=Iyy,
                         lever=float(lever), rDetected=r,
                         # r cos(alpha + theta) = lever defines alpha of the detected point
                         alphaDetected=math.degrees(math.acos(lever / r)) - p["theta"],
                         leverCorner=leverCorner, rCorner=rc,
                         wSim=float(wSim), vRatioSim=float(vRatio),
                         wDetected=wK, vRatioDetected=vK / V,
                         wCorner=wC, vRatioCorner=vC / V,
                         speed=V, restitution=e))
    return case, rows


def kodamErrors(row):
    """Relative differences of the solver to eqs. 41-42 with the detected point."""
    # Both quantities are O(1) ratios that cross zero (V+/V- near theta = 50
    # deg): relative to the value, floored at 0.05 of the scale, so a
    # 1e-5 absolute difference at a zero crossing is not read as 10 %.
    ew = abs(row["wSim"] - row["wDetected"]) / max(abs(row["wDetected"]), 0.05)
    ev = abs(row["vRatioSim"] - row["vRatioDetected"]) / max(abs(row["vRatioDetected"]), 0.05)
    return ew, ev


def checkKodam(casesDir):
    case, rows = kodamResults(casesDir)
    ok, n = True, 0
    lo, hi = KODAM_THETA_RANGE
    for r in rows:
        if not (lo <= r["theta"] <= hi):
            continue
        n += 1
        if not r["hit"]:
            print("  FAIL eps1 %.3f theta %4.1f: no impact" % (r["eps1"], r["theta"]))
            ok = False
            continue
        ew, ev = kodamErrors(r)
        good = ew < KODAM_LIMIT and ev < KODAM_LIMIT
        ok = ok and good
        print("  %s eps1 %.3f theta %4.1f  r w/V: sim %+.6f eq.41 %+.6f (%.1e)  V+/V-: sim %+.6f eq.42 %+.6f (%.1e)" % (
            "ok  " if good else "FAIL", r["eps1"], r["theta"], r["wSim"] * r["rCorner"] / r["speed"],
            r["wDetected"] * r["rCorner"] / r["speed"], ew, r["vRatioSim"], r["vRatioDetected"], ev))
    return ok and n > 0


def main():
    checks = {"check-centric": checkCentric, "check-subcycling": checkSubcycling,
              "check-kodam": checkKodam}
    if len(sys.argv) != 3 or sys.argv[1] not in checks:
        print(__doc__)
        sys.exit(2)
    sys.exit(0 if checks[sys.argv[1]](sys.argv[2]) else 1)


if __name__ == "__main__":
    main()
