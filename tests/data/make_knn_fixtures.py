#!/usr/bin/env python3
"""Writes tests/data/knn_items.parquet, tests/data/knn_queries.parquet and
sql/tensor_nearest_generated.slt: k-nearest-neighbour joins (a window ranking every
(query, item) pair of a cross join by a distance or similarity, then a filter on the rank),
with the pairs numpy ranks.

    python3 tests/data/make_knn_fixtures.py      # numpy, pyarrow>=15

Items: 240 rows, `id`, `g` (id % 4), `e` a float32 [16] embedding written by pyarrow in row
groups of 64 rows; row 7 NULL, row 13 all zeros (its cosine similarity is NaN: the cosine
queries leave it out), rows 40 and 41 copies of row 12 and row 150 of row 99. Queries: 10 rows,
`id`, `v` float32 [16] and `v64` the same values in float64; row 3 (id 3) NULL, rows 5 and 6
share the id 5 (a PARTITION BY q.id ranks the pairs of both), row 0 is item 12's vector.

Every component is an integer in [-4, 4]: the distances and inner products are exact in any
precision and order, so equal ones tie exactly (broken by id, or returned together by rank()).
The cosine similarities the queries print (float32 for float32 operands) are checked to be
either equal to the bit or apart by far more than float32's rounding. Every expected row is
numpy's (float64), ranked as SQL does: NULL keys last in ascending order and first in
descending order. Only ids are printed, every result in a total order.
"""

import itertools
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent
ITEMS_FILE = HERE / "knn_items.parquet"
QUERIES_FILE = HERE / "knn_queries.parquet"
SLT = HERE.parent.parent / "sql" / "tensor_nearest_generated.slt"
ITEMS, QUERIES, DIM = 240, 10, 16
NULL_ITEM, ZERO_ITEM = 7, 13
COPIES = {40: 12, 41: 12, 150: 99}  # copy -> original: exact ties, ranked by id
QUERY_IDS = [0, 1, 2, 3, 4, 5, 5, 6, 7, 8]
NULL_QUERY = 3  # the row (and id) whose vector is NULL


def tensor_column(values, dtype, null_row):
    mask = pa.array([i == null_row for i in range(len(values))])
    flat = pa.array(values.reshape(-1).astype(dtype))
    storage = pa.FixedSizeListArray.from_arrays(flat, DIM, mask=mask)
    return pa.ExtensionArray.from_storage(pa.fixed_shape_tensor(flat.type, [DIM]), storage)


