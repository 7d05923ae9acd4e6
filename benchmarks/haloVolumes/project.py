#!/usr/bin/python3
"""Projection of a decomposed bed's step to 1e7-1e8 particles on 1e3-1e4
ranks, from the halo volumes measured by benchmarks/haloVolumes/Allrun and a
stated interconnect model (doc/parallel.md, "Projection").

    benchmarks/haloVolumes/project.py [--width W] [--cost C] [--latency A]
                                      [--bandwidth B] [--reductions R]

Model, per rank and step (one substep per step, as the dry beds at 1e-5 s):
  - subdomains are cubes of n = N / P particles at spacing s (number
    density 1/s^3); a rank holds the copies of the particles within the
    halo width w of its box: h = (n^(1/3) + 2 w/s)^3 - n (the shell);
  - compute: C (n + h) us (every copy integrated and detected against, as
    built; C the serial cost per particle-step);
  - messages: 26 neighbours (faces, edges, corners) per exchange; two
    exchanges per substep (states 13 doubles, corrections 9 doubles per
    copy) and the step's set-up (a size and the copies, 15 doubles, per
    partner); latency A per message, bandwidth B per rank;
  - reductions: R per step, each 2 log2(P) latencies (a tree up and down);
  - OpenFOAM's Cloud::move (the particles changing rank): one all-to-all
    of sizes per step, log2(P) rounds of P/2 4-byte sizes (Bruck).
"""
import argparse
import math

p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument("--width", type=float, default=1.5,
               help="halo width over particle spacing, w/s (measured: doc/parallel.md)")
p.add_argument("--cost", type=float, default=2.0, help="serial us per particle-step (settled bed: 1.96)")
p.add_argument("--latency", type=float, default=2.0, help="us per message")
p.add_argument("--bandwidth", type=float, default=5.0, help="GB/s per rank")
p.add_argument("--reductions", type=int, default=7, help="reductions per step (counted in the code: 7)")
a = p.parse_args()

neighbours = 26
print(f"w/s = {a.width}, C = {a.cost} us per particle-step, latency {a.latency} us, "
      f"bandwidth {a.bandwidth} GB/s per rank, {a.reductions} reductions per step, {neighbours} neighbours")
print("| particles | ranks | per rank | halo copies per rank (share) | compute [ms] | messages per step "
      "| MB per step | exchange [ms] | reductions, all-to-all [ms] | step [ms] | parallel efficiency |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for N, P in ((1e7, 1e3), (1e7, 1e4), (1e8, 1e3), (1e8, 1e4)):
    n = N / P
    h = (n ** (1 / 3) + 2 * a.width) ** 3 - n
    compute = a.cost * (n + h) * 1e-3                       # ms
    messages = 2 * neighbours + 2 * neighbours              # substep exchanges + set-up
    doubles = h * (13 + 9) + h * 15
    megabytes = 8 * doubles / 1e6
    exchange = messages * a.latency * 1e-3 + megabytes / a.bandwidth   # MB / (GB/s) = ms
    reductions = a.reductions * 2 * math.log2(P) * a.latency * 1e-3
    reductions += math.log2(P) * (a.latency * 1e-3 + 2 * P / 1e6 / a.bandwidth)
    step = compute + exchange + reductions
    efficiency = a.cost * n * 1e-3 / step
    print(f"| {N:.0e} | {P:.0e} | {n:.0f} | {h:.0f} ({h / n:.2f}) | {compute:.2f} | {messages} "
          f"| {megabytes:.2f} | {exchange:.3f} | {reductions:.3f} | {step:.2f} | {efficiency:.2f} |")
