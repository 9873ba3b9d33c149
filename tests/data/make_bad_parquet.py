#!/usr/bin/env python3
"""Writes the broken and inconsistent Parquet files of sql/files.slt under tests/data/bad/.

    python3 tests/data/make_bad_parquet.py      # pyarrow>=15

Every file is written by pyarrow, as users' files are; the broken ones are a good file with
bytes cut or overwritten. Outputs (committed; the suites need no Python):
- good.parquet: `id` and a pyarrow fixed_shape_tensor `x` (float32 [2, 2], 3 rows) — the
  control: it reads.
- truncated.parquet: good.parquet cut to half its length (no footer).
- truncated_tail.parquet: good.parquet without its last 9 bytes (footer length and magic cut).
- bad_magic.parquet: good.parquet with its trailing `PAR1` overwritten.
- corrupt_footer.parquet: good.parquet with the footer's Thrift bytes overwritten.
- garbage_footer.parquet: 36 bytes, `PAR1`, text, `PAR1` (a footer length past the file's
  start: parquet 59's metadata decoder panicked on it).
- corrupt_page.parquet: good.parquet with the first column chunk of `x` overwritten by 0xFF
  bytes (footer intact: the schema reads, the data does not).
- lying_shape.parquet: `x` a FixedSizeList of 4 float32 whose extension metadata says shape
  [3, 3] (9 elements).
- bad_metadata.parquet: `x` with extension metadata that is not JSON.
- bad_permutation.parquet: `x` [2, 2] with permutation [0, 0].
- lost_extension.parquet: `x` a plain FixedSizeList of 4 float32 (the extension dropped by
  whatever wrote it): a 1-d tensor of 4 elements (spec.md §1).
- mixed_shape/{a,b}.parquet: one table, `x` [2, 2] in a and [4, 1] in b (same storage).
- mixed_size/{a,b}.parquet: `x` [2, 2] in a and [3] in b (different storage sizes).
- mixed_lost/{a,b}.parquet: `x` [2, 2] in a, a plain FixedSizeList of 4 in b.
- same_meta/{a,b}.parquet: `x` [2, 2] in both (the control: reads as one table of 6 rows).
- small_tensors.parquet: `id` (0..24), `x` float32 [2, 2] and `u` uint8 [3] tensors, pages of
  8 rows (dictionaries, statistics, no compression): the file whose every byte
  tests/integration/fast_scan/hostile.rs flips, comparing the fast reader with DataFusion's
  under a `WHERE`.
"""

import shutil
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

OUT = Path(__file__).resolve().parent / "bad"
EXT = {
    b"ARROW:extension:name": b"arrow.fixed_shape_tensor",
}


def tensor_column(shape, rows=3, offset=0.0, permutation=None):
    size = int(np.prod(shape))
    values = np.arange(rows * size, dtype=np.float32) + np.float32(offset)
    tensor_type = pa.fixed_shape_tensor(pa.float32(), shape, permutation=permutation)
    storage = pa.FixedSizeListArray.from_arrays(pa.array(values), size)
    return pa.ExtensionArray.from_storage(tensor_type, storage)


def plain_column(size, rows=3, metadata=None):
    values = np.arange(rows * size, dtype=np.float32)
    storage = pa.FixedSizeListArray.from_arrays(pa.array(values), size)
    field = pa.field("x", storage.type, metadata=metadata)
    return storage, field


def write_tensor(path, shape, rows=3, offset=0.0, permutation=None):
    x = tensor_column(shape, rows, offset, permutation)
    ids = pa.array(np.arange(rows, dtype=np.int64) + int(offset))
    pq.write_table(pa.table({"id": ids, "x": x}), path)


def write_plain(path, size, metadata=None, rows=3):
    storage, field = plain_column(size, rows, metadata)
    ids = pa.array(np.arange(rows, dtype=np.int64))
    schema = pa.schema([pa.field("id", pa.int64()), field])
    pq.write_table(pa.Table.from_arrays([ids, storage], schema=schema), path)


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir()

    good = OUT / "good.parquet"
    write_tensor(good, [2, 2])
    data = good.read_bytes()
    assert pq.read_table(good).column("x").type.extension_name == "arrow.fixed_shape_tensor"

    (OUT / "truncated.parquet").write_bytes(data[: len(data) // 2])
    (OUT / "truncated_tail.parquet").write_bytes(data[:-9])
    (OUT / "bad_magic.parquet").write_bytes(data[:-4] + b"XXXX")
    footer_len = int.from_bytes(data[-8:-4], "little")
    footer_start = len(data) - 8 - footer_len
    corrupt = bytearray(data)
    corrupt[footer_start : footer_start + 16] = b"\xff" * 16
    (OUT / "corrupt_footer.parquet").write_bytes(bytes(corrupt))
    (OUT / "garbage_footer.parquet").write_bytes(b"PAR1 this is not a parquet file PAR1")

    column = pq.ParquetFile(good).metadata.row_group(0).column(1)
    start = column.dictionary_page_offset or column.data_page_offset
    corrupt = bytearray(data)
    corrupt[start : start + column.total_compressed_size] = b"\xff" * column.total_compressed_size
    (OUT / "corrupt_page.parquet").write_bytes(bytes(corrupt))

    def ext(metadata):
        return {**EXT, b"ARROW:extension:metadata": metadata}

    write_plain(OUT / "lying_shape.parquet", 4, ext(b'{"shape":[3,3]}'))
    write_plain(OUT / "bad_metadata.parquet", 4, ext(b'{"shape":[2,2'))
    write_plain(OUT / "bad_permutation.parquet", 4, ext(b'{"shape":[2,2],"permutation":[0,0]}'))
    write_plain(OUT / "lost_extension.parquet", 4)

    for name in ["mixed_shape", "mixed_size", "mixed_lost", "same_meta"]:
        (OUT / name).mkdir()
    write_tensor(OUT / "mixed_shape" / "a.parquet", [2, 2])
    write_tensor(OUT / "mixed_shape" / "b.parquet", [4, 1], offset=3)
    write_tensor(OUT / "mixed_size" / "a.parquet", [2, 2])
    write_tensor(OUT / "mixed_size" / "b.parquet", [3], offset=3)
    write_tensor(OUT / "mixed_lost" / "a.parquet", [2, 2])
    write_plain(OUT / "mixed_lost" / "b.parquet", 4)
    write_tensor(OUT / "same_meta" / "a.parquet", [2, 2])
    write_tensor(OUT / "same_meta" / "b.parquet", [2, 2], offset=3)

    rows = 24
    x = tensor_column([2, 2], rows)
    u_type = pa.fixed_shape_tensor(pa.uint8(), [3])
    u_values = pa.array((np.arange(rows * 3) * 7 % 11).astype(np.uint8))
    u = pa.ExtensionArray.from_storage(u_type, pa.FixedSizeListArray.from_arrays(u_values, 3))
    ids = pa.array(np.arange(rows, dtype=np.int32))
    pq.write_table(
        pa.table({"id": ids, "x": x, "u": u}),
        OUT / "small_tensors.parquet",
        compression="NONE",
        data_page_size=1,
        write_batch_size=8,
        write_page_index=True,
    )

    # The damaged files really are unreadable to pyarrow too.
    for name in ["truncated", "truncated_tail", "bad_magic", "corrupt_footer", "corrupt_page"]:
        try:
            pq.read_table(OUT / f"{name}.parquet")
        except Exception as error:  # noqa: BLE001
            print(f"{name}: pyarrow: {type(error).__name__}: {error}")
        else:
            raise SystemExit(f"{name}.parquet still reads in pyarrow")


if __name__ == "__main__":
    main()
