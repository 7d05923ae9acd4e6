"""Packed beds for tests/cloud/dividedVolumeFraction and their particle
volume fraction by an independent fine sampling (pure Python).

bed(kind, box, seed) -> (type name, half-axes, eps1, eps2, list of (centre,
quaternion w x y z)): non-overlapping by construction, every particle inside
the box.
  spheres  face-centred cubic lattice, nearest neighbours 1.1 d apart
           (solids 0.55), shifted at random
  prolates the affine image of that sphere lattice (x scaled by the aspect
           ratio 2, then the whole bed turned at random): an affine map keeps
           spheres apart, so the ellipsoids do not overlap (solids 0.55)
  blocks   eps 0.3/0.2 flat blocks on a lattice along their own axes, 1.08
           times their size apart, the whole bed turned at random (solids
           about 0.65)

reference(...) samples each cell on a regular grid of k^3 points and counts
the points inside a particle ([Superellipsoid-OpenFOAM] eq. 3)."""
import math
import random


def quat_mul(p, q):
    w1, x1, y1, z1 = p
    w2, x2, y2, z2 = q
    return (w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2)


def rotation(q):
    w, x, y, z = q
    return ((1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)),
            (2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)),
            (2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)))


def random_quat(rng):
    q = [rng.gauss(0, 1) for _ in range(4)]
    n = math.sqrt(sum(c * c for c in q))
    return tuple(c / n for c in q)


def apply(R, v):
    return tuple(sum(R[i][j] * v[j] for j in range(3)) for i in range(3))


def bounding_radius(h, e1, e2):
    # a box corner bounds every superellipsoid with eps <= 2
    return math.sqrt(sum(x * x for x in h)) if max(e1, e2) < 1 else max(h) * (1.0 if max(e1, e2) == 1 else math.sqrt(2))


def bed(kind, box, seed):
    rng = random.Random(seed)
    if kind == "spheres":
        h, e1, e2, q = (1.5e-3, 1.5e-3, 1.5e-3), 1.0, 1.0, (1.0, 0.0, 0.0, 0.0)
        lattice = [(0, 0, 0), (0.5, 0.5, 0), (0.5, 0, 0.5), (0, 0.5, 0.5)]
        nn = 1.1 * 2 * h[0]
        edge = nn * math.sqrt(2)
        body = lambda u: tuple(edge * c for c in u)
    elif kind == "prolates":
        h, e1, e2 = (2.4e-3, 1.2e-3, 1.2e-3), 1.0, 1.0
        q = random_quat(rng)
        lattice = [(0, 0, 0), (0.5, 0.5, 0), (0.5, 0, 0.5), (0, 0.5, 0.5)]
        edge = 1.1 * 2 * math.sqrt(2)     # in units of the sphere's radius
        body = lambda u: (edge * u[0] * h[0], edge * u[1] * h[1], edge * u[2] * h[2])
    else:
        h, e1, e2 = (2.0e-3, 1.2e-3, 0.8e-3), 0.3, 0.2
        q = random_quat(rng)
        lattice = [(0, 0, 0)]
        body = lambda u: tuple(1.08 * 2 * h[i] * u[i] for i in range(3))
    R = rotation(q)
    shift = [rng.uniform(0, 1) for _ in range(3)]
    centre = [0.5 * L for L in box]
    r = bounding_radius(h, e1, e2)
    out = []
    n = 12
    for i in range(-n, n + 1):
        for j in range(-n, n + 1):
            for k in range(-n, n + 1):
                for off in lattice:
                    u = (i + off[0] + shift[0], j + off[1] + shift[1], k + off[2] + shift[2])
                    x = apply(R, body(u))
                    x = tuple(x[d] + centre[d] for d in range(3))
                    if all(r * 1.01 < x[d] < box[d] - r * 1.01 for d in range(3)):
                        out.append((x, q))
    return kind, h, e1, e2, out


def inside_function(h, e1, e2):
    def f(b):
        xy = (abs(b[0]) / h[0]) ** (2 / e2) + (abs(b[1]) / h[1]) ** (2 / e2)
        return xy ** (e2 / e1) + (abs(b[2]) / h[2]) ** (2 / e1) <= 1.0
    return f


def reference(particles, h, e1, e2, box, cells, k):
    """Particle volume fraction of each cell (i, j, l) by k^3 midpoints per cell.

    Every midpoint within a particle's bounding sphere is tested with the
    implicit function (the same points and arithmetic as a loop over them;
    numpy only evaluates them together)."""
    import numpy as np
    n = cells
    dx = [box[d] / n[d] for d in range(3)]
    step = [dx[d] / k for d in range(3)]
    counts = np.zeros(tuple(n), dtype=np.int64)
    r = bounding_radius(h, e1, e2)
    for x, q in particles:
        Rt = list(zip(*rotation(q)))  # transpose: world -> body
        lo = [max(0, int((x[d] - r) / step[d])) for d in range(3)]
        hi = [min(n[d] * k - 1, int((x[d] + r) / step[d])) for d in range(3)]
        index = [np.arange(lo[d], hi[d] + 1) for d in range(3)]
        A, B, C = np.meshgrid(*index, indexing="ij")
        px, py, pz = ((I + 0.5) * step[d] - x[d] for d, I in enumerate((A, B, C)))
        body = [Rt[i][0] * px + Rt[i][1] * py + Rt[i][2] * pz for i in range(3)]
        u = [np.abs(body[i]) / h[i] for i in range(3)]
        inBox = (np.abs(body[0]) <= h[0]) & (np.abs(body[1]) <= h[1]) & (np.abs(body[2]) <= h[2])
        with np.errstate(over="ignore"):
            xy = u[0] ** (2 / e2) + u[1] ** (2 / e2)
            inside = inBox & (xy ** (e2 / e1) + u[2] ** (2 / e1) <= 1.0)
        np.add.at(counts, (A[inside] // k, B[inside] // k, C[inside] // k), 1)
    return {tuple(int(i) for i in cell): counts[cell] / k ** 3 for cell in zip(*np.nonzero(counts))}
