"""Plain values of an OpenFOAM case dictionary, for the tutorials' result scripts."""
import re


def macro(path, key):
    """The number of a top-level `key value;` line (a macro such as `N 1600;`)."""
    for line in open(path):
        m = re.match(rf"^{key}\s+([^;]+);", line)
        if m:
            return float(m.group(1))
    raise KeyError(f"{key} not found in {path}")
