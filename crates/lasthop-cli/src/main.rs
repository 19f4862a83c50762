//! The native `lasthop` command (issue 31, item 1): `lasthop run`,
//! `scenarios`, `schema` and `--version` without starting Python, and every
//! other command line handed to `python -m lasthop` unchanged.
//!
//! Why native: a one-shot `lasthop run balakrishnan97/lan --format json` must
//! take at most half of what ns-2 takes for the same run (about 130 ms here),
//! and on this machine kind the interpreter alone, with its `site` (the
//! venv's and the system's `.pth` files), starts in 60-100 ms before it
//! imports anything of lasthop's. This binary starts in about a millisecond
//! and calls the engine directly.
//!
//! The rule that keeps it honest: **it answers only command lines it knows
//! to be valid, and hands everything else to Python**, byte for byte the
//! same argv. Help (`--help` anywhere), every option it does not know, every
//! value it does not parse exactly as click would, every invalid scenario or
//! override (after checking it natively), and an engine failure all go to
//! `python -m lasthop`, which prints the one error line it always printed.
//! So options, help and errors are the Python command's by construction;
//! `tests/test_native_cli.py` runs both on the same command lines and
//! requires the same stdout, stderr and exit code.
//!
//! What it does itself, exactly as `lasthop.cli` does it:
//! - `--version`; `scenarios` (the embedded names, sorted); `schema`.
//! - `run SCENARIO [--seed N | --seeds N] [--set PATH=VALUE]...
//!   [--format table|json|csv|parquet] [--indent N] [--out FILE]`:
//!   the scenario found as `lasthop.scenario.load_scenario_text` finds it
//!   (TOML text with a line break, a file, then an embedded name), run on
//!   the engine, every seed before anything is printed. One seed as JSON on
//!   stdout is printed here ([`pyjson`] writes what `json.dumps` writes,
//!   compact or indented). The tables, the mean over `--seeds`, the rows per
//!   flow (CSV, Parquet) and files (`--out`) are Python's
//!   (`lasthop.run_output`): the summaries go to `python -m
//!   lasthop.run_output` on its stdin, after the run, so that no Python
//!   module is imported before it.
//! - Ctrl-C during a run: `lasthop: error: interrupted`, exit code 130, as
//!   the Python command (and nothing at all when SIGINT is ignored, as in a
//!   background job).
//!
//! Python is the `python` beside this executable (the venv's, where
//! `scripts/install.sh` puts it), else `$LASTHOP_PYTHON`, else `python3`.

#[cfg(target_os = "linux")]
mod live;
mod pyjson;

use lasthop_sim::scenario::{Format, Scenario};
use lasthop_sim::{embedded, RunError, RunOptions};
use std::ffi::OsString;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};

/// The largest scenario file read (`lasthop.scenario.MAX_FILE_BYTES`); a
/// larger one is Python's to refuse.
const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;
/// Test hook of the Python binding (`LASTHOP_TEST_PANIC_SEED`): when set,
/// the run is Python's, which injects the panic.
const PANIC_SEED_VAR: &str = "LASTHOP_TEST_PANIC_SEED";
const EXIT_INTERRUPTED: u8 = 130;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// What `python -m lasthop.run_output` reads on its stdin.
#[derive(serde::Serialize)]
struct Handoff<'a, S: serde::Serialize> {
    origin: &'a str,
    seeds: Option<u64>,
    seed_list: &'a [u64],
    format: &'a str,
    indent: Option<usize>,
    out: Option<&'a str>,
    runs: &'a [S],
}

/// What this binary does not answer itself.
struct Delegate;

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    match answer(&args) {
        Ok(code) => code,
        Err(Delegate) => exec_python(&["-m", "lasthop"], &args),
    }
}

/// Every argument as UTF-8 text, or none (Python decodes the rest).
fn texts(args: &[OsString]) -> Result<Vec<&str>, Delegate> {
    args.iter().map(|a| a.to_str().ok_or(Delegate)).collect()
}

