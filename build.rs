//! No build step. The script exists for its `[build-dependencies]` (Cargo.toml, "One DataFusion
//! build"): they unify the build-time features of crates under DataFusion with the `ballista`
//! feature's graph, so that both builds share one DataFusion.
fn main() {}
