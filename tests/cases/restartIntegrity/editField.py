#!/usr/bin/env python3
"""editField.py <file> <python expression of the list v>: rewrite the values of
an ascii OpenFOAM field file (restart tests: hand edits and damage)."""
import re, sys
path, expr = sys.argv[1], sys.argv[2]
text = open(path).read()
# the list between the header's closing line and the trailer's: N{value}
# (uniform), N(entries) on one line (short lists) or one entry per line
start = text.index('\n', text.index('// * * *')) + 1
end = text.rindex('// ****')
m = re.match(r'\s*(\d+)\s*([({])(.*)[)}]\s*$', text[start:end], re.S)
n, kind, inner = int(m[1]), m[2], m[3]
if kind == '{':
    v = [inner] * n
elif '\n' in inner.strip('\n'):
    v = [l for l in inner.split('\n') if l.strip()]
elif '(' in inner:
    v = re.findall(r'\([^()]*\)', inner)
else:
    v = inner.split()
v = eval(expr)
open(path, 'w').write(text[:start] + '\n%d\n(\n%s\n)\n\n' % (len(v), '\n'.join(v)) + text[end:])
