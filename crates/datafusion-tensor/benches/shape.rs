//! Shape functions, single-threaded, on the workload: 1,000,000 rows of float32
//! [16, 16] tensors in DataFusion's default batches of 8192 rows: `tensor_transpose(x)` (no
//! value moves: a new type over the same buffer), `tensor_flip(x)` and `tensor_flip(x, 0)`
//! (one gather per batch), beside the plain scan (each batch handed on as it is).
//!
//! `cargo bench --bench shape` (release), or `cargo bench --profile dev --bench shape` to
//! reuse the test build (the crate's own code is fully optimised there too).
//!
//! Data: element `i` is `hash(i) % 1000 / 8`, with `hash(i) = (i * 2654435761) mod 2^32 >> 7`.

use std::hint::black_box;
use std::sync::Arc;

use arrow::array::{Array, ArrayRef, Float32Array};
use arrow::datatypes::{DataType, Field, FieldRef};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use datafusion::common::ScalarValue;
use datafusion::logical_expr::ColumnarValue;
use datafusion_tensor::TensorType;
use datafusion_tensor::kernels::layout::tensor_array;
use datafusion_tensor::udf::{PlanArgs, ShapeFunction, TensorFunction, TensorShapeOp};

const ROWS: usize = 1_000_000;
const BATCH: usize = 8192;

fn hash(i: u64) -> u64 {
    ((i * 2_654_435_761) & 0xffff_ffff) >> 7
}

fn rows(batch: &ColumnarValue) -> usize {
    match batch {
        ColumnarValue::Array(array) => array.len(),
        ColumnarValue::Scalar(_) => 1,
    }
}

fn shape(c: &mut Criterion) {
    let tensor = TensorType::new(DataType::Float32, vec![16, 16]).unwrap();
    let values: ArrayRef = Arc::new(Float32Array::from_iter_values(
        (0..(ROWS * 256) as u64).map(|i| (hash(i) % 1000) as f32 / 8.0),
    ));
    let column: ArrayRef = Arc::new(tensor_array(&tensor, values, None, ROWS).unwrap());
    let batches: Vec<ColumnarValue> = (0..ROWS.div_ceil(BATCH))
        .map(|k| {
            let (start, len) = (k * BATCH, BATCH.min(ROWS - k * BATCH));
            ColumnarValue::Array(column.slice(start, len))
        })
        .collect();

    let mut group = c.benchmark_group("shape");
    group.sample_size(10);
    group.bench_with_input(
        BenchmarkId::new("16x16_f32_scan_batches_8192", ROWS),
        &batches,
        |b, batches| {
            b.iter(|| {
                for batch in batches {
                    black_box(black_box(batch).clone());
                }
            });
        },
    );
    let axis_0 = ScalarValue::Int64(Some(0));
    let cases = [
        ("transpose", ShapeFunction::Transpose, None),
        ("flip", ShapeFunction::Flip, None),
        ("flip_axis_0", ShapeFunction::Flip, Some(&axis_0)),
    ];
    for (label, which, option) in cases {
        let function = TensorShapeOp::new(which);
        let mut fields: Vec<FieldRef> = vec![Arc::new(tensor.to_field("x"))];
        let mut scalars = vec![None];
        if let Some(option) = option {
            fields.push(Arc::new(Field::new("axis", option.data_type(), true)));
            scalars.push(Some(option));
        }
        let plan = function
            .plan(&PlanArgs {
                name: which.function_name(),
                fields: &fields,
                scalars: &scalars,
                limits: datafusion_tensor::limits::Limits::default(),
            })
            .unwrap();
        group.bench_with_input(
            BenchmarkId::new(format!("16x16_f32_{label}_batches_8192"), ROWS),
            &batches,
            |b, batches| {
                b.iter(|| {
                    for batch in batches {
                        let mut args = vec![batch.clone()];
                        if let Some(option) = option {
                            args.push(ColumnarValue::Scalar(option.clone()));
                        }
                        black_box(
                            function
                                .invoke(&plan, black_box(&args), rows(batch))
                                .unwrap(),
                        );
                    }
                });
            },
        );
    }
    group.finish();
}

criterion_group!(benches, shape);
criterion_main!(benches);
