//! The k-nearest-neighbour join (`datafusion_tensor::nearest`): which plans it takes, and on
//! hostile data (NULL vectors, NaN, infinities, zero vectors, norms past float32's sums,
//! float16, float64, integers, ties) the same rows as DataFusion's plan of every pair
//! (`SET tensor.nearest_join = false`). numpy's rows are in `sql/tensor_nearest_generated.slt`.

use std::sync::Arc;

use arrow::array::{
    ArrayRef, FixedSizeListArray, Float16Array, Float32Array, Float64Array, Int32Array, Int64Array,
    RecordBatch,
};
use arrow::buffer::NullBuffer;
use arrow::datatypes::{DataType, Field, Schema};
use datafusion::datasource::MemTable;
use datafusion::prelude::SessionContext;
use datafusion_tensor::tensor_session_context_with_config;
use datafusion_tensor::tensor_type::TensorType;
use half::f16;

const LEN: usize = 6;

/// A deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A small integer in [-2, 2] (ties), or now and then a float, a special value.
    fn value(&mut self) -> f64 {
        match self.next() % 40 {
            0 => f64::NAN,
            1 => f64::INFINITY,
            2 => 1e30,
            3 => 1e-30,
            4..=15 => {
                #[allow(clippy::cast_precision_loss)]
                let x = (self.next() % 10_000) as f64 / 997.0 - 5.0;
                x
            }
            n => f64::from(i32::try_from(n % 5).unwrap() - 2),
        }
    }
}

/// `rows` vectors of `LEN` values: row 1 NULL, row 2 all zeros, special values now and then
/// (only in rows past 4, so that most rows are plain).
fn vectors(rng: &mut Rng, rows: usize, element: &DataType) -> (Field, ArrayRef) {
    let mut values = Vec::with_capacity(rows * LEN);
    for row in 0..rows {
        for _ in 0..LEN {
            let mut v = rng.value();
            if row == 2 || (row < 5 && !v.is_finite()) || (row < 5 && v.abs() > 1e10) {
                v = if row == 2 { 0.0 } else { 1.0 };
            }
            if element.is_integer() && !v.is_finite() {
                v = 3.0;
            }
            values.push(v);
        }
    }
    #[allow(clippy::cast_possible_truncation)]
    let child: ArrayRef = match element {
        DataType::Float16 => Arc::new(Float16Array::from_iter_values(
            values.iter().map(|&v| f16::from_f64(v)),
        )),
        DataType::Float32 => Arc::new(Float32Array::from_iter_values(
            values.iter().map(|&v| v as f32),
        )),
        DataType::Float64 => Arc::new(Float64Array::from_iter_values(values)),
        _ => Arc::new(Int32Array::from_iter_values(
            values.iter().map(|&v| v.clamp(-1e6, 1e6) as i32),
        )),
    };
    let nulls: NullBuffer = (0..rows).map(|r| r != 1).collect();
    let tensor = TensorType::new(element.clone(), vec![LEN]).unwrap();
    let field = tensor.to_field("v");
    let DataType::FixedSizeList(item, _) = field.data_type() else {
        panic!("a fixed-size list");
    };
    let list = FixedSizeListArray::new(
        Arc::clone(item),
        i32::try_from(LEN).unwrap(),
        child,
        Some(nulls),
    );
    (field, Arc::new(list))
}

/// A table of `rows` rows (`id`, `g = id % 3`, `v`) in `parts` partitions.
fn table(rng: &mut Rng, rows: usize, element: &DataType, parts: usize) -> MemTable {
    let (field, array) = vectors(rng, rows, element);
    let schema = Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("g", DataType::Int64, false),
        field,
    ]));
    let ids: Vec<i64> = (0..i64::try_from(rows).unwrap()).collect();
    let batch = RecordBatch::try_new(
        Arc::clone(&schema),
        vec![
            Arc::new(Int64Array::from(ids.clone())),
            Arc::new(Int64Array::from_iter_values(ids.iter().map(|i| i % 3))),
            array,
        ],
    )
    .unwrap();
    let per = rows.div_ceil(parts);
    let partitions = (0..parts)
        .map(|p| {
            let start = (p * per).min(rows);
            vec![batch.slice(start, per.min(rows - start))]
        })
        .collect();
    MemTable::try_new(schema, partitions).unwrap()
}

fn context(partitions: usize, element: (&DataType, &DataType), seed: u64) -> SessionContext {
    let config = datafusion_tensor::session_config()
        .with_target_partitions(partitions)
        .with_batch_size(7);
    let ctx = tensor_session_context_with_config(config).unwrap();
    let mut rng = Rng(seed);
    ctx.register_table("items", Arc::new(table(&mut rng, 41, element.0, 3)))
        .unwrap();
    ctx.register_table("queries", Arc::new(table(&mut rng, 6, element.1, 2)))
        .unwrap();
    ctx
}

async fn rows(ctx: &SessionContext, sql: &str) -> String {
    let batches = ctx.sql(sql).await.unwrap().collect().await.unwrap();
    arrow::util::pretty::pretty_format_batches(&batches)
        .unwrap()
        .to_string()
}

async fn plan(ctx: &SessionContext, sql: &str) -> String {
    rows(ctx, &format!("EXPLAIN {sql}")).await
}

