//! SQL operators on tensors (spec.md §9) on the paths `sql/tensor_elementwise*.slt` cannot reach:
//! plans built without SQL (the DataFrame API, a plan whose schema arrives with it, as from a
//! codec) give what the SQL operators give, and a query without a tensor operand plans exactly
//! as it does in DataFusion without this crate.

use std::sync::Arc;

use arrow::array::RecordBatch;
use arrow::datatypes::{DataType, Field};
use arrow::util::pretty::pretty_format_batches;
use datafusion::common::DFSchema;
use datafusion::dataframe::DataFrame;
use datafusion::logical_expr::{LogicalPlan, Projection};
use datafusion::prelude::{SessionContext, cast, col, lit, try_cast};
use datafusion_tensor::{session_config, tensor_session_context};

/// Two [2, 2] Float32 tensor columns, two rows, the second row of `y` NULL.
const TENSORS: &str = "SELECT tensor(arrow_cast(a, 'List(Float32)'), [2, 2]) AS x, \
     tensor(arrow_cast(b, 'List(Float32)'), [2, 2]) AS y \
     FROM (VALUES ([1.0, 2.0, 3.0, 4.0], [4.0, 3.0, 2.0, 1.0]), ([-1.5, 0.0, 2.5, 8.0], NULL)) AS t(a, b)";

/// The result as a table, and the extension type of each column (a tensor's is
/// `arrow.fixed_shape_tensor`).
async fn text(df: DataFrame) -> String {
    let batches: Vec<RecordBatch> = df.collect().await.unwrap();
    let extensions: Vec<String> = batches[0]
        .schema()
        .fields()
        .iter()
        .map(|f| {
            f.metadata()
                .get("ARROW:extension:name")
                .cloned()
                .unwrap_or_default()
        })
        .collect();
    format!(
        "{}\n{}",
        pretty_format_batches(&batches).unwrap(),
        extensions.join(" ")
    )
}

async fn sql_text(ctx: &SessionContext, sql: &str) -> String {
    text(ctx.sql(sql).await.unwrap()).await
}

#[tokio::test]
async fn dataframe_comparison_is_elementwise_as_in_sql() {
    let ctx = tensor_session_context().unwrap();
    let df = ctx.sql(TENSORS).await.unwrap();
    let built = df
        .select(vec![
            col("x").gt(col("y")).alias("gt"),
            col("x").eq(col("y")).alias("eq"),
        ])
        .unwrap();
    let got = text(built).await;
    let want = sql_text(
        &ctx,
        &format!("SELECT x > y AS gt, x = y AS eq FROM ({TENSORS})"),
    )
    .await;
    assert_eq!(got, want);
    // numpy: np.greater([[1, 2], [3, 4]], [[4, 3], [2, 1]]), a Boolean tensor; NULL row NULL.
    assert!(got.contains("[false, false, true, true]"), "{got}");
    assert!(
        got.ends_with("arrow.fixed_shape_tensor arrow.fixed_shape_tensor"),
        "{got}"
    );
}

/// `-x` and `NOT (x > y)` built without SQL (SQL's planner refuses a unary operator on a
/// tensor): numpy's `negative` and `logical_not`, through the DataFrame API's rewrite.
#[tokio::test]
async fn dataframe_negation_and_not_of_a_tensor_are_elementwise() {
    use datafusion_tensor::dataframe::TensorDataFrameExt;
    let ctx = tensor_session_context().unwrap();
    let df = ctx.sql(TENSORS).await.unwrap();
    let built = df
        .tensor_select(vec![
            (-col("x")).alias("n"),
            (!col("x").gt(col("y"))).alias("not_gt"),
        ])
        .unwrap();
    let got = text(built).await;
    let want = sql_text(
        &ctx,
        &format!(
            "SELECT tensor_negative(x) AS n, tensor_logical_not(x > y) AS not_gt FROM ({TENSORS})"
        ),
    )
    .await;
    assert_eq!(got, want);
    // numpy: np.negative of [[1, 2], [3, 4]]; np.logical_not(np.greater(x, y)).
    assert!(got.contains("[-1.0, -2.0, -3.0, -4.0]"), "{got}");
    assert!(got.contains("[true, true, false, false]"), "{got}");
}

#[tokio::test]
async fn dataframe_cast_of_a_tensor_is_astype_as_in_sql() {
    let ctx = tensor_session_context().unwrap();
    let df = ctx.sql(TENSORS).await.unwrap();
    let built = df
        .select(vec![
            cast(col("x"), DataType::Int8).alias("i"),
            cast(col("y"), DataType::Float64).alias("f"),
            try_cast(col("x"), DataType::Boolean).alias("b"),
        ])
        .unwrap();
    let got = text(built).await;
    let want = sql_text(
        &ctx,
        &format!("SELECT CAST(x AS TINYINT) AS i, y::DOUBLE AS f, TRY_CAST(x AS BOOLEAN) AS b FROM ({TENSORS})"),
    )
    .await;
    assert_eq!(got, want);
    // numpy: np.array([-1.5, 0.0, 2.5, 8.0], np.float32).astype(np.int8) is [-1, 0, 2, 8].
    assert!(got.contains("[-1, 0, 2, 8]"), "{got}");
    assert!(got.contains("[true, false, true, true]"), "{got}");
    assert!(
        got.ends_with("arrow.fixed_shape_tensor arrow.fixed_shape_tensor arrow.fixed_shape_tensor"),
        "{got}"
    );
}

