"""The one placement type: :class:`Placement`."""

from __future__ import annotations

import array
import operator
import sys
from typing import (
    TYPE_CHECKING,
    Iterable,
    Iterator,
    Optional,
    Sequence,
    SupportsIndex,
    Tuple,
    Union,
    cast,
    overload,
)

from . import _nqueens

if TYPE_CHECKING:
    import numpy
    import numpy.typing

#: The largest board drawn by ``_repr_svg_`` in a notebook (beyond it a square is under a
#: pixel; :meth:`Placement.svg` says why it refuses).
_MAX_SVG = 800

#: Squares as arguments take them: ``(row, col)`` pairs (tuples, lists, the rows of a
#: ``(K, 2)`` numpy array such as ``numpy.argwhere(mask)``), or an ``N`` x ``N`` boolean mask
#: (a numpy array or nested lists of bools), ``True`` where a square is meant.
Squares = Iterable[Sequence[SupportsIndex]]


class Placement(Sequence[int]):
    """A placement of queens: the 0-based column of the queen in each row.

    Every placement the package returns is one (``solutions``, ``find``, ``complete``,
    puzzles' solutions). It is a read-only sequence of ints that compares equal to the tuple
    or list of the same columns and hashes like that tuple. Its columns are one read-only
    block of unsigned 32-bit ints: ``numpy.asarray(p)`` is a ``uint32`` view of it without a
    copy, which numpy refuses to write to, and so is ``memoryview(p)`` (Python 3.12 and later,
    which let a class give its buffer: PEP 688); :meth:`tobytes` gives the bytes. Nothing can
    change a placement once made, so one held in a set or a dict keeps its hash.
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

    __slots__ = ("_cols",)
    _cols: memoryview

    def __new__(cls, columns: Iterable[SupportsIndex] = ()) -> "Placement":
        cols = [operator.index(c) for c in columns]
        for row, c in enumerate(cols):
            if not 0 <= c < 2**32:
                raise ValueError(f"row {row + 1}: column {c + 1} is outside every board")
        return cls._from_bytes(array.array("I", cols).tobytes())

    @classmethod
    def _from_bytes(cls, data: bytes) -> "Placement":
        """The placement whose columns are ``data``'s native ``uint32``s (no copy)."""
        p = object.__new__(cls)
        object.__setattr__(p, "_cols", memoryview(data).cast("I"))
        return p

    @property
    def n(self) -> int:
        """The board size: the number of rows."""
        return len(self._cols)

    def tobytes(self) -> bytes:
        """The columns' bytes: native unsigned 32-bit ints (``numpy.frombuffer(b, "uint32")``)."""
        return self._cols.tobytes()

    def verify(self) -> bool:
        """``True`` if no two queens attack and there is one per row and column."""
        return _nqueens.defect(self._cols) is None

    def defect(self) -> Optional[str]:
        """``None`` for a solution, else what is wrong (rows and columns 1-based)."""
        return _nqueens.defect(self._cols)

    def board(self) -> str:
        """The board drawn with ``Q`` and ``.``, one row per line (N up to 1000)."""
        return _nqueens.board(self._cols)

    def svg(
        self,
        *,
        size: Optional[SupportsIndex] = None,
        blocked: Optional["Squares"] = None,
        given: Optional[Iterable[SupportsIndex]] = None,
    ) -> str:
        """The board as an SVG picture (N up to 800), ``size`` pixels a side, with a red
        cross on each ``blocked`` square (0-based ``(row, col)``) and the queens of the
        ``given`` rows drawn as given. See :func:`nqueens.svg`."""
        return _nqueens.svg(self._cols, size=size, blocked=blocked, given=given)

    def _repr_svg_(self) -> Optional[str]:
        # A notebook draws boards it can; a larger one shows as its repr.
        return self.svg() if 0 < len(self) <= _MAX_SVG else None

    def __array__(
        self, dtype: "Optional[numpy.typing.DTypeLike]" = None, copy: Optional[bool] = None
    ) -> "numpy.typing.NDArray[numpy.uint32]":
        # numpy's own protocol: a read-only view of the columns, or a copy where asked for
        # (a dtype, or copy=True), which is the caller's to change.
        import numpy as np

        a = np.frombuffer(self._cols, dtype=np.uint32)
        if dtype is not None or copy:
            return cast("numpy.typing.NDArray[numpy.uint32]", np.array(a, dtype=dtype, copy=True))
        return a

    if sys.version_info >= (3, 12):

        def __buffer__(self, flags: int) -> memoryview:
            return self._cols

    def __len__(self) -> int:
        return len(self._cols)

    @overload
    def __getitem__(self, i: SupportsIndex) -> int: ...

    @overload
    def __getitem__(self, i: slice) -> Tuple[int, ...]: ...

    def __getitem__(self, i: Union[SupportsIndex, slice]) -> Union[int, Tuple[int, ...]]:
        if isinstance(i, slice):
            return tuple(self._cols[i])
        return self._cols[i]

    def __iter__(self) -> Iterator[int]:
        return iter(self._cols)

    def __contains__(self, c: object) -> bool:
        return c in self._cols

    def __repr__(self) -> str:
        if len(self) > 20:
            head = ", ".join(map(str, self._cols[:10]))
            return f"Placement([{head}, ...])  # {len(self)} queens"
        return f"Placement({self._cols.tolist()})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Placement):
            return self._cols == other._cols
        if isinstance(other, (tuple, list, array.array)):
            return len(self) == len(other) and all(a == b for a, b in zip(self._cols, other))
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(tuple(self._cols))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Placement is read-only; list(p) or numpy.array(p) gives a copy to change")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("a Placement is read-only")

    def __reduce__(self) -> Tuple[object, Tuple[bytes]]:
        return _unpickle, (self.tobytes(),)

    def __copy__(self) -> "Placement":
        return self

    def __deepcopy__(self, memo: object) -> "Placement":
        return self


def _unpickle(data: bytes) -> Placement:
    return Placement._from_bytes(data)


def _native(columns: object, free: bool = False) -> object:
    """``columns`` as the native module reads them: a placement's read-only buffer; a numpy
    masked array's data, its masked rows free (``-1``) where ``free`` allows them and refused
    where not (a mask is never ignored)."""
    if isinstance(columns, Placement):
        return columns._cols
    np = sys.modules.get("numpy")
    if np is not None and isinstance(columns, np.ma.MaskedArray):
        masked = np.ma.getmaskarray(columns)
        if masked.any():
            if not free:
                row = int(np.flatnonzero(masked.reshape(len(masked), -1).any(axis=1))[0])
                raise ValueError(
                    f"row {row + 1} is masked: a placement needs a queen in every row "
                    "(complete() and svg() take masked rows as free)"
                )
            return np.where(masked, -1, np.ma.getdata(columns).astype(np.int64))
        return np.ma.getdata(columns)
    return columns
