"""End-to-end checks of superellipsoidContact.

Contact: sphere pairs and a sphere on a wall have closed-form depth, normal
and point. Collide: every random frictional collision conserves linear
momentum and each body's angular momentum about the reported contact point
([Superellipsoid-OpenFOAM] eq. 70), never gains kinetic energy (Coulomb, e_n <= 1), and
conserves it for e_n = 1 frictionless; a head-on sphere pair matches the 1D
textbook result. Bad input: one line on stderr, exit status 2.
"""
import json
import math
import random
import subprocess
import sys

import numpy as np

TOOL = "superellipsoidContact"
failures = 0


def check(name, ok, detail=""):
    global failures
    print(("  ok   " if ok else "  FAIL ") + name + ("" if ok else "  " + detail))
    failures += 0 if ok else 1


def run(payload):
    p = subprocess.run([TOOL], input=json.dumps(payload), capture_output=True, text=True)
    return p.returncode, (json.loads(p.stdout) if p.returncode == 0 else None), p.stderr


def body(a, b, c, e1, e2, x, q=(1, 0, 0, 0), v=(0, 0, 0), w=(0, 0, 0), rho=1000.0):
    return {"a": a, "b": b, "c": c, "eps1": e1, "eps2": e2, "density": rho,
            "position": list(x), "orientation": list(q), "velocity": list(v),
            "angularVelocity": list(w)}


def rotation(q):
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def mass_props(bd):
    """Mass and world inertia tensor of an ellipsoid (closed form, independent
    of the code under test); the random collisions use ellipsoids only."""
    a, b, c, rho = bd["a"], bd["b"], bd["c"], bd["density"]
    m = rho * 4.0 / 3.0 * math.pi * a * b * c
    I = np.diag([m * (b * b + c * c) / 5, m * (a * a + c * c) / 5, m * (a * a + b * b) / 5])
    R = rotation(bd["orientation"])
    return m, R @ I @ R.T


# --- contact geometry ---------------------------------------------------------
r = 0.005
rc, out, _ = run({"bodies": [body(r, r, r, 1, 1, (0, 0, 0)), body(r, r, r, 1, 1, (0.009, 0.0, 0.0))]})
check("sphere pair: contact", rc == 0 and out["contact"])
check("sphere pair: depth = 2r - d", rc == 0 and abs(out["depth"] - 0.001) < 1e-12, str(out and out["depth"]))
check("sphere pair: normal from 1 to 2", rc == 0 and np.allclose(out["normal"], [1, 0, 0], atol=1e-12))
check("sphere pair: point at the overlap centre", rc == 0 and np.allclose(out["point"], [0.0045, 0, 0], atol=1e-12))

rc, out, _ = run({"bodies": [body(0.02, 0.01, 0.01, 1, 1, (0, 0, 0.015))],
                  "wall": {"point": [0, 0, 0], "normal": [0, 0, 1]}})
# Ellipsoid rotated? No: c = 0.01 below the centre, so depth = 0.01 - 0.015 < 0
check("ellipsoid above wall: no contact", rc == 0 and not out["contact"])
q = (math.cos(math.pi / 8), math.sin(math.pi / 8), 0, 0)  # 45 degrees about x
rc, out, _ = run({"bodies": [body(0.02, 0.01, 0.005, 1, 1, (0, 0, 0.007), q)],
                  "wall": {"point": [0, 0, 0], "normal": [0, 0, 1]}})
h = math.sqrt((0.01 ** 2 + 0.005 ** 2) / 2)  # support distance along z after 45 deg about x
check("tilted ellipsoid on wall: depth = h - z", rc == 0 and abs(out["depth"] - (h - 0.007)) < 1e-12,
      str(out and out["depth"]))

# --- collide: 1D textbook ----------------------------------------------------
e = 0.7
rc, out, _ = run({"bodies": [body(r, r, r, 1, 1, (0, 0, 0), v=(1, 0, 0)),
                             body(r, r, r, 1, 1, (0.0099, 0, 0), v=(-0.5, 0, 0))],
                  "collide": {"restitution": e}})
# equal masses: v1' = (v1 + v2)/2 - e (v1 - v2)/2
v1, v2 = 1.0, -0.5
exp1 = 0.5 * (v1 + v2) - 0.5 * e * (v1 - v2)
exp2 = 0.5 * (v1 + v2) + 0.5 * e * (v1 - v2)
check("sphere pair 1D textbook velocities", rc == 0 and abs(out["after"][0]["velocity"][0] - exp1) < 1e-12
      and abs(out["after"][1]["velocity"][0] - exp2) < 1e-12, str(out and out["after"]))
check("head-on spheres: no spin", rc == 0 and max(abs(x) for a in out["after"] for x in a["angularVelocity"]) < 1e-14)

