//! One tensor type per `UNION` column, whatever layout each branch stores its tensors in.
//!
//! DataFusion types a `UNION` column by keeping the field metadata its branches agree on, byte
//! for byte. Tensor types that are equal but written differently (pyarrow writes the identity
//! permutation, `{"shape":[2,3],"permutation":[0,1]}`; computed tensors carry none) then lose
//! their metadata, and so do tensors of one logical shape stored in different layouts (a
//! column and its `tensor_transpose`, which only relabels): the union's values would be read
//! with one layout, or as flat lists. [`reconcile_union_layouts`] gives each such column one
//! type and makes every branch deliver it:
//! - branches whose types are equal (however their metadata is written) keep their layout; the
//!   union takes that type, written canonically;
//! - branches of one logical shape and element type in different layouts (permutations or dim
//!   names) are written out row-major, as numpy's `ascontiguousarray`
//!   ([`crate::udf::TensorAscontiguousarray`]); the union takes the row-major type with the
//!   first branch's dim names (SQL names a union's columns after its first branch too);
//! - other logical shapes or element types are a plan error naming both types in full (numpy
//!   cannot concatenate arrays of different shapes either).
//!
//! The union's schema is then derived again, and so is every plan node above it. Three hooks
//! run it: [`TensorUnionRelations`] (an SQL relation planner) for a union in a `FROM` clause,
//! so that the functions of the query around it are planned with the reconciled type; the
//! SQL entry points of this crate (`TensorSql::tensor_sql`, the CLI) on every planned
//! statement (a top-level union, `COPY`, `CREATE VIEW`, `INSERT`), with the SQL rewrite moving a
//! `WITH` query's union into a `FROM` clause; and [`TensorUnionLayouts`], an analyzer rule,
//! for plans built any other way (the DataFrame API, `SessionContext::sql`).

use std::collections::HashMap;
use std::sync::Arc;

use arrow::datatypes::Field;
use datafusion::common::config::ConfigOptions;
use datafusion::common::tree_node::{Transformed, TreeNodeRecursion};
use datafusion::common::{Column, plan_err};
use datafusion::error::{DataFusionError, Result};
use datafusion::logical_expr::expr::ScalarFunction;
use datafusion::logical_expr::planner::{
    PlannedRelation, RelationPlanner, RelationPlannerContext, RelationPlanning,
};
use datafusion::logical_expr::{Expr, LogicalPlan, Projection, ScalarUDF, Union};
use datafusion::optimizer::AnalyzerRule;
use datafusion::sql::sqlparser::ast::{Ident, SetExpr, TableAlias, TableFactor};

use crate::tensor_type::{EXTENSION_TYPE_METADATA_KEY, EXTENSION_TYPE_NAME_KEY, TensorType};
use crate::udf::{TensorAscontiguousarray, TensorTyped, TensorUdf};
use crate::variable_shape::{AnyTensorType, VariableShapeType, has_any_tensor_extension};

/// Every `UNION` in `plan` (and its subqueries) with one tensor type per column, and the
/// schemas of the nodes above a changed union derived again (see the module docs).
///
/// # Errors
/// A plan error when a column's branches hold tensors of different logical shapes or element
/// types, or one holds a fixed-shape and another a variable-shape tensor.
pub fn reconcile_union_layouts(plan: LogicalPlan) -> Result<Transformed<LogicalPlan>> {
    let mut needed = false;
    plan.apply_with_subqueries(|node| {
        // A union under another one has not been reconciled yet: an error here (a branch that
        // lost its metadata to an inner union) is for the pass below to settle or report.
        if let LogicalPlan::Union(union) = node
            && union_targets(union).map_or(true, |targets| targets.iter().any(Option::is_some))
        {
            needed = true;
            return Ok(TreeNodeRecursion::Stop);
        }
        Ok(TreeNodeRecursion::Continue)
    })?;
    if !needed {
        return Ok(Transformed::no(plan));
    }
    plan.transform_up_with_subqueries(|node| match node {
        LogicalPlan::Union(union) => reconcile(union),
        // A node above a reconciled union: its schema derived again from its inputs.
        other => other.recompute_schema().map(Transformed::yes),
    })
}

/// The analyzer rule that runs [`reconcile_union_layouts`] on plans built without this crate's
/// SQL entry points. [`crate::register_all`] installs it before DataFusion's type coercion.
#[derive(Debug, Default)]
pub struct TensorUnionLayouts;

impl AnalyzerRule for TensorUnionLayouts {
    fn name(&self) -> &'static str {
        "tensor_union_layouts"
    }

    fn analyze(&self, plan: LogicalPlan, _config: &ConfigOptions) -> Result<LogicalPlan> {
        reconcile_union_layouts(plan).map(|transformed| transformed.data)
    }
}

