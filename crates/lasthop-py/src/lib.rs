//! PyO3 bindings: the module `lasthop._core`. Bindings only; every behaviour
//! lives in the Rust crates, every convenience in the Python package.
//!
//! Trace columns cross the boundary as raw little-endian buffers with their
//! numpy dtype, so the Python side builds Arrow arrays without a per-row loop.

use lasthop_core::trace::SenderEventKind;
use lasthop_sim::{embedded, CaptureSpec, Format, RunError, RunOptions, Scenario};
use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

create_exception!(
    _core,
    ScenarioError,
    PyValueError,
    "An invalid scenario or override: one line `FIELD.PATH: reason`."
);

/// What one run produced.
#[pyclass(module = "lasthop._core", frozen)]
struct RunOutput {
    /// JSON text of the run's summary.
    #[pyo3(get)]
    summary_json: String,
    out: lasthop_sim::RunOutput,
}

fn le_bytes<T: Copy, const N: usize>(xs: &[T], f: impl Fn(T) -> [u8; N]) -> Vec<u8> {
    let mut v = Vec::with_capacity(xs.len() * N);
    for x in xs {
        v.extend_from_slice(&f(*x));
    }
    v
}

fn col_u64<'py>(py: Python<'py>, xs: &[u64]) -> (&'static str, Bound<'py, PyBytes>) {
    ("<u8", PyBytes::new(py, &le_bytes(xs, u64::to_le_bytes)))
}
fn col_u32<'py>(py: Python<'py>, xs: &[u32]) -> (&'static str, Bound<'py, PyBytes>) {
    ("<u4", PyBytes::new(py, &le_bytes(xs, u32::to_le_bytes)))
}
fn col_bool<'py>(py: Python<'py>, xs: &[bool]) -> (&'static str, Bound<'py, PyBytes>) {
    ("|b1", PyBytes::new(py, &xs.iter().map(|b| u8::from(*b)).collect::<Vec<u8>>()))
}

fn event_name(k: SenderEventKind) -> &'static str {
    match k {
        SenderEventKind::FastRetransmit => "fast_retransmit",
        SenderEventKind::Timeout => "timeout",
        SenderEventKind::PartialAck => "partial_ack",
        SenderEventKind::RecoveryExit => "recovery_exit",
        SenderEventKind::ElnRetransmit => "eln_retransmit",
        SenderEventKind::ErsnReceived => "ersn_received",
        SenderEventKind::ElnReceived => "eln_received",
        SenderEventKind::TimeoutDeferred => "timeout_deferred",
        SenderEventKind::Disconnection => "disconnection",
        SenderEventKind::MoveReset => "move_reset",
    }
}

#[pymethods]
impl RunOutput {
    /// Trace tables by name: column -> (dtype, bytes) or list[str].
    fn tables<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let t = &self.out.trace;
        let all = PyDict::new(py);

        let w = PyDict::new(py);
        w.set_item("time_ns", col_u64(py, &t.window.time_ns))?;
        w.set_item("flow", col_u32(py, &t.window.flow))?;
        w.set_item("cwnd_bytes", col_u64(py, &t.window.cwnd_bytes))?;
        w.set_item("ssthresh_bytes", col_u64(py, &t.window.ssthresh_bytes))?;
        all.set_item("window", w)?;

        let s = PyDict::new(py);
        s.set_item("time_ns", col_u64(py, &t.sent.time_ns))?;
        s.set_item("flow", col_u32(py, &t.sent.flow))?;
        s.set_item("seq", col_u64(py, &t.sent.seq))?;
        s.set_item("len", col_u32(py, &t.sent.len))?;
        s.set_item("retransmit", col_bool(py, &t.sent.retransmit))?;
        all.set_item("sent", s)?;

        let a = PyDict::new(py);
        a.set_item("time_ns", col_u64(py, &t.acks.time_ns))?;
        a.set_item("flow", col_u32(py, &t.acks.flow))?;
        a.set_item("ack", col_u64(py, &t.acks.ack))?;
        all.set_item("acks", a)?;

