"""With an old checkout on PYTHONPATH (one that has clubs, 04b0a3e): argv[1] = db path. Starts that checkout's
referee on the db; a club with four members plays two club games (heuristic bots for the people), its season
is closed, one more game is played and a table opened with two members seated; then the server stops.
Writes DB.club.json: the club's id, the members' tokens, the ladder and the season heads as served then."""
import json
import re
import subprocess
import sys
import threading

import grpc

from smear_referee.api import referee_pb2 as pb
from smear_referee.api import referee_pb2_grpc as pb_grpc
from smear_referee.clients.client import Client, bearer, play_seat

db = sys.argv[1]
srv = subprocess.Popen([sys.executable, "-m", "smear_dsl", "serve", "--port", "0", "--db", db],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
target = "127.0.0.1:" + re.search(r":(\d+)", srv.stdout.readline()).group(1)
clubs = pb_grpc.ClubStub(grpc.insecure_channel(target))
made = clubs.CreateClub(pb.CreateClubRequest(name="Old Tuesday", rule_files=[
    pb.ClubRuleFile(rules_name="four_point_ne_wisconsin")]))
cid, director = made.club_id, bearer(made.director_token)
members = [clubs.AddMember(pb.AddMemberRequest(club_id=cid, name=n), metadata=director) for n in ("Ann", "Bo", "Cy", "Di")]


def table(seated, seed, play=True):
    opened = clubs.OpenClubTable(pb.OpenClubTableRequest(club_id=cid, rules="four_point_ne_wisconsin", hand_limit=1,
                                                         seed=seed), metadata=bearer(members[seated[0]].member_token))
    tokens = [clubs.JoinClubTable(pb.JoinClubTableRequest(table_id=opened.table_id, seat=s),
                                  metadata=bearer(members[m].member_token)).token for s, m in enumerate(seated)]
    if play:
        threads = [threading.Thread(target=play_seat, args=(Client(target, t), opened.table_id, "heuristic", s))
                   for s, t in enumerate(tokens)]
        [t.start() for t in threads]
        [t.join(300) for t in threads]
    return opened.table_id


table([0, 1, 2, 3], "a")
table([1, 2, 3, 0], "b")
clubs.GetClub(pb.GetClubRequest(club_id=cid))
clubs.CloseSeason(pb.CloseSeasonRequest(club_id=cid), metadata=director)
table([3, 2, 1, 0], "c")
open_table = table([0, 1], "d", play=False)
got = clubs.GetClub(pb.GetClubRequest(club_id=cid))
json.dump({"club_id": cid, "director_token": made.director_token, "tokens": [m.member_token for m in members],
           "open_table": open_table, "ladder_json": got.ladder_json,
           "heads": {s.season: s.head for s in got.seasons if s.closed}}, open(db + ".club.json", "w"), indent=1)
srv.terminate()
srv.wait(10)
