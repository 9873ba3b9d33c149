//! The plan of a higher-order tensor function, kept between calls.
//!
//! Higher-order functions have no `simplify` hook to carry a plan in a call's own instance
//! (as [`super::TensorUdf`] does for scalar ones), so the plan is compiled on first use and
//! kept for as long as the argument fields and literals stay the same: in practice once per
//! query and partition.

use std::fmt;
use std::sync::{Arc, Mutex};

use arrow::datatypes::FieldRef;
use datafusion::common::ScalarValue;
use datafusion::error::Result;

use crate::limits::Limits;

/// The last plan compiled, with the argument fields, literals and limits it was compiled for.
type Entry<P> = (Vec<FieldRef>, Vec<Option<ScalarValue>>, Limits, Arc<P>);

/// One function's last plan.
pub(crate) struct PlanCache<P> {
    last: Mutex<Option<Entry<P>>>,
}

impl<P> PlanCache<P> {
    pub(crate) fn new() -> Self {
        Self {
            last: Mutex::new(None),
        }
    }

    /// The plan for these arguments under `limits`: the kept one if it was compiled for the
    /// same fields, literals and limits, else `plan()`'s, which is then kept.
    pub(crate) fn get_or_plan(
        &self,
        fields: &[FieldRef],
        scalars: &[Option<&ScalarValue>],
        limits: Limits,
        plan: impl FnOnce() -> Result<P>,
    ) -> Result<Arc<P>> {
        let owned: Vec<Option<ScalarValue>> = scalars.iter().map(|s| s.cloned()).collect();
        if let Ok(last) = self.last.lock()
            && let Some((cached_fields, cached_scalars, cached_limits, plan)) = last.as_ref()
            && cached_fields == fields
            && *cached_scalars == owned
            && *cached_limits == limits
        {
            return Ok(Arc::clone(plan));
        }
        let plan = Arc::new(plan()?);
        if let Ok(mut last) = self.last.lock() {
            *last = Some((fields.to_vec(), owned, limits, Arc::clone(&plan)));
        }
        Ok(plan)
    }
}

impl<P> fmt::Debug for PlanCache<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlanCache").finish_non_exhaustive()
    }
}
