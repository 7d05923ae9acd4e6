#!/usr/bin/env python3
"""Read an ASCII OpenFOAM cloud field (IOField of label, scalar, vector or
tensor) of <case>/<time>/lagrangian/particleCloud/<field>.

As a program: prints one row per particle. As a module: read(case, time, field)
returns a list of tuples (scalars as 1-tuples), ordered as written."""
import re
import sys


def read(case, time, field, cloud="particleCloud"):
    text = open(f"{case}/{time}/lagrangian/{cloud}/{field}").read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    body = text[text.index("}", text.index("FoamFile")) + 1:]
    m = re.search(r"(\d+)\s*\(", body)
    if m is None:                      # uniform list: N{value}
        m = re.search(r"(\d+)\s*\{([^}]*)\}", body)
        n, value = int(m.group(1)), m.group(2)
        return [tuple(float(x) for x in value.replace("(", " ").replace(")", " ").split())] * n
    n = int(m.group(1))
    inner = body[m.end():body.rindex(")")]
    if "(" in inner:
        rows = re.findall(r"\(([^()]*)\)", inner)
        values = [tuple(float(x) for x in r.split()) for r in rows]
    else:
        values = [(float(x),) for x in inner.split()]
    assert len(values) == n, f"{field}: {len(values)} values, header says {n}"
    return values


if __name__ == "__main__":
    for row in read(*sys.argv[1:4], *(sys.argv[4:5] or [])):
        print(" ".join(repr(x) for x in row))