/// The alias this planner plans a derived table under to let DataFusion plan it (see
/// [`TensorUnionRelations`]); removed again from the result.
const PLANNING_ALIAS: &str = "__datafusion_tensor_union_planning";

/// An SQL relation planner for a derived table whose query is a set operation
/// (`FROM (SELECT x FROM a UNION ALL SELECT y FROM b) AS t`): DataFusion plans it, then
/// [`reconcile_union_layouts`] gives its columns one tensor type, before the query around it
/// is planned with them. [`crate::register_all`] installs it.
#[derive(Debug, Default)]
pub struct TensorUnionRelations;

impl RelationPlanner for TensorUnionRelations {
    fn plan_relation(
        &self,
        relation: TableFactor,
        context: &mut dyn RelationPlannerContext,
    ) -> Result<RelationPlanning> {
        let TableFactor::Derived {
            lateral,
            subquery,
            alias,
            sample,
        } = relation
        else {
            return Ok(RelationPlanning::Original(Box::new(relation)));
        };
        let planning = alias
            .as_ref()
            .is_some_and(|alias| alias.name.value == PLANNING_ALIAS);
        if planning || !matches!(*subquery.body, SetExpr::SetOperation { .. }) || sample.is_some() {
            return Ok(RelationPlanning::Original(Box::new(TableFactor::Derived {
                lateral,
                subquery,
                alias,
                sample,
            })));
        }
        // DataFusion's own planning of the derived table, under an alias that sends it past
        // this planner.
        let plan = context.plan(TableFactor::Derived {
            lateral,
            subquery,
            alias: Some(TableAlias {
                explicit: true,
                name: Ident::new(PLANNING_ALIAS),
                columns: vec![],
                at: None,
            }),
            sample: None,
        })?;
        let plan = match plan {
            LogicalPlan::SubqueryAlias(planned) if planned.alias.table() == PLANNING_ALIAS => {
                Arc::unwrap_or_clone(planned.input)
            }
            other => other,
        };
        let plan = reconcile_union_layouts(plan)?.data;
        Ok(RelationPlanning::Planned(Box::new(PlannedRelation::new(
            plan, alias,
        ))))
    }
}

/// The tensor type of a union column, and how it is told from the branches' own.
#[derive(Debug)]
struct Target {
    tensor: AnyTensorType,
    metadata: HashMap<String, String>,
}

impl Target {
    fn new(tensor: AnyTensorType) -> Self {
        let metadata = tensor.field_metadata();
        Self { tensor, metadata }
    }

    /// Whether `field` already carries this type, written as this crate writes it.
    fn carried_by(&self, field: &Field) -> bool {
        [EXTENSION_TYPE_NAME_KEY, EXTENSION_TYPE_METADATA_KEY]
            .iter()
            .all(|key| field.metadata().get(*key) == self.metadata.get(*key))
    }
}

/// For each column of `union`, the tensor type it takes when a branch does not already deliver
/// it as written (`None`: nothing to do for that column).
fn union_targets(union: &Union) -> Result<Vec<Option<Target>>> {
    let width = union.schema.fields().len();
    if union
        .inputs
        .iter()
        .any(|input| input.schema().fields().len() != width)
    {
        // DataFusion's own error says which.
        return Ok(vec![]);
    }
    (0..width)
        .map(|i| {
            let fields: Vec<&Field> = union
                .inputs
                .iter()
                .map(|input| input.schema().field(i).as_ref())
                .collect();
            let target = column_target(i, &fields)?;
            Ok(target.filter(|target| {
                fields
                    .iter()
                    .any(|field| has_any_tensor_extension(field) && !target.carried_by(field))
            }))
        })
        .collect()
}

/// The type column `i` takes in a union of branches whose fields are `fields`.
fn column_target(i: usize, fields: &[&Field]) -> Result<Option<Target>> {
    let mut typed = Vec::new();
    for (branch, field) in fields.iter().enumerate() {
        if !has_any_tensor_extension(field) {
            continue;
        }
        let tensor = AnyTensorType::from_field(field).map_err(|err| {
            DataFusionError::Plan(format!(
                "UNION: column {} ('{}') of branch {}: {err}",
                i + 1,
                field.name(),
                branch + 1
            ))
        })?;
        if let Some(tensor) = tensor {
            typed.push((branch, tensor));
        }
    }
    let Some(((first_branch, first), rest)) = typed.split_first() else {
        return Ok(None);
    };
    let name = fields[*first_branch].name();
    if rest.iter().all(|(_, tensor)| tensor == first) {
        return Ok(Some(Target::new(first.clone())));
    }
    for (branch, tensor) in rest {
        if !same_logical_type(first, tensor) {
            return plan_err!(
                "UNION: column {} ('{name}') is {} in branch {} but {} in branch {}{}: the branches of a UNION must hold tensors of one logical shape and element type (reshape or cast one with tensor_reshape, tensor_astype, tensor_to_variable)",
                i + 1,
                first.type_name(),
                first_branch + 1,
                tensor.type_name(),
                branch + 1,
                logical_shapes(first, tensor)
            );
        }
    }
    Ok(Some(Target::new(row_major_union(
        first,
        rest.iter().map(|(_, t)| t),
    )?)))
}

