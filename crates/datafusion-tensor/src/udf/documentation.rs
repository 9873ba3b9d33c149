//! The one builder of the documentation of the functions built from an enum (the others
//! declare theirs with `#[user_doc]`), and its examples as the CLI prints them.

use std::sync::Arc;

use arrow::array::{ArrayRef, RecordBatch, StringArray};
use arrow::util::pretty::pretty_format_batches;
use datafusion::logical_expr::{DocSection, Documentation, DocumentationBuilder};

/// The documentation every tensor function starts from: its section, `description`, `syntax`
/// and an example (`call` and what it shows, `out`); arguments are added by the caller.
pub(crate) fn tensor_documentation(
    description: impl Into<String>,
    syntax: impl Into<String>,
    call: &str,
    out: &str,
) -> DocumentationBuilder {
    documented(description, syntax).with_sql_example(sql_example(call, out))
}

/// The documentation of a tensor function, in the section `SHOW FUNCTIONS` lists them under.
pub(crate) fn documented(
    description: impl Into<String>,
    syntax: impl Into<String>,
) -> DocumentationBuilder {
    Documentation::builder(
        DocSection {
            include: true,
            label: "Tensor Functions",
            description: None,
        },
        description,
        syntax,
    )
}

/// A documented example as the CLI shows it: `> SELECT {call} AS r;` (`call` may go on with
/// `FROM ...`) and the table of its one column `r`, one row per line of `out`, drawn by arrow's
/// table printer as the CLI draws it. The CLI's tests run it and compare (`crate::reference`).
pub(crate) fn sql_example(call: &str, out: &str) -> String {
    let statement = match top_level_from(call) {
        Some(at) => format!("SELECT {} AS r{}", &call[..at], &call[at..]),
        None => format!("SELECT {call} AS r"),
    };
    let rows: ArrayRef = Arc::new(StringArray::from(out.lines().collect::<Vec<_>>()));
    let table = RecordBatch::try_from_iter([("r", rows)])
        .and_then(|batch| pretty_format_batches(&[batch]))
        .map_or_else(|error| error.to_string(), |table| table.to_string());
    format!("```sql\n> {statement};\n{table}\n```")
}

/// Where ` FROM ` starts outside parentheses and quotes in `call`.
fn top_level_from(call: &str) -> Option<usize> {
    let mut depth = 0_i32;
    let mut quoted = false;
    for (at, c) in call.char_indices() {
        match c {
            '\'' => quoted = !quoted,
            '(' | '[' if !quoted => depth += 1,
            ')' | ']' if !quoted => depth -= 1,
            ' ' if !quoted && depth == 0 && call[at..].starts_with(" FROM ") => return Some(at),
            _ => {}
        }
    }
    None
}
