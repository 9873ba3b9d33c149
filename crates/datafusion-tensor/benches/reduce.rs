//! Reductions along axes, single-threaded, on the workload: 1,000,000 rows of
//! float32 [16, 16] tensors, `tensor_mean(x, axis => 0)` and `tensor_sum(x, axis => [0, 1])`,
//! in DataFusion's default batches of 8192 rows.
//!
//! `cargo bench --bench reduce` (release), or `cargo bench --profile dev --bench reduce` to
//! reuse the test build (the crate's own code is fully optimised there too).
//!
//! Data: element `i` is `hash(i) % 1000 / 8`, with `hash(i) = (i * 2654435761) mod 2^32 >> 7`.

use std::hint::black_box;
use std::sync::Arc;

use arrow::array::{Array, ArrayRef, Float32Array};
use arrow::datatypes::{DataType, FieldRef};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use datafusion::common::ScalarValue;
use datafusion::logical_expr::ColumnarValue;
use datafusion_tensor::TensorType;
use datafusion_tensor::kernels::layout::tensor_array;
use datafusion_tensor::kernels::reduce::Reduction;
use datafusion_tensor::udf::{PlanArgs, ReduceFunction, TensorFunction, TensorReduce};

const ROWS: usize = 1_000_000;
const BATCH: usize = 8192;

fn hash(i: u64) -> u64 {
    ((i * 2_654_435_761) & 0xffff_ffff) >> 7
}

fn reduce(c: &mut Criterion) {
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
    let axis_0 = ScalarValue::Int64(Some(0));
    let axes_01 = ScalarValue::List(ScalarValue::new_list_nullable(
        &[ScalarValue::Int64(Some(0)), ScalarValue::Int64(Some(1))],
        &DataType::Int64,
    ));
    let cases = [
        (
            "mean_axis_0",
            ReduceFunction::Reduce(Reduction::Mean),
            &axis_0,
        ),
        (
            "sum_axis_0_1",
            ReduceFunction::Reduce(Reduction::Sum),
            &axes_01,
        ),
    ];

    let mut group = c.benchmark_group("reduce");
    group.sample_size(10);
    for (label, which, axis) in cases {
        let function = TensorReduce::new(which);
        let fields: Vec<FieldRef> = vec![
            Arc::new(tensor.to_field("x")),
            Arc::new(arrow::datatypes::Field::new("axis", axis.data_type(), true)),
        ];
        let scalars = [None, Some(axis)];
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
                        let rows = match batch {
                            ColumnarValue::Array(array) => array.len(),
                            ColumnarValue::Scalar(_) => 1,
                        };
                        let args = [batch.clone(), ColumnarValue::Scalar(axis.clone())];
                        black_box(function.invoke(&plan, black_box(&args), rows).unwrap());
                    }
                });
            },
        );
    }
    group.finish();
}

criterion_group!(benches, reduce);
criterion_main!(benches);
