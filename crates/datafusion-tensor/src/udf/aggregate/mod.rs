//! Aggregates over a tensor column (spec.md §10): `tensor_agg_sum`, `_mean`, `_min`, `_max`,
//! `_prod`, `_var`, `_std` (numpy's `np.<op>(np.stack(rows), axis=0)` over a group's non-NULL
//! rows), `tensor_agg_stack` (`np.stack` in the call's ORDER BY order) and `tensor_agg_cov`,
//! `tensor_agg_corrcoef` (numpy's `cov`/`corrcoef` of the stacked rows, `rowvar=False`).
//!
//! An instance holds nothing but which function it is: everything a call needs is derived
//! from DataFusion's arguments (the argument fields, the `ddof` literal, the ORDER BY), so the
//! registered function resolves by name wherever a plan runs.
//!
//! - [`columns`]: the argument and result tensor types, batches in and results out;
//! - [`state`]: an elementwise aggregate's groups and its intermediate state's layout;
//! - [`accumulator`] / [`groups`]: DataFusion's one-group and many-groups forms of it;
//! - [`stack`] / [`stack_groups`]: numpy's stack, `tensor_agg_stack`, in its one-group and
//!   many-groups forms;
//! - [`cov`]: `tensor_agg_cov` and `tensor_agg_corrcoef`, one group's running co-moments;
//! - [`docs`]: the documentation.
//!
//! The element loops are [`crate::kernels::aggregate`]'s.

mod accumulator;
mod columns;
mod cov;
mod docs;
mod groups;
mod stack;
mod stack_groups;
mod state;

use std::sync::Arc;

use arrow::array::RecordBatch;
use arrow::datatypes::{DataType, FieldRef};
use datafusion::common::{ScalarValue, internal_err, plan_err};
use datafusion::error::Result;
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use datafusion::logical_expr::utils::AggregateOrderSensitivity;
use datafusion::logical_expr::{
    Accumulator, AggregateUDFImpl, ColumnarValue, Documentation, GroupsAccumulator, Signature,
};
use datafusion::physical_expr::expressions::Literal;

use self::accumulator::TensorAccumulator;
use self::columns::Columns;
use self::groups::TensorGroupsAccumulator;
use self::stack::StackAccumulator;
use self::stack_groups::StackGroupsAccumulator;
use self::state::AggregateState;
use super::Parameters;
use crate::kernels::aggregate::Aggregation;
use crate::limits::Limits;

/// An aggregate function over tensors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AggregateFunction {
    /// `tensor_agg_sum`.
    Sum,
    /// `tensor_agg_mean`.
    Mean,
    /// `tensor_agg_min`.
    Min,
    /// `tensor_agg_max`.
    Max,
    /// `tensor_agg_prod`.
    Prod,
    /// `tensor_agg_var`.
    Var,
    /// `tensor_agg_std`.
    Std,
    /// `tensor_agg_stack`.
    Stack,
    /// `tensor_agg_cov`.
    Cov,
    /// `tensor_agg_corrcoef`.
    Corrcoef,
}

impl AggregateFunction {
    /// Every aggregate, in the order of their discriminants.
    pub const ALL: [Self; 10] = [
        Self::Sum,
        Self::Mean,
        Self::Min,
        Self::Max,
        Self::Prod,
        Self::Var,
        Self::Std,
        Self::Stack,
        Self::Cov,
        Self::Corrcoef,
    ];

    /// The SQL name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Sum => "tensor_agg_sum",
            Self::Mean => "tensor_agg_mean",
            Self::Min => "tensor_agg_min",
            Self::Max => "tensor_agg_max",
            Self::Prod => "tensor_agg_prod",
            Self::Var => "tensor_agg_var",
            Self::Std => "tensor_agg_std",
            Self::Stack => "tensor_agg_stack",
            Self::Cov => "tensor_agg_cov",
            Self::Corrcoef => "tensor_agg_corrcoef",
        }
    }

    /// How it takes its arguments.
    pub fn parameters(self) -> Parameters {
        match self {
            Self::Var | Self::Std | Self::Cov => Parameters::Fixed {
                names: &["x", "ddof"],
                required: 1,
            },
            _ => Parameters::Fixed {
                names: &["x"],
                required: 1,
            },
        }
    }

    /// Whether this is `tensor_agg_cov` or `tensor_agg_corrcoef` ([`cov`]).
    fn covariance(self) -> bool {
        matches!(self, Self::Cov | Self::Corrcoef)
    }

    /// The elementwise aggregate (`None`: the stack, cov and corrcoef).
    fn aggregation(self, ddof: i64) -> Option<Aggregation> {
        Some(match self {
            Self::Sum => Aggregation::Sum,
            Self::Mean => Aggregation::Mean,
            Self::Min => Aggregation::Min,
            Self::Max => Aggregation::Max,
            Self::Prod => Aggregation::Prod,
            Self::Var => Aggregation::Var { ddof },
            Self::Std => Aggregation::Std { ddof },
            Self::Stack | Self::Cov | Self::Corrcoef => return None,
        })
    }

    /// Whether a row can be taken back out (sliding window frames).
    fn retracts(self) -> bool {
        matches!(self, Self::Sum | Self::Mean | Self::Var | Self::Std)
    }
}

