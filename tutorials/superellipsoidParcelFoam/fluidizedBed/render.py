#!/usr/bin/env python3
"""Pictures of the fluidized beds (after fluidizedBed.py): front views of each
shape's bed at rest and at the steps of the ramp (PICTURES), and an animation
of the sphere bed over the whole ramp.

    python3 render.py <shape> ...      (needs pvbatch, xvfb-run; ffmpeg for the animation)
Writes images/<shape>-t<t>.png, images/<shape>-steps.png (the pictures side by
side, with ffmpeg) and images/sphere.mp4.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
os.environ.setdefault("SEF_ROOT", os.path.abspath(os.path.join(here, "../../..")))
sys.path.insert(0, os.path.join(os.environ["SEF_ROOT"], "bin"))
import sefPvbatch  # noqa: E402
WINDOW = [0.0, 0.072, 0.0, 0.22]
SIZE = [300, 480]
# the fixed bed at 1.65 m/s; in and at the end of the 2 and 2.6 m/s steps
# (rising); the end of the falling 2 m/s step and of the ramp
PICTURES = [0.75, 1.3, 1.55, 2.0, 2.35, 3.15, 4.05]
ANIMATED = "sphere"
# at most this many animation frames (the default ramp's written times):
# a run with longer holds (Allrun's HOLD) is animated at every k-th written
# time, so that the pictures cost the same
MAX_FRAMES = 81


def shapeOf(case):
    text = re.sub(r"//[^\n]*", "", open(f"{case}/constant/particleShape").read())
    s = {k: float(v) for k, v in re.findall(r"\b(eps1|eps2)\s+([-+0-9.eE]+)\s*;", text)}
    return s["eps1"], s["eps2"]


def inletVelocity(case):
    text = re.sub(r"//[^\n]*", "", open(f"{case}/system/inletVelocity").read())
    return [(float(t), float(u)) for t, u in re.findall(r"\(\s*([-+0-9.eE]+)\s+\(\s*\S+\s+\S+\s+([-+0-9.eE]+)\s*\)\s*\)", text)]


def piecewise(x, xs, ys):
    """The piecewise-linear map through (xs, ys), at x (xs increasing)."""
    for (x0, y0), (x1, y1) in zip(zip(xs, ys), zip(xs[1:], ys[1:])):
        if x0 <= x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0) if x1 > x0 else y1
    return ys[-1] if x > xs[-1] else ys[0]


def velocityAt(table, t):
    return piecewise(t, [a for a, _ in table], [u for _, u in table])


def vtkFiles(case, cloud="particleCloud"):
    """time -> (cloud vtp, internal vtu or None) of foamToVTK's output."""
    subprocess.run(["foamToVTK", "-case", case, "-no-boundary", "-fields", "(alphac U)"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"{case}/VTK/lagrangian/{cloud}"
    series = json.load(open(glob.glob(f"{base}/*.vtp.series")[0]))
    clouds = {round(f["time"], 6): os.path.abspath(f"{base}/{f['name']}") for f in series["files"]}
    fluids = {}
    vtm = glob.glob(f"{case}/VTK/*.vtm.series")
    if vtm:
        for f in json.load(open(vtm[0]))["files"]:
            internal = os.path.join(f"{case}/VTK", f["name"].replace(".vtm", ""), "internal.vtu")
            if os.path.exists(internal):
                fluids[round(f["time"], 6)] = os.path.abspath(internal)
    return {t: (c, fluids.get(t)) for t, c in clouds.items()}


def main(shapes):
    os.makedirs("images", exist_ok=True)
    frames, strips = [], {}
    for shape in shapes:
        case = f"runs/{shape}"
        e1, e2 = shapeOf(case)
        table = inletVelocity(case)
        # the picture times are on the tutorial's ramp (bed/system); a run's
        # own ramp has the same rows at other times (Allrun's TIME_SCALE, HOLD)
        ramp = [t for t, _ in inletVelocity("bed")]
        onRun = lambda t: piecewise(t, ramp, [t for t, _ in table])
        files = vtkFiles(case)
        dry = vtkFiles(f"runs/dry-{shape}", "superellipsoidCloud")
        files[0.0] = (dry[max(dry)][0], None)
        # (a run stopped early by END_TIME: the pictures up to its end)
        last = max(files)
        wanted = [0.0] + [onRun(t) for t in PICTURES if onRun(t) <= last + 1e-6]
        if wanted[-1] < last - 1e-6:
            wanted.append(last)
        strips[shape] = []
        for t in wanted:
            near = min(files, key=lambda s: abs(s - t))
            out = os.path.abspath(f"images/{shape}-t{near:g}.png")
            strips[shape].append(out)
            title = f"{shape}  t = {near:g} s\nU = {velocityAt(table, near):.2f} m/s" if near > 0 else f"{shape}\nsettled bed"
            frames.append(dict(cloud=files[near][0], fluid=files[near][1], eps1=e1, eps2=e2, out=out, title=title,
                               window=WINDOW, size=SIZE))
        if shape == ANIMATED:
            os.makedirs("images/animation", exist_ok=True)
            times = sorted(t for t in files if t > 0)
            every = max(1, -(-len(times) // MAX_FRAMES))   # (ceiling)
            for k, t in enumerate(times[::every]):
                frames.append(dict(cloud=files[t][0], fluid=files[t][1], eps1=e1, eps2=e2,
                                   out=os.path.abspath(f"images/animation/frame{k:04d}.png"),
                                   title=f"{shape}  t = {t:.2f} s\nU = {velocityAt(table, t):.2f} m/s", window=WINDOW, size=SIZE))
    # (one job file per process: Allrun renders each shape as its run ends,
    # while the other may still be rendering)
    sefPvbatch.renderFrames(os.path.join(here, "renderFrames.py"), frames, f"images/frames-{os.getpid()}.json")
    if shutil.which("ffmpeg"):
        for shape, pictures in strips.items():
            inputs = sum((["-i", p] for p in pictures), [])
            subprocess.run(["ffmpeg", "-y", "-loglevel", "error", *inputs, "-filter_complex",
                            f"hstack=inputs={len(pictures)}", f"images/{shape}-steps.png"], check=True)
            print(f"wrote images/{shape}-steps.png")
        if ANIMATED in shapes:
            subprocess.run(["ffmpeg", "-y", "-loglevel", "error", "-framerate", "10", "-i", "images/animation/frame%04d.png",
                            "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "28", f"images/{ANIMATED}.mp4"], check=True)
            print(f"wrote images/{ANIMATED}.mp4")
    print(f"wrote {len(frames)} pictures in images/")


if __name__ == "__main__":
    main(sys.argv[1:] or ["sphere", "prolate"])