fn answer(args: &[OsString]) -> Result<ExitCode, Delegate> {
    let args = texts(args)?;
    match args.as_slice() {
        ["--version"] => out(format!("lasthop {}\n", env!("CARGO_PKG_VERSION")).as_bytes()),
        ["schema"] => {
            let schema = lasthop_sim::scenario::json_schema();
            out(format!("{}\n", schema.trim_end_matches('\n')).as_bytes())
        }
        ["scenarios"] => {
            let mut names: Vec<&str> = embedded::SCENARIOS.iter().map(|(n, _)| *n).collect();
            names.sort_unstable();
            out(names.iter().map(|n| format!("{n}\n")).collect::<String>().as_bytes())
        }
        ["run", rest @ ..] => run(rest),
        // Help is Python's (`lasthop --help` lists live, `lasthop live --help` says
        // what it takes); a --help after `--` belongs to the user's command.
        #[cfg(target_os = "linux")]
        ["live", rest @ ..] if !rest.iter().take_while(|a| **a != "--").any(|a| *a == "--help") => Ok(live::main(rest)),
        _ => Err(Delegate),
    }
}

/// Write `bytes` to stdout; a reader that went away (`| head -1`) ends the
/// command with exit code 1 and nothing more, as in Python.
fn out(bytes: &[u8]) -> Result<ExitCode, Delegate> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(_) => Ok(ExitCode::from(1)),
    }
}

/// `lasthop run`'s command line, when it is one this binary reads exactly
/// as click reads it.
struct RunArgs<'a> {
    scenario: &'a str,
    seed: Option<u64>,
    seeds: Option<u64>,
    sets: Vec<String>,
    format: OutFormat,
    indent: Option<usize>,
    out: Option<&'a str>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum OutFormat {
    Table,
    Json,
    Csv,
    Parquet,
}

impl OutFormat {
    fn name(self) -> &'static str {
        match self {
            OutFormat::Table => "table",
            OutFormat::Json => "json",
            OutFormat::Csv => "csv",
            OutFormat::Parquet => "parquet",
        }
    }
}

/// An option's value: `--opt VALUE` or `--opt=VALUE`.
fn option_value<'a>(arg: &'a str, name: &str, rest: &mut std::slice::Iter<'_, &'a str>) -> Option<Option<&'a str>> {
    if arg == name {
        return Some(rest.next().copied());
    }
    arg.strip_prefix(name).and_then(|tail| tail.strip_prefix('=')).map(Some)
}

/// A decimal integer as click's `int()` reads the plain ones: ASCII digits,
/// no sign, spaces or underscores (those go to Python).
fn plain_uint(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn parse_run<'a>(args: &[&'a str]) -> Result<RunArgs<'a>, Delegate> {
    let mut scenario = None;
    let (mut seed, mut seeds, mut format, mut indent, mut out) = (None, None, None, None, None);
    let mut sets = Vec::new();
    let mut it = args.iter();
    while let Some(&arg) = it.next() {
        if let Some(v) = option_value(arg, "--seed", &mut it) {
            if seed.replace(plain_uint(v.ok_or(Delegate)?).ok_or(Delegate)?).is_some() {
                return Err(Delegate);
            }
        } else if let Some(v) = option_value(arg, "--seeds", &mut it) {
            let n = plain_uint(v.ok_or(Delegate)?).filter(|n| *n >= 1).ok_or(Delegate)?;
            if seeds.replace(n).is_some() {
                return Err(Delegate);
            }
        } else if let Some(v) = option_value(arg, "--set", &mut it) {
            let v = v.ok_or(Delegate)?;
            // lasthop.scenario.check_set: PATH=VALUE with a PATH not blank.
            let (path, _) = v.split_once('=').ok_or(Delegate)?;
            if path.trim().is_empty() {
                return Err(Delegate);
            }
            sets.push(v.to_string());
        } else if let Some(v) = option_value(arg, "--format", &mut it) {
            let f = match v.ok_or(Delegate)?.to_ascii_lowercase().as_str() {
                "json" => OutFormat::Json,
                "table" => OutFormat::Table,
                "csv" => OutFormat::Csv,
                "parquet" => OutFormat::Parquet,
                _ => return Err(Delegate),
            };
            if format.replace(f).is_some() {
                return Err(Delegate);
            }
        } else if let Some(v) = option_value(arg, "--indent", &mut it) {
            let n = plain_uint(v.ok_or(Delegate)?).filter(|n| *n <= pyjson::MAX_INDENT as u64).ok_or(Delegate)?;
            if indent.replace(n as usize).is_some() {
                return Err(Delegate);
            }
        } else if let Some(v) = option_value(arg, "--out", &mut it) {
            if out.replace(v.ok_or(Delegate)?).is_some() {
                return Err(Delegate);
            }
        } else if arg.starts_with('-') || scenario.is_some() {
            // --help, --pcap, --series, --, an option click would abbreviate
            // or refuse, a second argument: Python's.
            return Err(Delegate);
        } else {
            scenario = Some(arg);
        }
    }
    let format = format.unwrap_or(OutFormat::Table);
    // What lasthop.cli.run_command refuses is Python's to say.
    let bad_indent = indent.is_some() && format != OutFormat::Json;
    let bad_out = match out {
        None => format == OutFormat::Parquet,
        Some(path) => format == OutFormat::Table || !output_file_ok(path),
    };
    if (seed.is_some() && seeds.is_some()) || bad_indent || bad_out {
        return Err(Delegate);
    }
    Ok(RunArgs { scenario: scenario.ok_or(Delegate)?, seed, seeds, sets, format, indent, out })
}

