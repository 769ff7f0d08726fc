"""Card encoding shared by every rule file: small ints inside, names only at the edges.

A suited card is `suit * 13 + rank` with rank 0 = deuce .. 12 = ace and suits in the
order S H D C; jokers are 52, 53, ... in the order a rule file declares them.
"""
from __future__ import annotations

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "SHDC"
SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")
N_SUITED = 52
SUITED_MASK = (1 << N_SUITED) - 1
JOKER_BASE = 52
MAX_JOKERS = 8

# Colours: spades and clubs are black, hearts and diamonds red.
SISTER = (3, 2, 1, 0)  # the other suit of the same colour

RANK_ALIASES = {"10": "T", "ACE": "A", "KING": "K", "QUEEN": "Q", "JACK": "J", "TEN": "T"}


def card_id(suit: int, rank: int) -> int:
    """The id of a suited card."""
    return suit * 13 + rank


def suit_of(card: int) -> int:
    """Natural suit of a suited card (jokers have none: -1)."""
    return card // 13 if card < N_SUITED else -1


def rank_of(card: int) -> int:
    """Rank index 0..12 of a suited card (jokers: -1)."""
    return card % 13 if card < N_SUITED else -1


def parse_rank(text: str) -> int | None:
    """Rank index from `A`, `K`, `10`, `T`, `7`...; None if it is not a rank."""
    t = str(text).strip().upper()
    t = RANK_ALIASES.get(t, t)
    if len(t) == 1 and t in RANK_CHARS:
        return RANK_CHARS.index(t)
    return None


def parse_suit(text: str) -> int | None:
    """Suit index from `S`/`spades` etc.; None if it is not a suit."""
    t = str(text).strip()
    if len(t) == 1 and t.upper() in SUIT_CHARS:
        return SUIT_CHARS.index(t.upper())
    if t.lower() in SUIT_WORDS:
        return SUIT_WORDS.index(t.lower())
    return None


def suited_name(card: int) -> str:
    """`AS`, `TD`, ... for a suited card."""
    return RANK_CHARS[card % 13] + SUIT_CHARS[card // 13]


def parse_suited(name: str) -> int | None:
    """Id of a suited card name like `AS` or `10H`; None if it is not one."""
    if not isinstance(name, str) or len(name) < 2:
        return None
    r = parse_rank(name[:-1])
    s = SUIT_CHARS.find(name[-1].upper()) if len(name[-1]) == 1 else -1
    if r is None or s < 0 or name[-1] not in SUIT_CHARS:
        return None
    if name[:-1] not in ("10",) and name[:-1] not in RANK_CHARS:
        return None
    return card_id(s, r)


def bits(mask: int):
    """Yield the card ids in a bitset, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def bit_list(mask: int) -> list[int]:
    """The card ids in a bitset as a list, lowest first (bits() without a generator's cost per card)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_TUPLES: dict[int, tuple[int, ...]] = {}
TUPLES_KEPT = 1 << 12  # masks remembered by bit_tuple (a few hundred KB at most)


def bit_tuple(mask: int) -> tuple[int, ...]:
    """bit_list as a tuple, remembered for the last few thousand masks: a search's rollouts ask for the
    same hands over and over (five times in six, measured), and a lookup costs a tenth of the walk."""
    t = _TUPLES.get(mask)
    if t is None:
        if len(_TUPLES) >= TUPLES_KEPT:
            _TUPLES.clear()
        t = _TUPLES[mask] = tuple(bit_list(mask))
    return t


def mask_of(cards) -> int:
    """Bitset of an iterable of card ids."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m
