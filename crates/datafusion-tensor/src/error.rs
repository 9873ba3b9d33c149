//! The crate's one error type, [`TensorError`], and the one place it becomes a
//! [`DataFusionError`].
//!
//! Everything below the UDF layer (tensor types, index plans, kernels) returns a
//! [`TensorError`] that does not know which SQL function it serves. The UDF boundary calls
//! [`TensorError::in_function`], which prefixes the function's name and picks DataFusion's
//! kind from the variant: what is wrong with a *type* or a literal argument is a plan error
//! (it is fixed when the query is planned), what is wrong with the *data* of one row an
//! execution error naming the row.

use arrow::error::ArrowError;
use datafusion::error::DataFusionError;

/// What can go wrong in a tensor function, below the SQL layer.
#[derive(Debug, thiserror::Error)]
pub enum TensorError {
    /// The `ARROW:extension:metadata` JSON could not be read.
    #[error("invalid {extension} metadata {json:?}: {reason}")]
    Metadata {
        /// The extension name (`arrow.fixed_shape_tensor` or `arrow.variable_shape_tensor`).
        extension: &'static str,
        /// The metadata as found on the field.
        json: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A shape, permutation or dim-names list that is inconsistent in itself or with the storage.
    #[error("{0}")]
    Shape(String),
    /// A shape with more elements than a session's [`crate::limits::Limits`] allow.
    #[error("{0}")]
    Limit(String),
    /// The element type is not one a tensor may hold.
    #[error(
        "tensor element type {0} is not supported: expected an integer (Int8..Int64, UInt8..UInt64), floating-point (Float16, Float32, Float64) or Boolean type"
    )]
    ElementType(String),
    /// An index string or literal that is wrong for the tensor's shape, in numpy's words
    /// (numpy's `IndexError`).
    #[error("{0}")]
    Index(String),
    /// A malformed index string: what was expected, and where (a caret under the character).
    #[error("invalid index expression at position {position}: {message}\n  {input}\n  {}^", caret_pad(.input, *.position))]
    Parse {
        /// Character position (0-based) of the offending character, or the string's length
        /// at its end.
        position: usize,
        /// What was wrong.
        message: String,
        /// The string parsed.
        input: String,
    },
    /// An integer index outside its axis (numpy's `IndexError`): in a literal index (no row),
    /// or in the data of one row.
    #[error("index {value} is out of bounds for axis {axis} with size {size}{}", at_row(*.row))]
    OutOfBounds {
        /// The index as given.
        value: i64,
        /// The axis it indexes.
        axis: usize,
        /// That axis's length.
        size: usize,
        /// The row, within its batch, for an index read from the data.
        row: Option<usize>,
    },
    /// An index `tensor_choose`'s `raise` rejects, or any index of a row without choices
    /// (numpy's `ValueError`s).
    #[error("{}", invalid_choice(*.row, .value, *.count))]
    InvalidChoice {
        /// Row of the batch.
        row: usize,
        /// The index value, as written.
        value: String,
        /// The number of choices of that row.
        count: usize,
    },
    /// An integer combination that overflowed (JAX wraps around silently; this crate fails).
    #[error("integer overflow in {data_type} at row {row} of its batch (JAX would wrap around)")]
    Overflow {
        /// The type the combination ran in.
        data_type: String,
        /// The row, within its batch.
        row: usize,
    },
    /// An integer raised to a negative integer power (numpy's `ValueError`).
    #[error("Integers to negative integer powers are not allowed. at row {row} of its batch")]
    NegativePower {
        /// The row, within its batch.
        row: usize,
    },
    /// `y` given with `n` rows over the windows of an index list that names another number
    /// of windows in one row (numpy's broadcast error).
    #[error(
        "shape mismatch: value array with {n} rows could not be broadcast to the {count} indexed windows at row {row} of its batch"
    )]
    WindowMismatch {
        /// `y`'s rows over the windows.
        n: usize,
        /// The row's windows.
        count: usize,
        /// The row, within its batch.
        row: usize,
    },
    /// Something else wrong with the data of a batch, in the words given.
    #[error("{0}")]
    Data(String),
    /// A broken invariant of this crate (a bug, never the user's input).
    #[error("{0}")]
    Internal(String),
    /// An Arrow kernel's error, passed on as Arrow reported it.
    #[error(transparent)]
    Arrow(#[from] ArrowError),
    /// An error raised by code the kernel called back (a SQL lambda), passed on unchanged.
    #[error(transparent)]
    External(Box<DataFusionError>),
}

