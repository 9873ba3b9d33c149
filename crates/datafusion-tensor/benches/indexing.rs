//! `tensor_get` kernels, single-threaded, on the workload: 1,000,000 rows of 4x4
//! float32, index strings `1:3, ::2` (strided) and `1:3` (one contiguous run per row), and for
//! reference a plain `memcpy` of the same output bytes, a read of every input byte, and the
//! plainest hand loop for `1:3`. Each both over the whole 64 MB input, batch by batch (the
//! input streamed from memory) and on one cache-resident batch (as in a query, where the scan
//! has just decoded the batch).
//!
//! `cargo bench --bench indexing` (release) or `cargo bench --profile dev --bench indexing`;
//! `benches/indexing_numpy.py` times numpy's `x[:, 1:3, ::2].copy()` on the same data.
//! Data: element `i` is `hash(i) % 1000 / 8`, `hash(i) = (i * 2654435761) mod 2^32 >> 7`.

use std::hint::black_box;
use std::sync::Arc;

use arrow::array::{ArrayRef, AsArray, Float32Array};
use arrow::datatypes::{DataType, FieldRef, Float32Type};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use datafusion::common::ScalarValue;
use datafusion::logical_expr::ColumnarValue;
use datafusion_tensor::TensorType;
use datafusion_tensor::kernels::layout::tensor_array;
use datafusion_tensor::udf::{PlanArgs, TensorFunction, TensorGet};

const ROWS: usize = 1_000_000;
const BATCH: usize = 8192;

fn hash(i: u64) -> u64 {
    ((i * 2_654_435_761) & 0xffff_ffff) >> 7
}

fn indexing(c: &mut Criterion) {
    let tensor = TensorType::new(DataType::Float32, vec![4, 4]).unwrap();
    let values: ArrayRef = Arc::new(Float32Array::from_iter_values(
        (0..(ROWS * 16) as u64).map(|i| (hash(i) % 1000) as f32 / 8.0),
    ));
    let input: ArrayRef = Arc::new(tensor_array(&tensor, Arc::clone(&values), None, ROWS).unwrap());
    let function = TensorGet::new();
    let fields: Vec<FieldRef> = vec![
        Arc::new(tensor.to_field("x")),
        Arc::new(arrow::datatypes::Field::new("index", DataType::Utf8, false)),
    ];

    let mut group = c.benchmark_group("indexing");
    group.sample_size(10);
    for (name, index, out_len) in [
        ("strided_1:3,::2", "1:3, ::2", 4usize),
        ("contiguous_1:3", "1:3", 8),
    ] {
        let index_value = ScalarValue::from(index);
        let plan = function
            .plan(&PlanArgs {
                name: "tensor_get",
                fields: &fields,
                scalars: &[None, Some(&index_value)],
                limits: datafusion_tensor::limits::Limits::default(),
            })
            .unwrap();
        let batches: Vec<Vec<ColumnarValue>> = (0..ROWS.div_ceil(BATCH))
            .map(|k| {
                let (start, len) = (k * BATCH, BATCH.min(ROWS - k * BATCH));
                vec![
                    ColumnarValue::Array(input.slice(start, len)),
                    ColumnarValue::Scalar(index_value.clone()),
                ]
            })
            .collect();
        group.bench_with_input(
            BenchmarkId::new(format!("4x4_f32_{name}_batches_8192"), ROWS),
            &batches,
            |b, batches| {
                b.iter(|| {
                    for batch in batches {
                        let ColumnarValue::Array(array) = &batch[0] else {
                            continue;
                        };
                        black_box(
                            function
                                .invoke(&plan, black_box(batch), array.len())
                                .unwrap(),
                        );
                    }
                });
            },
        );
        // One batch over and over, its input (512 KiB) in cache as in a query, where the scan
        // has just decoded it: the kernel's own cost, without the input's trip from memory.
        // Compared with a memcpy of one batch's output bytes from a cache-resident source.
        let hot = &batches[0];
        group.bench_with_input(
            BenchmarkId::new(format!("4x4_f32_{name}_one_hot_batch"), BATCH),
            hot,
            |b, batch| {
                b.iter(|| black_box(function.invoke(&plan, black_box(batch), BATCH).unwrap()));
            },
        );
        let hot_source = vec![1f32; BATCH * out_len];
        group.bench_function(
            BenchmarkId::new(format!("memcpy_of_output_{name}_one_hot_batch"), BATCH),
            |b| {
                b.iter(|| {
                    let mut out = Vec::with_capacity(hot_source.len());
                    out.extend_from_slice(black_box(&hot_source));
                    black_box(out)
                });
            },
        );
        // The same number of output bytes copied with one memcpy per batch, from a source as
        // large as the whole output (not cache-resident): the floor for any gather.
        let source = vec![1f32; ROWS * out_len];
        group.bench_function(
            BenchmarkId::new(format!("memcpy_of_output_{name}"), ROWS),
            |b| {
                b.iter(|| {
                    for chunk in black_box(&source).chunks(BATCH * out_len) {
                        let mut out = Vec::with_capacity(chunk.len());
                        out.extend_from_slice(chunk);
                        black_box(out);
                    }
                });
            },
        );
    }
    // Reading every input byte once, writing nothing: the floor for any kernel that touches
    // every input cache line, as `1:3` on 4x4 float32 does (each 64-byte row is one line, and
    // the half it takes lies inside it), while the memcpy above reads only the output's bytes.
    let words = values.as_primitive::<Float32Type>().values();
    let hot_words = &words[..BATCH * 16];
    group.bench_function(
        BenchmarkId::new("read_of_input_one_hot_batch", BATCH),
        |b| {
            b.iter(|| {
                black_box(
                    black_box(hot_words)
                        .iter()
                        .fold(0u32, |acc, v| acc ^ v.to_bits()),
                )
            });
        },
    );
    group.bench_function(BenchmarkId::new("read_of_input", ROWS), |b| {
        b.iter(|| {
            for chunk in black_box(&words[..]).chunks(BATCH * 16) {
                black_box(chunk.iter().fold(0u32, |acc, v| acc ^ v.to_bits()));
            }
        });
    });
    // The plainest safe loop for `1:3` over the same rows (no UDF, no Arrow arrays): what the
    // kernel is measured against besides the memcpy.
    group.bench_function(BenchmarkId::new("hand_loop_contiguous_1:3", ROWS), |b| {
        b.iter(|| {
            for chunk in black_box(&words[..]).chunks(BATCH * 16) {
                let mut out = Vec::with_capacity(chunk.len() / 2);
                for row in chunk.chunks_exact(16) {
                    out.extend_from_slice(&row[4..12]);
                }
                black_box(out);
            }
        });
    });
    group.finish();
}

criterion_group!(benches, indexing);
criterion_main!(benches);
