#!/usr/bin/env python3
"""Tensor files read where they are: `read_npy` against numpy's `np.load(mmap_mode='r')`, and
`read_safetensors` against `safetensors.safe_open`, side by side in one run.

    python3 benches/compare/tensor_files.py [--rows 1000000] [--dim 256] [--repeat 3] [--bin PATH]

Writes with numpy target/compare/files_<rows>x<dim>.npy (float32, C order, page-cached after
the first read) and its Fortran-order twin, and with safetensors.numpy
target/compare/files_model.safetensors (24 float32 [1024, 1024] tensors). Each side runs in its
own process, best of --repeat (the CLI: the query repeated in one process, its best "Elapsed"):
- the whole file: `sum(tensor_sum(x))` / `np.load(mmap).sum(dtype=float64)` over all rows;
- 10 rows at the middle: `WHERE row_index BETWEEN m AND m + 9` / `a[m:m + 10].sum()`;
- the Fortran-order file, whole (a gather per row here, a strided sum in numpy);
- one tensor of the safetensors file: `WHERE name = 'layer.12'` / `safe_open(...).get_tensor`.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import ROOT, best_of, child_time, cli_binary, cli_sum  # noqa: E402


def generate(rows, dim):
    import numpy as np

    out = ROOT / "target" / "compare"
    out.mkdir(parents=True, exist_ok=True)
    c_path = out / f"files_{rows}x{dim}.npy"
    f_path = out / f"files_{rows}x{dim}_f.npy"
    model = out / "files_model.safetensors"
    rng = np.random.default_rng(47)
    if not c_path.exists():
        a = rng.random((rows, dim), dtype=np.float32)
        np.save(c_path, a)
        np.save(f_path, np.asfortranarray(a.reshape(rows, 16, dim // 16)))
    if not model.exists():
        from safetensors.numpy import save_file

        save_file({f"layer.{i}": rng.random((1024, 1024), dtype=np.float32) for i in range(24)},
                  str(model))
    return c_path, f_path, model


def child(kind, path, rows, repeat):
    import numpy as np

    rows, repeat = int(rows), int(repeat)
    if kind == "all":
        best_of(repeat, lambda: np.load(path, mmap_mode="r").sum(dtype=np.float64))
    elif kind == "middle":
        m = rows // 2
        best_of(repeat, lambda: np.load(path, mmap_mode="r")[m:m + 10].sum(dtype=np.float64))
    elif kind == "tensor":
        from safetensors import safe_open

        def run():
            with safe_open(path, "np") as f:
                f.get_tensor("layer.12").sum(dtype=np.float64)

        best_of(repeat, run)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(*sys.argv[2:])
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--dim", type=int, default=256)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bin")
    args = parser.parse_args()
    binary = cli_binary(args.bin)
    c_path, f_path, model = generate(args.rows, args.dim)
    m = args.rows // 2
    cases = [
        ("whole file, sum", f"SELECT sum(tensor_sum(x)) FROM read_npy('{c_path}')", "all", c_path),
        ("10 rows at the middle",
         f"SELECT sum(tensor_sum(x)) FROM read_npy('{c_path}') WHERE row_index BETWEEN {m} AND {m + 9}",
         "middle", c_path),
        ("Fortran order, whole file",
         f"SELECT sum(tensor_sum(x)) FROM read_npy('{f_path}')", "all", f_path),
        ("one safetensors tensor of 24",
         f"SELECT sum(tensor_sum(tensor)) FROM read_safetensors('{model}') WHERE name = 'layer.12'",
         "tensor", model),
    ]
    mib = args.rows * args.dim * 4 / 2**20
    print(f"{args.rows} x {args.dim} float32 ({mib:.0f} MiB); best of {args.repeat}")
    print("| case | this CLI | numpy / safetensors |")
    print("| --- | --- | --- |")
    for title, sql, kind, path in cases:
        cli, _ = cli_sum(binary, sql, args.repeat)
        peer, _ = child_time(__file__, kind, path, args.rows, args.repeat)
        print(f"| {title} | {cli:.4f} s | {peer:.4f} s |")


if __name__ == "__main__":
    main()