/// A file `lasthop.cli._check_output_file` accepts: not a directory, in one
/// that exists (a path with a trailing slash is Python's to judge).
fn output_file_ok(path: &str) -> bool {
    let p = Path::new(path);
    if path.is_empty() || path.ends_with('/') || p.is_dir() {
        return false;
    }
    match p.parent() {
        Some(d) if d.as_os_str().is_empty() => true,
        Some(d) => d.is_dir(),
        None => false,
    }
}

/// `str(pathlib.Path(text))` is `text` itself: the origin Python reports
/// is then the text given (else Python's).
fn path_is_normal(text: &str) -> bool {
    !text.is_empty()
        && !text.ends_with('/')
        && !text.starts_with("//")
        && text.split('/').enumerate().all(|(i, c)| c != "." && (i == 0 || !c.is_empty()))
}

/// The scenario's text, format and origin, as `load_scenario_text` finds them.
fn find_scenario(name: &str) -> Result<(String, Format, String), Delegate> {
    if name.contains('\n') {
        return Ok((name.to_string(), Format::Toml, "<string>".into()));
    }
    let path = Path::new(name);
    if path.is_file() {
        if !path_is_normal(name) || path.metadata().map_err(|_| Delegate)?.len() > MAX_FILE_BYTES {
            return Err(Delegate);
        }
        let bytes = std::fs::read(path).map_err(|_| Delegate)?;
        let text = String::from_utf8(bytes).map_err(|_| Delegate)?;
        let json = path.extension().is_some_and(|e| e.to_string_lossy().to_lowercase() == "json");
        return Ok((text, if json { Format::Json } else { Format::Toml }, name.to_string()));
    }
    let short = name.strip_suffix(".toml").unwrap_or(name);
    match embedded::get(short) {
        Some(text) => Ok((text.to_string(), Format::Toml, short.to_string())),
        None => Err(Delegate),
    }
}

extern "C" fn on_sigint(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::Relaxed);
}

/// Note a Ctrl-C instead of dying of it, unless SIGINT is ignored (a
/// background job), as `lasthop.cli._catch_sigint` does.
fn catch_sigint() {
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe;
    // `sigaction` with a null new action only reads the current one.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(libc::SIGINT, std::ptr::null(), &mut old) != 0 || old.sa_sigaction == libc::SIG_IGN {
            return;
        }
        let mut new: libc::sigaction = std::mem::zeroed();
        new.sa_sigaction = on_sigint as *const () as libc::sighandler_t;
        libc::sigemptyset(&mut new.sa_mask);
        libc::sigaction(libc::SIGINT, &new, std::ptr::null_mut());
    }
}

fn interrupted() -> ExitCode {
    eprintln!("lasthop: error: interrupted");
    ExitCode::from(EXIT_INTERRUPTED)
}

