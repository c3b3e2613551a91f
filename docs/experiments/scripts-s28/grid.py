import itertools
import json
import sys

import numpy as np

import vision.inks as inks

cache = json.load(open(sys.argv[1] if len(sys.argv) > 1 else "/work/runs/s28/black-cache.json"))
def run(gap, apart, blue_at, min_members):
    res = {}
    for key, rows in cache.items():
        ds = key.split("/")[0]
        b = np.array([np.nan if x is None else x for x, _ in rows])
        c = [t for _, t in rows]
        inks.GAP_AT_LEAST, inks.GROUPS_APART_AT_LEAST, inks.BLUE_GROUP_AT_LEAST = gap, apart, blue_at
        g = inks.bluer_group(b)
        if g.sum() < min_members:
            g[:] = False
        r = res.setdefault(ds, [0, 0, 0])
        r[0] += sum(1 for i in np.flatnonzero(g) if c[i] == "b")
        r[1] += sum(1 for i in np.flatnonzero(g) if c[i] != "b")
        r[2] += int(any(c[i] != "b" for i in np.flatnonzero(g)))
    return res
grid = itertools.product([0.1, 0.15, 0.2], [0.3, 0.35, 0.45], [0.2, 0.3, 0.35], [1, 2])
for gap, apart, blue_at, mm in grid:
    r = run(gap, apart, blue_at, mm)
    shown = " ".join(f"{k}: +{v[0]} -{v[1]} ({v[2]} photos)" for k, v in sorted(r.items()))
    print(gap, apart, blue_at, mm, shown)
