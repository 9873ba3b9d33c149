//! Layout kernels over a whole batch: permuted storage to row-major values, and nested lists.
//!
//! `cargo bench --bench layout`. Seeded data; sizes in the bench ids.

use std::hint::black_box;
use std::sync::Arc;

use arrow::array::{ArrayRef, Float32Array};
use arrow::datatypes::DataType;
use criterion::{Criterion, criterion_group, criterion_main};
use datafusion_tensor::TensorType;
use datafusion_tensor::kernels::layout::{row_major_values, tensor_array, to_nested_list};

fn batch(tensor: &TensorType, rows: usize) -> arrow::array::FixedSizeListArray {
    // A fixed linear congruential sequence: the same data on every run.
    let mut state = 0x2545_f491_u32;
    let values: Float32Array = (0..rows * tensor.size())
        .map(|_| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 8) as f32 / 65536.0
        })
        .collect();
    tensor_array(tensor, Arc::new(values) as ArrayRef, None, rows).unwrap()
}

fn layout(c: &mut Criterion) {
    let rows = 1_000_000;
    let plain = TensorType::new(DataType::Float32, vec![4, 4]).unwrap();
    let permuted = plain.clone().with_permutation(Some(vec![1, 0])).unwrap();
    let plain_batch = batch(&plain, rows);
    let permuted_batch = batch(&permuted, rows);

    let mut group = c.benchmark_group("layout");
    group.sample_size(10);
    group.bench_function("row_major_values/permuted_4x4_f32/1000000", |b| {
        b.iter(|| row_major_values(black_box(&permuted), black_box(&permuted_batch)).unwrap());
    });
    group.bench_function("to_nested_list/4x4_f32/1000000", |b| {
        b.iter(|| to_nested_list(black_box(&plain), black_box(&plain_batch)).unwrap());
    });
    group.finish();
}

criterion_group!(benches, layout);
criterion_main!(benches);
