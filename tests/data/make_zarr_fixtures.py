#!/usr/bin/env python3
"""Writes the Zarr stores of sql/zarr_generated.slt under tests/data/zarr/, and the suite
itself, its expected values from the `zarr` package reading the stores back.

    python3 tests/data/make_zarr_fixtures.py   # numpy>=2, zarr>=3 (numcodecs)

Every store is written by zarr-python, as users' stores are: Zarr v3 (`zarr_format=3`) with
each codec zarrs reads by default (bytes in both byte orders, zstd, gzip, blosc, crc32c,
transpose, sharding), and Zarr v2 (`zarr_format=2`) with its compressors, big-endian dtypes and
Fortran order. The broken stores under bad/ are good stores with their metadata edited, a chunk
cut short, or a dtype no tensor holds.
"""

import json
import shutil
from pathlib import Path

import numcodecs
import numpy as np
import zarr
import zarr.codecs as codecs

from make_reduce_fixtures import fmt  # Arrow's display exactly (ryu; float16 through float32)
from make_tensor_file_fixtures import DTYPES
from make_tensor_file_fixtures import sample as tensor_file_sample

HERE = Path(__file__).resolve().parent
OUT = HERE / "zarr"
BAD = OUT / "bad"
SUITE = HERE.parent.parent / "sql" / "zarr_generated.slt"
REL = "tests/data/zarr"

rng = np.random.default_rng(4747)
cases = []


def sample(dtype, shape):
    """make_tensor_file_fixtures' values (extremes, -0.0, inf), drawn from this script's rng."""
    return tensor_file_sample(dtype, shape, rng)


def store(name, data, **kwargs):
    """A store of one array at `name`, written by zarr; what zarr reads back from it."""
    path = OUT / name
    if path.exists():
        shutil.rmtree(path)
    arr = zarr.create_array(store=str(path), shape=data.shape, dtype=data.dtype, **kwargs)
    arr[...] = data
    return zarr.open_array(str(path), mode="r")[...]


def rows_case(title, location, arr, where=""):
    """A read_zarr case: every row of `arr` (axis 0), in order."""
    arr = np.asarray(arr)
    rows = [arr[()]] if arr.ndim == 0 else list(arr)
    lines = [f"{i} {fmt(r)}" for i, r in enumerate(rows)]
    cases.append((title, f"SELECT row_index, x FROM read_zarr({location}){where} ORDER BY row_index;",
                  "IT", lines))


