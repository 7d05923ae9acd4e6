"""Runs a pvbatch script on a list of frames, under a virtual X server
(xvfb-run), for the tutorials' render steps (collapseInWater, fluidizedBed).

    import sefPvbatch
    sefPvbatch.renderFrames(script, frames, "images/frames.json")

frames: a list of dicts (whatever the script reads); they are written to the
job file, the script is run as `pvbatch <script> <job file>`, and the job
file is removed when it succeeded.
"""
import json
import os
import subprocess


def renderFrames(script, frames, job):
    if not frames:
        return
    job = os.path.abspath(job)
    with open(job, "w") as f:
        json.dump(frames, f)
    for attempt in range(3):   # xvfb-run -a can race with another X server starting
        r = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", "pvbatch", script, job],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode == 0:
            break
    else:
        print(r.stdout[-2000:])
        raise SystemExit(f"rendering failed ({script}, frames in {job})")
    os.remove(job)
