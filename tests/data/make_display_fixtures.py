#!/usr/bin/env python3
"""Writes tests/data/tensor_summary.expected.tsv: how the CLI's tables print large tensors,
as numpy prints them (np.array2string with numpy's defaults threshold=1000, edgeitems=3).

    python3 tests/data/make_display_fixtures.py

Each line is `SQL expression <TAB> expected cell`. numpy decides which elements show and where
`...` stands; the elements are written as the CLI writes them (fixture_format.fmt_scalar), and
numpy's multi-line layout is collapsed to one line (the CLI's list style: `[[0, 1, ...], ...]`).
tests/integration/cli.rs runs each expression in `SELECT ... AS t` and compares the table cell.
"""

import re
from pathlib import Path

import numpy as np
from fixture_format import fmt_scalar

OUT = Path(__file__).resolve().parent / "tensor_summary.expected.tsv"


def summarised(a):
    text = np.array2string(a, separator=", ", threshold=1000, edgeitems=3,
                           formatter={"all": lambda v: fmt_scalar(v, a.dtype)})
    text = re.sub(r"\s+", " ", text)
    return text.replace("[ ", "[").replace(" ]", "]")


def main():
    cases = []
    for shape in [(1001,), (40, 50), (3, 10, 100), (2, 600), (6, 200), (10, 100), (2, 3, 4, 50)]:
        n = int(np.prod(shape))
        a = np.arange(n, dtype=np.int64).reshape(shape)
        sql = f"tensor(range(0, {n}), [{', '.join(map(str, shape))}])"
        cases.append((sql, summarised(a)))
    # Floats and a permuted tensor (printed in logical order).
    a = np.arange(1500, dtype=np.float64).reshape(30, 50)
    cases.append(("tensor(arrow_cast(range(0, 1500), 'List(Float64)'), [30, 50])", summarised(a)))
    stored = np.arange(1200, dtype=np.int64).reshape(4, 300)
    cases.append(("tensor(range(0, 1200), [4, 300], NULL, [1, 0])", summarised(stored.transpose(1, 0))))
    OUT.write_text("".join(f"{sql}\t{cell}\n" for sql, cell in cases))
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
