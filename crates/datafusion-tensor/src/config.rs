//! The session settings of this crate: [`TensorOptions`], a DataFusion configuration
//! extension under the prefix `tensor` (`SET tensor.fast_parquet = false`, `SHOW
//! tensor.fast_parquet`, listed by `SHOW ALL`).
//!
//! DataFusion keys an extension's settings by its prefix alone: `tensor.fast_parquet`, not
//! `datafusion.tensor.fast_parquet` (a `datafusion.` key is always one of DataFusion's own).
//! On the paths this crate owns (the CLI, [`crate::TensorSql::tensor_sql`], the Python
//! package) the SQL rewrite also reads `datafusion.tensor.*` as `tensor.*` in `SET`, `SHOW` and
//! `RESET`, and gives `RESET tensor.*` (which DataFusion 55 supports for its own settings only)
//! as a `SET` to the default ([`crate::rewrite::settings`]).
//!
//! [`crate::session_config`] and [`crate::register_all`] add the extension to a session; a
//! session without it reads every setting at its default ([`TensorOptions::from_config`]). On
//! a Ballista cluster the settings travel with the session's other settings, as `tensor.*`
//! keys, to executors whose configuration has the extension too (every configuration of
//! [`crate::session_config`] has it).

use std::any::Any;

use datafusion::common::config::{
    ConfigEntry, ConfigExtension, ConfigField, ConfigOptions, ExtensionOptions, Visit,
};
use datafusion::common::config_namespace;
use datafusion::error::Result;

config_namespace! {
    /// The tensor settings of a session (see the module docs); each is a `tensor.NAME` key.
    pub struct TensorOptions {
        /// Read full tensor columns of Parquet tables with this crate's faster reader (row
        /// groups it does not serve go to DataFusion's reader). When false, every scan is
        /// DataFusion's reader.
        pub fast_parquet: bool, default = true

        /// Let the faster reader map local Parquet files into memory and decode their row
        /// groups from the page cache, instead of first copying them into the process's
        /// memory. A file truncated by another process while a query maps it ends the
        /// process (SIGBUS), as with every memory-mapped reader: set false where files are
        /// rewritten in place while they are queried.
        pub map_files: bool, default = true

        /// The most elements one tensor (one row, one index array, a shape computed while
        /// planning) may have: larger shapes are errors before anything is allocated.
        /// Defaults to 2^26.
        pub max_tensor_elements: usize, default = crate::limits::DEFAULT_MAX_TENSOR_ELEMENTS

        /// The most bytes one function's tensor result over one batch may take. Defaults to
        /// 2^33 (8 GiB).
        pub max_batch_bytes: usize, default = crate::limits::DEFAULT_MAX_BATCH_BYTES

        /// Run the k-nearest-neighbour join (`row_number()` or `rank()` over a cross join,
        /// per group, ordered by a tensor distance or similarity, filtered to the first k)
        /// as a matrix product per batch that keeps only the pairs that can rank among the
        /// k. When false, every pair is measured and sorted. The results are the same.
        pub nearest_join: bool, default = true
    }
}

impl ConfigExtension for TensorOptions {
    const PREFIX: &'static str = "tensor";
}

impl ExtensionOptions for TensorOptions {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn cloned(&self) -> Box<dyn ExtensionOptions> {
        Box::new(self.clone())
    }

    fn set(&mut self, key: &str, value: &str) -> Result<()> {
        // With the key, as DataFusion's own settings' errors name theirs.
        ConfigField::set(self, key, value)
            .map_err(|err| err.context(format!("Error setting config {}.{key}", Self::PREFIX)))
    }

