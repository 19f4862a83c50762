//! lasthop-sim: the deterministic simulator.
//!
//! Scenario text → [`Scenario`] (validated model) → [`World`] driven by the
//! [`scheduler`] → [`RunOutput`] (summary metrics and typed traces). The same
//! scenario and seed give the same bytes out.

pub mod bench;
pub mod embedded;
pub mod metrics;
pub mod scenario;
pub mod scheduler;
pub mod schemes;
pub mod world;

pub use metrics::RunSummary;
pub use scenario::{Format, Scenario, ScenarioError};
pub use world::World;

use lasthop_core::trace::Trace;

/// Everything a run produces.
pub struct RunOutput {
    pub summary: RunSummary,
    pub trace: Trace,
    /// Names of link directions ("link:from->to"), indexed as in drop traces.
    pub link_dir_names: Vec<String>,
}

/// A run whose invariants failed: a bug in lasthop, never in the scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvariantViolation(pub String);

impl std::fmt::Display for InvariantViolation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "invariant violated (a lasthop bug, please report it): {}", self.0)
    }
}
impl std::error::Error for InvariantViolation {}

/// Run a loaded scenario with one seed.
pub fn run(scenario: &Scenario, seed: u64, trace: bool) -> Result<RunOutput, InvariantViolation> {
    let mut w = World::new(&scenario.model, seed, trace);
    w.run();
    w.check_invariants().map_err(InvariantViolation)?;
    Ok(RunOutput { summary: w.summary(), link_dir_names: w.link_dir_names(), trace: std::mem::take(&mut w.trace) })
}
