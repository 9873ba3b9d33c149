//! The local files a table function's or a table's location names: one path, a glob, or a
//! directory (its files with the format's extension), in path order.

use std::path::{Path, PathBuf};

use datafusion::error::{DataFusionError, Result};

/// `location`'s files: a path, a glob (`*`, `?`, `[`), or a directory's files ending in
/// `.{extension}`, sorted by path. `file://` URLs are their paths. Errors name `function` and
/// the location; a location that matches nothing is an error, as numpy's `np.load` of a
/// missing file is.
pub(crate) fn resolve(function: &str, location: &str, extension: &str) -> Result<Vec<PathBuf>> {
    let path = location.strip_prefix("file://").unwrap_or(location);
    if path.contains("://") {
        return Err(DataFusionError::Plan(format!(
            "{function}: '{location}' is not a local path: {extension} files are read from the \
             local file system (memory-mapped)"
        )));
    }
    let mut files = if path.contains(['*', '?', '[']) {
        let entries = glob::glob(path).map_err(|err| {
            DataFusionError::Plan(format!(
                "{function}: '{location}' is not a valid glob: {err}"
            ))
        })?;
        let mut files = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|err| {
                DataFusionError::Plan(format!("{function}: cannot read '{location}': {err}"))
            })?;
            if entry.is_file() {
                files.push(entry);
            }
        }
        files
    } else if Path::new(path).is_dir() {
        let entries = std::fs::read_dir(path).map_err(|err| {
            DataFusionError::Plan(format!("{function}: cannot list '{location}': {err}"))
        })?;
        let mut files = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|err| {
                DataFusionError::Plan(format!("{function}: cannot list '{location}': {err}"))
            })?;
            let file = entry.path();
            if file.is_file() && file.extension().is_some_and(|ext| ext == extension) {
                files.push(file);
            }
        }
        files
    } else if Path::new(path).is_file() {
        vec![PathBuf::from(path)]
    } else {
        return Err(DataFusionError::Plan(format!(
            "{function}: No such file or directory: '{location}'"
        )));
    };
    if files.is_empty() {
        return Err(DataFusionError::Plan(format!(
            "{function}: no .{extension} file matches '{location}'"
        )));
    }
    files.sort();
    Ok(files)
}

/// How a file is named in errors and in the `filename` column: the path as it was resolved.
pub(crate) fn display(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}
