import json
from collections import Counter, defaultdict

import numpy as np

rows = json.load(open("/work/runs/eval/s11/ink_rows.json"))
photos = defaultdict(list)
for r in rows:
    photos[(r[0], r[1])].append(r)
for anchor, ratio, maxconf in [(0.9, 0.5, 0.9), (0.9, 0.25, 0.7), (0.95, 0.5, 0.6), (0.95, 0.33, 0.95)]:
    res = Counter()
    for (setn, _photo), rs in photos.items():
        group = "real" if not setn.startswith("tune") else setn
        cents = {}
        for c in "kbro":
            v = np.array([r[5:7] for r in rs if r[3] == c and r[4] >= anchor and not np.isnan(r[5])])
            if len(v) >= 2:
                cents[c] = np.median(v, axis=0)
        for r in rs:
            t, g, conf, f = r[2], r[3], r[4], np.array(r[5:7])
            new = g
            if g in "kbro" and conf < maxconf and not np.isnan(f).any() and cents:
                d = {c: np.linalg.norm(f - m) for c, m in cents.items()}
                best = min(d, key=d.get)
                if best != g and (g not in d or d[best] < ratio * d[g]):
                    new = best
            if t in "kbro":
                res[(group, "before")] += g == t
                res[(group, "after")] += new == t
                res[(group, "n")] += 1
                if new != g:
                    res[(group, "changed")] += 1
    print(
        anchor,
        ratio,
        maxconf,
        {k: v for k, v in sorted(res.items()) if k[1] != "n" and (k[1] == "changed" or True)},
    )
