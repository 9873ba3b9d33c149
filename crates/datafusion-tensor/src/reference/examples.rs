//! The SQL examples of the functions' documentation, as statements and the output the docs
//! show for each: the CLI's tests run them and compare.

use crate::udf::registry::registry;

/// One statement of a function's documented example and what the docs show it printing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    /// The function documented.
    pub function: String,
    /// The statement, as written after the prompt (`SELECT ...;`).
    pub sql: String,
    /// The lines shown under it (the CLI's table), trimmed.
    pub output: String,
}

/// Every example statement of every function a user writes, in registration order.
pub fn examples() -> Vec<Example> {
    registry()
        .user_functions()
        .filter_map(|declared| {
            let name = declared.function.name();
            let example = declared.function.documentation()?.sql_example.as_deref()?;
            Some(parse_example(name, example))
        })
        .flatten()
        .collect()
}

/// The statements of one documented example: a ```` ```sql ```` block of `> ` prompts (a
/// statement may go on over lines until its `;`), each followed by the output it prints.
pub fn parse_example(function: &str, text: &str) -> Vec<Example> {
    let mut examples = Vec::new();
    let mut current: Option<(String, Vec<&str>, bool)> = None;
    let body = text
        .trim()
        .trim_start_matches("```sql")
        .trim_end_matches("```");
    for line in body.lines() {
        if let Some(statement) = line.strip_prefix("> ") {
            if let Some((sql, output, _)) = current.take() {
                examples.push(example(function, sql, &output));
            }
            let open = !ends_statement(statement);
            current = Some((statement.to_string(), Vec::new(), open));
        } else if let Some((sql, output, open)) = current.as_mut() {
            if *open {
                sql.push('\n');
                sql.push_str(line);
                *open = !ends_statement(line);
            } else {
                output.push(line);
            }
        }
    }
    if let Some((sql, output, _)) = current {
        examples.push(example(function, sql, &output));
    }
    examples
}

/// Whether a line of SQL ends its statement: a `;` at its end, before any `--` comment.
fn ends_statement(line: &str) -> bool {
    let code = line.split("--").next().unwrap_or(line);
    code.trim_end().ends_with(';')
}

fn example(function: &str, sql: String, output: &[&str]) -> Example {
    Example {
        function: function.to_string(),
        sql,
        output: output.join("\n").trim().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_and_outputs() {
        let text = "```sql\n> SELECT 1\n  + 1;  -- two\n+---+\n| x |\n+---+\n> SELECT 2;\n2\n```";
        let parsed = parse_example("f", text);
        assert_eq!(parsed.len(), 2);
        assert_eq!(parsed[0].sql, "SELECT 1\n  + 1;  -- two");
        assert_eq!(parsed[0].output, "+---+\n| x |\n+---+");
        assert_eq!(parsed[1].sql, "SELECT 2;");
        assert_eq!(parsed[1].output, "2");
    }
}
