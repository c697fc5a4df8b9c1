"""The one placement type: :class:`Placement`."""

from __future__ import annotations

import array
import operator
from typing import TYPE_CHECKING, Iterable, NoReturn, Optional, SupportsIndex, Tuple, cast

from . import _nqueens

if TYPE_CHECKING:
    _Base = array.array[int]
else:
    _Base = array.array

#: The largest board drawn by ``_repr_svg_`` in a notebook (beyond it a square is under a
#: pixel; :meth:`Placement.svg` says why it refuses).
_MAX_SVG = 800


def _read_only(self: object, *args: object, **kwargs: object) -> NoReturn:
    raise TypeError("a Placement is read-only; list(p) or numpy.array(p) gives a copy to change")


class Placement(_Base):
    """A placement of queens: the 0-based column of the queen in each row.

    Every placement the package returns is one (``solutions``, ``find``, ``complete``,
    puzzles' solutions). It is a read-only sequence of ints that compares equal to the tuple
    or list of the same columns, hashes like that tuple, and keeps its columns in one block
    of unsigned 32-bit ints (it is an ``array.array('I')``), so it has the buffer protocol:
    ``numpy.asarray(p)`` is a ``uint32`` view without a copy, and ``memoryview(p)`` works.
    In a notebook it shows as a board (``_repr_svg_``).

    >>> from nqueens import Placement
    >>> p = Placement([1, 3, 0, 2])
    >>> p == (1, 3, 0, 2), p == [1, 3, 0, 2], p[0], len(p), p.n
    (True, True, 1, 4, 4)
    >>> p
    Placement([1, 3, 0, 2])
    >>> p.verify(), hash(p) == hash((1, 3, 0, 2))
    (True, True)
    >>> print(p.board(), end="")
    . Q . .
    . . . Q
    Q . . .
    . . Q .
    """

    def __new__(cls, columns: Iterable[SupportsIndex] = ()) -> "Placement":
        cols = [operator.index(c) for c in columns]
        for row, c in enumerate(cols):
            if not 0 <= c < 2**32:
                raise ValueError(f"row {row + 1}: column {c + 1} is outside every board")
        return cast(Placement, super().__new__(cls, "I", cols))

    @classmethod
    def _from_bytes(cls, data: bytes) -> "Placement":
        """The placement whose columns are ``data``'s native ``uint32``s (one copy)."""
        p = super().__new__(cls, "I")
        array.array.frombytes(p, data)
        return cast(Placement, p)

    @property
    def n(self) -> int:
        """The board size: the number of rows."""
        return len(self)

    def verify(self) -> bool:
        """``True`` if no two queens attack and there is one per row and column."""
        return _nqueens.defect(self) is None

    def defect(self) -> Optional[str]:
        """``None`` for a solution, else what is wrong (rows and columns 1-based)."""
        return _nqueens.defect(self)

    def board(self) -> str:
        """The board drawn with ``Q`` and ``.``, one row per line (N up to 1000)."""
        return _nqueens.board(self)

    def svg(
        self,
        *,
        size: Optional[SupportsIndex] = None,
        blocked: Optional[Iterable[Tuple[SupportsIndex, SupportsIndex]]] = None,
    ) -> str:
        """The board as an SVG picture (N up to 800), ``size`` pixels a side, with a red
        cross on each ``blocked`` square (0-based ``(row, col)``). See :func:`nqueens.svg`."""
        return _nqueens.svg(self, size=size, blocked=blocked)

    def _repr_svg_(self) -> Optional[str]:
        # A notebook draws boards it can; a larger one shows as its repr.
        return self.svg() if 0 < len(self) <= _MAX_SVG else None

    def __repr__(self) -> str:
        if len(self) > 20:
            head = ", ".join(map(str, self[:10]))
            return f"Placement([{head}, ...])  # {len(self)} queens"
        return f"Placement({list(self)})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (tuple, list, array.array)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self))

    def __reduce_ex__(self, protocol: SupportsIndex) -> Tuple[object, Tuple[bytes]]:
        # array's own reduction rebuilds a Placement through __new__ with array's arguments
        # under pickle protocols 0 to 2: one block of bytes instead, under every protocol.
        return _unpickle, (self.tobytes(),)

    def __copy__(self) -> "Placement":
        return self

    def __deepcopy__(self, memo: object) -> "Placement":
        return self

    # The columns are read-only: a placement that changed would hash differently.
    __setitem__ = _read_only
    __delitem__ = _read_only
    __iadd__ = _read_only
    __imul__ = _read_only
    append = _read_only
    extend = _read_only
    insert = _read_only
    pop = _read_only
    remove = _read_only
    reverse = _read_only
    byteswap = _read_only
    frombytes = _read_only
    fromlist = _read_only
    fromfile = _read_only
    fromunicode = _read_only


def _unpickle(data: bytes) -> Placement:
    return Placement._from_bytes(data)