/// The spaces that put a caret under character `position` of `input`.
fn caret_pad(input: &str, position: usize) -> String {
    " ".repeat(input.chars().take(position).count())
}

/// `" at row N of its batch"` for an error found in the data, nothing for one in the query.
fn at_row(row: Option<usize>) -> String {
    row.map_or_else(String::new, |row| format!(" at row {row} of its batch"))
}

/// numpy's words for a choice index out of range, with the row.
fn invalid_choice(row: usize, value: &str, count: usize) -> String {
    if count == 0 {
        // numpy: ValueError: 0-length sequence.
        format!("0-length sequence: there are no choices at row {row} of its batch")
    } else {
        // numpy: ValueError: invalid entry in choice array
        format!(
            "invalid entry in choice array: a = {value} at row {row} of its batch is not in [0, {}] (mode 'raise'; there are {count} choices)",
            count - 1
        )
    }
}

/// Results of the crate's code below the UDF layer.
pub type Result<T, E = TensorError> = std::result::Result<T, E>;

impl TensorError {
    /// Whether this is about the data of a batch (an execution error), not about the query.
    fn is_data_error(&self) -> bool {
        matches!(
            self,
            Self::OutOfBounds { row: Some(_), .. }
                | Self::InvalidChoice { .. }
                | Self::Overflow { .. }
                | Self::NegativePower { .. }
                | Self::WindowMismatch { .. }
                | Self::Data(_)
        )
    }

    /// The row of the batch this error names, if it names one.
    pub fn row(&self) -> Option<usize> {
        match self {
            Self::OutOfBounds { row, .. } => *row,
            Self::InvalidChoice { row, .. }
            | Self::Overflow { row, .. }
            | Self::NegativePower { row }
            | Self::WindowMismatch { row, .. } => Some(*row),
            _ => None,
        }
    }

    /// The same error about a batch made of some rows of another: the row it names becomes
    /// `rows[row]`, the row of the other batch.
    #[must_use]
    pub fn in_rows(mut self, rows: &[usize]) -> Self {
        let (Self::OutOfBounds { row: Some(row), .. }
        | Self::InvalidChoice { row, .. }
        | Self::Overflow { row, .. }
        | Self::NegativePower { row }
        | Self::WindowMismatch { row, .. }) = &mut self
        else {
            return self;
        };
        *row = rows.get(*row).copied().unwrap_or(*row);
        self
    }

    /// The DataFusion error the SQL function `name` reports: the message prefixed with the
    /// function's name, a plan error for types, an execution error for data. Arrow's errors
    /// and a lambda's own are passed on as they are.
    pub fn in_function(self, name: &str) -> DataFusionError {
        self.into_datafusion(&format!("{name}: "))
    }

    /// The one mapping to DataFusion's kinds, messages after `prefix`.
    fn into_datafusion(self, prefix: &str) -> DataFusionError {
        match self {
            Self::Arrow(err) => DataFusionError::ArrowError(Box::new(err), None),
            Self::External(err) => *err,
            Self::Internal(message) => DataFusionError::Internal(format!("{prefix}{message}")),
            err if err.is_data_error() => DataFusionError::Execution(format!("{prefix}{err}")),
            err => DataFusionError::Plan(format!("{prefix}{err}")),
        }
    }
}

impl From<TensorError> for DataFusionError {
    /// Without a function to name: types are plan errors, data errors execution errors.
    fn from(err: TensorError) -> Self {
        err.into_datafusion("")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_about_some_rows_name_the_rows_of_the_batch() {
        let rows = [4, 7, 9];
        let err = TensorError::Overflow {
            data_type: "Int16".to_string(),
            row: 1,
        };
        assert_eq!(err.in_rows(&rows).row(), Some(7));
        let err = TensorError::OutOfBounds {
            value: 3,
            axis: 0,
            size: 2,
            row: Some(2),
        }
        .in_rows(&rows);
        assert_eq!(
            err.to_string(),
            "index 3 is out of bounds for axis 0 with size 2 at row 9 of its batch"
        );
        let err = TensorError::WindowMismatch {
            n: 2,
            count: 3,
            row: 0,
        };
        assert_eq!(err.in_rows(&rows).row(), Some(4));
        // An index in the query names no row, and keeps naming none.
        let err = TensorError::OutOfBounds {
            value: 3,
            axis: 0,
            size: 2,
            row: None,
        };
        assert_eq!(err.in_rows(&rows).row(), None);
    }
}
