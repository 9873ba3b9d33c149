//! The sqllogictest suites of `sql/`: one test per `.slt` file, run against the project's
//! ready-made context. A file is a suite only once it is listed in [`suites!`] below;
//! [`every_sql_file_is_a_suite`] fails while a file under `sql/` is not listed, so none is
//! skipped unseen.
//!
//! ```text
//! cargo test --test integration -- slt::                # every suite
//! cargo test --test integration -- slt::tensor_get      # tensor_get.slt and tensor_get_generated.slt
//! cargo test --test integration -- --exact slt::tensor_get   # tensor_get.slt alone
//! SLT_COMPLETE=1 cargo test --test integration -- slt::tensor_get   # rewrite their expected output
//! ```
//!
//! The filter is libtest's: a substring of the test name (`-- tensor_get` also runs the
//! property test of `tensor_get`). `SLT_COMPLETE=1` rewrites the expected output of every suite
//! the filter selects from what the engine returns; review the diff: expected values must come
//! from numpy/JAX or the spec, not be taken on trust (the `*_generated.slt` files are written
//! by the scripts of `tests/data/`, not by this).
//!
//! Each file gets a fresh context. Values print as DataFusion's CLI prints them, tensors
//! nested; NULL as `NULL`, the empty string as `(empty)` (`datafusion_tensor::sqllogictest`,
//! the runner users' own suites take).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use datafusion::error::DataFusionError;
use datafusion::prelude::SessionContext;
use datafusion_tensor::sqllogictest::RunOptions;

fn slt_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            slt_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "slt") {
            out.push(path);
        }
    }
}

async fn run_file(path: &Path, complete: bool) -> Result<(), String> {
    // `FROM 'file.parquet'` as in the CLI.
    run_file_on(path, complete, &[], || {
        Ok(datafusion_tensor::tensor_session_context()?.enable_url_table())
    })
    .await
}

/// Runs (or, with `complete`, rewrites) the suite at `path` on the contexts `context` makes,
/// one per file, through the library's runner (`datafusion_tensor::sqllogictest`, what users'
/// own suites run on); records marked `skipif LABEL` are skipped for each of `labels`
/// (`ballista` on a cluster).
pub(crate) async fn run_file_on(
    path: &Path,
    complete: bool,
    labels: &[&str],
    context: impl Fn() -> Result<SessionContext, DataFusionError> + Clone + Send + Sync + 'static,
) -> Result<(), String> {
    let options = RunOptions {
        complete,
        labels: labels.iter().map(ToString::to_string).collect(),
    };
    datafusion_tensor::sqllogictest::run_file(path, &options, context).await
}

/// One test per suite, named after its file: `suites!(tensor_get)` is `sql/tensor_get.slt`.
macro_rules! suites {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                run(concat!("sql/", stringify!($name), ".slt"));
            }
        )*

        /// The files of the suites above.
        const SUITES: &[&str] = &[$(concat!("sql/", stringify!($name), ".slt")),*];
    };
}

