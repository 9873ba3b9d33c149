//! Writes the module of each family from the registry (the test in `super` compares them with
//! the checked-in files).

use std::fmt::Write;

use crate::udf::Parameters;
use crate::udf::registry::{Family, registry};

/// Rust's keywords, which a parameter name is written as a raw identifier if it is one.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do", "dyn",
    "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let",
    "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return",
    "static", "struct", "trait", "true", "try", "type", "typeof", "unsafe", "unsized", "use",
    "virtual", "where", "while", "yield",
];

fn identifier(name: &str) -> String {
    match name {
        "self" | "Self" | "super" | "crate" => format!("{name}_"),
        _ if KEYWORDS.contains(&name) => format!("r#{name}"),
        _ => name.to_string(),
    }
}

/// `tensor_agg_mean` as `TensorAggMeanCall`.
fn builder_name(function: &str) -> String {
    let mut out = String::new();
    for part in function.split('_') {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.push_str(chars.as_str());
        }
    }
    out.push_str("Call");
    out
}

/// `text` as `///` lines of at most 100 characters, indented by four spaces.
fn doc_lines(out: &mut String, text: &str) {
    // Brackets and angle brackets escaped: rustdoc would read `x[idx]` as a link and
    // `tensor<Float32, ...>` as an HTML tag.
    let text = text
        .replace('[', "\\[")
        .replace(']', "\\]")
        .replace('<', "\\<")
        .replace('>', "\\>");
    for paragraph in text.split("\n\n") {
        let mut line = String::new();
        for word in paragraph.split_whitespace() {
            if !line.is_empty() && 8 + line.len() + 1 + word.len() > 100 {
                writeln!(out, "    /// {line}").unwrap();
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        if !line.is_empty() {
            writeln!(out, "    /// {line}").unwrap();
        }
        out.push_str("    ///\n");
    }
}

/// The text of the module of `family` (`<slug>.rs`).
pub fn render(family: Family) -> String {
    let mut out = format!(
        "//! The expression builders of the functions of family {family:?} (written by `render.rs`\n\
         //! from the registry: see the module docs of `expr_fn`). Do not edit.\n\
         \n\
         // The docs are the SQL reference's words, in which function names are plain text.\n\
         #![allow(clippy::doc_markdown)]\n\
         \n\
         use datafusion::logical_expr::Expr;\n",
    );
    for declared in registry().functions() {
        if declared.family != family {
            continue;
        }
        let name = declared.function.name();
        let documentation = declared.function.documentation();
        let (macro_name, signature) = match declared.parameters {
            Parameters::Internal => continue,
            Parameters::Fixed { names, required } => {
                let args = names[..required]
                    .iter()
                    .map(|n| identifier(n))
                    .collect::<Vec<_>>()
                    .join(", ");
                if names.len() == required {
                    ("plain", format!("{name}({args})"))
                } else {
                    ("with_options", options(name, &args, &names[required..]))
                }
            }
            Parameters::Positional | Parameters::Variadic { options: &[] } => {
                ("list", name.to_string())
            }
            Parameters::Variadic { options: keys } => ("with_options", options(name, "..", keys)),
        };
        writeln!(out, "\n{macro_name}! {{").unwrap();
        if let Some(doc) = documentation {
            doc_lines(&mut out, first_sentence(&doc.description));
            writeln!(out, "    /// SQL: `{}`.", doc.syntax_example).unwrap();
        } else {
            writeln!(out, "    /// SQL: `{name}`.").unwrap();
        }
        writeln!(out, "    {signature}").unwrap();
        out.push_str("}\n");
    }
    out
}

fn options(name: &str, args: &str, keys: &[&str]) -> String {
    let mut out = format!("{name}({args}) -> {} {{\n", builder_name(name));
    for key in keys {
        writeln!(out, "        {} = \"{key}\",", identifier(key)).unwrap();
    }
    out.push_str("    }");
    out
}

/// The description's first sentence (up to a full stop followed by a space and outside
/// brackets and quotes): the SQL reference has the rest.
fn first_sentence(text: &str) -> &str {
    let mut depth = 0i32;
    let mut quoted = false;
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b'`' => quoted = !quoted,
            b'.' if depth <= 0 && !quoted && bytes.get(i + 1).is_none_or(|n| *n == b' ') => {
                return &text[..=i];
            }
            _ => {}
        }
    }
    text
}
