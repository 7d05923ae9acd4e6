#!/usr/bin/python3
"""Write the OpenFOAM cases of the collision validation studies.

Studies ([Superellipsoid-OpenFOAM] sec. 5.1-5.2, [Superquadric-LIGGGHTS]
"Particle-wall impact"):
  wall  - the four shapes fall onto a floor, centric (phi = 0) and eccentric
          (phi = 45 deg), starting 5 d_eq above it: one case per time step,
          all eight particles in it (far apart: they never touch each other).
  pair  - particle A ([0.5, 1, 1], u = [1, 0, 0] m/s) hits B ([0.503, 1, 1],
          at rest), centric and eccentric: eight pairs per case, one case
          per time step; pair k is shifted by 4 d_eq along z.
  kodam - cylinder-like superellipsoids (eps2 = 1, small eps1) hit a floor at
          tilt angles theta in one case (one particle per eps1 and theta).

  validationCases.py <outDir> [--studies wall,pair,kodam] [--dt 1,0.5,...]
                     [--kodam-eps1 0.2,0.1,0.05] [--kodam-theta 0,5,...,90]
Writes <outDir>/<case>/ (blockMeshDict, controlDict, g, cloud properties) and
<outDir>/cases.json describing every case and particle for the analysis.
"""
import argparse
import json
import math
import os

D_EQ = 1e-3          # volume-equivalent diameter [m] ([Superellipsoid-OpenFOAM] Table 1)
U0 = 1.0             # impact speed [m/s] ([Superellipsoid-OpenFOAM] sec. 5.2; 5.1 gives none)
T_REF = D_EQ / U0    # [Superellipsoid-OpenFOAM]: time to move d_eq
DENSITY = 1000.0     # [kg/m^3]; the impulse results do not depend on it
RESTITUTION = 1.0    # [Superellipsoid-OpenFOAM] sec. 5.1-5.2 state none: elastic
END_OVER_TREF = 8.0  # impact at ~4.5 (wall) or ~2 (pair) t_ref, then free flight

# Table 1 is missing from our text copy of [Superellipsoid-OpenFOAM]: volume-equivalent
# shapes (d_eq = 1 mm via the dEq keyword) matching its description. The
# cube-like and diamond-like shapes are elongated (1.5:1:1) so that the
# 45-degree orientation is eccentric: with a = b the rotated shape is
# mirror-symmetric about the line of impact and the collision stays centric.
SHAPES = {
    "sphere":  dict(a=1.0, b=1.0, c=1.0, eps1=1.0, eps2=1.0),
    "prolate": dict(a=2.0, b=1.0, c=1.0, eps1=1.0, eps2=1.0),
    "cube":    dict(a=1.5, b=1.0, c=1.0, eps1=0.2, eps2=0.2),
    "diamond": dict(a=1.5, b=1.0, c=1.0, eps1=1.8, eps2=1.8),
}

# (tag, dt / t_ref, subcycles): [Superellipsoid-OpenFOAM] figs. 11-19
DT_SETTINGS = {
    "1": (1.0, 1), "0.5": (0.5, 1), "1x10": (1.0, 10),
    "0.1": (0.1, 1), "0.01": (0.01, 1), "0.001": (0.001, 1), "0.0001": (0.0001, 1),
}

# Kodam cylinder ([Superquadric-LIGGGHTS], Table 3 is missing from our copy): radius R,
# half-length H = 2 R (length = 2 diameters), frictionless, restitution 0.5.
KODAM_R, KODAM_H = 1e-3, 2e-3
KODAM_RESTITUTION = 0.5
KODAM_SPEED = 1.0
KODAM_DT = 1e-6


def quatZ(deg):
    """Rotation by deg about z ([Superellipsoid-OpenFOAM]: phi, theta = psi = 0) as (w x y z)."""
    h = math.radians(deg) / 2
    return (math.cos(h), 0.0, 0.0, math.sin(h))


def quatY(deg):
    h = math.radians(deg) / 2
    return (math.cos(h), 0.0, math.sin(h), 0.0)


def vec(v):
    return "(" + " ".join(repr(float(x)) for x in v) + ")"


def header(cls, obj):
    return ("FoamFile { version 2.0; format ascii; class %s; object %s; }\n" % (cls, obj))


