//! lasthop-sim: the deterministic simulator.
//!
//! Scenario text → [`Scenario`] (validated model) → [`World`] driven by the
//! [`scheduler`] → [`RunOutput`] (summary metrics and typed traces). The same
//! scenario and seed give the same bytes out. [`run_with`] can also capture
//! what crossed chosen links as pcap files ([`pcap`]).

pub mod bench;
pub mod embedded;
pub mod metrics;
pub mod pcap;
mod rows;
pub mod scale;
pub mod scenario;
pub mod scheduler;
pub mod schemes;
pub mod spurious;
pub mod traffic;
pub mod world;

pub use metrics::RunSummary;
pub use pcap::{CaptureFile, CaptureSpec};
pub use scenario::{Format, Scenario, ScenarioError};
pub use world::{RunEnd, World};

use lasthop_core::trace::Trace;
use lasthop_core::Time;
use std::sync::Arc;

/// Everything a run produces.
pub struct RunOutput {
    pub summary: RunSummary,
    pub trace: Trace,
    /// Names of link directions ("link:from->to"), indexed as in drop traces.
    pub link_dir_names: Arc<[String]>,
    /// Names of nodes, indexed as in local-retransmission traces.
    pub node_names: Arc<[String]>,
    /// One pcap file per [`RunOptions::captures`] entry, in the same order.
    pub pcaps: Vec<CaptureFile>,
}

/// How to run: what to record besides the summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOptions {
    /// Record the time-series traces.
    pub trace: bool,
    /// Link directions to capture as pcap files.
    pub captures: Vec<CaptureSpec>,
    /// Bytes kept of each captured frame, in 1..=[`pcap::MAX_SNAPLEN`].
    pub snaplen: u32,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions { trace: false, captures: Vec::new(), snaplen: pcap::DEFAULT_SNAPLEN }
    }
}

/// Why [`run_with`] gave no output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// An option does not fit the scenario (an unknown link to capture, a
    /// bad snap length): one line naming the option, found before the run.
    Options(ScenarioError),
    /// The run needed more events than the scenario's `max_events` allows.
    EventBudget(EventBudgetExceeded),
    Invariant(InvariantViolation),
    /// The caller's interrupt check stopped the run (see [`run_interruptible`]).
    Interrupted,
}

/// A run stopped by its event budget (`max_events`): a property of the
/// scenario, reported as the run's error instead of results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventBudgetExceeded {
    pub max_events: u64,
    /// Simulated time when the budget ran out.
    pub at: Time,
}

impl std::fmt::Display for EventBudgetExceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "max_events: the run needed more than {} events (budget spent at t={:.6} s)",
            self.max_events,
            self.at.as_secs_f64()
        )
    }
}
impl std::error::Error for EventBudgetExceeded {}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Options(e) => e.fmt(f),
            RunError::EventBudget(e) => e.fmt(f),
            RunError::Invariant(e) => e.fmt(f),
            RunError::Interrupted => f.write_str("interrupted"),
        }
    }
}
impl std::error::Error for RunError {}

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
pub fn run(scenario: &Scenario, seed: u64, trace: bool) -> Result<RunOutput, RunError> {
    run_world(World::new(&scenario.model, seed, trace), &mut || false)
}

/// Run a loaded scenario with one seed and `options`. Capture specs are
/// checked against the scenario before the run starts.
pub fn run_with(scenario: &Scenario, seed: u64, options: &RunOptions) -> Result<RunOutput, RunError> {
    run_interruptible(scenario, seed, options, &mut || false)
}

/// [`run_with`], calling `interrupt` every
/// [`world::INTERRUPT_CHECK_EVENTS`] events; when it answers true the run
/// stops with [`RunError::Interrupted`] (the Python binding asks it whether
/// the user pressed Ctrl-C).
pub fn run_interruptible(
    scenario: &Scenario,
    seed: u64,
    options: &RunOptions,
    interrupt: &mut dyn FnMut() -> bool,
) -> Result<RunOutput, RunError> {
    let captures = pcap::resolve(&scenario.model, &options.captures, options.snaplen).map_err(RunError::Options)?;
    run_world(World::new(&scenario.model, seed, options.trace).with_captures(captures), interrupt)
}

fn run_world(mut w: World<'_>, interrupt: &mut dyn FnMut() -> bool) -> Result<RunOutput, RunError> {
    match w.run_until(interrupt) {
        RunEnd::Finished => {}
        RunEnd::EventBudget => {
            let max_events = w.max_events();
            return Err(RunError::EventBudget(EventBudgetExceeded { max_events, at: w.now() }));
        }
        RunEnd::Interrupted => return Err(RunError::Interrupted),
    }
    w.check_invariants().map_err(|e| RunError::Invariant(InvariantViolation(e)))?;
    Ok(RunOutput {
        summary: w.summary(),
        link_dir_names: w.link_dir_names(),
        node_names: w.node_names(),
        pcaps: w.take_captures(),
        trace: {
            w.trace.finish();
            std::mem::take(&mut w.trace)
        },
    })
}
