//! Resource limits: how large one tensor, and one batch of results, may be.
//!
//! A shape whose element count overflows is always an error ([`crate::shape::checked_size`]).
//! Below that, a query can still ask for more memory than the machine has: an index whose
//! arrays broadcast to millions of elements, a `tensor_choose` whose arguments broadcast to a
//! huge shape, a shape literal with large dimensions. Allocating that would abort the process;
//! instead every shape a call computes is checked against [`Limits::max_tensor_elements`] when
//! it is computed (so at planning time, before anything is allocated), and every tensor result
//! against [`Limits::max_batch_bytes`] before its batch is allocated.
//!
//! Both are session settings, `tensor.max_tensor_elements` and `tensor.max_batch_bytes`
//! ([`crate::TensorOptions`]: `SET tensor.max_batch_bytes = 1048576`). There is no process-wide
//! value: a [`Limits`] is read from the session's `ConfigOptions` ([`Limits::of`]) and handed
//! down, the same on every path (`SessionContext::sql`, the CLI, Python, a Ballista executor):
//! - a registered function's instance holds its session's limits, renewed by DataFusion when a
//!   setting changes (`ScalarUDFImpl::with_updated_config`): they apply when DataFusion asks a
//!   call's result type, before any configuration is at hand;
//! - the optimizer plans each call with the session's configuration (`simplify`), and the plan
//!   keeps the limits it was planned with (and a serialised plan carries them);
//! - a batch runs with the session's configuration (`invoke_with_args`);
//! - aggregate calls are given the session's limits by an analyzer rule
//!   ([`crate::rules::SessionLimits`]), since DataFusion hands an accumulator no configuration.

use datafusion::common::config::ConfigOptions;

use crate::error::TensorError;
use crate::shape::{format_shape, nonzero_size};

/// Default [`Limits::max_tensor_elements`]: 2^26 = 67,108,864 elements (256 MiB of float32)
/// per tensor.
pub const DEFAULT_MAX_TENSOR_ELEMENTS: usize = 1 << 26;
/// Default [`Limits::max_batch_bytes`]: 8 GiB for one function's result over one batch.
pub const DEFAULT_MAX_BATCH_BYTES: usize = 1 << 33;

/// The limits of one session (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Limits {
    /// The most elements one tensor (one row of a tensor column, one index array, a shape
    /// computed while planning) may have.
    pub max_tensor_elements: usize,
    /// The most bytes one function's tensor result over one batch may take.
    pub max_batch_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_tensor_elements: DEFAULT_MAX_TENSOR_ELEMENTS,
            max_batch_bytes: DEFAULT_MAX_BATCH_BYTES,
        }
    }
}

impl Limits {
    /// No element limit: for shapes of values already in memory (a whole row copied).
    pub(crate) const NONE: Self = Self {
        max_tensor_elements: usize::MAX,
        max_batch_bytes: usize::MAX,
    };

    /// The limits a session's configuration sets (its [`crate::TensorOptions`]; the defaults
    /// when it has none).
    ///
    /// Read for every batch: the two values are taken from the extension where it is, without
    /// cloning it.
    pub fn of(options: &ConfigOptions) -> Self {
        match options.extensions.get::<crate::TensorOptions>() {
            Some(tensor) => Self {
                max_tensor_elements: tensor.max_tensor_elements,
                max_batch_bytes: tensor.max_batch_bytes,
            },
            None => Self::default(),
        }
    }

    /// The number of elements of `shape` ([`crate::shape::checked_size`]), or an error when it has more
    /// than [`Self::max_tensor_elements`] in its nonzero dimensions.
    ///
    /// # Errors
    /// [`crate::shape::checked_size`]'s, and [`TensorError::Limit`] past the limit.
    pub fn checked_size(&self, shape: &[usize]) -> Result<usize, TensorError> {
        let nonzero = nonzero_size(shape)?;
        let empty = shape.contains(&0);
        let limit = self.max_tensor_elements;
        if nonzero > limit {
            return Err(TensorError::Limit(format!(
                "tensor shape {} has {nonzero} elements{}, more than the limit of {limit} elements per tensor (raise it with SET tensor.max_tensor_elements)",
                format_shape(shape),
                if empty {
                    " in its nonzero dimensions"
                } else {
                    ""
                }
            )));
        }
        Ok(if empty { 0 } else { nonzero })
    }

    /// Refuses a tensor result whose batch would take more than [`Self::max_batch_bytes`]
    /// (before anything is allocated: an allocation that large would abort the process).
    ///
    /// # Errors
    /// Past the limit, naming the function `name`.
    pub fn check_batch_bytes(
        &self,
        name: &str,
        result: &arrow::datatypes::DataType,
        rows: usize,
    ) -> datafusion::error::Result<()> {
        let arrow::datatypes::DataType::FixedSizeList(item, size) = result else {
            return Ok(());
        };
        let width = item.data_type().primitive_width().unwrap_or(1);
        let limit = self.max_batch_bytes;
        let bytes = rows
            .checked_mul(*size as usize)
            .and_then(|n| n.checked_mul(width));
        match bytes {
            Some(bytes) if bytes <= limit => Ok(()),
            _ => datafusion::common::exec_err!(
                "{name}: the result of this batch would take {} bytes ({rows} rows of {size} {} elements), more than the limit of {limit} bytes per batch; lower datafusion.execution.batch_size, or raise the limit with SET tensor.max_batch_bytes",
                bytes.map_or_else(|| "more than usize::MAX".to_string(), |b| b.to_string()),
                item.data_type()
            ),
        }
    }
}

/// The running size of a variable-shape result over one batch, refused past
/// [`Limits::max_batch_bytes`] as its rows' shapes become known, before their values
/// are computed ([`Limits::check_batch_bytes`] does this at once for fixed-shape results,
/// whose size the type gives).
#[derive(Debug)]
pub(crate) struct ResultBudget<'a> {
    name: &'a str,
    element: &'a arrow::datatypes::DataType,
    width: usize,
    limit: usize,
    elements: usize,
}

impl<'a> ResultBudget<'a> {
    /// A budget for the result of `name`, of `element`s, under the session's `limits`.
    pub(crate) fn new(
        name: &'a str,
        element: &'a arrow::datatypes::DataType,
        limits: &Limits,
    ) -> Self {
        Self {
            name,
            element,
            width: element.primitive_width().unwrap_or(1),
            limit: limits.max_batch_bytes,
            elements: 0,
        }
    }

    /// Counts `elements` more (the result's values up to `row` of the batch).
    pub(crate) fn add(&mut self, elements: usize, row: usize) -> datafusion::error::Result<()> {
        self.elements = self.elements.saturating_add(elements);
        let bytes = self.elements.saturating_mul(self.width);
        if bytes <= self.limit {
            return Ok(());
        }
        datafusion::common::exec_err!(
            "{}: the result of this batch would take more than {} bytes ({} {} elements up to row {row} of its batch), more than the limit of {} bytes per batch; lower datafusion.execution.batch_size, or raise the limit with SET tensor.max_batch_bytes",
            self.name,
            self.limit,
            self.elements,
            self.element,
            self.limit
        )
    }
}
