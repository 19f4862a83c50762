"""Arrow arrays built from their buffers, without ``pa.array``.

pyarrow's ``pa.array`` (and ``Table.from_pylist``, ``from_pydict``, ``pa.table`` of lists,
which call it) imports pandas the first time it runs, whatever it is given, to ask
whether its argument is a pandas object (``pandas-shim.pxi``, ``_is_array_like``, pyarrow
13 to 26 at least). That import costs 0.3-0.4 s here: most of what a sweep waited for
before its first run was stored (issue 31, item 2), and the sweep itself never needs
pandas. ``pa.Array.from_buffers`` asks nothing of the kind, so the results store and the
trace tables build their columns with it, from numpy arrays, as this module does. The
types are the few the store and the traces use; each builder says what it accepts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa


def _validity(values: Sequence[Any]) -> tuple[pa.Buffer | None, np.ndarray]:
    """The validity bitmap of ``values`` (``None`` is null; no bitmap when none is) and
    the mask of the valid ones."""
    valid = np.fromiter((v is not None for v in values), dtype=bool, count=len(values))
    if valid.all():
        return None, valid
    return pa.py_buffer(np.packbits(valid, bitorder="little").tobytes()), valid


def numeric(values: np.ndarray) -> pa.Array:
    """An array of ``values`` (a one-dimensional numpy array of booleans or of a
    fixed-width integer or float type, native byte order), without nulls."""
    values = np.ascontiguousarray(values)
    typ = pa.from_numpy_dtype(values.dtype)
    if values.dtype == np.bool_:
        # Arrow's booleans are bits, numpy's bytes.
        data = pa.py_buffer(np.packbits(values, bitorder="little").tobytes())
    else:
        data = pa.py_buffer(values)
    return pa.Array.from_buffers(typ, len(values), [None, data])


def strings(values: Sequence[str | None]) -> pa.Array:
    """A UTF-8 string array; ``None`` is null."""
    bitmap, _ = _validity(values)
    encoded = [b"" if v is None else v.encode("utf-8") for v in values]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int32)
    np.cumsum([len(b) for b in encoded], out=offsets[1:])
    data = pa.py_buffer(b"".join(encoded))
    return pa.Array.from_buffers(
        pa.string(), len(values), [bitmap, pa.py_buffer(offsets), data], null_count=-1
    )


def column(values: Sequence[Any], typ: pa.DataType) -> pa.Array:
    """An array of type ``typ`` (string, uint64, int64, float64 or bool) from Python
    values of that kind (int for the integers; int or float for float64); ``None`` is
    null."""
    if pa.types.is_string(typ):
        return strings(values)
    bitmap, valid = _validity(values)
    filled = [v if ok else 0 for v, ok in zip(values, valid, strict=True)]
    if pa.types.is_boolean(typ):
        bits = np.packbits(np.array(filled, dtype=bool), bitorder="little").tobytes()
        data = pa.py_buffer(bits)
    elif typ in (pa.uint64(), pa.int64(), pa.float64()):
        data = pa.py_buffer(np.array(filled, dtype=typ.to_pandas_dtype()))
    else:
        raise TypeError(f"no builder for Arrow type {typ}")
    return pa.Array.from_buffers(typ, len(values), [bitmap, data], null_count=-1)


def table_from_rows(rows: Sequence[dict[str, Any]], schema: pa.Schema) -> pa.Table:
    """``pa.Table.from_pylist(rows, schema=schema)`` for the types :func:`column`
    builds: a missing key is null."""
    arrays = [column([row.get(field.name) for row in rows], field.type) for field in schema]
    return pa.Table.from_arrays(arrays, schema=schema)


def dictionary(indices: np.ndarray, values: Sequence[str]) -> pa.Array:
    """A dictionary array of string ``values`` indexed by ``indices`` (int32)."""
    return pa.DictionaryArray.from_arrays(numeric(indices.astype(np.int32)), strings(values))
