//! `tensor_at_*` kernels, single-threaded, on the workload: 1,000,000 rows of 4x4
//! float32, `tensor_at_add(x, '[0, 0, 1]', 1.0)` (rows 0, 0 and 1 of every 4x4 tensor: 12
//! updates per tensor, duplicates accumulating), and the same index with `set`, in
//! DataFusion's 8192-row batches; plus a dynamic index (an integer column) for comparison, and
//! `tensor_at_get` with `mode => 'fill'` (the filled gather), static and dynamic.
//!
//! `cargo bench --bench at` (release) or `cargo bench --profile dev --bench at`;
//! `benches/at_numpy.py` times numpy's `np.add.at` and JAX's jitted `x.at[:, [0, 0, 1]].add`
//! on the same data. Data: element `i` is `hash(i) % 1000 / 8`,
//! `hash(i) = (i * 2654435761) mod 2^32 >> 7`.

use std::hint::black_box;
use std::sync::Arc;

use arrow::array::{ArrayRef, Float32Array, Int64Array};
use arrow::datatypes::{DataType, Field, FieldRef};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, criterion_group, criterion_main};
use datafusion::common::ScalarValue;
use datafusion::logical_expr::ColumnarValue;
use datafusion_tensor::TensorType;
use datafusion_tensor::kernels::layout::tensor_array;
use datafusion_tensor::kernels::update::Combine;
use datafusion_tensor::udf::{AtOp, PlanArgs, TensorAt, TensorFunction};

const ROWS: usize = 1_000_000;
const BATCH: usize = 8192;

fn hash(i: u64) -> u64 {
    ((i * 2_654_435_761) & 0xffff_ffff) >> 7
}

/// The 1,000,000 rows of 4x4 float32, and an index column of values below `modulus`.
fn data(modulus: u64) -> (TensorType, ArrayRef, ArrayRef) {
    let tensor = TensorType::new(DataType::Float32, vec![4, 4]).unwrap();
    let values: ArrayRef = Arc::new(Float32Array::from_iter_values(
        (0..(ROWS * 16) as u64).map(|i| (hash(i) % 1000) as f32 / 8.0),
    ));
    let input: ArrayRef = Arc::new(tensor_array(&tensor, values, None, ROWS).unwrap());
    let rows_index: ArrayRef = Arc::new(Int64Array::from_iter_values(
        (0..ROWS as u64).map(|i| (hash(i) % modulus) as i64),
    ));
    (tensor, input, rows_index)
}

/// Plans `function(x, idx, third)` (idx the literal `index`, or the index column when
/// `dynamic`) and times it over the data in 8192-row batches.
fn bench_call(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: &str,
    function: &TensorAt,
    (tensor, input, rows_index): &(TensorType, ArrayRef, ArrayRef),
    dynamic: bool,
    index: &ScalarValue,
    third: (&str, DataType, &ScalarValue),
) {
    let (third_name, third_type, third_value) = third;
    let fields: Vec<FieldRef> = vec![
        Arc::new(tensor.to_field("x")),
        if dynamic {
            Arc::new(Field::new("i", DataType::Int64, false))
        } else {
            Arc::new(Field::new("idx", DataType::Utf8, false))
        },
        Arc::new(Field::new(third_name, third_type, false)),
    ];
    let scalars = if dynamic {
        [None, None, Some(third_value)]
    } else {
        [None, Some(index), Some(third_value)]
    };
    let plan = function
        .plan(&PlanArgs {
            name: function.name(),
            fields: &fields,
            scalars: &scalars,
            limits: datafusion_tensor::limits::Limits::default(),
        })
        .unwrap();
    let batches: Vec<Vec<ColumnarValue>> = (0..ROWS.div_ceil(BATCH))
        .map(|k| {
            let (start, len) = (k * BATCH, BATCH.min(ROWS - k * BATCH));
            vec![
                ColumnarValue::Array(input.slice(start, len)),
                if dynamic {
                    ColumnarValue::Array(rows_index.slice(start, len))
                } else {
                    ColumnarValue::Scalar(index.clone())
                },
                ColumnarValue::Scalar(third_value.clone()),
            ]
        })
        .collect();
    group.bench_with_input(BenchmarkId::new(id, ROWS), &batches, |b, batches| {
        b.iter(|| {
            for batch in batches {
                let ColumnarValue::Array(x) = &batch[0] else {
                    continue;
                };
                black_box(function.invoke(&plan, black_box(batch), x.len()).unwrap());
            }
        });
    });
}

fn at(c: &mut Criterion) {
    let data = data(4);
    let y = ScalarValue::Float32(Some(1.0));
    let index = ScalarValue::from("[0, 0, 1]");
    let mut group = c.benchmark_group("at");
    group.sample_size(10);
    for (op, label) in [
        (AtOp::Update(Combine::Add), "add"),
        (AtOp::Update(Combine::Set), "set"),
    ] {
        let function = TensorAt::new(op);
        for dynamic in [false, true] {
            let id = if dynamic {
                format!("4x4_f32_{label}_i_column_1.0_batches_8192")
            } else {
                format!("4x4_f32_{label}_[0,0,1]_1.0_batches_8192")
            };
            let y = ("y", DataType::Float32, &y);
            bench_call(&mut group, &id, &function, &data, dynamic, &index, y);
        }
    }
    group.finish();
}

/// `x.at[idx].get(mode='fill')`: a static index with a dropped position, and an index column
/// whose rows are a fifth out of bounds (the filled gather).
fn at_get(c: &mut Criterion) {
    let data = data(5);
    let mode = ScalarValue::from("fill");
    let index = ScalarValue::from("[0, 9], 1:3");
    let function = TensorAt::new(AtOp::Get);
    let mut group = c.benchmark_group("at_get");
    group.sample_size(10);
    for dynamic in [false, true] {
        let id = if dynamic {
            "4x4_f32_get_i_column_fill_batches_8192"
        } else {
            "4x4_f32_get_[0,9],1:3_fill_batches_8192"
        };
        let mode = ("mode", DataType::Utf8, &mode);
        bench_call(&mut group, id, &function, &data, dynamic, &index, mode);
    }
    group.finish();
}

criterion_group!(benches, at, at_get);
criterion_main!(benches);