/// Every measure, order, NULL placement, ranking and `k`, on hostile data of five element
/// types, at 1 and 3 partitions: the join's rows are the plan's without it. Where ties of
/// the only key leave `row_number()`'s pick open, the distances are compared, not the ids.
#[tokio::test]
async fn the_join_gives_the_rows_of_the_plan_without_it() {
    let types = [
        (DataType::Float32, DataType::Float32),
        (DataType::Float32, DataType::Float64),
        (DataType::Float16, DataType::Float16),
        (DataType::Int32, DataType::Int32),
        (DataType::Float64, DataType::Float64),
    ];
    let mut fired = 0;
    let mut compared = 0;
    for (seed, (a, b)) in types.iter().enumerate() {
        for partitions in [1, 3] {
            let ctx = context(partitions, (a, b), 7 + seed as u64);
            for function in [
                "tensor_l2_distance",
                "tensor_inner_product",
                "tensor_cosine_similarity",
            ] {
                for order in ["", " DESC", " NULLS FIRST", " DESC NULLS LAST"] {
                    for (window, tie, k) in [
                        ("row_number()", ", t.id", 3),
                        ("rank()", "", 2),
                        ("row_number()", "", 4),
                        ("row_number()", ", t.id", 1),
                    ] {
                        let key = format!("{function}(t.v, q.v){order}");
                        let (select, sort) = if window == "row_number()" && tie.is_empty() {
                            // The ids of ties are the plan's pick: the distances are not.
                            ("x.id AS qid, x.d", "qid, x.d")
                        } else {
                            ("x.id AS qid, x.tid, x.d", "qid, x.tid")
                        };
                        let sql = format!(
                            "SELECT {select} FROM (SELECT q.id, t.id AS tid, {function}(t.v, q.v) AS d, \
                             {window} OVER (PARTITION BY q.id ORDER BY {key}{tie}) AS rn \
                             FROM queries q CROSS JOIN items t) AS x WHERE rn <= {k} ORDER BY {sort}"
                        );
                        let with = rows(&ctx, &sql).await;
                        if plan(&ctx, &sql).await.contains("NearestCandidatesExec") {
                            fired += 1;
                        }
                        ctx.sql("SET tensor.nearest_join = false").await.unwrap();
                        let without = rows(&ctx, &sql).await;
                        assert!(
                            !plan(&ctx, &sql).await.contains("NearestCandidatesExec"),
                            "{sql}"
                        );
                        ctx.sql("SET tensor.nearest_join = true").await.unwrap();
                        assert_eq!(with, without, "{a} x {b}, {partitions} partitions: {sql}");
                        compared += 1;
                    }
                }
            }
        }
    }
    assert_eq!(fired, compared, "the join was not used everywhere");
}

/// The QUALIFY spelling and the subquery's, with the tables either side of the join, take
/// the join; other window functions, keys on both sides and other windows in the node do
/// not.
#[tokio::test]
async fn the_join_takes_the_top_k_windows_and_only_those() {
    let ctx = context(2, (&DataType::Float32, &DataType::Float32), 3);
    let takes = [
        "SELECT q.id, t.id FROM queries q CROSS JOIN items t QUALIFY row_number() OVER (PARTITION BY q.id ORDER BY tensor_l2_distance(t.v, q.v)) <= 3",
        "SELECT * FROM (SELECT q.id, t.id AS tid, row_number() OVER (PARTITION BY q.id ORDER BY tensor_cosine_similarity(q.v, t.v) DESC) AS rn FROM items t, queries q) WHERE rn < 4",
        "SELECT * FROM (SELECT q.id, t.id AS tid, rank() OVER (ORDER BY tensor_inner_product(t.v, q.v) DESC) AS rn FROM items t, queries q) WHERE 2 >= rn",
        "SELECT t.id, q.id FROM queries q, items t QUALIFY row_number() OVER (PARTITION BY t.id ORDER BY tensor_l2_distance(t.v, q.v)) = 1",
    ];
    for sql in takes {
        let plan = plan(&ctx, sql).await;
        assert!(plan.contains("NearestCandidatesExec"), "{sql}\n{plan}");
        assert!(!plan.contains("CrossJoinExec"), "{sql}\n{plan}");
    }
    let leaves = [
        // dense_rank keeps every pair at the k nearest distances.
        "SELECT q.id, t.id FROM queries q CROSS JOIN items t QUALIFY dense_rank() OVER (PARTITION BY q.id ORDER BY tensor_l2_distance(t.v, q.v)) <= 3",
        // Keys on both sides.
        "SELECT q.id, t.id FROM queries q CROSS JOIN items t QUALIFY row_number() OVER (PARTITION BY q.id, t.g ORDER BY tensor_l2_distance(t.v, q.v)) <= 3",
        // Another window expression would see only the pairs kept.
        "SELECT * FROM (SELECT q.id, count(*) OVER (PARTITION BY q.id ORDER BY tensor_l2_distance(t.v, q.v)) AS c, row_number() OVER (PARTITION BY q.id ORDER BY tensor_l2_distance(t.v, q.v)) AS rn FROM queries q CROSS JOIN items t) WHERE rn <= 3",
        // No upper bound.
        "SELECT * FROM (SELECT q.id, row_number() OVER (PARTITION BY q.id ORDER BY tensor_l2_distance(t.v, q.v)) AS rn FROM queries q CROSS JOIN items t) WHERE rn >= 3",
        // k past the join's 4,096.
        "SELECT q.id, t.id FROM queries q CROSS JOIN items t QUALIFY row_number() OVER (PARTITION BY q.id ORDER BY tensor_l2_distance(t.v, q.v)) <= 5000",
        // Both operands on one side.
        "SELECT q.id, t.id FROM queries q CROSS JOIN items t QUALIFY row_number() OVER (PARTITION BY q.id ORDER BY tensor_l2_distance(q.v, q.v)) <= 3",
    ];
    for sql in leaves {
        let plan = plan(&ctx, sql).await;
        assert!(!plan.contains("NearestCandidatesExec"), "{sql}\n{plan}");
    }
}