#[tokio::test]
async fn planned_arithmetic_without_sql_is_rewritten_by_the_analyzer() {
    let ctx = tensor_session_context().unwrap();
    let input = ctx.sql(TENSORS).await.unwrap().into_unoptimized_plan();
    // A plan whose schema came with it (a codec's, another engine's): DataFusion's type
    // coercion alone refuses `FixedSizeList * Float64`; the analyzer rule makes it the
    // elementwise call.
    let exprs = vec![
        (col("x") * lit(2.0)).alias("scaled"),
        (col("x") + col("y")).alias("sum"),
        (col("x") % lit(3)).alias("rem"),
    ];
    let schema = DFSchema::from_unqualified_fields(
        vec![
            Field::new("scaled", DataType::Float64, true),
            Field::new("sum", DataType::Float64, true),
            Field::new("rem", DataType::Float64, true),
        ]
        .into(),
        std::collections::HashMap::default(),
    )
    .unwrap();
    let projection =
        Projection::try_new_with_schema(exprs, Arc::new(input), Arc::new(schema)).unwrap();
    let df = DataFrame::new(ctx.state(), LogicalPlan::Projection(projection));
    let got = text(df).await;
    let want = sql_text(
        &ctx,
        &format!("SELECT x * 2.0 AS scaled, x + y AS sum, x % 3 AS rem FROM ({TENSORS})"),
    )
    .await;
    assert_eq!(got, want);
    // numpy: np.multiply(x_float32, 2.0) stays float32: [[2, 4], [6, 8]].
    assert!(got.contains("[2.0, 4.0, 6.0, 8.0]"), "{got}");
    assert!(
        got.ends_with("arrow.fixed_shape_tensor arrow.fixed_shape_tensor arrow.fixed_shape_tensor"),
        "{got}"
    );
}

#[tokio::test]
async fn sql_operators_give_the_functions_results() {
    let ctx = tensor_session_context().unwrap();
    let got = sql_text(
        &ctx,
        &format!(
            "SELECT x * 2.0 + y AS a, x > 0.5 AS b, 1 - x AS c, x / y AS d, x % 2 AS e, x <> y AS f FROM ({TENSORS})"
        ),
    )
    .await;
    let want = sql_text(
        &ctx,
        &format!(
            "SELECT tensor_add(tensor_multiply(x, 2.0), y) AS a, tensor_greater(x, 0.5) AS b, tensor_subtract(1, x) AS c, tensor_divide(x, y) AS d, tensor_mod(x, 2) AS e, tensor_not_equal(x, y) AS f FROM ({TENSORS})"
        ),
    )
    .await;
    assert_eq!(got, want);
}

#[tokio::test]
async fn queries_without_tensor_operands_plan_as_before() {
    let plain = SessionContext::new_with_config(session_config());
    let tensor = tensor_session_context().unwrap();
    let queries = [
        "EXPLAIN SELECT a + 1, a * b, a - b, a / 2, a % 2, a = b, a <> b, a < 2.5, a >= b FROM (VALUES (1, 2), (3, 4)) AS t(a, b)",
        "EXPLAIN SELECT sum(a * 2) FROM (VALUES (1, 2), (3, 4)) AS t(a, b) GROUP BY b % 2",
        "EXPLAIN SELECT a || 'x', a LIKE 'y%' FROM (VALUES ('a'), ('b')) AS t(a)",
        "EXPLAIN SELECT CAST(a AS DOUBLE) AS d, a::REAL AS r, TRY_CAST(a AS TINYINT) AS i, CAST(a AS BOOLEAN) AS b FROM (VALUES (1), (2)) AS t(a)",
        "EXPLAIN SELECT CAST(make_array(a, a) AS DOUBLE[]) AS l, CAST(a AS VARCHAR) AS s FROM (VALUES (1), (2)) AS t(a)",
    ];
    for sql in queries {
        let want = sql_text(&plain, sql).await;
        let got = sql_text(&tensor, sql).await;
        assert_eq!(got, want, "{sql}");
    }
}

