#!/usr/bin/env python3
"""k-nearest-neighbour join: for every query vector the k nearest items, as a window over the
cross join (`QUALIFY row_number() OVER (PARTITION BY q.id ORDER BY f(t.e, q.v)) <= k`, and the
same as a subquery with `WHERE rn <= k`), side by side with numpy and faiss.

    python3 benches/compare/knn.py [--items 100000] [--queries 1000] [--dim 128] [--k 10]
                                   [--repeat 3] [--bin PATH] [--partitions 1,2] [--metrics l2,ip]

Writes target/compare/knn_items_<items>x<dim>.parquet and knn_queries_<queries>x<dim>.parquet
with pyarrow (a float32 [dim] FixedShapeTensor column `e` / `v` of standard normal values, an
int64 `id`; the items in row groups of 25,000 rows). Metric l2 is tensor_l2_distance ascending
(faiss's IndexFlatL2), ip tensor_inner_product descending (IndexFlatIP). Each CLI figure is the
best of the CLI's own "Elapsed" lines over --repeat runs of the query in one process (the
query returns qid, id, d: queries x k rows); numpy's (pyarrow read of both files, `E @ Q.T`,
the norms for l2, `argpartition` of each query's column, the k sorted) and faiss's (pyarrow
read, add, search; all cores, then one thread) the best in-process wall time. The CLI's ids
are checked against numpy's: per query the same set, or the same distances where ties differ.
"""

import argparse
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import ROOT, cli_binary, timed  # noqa: E402

import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

METRICS = {"l2": ("tensor_l2_distance", "ASC"), "ip": ("tensor_inner_product", "DESC")}


def generate(path, column, rows, dim, seed):
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    x = np.random.default_rng(seed).standard_normal((rows, dim)).astype(np.float32)
    tensors = pa.FixedShapeTensorArray.from_numpy_ndarray(x)
    table = pa.table({"id": np.arange(rows), column: tensors})
    pq.write_table(table, path, row_group_size=25_000)


def sqls(metric, k):
    func, direction = METRICS[metric]
    call = f"{func}(t.e, q.v)"
    window = f"row_number() OVER (PARTITION BY q.id ORDER BY {call} {direction})"
    return {
        "QUALIFY": f"SELECT q.id AS qid, t.id, {call} AS d FROM queries q CROSS JOIN items t "
                   f"QUALIFY {window} <= {k}",
        "subquery": f"SELECT qid, id, d FROM (SELECT q.id AS qid, t.id, {call} AS d, "
                    f"{window} AS rn FROM queries q CROSS JOIN items t) WHERE rn <= {k}",
    }


def cli(binary, items, queries, partitions, sql, repeat):
    """(best Elapsed seconds, the first run's rows as (qid, id) pairs)."""
    # --maxrows inf: CSV output too keeps only the batches up to --maxrows (40) otherwise.
    args = [binary, "--format", "csv", "--maxrows", "inf", "-c",
            f"SET datafusion.execution.target_partitions = {partitions}"]
    args += ["-c", f"CREATE EXTERNAL TABLE items STORED AS PARQUET LOCATION '{items}'"]
    args += ["-c", f"CREATE EXTERNAL TABLE queries STORED AS PARQUET LOCATION '{queries}'"]
    args += ["-c", sql] * repeat
    out, _ = timed(args)
    elapsed = [float(s) for s in re.findall(r"Elapsed ([\d.]+) seconds", out)]
    # The first result: the lines from its header to its "N row(s) fetched".
    first = out[out.index("qid,id,d\n"):].split("row(s) fetched")[0].splitlines()[1:-1]
    rows = [tuple(map(int, line.split(",")[:2])) for line in first]
    # The SET and CREATE statements' lines come first.
    return min(elapsed[3:]), rows


def read(items, queries):
    e = pq.read_table(items, columns=["e"]).column("e").combine_chunks().to_numpy_ndarray()
    q = pq.read_table(queries, columns=["v"]).column("v").combine_chunks().to_numpy_ndarray()
    return np.ascontiguousarray(e), np.ascontiguousarray(q)


