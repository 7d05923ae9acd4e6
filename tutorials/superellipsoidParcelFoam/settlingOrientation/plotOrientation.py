#!/usr/bin/python3
"""Tilt of each particle's axis from horizontal against the distance fallen
in particle lengths, for both runs of Allrun; prints the tilt after 50
lengths and the settling Reynolds numbers.
usage: plotOrientation.py RUNS_DIR OUTPUT_PNG"""
import math
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

runs, out = sys.argv[1], sys.argv[2]
# id -> (label, length 2a [m]) as in constant/particleCloudProperties
particles = {0: ("prolate 2.5", 2 * 9.2100787466e-4), 1: ("prolate 1.5", 2 * 6.5518535e-4), 2: ("sphere", 1e-3)}
colours = {0: "tab:blue", 1: "tab:orange"}
rho_f, mu, d_eq = 1000.0, 1e-3, 1e-3
styles = {"zastawny": "-", "schillerNaumann": "--"}
fig, ax = plt.subplots(figsize=(8, 5), dpi=160)
for model, style in styles.items():
    trace = np.loadtxt(f"{runs}/{model}/postProcessing/particleTrace.dat")
    for pid, (label, length) in particles.items():
        rows = trace[trace[:, 1] == pid]
        z, vz = rows[:, 4], rows[:, 7]
        w, qx, qy, qz = rows[:, 11:15].T
        axisZ = 2 * (qx * qz - w * qy)                 # vertical component of body x
        tilt = np.degrees(np.arcsin(np.minimum(1.0, np.abs(axisZ))))
        fallen = (z[0] - z) / length
        k = min(np.searchsorted(fallen, 50.0), len(fallen) - 1)
        Re = rho_f * abs(vz[-1]) * d_eq / mu
        print(f"{model:16s} {label:12s}: tilt {tilt[k]:6.2f} deg after {fallen[k]:5.1f} lengths, "
              f"{tilt[-1]:6.2f} deg at {fallen[-1]:5.1f}; Re_p at the end {Re:.0f}")
        if label != "sphere":
            ax.plot(fallen, tilt, style, color=colours[pid], label=f"{label}, {model}")
ax.set_xlabel("distance fallen [particle lengths 2a]")
ax.set_ylabel("axis tilt from horizontal [deg]")
ax.set_title("Prolate spheroids (d_eq 1 mm, 1840 kg/m3) released at 45 deg in water, Re_p 83-100")
ax.set_xlim(0, 60)
ax.set_ylim(0, 50)
ax.grid(alpha=0.3)
ax.legend()
fig.tight_layout()
fig.savefig(out)
print(f"wrote {out}")