        let e = PyDict::new(py);
        e.set_item("time_ns", col_u64(py, &t.events.time_ns))?;
        e.set_item("flow", col_u32(py, &t.events.flow))?;
        e.set_item("kind", PyList::new(py, t.events.kind.iter().map(|k| event_name(*k)))?)?;
        all.set_item("events", e)?;

        let d = PyDict::new(py);
        let names = &self.out.link_dir_names;
        d.set_item("time_ns", col_u64(py, &t.drops.time_ns))?;
        d.set_item("link", PyList::new(py, t.drops.link_dir.iter().map(|i| names[*i as usize].as_str()))?)?;
        d.set_item("flow", col_u32(py, &t.drops.flow))?;
        d.set_item("seq", col_u64(py, &t.drops.seq))?;
        d.set_item("is_data", col_bool(py, &t.drops.is_data))?;
        let causes = t.drops.cause.iter().map(|c| c.name());
        d.set_item("cause", PyList::new(py, causes)?)?;
        all.set_item("drops", d)?;

        let r = PyDict::new(py);
        let nodes = &self.out.node_names;
        r.set_item("time_ns", col_u64(py, &t.local_rexmits.time_ns))?;
        r.set_item("flow", col_u32(py, &t.local_rexmits.flow))?;
        r.set_item("seq", col_u64(py, &t.local_rexmits.seq))?;
        r.set_item("len", col_u32(py, &t.local_rexmits.len))?;
        r.set_item("node", PyList::new(py, t.local_rexmits.node.iter().map(|i| nodes[*i as usize].as_str()))?)?;
        r.set_item("timer", col_bool(py, &t.local_rexmits.timer))?;
        all.set_item("local_rexmits", r)?;

        let b = PyDict::new(py);
        b.set_item("time_ns", col_u64(py, &t.send_rate.time_ns))?;
        b.set_item("flow", col_u32(py, &t.send_rate.flow))?;
        b.set_item("segments", col_u32(py, &t.send_rate.segments))?;
        b.set_item("retransmits", col_u32(py, &t.send_rate.retransmits))?;
        all.set_item("send_rate", b)?;
        Ok(all)
    }

    /// (spec as given, canonical `link` or `link:from->to`) of each capture.
    #[getter]
    fn captures(&self) -> Vec<(String, String)> {
        self.out.pcaps.iter().map(|p| (p.spec.clone(), p.label.clone())).collect()
    }

    /// The libpcap file of capture `index` (in the order of `pcap`).
    fn pcap<'py>(&self, py: Python<'py>, index: usize) -> PyResult<Bound<'py, PyBytes>> {
        let p = self.out.pcaps.get(index).ok_or_else(|| {
            PyIndexError::new_err(format!("capture {index} out of range ({} captures)", self.out.pcaps.len()))
        })?;
        Ok(PyBytes::new(py, &p.bytes))
    }
}

fn load(text: &str, sets: &[String], origin: &str, fmt: &str) -> PyResult<Scenario> {
    let fmt = Format::parse(fmt).map_err(|e| ScenarioError::new_err(e.to_string()))?;
    Scenario::load(text, fmt, sets, origin).map_err(|e| ScenarioError::new_err(e.to_string()))
}

/// Tests of how callers survive an engine panic set this environment
/// variable to a seed: [`run`] then panics for that seed, as a bug in the
/// engine would (a fault-injection point; nothing else reads it).
const PANIC_SEED_VAR: &str = "LASTHOP_TEST_PANIC_SEED";

