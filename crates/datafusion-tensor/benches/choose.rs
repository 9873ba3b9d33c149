//! `tensor_choose` kernels, single-threaded, on the workload: 1,000,000 rows of 4x4
//! float32 choice tensors (3 of them) and an int32 index tensor, every mode.
//!
//! `cargo bench --bench choose` (release), or `cargo bench --profile dev --bench choose` to
//! reuse the test build (the crate's own code is fully optimised there too).
//! `benches/choose_numpy.py` times numpy's `np.choose` on the same data and prints ratios.
//!
//! Data: element `i` of the index tensor is `hash(i) % 3` (raise: all in range) or
//! `hash(i) % 9 - 3` (wrap, clip); choice `c` element `i` is `hash(i + c) % 1000 / 8`, with
//! `hash(i) = (i * 2654435761) mod 2^32 >> 7`. The Python script computes the same arrays.

use std::hint::black_box;
use std::sync::Arc;

use arrow::array::{ArrayRef, Float32Array, Int32Array};
use arrow::datatypes::{DataType, FieldRef};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use datafusion::common::ScalarValue;
use datafusion::logical_expr::ColumnarValue;
use datafusion_tensor::TensorType;
use datafusion_tensor::kernels::layout::tensor_array;
use datafusion_tensor::udf::{PlanArgs, TensorChoose, TensorFunction};

const ROWS: usize = 1_000_000;
const BATCH: usize = 8192;

fn hash(i: u64) -> u64 {
    ((i * 2_654_435_761) & 0xffff_ffff) >> 7
}

fn tensor_column(tensor: &TensorType, values: ArrayRef, rows: usize) -> ColumnarValue {
    ColumnarValue::Array(Arc::new(tensor_array(tensor, values, None, rows).unwrap()))
}

fn choose(c: &mut Criterion) {
    let index_type = TensorType::new(DataType::Int32, vec![4, 4]).unwrap();
    let value_type = TensorType::new(DataType::Float32, vec![4, 4]).unwrap();
    let n = ROWS * 16;
    let in_range: ArrayRef = Arc::new(Int32Array::from_iter_values(
        (0..n as u64).map(|i| (hash(i) % 3) as i32),
    ));
    let wide: ArrayRef = Arc::new(Int32Array::from_iter_values(
        (0..n as u64).map(|i| (hash(i) % 9) as i32 - 3),
    ));
    let choices: Vec<ColumnarValue> = (0..3u64)
        .map(|c| {
            let values: ArrayRef = Arc::new(Float32Array::from_iter_values(
                (0..n as u64).map(|i| (hash(i + c) % 1000) as f32 / 8.0),
            ));
            tensor_column(&value_type, values, ROWS)
        })
        .collect();

    let function = TensorChoose::new();
    let fields: Vec<FieldRef> = std::iter::once(Arc::new(index_type.to_field("a")))
        .chain((0..3).map(|i| Arc::new(value_type.to_field(format!("c{i}")))))
        .chain(std::iter::once(Arc::new(arrow::datatypes::Field::new(
            "mode",
            DataType::Utf8,
            false,
        ))))
        .collect();

    let mut group = c.benchmark_group("choose");
    group.sample_size(10);
    for mode in ["raise", "wrap", "clip"] {
        let mode_value = ScalarValue::from(mode);
        let scalars = [None, None, None, None, Some(&mode_value)];
        let plan = function
            .plan(&PlanArgs {
                name: "tensor_choose",
                fields: &fields,
                scalars: &scalars,
                limits: datafusion_tensor::limits::Limits::default(),
            })
            .unwrap();
        let index = if mode == "raise" { &in_range } else { &wide };
        let mut args = vec![tensor_column(&index_type, Arc::clone(index), ROWS)];
        args.extend(choices.iter().cloned());
        args.push(ColumnarValue::Scalar(mode_value.clone()));

        // The whole column as one batch, as numpy sees it.
        group.bench_with_input(
            BenchmarkId::new(format!("4x4_f32_3_choices_{mode}"), ROWS),
            &args,
            |b, args| b.iter(|| function.invoke(&plan, black_box(args), ROWS).unwrap()),
        );

        // The same rows in DataFusion's default batches of 8192, one after another.
        let batches: Vec<Vec<ColumnarValue>> = (0..ROWS.div_ceil(BATCH))
            .map(|k| {
                let (start, len) = (k * BATCH, BATCH.min(ROWS - k * BATCH));
                args.iter()
                    .map(|arg| match arg {
                        ColumnarValue::Array(array) => {
                            ColumnarValue::Array(array.slice(start, len))
                        }
                        scalar @ ColumnarValue::Scalar(_) => scalar.clone(),
                    })
                    .collect()
            })
            .collect();
        group.bench_with_input(
            BenchmarkId::new(format!("4x4_f32_3_choices_{mode}_batches_8192"), ROWS),
            &batches,
            |b, batches| {
                b.iter(|| {
                    for batch in batches {
                        let rows = match &batch[0] {
                            ColumnarValue::Array(array) => array.len(),
                            ColumnarValue::Scalar(_) => 1,
                        };
                        black_box(function.invoke(&plan, black_box(batch), rows).unwrap());
                    }
                });
            },
        );
    }
    group.finish();
}

criterion_group!(benches, choose);
criterion_main!(benches);
