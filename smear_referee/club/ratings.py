"""A club's ratings, computed from its games in order with openskill's Weng-Lin models (made for teams
and many players): each side of a game is a team of the seats on it; members' ratings move, a guest's or
a bot's seat counts as a newcomer whose rating is never kept. Pure and deterministic: the same games and
settings give the same floats, so anyone holding a club's export can recompute its ladder exactly."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from smear_referee import codes
from smear_referee.errors import RefereeError

MODELS = ("PlackettLuce", "BradleyTerryFull", "BradleyTerryPart", "ThurstoneMostellerFull", "ThurstoneMostellerPart")
RATE_BY = ("rule_file", "family")  # a rating per rule file, or one across all the club's rule files
START = ("carry", "reset")  # a new season starts from the last one's ratings, or afresh
FAMILY = "family"  # the rating key when the club rates across its rule files


@dataclass(frozen=True)
class RatingSettings:
    """How a club rates: the model and its parameters (openskill's defaults), when a rating stops being
    provisional, what it is kept per, and how a new season starts."""

    model: str = "PlackettLuce"
    mu: float = 25.0
    sigma: float = 25.0 / 3
    beta: float = 25.0 / 6
    tau: float = 25.0 / 300
    provisional_games: int = 10
    rate_by: str = "rule_file"
    season_start: str = "carry"
    # A game moves ratings only when every seat is a member who played it themselves (no guest, bot or
    # stand-in playing a seat for most of its moves). A new club sets it; a club (or export) from before it
    # was kept has none, and rates as it did then: its ratings recompute as published.
    members_only: bool = False

    @classmethod
    def from_json(cls, data: Any) -> RatingSettings:
        """Settings from an export or a director's request; INVALID_ARGUMENT naming the bad field."""
        if not isinstance(data, dict):
            raise RefereeError(codes.BAD_SETTINGS, "the rating settings are an object")
        unknown = sorted(set(data) - set(cls.__dataclass_fields__))
        if unknown:
            raise RefereeError(codes.BAD_SETTINGS, f"unknown rating setting {unknown[0]!r}")
        s = cls(**data)
        for name in ("mu", "sigma", "beta", "tau"):
            v = getattr(s, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v < 1e6 or (v == 0 and name != "tau"):
                raise RefereeError(codes.BAD_SETTINGS, f"`{name}` must be a number above 0 (tau: 0 or more)")
        if not isinstance(s.members_only, bool):
            raise RefereeError(codes.BAD_SETTINGS, "`members_only` must be true or false")
        if isinstance(s.provisional_games, bool) or not isinstance(s.provisional_games, int) or not 0 <= s.provisional_games <= 1000:
            raise RefereeError(codes.BAD_SETTINGS, "`provisional_games` must be a whole number 0..1000")
        for name, allowed in (("model", MODELS), ("rate_by", RATE_BY), ("season_start", START)):
            if getattr(s, name) not in allowed:
                raise RefereeError(codes.BAD_SETTINGS, f"`{name}` is one of {', '.join(allowed)}")
        return s

    def to_json(self) -> dict[str, Any]:
        """As stored and exported: `members_only` only when set, so a club's settings from before it read back
        exactly as they were (what its published heads cover)."""
        out = asdict(self)
        if not self.members_only:
            out.pop("members_only")
        return out

    def make_model(self):
        """The openskill model these settings name, with their parameters."""
        from openskill import models
        return getattr(models, self.model)(mu=float(self.mu), sigma=float(self.sigma), beta=float(self.beta),
                                          tau=float(self.tau))


@dataclass
class Standing:
    """A member's rating under one key, and what the ladder shows beside it."""

    mu: float
    sigma: float
    games: int = 0  # rated games this season
    wins: int = 0
    total_games: int = 0  # rated games since the rating started (carried seasons included): provisional below the setting
    partners: dict[str, int] = field(default_factory=dict)  # member id -> games on the same side this season

    def to_json(self) -> dict[str, Any]:
        return {"mu": self.mu, "sigma": self.sigma, "games": self.games, "wins": self.wins,
                "total_games": self.total_games}


@dataclass(frozen=True)
class RatedGame:
    """What rating needs of one finished game: the rating key, each seat's member (None: a guest or a
    bot), each seat's side, the winning side (None: nobody) and each side's final score."""

    key: str
    seats: tuple[str | None, ...]
    side_of: tuple[int, ...]
    winner: int | None
    scores: tuple[int, ...]


def ranks(winner: int | None, scores: tuple[int, ...]) -> list[int]:
    """Each side's place (0 best; equal places tie): the winner first, the others by score."""
    order = sorted(set(scores), reverse=True)
    out = [1 + order.index(s) for s in scores]
    if winner is not None:
        out[winner] = 0
    return out


Ratings = dict[str, dict[str, Standing]]  # key -> member id -> standing


def season_start(settings: RatingSettings, before: Ratings | None) -> Ratings:
    """The ratings a season starts from: the last season's (its counts of this season cleared) or none."""
    if before is None or settings.season_start == "reset":
        return {}
    return {key: {m: Standing(s.mu, s.sigma, total_games=s.total_games) for m, s in by.items()}
            for key, by in before.items()}


def rate(settings: RatingSettings, games: list[RatedGame], start: Ratings | None = None,
         history: list[tuple[int, str, str, float, float]] | None = None) -> Ratings:
    """The ratings after `games` in order, from `start`; `history` (if given) gets (game index, key,
    member, mu, sigma) after each game for every member who played it."""
    model = settings.make_model()
    out: Ratings = {k: dict(v) for k, v in (start or {}).items()}
    for i, g in enumerate(games):
        by = out.setdefault(g.key, {})
        sides = max(g.side_of) + 1
        teams: list[list[Any]] = [[] for _ in range(sides)]
        who: list[list[str | None]] = [[] for _ in range(sides)]
        for seat, member in enumerate(g.seats):
            side = g.side_of[seat]
            s = by.get(member) if member is not None else None
            teams[side].append(model.rating(mu=s.mu, sigma=s.sigma) if s is not None else model.rating())
            who[side].append(member)
        new = model.rate(teams, ranks=ranks(g.winner, g.scores))
        for side in range(sides):
            members = [m for m in who[side] if m is not None]
            for member, r in zip(who[side], new[side]):
                if member is None:
                    continue  # a guest or a bot: played as a newcomer, kept by nobody
                old = by.get(member)
                s = by[member] = Standing(r.mu, r.sigma, (old.games if old else 0) + 1,
                                          (old.wins if old else 0) + (g.winner == side),
                                          (old.total_games if old else 0) + 1, dict(old.partners) if old else {})
                for p in members:
                    if p != member:
                        s.partners[p] = s.partners.get(p, 0) + 1
                if history is not None:
                    history.append((i, g.key, member, r.mu, r.sigma))
    return out


def ordinal(s: Standing | Any) -> float:
    """The ladder's figure: the rating less three uncertainties (openskill's ordinal), so a newcomer
    climbs by playing, not by one lucky game; of anything with `mu` and `sigma` (a standing, a rung)."""
    return s.mu - 3 * s.sigma


def ratings_json(r: Ratings) -> dict[str, dict[str, dict[str, Any]]]:
    """Ratings as an export keeps them (keys and members sorted, so equal ratings write equal JSON)."""
    return {key: {m: r[key][m].to_json() for m in sorted(r[key])} for key in sorted(r)}