/// " (logical shapes (2, 3) and (3, 2))" for two fixed-shape types (the types' names give their
/// stored shapes), nothing otherwise: for the errors naming two types that do not agree.
pub(crate) fn logical_shapes(a: &AnyTensorType, b: &AnyTensorType) -> String {
    match (a, b) {
        (AnyTensorType::Fixed(a), AnyTensorType::Fixed(b)) => format!(
            " (logical shapes {} and {})",
            crate::shape::format_shape(&a.logical_shape()),
            crate::shape::format_shape(&b.logical_shape())
        ),
        _ => String::new(),
    }
}

/// Whether `a` and `b` hold the same logical tensors (element type, and logical shape or, for
/// variable-shape tensors, number of dimensions), whatever their layouts and dim names.
pub(crate) fn same_logical_type(a: &AnyTensorType, b: &AnyTensorType) -> bool {
    match (a, b) {
        (AnyTensorType::Fixed(a), AnyTensorType::Fixed(b)) => {
            a.element_type() == b.element_type() && a.logical_shape() == b.logical_shape()
        }
        (AnyTensorType::Variable(a), AnyTensorType::Variable(b)) => {
            a.element_type() == b.element_type() && a.ndim() == b.ndim()
        }
        _ => false,
    }
}

/// The row-major type a union of `first` and `others` (one logical type, checked) takes: the
/// first branch's dim names, and for variable-shape tensors the dimensions uniform in every
/// branch with one length.
pub(crate) fn row_major_union<'a>(
    first: &AnyTensorType,
    others: impl Iterator<Item = &'a AnyTensorType>,
) -> Result<AnyTensorType> {
    Ok(match first {
        AnyTensorType::Fixed(tensor) => AnyTensorType::Fixed(tensor.to_row_major()),
        AnyTensorType::Variable(tensor) => {
            let row_major = tensor.to_row_major();
            let mut uniform = tensor.logical_uniform_shape();
            for other in others {
                if let AnyTensorType::Variable(other) = other {
                    for (dim, theirs) in uniform.iter_mut().zip(other.logical_uniform_shape()) {
                        if *dim != theirs {
                            *dim = None;
                        }
                    }
                }
            }
            let uniform = uniform.iter().any(Option::is_some).then_some(uniform);
            AnyTensorType::Variable(
                VariableShapeType::new(row_major.element_type().clone(), row_major.ndim())
                    .and_then(|t| t.with_dim_names(row_major.dim_names().map(<[String]>::to_vec)))
                    .and_then(|t| t.with_uniform_shape(uniform))
                    .map_err(|err| DataFusionError::Plan(format!("UNION: {err}")))?,
            )
        }
    })
}

/// `union` with each branch delivering its columns' target types.
fn reconcile(union: Union) -> Result<Transformed<LogicalPlan>> {
    let targets = union_targets(&union)?;
    if !targets.iter().any(Option::is_some) {
        // Its branches may have changed below it (an inner union): its schema derived again
        // (`recompute_schema` keeps a union's schema while its width stays).
        return Ok(Transformed::yes(LogicalPlan::Union(
            Union::try_new_with_loose_types(union.inputs)?,
        )));
    }
    let contiguous = Arc::new(ScalarUDF::new_from_impl(TensorUdf::new(
        TensorAscontiguousarray::new(),
    )));
    let inputs = union
        .inputs
        .into_iter()
        .map(|input| branch(input, &targets, &contiguous))
        .collect::<Result<Vec<_>>>()?;
    Ok(Transformed::yes(LogicalPlan::Union(
        Union::try_new_with_loose_types(inputs)?,
    )))
}

