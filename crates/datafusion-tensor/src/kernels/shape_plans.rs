//! Compiled plans cached by row shape: rows of one physical shape share one plan
//! ([`ShapePlans`]), so a batch of images in a few sizes compiles a few gather lists, not one
//! per row. The variable-shape kernels ([`super::ragged`]) and the rows of several arguments
//! ([`super::rows::RowPlans`], keyed by every argument's shape) both cache through it.

use std::collections::HashMap;

use crate::error::Result;

/// Compiled per-shape plans, keyed by a row's physical shape.
#[derive(Debug)]
pub struct ShapePlans<P> {
    plans: HashMap<Vec<usize>, P>,
    key: Vec<usize>,
}

impl<P> Default for ShapePlans<P> {
    fn default() -> Self {
        Self {
            plans: HashMap::new(),
            key: Vec::new(),
        }
    }
}

impl<P> ShapePlans<P> {
    /// The plan for a row of physical shape `shape`, compiled by `compile` the first time the
    /// shape is seen.
    pub fn get(
        &mut self,
        shape: impl Iterator<Item = usize>,
        compile: impl FnOnce(&[usize]) -> Result<P>,
    ) -> Result<&P> {
        self.key.clear();
        self.key.extend(shape);
        if !self.plans.contains_key(&self.key) {
            let plan = compile(&self.key)?;
            self.plans.insert(self.key.clone(), plan);
        }
        Ok(&self.plans[&self.key])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_of_one_shape_share_one_plan() {
        let mut plans = ShapePlans::default();
        let mut compiled = 0;
        for shape in [[2, 3], [1, 1], [2, 3], [2, 3], [1, 1]] {
            let plan = plans
                .get(shape.into_iter(), |s| {
                    compiled += 1;
                    Ok(s.to_vec())
                })
                .unwrap();
            assert_eq!(plan, &shape);
        }
        assert_eq!(compiled, 2);
    }
}
