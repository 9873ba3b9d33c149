//! Searching, selecting and sets per row (the array API standard's searching and set
//! functions, and the top-k a nearest-neighbour session reaches for): `tensor_topk`,
//! `tensor_nonzero`, `tensor_searchsorted`, `tensor_unique_values`, `tensor_unique_counts`,
//! `tensor_unique_inverse` and `tensor_unique_all`, on fixed- and variable-shape tensors.
//!
//! One [`TensorSearch`] per function ([`SearchFunction`]); `topk.rs`, `nonzero.rs`,
//! `searchsorted.rs` and `unique.rs` plan and run each (a struct of tensors where numpy or
//! torch return a tuple), `docs.rs` holds the documentation. The loops are
//! [`crate::kernels::search`]'s.

mod count;
mod docs;
mod nonzero;
mod partition;
mod searchsorted;
mod topk;
mod unique;

use std::sync::Arc;

use arrow::array::{Array, ArrayRef, StructArray};
use arrow::buffer::NullBuffer;
use arrow::datatypes::{DataType, Field, FieldRef, Fields};
use datafusion::common::{ScalarValue, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::{ColumnarValue, Documentation};

use super::{Parameters, PlanArgs, TensorFunction, tensor_array, variable_array};
use crate::kernels::search::RowAt;
use crate::kernels::{layout, ragged};
use crate::variable_shape::AnyTensorType;

/// The SQL functions of this family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SearchFunction {
    /// `tensor_topk`: the `k` largest (smallest) along an axis, values and indices.
    TopK,
    /// `tensor_nonzero`.
    Nonzero,
    /// `tensor_searchsorted`.
    Searchsorted,
    /// `tensor_unique_values`.
    UniqueValues,
    /// `tensor_unique_counts`.
    UniqueCounts,
    /// `tensor_unique_inverse`.
    UniqueInverse,
    /// `tensor_unique_all`.
    UniqueAll,
    /// `tensor_bincount`.
    Bincount,
    /// `tensor_one_hot`.
    OneHot,
    /// `tensor_argpartition`.
    Argpartition,
}

impl SearchFunction {
    /// Every function, in registration order.
    pub const ALL: [Self; 10] = [
        Self::TopK,
        Self::Argpartition,
        Self::Nonzero,
        Self::Searchsorted,
        Self::UniqueValues,
        Self::UniqueCounts,
        Self::UniqueInverse,
        Self::UniqueAll,
        Self::Bincount,
        Self::OneHot,
    ];

    /// The SQL name.
    pub fn function_name(self) -> &'static str {
        match self {
            Self::TopK => "tensor_topk",
            Self::Nonzero => "tensor_nonzero",
            Self::Searchsorted => "tensor_searchsorted",
            Self::UniqueValues => "tensor_unique_values",
            Self::UniqueCounts => "tensor_unique_counts",
            Self::UniqueInverse => "tensor_unique_inverse",
            Self::UniqueAll => "tensor_unique_all",
            Self::Bincount => "tensor_bincount",
            Self::OneHot => "tensor_one_hot",
            Self::Argpartition => "tensor_argpartition",
        }
    }

    /// The parameter names, in order, and how many are required.
    fn parameters(self) -> (&'static [&'static str], usize) {
        match self {
            Self::TopK => (&["x", "k", "axis", "largest"], 2),
            // numpy's argpartition(a, kth, axis=-1).
            Self::Argpartition => (&["x", "kth", "axis"], 2),
            // The standard's `searchsorted(x1, x2, /, *, side='left', sorter=None)`, without
            // sorter.
            Self::Searchsorted => (&["x1", "x2", "side"], 2),
            Self::Bincount => (&["x", "weights", "minlength"], 1),
            // jax.nn.one_hot(x, num_classes, *, dtype=float32).
            Self::OneHot => (&["x", "num_classes", "dtype"], 2),
            Self::Nonzero
            | Self::UniqueValues
            | Self::UniqueCounts
            | Self::UniqueInverse
            | Self::UniqueAll => (&["x"], 1),
        }
    }
}

/// A function of this family.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorSearch {
    function: SearchFunction,
    documentation: Documentation,
}

