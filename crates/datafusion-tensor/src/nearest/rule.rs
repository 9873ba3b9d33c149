//! [`NearestNeighbourJoin`]: finds the k-nearest-neighbour join in a physical plan and puts
//! a [`NearestCandidatesExec`] where its cross join was.

use std::collections::HashSet;
use std::sync::Arc;

use datafusion::common::config::ConfigOptions;
use datafusion::common::tree_node::{Transformed, TreeNode};
use datafusion::common::{Result, ScalarValue};
use datafusion::logical_expr::Operator;
use datafusion::physical_expr::expressions::{BinaryExpr, CastExpr, Column, Literal};
use datafusion::physical_expr::projection::update_expr;
use datafusion::physical_expr::utils::{collect_columns, split_conjunction};
use datafusion::physical_expr::window::StandardWindowExpr;
use datafusion::physical_expr::{PhysicalExpr, ScalarFunctionExpr};
use datafusion::physical_optimizer::PhysicalOptimizerRule;
use datafusion::physical_plan::coalesce_partitions::CoalescePartitionsExec;
use datafusion::physical_plan::filter::FilterExec;
use datafusion::physical_plan::joins::CrossJoinExec;
use datafusion::physical_plan::projection::ProjectionExec;
use datafusion::physical_plan::repartition::RepartitionExec;
use datafusion::physical_plan::sorts::sort::SortExec;
use datafusion::physical_plan::sorts::sort_preserving_merge::SortPreservingMergeExec;
use datafusion::physical_plan::windows::{
    BoundedWindowAggExec, WindowAggExec, WindowExpr, WindowUDFExpr,
};
use datafusion::physical_plan::{ExecutionPlan, ExecutionPlanProperties, Partitioning};

use super::exec::{NearestCandidatesExec, NearestSpec};
use crate::config::TensorOptions;
use crate::kernels::linalg::similarity::Measure;
use crate::kernels::nearest::Ranking;

/// The largest `k` the join is used for (its heaps hold `k` keys per group, outside the
/// memory pool); past it, DataFusion's plan.
const MAX_K: usize = 4096;

/// The physical optimizer rule of `crate::nearest` (its docs say what it recognises).
#[derive(Debug, Default)]
pub struct NearestNeighbourJoin;

impl PhysicalOptimizerRule for NearestNeighbourJoin {
    fn optimize(
        &self,
        plan: Arc<dyn ExecutionPlan>,
        config: &ConfigOptions,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        if !TensorOptions::from_config(config).nearest_join {
            return Ok(plan);
        }
        plan.transform_down(|node| {
            Ok(match rewrite(&node)? {
                Some(rewritten) => Transformed::yes(rewritten),
                None => Transformed::no(node),
            })
        })
        .map(|t| t.data)
    }

    fn name(&self) -> &'static str {
        "tensor_nearest_neighbour_join"
    }

    fn schema_check(&self) -> bool {
        true
    }
}

/// The measures the join knows, by function name.
fn measure_of(name: &str) -> Option<Measure> {
    match name {
        "tensor_l2_distance" => Some(Measure::L2Distance),
        "tensor_inner_product" => Some(Measure::InnerProduct),
        "tensor_cosine_similarity" => Some(Measure::CosineSimilarity),
        _ => None,
    }
}

/// The filter's upper bounds on columns: `c <= k`, `c < k + 1`, `c = k` (and reversed), as
/// (column index, k).
fn upper_bounds(predicate: &Arc<dyn PhysicalExpr>) -> Vec<(usize, usize)> {
    let mut bounds = Vec::new();
    for conjunct in split_conjunction(predicate) {
        let Some(binary) = conjunct.downcast_ref::<BinaryExpr>() else {
            continue;
        };
        let (column, literal, op) = match (
            column_index(binary.left()),
            binary.right().downcast_ref::<Literal>(),
        ) {
            (Some(c), Some(l)) => (c, l, *binary.op()),
            _ => match (
                column_index(binary.right()),
                binary.left().downcast_ref::<Literal>(),
            ) {
                (Some(c), Some(l)) => (c, l, binary.op().swap().unwrap_or(Operator::Plus)),
                _ => continue,
            },
        };
        let Some(value) = integer(literal.value()) else {
            continue;
        };
        let k = match op {
            Operator::LtEq | Operator::Eq => value,
            Operator::Lt => value - 1,
            _ => continue,
        };
        if let Ok(k) = usize::try_from(k)
            && (1..=MAX_K).contains(&k)
        {
            bounds.push((column, k));
        }
    }
    bounds
}

