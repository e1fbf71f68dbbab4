"""Type stubs of the native module ``plateau._plateau`` (Rust, PyO3).

Everything here is re-exported by ``plateau``; import it from there.
"""

from typing import Any, Dict, List, Literal, Optional, Tuple, Union, final

import numpy as np
import numpy.typing as npt

from ._types import GameInfo, InformationState

__all__ = ["Choice", "Player", "State", "__version__", "games"]
__version__: str

#: Who looks at a state: a seat number (0-based), ``"spectator"`` or ``"referee"``.
_Reader = Union[int, str, None]

def games() -> List[GameInfo]:
    """Every game, in the order ``plateau games`` lists them: name, title,
    summary, notation, seats (``min_players``, ``max_players``), ``hidden``,
    ``uses_seed``, ``has_draws``, variants (name, help, presets), options
    (name, kind, bounds or choices, default, values in words, help) and the six
    levels of its computer player."""

@final
class State:
    """One game in progress of any of Plateau's games: its set-up, its position
    and the moves played. Moves are text in the game's notation.

    ``State(game, variant=None, options=None, seed=0)`` starts a new game.
    ``options`` values may be strings, integers or booleans. ``seed`` is the
    seed of every random choice of the set-up (Kabaleo's deal; other games
    ignore it). Raises ``ValueError`` for an unknown game, variant or option.

    A ``State`` holds the whole truth (the referee's knowledge): ask
    :meth:`view`, :meth:`information_state` or :meth:`record` with a seat for
    what that seat may know.
    """

    def __new__(
        cls,
        game: str,
        variant: Optional[str] = None,
        options: Optional[Dict[str, Union[str, int, bool, None]]] = None,
        seed: int = 0,
    ) -> "State": ...
    @staticmethod
    def from_record(text: str, game: Optional[str] = None, variant: Optional[str] = None) -> "State":
        """Replay a record (the format of ``plateau replay`` and ``plateau
        arena --records``), checking every move; ``game`` and ``variant`` for a
        bare move list without tags. A record of one seat of a game with hidden
        information (a ``Deal`` tag instead of the ``Seed``) starts from that
        deal, the other seats' secrets made up consistently with it. Raises
        ``ValueError`` with the reason for an invalid record."""
    @property
    def game(self) -> str:
        """The game's registry name (``"abalone"``)."""
    @property
    def variant(self) -> str:
        """The variant played (``"custom"`` when the options match no variant)."""
    @property
    def options(self) -> Dict[str, str]:
        """The options as they were set (not the variant's presets), as text."""
    @property
    def num_players(self) -> int:
        """The number of seats."""
    @property
    def current_player(self) -> Optional[int]:
        """The seat (0-based) whose decision it is, or ``None`` once the game
        is over."""
    @property
    def ply(self) -> int:
        """The number of moves played since the start."""
    def seat_name(self, seat: int) -> str:
        """The name of a seat as players know it (``"Black"``)."""
    def legal_moves(self) -> List[str]:
        """The legal moves in the game's notation, each once; empty when the
        game is over."""
    def apply(self, move: str) -> str:
        """Play a move in the game's notation and return its canonical text.
        An illegal or unreadable move raises ``ValueError`` with the rules'
        message and changes nothing."""
    def undo(self) -> None:
        """Take back the last move (or a result set off the board). Raises
        ``ValueError`` when there is nothing to take back."""
    def clone(self) -> "State":
        """An independent copy."""
    def __copy__(self) -> "State": ...
    def __deepcopy__(self, memo: Any) -> "State": ...
    def __reduce__(self) -> Tuple[Any, Tuple[str]]:
        """Pickling: a state is its referee's record, replayed by :meth:`from_record`."""
    def is_terminal(self) -> bool:
        """Whether the game is over."""
    def returns(self) -> List[float]:
        """One return per seat once the game is over, in -1..1, summing to
        zero (two players: 1 win, -1 loss, 0 draw; more: by rank). All zeros
        while the game goes on."""
    def result(self) -> Optional[str]:
        """The result as a record writes it (``"1-0"``, ``"1/2-1/2"``,
        ``"0-1-0"``), or ``None`` while the game goes on."""
    def termination(self) -> Optional[str]:
        """Why the game ended (``"push-out"``), or ``None``."""
    def history(self) -> List[str]:
        """The moves played, in canonical notation."""
    def movers(self) -> List[int]:
        """The seat that made each move of :meth:`history`."""
    def record(self, reader: _Reader = None) -> str:
        """The record so far as ``reader`` may see it (``None``: the referee's
        full record). A seat's or a spectator's record of a hidden game in
        progress carries a ``Deal`` tag instead of the seed."""
    def view(self, reader: _Reader = None) -> Dict[str, Any]:
        """What ``reader`` (default: the referee) may see of the position, as
        the game's JSON view."""
    def render(self, reader: _Reader = None) -> str:
        """The position drawn for a terminal as ``reader`` may see it (no
        colours)."""
    def deal(self, seat: int) -> Optional[str]:
        """For a game dealt at random with secrets (Kabaleo): the start as
        ``seat`` knows it, each secret it may not see written ``?``. ``None``
        for other games. Raises ``ValueError`` for a state built from another
        seat's deal."""
    def information_state(self, seat: int) -> InformationState:
        """Everything ``seat`` may know: the set-up, the public moves and who
        made them, the legal moves, its deal, its view now and at the start,
        and the result once over; nothing of other seats' secrets. Raises
        ``ValueError`` for a state built from another seat's deal."""
    def sample(self, seat: int, rng_seed: int = 0) -> "State":
        """A complete state consistent with what ``seat`` knows, drawn at
        random: its deal with the secrets it may not see drawn uniformly among
        the consistent values (from ``rng_seed``: the same seed, the same
        draw), and the public moves replayed. For a game without hidden
        information, a copy."""
    @property
    def num_distinct_actions(self) -> int:
        """The size of the action space of this game and variant: every move
        is one integer action in ``range(num_distinct_actions)``
        (``docs/encoding/``)."""
    def legal_actions(self) -> List[int]:
        """The legal moves as integer actions, in the order of
        :meth:`legal_moves`."""
    def legal_actions_mask(self) -> npt.NDArray[np.int8]:
        """1 for each legal action, 0 elsewhere (``num_distinct_actions``
        elements)."""
    def apply_action(self, action: int) -> str:
        """Play a move given as an action; return its text. ``ValueError``
        when it names no legal move (nothing changes)."""
    def action_to_move(self, action: int) -> str:
        """The move an action names here, in notation (``ValueError`` when it
        names none)."""
    def move_to_action(self, move: str) -> int:
        """The action of a move given in notation (``ValueError`` when the
        text is not a move)."""
    @property
    def observation_shape(self) -> Tuple[int, int, int]:
        """``(planes, height, width)`` of an observation tensor."""
    def observation_planes(self) -> List[str]:
        """The name of each plane of an observation tensor."""
    def observation_tensor(self, seat: int) -> npt.NDArray[np.float32]:
        """What ``seat`` may see, from its point of view, as a ``float32``
        array of :attr:`observation_shape` with values in 0..1."""
    def perft(self, depth: int) -> int:
        """The number of leaf positions after exactly ``depth`` moves (the GIL
        is released while counting)."""
    def __repr__(self) -> str: ...
    def __str__(self) -> str:
        """The referee's drawing of the position."""

