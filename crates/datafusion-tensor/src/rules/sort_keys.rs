//! Sort keys computed by tensor functions, computed once, in a projection below the sort.
//!
//! `ORDER BY tensor_cosine_similarity(e, q) DESC LIMIT 10` is planned by DataFusion as a
//! `TopK` that evaluates its key expression itself: once per batch to rank the rows, and twice
//! in the dynamic filter it keeps on each batch (`key IS NULL OR key > threshold`), so the
//! similarity of every row was computed three times (twice the time of the same ranking through
//! a subquery: `benches/compare/topk.py`). A full
//! `ORDER BY` also carries every tensor the key reads through the sort. [`ProjectSortKeys`]
//! gives such a sort its keys as columns of a projection below it, as a user writing the
//! subquery `SELECT id FROM (SELECT id, f(e, q) AS s FROM t) ORDER BY s LIMIT 10` does by hand,
//! and a projection above it restores the sort's own columns; DataFusion's projection pruning
//! then drops the tensors nothing above the sort reads.
//!
//! The same for a window's `PARTITION BY` and `ORDER BY` keys (`row_number() OVER (PARTITION BY
//! q.id ORDER BY tensor_l2_distance(t.e, q.v))`, and a `QUALIFY` on it): the sort under the
//! window then carries the distances, not the tensors they came from.

use std::sync::Arc;

use datafusion::common::DFSchema;
use datafusion::common::tree_node::{Transformed, TreeNode, TreeNodeRecursion};
use datafusion::common::{Column, Result};
use datafusion::logical_expr::{Expr, LogicalPlan, Projection, Sort, SortExpr, Window};
use datafusion::optimizer::{ApplyOrder, OptimizerConfig, OptimizerRule};

/// The optimizer rule projecting tensor-function sort keys below their sort (module docs).
/// [`crate::register_all`] and the crate's contexts install it.
#[derive(Debug, Default)]
pub struct ProjectSortKeys;

/// The prefix of the key columns this rule adds.
const KEY_PREFIX: &str = "__tensor_sort_key_";

/// Whether `expr` calls one of this crate's functions (every one is named `tensor_*`).
fn calls_a_tensor_function(expr: &Expr) -> bool {
    let mut found = false;
    // The closure never fails.
    let _ = expr.apply(|e| {
        if let Expr::ScalarFunction(call) = e
            && call.name().starts_with("tensor_")
        {
            found = true;
            return Ok(TreeNodeRecursion::Stop);
        }
        Ok(TreeNodeRecursion::Continue)
    });
    found
}

impl OptimizerRule for ProjectSortKeys {
    fn name(&self) -> &'static str {
        "tensor_project_sort_keys"
    }

    fn apply_order(&self) -> Option<ApplyOrder> {
        Some(ApplyOrder::BottomUp)
    }

    fn supports_rewrite(&self) -> bool {
        true
    }

    fn rewrite(
        &self,
        plan: LogicalPlan,
        _config: &dyn OptimizerConfig,
    ) -> Result<Transformed<LogicalPlan>> {
        match plan {
            LogicalPlan::Sort(sort)
                if sort
                    .expr
                    .iter()
                    .any(|key| calls_a_tensor_function(&key.expr)) =>
            {
                sort_with_projected_keys(sort).map(Transformed::yes)
            }
            LogicalPlan::Window(window) if window.window_expr.iter().any(window_keys_call) => {
                window_with_projected_keys(window).map(Transformed::yes)
            }
            other => Ok(Transformed::no(other)),
        }
    }
}

/// Whether a window expression's `PARTITION BY` or `ORDER BY` calls a tensor function.
fn window_keys_call(expr: &Expr) -> bool {
    let mut found = false;
    let _ = expr.apply(|e| {
        if let Expr::WindowFunction(window) = e
            && (window
                .params
                .partition_by
                .iter()
                .any(calls_a_tensor_function)
                || window
                    .params
                    .order_by
                    .iter()
                    .any(|key| calls_a_tensor_function(&key.expr)))
        {
            found = true;
            return Ok(TreeNodeRecursion::Stop);
        }
        Ok(TreeNodeRecursion::Continue)
    });
    found
}

