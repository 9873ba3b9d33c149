#!/usr/bin/env python3
"""Writes python/python/datafusion_tensor/functions.pyi, the type stub of the builders that
`datafusion_tensor.functions` makes from the package's function registry at import (so that
editors complete them). Run after adding a function, with the package installed:

    python3 python/tools/make_stubs.py

`python/tests/test_dataframe_api.py` fails when the committed stub differs from what this
writes.
"""

from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "python" / "datafusion_tensor" / "functions.pyi"

HEADER = '''"""Type stub of datafusion_tensor.functions (written by python/tools/make_stubs.py)."""

from typing import Any

from ._internal import Expr as Expr, SortExpr as SortExpr

ExprLike = Expr | None | bool | int | float | str | list[Any]

SIGNATURES: list[tuple[str, str, list[str], int, str]]

def col(name: str) -> Expr: ...
def lit(value: Any) -> Expr: ...
def call(name: str, *args: ExprLike, distinct: bool = ..., **options: ExprLike) -> Expr: ...
def count(expr: ExprLike = ..., distinct: bool = ...) -> Expr: ...
def sum(expr: ExprLike, distinct: bool = ...) -> Expr: ...
def avg(expr: ExprLike, distinct: bool = ...) -> Expr: ...
def mean(expr: ExprLike, distinct: bool = ...) -> Expr: ...
def min(expr: ExprLike) -> Expr: ...
def max(expr: ExprLike) -> Expr: ...
def array_agg(expr: ExprLike, distinct: bool = ...) -> Expr: ...
'''


def render(signatures):
    lines = [HEADER]
    for name, kind, names, required, description in signatures:
        summary = description.split(". ")[0].strip().rstrip(".").replace('"""', "'''")
        if kind == "fixed":
            params = [f"{n}: ExprLike" if i < required else f"{n}: ExprLike = ..."
                      for i, n in enumerate(names)]
            # `fn` and the like are Python keywords or builtins only by accident; all are
            # valid identifiers here.
            signature = ", ".join(params)
        elif kind == "aggregate":
            params = [f"{n}: ExprLike" if i < required else f"{n}: ExprLike = ..."
                      for i, n in enumerate(names)]
            signature = ", ".join(params + ["*", "distinct: bool = ..."])
        elif kind == "variadic":
            signature = ", ".join(["*args: ExprLike"] + [f"{n}: ExprLike = ..." for n in names])
        else:
            signature = "*args: ExprLike"
        lines.append(f"def {name}({signature}) -> Expr:\n    \"\"\"{summary}.\"\"\"\n")
    return "\n".join(lines)


def main():
    from datafusion_tensor import functions

    OUT.write_text(render(functions.SIGNATURES))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