/// An aggregate function over tensors as a DataFusion aggregate UDF.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct TensorAggregate {
    function: AggregateFunction,
    signature: Signature,
    /// The session's limits: DataFusion gives an accumulator no configuration, so a call's
    /// instance carries them ([`crate::rules::SessionLimits`] sets them at analysis).
    limits: Limits,
}

impl TensorAggregate {
    /// The registered instance of `function` (with the default limits).
    pub fn new(function: AggregateFunction) -> Self {
        Self {
            function,
            signature: function.parameters().signature(),
            limits: Limits::default(),
        }
    }

    /// This function under a session's `limits`.
    #[must_use]
    pub fn with_limits(&self, limits: Limits) -> Self {
        Self {
            limits,
            ..Self::new(self.function)
        }
    }

    /// The limits its accumulators run under.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Which function this is.
    pub fn function(&self) -> AggregateFunction {
        self.function
    }

    /// The argument and result types of a call with argument fields `fields`.
    fn columns(&self, fields: &[FieldRef]) -> Result<Columns> {
        let function = self.function;
        Columns::plan(function.name(), fields, |element| {
            match function.aggregation(0) {
                Some(aggregation) => aggregation.result_type(element),
                None => element.clone(),
            }
        })
    }

    /// The `ddof` of a call (a literal integer; when omitted or NULL, 1 for `cov` as numpy's
    /// unbiased estimate, else 0).
    fn ddof(&self, args: &AccumulatorArgs<'_>) -> Result<i64> {
        let name = self.function.name();
        let default = i64::from(self.function == AggregateFunction::Cov);
        let Some(expr) = args.exprs.get(1) else {
            return Ok(default);
        };
        if let Some(literal) = expr.downcast_ref::<Literal>() {
            if literal.value().is_null() {
                return Ok(default);
            }
            return ddof_value(name, literal.value());
        }
        // A literal that crossed an FFI (datafusion-python's `FFI_AggregateUDF` wraps every
        // expression): it evaluates to one value without reading a row, where a column gives
        // an array.
        let empty = RecordBatch::new_empty(Arc::new(args.schema.clone()));
        match expr.evaluate(&empty) {
            Ok(ColumnarValue::Scalar(value)) => ddof_value(name, &value),
            _ => plan_err!("{name}: argument ddof must be a literal integer"),
        }
    }

    fn refuse_distinct(&self, args: &AccumulatorArgs<'_>) -> Result<()> {
        if args.is_distinct {
            return plan_err!("{}", distinct_message(self.function.name()));
        }
        Ok(())
    }
}

/// The error of a DISTINCT call.
pub fn distinct_message(name: &str) -> String {
    format!("{name} does not support DISTINCT: aggregate the rows without it")
}

/// Reads a `ddof` literal.
fn ddof_value(name: &str, value: &ScalarValue) -> Result<i64> {
    if value.is_null() {
        return Ok(0);
    }
    if !value.data_type().is_integer() {
        return plan_err!(
            "{name}: argument ddof must be a literal integer, got {}",
            value.data_type()
        );
    }
    match value.cast_to(&DataType::Int64)? {
        ScalarValue::Int64(Some(ddof)) => Ok(ddof),
        _ => plan_err!("{name}: argument ddof must be a literal integer that fits an Int64"),
    }
}

impl AggregateUDFImpl for TensorAggregate {
    fn name(&self) -> &str {
        self.function.name()
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        let name = self.function.name();
        self.function
            .parameters()
            .check_count(name, arg_types.len())?;
        if let Some(ddof) = arg_types.get(1)
            && !(ddof.is_integer() || *ddof == DataType::Null)
        {
            return plan_err!("{name}: argument ddof must be a literal integer, got {ddof}");
        }
        Ok(arg_types.to_vec())
    }