/// The key columns added below a sort or window: each distinct key expression once, named
/// apart from the input's columns.
struct Keys<'a> {
    taken: std::collections::HashSet<&'a str>,
    keys: Vec<(Expr, String)>,
}

impl<'a> Keys<'a> {
    fn new(schema: &'a DFSchema) -> Self {
        Self {
            taken: schema.fields().iter().map(|f| f.name().as_str()).collect(),
            keys: Vec::new(),
        }
    }

    /// The column standing for `expr` (itself when it calls no tensor function).
    fn column(&mut self, expr: Expr) -> Expr {
        if !calls_a_tensor_function(&expr) {
            return expr;
        }
        if let Some((_, name)) = self.keys.iter().find(|(e, _)| *e == expr) {
            return Expr::Column(Column::from_name(name.clone()));
        }
        let mut name = format!("{KEY_PREFIX}{}", self.keys.len());
        while self.taken.contains(name.as_str()) {
            name.push('_');
        }
        self.keys.push((expr, name.clone()));
        Expr::Column(Column::from_name(name))
    }

    /// A projection of `input`'s columns and the keys.
    fn below(self, input: Arc<LogicalPlan>) -> Result<LogicalPlan> {
        let mut exprs = columns_of(input.schema());
        exprs.extend(self.keys.into_iter().map(|(expr, name)| expr.alias(name)));
        Ok(LogicalPlan::Projection(Projection::try_new(exprs, input)?))
    }
}

/// `schema`'s columns, as expressions.
fn columns_of(schema: &DFSchema) -> Vec<Expr> {
    schema
        .iter()
        .map(|(qualifier, field)| Expr::Column(Column::from((qualifier, field))))
        .collect()
}

/// `sort` over a projection computing its tensor-function keys, under a projection of its
/// own columns.
fn sort_with_projected_keys(sort: Sort) -> Result<LogicalPlan> {
    let Sort { expr, input, fetch } = sort;
    let columns = columns_of(input.schema());
    let mut keys = Keys::new(input.schema());
    let expr: Vec<SortExpr> = expr
        .into_iter()
        .map(|key| SortExpr::new(keys.column(key.expr), key.asc, key.nulls_first))
        .collect();
    let below = keys.below(Arc::clone(&input))?;
    let sorted = LogicalPlan::Sort(Sort {
        expr,
        input: Arc::new(below),
        fetch,
    });
    Ok(LogicalPlan::Projection(Projection::try_new(
        columns,
        Arc::new(sorted),
    )?))
}

/// `window` over a projection computing its tensor-function partition and order keys, each
/// window expression named as before, under a projection of its own columns.
fn window_with_projected_keys(window: Window) -> Result<LogicalPlan> {
    let input = window.input;
    let mut keys = Keys::new(input.schema());
    let mut window_expr = Vec::with_capacity(window.window_expr.len());
    for expr in window.window_expr {
        let name = expr.schema_name().to_string();
        let rewritten = expr
            .transform(|e| {
                let Expr::WindowFunction(mut call) = e else {
                    return Ok(Transformed::no(e));
                };
                let params = &mut call.params;
                params.partition_by = std::mem::take(&mut params.partition_by)
                    .into_iter()
                    .map(|e| keys.column(e))
                    .collect();
                params.order_by = std::mem::take(&mut params.order_by)
                    .into_iter()
                    .map(|key| SortExpr::new(keys.column(key.expr), key.asc, key.nulls_first))
                    .collect();
                Ok(Transformed::yes(Expr::WindowFunction(call)))
            })?
            .data;
        window_expr.push(rewritten.alias(name));
    }
    let output = columns_of(&window.schema);
    let below = keys.below(Arc::clone(&input))?;
    let window = LogicalPlan::Window(Window::try_new(window_expr, Arc::new(below))?);
    Ok(LogicalPlan::Projection(Projection::try_new(
        output,
        Arc::new(window),
    )?))
}