def writeMesh(case, lo, hi):
    """A closed box [lo, hi], one hex cell: every side is one wall face (a
    finer mesh would split the floor into faces whose edges a contact can
    straddle; the DEM does not need cells)."""
    x0, y0, z0 = lo
    x1, y1, z1 = hi
    verts = [(x0, y0, z0), (x1, y0, z0), (x1, y1, z0), (x0, y1, z0),
             (x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]
    with open(os.path.join(case, "system", "blockMeshDict"), "w") as f:
        f.write(header("dictionary", "blockMeshDict"))
        f.write("scale 1;\nvertices ( %s );\n" % " ".join(vec(v) for v in verts))
        f.write("blocks ( hex (0 1 2 3 4 5 6 7) (1 1 1) simpleGrading (1 1 1) );\n")
        f.write("boundary ( walls { type wall; faces ( (0 3 2 1) (4 5 6 7) (0 1 5 4) "
                "(2 3 7 6) (0 4 7 3) (1 2 6 5) ); } );\n")
    with open(os.path.join(case, "system", "fvSchemes"), "w") as f:
        f.write(header("dictionary", "fvSchemes"))
        f.write("ddtSchemes { default Euler; } gradSchemes { default Gauss linear; }\n"
                "divSchemes { default none; } laplacianSchemes { default Gauss linear corrected; }\n"
                "interpolationSchemes { default linear; } snGradSchemes { default corrected; }\n")
    with open(os.path.join(case, "system", "fvSolution"), "w") as f:
        f.write(header("dictionary", "fvSolution"))


def writeControl(case, dt, endTime):
    with open(os.path.join(case, "system", "controlDict"), "w") as f:
        f.write(header("dictionary", "controlDict"))
        f.write("application superellipsoidDEMFoam;\n"
                "startFrom startTime; startTime 0; stopAt endTime; endTime %r; deltaT %r;\n"
                "writeControl timeStep; writeInterval %d; writeFormat ascii; writePrecision 17;\n"
                "writeCompression off; timeFormat general; timePrecision 12;\n"
                "runTimeModifiable false;\n" % (endTime, dt, round(endTime / dt)))
    with open(os.path.join(case, "constant", "g"), "w") as f:
        f.write(header("uniformDimensionedVectorField", "g"))
        f.write("dimensions [0 1 -2 0 0 0 0];\nvalue (0 0 0);\n")


def writeCloud(case, types, particles, restitution, subCycles, traceInterval):
    lines = [header("dictionary", "superellipsoidCloudProperties"),
             "subCycles %d;\nparticleTypes\n{\n" % subCycles]
    for name, t in types.items():
        lines.append("    %s { %s density %r; }\n" % (
            name, " ".join("%s %r;" % (k, float(v)) for k, v in t.items()), DENSITY))
    lines.append("}\ninjection\n{\n    region list;\n    particles\n    (\n")
    for p in particles:
        lines.append("        { type %s; position %s; orientation %s; U %s; }\n" % (
            p["type"], vec(p["position"]), vec(p["orientation"]), vec(p["U"])))
    lines.append("    );\n}\n")
    lines.append("collision\n{\n    pair { model frictionless; restitution %r; }\n"
                 "    wall { model frictionless; restitution %r; }\n}\n" % (restitution, restitution))
    lines.append("traceParticles (%s);\ntraceInterval %d;\n" % (
        " ".join(str(i) for i in range(len(particles))), traceInterval))
    with open(os.path.join(case, "constant", "superellipsoidCloudProperties"), "w") as f:
        f.write("".join(lines))


def newCase(root, name):
    case = os.path.join(root, name)
    os.makedirs(os.path.join(case, "system"), exist_ok=True)
    os.makedirs(os.path.join(case, "constant"), exist_ok=True)
    return case


def shapeTypes():
    return {name: dict(s, dEq=D_EQ) for name, s in SHAPES.items()}


def traceIntervalFor(steps):
    return max(1, steps // 1000)   # ~1000 trace samples per particle are plenty to plot


def wallCase(root, tag):
    dtOverTref, sub = DT_SETTINGS[tag]
    dt, end = dtOverTref * T_REF, END_OVER_TREF * T_REF
    case = newCase(root, "wall_dt" + tag)
    writeMesh(case, (0, 0, -3 * D_EQ), (32 * D_EQ, 12 * D_EQ, 3 * D_EQ))
    writeControl(case, dt, end)
    particles, meta = [], []
    for k, (shape, kind) in enumerate((s, c) for s in SHAPES for c in ("centric", "eccentric")):
        phi = 0.0 if kind == "centric" else 45.0
        particles.append(dict(type=shape, position=(D_EQ * (2 + 4 * k), 5 * D_EQ, 0.0),
                              orientation=quatZ(phi), U=(0.0, -U0, 0.0)))
        meta.append(dict(id=k, shape=shape, kind=kind, role="wall"))
    writeCloud(case, shapeTypes(), particles, RESTITUTION, sub, traceIntervalFor(round(end / dt)))
    return dict(name=os.path.basename(case), study="wall", dtTag=tag, dtOverTref=dtOverTref,
                subCycles=sub, dt=dt, endTime=end, particles=meta)


def pairCase(root, tag):
    dtOverTref, sub = DT_SETTINGS[tag]
    dt, end = dtOverTref * T_REF, END_OVER_TREF * T_REF
    case = newCase(root, "pair_dt" + tag)
    writeMesh(case, (0.497, 0.995, 0.997), (0.515, 1.005, 1.031))
    writeControl(case, dt, end)
    particles, meta = [], []
    for k, (shape, kind) in enumerate((s, c) for s in SHAPES for c in ("centric", "eccentric")):
        z = 1.0 + 4 * D_EQ * k   # pair 0 sits exactly at [Superellipsoid-OpenFOAM]'s positions
        phiA = 0.0 if kind == "centric" else 45.0
        particles.append(dict(type=shape, position=(0.5, 1.0, z), orientation=quatZ(phiA),
                              U=(U0, 0.0, 0.0)))
        particles.append(dict(type=shape, position=(0.503, 1.0, z), orientation=quatZ(-90.0),
                              U=(0.0, 0.0, 0.0)))
        meta.append(dict(id=2 * k, shape=shape, kind=kind, role="A"))
        meta.append(dict(id=2 * k + 1, shape=shape, kind=kind, role="B"))
    writeCloud(case, shapeTypes(), particles, RESTITUTION, sub, traceIntervalFor(round(end / dt)))
    return dict(name=os.path.basename(case), study="pair", dtTag=tag, dtOverTref=dtOverTref,
                subCycles=sub, dt=dt, endTime=end, particles=meta)


def kodamCase(root, eps1List, thetaList):
    case = newCase(root, "kodam")
    types = {}
    for e in eps1List:
        types["cyl%03d" % round(1000 * e)] = dict(a=KODAM_R, b=KODAM_R, c=KODAM_H, eps1=e, eps2=1.0)
    # Bounding sphere of the cylinder-like shape <= corner distance: start just above it
    z0 = 1.05 * math.hypot(KODAM_R, KODAM_H)
    particles, meta = [], []
    for i, (name, t) in enumerate(types.items()):
        for j, theta in enumerate(thetaList):
            # tilt about y: the face makes the angle theta with the floor
            particles.append(dict(type=name, position=(8e-3 * i + 5e-3, 6e-3 * j + 4e-3, z0),
                                  orientation=quatY(theta), U=(0.0, 0.0, -KODAM_SPEED)))
            meta.append(dict(id=len(meta), type=name, eps1=t["eps1"], theta=theta, role="kodam",
                             shape=t, position=particles[-1]["position"],
                             orientation=particles[-1]["orientation"]))
    writeMesh(case, (0, 0, 0), (8e-3 * len(types) + 2e-3, 6e-3 * len(thetaList) + 2e-3, 12e-3))
    # Time to the impact of the highest-hanging particle (flat side down) and a little more
    end = round((z0 - KODAM_R * 0.9) / KODAM_SPEED / KODAM_DT + 200) * KODAM_DT
    writeControl(case, KODAM_DT, end)
    writeCloud(case, types, particles, KODAM_RESTITUTION, 1, 1)
    return dict(name="kodam", study="kodam", dt=KODAM_DT, endTime=end, speed=KODAM_SPEED,
                restitution=KODAM_RESTITUTION, density=DENSITY, R=KODAM_R, H=KODAM_H,
                particles=meta)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outDir")
    ap.add_argument("--studies", default="wall,pair,kodam")
    ap.add_argument("--dt", default=",".join(DT_SETTINGS))
    ap.add_argument("--kodam-eps1", default="0.2,0.1,0.05")
    ap.add_argument("--kodam-theta", default=",".join(str(t) for t in range(0, 91, 5)))
    args = ap.parse_args()
    studies = args.studies.split(",")
    tags = args.dt.split(",")
    for t in tags:
        if t not in DT_SETTINGS:
            ap.error("--dt: unknown setting '%s' (known: %s)" % (t, ", ".join(DT_SETTINGS)))
    os.makedirs(args.outDir, exist_ok=True)
    cases = []
    for tag in tags:
        if "wall" in studies:
            cases.append(wallCase(args.outDir, tag))
        if "pair" in studies:
            cases.append(pairCase(args.outDir, tag))
    if "kodam" in studies:
        cases.append(kodamCase(args.outDir, [float(e) for e in args.kodam_eps1.split(",")],
                               [float(t) for t in args.kodam_theta.split(",")]))
    index = dict(dEq=D_EQ, U0=U0, tRef=T_REF, density=DENSITY, restitution=RESTITUTION,
                 shapes=SHAPES, cases=cases)
    with open(os.path.join(args.outDir, "cases.json"), "w") as f:
        json.dump(index, f, indent=1)
    print("\n".join(c["name"] for c in cases))


if __name__ == "__main__":
    main()