fn run(args: &[&str]) -> Result<ExitCode, Delegate> {
    let a = parse_run(args)?;
    if std::env::var_os(PANIC_SEED_VAR).is_some() {
        return Err(Delegate);
    }
    let (text, fmt, origin) = find_scenario(a.scenario)?;
    let scenario = Scenario::load(&text, fmt, &a.sets, &origin).map_err(|_| Delegate)?;
    catch_sigint();
    // An engine panic is Python's to report (it runs the seed again); the
    // default hook would print it here first.
    std::panic::set_hook(Box::new(|_| {}));
    let seed_list: Vec<u64> = match a.seeds {
        Some(n) => (1..=n).collect(),
        None => vec![a.seed.unwrap_or(1)],
    };
    let options = RunOptions { trace: false, ..RunOptions::default() };
    let mut summaries = Vec::with_capacity(seed_list.len());
    for &seed in &seed_list {
        let result = std::panic::catch_unwind(|| {
            lasthop_sim::run_interruptible(&scenario, seed, &options, &mut || INTERRUPTED.load(Ordering::Relaxed))
        });
        match result {
            Ok(Ok(output)) => summaries.push(output.summary),
            Ok(Err(RunError::Interrupted)) => return Ok(interrupted()),
            Ok(Err(_)) | Err(_) => return Err(Delegate),
        }
        if INTERRUPTED.load(Ordering::Relaxed) {
            return Ok(interrupted());
        }
    }
    if a.format == OutFormat::Json && a.seeds.is_none() && a.out.is_none() {
        let mut text = Vec::with_capacity(1 << 16);
        pyjson::dump(&summaries[0], a.indent, &mut text).map_err(|_| Delegate)?;
        text.push(b'\n');
        return out(&text);
    }
    // Tables, the mean over seeds, rows per flow, files: lasthop.run_output
    // writes them. The summaries keep the core's key order (a
    // serde_json::Value would sort them).
    let document = Handoff {
        origin: &origin,
        seeds: a.seeds,
        seed_list: &seed_list,
        format: a.format.name(),
        indent: a.indent,
        out: a.out,
        runs: &summaries,
    };
    let input = serde_json::to_vec(&document).map_err(|_| Delegate)?;
    Ok(pipe_to_python(&["-m", "lasthop.run_output"], &input))
}

fn python() -> PathBuf {
    let beside = std::env::current_exe().ok().and_then(|exe| exe.parent().map(|d| d.join("python")));
    match beside {
        Some(p) if p.is_file() => p,
        _ => std::env::var_os("LASTHOP_PYTHON").map_or_else(|| PathBuf::from("python3"), PathBuf::from),
    }
}

/// Replace this process with `python FLAGS ARGS`.
fn exec_python(flags: &[&str], args: &[OsString]) -> ExitCode {
    let python = python();
    let e = Command::new(&python).args(flags).args(args).exec();
    eprintln!("lasthop: error: {}: {e}", python.display());
    ExitCode::from(2)
}

/// Run `python FLAGS` with `input` on its stdin; its exit code.
fn pipe_to_python(flags: &[&str], input: &[u8]) -> ExitCode {
    let python = python();
    let child = Command::new(&python).args(flags).stdin(Stdio::piped()).spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            eprintln!("lasthop: error: {}: {e}", python.display());
            return ExitCode::from(2);
        }
    };
    if let Some(mut stdin) = child.stdin.take() {
        // A child that stopped reading has failed and says so itself.
        let _ = stdin.write_all(input);
    }
    // Python takes a Ctrl-C from here on; this process only waits for it.
    // SAFETY: setting SIGINT to ignore has no preconditions.
    unsafe { libc::signal(libc::SIGINT, libc::SIG_IGN) };
    match child.wait() {
        Ok(status) => match status.code() {
            Some(code) => ExitCode::from(code as u8),
            None => ExitCode::from(EXIT_INTERRUPTED),
        },
        Err(_) => ExitCode::from(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_exact_command_lines_are_read_here() {
        let ok = |args: &[&str]| parse_run(args).is_ok();
        assert!(ok(&["x", "--seed", "3", "--format=JSON", "--set", "a=1"]));
        assert!(ok(&["--seeds=2", "x"]));
        assert!(ok(&["x", "--format", "json", "--indent", "4", "--out", "f.json"]));
        assert!(ok(&["x", "--format", "parquet", "--out", "/tmp/f.parquet"]));
        for bad in [
            &["x", "--seed", "+3"][..],
            &["x", "--seed", "3", "--seed", "4"],
            &["x", "--seed", "1", "--seeds", "2"],
            &["x", "--seeds", "0"],
            &["x", "--set", "=1"],
            &["x", "--set", "a"],
            &["x", "--format", "xml"],
            &["x", "--help"],
            &["x", "--pcap", "l"],
            &["x", "y"],
            &["--seed", "1"],
            &["x", "--seed"],
            &["x", "--indent", "2"],
            &["x", "--format", "json", "--indent", "17"],
            &["x", "--format", "parquet"],
            &["x", "--format", "csv", "--out", "/no/such/dir/f"],
            &["x", "--format", "csv", "--out", "/tmp"],
            &["x", "--out", "f"],
        ] {
            assert!(!ok(bad), "{bad:?}");
        }
        assert!(path_is_normal("a/b.toml") && path_is_normal("/a/b"));
        for p in ["./a", "a//b", "a/", "", "a/./b", "//a"] {
            assert!(!path_is_normal(p), "{p}");
        }
    }
}