def v3_stores():
    for dtype in DTYPES:
        name = np.dtype(dtype).name
        # Chunks of 2 rows: the last of 5 is short.
        back = store(f"v3_{name}", sample(dtype, (5, 2, 3)), chunks=(2, 2, 3))
        rows_case(f"v3 {name}, [5, 2, 3] in chunks of [2, 2, 3] (bytes + zstd)", f"'{REL}/v3_{name}'", back)
    data = sample(np.float32, (6, 4, 3))
    for name, kwargs in [
        ("v3_raw", dict(compressors=None)),
        ("v3_gzip", dict(compressors=codecs.GzipCodec(level=5))),
        ("v3_blosc_lz4", dict(compressors=codecs.BloscCodec(cname="lz4", clevel=5, shuffle="shuffle"))),
        ("v3_blosc_zstd_bitshuffle", dict(compressors=codecs.BloscCodec(cname="zstd", clevel=3, shuffle="bitshuffle"))),
        ("v3_crc32c", dict(compressors=[codecs.ZstdCodec(level=1), codecs.Crc32cCodec()])),
        ("v3_big_endian", dict(serializer=codecs.BytesCodec(endian="big"), compressors=None)),
        ("v3_transpose", dict(filters=[codecs.TransposeCodec(order=(2, 0, 1))])),
        ("v3_sharded", dict(chunks=(1, 2, 3), shards=(2, 4, 3))),
        ("v3_chunks_across_rows", dict(chunks=(4, 1, 2))),
    ]:
        kwargs.setdefault("chunks", (2, 4, 3))
        back = store(name, data, **kwargs)
        rows_case(f"{name}: float32 [6, 4, 3]", f"'{REL}/{name}'", back)
    # Named dimensions (v3's dimension_names): the rows' tensor type names its dimensions.
    back = store("v3_dim_names", sample(np.float32, (3, 2, 4)), chunks=(2, 2, 4),
                 dimension_names=("time", "lat", "lon"))
    rows_case("v3_dim_names: dimension names", f"'{REL}/v3_dim_names'", back)
    # bfloat16 (the zarr-extensions data type zarrs reads; zarr-python has none): metadata and
    # raw little-endian chunks written here, the values ml_dtypes' float32 view of them.
    import ml_dtypes
    path = OUT / "v3_bfloat16"
    if path.exists():
        shutil.rmtree(path)
    bf = (rng.standard_normal((3, 2)) * 4).astype(ml_dtypes.bfloat16)
    meta = json.loads((OUT / "v3_raw" / "zarr.json").read_text())
    meta.update(shape=[3, 2], data_type="bfloat16", fill_value=0.0,
                chunk_grid={"name": "regular", "configuration": {"chunk_shape": [2, 2]}})
    (path / "c" / "0").mkdir(parents=True)
    (path / "c" / "1").mkdir()
    (path / "zarr.json").write_text(json.dumps(meta, indent=2))
    (path / "c" / "0" / "0").write_bytes(np.ascontiguousarray(bf[0:2]).tobytes())
    last = np.zeros((2, 2), dtype=ml_dtypes.bfloat16)
    last[0] = bf[2]
    (path / "c" / "1" / "0").write_bytes(last.tobytes())
    rows_case("v3_bfloat16: read as float32, exactly", f"'{REL}/v3_bfloat16'", bf.astype(np.float32))
    # Chunks never written read as the fill value.
    path = OUT / "v3_fill"
    if path.exists():
        shutil.rmtree(path)
    arr = zarr.create_array(store=str(path), shape=(6, 2), dtype="f8", chunks=(2, 2), fill_value=7.5)
    arr[0:2] = np.array([[1.0, 2.0], [3.0, 4.0]])
    rows_case("v3_fill: chunks never written are the fill value", f"'{REL}/v3_fill'",
              zarr.open_array(str(path), mode="r")[...])
    # Dimensions: 0-d, 1-d, empty.
    for name, data, chunks in [
        ("v3_scalar", np.array(2.5, dtype=np.float64), ()),
        ("v3_vector", np.arange(7, dtype=np.int32), (3,)),
        ("v3_empty_rows", np.zeros((0, 3), dtype=np.float32), (2, 3)),
        ("v3_empty_inner", np.zeros((3, 0), dtype=np.float32), (2, 1)),
    ]:
        back = store(name, data, chunks=chunks)
        rows_case(f"{name}: shape {list(data.shape)}", f"'{REL}/{name}'", back)
    # A group of arrays, one nested: the array is the second argument.
    path = OUT / "v3_group"
    if path.exists():
        shutil.rmtree(path)
    root = zarr.open_group(str(path), mode="w", zarr_format=3)
    a = root.create_array("temperature", shape=(4, 3), dtype="f4", chunks=(2, 3))
    a[...] = sample(np.float32, (4, 3))
    sub = root.create_group("labels")
    b = sub.create_array("ids", shape=(3,), dtype="i8", chunks=(2,))
    b[...] = np.array([10, 20, 30])
    rows_case("v3_group: an array of a group", f"'{REL}/v3_group', 'temperature'",
              zarr.open_array(str(path), path="temperature", mode="r")[...])
    rows_case("v3_group: a nested array, its path with or without a leading /", f"'{REL}/v3_group', '/labels/ids'",
              zarr.open_array(str(path), path="labels/ids", mode="r")[...])
    # Many rows: row ranges and LIMIT read only their chunks.
    big = store("v3_rows", rng.standard_normal((1000, 4)) * 8, chunks=(64, 4))
    rows_case("v3_rows: a filter on row_index reads those rows only", f"'{REL}/v3_rows'", big[500:503], "")
    cases[-1] = (cases[-1][0], f"SELECT row_index, x FROM read_zarr('{REL}/v3_rows') WHERE row_index BETWEEN 500 AND 502 ORDER BY row_index;",
                 "IT", [f"{i} {fmt(big[i])}" for i in range(500, 503)])
    cases.append(("v3_rows: OFFSET and LIMIT in row order",
                  f"SELECT row_index, x FROM read_zarr('{REL}/v3_rows') ORDER BY row_index LIMIT 3 OFFSET 126;",
                  "IT", [f"{i} {fmt(big[i])}" for i in range(126, 129)]))
    cases.append(("v3_rows: the rows summed as numpy sums them",
                  f"SELECT count(*), abs(sum(tensor_sum(x)) - ({float(big.sum())})) < 1e-6 FROM read_zarr('{REL}/v3_rows');",
                  "IB", [f"{len(big)} true"]))


