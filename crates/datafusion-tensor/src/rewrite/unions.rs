//! A `WITH` query that is a `UNION` read through a `FROM` clause, so that its tensor columns
//! get one type before the query around it is planned.
//!
//! DataFusion plans a `WITH` query on its own and keeps only the field metadata the union's
//! branches agree on: a function applied to such a column later fails to plan. A union in a
//! `FROM` clause goes through [`crate::rules::TensorUnionRelations`], which reconciles the
//! branches' tensor layouts ([`crate::rules::reconcile_union_layouts`]). So `WITH u AS (a UNION
//! ALL b)` becomes `WITH u AS (SELECT * FROM (a UNION ALL b) AS __datafusion_tensor_union)`,
//! the same rows and columns. `WITH RECURSIVE` is left as it is (DataFusion needs its union
//! where it is written).

use std::ops::ControlFlow;

use datafusion::sql::sqlparser::ast::{
    Query, SetExpr, Statement, TableFactor, VisitMut, VisitorMut,
};
use datafusion::sql::sqlparser::dialect::GenericDialect;
use datafusion::sql::sqlparser::parser::Parser;

/// The derived table's alias.
const UNION_ALIAS: &str = "__datafusion_tensor_union";

/// Moves the union of every non-recursive `WITH` query into a `FROM` clause (module docs);
/// whether any was.
pub(super) fn read_with_unions_from<V: VisitMut>(node: &mut V) -> bool {
    let mut visitor = WithUnions { changed: false };
    let _ = node.visit(&mut visitor);
    visitor.changed
}

struct WithUnions {
    changed: bool,
}

impl VisitorMut for WithUnions {
    type Break = ();

    fn pre_visit_query(&mut self, query: &mut Query) -> ControlFlow<()> {
        let Some(with) = query.with.as_mut().filter(|with| !with.recursive) else {
            return ControlFlow::Continue(());
        };
        for cte in &mut with.cte_tables {
            if matches!(*cte.query.body, SetExpr::SetOperation { .. })
                && let Some(mut wrapper) = wrapper_query()
                && let SetExpr::Select(select) = wrapper.body.as_mut()
                && let Some(TableFactor::Derived { subquery, .. }) =
                    select.from.first_mut().map(|table| &mut table.relation)
            {
                std::mem::swap(subquery, &mut cte.query);
                *cte.query = wrapper;
                self.changed = true;
            }
        }
        ControlFlow::Continue(())
    }
}

/// `SELECT * FROM (SELECT 1) AS __datafusion_tensor_union`, whose inner query is replaced.
fn wrapper_query() -> Option<Query> {
    let sql = format!("SELECT * FROM (SELECT 1) AS {UNION_ALIAS}");
    match Parser::parse_sql(&GenericDialect {}, &sql).ok()?.pop()? {
        Statement::Query(query) => Some(*query),
        _ => None,
    }
}
