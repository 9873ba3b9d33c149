//! `tensor_searchsorted(x1, x2 [, side])`: numpy's `searchsorted(x1, x2, side)` per row, `x1`
//! a sorted 1-d tensor, `x2` a tensor of any shape or a number: the int64 indices where each
//! element of `x2` would be inserted into `x1` to keep it sorted, of `x2`'s shape (a plain
//! int64 for a number). Both are compared in numpy's common type of their element types
//! (numpy converts `v` to an array first: a literal number counts as int64 or float64), in
//! numpy's sort order (NaN last). `side` is `'left'` (default) or `'right'`.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef};
use arrow::compute::cast;
use arrow::datatypes::{DataType, Field};
use datafusion::common::{ScalarValue, plan_err};
use datafusion::error::Result;

use super::{Logical, is_number};
use crate::kernels::layout;
use crate::kernels::ragged;
use crate::kernels::search::searchsorted::{SearchRow, searchsorted};
use crate::udf::PlanArgs;
use crate::udf::rows::{known_shape, output_of_known};
use crate::udf::shape::is_omitted;
use crate::variable_shape::{AnyTensorType, VariableShapeType};

/// A compiled `tensor_searchsorted`.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct SearchsortedPlan {
    sorted: AnyTensorType,
    /// `x2`'s type; `None`: a number.
    values: Option<AnyTensorType>,
    /// The type both are compared in.
    element: DataType,
    right: bool,
    /// The result's type; `None`: a plain int64.
    output: Option<AnyTensorType>,
}

impl SearchsortedPlan {
    pub(super) fn output_field(&self, name: &str) -> Field {
        match &self.output {
            Some(output) => output.to_field(name),
            None => Field::new(name, DataType::Int64, true),
        }
    }
}

pub(super) fn plan(args: &PlanArgs<'_>) -> Result<SearchsortedPlan> {
    let name = args.name;
    let sorted = args.any_tensor(0, "x1")?;
    match sorted.ndim() {
        1 => {}
        0 => {
            return plan_err!(
                "{name}: object of too small depth for desired array (x1 must be 1-d)"
            );
        }
        _ => return plan_err!("{name}: object too deep for desired array (x1 must be 1-d)"),
    }
    let v_type = args.fields[1].data_type();
    let values = if is_number(v_type) {
        None
    } else {
        Some(args.any_tensor(1, "x2")?)
    };
    let v_element = values.as_ref().map_or(v_type, AnyTensorType::element_type);
    let elements = [sorted.element_type().clone(), v_element.clone()];
    let Some(element) = crate::dtype::result_type(&elements, &[]) else {
        return plan_err!(
            "{name}: no common type of {} and {}",
            elements[0],
            elements[1]
        );
    };
    let right = if is_omitted(args, 2) {
        false
    } else {
        match args.literal(2) {
            Some(
                ScalarValue::Utf8(Some(s))
                | ScalarValue::LargeUtf8(Some(s))
                | ScalarValue::Utf8View(Some(s)),
            ) if s == "left" || s == "right" => s == "right",
            Some(
                ScalarValue::Utf8(Some(s))
                | ScalarValue::LargeUtf8(Some(s))
                | ScalarValue::Utf8View(Some(s)),
            ) => {
                return plan_err!("{name}: side must be 'left' or 'right' (got '{s}')");
            }
            _ => return plan_err!("{name}: argument side must be a literal string"),
        }
    };
    let output = match &values {
        None => None,
        Some(AnyTensorType::Fixed(t)) => Some(output_of_known(
            &DataType::Int64,
            &known_shape(&AnyTensorType::Fixed(t.clone())),
            t.logical_dim_names(),
        )?),
        Some(AnyTensorType::Variable(t)) => Some(AnyTensorType::Variable(
            VariableShapeType::new(DataType::Int64, t.ndim())?
                .with_dim_names(t.logical_dim_names())?
                .with_uniform_shape(Some(t.logical_uniform_shape()))?,
        )),
    };
    Ok(SearchsortedPlan {
        sorted,
        values,
        element,
        right,
        output,
    })
}

pub(super) fn invoke(name: &str, plan: &SearchsortedPlan, arrays: &[ArrayRef]) -> Result<ArrayRef> {
    let in_element = |values: &ArrayRef| -> Result<ArrayRef> {
        if *values.data_type() == plan.element {
            Ok(Arc::clone(values))
        } else {
            Ok(cast(values, &plan.element)?)
        }
    };
    let a = Logical::read(name, &plan.sorted, &arrays[0])?;
    let rows = a.len();
    let v = match &plan.values {
        Some(tensor) => Some(Logical::read(name, tensor, &arrays[1])?),
        None => None,
    };
    let v_values = in_element(v.as_ref().map_or(&arrays[1], |v| &v.values))?;
    let a_values = in_element(&a.values)?;
    let fixed_out = matches!(plan.output, Some(AnyTensorType::Fixed(_)));
    let mut search_rows: Vec<SearchRow> = Vec::with_capacity(rows);
    let mut lengths = Vec::with_capacity(rows);
    let mut valid = Vec::with_capacity(rows);
    for row in 0..rows {
        let a_row = a.starts[row].map(|start| (start, a.shape(row)[0]));
        let v_row = match &v {
            None => arrays[1].is_valid(row).then_some((row, 1)),
            Some(v) => v.starts[row].map(|start| (start, v.shape(row).iter().product())),
        };
        let both = a_row.zip(v_row);
        // A fixed-shape result's NULL row still holds its (NULL) elements; a variable-shape
        // one's none.
        lengths.push(match &v {
            None => 1,
            Some(v) if fixed_out => v.shapes.iter().product(),
            Some(_) => both.map_or(0, |(_, (_, n))| n),
        });
        valid.push(both.is_some());
        search_rows.push(both);
    }
    let out = searchsorted(
        &plan.element,
        &a_values,
        &v_values,
        &search_rows,
        &lengths,
        plan.right,
    )
    .map_err(|e| e.in_function(name))?;
    let out: ArrayRef = Arc::new(out);
    let nulls = valid
        .contains(&false)
        .then(|| arrow::buffer::NullBuffer::from(valid));
    match (&plan.output, &v) {
        (None, _) => Ok(out),
        (Some(AnyTensorType::Fixed(t)), _) => {
            Ok(Arc::new(layout::tensor_array(t, out, nulls, rows)?))
        }
        (Some(AnyTensorType::Variable(t)), Some(v)) => {
            let mut shapes = Vec::with_capacity(rows * t.ndim());
            for (row, search) in search_rows.iter().enumerate() {
                match search {
                    Some(_) => shapes.extend(
                        v.shape(row)
                            .iter()
                            .map(|&d| i32::try_from(d).unwrap_or(i32::MAX)),
                    ),
                    None => shapes.extend(std::iter::repeat_n(0, t.ndim())),
                }
            }
            Ok(Arc::new(
                ragged::from_rows(t, out, &lengths, shapes, nulls)
                    .map_err(|e| e.in_function(name))?,
            ))
        }
        (Some(AnyTensorType::Variable(_)), None) => datafusion::common::internal_err!(
            "{name}: a variable-shape result planned for a number x2"
        ),
    }
}