/// A union branch projected to deliver `targets` (the branch itself when it already does).
fn branch(
    input: Arc<LogicalPlan>,
    targets: &[Option<Target>],
    contiguous: &Arc<ScalarUDF>,
) -> Result<Arc<LogicalPlan>> {
    let schema = Arc::clone(input.schema());
    let mut changed = false;
    let exprs = schema
        .iter()
        .zip(targets)
        .map(|((qualifier, field), target)| {
            let column = Expr::Column(Column::from((qualifier, field)));
            let Some(target) = target
                .as_ref()
                .filter(|t| has_any_tensor_extension(field) && !t.carried_by(field))
            else {
                return Ok(column);
            };
            changed = true;
            let tensor = AnyTensorType::from_field(field)
                .map_err(|err| DataFusionError::Plan(format!("UNION: {err}")))?;
            let mut expr = column;
            if tensor
                .as_ref()
                .is_some_and(|t| !same_layout(t, &target.tensor))
            {
                expr = Expr::ScalarFunction(ScalarFunction::new_udf(
                    Arc::clone(contiguous),
                    vec![expr],
                ));
            }
            // The target type, written canonically (dim names, an identity permutation).
            let typed = ScalarUDF::new_from_impl(TensorTyped::with_state(
                Some(target.tensor.clone()),
                None,
            ));
            Ok(
                Expr::ScalarFunction(ScalarFunction::new_udf(Arc::new(typed), vec![expr]))
                    .alias_qualified(qualifier.cloned(), field.name()),
            )
        })
        .collect::<Result<Vec<_>>>()?;
    if !changed {
        return Ok(input);
    }
    Ok(Arc::new(LogicalPlan::Projection(Projection::try_new(
        exprs, input,
    )?)))
}

/// Whether `a` stores its values as `b` does (one physical shape and permutation), so that a
/// change of metadata alone turns one into the other.
pub(crate) fn same_layout(a: &AnyTensorType, b: &AnyTensorType) -> bool {
    fn fixed(t: &TensorType) -> (&[usize], Option<&[usize]>) {
        (t.physical_shape(), t.permutation())
    }
    match (a, b) {
        (AnyTensorType::Fixed(a), AnyTensorType::Fixed(b)) => fixed(a) == fixed(b),
        (AnyTensorType::Variable(a), AnyTensorType::Variable(b)) => {
            a.permutation() == b.permutation()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow::datatypes::DataType;

    fn field(tensor: &TensorType, json: &str) -> Field {
        Field::new("x", tensor.storage_type(), true).with_metadata(HashMap::from([
            (
                EXTENSION_TYPE_NAME_KEY.to_string(),
                crate::tensor_type::EXTENSION_NAME.to_string(),
            ),
            (EXTENSION_TYPE_METADATA_KEY.to_string(), json.to_string()),
        ]))
    }

    #[test]
    fn identity_permutation_and_none_are_one_type() {
        let t = TensorType::new(DataType::Float32, vec![2, 3]).unwrap();
        let pyarrow = field(&t, r#"{"shape":[2,3],"permutation":[0,1]}"#);
        let ours = t.to_field("x");
        let target = column_target(0, &[&pyarrow, &ours]).unwrap().unwrap();
        assert_eq!(target.tensor, AnyTensorType::Fixed(t));
        assert!(target.carried_by(&ours));
        assert!(!target.carried_by(&pyarrow));
    }

    #[test]
    fn layouts_of_one_logical_shape_become_row_major() {
        let stored = TensorType::new(DataType::Float32, vec![3, 2])
            .unwrap()
            .with_permutation(Some(vec![1, 0]))
            .unwrap()
            .with_dim_names(Some(vec!["w".into(), "h".into()]))
            .unwrap();
        let plain = TensorType::new(DataType::Float32, vec![2, 3]).unwrap();
        let target = column_target(0, &[&stored.to_field("x"), &plain.to_field("x")])
            .unwrap()
            .unwrap();
        let AnyTensorType::Fixed(target) = target.tensor else {
            panic!("a fixed-shape target");
        };
        assert_eq!(target.physical_shape(), &[2, 3]);
        assert!(!target.is_permuted());
        assert_eq!(
            target.dim_names().unwrap(),
            &["h".to_string(), "w".to_string()]
        );
    }

    #[test]
    fn other_logical_shapes_are_an_error_naming_both() {
        let a = TensorType::new(DataType::Float32, vec![2, 3]).unwrap();
        let b = TensorType::new(DataType::Float32, vec![3, 2]).unwrap();
        let err = column_target(0, &[&a.to_field("x"), &b.to_field("x")])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("UNION: column 1 ('x') is arrow.fixed_shape_tensor<Float32, [2, 3]> in branch 1 but arrow.fixed_shape_tensor<Float32, [3, 2]> in branch 2"),
            "{err}"
        );
    }
}