    fn return_type(&self, _: &[DataType]) -> Result<DataType> {
        internal_err!("{}: the result type comes from return_field", self.name())
    }

    fn return_field(&self, arg_fields: &[FieldRef]) -> Result<FieldRef> {
        let columns = self.columns(arg_fields)?;
        if self.function.covariance() {
            return cov::output_field(self.name(), &columns.input);
        }
        if self.function == AggregateFunction::Stack {
            let output = stack::stack_type(self.name(), &columns.input)?;
            return Ok(Arc::new(output.to_field(self.name())));
        }
        Ok(columns.output_field())
    }

    fn is_nullable(&self) -> bool {
        true
    }

    fn state_fields(&self, args: StateFieldsArgs<'_>) -> Result<Vec<FieldRef>> {
        let columns = self.columns(args.input_fields)?;
        if self.function.covariance() {
            return Ok(cov::state_fields(args.name));
        }
        match self.function.aggregation(0) {
            Some(aggregation) => state::state_fields(args.name, aggregation, &columns),
            None => Ok(stack::state_fields(
                args.name,
                &columns.input,
                args.ordering_fields,
            )),
        }
    }

    fn accumulator(&self, args: AccumulatorArgs<'_>) -> Result<Box<dyn Accumulator>> {
        self.refuse_distinct(&args)?;
        let columns = self.columns(args.expr_fields)?;
        if self.function.covariance() {
            cov::output_type(self.name(), &columns.input)?;
            return Ok(Box::new(cov::CovAccumulator::new(
                columns,
                self.function == AggregateFunction::Corrcoef,
                self.ddof(&args)?,
            )));
        }
        match self.function.aggregation(self.ddof(&args)?) {
            Some(aggregation) => Ok(Box::new(TensorAccumulator::new(
                AggregateState::new(aggregation, columns)?,
                self.function.retracts(),
            ))),
            None => {
                let (sort, types) = stack_ordering(&args)?;
                Ok(Box::new(StackAccumulator::new(
                    columns,
                    sort,
                    types,
                    self.limits,
                )?))
            }
        }
    }

    fn groups_accumulator_supported(&self, args: AccumulatorArgs<'_>) -> bool {
        // cov and corrcoef: one accumulator per group (a d * d state each), through
        // DataFusion's adapter, which regroups the argument with arrow-rs's `take`; that
        // breaks on 0-element FixedSizeList rows (and the slice after it panics), so such an
        // argument is claimed here to be refused with an error instead.
        if self.function.covariance() {
            return args.expr_fields.first().is_some_and(|f| {
                matches!(
                    f.data_type(),
                    arrow::datatypes::DataType::FixedSizeList(_, 0)
                )
            });
        }
        !args.is_distinct
    }

    fn create_groups_accumulator(
        &self,
        args: AccumulatorArgs<'_>,
    ) -> Result<Box<dyn GroupsAccumulator>> {
        self.refuse_distinct(&args)?;
        let columns = self.columns(args.expr_fields)?;
        if self.function.covariance() {
            return plan_err!(
                "{}: GROUP BY over tensors of no elements is not supported (arrow-rs cannot regroup 0-element FixedSizeList rows): convert the argument with tensor_to_variable",
                self.name()
            );
        }
        match self.function.aggregation(self.ddof(&args)?) {
            Some(aggregation) => Ok(Box::new(TensorGroupsAccumulator(AggregateState::new(
                aggregation,
                columns,
            )?))),
            None => {
                let (sort, types) = stack_ordering(&args)?;
                Ok(Box::new(StackGroupsAccumulator::new(columns, sort, types)?))
            }
        }
    }

    fn order_sensitivity(&self) -> AggregateOrderSensitivity {
        if self.function == AggregateFunction::Stack {
            AggregateOrderSensitivity::HardRequirement
        } else {
            AggregateOrderSensitivity::Insensitive
        }
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(docs::documentation(self.function))
    }
}

/// A `tensor_agg_stack` call's ORDER BY: each expression's sort options and type.
fn stack_ordering(
    args: &AccumulatorArgs<'_>,
) -> Result<(Vec<arrow::compute::SortOptions>, Vec<DataType>)> {
    let sort = args.order_bys.iter().map(|o| o.options).collect();
    let types = args
        .order_bys
        .iter()
        .map(|o| o.expr.data_type(args.schema))
        .collect::<Result<Vec<_>>>()?;
    Ok((sort, types))
}