/// The column `expr` reads, through integer casts.
fn column_index(expr: &Arc<dyn PhysicalExpr>) -> Option<usize> {
    if let Some(column) = expr.downcast_ref::<Column>() {
        return Some(column.index());
    }
    let cast = expr.downcast_ref::<CastExpr>()?;
    if !cast.cast_type().is_integer() {
        return None;
    }
    column_index(cast.expr())
}

fn integer(value: &ScalarValue) -> Option<i128> {
    Some(match value {
        ScalarValue::Int8(Some(v)) => i128::from(*v),
        ScalarValue::Int16(Some(v)) => i128::from(*v),
        ScalarValue::Int32(Some(v)) => i128::from(*v),
        ScalarValue::Int64(Some(v)) => i128::from(*v),
        ScalarValue::UInt8(Some(v)) => i128::from(*v),
        ScalarValue::UInt16(Some(v)) => i128::from(*v),
        ScalarValue::UInt32(Some(v)) => i128::from(*v),
        ScalarValue::UInt64(Some(v)) => i128::from(*v),
        _ => return None,
    })
}

/// The window computing column `column` of `node`'s output, through projections that pass
/// it on and nodes that pass rows on: the window and the index of its window expression.
fn window_of(
    mut node: Arc<dyn ExecutionPlan>,
    mut column: usize,
) -> Option<(Arc<dyn ExecutionPlan>, usize)> {
    loop {
        if let Some(projection) = node.downcast_ref::<ProjectionExec>() {
            column = projection
                .expr()
                .get(column)?
                .expr
                .downcast_ref::<Column>()?
                .index();
            node = Arc::clone(projection.input());
            continue;
        }
        if passes_rows(&node) {
            node = Arc::clone(node.children().first()?);
            continue;
        }
        let input_len = node.children().first()?.schema().fields().len();
        let window = node.downcast_ref::<BoundedWindowAggExec>().is_some()
            || node.downcast_ref::<WindowAggExec>().is_some();
        return (window && column >= input_len).then(|| (node, column - input_len));
    }
}

/// Whether `node` passes its input's rows on, as they are, in any order or partitioning.
fn passes_rows(node: &Arc<dyn ExecutionPlan>) -> bool {
    if let Some(sort) = node.downcast_ref::<SortExec>() {
        return sort.fetch().is_none();
    }
    if let Some(merge) = node.downcast_ref::<SortPreservingMergeExec>() {
        return merge.fetch().is_none();
    }
    if let Some(coalesce) = node.downcast_ref::<CoalescePartitionsExec>() {
        return coalesce.fetch().is_none();
    }
    node.downcast_ref::<RepartitionExec>().is_some()
}

/// The rewritten plan of a `FilterExec` over a top-k window over a cross join, or `None`.
fn rewrite(node: &Arc<dyn ExecutionPlan>) -> Result<Option<Arc<dyn ExecutionPlan>>> {
    let Some(filter) = node.downcast_ref::<FilterExec>() else {
        return Ok(None);
    };
    for (column, k) in upper_bounds(filter.predicate()) {
        let Some((window, index)) = window_of(Arc::clone(filter.input()), column) else {
            continue;
        };
        if let Some(join) = recognise(&window, index, k)? {
            let (cross, nearest) = join;
            let rewritten = Arc::clone(node)
                .transform_up(|n| {
                    Ok(if Arc::ptr_eq(&n, &cross) {
                        Transformed::yes(Arc::clone(&nearest))
                    } else {
                        Transformed::no(n)
                    })
                })?
                .data;
            return Ok(Some(rewritten));
        }
    }
    Ok(None)
}