/// The suites of `sql/`, one name per file: the one list that both this local run and the
/// cluster run (`ballista.rs`) expand, so that neither leaves a file out
/// (`every_sql_file_is_a_suite`).
macro_rules! each_suite {
    ($then:ident) => {
        $then!(
            // One file per SQL function (the tensor_at_* family: one per operation group); a case that
            // calls several is in the file of the first it calls. `*_generated` files are written by
            // the scripts of tests/data/ from numpy or JAX.
            tensor,
            tensor_shape,
            tensor_ndim,
            tensor_size,
            tensor_to_list,
            tensor_to_string,
            tensor_reshape,
            tensor_get,
            tensor_get_generated,
            tensor_take_along_axis,
            tensor_take_along_axis_generated,
            tensor_put_along_axis,
            tensor_put_along_axis_generated,
            tensor_choose,
            tensor_choose_generated,
            tensor_at_set,
            tensor_at_arithmetic,
            tensor_at_get,
            tensor_at_apply,
            tensor_at_generated,
            // The elementwise functions (tensor_add ... tensor_logical_xor, tensor_where) and
            // the operators on tensors.
            tensor_elementwise,
            tensor_elementwise_generated,
            tensor_elementwise_more_generated,
            // Variable-shape operands of the elementwise functions, row by row (numpy's values).
            tensor_elementwise_varshape,
            // tensor_astype and CAST of tensors (numpy's astype).
            tensor_astype_generated,
            // Reductions along axes and the unary functions.
            tensor_reduce,
            tensor_reduce_generated,
            tensor_reduce_nan_generated,
            // numpy's dtype, initial and where of the reductions.
            tensor_reduce_options_generated,
            // cumulative_sum, cumulative_prod (include_initial), diff; divmod's fields and
            // vecdot: numpy's values.
            tensor_cumulative_generated,
            tensor_divmod_generated,
            tensor_search_generated,
            tensor_search,
            tensor_create_generated,
            tensor_numbers_generated,
            tensor_cross_generated,
            tensor_agg_cov_generated,
            tensor_create,
            tensor_vector_norm_generated,
            tensor_sort_generated,
            tensor_decompose,
            tensor_decompose_generated,
            tensor_unary,
            tensor_unary_generated,
            // tensor_map: a lambda over every element (numpy's values, and readable cases).
            tensor_map,
            tensor_map_generated,
            // Aggregates over rows (tensor_agg_*): errors, windows and partitions; numpy's
            // values for fixed-shape columns and files, and for variable-shape columns.
            tensor_aggregate,
            tensor_aggregate_generated,
            tensor_aggregate_varshape_generated,
            // The shape functions (transpose, squeeze, expand_dims, broadcast_to, flatten, flip,
            // concatenate, stack): readable cases and errors, numpy's values, and variable-shape
            // columns (varshape_generated: numpy's values on pyarrow's columns).
            tensor_shape_ops,
            tensor_shape_ops_generated,
            tensor_shape_ops_varshape,
            tensor_shape_ops_varshape_generated,
            // split, array_split and unstack: numpy's parts, as struct fields.
            tensor_split_generated,
            // roll, repeat, tile, take, pad, tril, triu: numpy's values on fixed and
            // variable shapes, and numpy's errors.
            tensor_manipulate_generated,
            // Linear algebra per row (matmul, dot, inner, outer, tensordot, trace, diagonal,
            // einsum, and the vector functions): errors and keywords, numpy's values on fixed
            // shapes, on einsum's grammar, on pyarrow's variable-shape columns, and with numbers
            // as operands.
            tensor_linalg,
            tensor_linalg_generated,
            tensor_einsum_generated,
            tensor_linalg_varshape_generated,
            tensor_linalg_numbers_generated,
            tensor_norm,
            tensor_norm_generated,
            tensor_norm_varshape_generated,
            // Variable-shape tensors across functions: errors (varshape) and numpy's values on
            // pyarrow's columns (varshape_generated).
            varshape,
            varshape_generated,
            // Variable-shape tensors broadcast row by row: along-axis and choose (errors, and numpy's
            // values on pyarrow's columns).
            varshape_along_axis,
            varshape_choose,
            varshape_along_generated,
            // UNIONs of one logical tensor in different layouts (pyarrow's files, transposes,
            // permuted, dim-named, variable-shape): numpy's values, and the errors.
            tensor_union,
            tensor_union_generated,
            tensor_sort_keys_generated,
            // The k-nearest-neighbour join (`nearest`): numpy's rankings.
            tensor_nearest_generated,
            // Across functions: Parquet files, resource limits, cases found by fuzzing.
            files,
            parquet,
            // Tensor files as tables (read_npy, read_npz, read_safetensors, COPY TO): numpy's
            // and safetensors' values of the files they wrote, and the errors of broken ones.
            tensor_files,
            tensor_files_generated,
            // Zarr v2 and v3 arrays as tables (read_zarr): zarr-python's values of the stores
            // it wrote, every default codec, and the errors of broken stores.
            zarr,
            zarr_generated,
            limits,
            fuzz_regressions,
        );
    };
}
#[cfg_attr(not(feature = "ballista"), allow(unused_imports))]
pub(crate) use each_suite;

each_suite!(suites);

/// Runs one suite; `SLT_COMPLETE=1` rewrites its expected output instead.
fn run(path: &str) {
    let complete = std::env::var_os("SLT_COMPLETE").is_some_and(|v| !v.is_empty() && v != "0");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio starts");
    if let Err(error) = runtime.block_on(run_file(Path::new(path), complete)) {
        panic!("{path}:\n{error}");
    }
}

#[test]
fn every_sql_file_is_a_suite() {
    let mut files = Vec::new();
    slt_files(Path::new("sql"), &mut files);
    let files: BTreeSet<String> = files
        .iter()
        .map(|path| path.to_string_lossy().replace('\\', "/"))
        .collect();
    let listed: BTreeSet<String> = SUITES.iter().map(|path| (*path).to_string()).collect();
    let unlisted: Vec<&String> = files.difference(&listed).collect();
    let missing: Vec<&String> = listed.difference(&files).collect();
    assert!(
        unlisted.is_empty(),
        "not listed in each_suite! in tests/integration/slt.rs, so never run: {unlisted:?}"
    );
    assert!(
        missing.is_empty(),
        "listed in each_suite! but not found: {missing:?}"
    );
}

/// Every function the crate declares (but the rewrite's internal `tensor_typed`) is called in
/// a suite, takes keyword arguments as declared, and is known to the plan codecs.
#[test]
fn every_declared_function_is_in_a_suite_the_keyword_table_and_the_codecs() {
    use datafusion_tensor::udf::registry::{
        Registered, is_tensor_function, is_tensor_higher_order_function, keyword_parameters,
    };
    use datafusion_tensor::udf::{Parameters, registry};

    let text: String = SUITES
        .iter()
        .map(|path| std::fs::read_to_string(path).expect("a suite reads"))
        .collect::<Vec<_>>()
        .join("\n")
        .to_lowercase();
    let mut uncalled = Vec::new();
    for declared in registry().functions() {
        let name = declared.function.name();
        let known = match &declared.function {
            Registered::Scalar(udf) => is_tensor_function(udf),
            Registered::HigherOrder(udf) => is_tensor_higher_order_function(udf),
            // Aggregates hold no call state: a plan names them, and they resolve by name.
            Registered::Aggregate(_) => true,
        };
        assert!(known, "{name} is unknown to the plan codecs");
        if declared.parameters == Parameters::Internal {
            continue;
        }
        assert_eq!(
            keyword_parameters(name),
            Some(declared.parameters),
            "{name}: the keyword rewrite does not take its declared parameters"
        );
        if !text.contains(&format!("{name}(")) {
            uncalled.push(name.to_string());
        }
    }
    assert!(
        uncalled.is_empty(),
        "called in no suite of sql/: {uncalled:?}"
    );
}
