"""lasthop.arrowbuild builds what ``pa.array`` builds (without importing pandas)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pyarrow as pa
import pytest

from lasthop import arrowbuild

NUMERIC = [
    np.array([], dtype=np.uint64),
    np.array([0, 1, 2**64 - 1], dtype=np.uint64),
    np.array([-5, 7], dtype=np.int32),
    np.array([1.5, -0.0, np.inf], dtype=np.float64),
    np.array([True, False, True, True, False, False, False, False, True], dtype=bool),
    np.array([3, 4, 5], dtype=np.uint16)[::2],
]


@pytest.mark.parametrize("values", NUMERIC, ids=lambda v: f"{v.dtype}x{len(v)}")
def test_numeric_is_pa_array(values: np.ndarray) -> None:
    built = arrowbuild.numeric(values)
    built.validate(full=True)
    assert built.equals(pa.array(values))


def test_columns_and_rows_are_from_pylist() -> None:
    schema = pa.schema(
        [("s", pa.string()), ("u", pa.uint64()), ("f", pa.float64()), ("b", pa.bool_())]
    )
    rows = [
        {"s": "x", "u": 1, "f": 1.5, "b": True},
        {"s": None, "f": 2, "b": None},
        {"s": "é😀", "u": 2**64 - 1, "f": None, "b": False},
        *({"s": str(i), "u": i, "f": i / 3, "b": i % 3 == 0} for i in range(20)),
    ]
    built = arrowbuild.table_from_rows(rows, schema)
    built.validate(full=True)
    assert built.equals(pa.Table.from_pylist(rows, schema=schema))
    column = arrowbuild.column([1, None, 3], pa.int64())
    assert column.equals(pa.array([1, None, 3], pa.int64()))
    strings = arrowbuild.dictionary(np.array([1, 0, 1]), ["a", "b"])
    indices = pa.array([1, 0, 1], pa.int32())
    assert strings.equals(pa.DictionaryArray.from_arrays(indices, ["a", "b"]))


def test_nothing_here_imports_pandas() -> None:
    script = (
        "import sys, numpy as np, pyarrow as pa\n"
        "from lasthop import arrowbuild as a\n"
        "a.numeric(np.arange(3)); a.strings(['x', None]); a.column([True, None], pa.bool_())\n"
        "a.table_from_rows([{'x': 1}], pa.schema([('x', pa.uint64())]))\n"
        "print('pandas' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout == "False\n"