def main():
    rng = np.random.default_rng(7)
    e = rng.integers(-4, 5, (ITEMS, DIM)).astype(np.float64)
    e[ZERO_ITEM] = 0
    for copy, original in COPIES.items():
        e[copy] = e[original]
    v = rng.integers(-4, 5, (QUERIES, DIM)).astype(np.float64)
    v[0] = e[12]
    item_ids = np.arange(ITEMS, dtype=np.int64)
    pq.write_table(pa.table({
        "id": item_ids,
        "g": item_ids % 4,
        "e": tensor_column(e, np.float32, NULL_ITEM),
    }), ITEMS_FILE, row_group_size=64)
    pq.write_table(pa.table({
        "id": np.array(QUERY_IDS, dtype=np.int64),
        "v": tensor_column(v, np.float32, NULL_QUERY),
        "v64": tensor_column(v, np.float64, NULL_QUERY),
    }), QUERIES_FILE)

    # Every (query row, item) pair: the three measures in float64, None where a vector is NULL.
    with np.errstate(invalid="ignore"):
        measures = {
            "l2": np.sqrt(((v[:, None, :] - e[None, :, :]) ** 2).sum(axis=2)),
            "ip": v @ e.T,
            "cos": (v @ e.T) / (np.linalg.norm(v, axis=1)[:, None] * np.linalg.norm(e, axis=1)),
        }
    check_cosine_gaps(v, e)
    pairs = [
        {"qid": QUERY_IDS[r], "tid": i, "g": i % 4,
         **{m: None if NULL_QUERY == r or i == NULL_ITEM else float(x[r, i])
            for m, x in measures.items()}}
        for r in range(QUERIES) for i in range(ITEMS)
    ]

    def ranked(key, desc=False, nulls_first=None, partition=("qid",), then=("tid",),
               func="row_number", where=None):
        """The pairs `where` keeps, each with `func`'s value in its partition (ordered by
        `key`, then by `then` ascending) as "rn", in the order (partition, key, then, ids)."""
        nulls_first = desc if nulls_first is None else nulls_first
        rows = [p for p in pairs if where is None or where(p)]

        def order(p):
            x = p[key]
            return ((0 if nulls_first else 2) if x is None else 1,
                    0.0 if x is None else (-x if desc else x))

        # Then by id, as the outer ORDER BYs do (rank() leaves ties in the window's order).
        rows.sort(key=lambda p: ([p[c] for c in partition], order(p), [p[c] for c in then],
                                 p["tid"], p["qid"]))
        out = []
        for _, group in itertools.groupby(rows, key=lambda p: [p[c] for c in partition]):
            rank, dense, last = 0, 0, None
            for n, p in enumerate(group, 1):
                now = (order(p), [p[c] for c in then])
                if now != last:
                    rank, dense, last = n, dense + 1, now
                out.append({**p, "rn": {"row_number": n, "rank": rank, "dense_rank": dense}[func]})
        return out

    def ids(rows, k, cols=("qid", "tid"), lt=False):
        kept = [p for p in rows if (p["rn"] < k if lt else p["rn"] <= k)]
        return [" ".join(str(p[c]) for c in cols) for p in kept]

    out = [
        "# Generated by tests/data/make_knn_fixtures.py from numpy; do not edit.",
        f"# numpy {np.__version__}, pyarrow {pa.__version__}.",
        "",
        "statement ok",
        "CREATE EXTERNAL TABLE items STORED AS PARQUET LOCATION 'tests/data/knn_items.parquet';",
        "",
        "statement ok",
        "CREATE EXTERNAL TABLE queries STORED AS PARQUET LOCATION 'tests/data/knn_queries.parquet';",
        "",
    ]

    def query(comment, sql, expected, types="II"):
        out.extend([f"# {comment}", f"query {types}", sql, "----", *expected, ""])

    l2 = "tensor_l2_distance(t.e, q.v)"
    cos = "tensor_cosine_similarity(t.e, q.v)"
    ip = "tensor_inner_product(t.e, q.v)"
    no_zero = lambda p: p["tid"] != ZERO_ITEM  # noqa: E731

    def qualify(call, k, direction="", frm="queries q CROSS JOIN items t", where="", op="<="):
        d = f" {direction}" if direction else ""
        return (f"SELECT q.id AS qid, t.id FROM {frm}{where} QUALIFY row_number() OVER "
                f"(PARTITION BY q.id ORDER BY {call}{d}, t.id) {op} {k} "
                f"ORDER BY qid, {call}{d}, t.id;")

    def subquery(call, k, direction="", frm="queries q CROSS JOIN items t", where="", op="<="):
        d = f" {direction}" if direction else ""
        return (f"SELECT qid, id FROM (SELECT q.id AS qid, t.id, row_number() OVER (PARTITION BY "
                f"q.id ORDER BY {call}{d}, t.id) AS rn FROM {frm}{where}) WHERE rn {op} {k} "
                "ORDER BY qid, rn;")

    # --- tensor_l2_distance, the forms of the query ---
    near = ranked("l2")
    query("the 3 nearest items of each query (QUALIFY; the NULL query's distances are all NULL: "
          "ids 0, 1, 2; id 5 ranks the pairs of both its rows)", qualify(l2, 3), ids(near, 3))
    query("the same as a subquery and WHERE rn <= 3", subquery(l2, 3), ids(near, 3))
    query("WHERE rn < 3: the 2 nearest", subquery(l2, 3, op="<"), ids(near, 3, lt=True))
    query("k = 1, FROM queries q, items t", qualify(l2, 1, frm="queries q, items t"), ids(near, 1))
    query("k = 10, items first: FROM items t, queries q",
          qualify(l2, 10, frm="items t, queries q"), ids(near, 10))
    query("k = 10, items first, as a subquery with WHERE rn < 11",
          subquery(l2, 11, frm="items t CROSS JOIN queries q", op="<"), ids(near, 10))
    query("the arguments swapped: tensor_l2_distance(q.v, t.e)",
          qualify("tensor_l2_distance(q.v, t.e)", 3), ids(near, 3))
    query("float64 query vectors against float32 items (q.v64)",
          subquery("tensor_l2_distance(t.e, q.v64)", 3), ids(near, 3))
    query("the brief's shape selecting the distance d, ordered by it outside",
          "SELECT qid, id FROM (SELECT q.id AS qid, t.id, tensor_l2_distance(t.e, q.v) AS d FROM "
          "queries q CROSS JOIN items t QUALIFY row_number() OVER (PARTITION BY q.id ORDER BY "
          f"{l2}, t.id) <= 3) ORDER BY qid, d, id;", ids(near, 3))
    far = ranked("l2", desc=True)
    query("the 3 farthest (DESC: the NULL item 7 first, NULLS FIRST)", qualify(l2, 3, "DESC"),
          ids(far, 3))
    query("the 3 farthest as a subquery", subquery(l2, 3, "DESC"), ids(far, 3))
    query("ASC NULLS FIRST: the NULL item first, then the 2 nearest",
          subquery(l2, 3, "ASC NULLS FIRST"), ids(ranked("l2", nulls_first=True), 3))
    query("DESC NULLS LAST: the 3 farthest non-NULL",
          subquery(l2, 3, "DESC NULLS LAST"), ids(ranked("l2", desc=True, nulls_first=False), 3))

    # --- the other measures ---
    query("tensor_cosine_similarity DESC: the 3 most similar (the zero item 13 left out)",
          qualify(cos, 3, "DESC", where=" WHERE t.id <> 13"),
          ids(ranked("cos", True, where=no_zero), 3))
    query("tensor_cosine_similarity ASC: the 3 least similar, as a subquery",
          subquery(cos, 3, "ASC", where=" WHERE t.id <> 13"), ids(ranked("cos", where=no_zero), 3))
    query("tensor_cosine_similarity DESC, k = 10, items first, float64 queries",
          subquery("tensor_cosine_similarity(t.e, q.v64)", 10, "DESC", frm="items t, queries q",
                   where=" WHERE t.id <> 13"), ids(ranked("cos", True, where=no_zero), 10))
    best_ip = ranked("ip", True)
    query("tensor_inner_product DESC: the 3 largest (the zero item's is 0)",
          qualify(ip, 3, "DESC"), ids(best_ip, 3))
    query("tensor_inner_product DESC, k = 10, arguments swapped, as a subquery",
          subquery("tensor_inner_product(q.v, t.e)", 10, "DESC"), ids(best_ip, 10))

    # --- filters on either side, and after the ranking ---
    query("WHERE t.g = 1: the 3 nearest items of group 1",
          qualify(l2, 3, where=" WHERE t.g = 1"),
          ids(ranked("l2", where=lambda p: p["g"] == 1), 3))
    query("WHERE q.id IN (1, 5): two queries (id 5 has two rows)",
          subquery(l2, 3, where=" WHERE q.id IN (1, 5)"),
          ids(ranked("l2", where=lambda p: p["qid"] in (1, 5)), 3))
    query("fewer items than k: WHERE t.id < 12 AND t.g = 1 leaves 1, 5, 9 (k = 10)",
          qualify(l2, 10, where=" WHERE t.id < 12 AND t.g = 1"),
          ids(ranked("l2", where=lambda p: p["tid"] < 12 and p["g"] == 1), 10))
    query("no item at all: WHERE t.id < 0", qualify(l2, 3, where=" WHERE t.id < 0"), [])
    query("WHERE rn <= 3 AND id % 2 = 0: the even ones of the 3 nearest (filtered after)",
          subquery(l2, 3).replace("rn <= 3", "rn <= 3 AND id % 2 = 0"),
          [r for r in ids(near, 3) if int(r.split()[1]) % 2 == 0])
    query("WHERE t.id % 2 = 0 inside: the 3 nearest even items",
          subquery(l2, 3, where=" WHERE t.id % 2 = 0"),
          ids(ranked("l2", where=lambda p: p["tid"] % 2 == 0), 3))
    query("WHERE rn = 1: the nearest", subquery(l2, 1, op="="), ids(near, 1))

    # --- other windows ---
    known = lambda p: p["qid"] != NULL_QUERY  # noqa: E731 (its NULL distances would all tie)
    tied = ids(ranked("l2", then=(), func="rank", where=known), 6)
    query(f"rank() <= 6 with the distance alone: ties at the 6th place all kept ({len(tied)} rows "
          "for 8 query ids; the NULL query left out)",
          "SELECT q.id AS qid, t.id FROM queries q CROSS JOIN items t WHERE q.v IS NOT NULL "
          f"QUALIFY rank() OVER (PARTITION BY q.id ORDER BY {l2}) <= 6 ORDER BY qid, {l2}, t.id;",
          tied)
    tied = ids(ranked("ip", True, nulls_first=False, then=(), func="rank", where=known), 3)
    query(f"rank() <= 3 of tensor_inner_product DESC NULLS LAST, as a subquery ({len(tied)} rows)",
          f"SELECT qid, id FROM (SELECT q.id AS qid, t.id, {ip} AS s, rank() OVER (PARTITION BY "
          f"q.id ORDER BY {ip} DESC NULLS LAST) AS r FROM queries q, items t "
          "WHERE q.v IS NOT NULL) WHERE r <= 3 ORDER BY qid, s DESC, id;", tied)
    query("dense_rank() <= 2: every item at the 2 nearest distances",
          "SELECT q.id AS qid, t.id FROM queries q CROSS JOIN items t WHERE q.v IS NOT NULL "
          f"QUALIFY dense_rank() OVER (PARTITION BY q.id ORDER BY {l2}) <= 2 "
          f"ORDER BY qid, {l2}, t.id;",
          ids(ranked("l2", then=(), func="dense_rank", where=known), 2))
    glob = ranked("l2", partition=(), then=("qid", "tid"))
    query("no PARTITION BY: the 10 nearest of all pairs",
          f"SELECT qid, id FROM (SELECT q.id AS qid, t.id, row_number() OVER (ORDER BY {l2}, q.id, "
          "t.id) AS rn FROM queries q CROSS JOIN items t) WHERE rn <= 10 ORDER BY rn;",
          ids(glob, 10))
    query("no PARTITION BY, QUALIFY, k = 3",
          "SELECT q.id AS qid, t.id FROM queries q, items t QUALIFY row_number() OVER (ORDER BY "
          f"{l2}, q.id, t.id) <= 3 ORDER BY {l2}, qid, t.id;", ids(glob, 3))
    query("PARTITION BY t.id: the 2 nearest queries of each of the items 0-23 (item 7's all NULL)",
          f"SELECT t.id, q.id AS qid FROM queries q CROSS JOIN items t WHERE t.id < 24 QUALIFY "
          f"row_number() OVER (PARTITION BY t.id ORDER BY {l2}, q.id) <= 2 "
          f"ORDER BY t.id, {l2}, qid;",
          ids(ranked("l2", partition=("tid",), then=("qid",), where=lambda p: p["tid"] < 24), 2,
              cols=("tid", "qid")))
    query("PARTITION BY q.id, t.g: the nearest item of each group for the queries 0-2",
          f"SELECT q.id AS qid, t.g, t.id FROM queries q CROSS JOIN items t WHERE q.id < 3 QUALIFY "
          f"row_number() OVER (PARTITION BY q.id, t.g ORDER BY {l2}, t.id) = 1 ORDER BY qid, t.g;",
          ids(ranked("l2", partition=("qid", "g"), where=lambda p: p["qid"] < 3), 1,
              cols=("qid", "g", "tid")), types="III")

    SLT.write_text("\n".join(out).rstrip("\n") + "\n")
    count = sum(line.startswith("query") for line in out)
    print(f"wrote {ITEMS_FILE}, {QUERIES_FILE} and {SLT} ({count} queries)")


def check_cosine_gaps(v, e):
    """The cosine queries print the 10 most and 3 least similar items of each query id: those
    similarities either come from the same (dot, |e|^2, |q|^2) (equal to the bit in any
    precision) or differ by far more than float32's rounding, so numpy's float64 order is the
    order of the functions' float32."""
    keep = [i for i in range(len(e)) if i not in (NULL_ITEM, ZERO_ITEM)]
    for qid in set(QUERY_IDS) - {NULL_QUERY}:
        rows = [r for r, q in enumerate(QUERY_IDS) if q == qid]
        keys = {(v[r] @ e[i], e[i] @ e[i], v[r] @ v[r]) for r in rows for i in keep}
        cos = np.sort([d / np.sqrt(n) / np.sqrt(qq) for d, n, qq in keys])
        gaps = np.diff(np.concatenate([cos[:4], cos[-11:]]))
        assert np.delete(gaps, 3).min() > 1e-5, f"query {qid}: cosine similarities too close"


if __name__ == "__main__":
    main()