    /// The settings under their full keys (`tensor.fast_parquet`), as `SHOW ALL` lists them
    /// and Ballista sends them to executors (DataFusion's `extensions_options!` would list
    /// them without the prefix, which no `SET` accepts).
    fn entries(&self) -> Vec<ConfigEntry> {
        struct Entries(Vec<ConfigEntry>);
        impl Visit for Entries {
            fn some<V: std::fmt::Display>(
                &mut self,
                key: &str,
                value: V,
                description: &'static str,
            ) {
                self.0.push(ConfigEntry {
                    key: key.to_string(),
                    value: Some(value.to_string()),
                    description,
                });
            }

            fn none(&mut self, key: &str, description: &'static str) {
                self.0.push(ConfigEntry {
                    key: key.to_string(),
                    value: None,
                    description,
                });
            }
        }
        let mut entries = Entries(Vec::new());
        self.visit(&mut entries, Self::PREFIX, "");
        entries.0
    }
}

impl TensorOptions {
    /// The settings of a session's configuration: its extension, or the defaults when it has
    /// none (a session the crate's functions were registered on without [`crate::register_all`]).
    pub fn from_config(options: &ConfigOptions) -> Self {
        options
            .extensions
            .get::<Self>()
            .cloned()
            .unwrap_or_default()
    }

    /// `options` with the extension added at its defaults, unless it has it already.
    pub fn ensure_in(options: &mut ConfigOptions) {
        if options.extensions.get::<Self>().is_none() {
            options.extensions.insert(Self::default());
        }
    }

    /// `options` with `key` set to `value`, as `SET key = value` sets it: any setting of
    /// DataFusion's or of a configuration extension, this crate's also by the names
    /// `datafusion.tensor.*` (module docs).
    ///
    /// # Errors
    /// DataFusion's, for a key no setting has or a value the setting does not take.
    pub fn set_in(options: &mut ConfigOptions, key: &str, value: &str) -> Result<()> {
        let key = key
            .strip_prefix("datafusion.")
            .filter(|rest| {
                rest.strip_prefix(Self::PREFIX)
                    .is_some_and(|name| name.starts_with('.'))
            })
            .unwrap_or(key);
        options.set(key, value)
    }

    /// The default value of the setting `key` (`fast_parquet`, without the prefix) as text;
    /// `None` for no such setting.
    pub fn default_value(key: &str) -> Option<String> {
        let full = format!("{}.{key}", Self::PREFIX);
        Self::default()
            .entries()
            .into_iter()
            .find(|entry| entry.key == full)?
            .value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_carry_the_prefix_and_set_through_datafusion() {
        let mut options = ConfigOptions::new();
        TensorOptions::ensure_in(&mut options);
        assert!(
            options
                .entries()
                .iter()
                .any(|entry| entry.key == "tensor.fast_parquet")
        );
        options.set("tensor.fast_parquet", "false").unwrap();
        assert!(!TensorOptions::from_config(&options).fast_parquet);
        options.set("tensor.fast_parquet", "TRUE").unwrap();
        assert!(TensorOptions::from_config(&options).fast_parquet);
        assert!(options.set("tensor.fast_parquet", "maybe").is_err());
        assert!(options.set("tensor.no_such_setting", "1").is_err());
        TensorOptions::set_in(&mut options, "datafusion.tensor.fast_parquet", "false").unwrap();
        assert!(!TensorOptions::from_config(&options).fast_parquet);
        TensorOptions::set_in(&mut options, "datafusion.execution.batch_size", "7").unwrap();
        assert_eq!(usize::from(options.execution.batch_size), 7);
        assert!(TensorOptions::set_in(&mut options, "datafusion.tensorx.y", "1").is_err());
    }

    #[test]
    fn a_configuration_without_the_extension_reads_the_defaults() {
        let options = ConfigOptions::new();
        assert!(TensorOptions::from_config(&options).fast_parquet);
        assert_eq!(
            TensorOptions::default_value("fast_parquet").as_deref(),
            Some("true")
        );
        assert_eq!(
            TensorOptions::default_value("max_tensor_elements").as_deref(),
            Some("67108864")
        );
        assert_eq!(TensorOptions::default_value("nothing"), None);
    }
}