impl TensorSearch {
    /// The registered instance of `function`.
    pub fn new(function: SearchFunction) -> Self {
        Self {
            function,
            documentation: docs::documentation(function),
        }
    }
}

/// A compiled call.
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum SearchPlan {
    /// `tensor_topk`.
    TopK(topk::TopKPlan),
    /// `tensor_nonzero`.
    Nonzero(nonzero::NonzeroPlan),
    /// `tensor_searchsorted`.
    Searchsorted(searchsorted::SearchsortedPlan),
    /// `tensor_unique_*`.
    Unique(unique::UniquePlan),
    /// `tensor_bincount`.
    Bincount(count::BincountPlan),
    /// `tensor_one_hot`.
    OneHot(count::OneHotPlan),
    /// `tensor_argpartition`.
    Argpartition(partition::ArgpartitionPlan),
}

impl TensorFunction for TensorSearch {
    type Plan = SearchPlan;

    fn name(&self) -> &'static str {
        self.function.function_name()
    }

    fn parameters(&self) -> Parameters {
        let (names, required) = self.function.parameters();
        Parameters::Fixed { names, required }
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.documentation)
    }

    fn tensor_arguments(&self, arg_types: &[DataType]) -> Vec<usize> {
        match self.function {
            // x2 may be a number (numpy's scalar `v`).
            SearchFunction::Searchsorted if arg_types.len() > 1 && is_number(&arg_types[1]) => {
                vec![0]
            }
            SearchFunction::Searchsorted | SearchFunction::Bincount => vec![0, 1],
            SearchFunction::OneHot if arg_types.first().is_some_and(is_number) => Vec::new(),
            _ => vec![0],
        }
    }

    fn plan(&self, args: &PlanArgs<'_>) -> Result<SearchPlan> {
        Ok(match self.function {
            SearchFunction::TopK => SearchPlan::TopK(topk::plan(args)?),
            SearchFunction::Nonzero => SearchPlan::Nonzero(nonzero::plan(args)?),
            SearchFunction::Searchsorted => SearchPlan::Searchsorted(searchsorted::plan(args)?),
            SearchFunction::Bincount => SearchPlan::Bincount(count::plan_bincount(args)?),
            SearchFunction::OneHot => SearchPlan::OneHot(count::plan_one_hot(args)?),
            SearchFunction::Argpartition => SearchPlan::Argpartition(partition::plan(args)?),
            function => SearchPlan::Unique(unique::plan(function, args)?),
        })
    }

    fn return_field(&self, plan: &SearchPlan) -> FieldRef {
        let name = self.name();
        Arc::new(match plan {
            SearchPlan::TopK(plan) => struct_field(name, plan.fields()),
            SearchPlan::Nonzero(plan) => plan.output.to_field(name),
            SearchPlan::Searchsorted(plan) => plan.output_field(name),
            SearchPlan::Unique(plan) => plan.output_field(name),
            SearchPlan::Bincount(plan) => plan.output.to_field(name),
            SearchPlan::OneHot(plan) => plan.output.to_field(name),
            SearchPlan::Argpartition(plan) => plan.output.to_field(name),
        })
    }

    fn invoke(
        &self,
        plan: &SearchPlan,
        args: &[ColumnarValue],
        number_rows: usize,
    ) -> Result<ColumnarValue> {
        let name = self.name();
        match plan {
            SearchPlan::TopK(plan) => {
                super::map_arrays(args, &[0], number_rows, |a| topk::invoke(name, plan, &a[0]))
            }
            SearchPlan::Nonzero(plan) => super::map_arrays(args, &[0], number_rows, |a| {
                nonzero::invoke(name, plan, &a[0])
            }),
            SearchPlan::Searchsorted(plan) => super::map_arrays(args, &[0, 1], number_rows, |a| {
                searchsorted::invoke(name, plan, a)
            }),
            SearchPlan::Unique(plan) => super::map_arrays(args, &[0], number_rows, |a| {
                unique::invoke(name, plan, &a[0])
            }),
            SearchPlan::Bincount(plan) => {
                let data: Vec<usize> = if plan.has_weights() {
                    vec![0, 1]
                } else {
                    vec![0]
                };
                super::map_arrays(args, &data, number_rows, |a| {
                    count::invoke_bincount(name, plan, a)
                })
            }
            SearchPlan::OneHot(plan) => super::map_arrays(args, &[0], number_rows, |a| {
                count::invoke_one_hot(name, plan, &a[0])
            }),
            SearchPlan::Argpartition(plan) => super::map_arrays(args, &[0], number_rows, |a| {
                partition::invoke(name, plan, &a[0])
            }),
        }
    }
}