# --- collide: random frictional collisions -------------------------------------
rng = random.Random(7)


def random_unit_quaternion():
    u1, u2, u3 = rng.random(), 2 * math.pi * rng.random(), 2 * math.pi * rng.random()
    return (math.sqrt(u1) * math.cos(u3), math.sqrt(1 - u1) * math.sin(u2),
            math.sqrt(1 - u1) * math.cos(u2), math.sqrt(u1) * math.sin(u3))


worst = {"p": 0.0, "L": 0.0, "Egain": -1.0, "Eelastic": 0.0}
n_contacts = 0
for trial in range(120):
    bodies = []
    for k in range(2):
        a, b, c = (rng.uniform(0.003, 0.01) for _ in range(3))
        bodies.append(body(a, b, c, 1, 1, (0.012 * k, rng.uniform(-0.003, 0.003), rng.uniform(-0.003, 0.003)),
                           random_unit_quaternion(), [rng.uniform(-1, 1) for _ in range(3)],
                           [rng.uniform(-50, 50) for _ in range(3)], rng.uniform(500, 3000)))
    model = rng.choice(["coulomb", "frictionless"])
    elastic = model == "frictionless" and trial % 2 == 0
    block = {"restitution": 1.0 if elastic else rng.uniform(0, 1), "model": model}
    if model == "coulomb":
        block["friction"] = rng.uniform(0, 1)
    rc, out, err = run({"bodies": bodies, "collide": block})
    if rc != 0:
        check(f"random collision {trial} runs", False, err)
        continue
    if not out["contact"]:
        continue
    n_contacts += 1
    P = np.array(out["point"])
    J = np.array(out["impulse"])
    p_before = sum(mass_props(bd)[0] * np.array(bd["velocity"]) for bd in bodies)
    p_after = sum(mass_props(bd)[0] * np.array(af["velocity"]) for bd, af in zip(bodies, out["after"]))
    scale = sum(mass_props(bd)[0] * np.linalg.norm(bd["velocity"]) for bd in bodies) + 1e-300
    worst["p"] = max(worst["p"], np.linalg.norm(p_after - p_before) / scale)
    for bd, af in zip(bodies, out["after"]):
        m, I = mass_props(bd)
        x = np.array(bd["position"])

        def L(v, w):
            return m * np.cross(x - P, v) + I @ w
        Lb = L(np.array(bd["velocity"]), np.array(bd["angularVelocity"]))
        La = L(np.array(af["velocity"]), np.array(af["angularVelocity"]))
        worst["L"] = max(worst["L"], np.linalg.norm(La - Lb) / (np.linalg.norm(Lb) + 1e-300))
    dE = (out["kineticEnergyAfter"] - out["kineticEnergyBefore"]) / out["kineticEnergyBefore"]
    if elastic:
        worst["Eelastic"] = max(worst["Eelastic"], abs(dE))
    else:
        worst["Egain"] = max(worst["Egain"], dE)
    # impulse on body 2 equals its momentum change
    m2 = mass_props(bodies[1])[0]
    dp2 = m2 * (np.array(out["after"][1]["velocity"]) - np.array(bodies[1]["velocity"]))
    worst["J"] = max(worst.get("J", 0.0), np.linalg.norm(dp2 - J) / (np.linalg.norm(J) + 1e-300))

print(f"  {n_contacts} random collisions in contact; worst: {worst}")
check("random collisions: enough contacts", n_contacts >= 30, str(n_contacts))
check("linear momentum conserved (1e-12)", worst["p"] < 1e-12, str(worst["p"]))
check("angular momentum about the contact point conserved (1e-10)", worst["L"] < 1e-10, str(worst["L"]))
check("kinetic energy never increases (coulomb/frictionless)", worst["Egain"] <= 1e-12, str(worst["Egain"]))
check("elastic frictionless conserves energy (1e-12)", worst["Eelastic"] < 1e-12, str(worst["Eelastic"]))
check("impulse = momentum change of body 2", worst.get("J", 1) < 1e-10, str(worst.get("J")))

# --- bad input ------------------------------------------------------------------
for name, payload, word in [
    ("eps1 = 3", {"bodies": [body(r, r, r, 3, 1, (0, 0, 0)), body(r, r, r, 1, 1, (0.01, 0, 0))]}, "eps1"),
    ("non-unit quaternion", {"bodies": [body(r, r, r, 1, 1, (0, 0, 0), q=(1, 1, 0, 0)),
                                        body(r, r, r, 1, 1, (0.01, 0, 0))]}, "orientation"),
    ("missing a", {"bodies": [{k: v for k, v in body(r, r, r, 1, 1, (0, 0, 0)).items() if k != "a"},
                              body(r, r, r, 1, 1, (0.01, 0, 0))]}, ".a"),
    ("unknown model", {"bodies": [body(r, r, r, 1, 1, (0, 0, 0)), body(r, r, r, 1, 1, (0.009, 0, 0))],
                       "collide": {"restitution": 0.5, "model": "sticky"}}, "model"),
    ("restitution > 1", {"bodies": [body(r, r, r, 1, 1, (0, 0, 0)), body(r, r, r, 1, 1, (0.009, 0, 0))],
                         "collide": {"restitution": 1.5}}, "restitution"),
]:
    rc, _, err = run(payload)
    check(f"bad input '{name}': exit 2, one line naming '{word}'",
          rc == 2 and word in err and err.strip().count("\n") == 0, f"rc={rc} err={err!r}")
