#!/usr/bin/env python3
"""Every elementwise function against the plain scan of the same columns (the
target: each within 1.3x of the scan), with pyarrow + numpy beside it, in one run.

    python3 benches/compare/elementwise_scan.py [--rows 1000000] [--repeat 3] [--bin PATH]
                                               [--only SUBSTRING] [--no-numpy]

Reads the files of benches/compare/tensor_math.py (written with pyarrow if missing):
target/compare/math_f32_<rows>.parquet (float32 [16, 16] `x`, `y` in [0, 1)) and
math_u8_<rows>.parquet (uint8 [28, 28]) for the bitwise functions.

For each function, best of --repeat:
- the CLI (`cargo build`'s binary unless --bin): `SELECT count(f(x[, y])) FROM file`, the query
  repeated in one process, the best of the CLI's own "Elapsed" lines;
- its plain scan: `count(x)` (and `count(y)` for binary functions) of the same file;
- the ratio of the two (the target: at most 1.3);
- pyarrow + numpy: read the columns, `to_numpy_ndarray()`, numpy's function of the stacked
  array (read included), in its own process.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import ROOT, best_of, child_time, cli_binary, cli_case  # noqa: E402
from tensor_math import generate  # noqa: E402

# name -> (file, arguments, numpy's function)
UNARY_F32 = ["arccos", "arcsin", "arctan", "arccosh", "arcsinh", "arctanh", "cosh", "sinh",
             "log2", "log10", "positive", "reciprocal", "signbit", "trunc", "rint", "exp",
             "log", "sqrt", "sin", "cos", "tanh", "abs", "negative", "floor", "isnan"]
BINARY_F32 = ["arctan2", "copysign", "hypot", "logaddexp", "nextafter", "fmod", "float_power",
              "divmod", "floor_divide", "remainder", "add", "multiply", "maximum", "power"]
BITWISE_U8 = ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
              "bitwise_right_shift"]
NUMPY_NAMES = {"arccosh": "arccosh", "bitwise_left_shift": "left_shift",
               "bitwise_right_shift": "right_shift"}


def cases():
    out = {}
    for f in UNARY_F32:
        # arccosh is defined from 1: its argument is x + 1.0 there (in both engines).
        arg = "x + 1.0" if f == "arccosh" else "x"
        out[f] = ("f32", f"tensor_{f}({arg})", f, 1)
    for f in BINARY_F32:
        out[f] = ("f32", f"tensor_{f}(x, y)", f, 2)
    for f in BITWISE_U8:
        out[f] = ("u8", f"tensor_{f}(x, y)" if "shift" not in f else f"tensor_{f}(x, 3)", f, 2)
    out["bitwise_invert"] = ("u8", "tensor_bitwise_invert(x)", "invert", 1)
    return out


def child_numpy(path, name, repeat):
    import numpy as np
    import pyarrow.parquet as pq

    file, _, f, arity = cases()[name]
    fn = getattr(np, NUMPY_NAMES.get(f, f))
    cols = ["x", "y"][:arity]

    def run():
        table = pq.read_table(path, columns=cols)
        arrays = [table[c].combine_chunks().to_numpy_ndarray() for c in cols]
        if f == "arccosh":
            arrays[0] = arrays[0] + np.float32(1.0)
        if "shift" in f:
            arrays[1] = np.uint8(3)
        fn(*arrays)

    best_of(repeat, run)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _, _, kind, path, name, repeat = sys.argv
        if kind == "numpy":
            child_numpy(path, name, int(repeat))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bin")
    parser.add_argument("--only")
    parser.add_argument("--no-numpy", action="store_true")
    args = parser.parse_args()
    binary = cli_binary(args.bin)
    files = {
        "f32": ROOT / "target" / "compare" / f"math_f32_{args.rows}.parquet",
        "u8": ROOT / "target" / "compare" / f"math_u8_{args.rows // 2}.parquet",
    }
    generate(files["f32"], args.rows, (16, 16), "float32")
    generate(files["u8"], args.rows // 2, (28, 28), "uint8")
    rows = {"f32": args.rows, "u8": args.rows // 2}
    scans = {}
    print(f"{'function':<22} {'CLI s':>8} {'scan s':>8} {'ratio':>6} {'numpy s':>8}")
    for name, (file, sql, _, arity) in cases().items():
        if args.only and args.only not in name:
            continue
        key = (file, arity)
        if key not in scans:
            scan = ", ".join(f"count({c})" for c in ["x", "y"][:arity])
            scans[key] = cli_case(binary, files[file], scan, args.repeat, rows[file])[0]
        t, _ = cli_case(binary, files[file], f"count({sql})", args.repeat, rows[file])
        np_t = "" if args.no_numpy else \
            f"{child_time(__file__, 'numpy', files[file], name, args.repeat)[0]:8.3f}"
        print(f"{name:<22} {t:8.3f} {scans[key]:8.3f} {t / scans[key]:6.2f} {np_t:>8}",
              flush=True)


if __name__ == "__main__":
    main()
