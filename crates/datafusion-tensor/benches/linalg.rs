//! The linear-algebra kernels, single-threaded, on seeded data:
//!
//! - `contraction/{loop,tight,gemm}/N`: one row's N x N @ N x N float32 product through the
//!   planned contraction's general loop, its matrix-product triple loop, and `matrixmultiply`,
//!   for N = 2 to 128: where gemm overtakes the triple loop sets
//!   `kernels::linalg::gemm::GEMM_MIN_WORK`;
//! - `similarity/<measure>/f16x768`: 8192 float16 rows of 768 against one query vector (one
//!   batch of the 1M-row workload), and the same in float32.
//!
//! `cargo bench --bench linalg` (release), or `cargo bench --profile dev --bench linalg`.
//!
//! Data: element `i` is `hash(i) % 1000 / 8 - 60`, `hash(i) = (i * 2654435761) mod 2^32 >> 7`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use datafusion_tensor::kernels::linalg::contraction::{Contraction, Scratch};
use datafusion_tensor::kernels::linalg::products::matmul;
use datafusion_tensor::kernels::linalg::similarity::{Measure, VectorPlan, measure_rows};
use half::{f16, slice::HalfFloatSliceExt};

const ROWS: usize = 8192;
const DIM: usize = 768;

fn value(i: u64) -> f32 {
    (((i * 2_654_435_761) & 0xffff_ffff) >> 7) as f32 % 1000.0 / 8.0 - 60.0
}

fn contraction(c: &mut Criterion) {
    let mut group = c.benchmark_group("contraction");
    for n in [2usize, 4, 8, 12, 16, 32, 64, 128] {
        let labelling = matmul(&[n, n], &[n, n]).unwrap();
        let strides = [n, 1];
        let layouts = [(&[n, n][..], &strides[..]), (&[n, n][..], &strides[..])];
        let planned = Contraction::new(&labelling, &layouts).unwrap();
        let a: Vec<f32> = (0..(n * n) as u64).map(value).collect();
        let b: Vec<f32> = (0..(n * n) as u64).map(|i| value(i + 7)).collect();
        let mut scratch = Scratch::default();
        let mut out = Vec::with_capacity(n * n);
        for (path, plan) in [
            ("loop", planned.clone().without_product()),
            ("tight", planned.clone().with_blas(false)),
            ("gemm", planned.clone().with_blas(true)),
        ] {
            group.bench_with_input(BenchmarkId::new(path, n), &n, |bench, _| {
                bench.iter(|| {
                    out.clear();
                    plan.run(&[&a, &b], &[0, 0], &mut out, &mut scratch)
                        .unwrap();
                    black_box(&out);
                });
            });
        }
    }
    group.finish();
}

fn similarity(c: &mut Criterion) {
    let mut group = c.benchmark_group("similarity");
    group.sample_size(20);
    let plan = VectorPlan::new([(&[DIM], &[1]), (&[DIM], &[1])], &[DIM], 0);
    let rows: Vec<f32> = (0..(ROWS * DIM) as u64).map(value).collect();
    let query: Vec<f32> = (0..DIM as u64).map(|i| value(i + 3)).collect();
    let mut half_rows = vec![f16::ZERO; rows.len()];
    half_rows.convert_from_f32_slice(&rows);
    let mut buffer = vec![0.0f32; rows.len()];
    let mut out: Vec<f32> = Vec::with_capacity(ROWS);
    for (measure, name) in [
        (Measure::InnerProduct, "inner_product"),
        (Measure::CosineSimilarity, "cosine_similarity"),
    ] {
        group.bench_function(BenchmarkId::new(name, "f16x768"), |bench| {
            bench.iter(|| {
                // What a batch of float16 costs: the slice conversion, then the float32 loop.
                half_rows.convert_to_f32_slice(&mut buffer);
                out.clear();
                measure_rows(
                    measure,
                    &plan,
                    (&buffer[..], &query[..]),
                    [DIM, 0],
                    ROWS,
                    &mut out,
                )
                .unwrap();
                black_box(&out);
            });
        });
        group.bench_function(BenchmarkId::new(name, "f32x768"), |bench| {
            bench.iter(|| {
                out.clear();
                measure_rows(
                    measure,
                    &plan,
                    (&rows[..], &query[..]),
                    [DIM, 0],
                    ROWS,
                    &mut out,
                )
                .unwrap();
                black_box(&out);
            });
        });
    }
    group.finish();
}

criterion_group!(benches, contraction, similarity);
criterion_main!(benches);
