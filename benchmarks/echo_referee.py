"""A referee that referees nothing: the ceiling `bench_play.py` measures the real one against.

It speaks the real service (the generated servicer and messages, so the transport and the protobuf
codec cost what they cost the referee) and keeps each table's turn going round its four seats, but it
holds no game, checks no move, builds no view and writes nothing: a seat's turn is a View taken from a
real game before the run (turns of bidding, naming trump and play, in turn), a move is answered
"accepted" at once. Prints `echo referee listening on HOST:PORT` like `smear-dsl serve`.
Usage: python benchmarks/echo_referee.py [--port 0]
"""
from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import sys
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from smear_dsl.compile.compiler import compile_rules  # noqa: E402
from smear_dsl.engine import Game  # noqa: E402
from smear_dsl.language.load import load_spec  # noqa: E402
from smear_referee.api import referee_pb2 as pb  # noqa: E402
from smear_referee.api import referee_pb2_grpc as pb_grpc  # noqa: E402
from smear_referee.tables.convert import view_to_proto  # noqa: E402

SEATS = 4


def canned_views(games: int = 3) -> list[pb.View]:
    """The view of the seat to move at every turn of a few random Four Point games (widow 2)."""
    rules = compile_rules(load_spec("four_point_ne_wisconsin"), 4, {"widow": "2"})
    out = []
    rng = random.Random(1)
    for g in range(games):
        game = Game(rules, seed=f"echo-{g}")
        while not game.finished and len(out) < 2000 * (g + 1):
            out.append(view_to_proto("echo", game, game.turn, len(out)))
            game.apply(game.turn, game.random_move(rng))
    return out


class _Table:
    """Whose turn it is, and the open seat streams' outboxes."""

    def __init__(self) -> None:
        self.turn = 0
        self.outboxes: dict[int, asyncio.Queue] = {}


class Echo(pb_grpc.RefereeServicer):
    """CreateTable, JoinTable and Play, with nothing behind them but the turn order."""

    def __init__(self, views: list[pb.View]) -> None:
        self.views = views
        self.next_view = itertools.cycle(range(len(views)))
        self.ids = itertools.count(1)
        self.tables: dict[str, _Table] = {}

    async def CreateTable(self, request, context):
        table_id = f"echo{next(self.ids)}"
        self.tables[table_id] = _Table()
        return pb.CreateTableResponse(table_id=table_id, host_token="host")

    async def JoinTable(self, request, context):
        return pb.JoinTableResponse(token=f"{request.table_id}:{request.seat}")

    def _turn_to(self, t: _Table, table_id: str, seat: int) -> None:
        box = t.outboxes.get(seat)
        if box is not None:
            view = pb.View()
            view.CopyFrom(self.views[next(self.next_view)])
            view.table_id, view.seat = table_id, seat
            box.put_nowait(pb.PlayEvent(turn=view))

    async def Play(self, request_iterator, context):
        token = dict(context.invocation_metadata()).get("authorization", "").removeprefix("Bearer ")
        table_id, _, seat_text = token.partition(":")
        t, seat = self.tables[table_id], int(seat_text)
        box: asyncio.Queue = asyncio.Queue()
        t.outboxes[seat] = box

        async def read() -> None:
            async for req in request_iterator:
                if req.HasField("move"):
                    box.put_nowait(pb.PlayEvent(result=pb.MoveResult(accepted=True)))
                    t.turn = (seat + 1) % SEATS
                    self._turn_to(t, table_id, t.turn)
                elif t.turn == seat:
                    self._turn_to(t, table_id, seat)
            box.put_nowait(None)

        reader = asyncio.ensure_future(read())
        try:
            while (event := await box.get()) is not None:
                yield event
        finally:
            reader.cancel()
            t.outboxes.pop(seat, None)


async def serve(port: int) -> None:
    server = grpc.aio.server(options=[("grpc.max_concurrent_streams", 1000)])
    pb_grpc.add_RefereeServicer_to_server(Echo(canned_views()), server)
    bound = server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    print(f"echo referee listening on 127.0.0.1:{bound}", flush=True)
    await server.wait_for_termination()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=0)
    asyncio.run(serve(ap.parse_args().port))


if __name__ == "__main__":
    main()
