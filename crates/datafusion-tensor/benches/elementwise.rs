//! The elementwise functions against arrow's own kernels on the same flat buffers,
//! single-threaded, on the workload: 1,000,000 rows of 16x16 float32 tensors `x` and
//! `y`, in DataFusion's default batches of 8192 rows.
//!
//! `cargo bench --bench elementwise` (release), or `cargo bench --profile dev --bench
//! elementwise` to reuse the test build (the crate's own code is fully optimised there too).
//!
//! - `x * 2.0 + y`: `tensor_multiply` then `tensor_add`, planned once, against arrow's
//!   `mul` and `add` on the batches' value buffers (the same layout: the functions take arrow's
//!   kernels there);
//! - `x > 0.5`: `tensor_greater` (numpy's IEEE comparison, its own loop) against arrow's `gt`
//!   (a total order: NaN > 0.5 there, not in numpy);
//! - `x + bias` with `bias` a [16] tensor: the broadcast loop, against arrow's `add` of
//!   the bias repeated to the batch (the copy numpy's broadcasting avoids is not timed).
//!
//! - variable-shape `x * 2.0 + y` (100,000 rows, shapes cycling through [16, 16], [8, 32],
//!   [4, 4] and [16, 8], `y` of the same shapes): the row-by-row broadcast (one plan per pair of
//!   row shapes, operands gathered once per batch);
//! - `tensor_astype(x, 'float16')`, fixed-shape (the 1,000,000 rows) and variable-shape.
//!
//! Data: element `i` of `x` is `hash(i) % 1000 / 1000`, of `y` `hash(i + 1) % 1000 / 1000`,
//! with `hash(i) = (i * 2654435761) mod 2^32 >> 7`.

use std::hint::black_box;
use std::sync::Arc;

use arrow::array::{Array, ArrayRef, FixedSizeListArray, Float32Array, Scalar};
use arrow::compute::kernels::{cmp, numeric};
use arrow::datatypes::{DataType, FieldRef};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use datafusion::common::ScalarValue;
use datafusion::logical_expr::ColumnarValue;
use datafusion_tensor::TensorType;
use datafusion_tensor::kernels::elementwise::BinaryOp;
use datafusion_tensor::kernels::layout::tensor_array;
use datafusion_tensor::kernels::ragged::from_rows;
use datafusion_tensor::udf::{PlanArgs, TensorAstype, TensorBinary, TensorFunction};
use datafusion_tensor::variable_shape::VariableShapeType;

const ROWS: usize = 1_000_000;
const BATCH: usize = 8192;
const SIZE: usize = 256;

fn hash(i: u64) -> u64 {
    ((i * 2_654_435_761) & 0xffff_ffff) >> 7
}

fn values(seed: u64, n: usize) -> ArrayRef {
    Arc::new(Float32Array::from_iter_values(
        (0..n as u64).map(|i| (hash(i + seed) % 1000) as f32 / 1000.0),
    ))
}

/// `rows` rows of `tensor` in batches of [`BATCH`].
fn batches(tensor: &TensorType, values: &ArrayRef, rows: usize) -> Vec<ColumnarValue> {
    let column = tensor_array(tensor, Arc::clone(values), None, rows).unwrap();
    (0..rows.div_ceil(BATCH))
        .map(|k| {
            let (start, len) = (k * BATCH, BATCH.min(rows - k * BATCH));
            ColumnarValue::Array(Arc::new(column.slice(start, len)))
        })
        .collect()
}

fn flat(value: &ColumnarValue) -> ArrayRef {
    match value {
        ColumnarValue::Array(array) => Arc::clone(
            array
                .as_any()
                .downcast_ref::<FixedSizeListArray>()
                .unwrap()
                .values(),
        ),
        ColumnarValue::Scalar(_) => unreachable!("the batches are arrays"),
    }
}

fn rows_of(value: &ColumnarValue) -> usize {
    match value {
        ColumnarValue::Array(array) => array.len(),
        ColumnarValue::Scalar(_) => 1,
    }
}