/// The window's function, partition and order keys: a `row_number()` or `rank()` over a
/// cross join ordered first by a measure of one side's vector against the other's. Returns
/// the cross join and its replacement.
#[allow(clippy::type_complexity)]
fn recognise(
    window: &Arc<dyn ExecutionPlan>,
    index: usize,
    k: usize,
) -> Result<Option<(Arc<dyn ExecutionPlan>, Arc<dyn ExecutionPlan>)>> {
    let Some((expr, ties)) = ranking_of(window, index) else {
        return Ok(None);
    };
    let Some(first) = expr.order_by().first() else {
        return Ok(None);
    };
    let Some((path, cross)) = down_to_cross_join(window) else {
        return Ok(None);
    };
    let Some(join) = cross.downcast_ref::<CrossJoinExec>() else {
        return Ok(None);
    };
    let resolve = |expr: &Arc<dyn PhysicalExpr>| resolve_through(&path, expr);
    let left_len = join.left().schema().fields().len();
    // Which side an expression reads: Some(true) left, Some(false) right, None both or none.
    let side = |expr: &Arc<dyn PhysicalExpr>| -> Option<bool> {
        let columns = collect_columns(expr);
        let sides: HashSet<bool> = columns.iter().map(|c| c.index() < left_len).collect();
        (sides.len() == 1).then(|| sides.into_iter().next().unwrap_or(true))
    };
    let Some(metric) = resolve(&first.expr)? else {
        return Ok(None);
    };
    let Some(call) = metric.downcast_ref::<ScalarFunctionExpr>() else {
        return Ok(None);
    };
    let Some(measure) = measure_of(call.name()) else {
        return Ok(None);
    };
    let [a, b] = call.args() else {
        return Ok(None);
    };
    if !vector_type(
        &a.data_type(&cross.schema())?,
        &b.data_type(&cross.schema())?,
    ) || !matches!(
        call.return_type(),
        arrow::datatypes::DataType::Float16
            | arrow::datatypes::DataType::Float32
            | arrow::datatypes::DataType::Float64
    ) {
        return Ok(None);
    }
    let (Some(a_left), Some(b_left)) = (side(a), side(b)) else {
        return Ok(None);
    };
    if a_left == b_left {
        return Ok(None);
    }
    let mut partition_by = Vec::new();
    let mut build_is_left = None;
    for key in expr.partition_by() {
        let Some(key) = resolve(key)? else {
            return Ok(None);
        };
        if collect_columns(&key).is_empty() {
            continue; // a constant splits nothing
        }
        let Some(key_left) = side(&key) else {
            return Ok(None);
        };
        if build_is_left.is_some_and(|s| s != key_left) {
            return Ok(None);
        }
        build_is_left = Some(key_left);
        partition_by.push(key);
    }
    let build_is_left = build_is_left.unwrap_or(true);
    let rebase = |expr: &Arc<dyn PhysicalExpr>, left: bool| -> Result<Arc<dyn PhysicalExpr>> {
        Ok(Arc::clone(expr)
            .transform(|e| {
                Ok(match e.downcast_ref::<Column>() {
                    Some(c) if !left => {
                        Transformed::yes(Arc::new(Column::new(c.name(), c.index() - left_len)) as _)
                    }
                    _ => Transformed::no(e),
                })
            })?
            .data)
    };
    let (build_vector, stream_vector) = if a_left == build_is_left {
        (a, b)
    } else {
        (b, a)
    };
    let spec = NearestSpec {
        function: call.name().to_string(),
        measure,
        result: call.return_type().clone(),
        descending: first.options.descending,
        nulls_first: first.options.nulls_first,
        // Ties to the first offered only where the order leaves them unspecified.
        ranking: Ranking {
            k,
            ties: ties || expr.order_by().len() > 1,
        },
        metric: Arc::clone(&metric),
        build_vector: rebase(build_vector, build_is_left)?,
        stream_vector: rebase(stream_vector, !build_is_left)?,
        partition_by: partition_by
            .iter()
            .map(|key| rebase(key, build_is_left))
            .collect::<Result<_>>()?,
        build_is_left,
    };
    let Some((left, right)) = inputs(&cross, join, build_is_left)? else {
        return Ok(None);
    };
    let nearest: Arc<dyn ExecutionPlan> =
        Arc::new(NearestCandidatesExec::new(left, right, Arc::new(spec)));
    Ok(Some((cross, nearest)))
}