#[tokio::test]
async fn dataframe_arithmetic_and_calls_by_name_give_the_sql_results() {
    use datafusion_tensor::dataframe::{TensorDataFrameExt, tensor_call, tensor_call_with};
    let ctx = tensor_session_context().unwrap();
    // DataFusion's own `select` refuses `FixedSizeList * Float64` as the node is built.
    let plain = ctx
        .sql(TENSORS)
        .await
        .unwrap()
        .select(vec![col("x") * lit(2.0)]);
    assert!(plain.is_err());
    let built = ctx
        .sql(TENSORS)
        .await
        .unwrap()
        .tensor_select(vec![
            (col("x") * lit(2.0) + col("y")).alias("a"),
            col("x").gt(lit(0.5)).alias("b"),
            tensor_call_with(
                "tensor_sum",
                vec![col("x")],
                vec![("keepdims", lit(true)), ("axis", lit(0))],
            )
            .unwrap()
            .alias("c"),
            tensor_call("tensor_get", vec![col("x"), lit("1, ::-1")])
                .unwrap()
                .alias("d"),
        ])
        .unwrap()
        .tensor_with_column("e", lit(1.0) - col("a"))
        .unwrap()
        .tensor_filter(tensor_call("tensor_any", vec![col("b")]).unwrap())
        .unwrap();
    let got = text(built).await;
    let want = sql_text(
        &ctx,
        &format!(
            "SELECT *, 1.0 - a AS e FROM (SELECT x * 2.0 + y AS a, x > 0.5 AS b, \
             tensor_sum(x, axis => 0, keepdims => true) AS c, tensor_get(x, '1, ::-1') AS d \
             FROM ({TENSORS})) WHERE tensor_any(b)"
        ),
    )
    .await;
    assert_eq!(got, want);
    // numpy: x = [[1, 2], [3, 4]] (float32), y = [[4, 3], [2, 1]]: x * 2.0 + y = [[6, 7], [8, 9]];
    // x.sum(axis=0, keepdims=True) = [[4, 6]]; x[1, ::-1] = [4, 3]; 1.0 - (x * 2 + y) = [[-5, -6], [-7, -8]].
    assert!(got.contains("[6.0, 7.0, 8.0, 9.0]"), "{got}");
    assert!(got.contains("[4.0, 6.0]"), "{got}");
    assert!(got.contains("[4.0, 3.0]"), "{got}");
    assert!(got.contains("[-5.0, -6.0, -7.0, -8.0]"), "{got}");
}

#[tokio::test]
async fn typed_expression_builders_give_the_sql_results() {
    use datafusion::functions_nested::expr_fn::make_array;
    use datafusion_tensor::dataframe::TensorDataFrameExt;
    use datafusion_tensor::expr_fn::{
        tensor, tensor_choose, tensor_get, tensor_matmul, tensor_reshape, tensor_sum,
    };
    let ctx = tensor_session_context().unwrap();
    let built = ctx
        .sql(TENSORS)
        .await
        .unwrap()
        .tensor_select(vec![
            tensor_sum(col("x"))
                .keepdims(lit(true))
                .axis(lit(0))
                .build()
                .alias("c"),
            tensor_get(vec![col("x"), lit("1, ::-1")]).alias("d"),
            tensor_matmul(col("x"), col("y")).alias("m"),
            tensor_reshape(col("x"), make_array(vec![lit(4)])).alias("r"),
            tensor_choose(vec![
                tensor(make_array(vec![lit(0), lit(1)]), make_array(vec![lit(2)])).build(),
                col("x"),
                col("y"),
            ])
            .mode(lit("clip"))
            .build()
            .alias("k"),
        ])
        .unwrap();
    let got = text(built).await;
    let want = sql_text(
        &ctx,
        &format!(
            "SELECT tensor_sum(x, axis => 0, keepdims => true) AS c, tensor_get(x, '1, ::-1') AS d, \
             tensor_matmul(x, y) AS m, tensor_reshape(x, [4]) AS r, \
             tensor_choose(tensor([0, 1], [2]), x, y, mode => 'clip') AS k FROM ({TENSORS})"
        ),
    )
    .await;
    assert_eq!(got, want);
    // numpy: x = [[1, 2], [3, 4]], y = [[4, 3], [2, 1]] (float32): x.sum(0, keepdims=True) =
    // [[4, 6]]; x[1, ::-1] = [4, 3]; x @ y = [[8, 5], [20, 13]].
    assert!(got.contains("[4.0, 6.0]"), "{got}");
    assert!(got.contains("[8.0, 5.0, 20.0, 13.0]"), "{got}");
}

#[test]
fn calls_by_name_refuse_what_python_refuses() {
    use datafusion_tensor::dataframe::tensor_call_with;
    let err = |name: &str, options: Vec<(&str, datafusion::prelude::Expr)>| {
        tensor_call_with(name, vec![col("x")], options)
            .unwrap_err()
            .to_string()
    };
    assert!(err("tensor_nope", vec![]).contains("tensor_nope is not a tensor function"));
    assert!(
        err("tensor_sum", vec![("axes", lit(1))])
            .contains("tensor_sum() got an unexpected keyword argument 'axes'")
    );
    assert!(
        err("tensor_sum", vec![("axis", lit(1)), ("axis", lit(0))])
            .contains("tensor_sum() got multiple values for argument 'axis'")
    );
    assert!(
        err("tensor_reshape", vec![])
            .contains("tensor_reshape function requires 2 arguments, got 1")
    );
}
