//! The function reference, written from the registry: one Markdown page per family
//! (`docs/src/functions/<family>.md`), each function's section from its one `Documentation`
//! (the same that `SHOW FUNCTIONS`, `\h` and `information_schema` read) and its numpy or JAX
//! equivalent ([`equivalents`]). The CLI's `datafusion-tensor-docs` writes the pages; its
//! tests check that the checked-in pages are these, and run every example ([`examples`]).

mod equivalents;
mod examples;

use std::fmt::Write as _;

pub use equivalents::equivalent;
pub use examples::{Example, examples, parse_example};

use crate::udf::registry::{Declared, Family, Parameters, registry};

/// A page of the reference: its path under `docs/src/` and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// The path under `docs/src/` (`functions/elementwise.md`).
    pub path: String,
    /// The Markdown.
    pub text: String,
}

/// A family's page title and the paragraph that opens it.
fn family_heading(family: Family) -> (&'static str, &'static str) {
    match family {
        Family::Tensors => (
            "Tensors: building, properties, conversions",
            "Building tensors from lists and from nothing (numpy's creation functions), \
             asking a tensor its shape and type, and converting between the fixed- and \
             variable-shape types, lists and text.",
        ),
        Family::Indexing => (
            "Indexing and indexed updates",
            "numpy's indexing (`x[idx]`, as copies), JAX's indexed updates \
             (`x.at[idx].set(y)` and the rest), numpy's `choose`, and taking and putting \
             along an axis.",
        ),
        Family::Elementwise => (
            "Elementwise math",
            "numpy's ufuncs, element by element, with operands broadcast by numpy's rules and \
             results in numpy 2's types (NEP 50): a SQL number is a weak scalar. Also `where`, \
             `astype` and SQL lambdas (`tensor_map`).",
        ),
        Family::Reductions => (
            "Reductions and cumulative operations",
            "Reductions along axes (`axis` a number, a list, or NULL for every axis; \
             `keepdims`), NaN-aware reductions, cumulative sums and products, and `diff`.",
        ),
        Family::Shapes => (
            "Shapes",
            "Transposes, axis moves, squeezes, flips, rolls, padding, repeating, splitting, \
             concatenation and stacking. A transpose only changes the tensor type's \
             `permutation`: no values move.",
        ),
        Family::LinearAlgebra => (
            "Linear algebra per row",
            "numpy's `linalg` and the array API standard's linalg extension, each row a \
             stack of matrices batched over its leading axes: products, contractions, norms, \
             decompositions and the vector measures nearest-neighbour search uses.",
        ),
        Family::Searching => (
            "Searching, sorting, top-k and sets",
            "Per row: sorting, top-k and partitions, searching, counting, and numpy 2's \
             unique functions.",
        ),
        Family::Aggregates => (
            "Aggregates over rows",
            "Aggregate functions over a group's tensors, element by element (`GROUP BY`, \
             window frames): numpy's reductions of `np.stack(rows)` along the new axis 0.",
        ),
    }
}

/// Every page of the reference: one per family, then the index (`functions/index.md`).
pub fn pages() -> Vec<Page> {
    let mut pages = Vec::new();
    let mut index = String::from(
        "# Function reference\n\n\
         Every SQL function of the crate, by family, written from the registry: the same \
         documentation `SHOW FUNCTIONS`, the CLI's `\\h name` and `information_schema.routines` \
         show. Every example on these pages runs in the test suite and prints what is shown.\n\n\
         | family | functions |\n| --- | --- |\n",
    );
    for family in Family::ALL {
        let mut functions: Vec<&Declared> = registry()
            .user_functions()
            .filter(|declared| declared.family == family)
            .collect();
        functions.sort_by(|a, b| a.function.name().cmp(b.function.name()));
        let (title, intro) = family_heading(family);
        let mut text = format!("# {title}\n\n{intro}\n\n");
        for declared in &functions {
            let name = declared.function.name();
            let _ = writeln!(text, "- [`{name}`](#{name})");
        }
        for declared in &functions {
            text.push('\n');
            text.push_str(section(declared).trim_end());
            text.push('\n');
        }
        let _ = writeln!(
            index,
            "| [{title}]({}.md) | {} |",
            family.slug(),
            functions.len()
        );
        pages.push(Page {
            path: format!("functions/{}.md", family.slug()),
            text,
        });
    }
    pages.push(Page {
        path: "functions/index.md".to_string(),
        text: index,
    });
    pages
}

/// One function's section.
fn section(declared: &Declared) -> String {
    let name = declared.function.name();
    let mut text = format!("## {name}\n\n");
    let Some(doc) = declared.function.documentation() else {
        return text;
    };
    let _ = write!(text, "{}\n\n", doc.description.trim());
    let _ = write!(text, "```sql\n{}\n```\n\n", doc.syntax_example.trim());
    if let Some(arguments) = doc.arguments.as_ref().filter(|a| !a.is_empty()) {
        text.push_str("**Arguments**\n\n");
        for (argument, description) in arguments {
            let _ = writeln!(text, "- `{argument}`: {}", description.trim());
        }
        text.push('\n');
    }
    if let Some(options) = keyword_note(declared.parameters) {
        let _ = write!(text, "{options}\n\n");
    }
    if let Some(equivalent) = equivalent(name) {
        let _ = write!(text, "**numpy / JAX:** `{equivalent}`\n\n");
    }
    if let Some(example) = doc.sql_example.as_ref() {
        text.push_str("**Example**\n\n");
        let _ = write!(text, "{}\n\n", example.trim());
    }
    if let Some(alternatives) = doc.alternative_syntax.as_ref() {
        text.push_str("**Also written**\n\n");
        for alternative in alternatives {
            let _ = writeln!(text, "- `{alternative}`");
        }
        text.push('\n');
    }
    text
}

/// How a function's keyword arguments are written, when it takes any.
fn keyword_note(parameters: Parameters) -> Option<String> {
    let quoted = |names: &[&str]| {
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match parameters {
        Parameters::Fixed { names, required } if names.len() > required => Some(format!(
            "Optional: {} (by position, or by name: `{} => value`).",
            quoted(&names[required..]),
            names[required]
        )),
        Parameters::Variadic { options } if !options.is_empty() => Some(format!(
            "Options, after the tensors, by name only: {}.",
            quoted(options)
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_user_function_is_on_a_page_once() {
        let pages = pages();
        for declared in registry().user_functions() {
            let heading = format!("\n## {}\n", declared.function.name());
            let found = pages.iter().filter(|p| p.text.contains(&heading)).count();
            assert_eq!(found, 1, "{}", declared.function.name());
        }
        assert!(!pages.iter().any(|p| p.text.contains("## tensor_typed\n")));
    }

    #[test]
    fn every_user_function_has_its_equivalent_and_only_those() {
        let names: Vec<&str> = registry()
            .user_functions()
            .map(|d| d.function.name())
            .collect();
        let missing: Vec<&&str> = names.iter().filter(|n| equivalent(n).is_none()).collect();
        assert!(
            missing.is_empty(),
            "no numpy or JAX equivalent: {missing:?}"
        );
        for (name, _) in equivalents::EQUIVALENTS {
            assert!(names.contains(name), "{name} is not a function");
        }
    }
}