p = subprocess.run([TOOL], input="{not json", capture_output=True, text=True)
check("invalid JSON: exit 2", p.returncode == 2, p.stderr)

# --- extreme but finite input ---------------------------------------------------
# Exit 2 (never a signal, never rc 0 with null numbers) and exactly one line
# that starts with the expected text, naming the JSON entry.
RANGE = "outside the representable range [1.49e-154, 1.34e+154] = [sqrt(DBL_MIN), sqrt(DBL_MAX)]"


def pair(first, collide=True):
    payload = {"bodies": [first, body(r, r, r, 1, 1, (0.009, 0, 0))]}
    if collide:
        payload["collide"] = {"restitution": 0.5}
    return json.dumps(payload)


def with_(**kw):
    b = body(r, r, r, 1, 1, (0, 0, 0))
    b.update(kw)
    return b


for name, text, expected in [
    ("density 1e-300", pair(with_(density=1e-300)),
     "bodies[0].density: density 1e-300 gives a mass 5.24e-307 (volume 5.24e-7), " + RANGE),
    ("density 1e300", pair(with_(density=1e300)),
     "bodies[0].density: density 1e+300 gives a mass 5.24e+293 (volume 5.24e-7), " + RANGE),
    ("density -1", pair(with_(density=-1)), "bodies[0].density: must be finite and > 0, got -1"),
    ("density 0", pair(with_(density=0)), "bodies[0].density: must be finite and > 0, got 0"),
    ("density 1e400 (inf)", pair(with_(density=1)).replace('"density": 1', '"density": 1e400', 1),
     "invalid JSON: entry 'density': [json.exception.out_of_range.406] number overflow parsing '1e400'"),
    ("density NaN", pair(with_(density=1)).replace('"density": 1', '"density": NaN', 1),
     "invalid JSON: [json.exception.parse_error.101]"),
    ("half-axes 1e-120", pair(with_(a=1e-120, b=1e-120, c=1e-120), collide=False),
     "bodies[0]: a: half-axes (a, b, c) = (1e-120, 1e-120, 1e-120) give a volume 4.19e-360, " + RANGE),
    ("half-axes 1e120", pair(with_(a=1e120, b=1e120, c=1e120), collide=False),
     "bodies[0]: a: half-axes (a, b, c) = (1e+120, 1e+120, 1e+120) give a volume 4.19e+360, " + RANGE),
    ("eps2 1e-200", pair(with_(eps2=1e-200), collide=False),
     "bodies[0]: eps2: squareness exponent eps2 = 1e-200 gives the exponent 2/eps2 = 2e+200, " + RANGE),
    ("velocity 1e200", pair(with_(velocity=[1e200, 0, 0])),
     "bodies[0].velocity: |velocity| = 1e+200 gives a kinetic energy 2.62e+396, " + RANGE),
    ("angular velocity 1e160", pair(with_(angularVelocity=[0, 1e160, 0])),
     "bodies[0].angularVelocity: |angularVelocity| = 1e+160 gives a kinetic energy 2.62e+311, " + RANGE),
]:
    p = subprocess.run([TOOL], input=text, capture_output=True, text=True)
    line = p.stderr.strip()
    check(f"extreme input '{name}': exit 2 (rc={p.returncode}), one line starting with the expected text",
          p.returncode == 2 and line.count("\n") == 0 and line.startswith("superellipsoidContact: " + expected),
          f"err={p.stderr!r}")
# Just inside the range: a very light body (mass ~5e-137) still collides with finite numbers.
rc, out, err = run({"bodies": [with_(density=1e-130, velocity=[1, 0, 0]), body(r, r, r, 1, 1, (0.009, 0, 0))],
                    "collide": {"restitution": 0.5}})
finite = rc == 0 and all(math.isfinite(x) for a in out["after"] for x in a["velocity"] + a["angularVelocity"]) \
    and math.isfinite(out["kineticEnergyBefore"]) and out["kineticEnergyBefore"] > 0
check("density 1e-130: rc 0, every number finite", finite, f"rc={rc} err={err!r}")

sys.exit(1 if failures else 0)
