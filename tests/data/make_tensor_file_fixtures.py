#!/usr/bin/env python3
"""Writes the tensor files of sql/tensor_files_generated.slt under tests/data/tensor_files/,
and the suite itself, its expected values from numpy.

    python3 tests/data/make_tensor_file_fixtures.py   # numpy>=2, safetensors, ml_dtypes

Every file is written by the real library, as users' files are: `.npy`/`.npz` by numpy
(`np.save`, `np.savez`, `np.savez_compressed`), safetensors by the `safetensors` package
(`safetensors.numpy.save_file`; bfloat16 through `safetensors.serialize_file` and a
`TensorSpec` over ml_dtypes' bfloat16 array, as `safetensors.torch` hands torch's over). The broken files under bad/ are good
files with their headers edited or their bytes cut.
"""

import json
import struct
from pathlib import Path

import ml_dtypes
import numpy as np
import safetensors
import safetensors.numpy

from make_reduce_fixtures import fmt  # Arrow's display exactly (ryu; float16 through float32)

HERE = Path(__file__).resolve().parent
OUT = HERE / "tensor_files"
BAD = OUT / "bad"
SUITE = HERE.parent.parent / "sql" / "tensor_files_generated.slt"
REL = "tests/data/tensor_files"

DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
          np.uint64, np.float16, np.float32, np.float64]

rng = np.random.default_rng(47)
cases = []


def sample(dtype, shape, gen=None):
    """Values of `dtype`: integers with their extremes, floats with -0.0 and inf."""
    gen = rng if gen is None else gen
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return gen.integers(0, 2, size=shape).astype(np.bool_)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        lo, hi = max(info.min, -1000), min(info.max, 1000)
        out = gen.integers(lo, hi, size=shape, endpoint=True).astype(dtype)
        if out.size:
            out.flat[0] = info.max
            out.flat[-1] = info.min
        return out
    values = (gen.standard_normal(size=shape) * 8).astype(dtype)
    if values.size >= 3:
        values.flat[1] = -0.0
        values.flat[2] = np.inf
    return values


def rows_case(title, file, arr):
    """A read_npy case: every row of `arr` (axis 0), in order."""
    arr = np.asarray(arr)
    rows = [arr[()]] if arr.ndim == 0 else list(arr)
    lines = [f"{i} {fmt(r)}" for i, r in enumerate(rows)]
    cases.append((title, f"SELECT row_index, x FROM read_npy('{REL}/{file}') ORDER BY row_index;", "IT", lines))


def npy_files():
    for dtype in DTYPES:
        name = np.dtype(dtype).name
        arr = sample(dtype, (3, 2, 2))
        np.save(OUT / f"c_{name}.npy", arr)
        rows_case(f"{name}, C order, [3, 2, 2]", f"c_{name}.npy", arr)
        if np.dtype(dtype).itemsize > 1:
            be = arr.astype(np.dtype(dtype).newbyteorder(">"))
            np.save(OUT / f"be_{name}.npy", be)
            rows_case(f"{name}, big-endian ('>'), [3, 2, 2]", f"be_{name}.npy", be)
        f = np.asfortranarray(sample(dtype, (4, 3, 2)))
        np.save(OUT / f"f_{name}.npy", f)
        rows_case(f"{name}, Fortran order, [4, 3, 2]", f"f_{name}.npy", f)
    # Dimensions: 0-d, 1-d, 2-d Fortran, 4-d Fortran, empty.
    for file, arr in [
        ("scalar.npy", np.float64(2.5)),
        ("vector.npy", np.arange(5, dtype=np.int32)),
        ("f_matrix.npy", np.asfortranarray(np.arange(12, dtype=np.float32).reshape(4, 3))),
        ("f_4d.npy", np.asfortranarray(np.arange(48, dtype=np.int16).reshape(2, 3, 4, 2))),
        ("one_row_f.npy", np.asfortranarray(np.arange(6, dtype=np.float32).reshape(1, 2, 3))),
        ("empty_rows.npy", np.zeros((0, 3), dtype=np.float32)),
        ("empty_inner.npy", np.zeros((3, 0), dtype=np.float32)),
    ]:
        np.save(OUT / file, arr)
        rows_case(f"{file}", file, arr)
    # A Fortran-order file's rows keep their layout (a permutation, logical shape as numpy's).
    cases.append(("a Fortran-order file's type: rows as stored, a permutation",
                  f"SELECT DISTINCT tensor_shape(x), arrow_typeof(x) FROM read_npy('{REL}/f_float32.npy');",
                  "TT", ["[3, 2] FixedSizeList(6 x Float32)"]))
    # A glob of three files: a filename column; rows of every file in path order.
    (OUT / "parts").mkdir(exist_ok=True)
    parts = [rng.standard_normal((n, 3)).astype(np.float32) for n in (2, 0, 3)]
    lines = []
    for i, part in enumerate(parts):
        np.save(OUT / "parts" / f"part-{i}.npy", part)
        lines += [f"{REL}/parts/part-{i}.npy {j} {fmt(r)}" for j, r in enumerate(part)]
    cases.append(("a glob: the rows of every file, a filename column",
                  f"SELECT filename, row_index, x FROM read_npy('{REL}/parts/part-*.npy') ORDER BY filename, row_index;", "TIT", lines))
    big = sample(np.float64, (1000, 4))
    np.save(OUT / "rows.npy", big)
    cases.append(("row ranges: a filter on row_index reads those rows only",
                  f"SELECT row_index, x FROM read_npy('{REL}/rows.npy') WHERE row_index BETWEEN 500 AND 502 ORDER BY row_index;",
                  "IT", [f"{i} {fmt(big[i])}" for i in range(500, 503)]))
    cases.append(("row ranges: OFFSET and LIMIT in file order",
                  f"SELECT row_index, x FROM read_npy('{REL}/rows.npy') ORDER BY row_index LIMIT 2 OFFSET 998;",
                  "IT", [f"{i} {fmt(big[i])}" for i in range(998, 1000)]))
    (OUT / "mixed").mkdir(exist_ok=True)
    np.save(OUT / "mixed" / "a.npy", np.zeros((2, 2, 2), dtype=np.float32))
    np.save(OUT / "mixed" / "b.npy", np.zeros((2, 3), dtype=np.float32))
    stacked = np.concatenate(parts)
    cases.append(("a glob's rows, summed as numpy sums them",
                  f"SELECT count(*), sum(tensor_sum(x)) > {float(stacked.sum()) - 1e-3} AND sum(tensor_sum(x)) < {float(stacked.sum()) + 1e-3} FROM read_npy('{REL}/parts/*.npy');",
                  "IB", [f"{len(stacked)} true"]))