fn elementwise(c: &mut Criterion) {
    let tensor = TensorType::new(DataType::Float32, vec![16, 16]).unwrap();
    let bias_type = TensorType::new(DataType::Float32, vec![16]).unwrap();
    let x = batches(&tensor, &values(0, ROWS * SIZE), ROWS);
    let y = batches(&tensor, &values(1, ROWS * SIZE), ROWS);
    let bias_values = values(7, 16);
    let bias = ColumnarValue::Scalar(ScalarValue::FixedSizeList(Arc::new(
        tensor_array(&bias_type, Arc::clone(&bias_values), None, 1).unwrap(),
    )));

    let field = |t: &TensorType, name: &str| -> FieldRef { Arc::new(t.to_field(name)) };
    let number = |name: &str| -> FieldRef {
        Arc::new(arrow::datatypes::Field::new(name, DataType::Float64, false))
    };
    let plan = |op: BinaryOp, fields: &[FieldRef], scalars: &[Option<&ScalarValue>]| {
        let function = TensorBinary::new(op);
        let plan = function
            .plan(&PlanArgs {
                name: "bench",
                fields,
                scalars,
                limits: datafusion_tensor::limits::Limits::default(),
            })
            .unwrap();
        (function, plan)
    };
    let two = ScalarValue::Float64(Some(2.0));
    let half = ScalarValue::Float64(Some(0.5));
    let (multiply, multiply_plan) = plan(
        BinaryOp::Multiply,
        &[field(&tensor, "x"), number("two")],
        &[None, Some(&two)],
    );
    let (add, add_plan) = plan(
        BinaryOp::Add,
        &[field(&tensor, "xx"), field(&tensor, "y")],
        &[None, None],
    );
    let (greater, greater_plan) = plan(
        BinaryOp::Greater,
        &[field(&tensor, "x"), number("half")],
        &[None, Some(&half)],
    );
    let bias_scalar = match &bias {
        ColumnarValue::Scalar(value) => value.clone(),
        ColumnarValue::Array(_) => unreachable!(),
    };
    let (add_bias, add_bias_plan) = plan(
        BinaryOp::Add,
        &[field(&tensor, "x"), field(&bias_type, "bias")],
        &[None, Some(&bias_scalar)],
    );

    let mut group = c.benchmark_group("elementwise");
    group.sample_size(10);
    let id = |name: &str| BenchmarkId::new(name, format!("{ROWS}_rows_16x16_f32"));

    group.bench_function(id("x_times_2_plus_y"), |b| {
        b.iter(|| {
            for (xb, yb) in x.iter().zip(&y) {
                let rows = rows_of(xb);
                let scaled = multiply
                    .invoke(
                        &multiply_plan,
                        &[xb.clone(), ColumnarValue::Scalar(two.clone())],
                        rows,
                    )
                    .unwrap();
                black_box(add.invoke(&add_plan, &[scaled, yb.clone()], rows).unwrap());
            }
        });
    });
    let two_f32 = Scalar::new(Float32Array::from(vec![2.0f32]));
    group.bench_function(id("x_times_2_plus_y_arrow_kernels"), |b| {
        b.iter(|| {
            for (xb, yb) in x.iter().zip(&y) {
                let scaled = numeric::mul(&flat(xb), &two_f32).unwrap();
                black_box(numeric::add(&scaled, &flat(yb)).unwrap());
            }
        });
    });

    group.bench_function(id("x_greater_0_5"), |b| {
        b.iter(|| {
            for xb in &x {
                let args = [xb.clone(), ColumnarValue::Scalar(half.clone())];
                black_box(greater.invoke(&greater_plan, &args, rows_of(xb)).unwrap());
            }
        });
    });
    let half_f32 = Scalar::new(Float32Array::from(vec![0.5f32]));
    group.bench_function(id("x_greater_0_5_arrow_kernel"), |b| {
        b.iter(|| {
            for xb in &x {
                black_box(cmp::gt(&flat(xb), &half_f32).unwrap());
            }
        });
    });

    group.bench_function(id("x_plus_bias_16"), |b| {
        b.iter(|| {
            for xb in &x {
                let args = [xb.clone(), bias.clone()];
                black_box(add_bias.invoke(&add_bias_plan, &args, rows_of(xb)).unwrap());
            }
        });
    });
    let repeated: ArrayRef = Arc::new(Float32Array::from_iter_values((0..BATCH * SIZE).map(|i| {
        bias_values
            .as_any()
            .downcast_ref::<Float32Array>()
            .unwrap()
            .value(i % 16)
    })));
    group.bench_function(id("x_plus_bias_16_arrow_kernel_prebroadcast"), |b| {
        b.iter(|| {
            for xb in &x {
                let values = flat(xb);
                let bias = repeated.slice(0, values.len());
                black_box(numeric::add(&values, &bias).unwrap());
            }
        });
    });
    group.finish();
}