@final
class Choice:
    """What a player chose, and what its search did."""

    @property
    def move(self) -> str:
        """The move, in the game's notation."""
    @property
    def depth(self) -> int:
        """The depth completed (alpha-beta) or the deepest line (MCTS)."""
    @property
    def nodes(self) -> int:
        """Nodes visited (alpha-beta) or iterations (MCTS)."""
    @property
    def time(self) -> float:
        """Seconds spent."""
    @property
    def score(self) -> Optional[str]:
        """How the search judged the move, in words (``"+35"``, ``"win in 3"``)."""
    @property
    def score_kind(self) -> Optional[Literal["eval", "win", "loss", "value", "plan"]]:
        """The kind of :attr:`score`."""
    @property
    def score_value(self) -> Optional[float]:
        """The score's number: evaluation, plies to a forced win or loss,
        expected return (-1..1) or the plan's length."""
    @property
    def pv(self) -> List[str]:
        """The principal variation (its first move is :attr:`move`)."""

@final
class Player:
    """One of Plateau's computer players for one game, from a player spec as
    ``plateau arena`` takes it: ``random``, ``greedy``,
    ``alphabeta:time=100ms``, ``mcts:iterations=1000``,
    ``ismcts:iterations=500``, ``ai:1`` to ``ai:6``. ``seed`` (or ``seed=``
    in the spec) fixes its randomness. Raises ``ValueError`` for an unknown
    game or a spec the game's players refuse.

    A player may keep state between moves (a search tree it reuses): use one
    player per seat and per game. A player of a game with hidden information
    reads only the knowledge of the seat to move; on a state built from one
    seat's record, ask it only for that seat's moves."""

    def __new__(cls, game: str, spec: str, seed: Optional[int] = None) -> "Player": ...
    @property
    def game(self) -> str:
        """The game it plays."""
    @property
    def spec(self) -> str:
        """The spec it was made from."""
    def search(self, state: State) -> Choice:
        """Search for the seat to move and return the choice with what the
        search did; the GIL is released meanwhile. Raises ``ValueError`` when
        the game is over or is another game."""
    def choose(self, state: State) -> str:
        """The chosen move for the seat to move (``search(state).move``)."""
    def __repr__(self) -> str: ...
