#!/usr/bin/env python3
"""Pictures of the collapse runs (after spread.py): fig. 23's front views at
t = 0, 1, 2.5, 5, 10 s of every run (the frictionless heap's bounding box in
red on the frictional runs of the same shape), an animation of one run and
the flow (fluid speed on a vertical plane) at t = 1 s.

    python3 render.py <run> ...      (needs pvbatch, xvfb-run; ffmpeg for the animation)
Writes images/<run>-t<t>.png, images/flow-<run>-t1.png, images/<run>.mp4.
"""
import glob
import json
import os
import shutil
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
binDir = os.path.join(os.environ.get("SEF_ROOT", os.path.join(here, "../../..")), "bin")
renderer = os.path.join(binDir, "sefRenderCollapse.py")
sys.path.insert(0, binDir)
import sefPvbatch  # noqa: E402

WINDOW = [-0.16, 0.16, 0.0, 0.18]
TIMES = [0, 1, 2.5, 5, 10]
ANIMATED = "sphere-schwager"


def shapeOf(run):
    text = open(f"runs/{run}/constant/particleShape").read()
    eps = {k: float(v) for k, v in (w.split() for w in text.split(";") if w.split()[:1] in (["eps1"], ["eps2"]))}
    return eps["eps1"], eps["eps2"]


def cloudFiles(run, times=None, cloud="particleCloud"):
    """time -> vtp of foamToVTK's cloud output (converted on demand). The
    wet runs' t = 0 is the settled bed of their dry stage."""
    cmd = ["foamToVTK", "-no-internal", "-no-boundary", "-case", f"runs/{run}"]
    if times is not None:
        cmd += ["-time", ",".join(f"{t:g}" for t in times)]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"runs/{run}/VTK/lagrangian/{cloud}"
    series = json.load(open(glob.glob(f"{base}/*.vtp.series")[0]))
    files = {round(f["time"], 6): os.path.abspath(f"{base}/{f['name']}") for f in series["files"]}
    if cloud == "particleCloud" and (times is None or 0 in times):
        dry = cloudFiles(f"dry-{run.split('-')[0]}", None, "superellipsoidCloud")
        files[0.0] = dry[max(dry)]
    return files


def main(runs):
    os.makedirs("images", exist_ok=True)
    boxes = json.load(open("boxes.json"))
    frames = []
    for run in runs:
        e1, e2 = shapeOf(run)
        shape, law = run.split("-")[:2]
        reference = f"{shape}-frictionless" if law != "frictionless" else None
        files = cloudFiles(run, TIMES)
        for t in TIMES:
            if round(t, 6) not in files:
                continue
            box = boxes.get(reference, {}).get(f"{t:g}") if reference else None
            frames.append(dict(cloud=files[round(t, 6)], eps1=e1, eps2=e2, out=os.path.abspath(f"images/{run}-t{t:g}.png"),
                               title=f"{run}   t = {t:g} s" + ("   (red: frictionless heap)" if box else ""),
                               box=box, slice=None, window=WINDOW))
    if ANIMATED in runs:
        e1, e2 = shapeOf(ANIMATED)
        os.makedirs("images/animation", exist_ok=True)
        for k, (t, f) in enumerate(sorted(cloudFiles(ANIMATED).items())):
            frames.append(dict(cloud=f, eps1=e1, eps2=e2, out=os.path.abspath(f"images/animation/frame{k:04d}.png"),
                               title=f"{ANIMATED}   t = {t:.1f} s", box=None, slice=None, window=WINDOW))
        subprocess.run(["foamToVTK", "-case", f"runs/{ANIMATED}", "-time", "1", "-no-boundary", "-no-lagrangian"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        internal = glob.glob(f"runs/{ANIMATED}/VTK/{ANIMATED}_*/internal.vtu")
        if internal:
            files = cloudFiles(ANIMATED, [1])
            if 1.0 in files:
                frames.append(dict(cloud=files[1.0], eps1=e1, eps2=e2, out=os.path.abspath(f"images/flow-{ANIMATED}-t1.png"),
                                   title=f"{ANIMATED}   t = 1 s: fluid speed on the plane y = 0.04 m, just behind the heap",
                                   box=None, slice=os.path.abspath(sorted(internal)[-1]), window=[-0.2, 0.2, 0.0, 0.3]))
    sefPvbatch.renderFrames(renderer, frames, "images/frames.json")
    if ANIMATED in runs and shutil.which("ffmpeg"):
        subprocess.run(["ffmpeg", "-y", "-loglevel", "error", "-framerate", "10", "-i", "images/animation/frame%04d.png",
                        "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "28", f"images/{ANIMATED}.mp4"], check=True)
        print(f"wrote images/{ANIMATED}.mp4")
    print(f"wrote {len(frames)} pictures in images/")


if __name__ == "__main__":
    main(sys.argv[1:])