def v2_stores():
    for dtype in DTYPES:
        name = np.dtype(dtype).name
        back = store(f"v2_{name}", sample(dtype, (5, 2, 3)), chunks=(2, 2, 3), zarr_format=2)
        rows_case(f"v2 {name}, [5, 2, 3] in chunks of [2, 2, 3]", f"'{REL}/v2_{name}'", back)
    data = sample(np.float32, (6, 4, 3))
    for name, kwargs in [
        ("v2_raw", dict(compressors=None)),
        ("v2_blosc", dict(compressors=numcodecs.Blosc(cname="lz4", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE))),
        ("v2_gzip", dict(compressors=numcodecs.GZip(level=5))),
        ("v2_zstd", dict(compressors=numcodecs.Zstd(level=3))),
        ("v2_fortran", dict(order="F")),
    ]:
        back = store(name, data, chunks=(4, 2, 3), zarr_format=2, **kwargs)
        rows_case(f"{name}: float32 [6, 4, 3]", f"'{REL}/{name}'", back)
    for dtype in (">i2", ">f4", ">f8", ">u8"):
        name = "v2_be_" + np.dtype(dtype).name
        back = store(name, sample(np.dtype(dtype).newbyteorder("="), (4, 3)).astype(dtype), chunks=(3, 3),
                     zarr_format=2)
        rows_case(f"{name}: big-endian ('{dtype}')", f"'{REL}/{name}'", back)
    back = store("v2_fortran_be", sample(np.float64, (5, 3, 2)).astype(">f8"), chunks=(2, 3, 2),
                 zarr_format=2, order="F")
    rows_case("v2_fortran_be: Fortran order, big-endian", f"'{REL}/v2_fortran_be'", back)