/// Whether a plain number (or boolean) column or literal stands at an argument, not a tensor.
fn is_number(data_type: &DataType) -> bool {
    data_type.is_numeric() || *data_type == DataType::Boolean
}

/// A struct column's field holding `fields`.
fn struct_field(name: &str, fields: Fields) -> Field {
    Field::new(name, DataType::Struct(fields), true)
}

/// A struct of `columns`, NULL where `nulls` says.
fn struct_array(
    fields: Fields,
    columns: Vec<ArrayRef>,
    nulls: Option<NullBuffer>,
) -> Result<ArrayRef> {
    Ok(Arc::new(StructArray::try_new(fields, columns, nulls)?))
}

/// A literal boolean option (`default` when absent or NULL).
fn flag(args: &PlanArgs<'_>, i: usize, option: &str, default: bool) -> Result<bool> {
    if super::shape::is_omitted(args, i) {
        return Ok(default);
    }
    match args.literal(i) {
        Some(ScalarValue::Boolean(Some(b))) => Ok(*b),
        _ => plan_err!("{}: argument {option} must be a literal boolean", args.name),
    }
}

/// A tensor argument's batch in logical row-major order: its values, and where each row is
/// and its logical shape.
struct Logical {
    values: ArrayRef,
    /// Each row's start (`None`: a NULL row).
    starts: Vec<Option<usize>>,
    /// Every row's shape (`ndim` each), or the one shape of a fixed-shape batch.
    shapes: Vec<usize>,
    /// Whether `shapes` holds one shape for every row.
    same: bool,
    ndim: usize,
    nulls: Option<NullBuffer>,
}

impl Logical {
    fn read(name: &str, tensor: &AnyTensorType, array: &ArrayRef) -> Result<Self> {
        Ok(match tensor {
            AnyTensorType::Fixed(t) => {
                let list = tensor_array(name, array)?;
                let size = t.size();
                Self {
                    values: layout::row_major_values(t, list)?,
                    starts: (0..list.len())
                        .map(|r| list.is_valid(r).then_some(r * size))
                        .collect(),
                    shapes: t.logical_shape(),
                    same: true,
                    ndim: t.ndim(),
                    nulls: list.logical_nulls(),
                }
            }
            AnyTensorType::Variable(t) => {
                let view = variable_array(name, t, array)?;
                let values = ragged::row_major_values(&view).map_err(|e| e.in_function(name))?;
                let ndim = t.ndim();
                let mut starts = Vec::with_capacity(view.len());
                let mut shapes = Vec::with_capacity(view.len() * ndim);
                let mut at = 0;
                for row in 0..view.len() {
                    if view.is_null(row) {
                        starts.push(None);
                        shapes.extend(std::iter::repeat_n(0, ndim));
                    } else {
                        starts.push(Some(at));
                        at += view.value_range(row).len();
                        shapes.extend(view.logical_shape(row));
                    }
                }
                Self {
                    values,
                    starts,
                    shapes,
                    same: false,
                    ndim,
                    nulls: view.nulls().cloned(),
                }
            }
        })
    }

    fn len(&self) -> usize {
        self.starts.len()
    }

    /// Row `row`'s logical shape.
    fn shape(&self, row: usize) -> &[usize] {
        if self.same {
            &self.shapes
        } else {
            &self.shapes[row * self.ndim..(row + 1) * self.ndim]
        }
    }

    /// Every row's place (`None` for a NULL row).
    fn rows(&self) -> Vec<Option<RowAt<'_>>> {
        (0..self.len())
            .map(|row| {
                self.starts[row].map(|start| RowAt {
                    start,
                    shape: self.shape(row),
                })
            })
            .collect()
    }
}