def named_lines(arrays, names, file_dtype):
    """name, dtype, shape, tensor of each named array, as the tables print them (shapes
    padded with leading 1s to the table's ndim; values promoted to the table's type)."""
    ndim = max(a.ndim for a in arrays.values())
    lines = []
    for name in names:
        a = arrays[name]
        padded = a.reshape((1,) * (ndim - a.ndim) + a.shape)
        shape = "[" + ", ".join(str(d) for d in a.shape) + "]"
        lines.append(f"{name} {file_dtype(a, name)} {shape} {fmt(padded.astype(promoted(arrays)))}")
    return lines


def promoted(arrays):
    out = None
    for a in arrays.values():
        dt = np.float32 if a.dtype == ml_dtypes.bfloat16 else a.dtype
        out = dt if out is None else np.promote_types(out, dt)
    return out


def npz_files():
    arrays = {
        "weights": sample(np.float32, (3, 4)),
        "bias": sample(np.float32, (4,)),
        "ids": np.arange(6, dtype=np.int16).reshape(2, 3),
        "f_order": np.asfortranarray(sample(np.float32, (2, 3))),
        "scalar": np.float32(7.5),
    }
    np.savez(OUT / "arrays.npz", **arrays)
    np.savez_compressed(OUT / "compressed.npz", **arrays)
    names = list(arrays)
    for file in ("arrays.npz", "compressed.npz"):
        cases.append((f"{file}: one row per array, in archive order",
                      f"SELECT name, dtype, shape, tensor FROM read_npz('{REL}/{file}');", "TTTT",
                      named_lines(arrays, names, lambda a, n: a.dtype.name)))
    w = arrays["weights"].astype(promoted(arrays))
    cases.append(("compressed.npz: a filter on name reads that array only",
                  f"SELECT name, tensor FROM read_npz('{REL}/compressed.npz') WHERE name LIKE 'w%';",
                  "TT", [f"weights {fmt(w)}"]))


ST_NAMES = {np.dtype(t): n for t, n in [
    (np.bool_, "BOOL"), (np.int8, "I8"), (np.int16, "I16"), (np.int32, "I32"), (np.int64, "I64"),
    (np.uint8, "U8"), (np.uint16, "U16"), (np.uint32, "U32"), (np.uint64, "U64"),
    (np.float16, "F16"), (np.float32, "F32"), (np.float64, "F64")]}


