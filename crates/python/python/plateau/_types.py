"""The shapes of the dicts ``plateau`` returns, as ``TypedDict``s for type
checkers (they are plain dicts at run time)."""

from typing import Any, Dict, List, Literal, Optional
import typing

__all__ = ["GameInfo", "InformationState", "LevelInfo", "OptionInfo", "VariantInfo"]


class VariantInfo(typing.TypedDict):
    """One variant: a named preset of option values."""

    name: str
    help: str
    #: The option values it presets.
    options: Dict[str, str]


class _OptionInfoBase(typing.TypedDict):
    name: str
    #: ``"int"``, ``"optional-int"``, ``"bool"``, ``"choice"``, ``"text"`` or ``"content"``.
    kind: Literal["int", "optional-int", "bool", "choice", "text", "content"]
    #: The default value, as text.
    default: str
    #: The values it takes, in words.
    values: str
    help: str


class OptionInfo(_OptionInfoBase, total=False):
    """One option of a game. ``min`` and ``max`` are given for integers,
    ``choices`` for a choice."""

    min: int
    max: int
    choices: List[str]


class LevelInfo(typing.TypedDict):
    """One of the six levels of a game's computer player."""

    level: int
    #: The player spec it stands for (``"alphabeta:time=1s"``).
    spec: str
    label: str


class GameInfo(typing.TypedDict):
    """The description of a game, as :func:`games` lists it."""

    name: str
    title: str
    summary: str
    #: How moves are written, for players.
    notation: str
    min_players: int
    max_players: int
    #: Whether some information is secret (Kabaleo's objectives).
    hidden: bool
    #: Whether the set-up is drawn from the seed.
    uses_seed: bool
    has_draws: bool
    #: The variants; the first is the default.
    variants: List[VariantInfo]
    options: List[OptionInfo]
    levels: List[LevelInfo]


class InformationState(typing.TypedDict):
    """Everything one seat may know (see :meth:`State.information_state`)."""

    game: str
    variant: str
    options: Dict[str, str]
    num_players: int
    seat: int
    ply: int
    current_player: Optional[int]
    legal_moves: List[str]
    history: List[str]
    movers: List[int]
    deal: Optional[str]
    view: Dict[str, Any]
    start_view: Dict[str, Any]
    result: Optional[str]
    returns: Optional[List[float]]
