"""A club's ladder: each rating key's members from the best, with their rating and its uncertainty, games,
wins and usual partners, in the reader's language; a member who left shows as a former member."""
from __future__ import annotations

from dataclasses import dataclass

from smear_dsl.i18n import tr_for
from smear_referee.club.ratings import Ratings, RatingSettings, ordinal


@dataclass(frozen=True)
class Rung:
    """One line of a ladder."""

    place: int  # from 1
    member: str
    name: str  # the display name, or the words for a former member
    rating: float  # the ordinal: what the ladder sorts by
    mu: float
    sigma: float
    games: int
    wins: int
    provisional: bool
    partners: tuple[str, ...]  # the names of the members most often on the same side, most often first


def ladder(ratings: Ratings, settings: RatingSettings, names: dict[str, str | None], key: str,
           lang: str = "en") -> list[Rung]:
    """The rungs of `key` (a rule file's name, or the family), best first (ties by member id)."""
    tr = tr_for(lang)
    gone = tr.t("a former member")
    shown = {m: (n if n else gone) for m, n in names.items()}
    by = ratings.get(key, {})
    order = sorted(by, key=lambda m: (-ordinal(by[m]), m))
    out = []
    for i, m in enumerate(order):
        s = by[m]
        partners = sorted(s.partners, key=lambda p: (-s.partners[p], p))[:2]
        out.append(Rung(i + 1, m, shown.get(m, m), round(ordinal(s), 2), s.mu, s.sigma, s.games, s.wins,
                        s.total_games < settings.provisional_games, tuple(shown.get(p, p) for p in partners)))
    return out


def ladder_text(rungs: list[Rung], lang: str = "en") -> list[list[str]]:
    """The ladder as rows of text (a header row first) for a terminal table or a page."""
    tr = tr_for(lang)
    rows = [[tr.t("Place"), tr.t("Member"), tr.t("Rating"), tr.t("Skill ± uncertainty"), tr.t("Games"),
             tr.t("Wins"), tr.t("Usual partners")]]
    provisional = tr.t("provisional")
    for r in rungs:
        rating = f"{r.rating:.1f}" + (f" ({provisional})" if r.provisional else "")
        rows.append([str(r.place), r.name, rating, f"{r.mu:.1f} ± {r.sigma:.1f}", str(r.games), str(r.wins),
                     ", ".join(r.partners)])
    return rows