def numpy_knn(items, queries, metric, k):
    """The k best items of each query (queries x k ids, best first)."""
    e, q = read(items, queries)
    score = e @ q.T  # items x queries: larger is better
    if metric == "l2":  # |e - q|^2 = |e|^2 - 2 e.q + |q|^2; |q|^2 is the same down a column
        score = 2 * score - np.einsum("ij,ij->i", e, e)[:, None]
    top = np.argpartition(-score, k - 1, axis=0)[:k]
    order = np.argsort(-np.take_along_axis(score, top, axis=0), axis=0, kind="stable")
    return np.take_along_axis(top, order, axis=0).T


def faiss_knn(faiss, items, queries, metric, k):
    e, q = read(items, queries)
    index = (faiss.IndexFlatL2 if metric == "l2" else faiss.IndexFlatIP)(e.shape[1])
    index.add(e)
    return index.search(q, k)[1]


def best(repeat, run):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def check(rows, expected, items, queries, metric, k):
    """Returns "results agree", or the first query whose ids differ other than by ties."""
    e, q = read(items, queries)
    e, q = e.astype(np.float64), q.astype(np.float64)
    got = {}
    for qid, item in rows:
        got.setdefault(qid, []).append(item)

    def measure(qid, ids):
        x = e[ids] @ q[qid] if metric == "ip" else np.linalg.norm(e[ids] - q[qid], axis=1)
        return np.sort(-x if metric == "ip" else x)

    def show(qid, ids):
        return f"{sorted(ids)} {np.round(measure(qid, ids), 4).tolist()}"

    for qid, want in enumerate(expected.tolist()):
        have = got.get(qid, [])
        if sorted(have) == sorted(want):
            continue
        tie = len(have) == k and np.allclose(measure(qid, have), measure(qid, want), rtol=1e-5)
        if not tie:
            return f"query {qid}: CLI {show(qid, have)}, numpy {show(qid, want)}"
    if len(got) != len(expected):
        return f"{len(got)} query ids, not {len(expected)}"
    return "results agree"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--dim", type=int, default=128)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bin")
    parser.add_argument("--partitions", default="1,2")
    parser.add_argument("--metrics", default="l2,ip")
    args = parser.parse_args()
    out = ROOT / "target" / "compare"
    items = out / f"knn_items_{args.items}x{args.dim}.parquet"
    queries = out / f"knn_queries_{args.queries}x{args.dim}.parquet"
    generate(items, "e", args.items, args.dim, 0)
    generate(queries, "v", args.queries, args.dim, 1)
    binary = cli_binary(args.bin)
    metrics = args.metrics.split(",")
    try:
        import faiss
    except ImportError:
        faiss = None

    times, notes = {}, []  # method -> metric -> seconds
    for metric in metrics:
        expected = numpy_knn(items, queries, metric, args.k)
        times.setdefault("numpy", {})[metric] = best(
            args.repeat, lambda: numpy_knn(items, queries, metric, args.k))
        if faiss is not None:
            threads = faiss.omp_get_max_threads()
            for label, n in ((f"faiss ({threads} threads)", threads), ("faiss (1 thread)", 1)):
                faiss.omp_set_num_threads(n)
                times.setdefault(label, {})[metric] = best(
                    args.repeat, lambda: faiss_knn(faiss, items, queries, metric, args.k))
            faiss.omp_set_num_threads(threads)
        for partitions in map(int, args.partitions.split(",")):
            for form, sql in sqls(metric, args.k).items():
                seconds, rows = cli(binary, items, queries, partitions, sql, args.repeat)
                label = f"CLI {form}, target_partitions {partitions}"
                times.setdefault(label, {})[metric] = seconds
                verdict = check(rows, expected, items, queries, metric, args.k)
                notes.append(f"{metric}, {label}: {verdict}")

    print(f"{args.items} items x {args.queries} queries of float32 [{args.dim}], k = {args.k}; "
          f"seconds, best of {args.repeat}\n")
    print("| method | " + " | ".join(f"{m} | {m} / numpy" for m in metrics) + " |")
    print("| --- |" + " --- | --- |" * len(metrics))
    for method in times:
        cells = [f"{times[method][m]:.3f} | {times[method][m] / times['numpy'][m]:.2f}"
                 for m in metrics]
        print(f"| {method} | " + " | ".join(cells) + " |")
    if faiss is None:
        print("| faiss | not installed |")
    print()
    print("\n".join(notes))


if __name__ == "__main__":
    main()