/// Run a scenario text with one seed, capturing the link directions `pcap`
/// names (`LINK[:DIRECTION]`) with snap length `snaplen`.
#[pyfunction]
#[pyo3(signature = (text, seed, sets, trace, origin, fmt, *, pcap = Vec::new(), snaplen = i64::from(lasthop_sim::pcap::DEFAULT_SNAPLEN)))]
#[allow(clippy::too_many_arguments)]
fn run(
    py: Python<'_>,
    text: &str,
    seed: u64,
    sets: Vec<String>,
    trace: bool,
    origin: &str,
    fmt: &str,
    pcap: Vec<String>,
    snaplen: i64,
) -> PyResult<RunOutput> {
    let sc = load(text, &sets, origin, fmt)?;
    // Range-checked by the core; a negative value gets the same message.
    let snaplen = u32::try_from(snaplen).map_err(|_| {
        let max = lasthop_sim::pcap::MAX_SNAPLEN;
        ScenarioError::new_err(format!("--snaplen: must be in 1..={max}, got {snaplen}"))
    })?;
    let options = RunOptions { trace, captures: pcap.iter().map(|s| CaptureSpec::parse(s)).collect(), snaplen };
    let inject_panic = std::env::var(PANIC_SEED_VAR).ok().and_then(|v| v.trim().parse::<u64>().ok()) == Some(seed);
    // The engine runs without the GIL; every few milliseconds it takes the
    // GIL back for a moment to let Python's signal handlers run. A Ctrl-C
    // raises KeyboardInterrupt there, which stops the run and is re-raised.
    let mut pending: Option<PyErr> = None;
    let mut interrupt = || match Python::attach(|py| py.check_signals()) {
        Ok(()) => false,
        Err(e) => {
            pending = Some(e);
            true
        }
    };
    let result = py.detach(|| {
        assert!(!inject_panic, "injected panic for seed {seed} ({PANIC_SEED_VAR})");
        lasthop_sim::run_interruptible(&sc, seed, &options, &mut interrupt)
    });
    let out = result.map_err(|e| match e {
        RunError::Options(e) => ScenarioError::new_err(e.to_string()),
        RunError::EventBudget(e) => PyRuntimeError::new_err(e.to_string()),
        RunError::Invariant(e) => PyRuntimeError::new_err(e.to_string()),
        RunError::Interrupted => {
            pending.take().unwrap_or_else(|| pyo3::exceptions::PyKeyboardInterrupt::new_err("interrupted"))
        }
    })?;
    let summary_json = serde_json::to_string(&out.summary).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    Ok(RunOutput { summary_json, out })
}

/// Check a scenario and its overrides without running it.
#[pyfunction]
fn validate(text: &str, sets: Vec<String>, origin: &str, fmt: &str) -> PyResult<()> {
    load(text, &sets, origin, fmt).map(|_| ())
}

/// The JSON Schema of scenario files.
#[pyfunction]
fn schema() -> String {
    lasthop_sim::scenario::json_schema()
}

/// The congestion controllers' names (`tcp.cc`) and the variants' (`tcp.variant`).
#[pyfunction]
fn cc_names() -> Vec<&'static str> {
    lasthop_tcp::cc::CcName::NAMES.to_vec()
}

#[pyfunction]
fn variant_names() -> Vec<&'static str> {
    lasthop_tcp::variants::names()
}

/// The scenarios compiled into the module, by name.
#[pyfunction]
fn embedded_scenarios<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, text) in embedded::SCENARIOS {
        d.set_item(name, text)?;
    }
    Ok(d)
}

/// Time the benchmark `cases` (all when empty): the LAN case about
/// `repeats` runs, each scale case `scale_runs` runs. JSON text: a list of
/// case results.
#[pyfunction(name = "bench")]
#[pyo3(signature = (repeats, cases = Vec::new(), scale_runs = 3))]
fn bench_fn(py: Python<'_>, repeats: u32, cases: Vec<String>, scale_runs: u32) -> PyResult<String> {
    let r = py.detach(|| lasthop_sim::bench::bench(&cases, repeats, scale_runs)).map_err(PyValueError::new_err)?;
    serde_json::to_string(&r).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// The engine's benchmark cases, in the order they run.
#[pyfunction]
fn bench_cases() -> Vec<&'static str> {
    lasthop_sim::bench::CASES.to_vec()
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ScenarioError", m.py().get_type::<ScenarioError>())?;
    m.add_class::<RunOutput>()?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(schema, m)?)?;
    m.add_function(wrap_pyfunction!(bench_cases, m)?)?;
    m.add_function(wrap_pyfunction!(cc_names, m)?)?;
    m.add_function(wrap_pyfunction!(variant_names, m)?)?;
    m.add_function(wrap_pyfunction!(embedded_scenarios, m)?)?;
    m.add_function(wrap_pyfunction!(bench_fn, m)?)?;
    Ok(())
}