/// `rows` variable-shape rows of Float32 whose shapes cycle through `shapes`, in batches.
fn variable_batches(
    tensor: &VariableShapeType,
    seed: u64,
    rows: usize,
    shapes: &[[usize; 2]],
) -> Vec<ColumnarValue> {
    (0..rows.div_ceil(BATCH))
        .map(|k| {
            let n = BATCH.min(rows - k * BATCH);
            let row_shapes: Vec<[usize; 2]> = (0..n).map(|r| shapes[r % shapes.len()]).collect();
            let lengths: Vec<usize> = row_shapes.iter().map(|s| s[0] * s[1]).collect();
            let dims: Vec<i32> = row_shapes.iter().flatten().map(|&d| d as i32).collect();
            let total = lengths.iter().sum();
            let array =
                from_rows(tensor, values(seed + k as u64, total), &lengths, dims, None).unwrap();
            ColumnarValue::Array(Arc::new(array))
        })
        .collect()
}

fn variable_and_astype(c: &mut Criterion) {
    const VROWS: usize = 100_000;
    let shapes = [[16, 16], [8, 32], [4, 4], [16, 8]];
    let tensor = VariableShapeType::new(DataType::Float32, 2).unwrap();
    let x = variable_batches(&tensor, 0, VROWS, &shapes);
    let y = variable_batches(&tensor, 1, VROWS, &shapes);
    let field: FieldRef = Arc::new(tensor.to_field("x"));
    let number: FieldRef = Arc::new(arrow::datatypes::Field::new(
        "two",
        DataType::Float64,
        false,
    ));
    let two = ScalarValue::Float64(Some(2.0));
    let multiply = TensorBinary::new(BinaryOp::Multiply);
    let multiply_plan = multiply
        .plan(&PlanArgs {
            name: "bench",
            fields: &[Arc::clone(&field), number],
            scalars: &[None, Some(&two)],
            limits: datafusion_tensor::limits::Limits::default(),
        })
        .unwrap();
    let add = TensorBinary::new(BinaryOp::Add);
    let add_plan = add
        .plan(&PlanArgs {
            name: "bench",
            fields: &[Arc::clone(&field), Arc::clone(&field)],
            scalars: &[None, None],
            limits: datafusion_tensor::limits::Limits::default(),
        })
        .unwrap();
    let dtype = ScalarValue::Utf8(Some("float16".to_string()));
    let dtype_field: FieldRef = Arc::new(arrow::datatypes::Field::new("d", DataType::Utf8, false));
    let astype = TensorAstype::new();
    let astype_variable = astype
        .plan(&PlanArgs {
            name: "bench",
            fields: &[Arc::clone(&field), Arc::clone(&dtype_field)],
            scalars: &[None, Some(&dtype)],
            limits: datafusion_tensor::limits::Limits::default(),
        })
        .unwrap();
    let fixed = TensorType::new(DataType::Float32, vec![16, 16]).unwrap();
    let fixed_x = batches(&fixed, &values(0, ROWS * SIZE), ROWS);
    let astype_fixed = astype
        .plan(&PlanArgs {
            name: "bench",
            fields: &[Arc::new(fixed.to_field("x")), dtype_field],
            scalars: &[None, Some(&dtype)],
            limits: datafusion_tensor::limits::Limits::default(),
        })
        .unwrap();

    let mut group = c.benchmark_group("elementwise_varshape");
    group.sample_size(10);
    group.bench_function(
        BenchmarkId::new("x_times_2_plus_y", format!("{VROWS}_rows_4_shapes_f32")),
        |b| {
            b.iter(|| {
                for (xb, yb) in x.iter().zip(&y) {
                    let rows = rows_of(xb);
                    let args = [xb.clone(), ColumnarValue::Scalar(two.clone())];
                    let scaled = multiply.invoke(&multiply_plan, &args, rows).unwrap();
                    black_box(add.invoke(&add_plan, &[scaled, yb.clone()], rows).unwrap());
                }
            });
        },
    );
    group.bench_function(
        BenchmarkId::new("astype_float16", format!("{VROWS}_rows_4_shapes_f32")),
        |b| {
            b.iter(|| {
                for xb in &x {
                    let args = [xb.clone(), ColumnarValue::Scalar(dtype.clone())];
                    black_box(astype.invoke(&astype_variable, &args, rows_of(xb)).unwrap());
                }
            });
        },
    );
    group.bench_function(
        BenchmarkId::new("astype_float16", format!("{ROWS}_rows_16x16_f32")),
        |b| {
            b.iter(|| {
                for xb in &fixed_x {
                    let args = [xb.clone(), ColumnarValue::Scalar(dtype.clone())];
                    black_box(astype.invoke(&astype_fixed, &args, rows_of(xb)).unwrap());
                }
            });
        },
    );
    group.finish();
}

criterion_group!(benches, elementwise, variable_and_astype);
criterion_main!(benches);