def safetensors_files():
    tensors = {
        "encoder.layer0.weight": sample(np.float32, (4, 3)),
        "encoder.layer0.bias": sample(np.float32, (3,)),
        "decoder.weight": sample(np.float16, (2, 3)),
        "position_ids": np.arange(5, dtype=np.int64).reshape(1, 5),
    }
    safetensors.numpy.save_file(tensors, str(OUT / "model.safetensors"),
                                metadata={"format": "np", "source": "make_tensor_file_fixtures.py"})
    names = sorted(tensors)
    cases.append(("model.safetensors: one row per tensor, by name",
                  f"SELECT name, dtype, shape, tensor FROM read_safetensors('{REL}/model.safetensors');",
                  "TTTT", named_lines(tensors, names, lambda a, n: ST_NAMES[a.dtype])))
    cases.append(("model.safetensors: the encoder's tensors and their norms (numpy's)",
                  f"SELECT name, round(tensor_norm(tensor), 3) FROM read_safetensors('{REL}/model.safetensors') WHERE name LIKE 'encoder.%' ORDER BY name;",
                  "TR", [f"{n} {round(float(np.linalg.norm(tensors[n].astype(np.float64))), 3)}"
                         for n in names if n.startswith("encoder.")]))
    cases.append(("model.safetensors: the header's __metadata__",
                  f"SELECT key, value FROM read_safetensors_metadata('{REL}/model.safetensors');",
                  "TT", ["format np", "source make_tensor_file_fixtures.py"]))
    # Every dtype, one file each.
    for dtype, st in ST_NAMES.items():
        a = sample(dtype, (2, 3))
        safetensors.numpy.save_file({"t": a}, str(OUT / f"st_{dtype.name}.safetensors"))
        cases.append((f"safetensors {st}",
                      f"SELECT dtype, tensor FROM read_safetensors('{REL}/st_{dtype.name}.safetensors');",
                      "TT", [f"{st} {fmt(a)}"]))
    # bfloat16, as torch writes it: read as float32, exactly.
    bf = (rng.standard_normal((2, 3)) * 4).astype(ml_dtypes.bfloat16)
    bf = np.ascontiguousarray(bf)
    safetensors.serialize_file(
        {"w": safetensors.TensorSpec(dtype="bfloat16", shape=[2, 3], data_ptr=bf.ctypes.data,
                                     data_len=bf.nbytes)},
        str(OUT / "bf16.safetensors"))
    cases.append(("safetensors BF16: read as float32, exactly",
                  f"SELECT dtype, tensor, tensor_type(tensor) FROM read_safetensors('{REL}/bf16.safetensors');",
                  "TTT", [f"BF16 {fmt(bf.astype(np.float32))} arrow.variable_shape_tensor<Float32, ndim 2>"]))


def bad_files():
    BAD.mkdir(exist_ok=True)
    good = OUT / "c_float32.npy"
    data = good.read_bytes()
    (BAD / "truncated.npy").write_bytes(data[: len(data) - 7])
    header_end = data.index(b"\n") + 1
    text = data[10:header_end].decode()
    def with_header(new_text, out):
        new_text = new_text.ljust(len(text) - 1) + "\n"
        (BAD / out).write_bytes(data[:8] + struct.pack("<H", len(new_text)) + new_text.encode() + data[header_end:])
    with_header(text.replace("(3, 2, 2)", "(4611686018427387904, 4611686018427387904)").rstrip(), "huge_shape.npy")
    with_header(text.replace("'<f4'", "'<f8'").rstrip(), "lying_dtype.npy")
    with_header(text.replace("'<f4'", "'<U4'").rstrip(), "unicode.npy")
    np.save(BAD / "object.npy", np.array([{"a": 1}, None], dtype=object), allow_pickle=True)
    (BAD / "not_npy.npy").write_bytes(b"PK\x03\x04 this is not an npy file at all")
    (BAD / "big_header_len.npy").write_bytes(b"\x93NUMPY\x02\x00" + struct.pack("<I", 0xFFFFFFF0) + b"{")
    st = (OUT / "model.safetensors").read_bytes()
    (BAD / "truncated.safetensors").write_bytes(st[: len(st) - 5])
    n = struct.unpack("<Q", st[:8])[0]
    header = json.loads(st[8 : 8 + n])
    header["encoder.layer0.weight"]["shape"] = [400, 3]
    text = json.dumps(header).encode()
    (BAD / "lying_shape.safetensors").write_bytes(struct.pack("<Q", len(text)) + text + st[8 + n :])
    (BAD / "huge_header.safetensors").write_bytes(struct.pack("<Q", 1 << 62) + b"{}")
    (BAD / "not_zip.npz").write_bytes(b"not a zip archive")
    # A valid file (no data: one dimension is 0) whose other dimension no Arrow list holds.
    empty = np.zeros((0, 3_000_000_000), dtype=np.uint8)
    safetensors.numpy.save_file({"wide": empty}, str(BAD / "wide.safetensors"))


def write_suite():
    out = ["# Generated by tests/data/make_tensor_file_fixtures.py from numpy and safetensors; do not edit.",
           f"# numpy {np.__version__}, safetensors {safetensors.__version__}.",
           "# Every expected value is numpy's view of the file the real library wrote.", ""]
    for title, sql, types, lines in cases:
        out += [f"# {title}", f"query {types}", sql, "----", *lines, ""]
    SUITE.write_text("\n".join(out))


if __name__ == "__main__":
    OUT.mkdir(exist_ok=True)
    npy_files()
    npz_files()
    safetensors_files()
    bad_files()
    write_suite()
    print(f"{len(cases)} cases -> {SUITE}")