/// The cross join's inputs for the operator: when the left side streams (the build side is
/// the right), it gets the cross join's number of partitions (the right side's); `None`
/// where the cross join's partitioning is one the left side's rows cannot have.
#[allow(clippy::type_complexity)]
fn inputs(
    cross: &Arc<dyn ExecutionPlan>,
    join: &CrossJoinExec,
    build_is_left: bool,
) -> Result<Option<(Arc<dyn ExecutionPlan>, Arc<dyn ExecutionPlan>)>> {
    let (mut left, right) = (Arc::clone(join.left()), Arc::clone(join.right()));
    if !build_is_left {
        let n = match cross.output_partitioning() {
            Partitioning::UnknownPartitioning(n) | Partitioning::RoundRobinBatch(n) => *n,
            _ => return Ok(None),
        };
        if left.output_partitioning().partition_count() != n {
            left = if n == 1 {
                Arc::new(CoalescePartitionsExec::new(left))
            } else {
                Arc::new(RepartitionExec::try_new(
                    left,
                    Partitioning::RoundRobinBatch(n),
                )?)
            };
        }
    }
    Ok(Some((left, right)))
}

/// The window expression at `index` of `window` when it is the node's only one and a
/// `row_number()` or `rank()` (ties kept), with whether ties are kept.
fn ranking_of(
    window: &Arc<dyn ExecutionPlan>,
    index: usize,
) -> Option<(&Arc<dyn WindowExpr>, bool)> {
    let exprs = if let Some(w) = window.downcast_ref::<BoundedWindowAggExec>() {
        w.window_expr()
    } else {
        window.downcast_ref::<WindowAggExec>()?.window_expr()
    };
    // Every window expression of the node sees only the pairs kept: one, the ranking.
    let ([expr], 0) = (exprs, index) else {
        return None;
    };
    let function = expr
        .as_any()
        .downcast_ref::<StandardWindowExpr>()?
        .get_standard_func_expr()
        .as_any()
        .downcast_ref::<WindowUDFExpr>()?
        .fun()
        .name()
        .to_string();
    match function.as_str() {
        "row_number" => Some((expr, false)),
        "rank" => Some((expr, true)),
        _ => None,
    }
}

/// The nodes from the window's input down to a cross join (each passing rows on, or a
/// projection), and the cross join.
#[allow(clippy::type_complexity)]
fn down_to_cross_join(
    window: &Arc<dyn ExecutionPlan>,
) -> Option<(Vec<Arc<dyn ExecutionPlan>>, Arc<dyn ExecutionPlan>)> {
    let mut path: Vec<Arc<dyn ExecutionPlan>> = Vec::new();
    let mut node = Arc::clone(*window.children().first()?);
    while node.downcast_ref::<CrossJoinExec>().is_none() {
        if !(passes_rows(&node) || node.downcast_ref::<ProjectionExec>().is_some()) {
            return None;
        }
        path.push(Arc::clone(&node));
        let child = Arc::clone(*node.children().first()?);
        node = child;
    }
    Some((path, node))
}

/// `expr` over the top of `path`, as an expression over the cross join's columns (`None`
/// where a projection does not pass what it reads).
fn resolve_through(
    path: &[Arc<dyn ExecutionPlan>],
    expr: &Arc<dyn PhysicalExpr>,
) -> Result<Option<Arc<dyn PhysicalExpr>>> {
    let mut expr = Arc::clone(expr);
    for step in path {
        if let Some(projection) = step.downcast_ref::<ProjectionExec>() {
            match update_expr(&expr, projection.expr(), true)? {
                Some(e) => expr = e,
                None => return Ok(None),
            }
        }
    }
    Ok(Some(expr))
}

/// Whether two operands are vectors of the same length of numbers (fixed-size lists; a
/// scalar result, checked by the caller, means one dimension each).
fn vector_type(a: &arrow::datatypes::DataType, b: &arrow::datatypes::DataType) -> bool {
    use arrow::datatypes::DataType::FixedSizeList;
    match (a, b) {
        (FixedSizeList(fa, la), FixedSizeList(fb, lb)) => {
            la == lb && *la > 0 && fa.data_type().is_numeric() && fb.data_type().is_numeric()
        }
        _ => false,
    }
}
