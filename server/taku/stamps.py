STAMP={}
import time, sys
def report():
    keys=['start','decided','queued','written','resolved','published','end']
    rows=[v for v in STAMP.values() if all(k in v for k in keys)]
    STAMP.clear()
    if not rows: return
    out=[]
    for a,b in zip(keys,keys[1:]):
        xs=sorted((r[b]-r[a])*1000 for r in rows)
        out.append('%s->%s p50 %.2f p90 %.2f p99 %.2f'%(a,b,xs[len(xs)//2],xs[len(xs)*9//10],xs[len(xs)*99//100]))
    print(' | '.join(out), file=sys.stderr, flush=True)
