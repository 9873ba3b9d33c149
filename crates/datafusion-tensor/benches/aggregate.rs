//! The tensor aggregates' many-groups path, single-threaded, on the workload:
//! 1,000,000 rows of float32 [768] tensors in 1000 groups, `tensor_agg_sum`, `_mean` and
//! `_var` (the groups' states updated batch by batch, then every group's result made).
//!
//! `cargo bench --bench aggregate` (release), or `cargo bench --profile dev --bench
//! aggregate` to reuse the test build.
//!
//! Data: one batch of 8192 rows (element `i` is `hash(i) % 1000 / 8`, with
//! `hash(i) = (i * 2654435761) mod 2^32 >> 7`) fed 123 times (1,007,616 rows) with other
//! group ids each time (row `r` of pass `p` in group `hash(p * 8192 + r) % 1000`): the work of
//! a million distinct rows without holding 3 GB of them.

use std::hint::black_box;
use std::sync::Arc;

use arrow::array::{ArrayRef, Float32Array};
use arrow::datatypes::DataType;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use datafusion_tensor::TensorType;
use datafusion_tensor::kernels::aggregate::{AggregateInput, Aggregation, group_states};
use datafusion_tensor::kernels::layout::tensor_array;

const ROWS: usize = 1_000_000;
const BATCH: usize = 8192;
const SIZE: usize = 768;
const GROUPS: usize = 1000;

fn hash(i: u64) -> u64 {
    ((i * 2_654_435_761) & 0xffff_ffff) >> 7
}

fn aggregate(c: &mut Criterion) {
    let tensor = TensorType::new(DataType::Float32, vec![SIZE]).unwrap();
    let values: ArrayRef = Arc::new(Float32Array::from_iter_values(
        (0..(BATCH * SIZE) as u64).map(|i| (hash(i) % 1000) as f32 / 8.0),
    ));
    let batch = tensor_array(&tensor, values, None, BATCH).unwrap();
    let passes = ROWS.div_ceil(BATCH);
    let groups: Vec<Vec<usize>> = (0..passes)
        .map(|p| {
            (0..BATCH)
                .map(|r| (hash((p * BATCH + r) as u64) % GROUPS as u64) as usize)
                .collect()
        })
        .collect();
    let mut group = c.benchmark_group("aggregate");
    group.sample_size(10);
    for (label, aggregation) in [
        ("sum", Aggregation::Sum),
        ("mean", Aggregation::Mean),
        ("var", Aggregation::Var { ddof: 0 }),
    ] {
        group.bench_with_input(
            BenchmarkId::new(
                format!("768_f32_{label}_1000_groups_batches_8192"),
                passes * BATCH,
            ),
            &groups,
            |b, groups| {
                b.iter(|| {
                    let mut states = group_states(aggregation, &DataType::Float32).unwrap();
                    states.resize(GROUPS);
                    let input = AggregateInput::fixed(&tensor, &batch, None).unwrap();
                    for pass in groups {
                        states.update(black_box(&input), pass).unwrap();
                    }
                    black_box(states.evaluate(0..GROUPS, Some(SIZE)).unwrap())
                });
            },
        );
    }
    group.finish();
}

criterion_group!(benches, aggregate);
criterion_main!(benches);
