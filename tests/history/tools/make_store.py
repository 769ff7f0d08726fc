"""With an old checkout on PYTHONPATH: argv[1] = db path. Starts that checkout's referee on the db, opens
house-rule tables, four people (this script) play some moves, then the server stops (SIGTERM)."""
import json
import random
import re
import subprocess
import sys

from smear_referee.client import Client, choose

db = sys.argv[1]
srv = subprocess.Popen([sys.executable, "-m", "smear_dsl", "serve", "--port", "0", "--db", db],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
port = re.search(r":(\d+)", srv.stdout.readline()).group(1)
c = Client(f"127.0.0.1:{port}")
rng = random.Random(7)
out = {}
for name, players, moves in (("big_bids", 4, 30), ("pitch_highest", 2, 20), ("deuce_point", 4, 26), ("thursday", 4, 40)):
    text = open(f"/tmp/hist/houses/{name}.yaml").read()
    tid = c.create_table(rules_text=text, players=players, seed=f"hist-{name}").table_id
    seats = [c.with_token(c.join(tid, seat=s, name=["Ann", "Bob", "Cy", "Dee"][s]).token) for s in range(players)]
    made = 0
    while made < moves:
        v = seats[0].view(tid)
        if v.finished:
            break
        me = seats[v.turn]
        v = me.view(tid)
        me.submit(tid, choose(v, rng), v.version, key=f"k{made}")
        made += 1
    rec, complete = seats[0].record(tid)
    out[name] = {"table_id": tid, "tokens": [s.token for s in seats], "moves": made, "hands": len(rec["hands"]),
                 "complete": complete}
    print(name, {k: v for k, v in out[name].items() if k != "tokens"})
json.dump(out, open(db + ".tables.json", "w"), indent=1)
srv.terminate()
srv.wait(10)