def bad_stores():
    if BAD.exists():
        shutil.rmtree(BAD)
    BAD.mkdir()
    data = np.arange(12, dtype=np.float32).reshape(4, 3)
    # A chunk cut short (zstd frame truncated).
    arr = zarr.create_array(store=str(BAD / "truncated_chunk"), shape=(4, 3), dtype="f4", chunks=(2, 3))
    arr[...] = data
    chunk = BAD / "truncated_chunk" / "c" / "1" / "0"
    chunk.write_bytes(chunk.read_bytes()[:-4])
    # A raw chunk of the wrong size.
    arr = zarr.create_array(store=str(BAD / "short_raw_chunk"), shape=(4, 3), dtype="f4", chunks=(2, 3),
                            compressors=None)
    arr[...] = data
    chunk = BAD / "short_raw_chunk" / "c" / "0" / "0"
    chunk.write_bytes(chunk.read_bytes()[:-4])
    # Metadata that declares a huge array (no chunk is written: every element is the fill).
    arr = zarr.create_array(store=str(BAD / "huge_rows"), shape=(4, 3), dtype="f4", chunks=(2, 3))
    meta = json.loads((BAD / "huge_rows" / "zarr.json").read_text())
    meta["shape"] = [1 << 60, 3]
    (BAD / "huge_rows" / "zarr.json").write_text(json.dumps(meta))
    arr = zarr.create_array(store=str(BAD / "huge_row"), shape=(4, 3), dtype="f4", chunks=(2, 3))
    meta = json.loads((BAD / "huge_row" / "zarr.json").read_text())
    meta["shape"] = [2, 1 << 40, 1 << 20]
    meta["chunk_grid"]["configuration"]["chunk_shape"] = [1, 1 << 20, 1 << 10]
    (BAD / "huge_row" / "zarr.json").write_text(json.dumps(meta))
    arr = zarr.create_array(store=str(BAD / "huge_chunks"), shape=(4, 3), dtype="f4", chunks=(2, 3))
    meta = json.loads((BAD / "huge_chunks" / "zarr.json").read_text())
    meta["chunk_grid"]["configuration"]["chunk_shape"] = [1 << 30, 3]
    (BAD / "huge_chunks" / "zarr.json").write_text(json.dumps(meta))
    # Metadata that is not JSON; a dtype no tensor holds; a codec zarrs does not read by default.
    (BAD / "not_json").mkdir()
    (BAD / "not_json" / "zarr.json").write_text('{"zarr_format": 3, "node_type": "array", "shape": [')
    zarr.create_array(store=str(BAD / "strings"), shape=(2,), dtype=str, chunks=(2,))[...] = ["a", "b"]
    zarr.create_array(store=str(BAD / "complex"), shape=(2,), dtype="c8", chunks=(2,))[...] = [1j, 2]
    zarr.create_array(store=str(BAD / "zlib"), shape=(2,), dtype="f4", chunks=(2,), zarr_format=2,
                      compressors=numcodecs.Zlib(level=1))[...] = [1, 2]
    # Chunks that decode to more than their chunk holds (what a corrupt or hostile chunk does):
    # a blosc header declaring 2 GB, a zstd frame and a gzip stream of 64 MiB of zeros.
    arr = zarr.create_array(store=str(BAD / "blosc_header"), shape=(4, 3), dtype="f4", chunks=(2, 3),
                            zarr_format=2, compressors=numcodecs.Blosc(cname="lz4"))
    arr[...] = data
    chunk = BAD / "blosc_header" / "0.0"
    raw = bytearray(chunk.read_bytes())
    raw[4:8] = (0x7FFFFFF0).to_bytes(4, "little")
    chunk.write_bytes(bytes(raw))
    zeros = bytes(64 << 20)
    for name, codec in [("zstd_bomb", numcodecs.Zstd(level=3)), ("gzip_bomb", numcodecs.GZip(level=9))]:
        arr = zarr.create_array(store=str(BAD / name), shape=(4, 3), dtype="f4", chunks=(2, 3),
                                zarr_format=2, compressors=codec)
        arr[...] = data
        (BAD / name / "0.0").write_bytes(codec.encode(zeros))
    # A group read without naming an array.
    root = zarr.open_group(str(BAD / "group"), mode="w", zarr_format=3)
    root.create_array("a", shape=(2,), dtype="f4", chunks=(2,))
    root.create_group("g").create_array("b", shape=(2,), dtype="f4", chunks=(2,))


def write_suite():
    out = ["# Generated by tests/data/make_zarr_fixtures.py from zarr-python; do not edit.",
           f"# numpy {np.__version__}, zarr {zarr.__version__}, numcodecs {numcodecs.__version__}.",
           "# Every expected value is what zarr reads back from the store it wrote.", ""]
    for title, sql, types, lines in cases:
        out += [f"# {title}", f"query {types}", sql, "----", *lines, ""]
    SUITE.write_text("\n".join(out))


if __name__ == "__main__":
    OUT.mkdir(exist_ok=True)
    v3_stores()
    v2_stores()
    bad_stores()
    write_suite()
    print(f"{len(cases)} cases -> {SUITE}")
