//! From scenario text to a typed [`ScenarioFile`]: parse, apply parameter
//! overrides, merge the selected cases, apply field overrides, substitute
//! `${param}` references, deserialize with the field path of any error.
//!
//! Every failure is a [`ScenarioError`]: one line naming the field path and
//! the reason, which the CLI prints as it is.

use super::schema::{LinkSpec, RadioSpec, ScenarioFile, WlanCellSpec};
use super::ScenarioError;
use toml::{Table, Value};

/// The text's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Toml,
    Json,
}

impl Format {
    pub fn parse(s: &str) -> Result<Format, ScenarioError> {
        match s {
            "toml" => Ok(Format::Toml),
            "json" => Ok(Format::Json),
            other => Err(ScenarioError::new("format", format!("unknown format '{other}' (toml, json)"))),
        }
    }
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, col)
}

fn parse_text(text: &str, fmt: Format, origin: &str) -> Result<Table, ScenarioError> {
    match fmt {
        Format::Toml => text.parse::<Table>().map_err(|e| {
            let at = e.span().map(|s| line_col(text, s.start));
            let msg = e.message().replace('\n', " ");
            let reason = match at {
                Some((l, c)) => format!("TOML syntax error at line {l}, column {c}: {msg}"),
                None => format!("TOML syntax error: {msg}"),
            };
            ScenarioError::new(origin, reason)
        }),
        Format::Json => {
            let v: serde_json::Value = serde_json::from_str(text).map_err(|e| {
                ScenarioError::new(
                    origin,
                    format!("JSON syntax error at line {}, column {}: {e}", e.line(), e.column()),
                )
            })?;
            match Value::try_from(v) {
                Ok(Value::Table(t)) => Ok(t),
                Ok(_) => Err(ScenarioError::new(origin, "a scenario must be a table")),
                Err(e) => Err(ScenarioError::new(origin, format!("cannot be represented: {e}"))),
            }
        }
    }
}

/// One `--set` override.
struct SetOp {
    path: String,
    value: Value,
    /// The text after `=`, for parameters whose default is a string.
    raw: String,
}

fn parse_set(s: &str) -> Result<SetOp, ScenarioError> {
    let Some((path, raw)) = s.split_once('=') else {
        return Err(ScenarioError::new("--set", format!("expected NAME=VALUE or a.b.c=VALUE, got '{s}'")));
    };
    let path = path.trim();
    if path.is_empty() || path.split('.').any(str::is_empty) {
        return Err(ScenarioError::new("--set", format!("bad path '{path}'")));
    }
    // A TOML value if it parses as one (`10`, `1.5`, `"x"`, `true`, `[1, 2]`),
    // otherwise the text itself (`--set scheme=e2e-newreno`).
    let value = format!("v = {raw}")
        .parse::<Table>()
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| Value::String(raw.to_string()));
    Ok(SetOp { path: path.to_string(), value, raw: raw.to_string() })
}

fn set_path(doc: &mut Table, path: &str, value: Value) -> Result<(), ScenarioError> {
    let parts: Vec<&str> = path.split('.').collect();
    let err = |reason: String| ScenarioError::new(format!("--set {path}"), reason);
    let mut cur: &mut Value = doc.entry(parts[0]).or_insert_with(|| Value::Table(Table::new()));
    for (i, part) in parts.iter().enumerate().skip(1) {
        let prefix = parts[..i].join(".");
        cur = match cur {
            Value::Table(t) => t.entry(*part).or_insert_with(|| Value::Table(Table::new())),
            Value::Array(a) => {
                let idx: usize =
                    part.parse().map_err(|_| err(format!("'{prefix}' is a list: expected an index, got '{part}'")))?;
                let len = a.len();
                a.get_mut(idx).ok_or_else(|| err(format!("index {idx} out of range ('{prefix}' has {len})")))?
            }
            _ => return Err(err(format!("'{prefix}' is a value, not a table"))),
        };
    }
    *cur = value;
    Ok(())
}

/// Merge a case's table into the document: tables merge key by key, other
/// values replace. A table merged into an array whose keys are all element
/// indices (`[cases.protocol.acc.flows.0.tcp]`, the `--set flows.0...`
/// spelling) patches those elements, so a case can change one flow without
/// restating every flow; indices from the array's length on, one after
/// another, append elements (`[cases.background.pareto.flows.1]` adds a
/// second flow to a scenario of one).
fn deep_merge(into: &mut Table, from: &Table) {
    for (k, v) in from {
        match (into.get_mut(k), v) {
            (Some(Value::Table(a)), Value::Table(b)) => deep_merge(a, b),
            (Some(Value::Array(a)), Value::Table(b)) if indexes(a, b) => {
                let mut patches: Vec<(usize, &Value)> =
                    b.iter().map(|(i, patch)| (i.parse().expect("checked by indexes"), patch)).collect();
                patches.sort_by_key(|&(i, _)| i);
                for (i, patch) in patches {
                    if i == a.len() {
                        a.push(patch.clone());
                        continue;
                    }
                    match (&mut a[i], patch) {
                        (Value::Table(x), Value::Table(y)) => deep_merge(x, y),
                        (x, y) => *x = y.clone(),
                    }
                }
            }
            _ => {
                into.insert(k.clone(), v.clone());
            }
        }
    }
}

/// Whether every key of `patch` is an index of `array`, or appends to it:
/// the keys at or past its end are its length, its length + 1, ...
fn indexes(array: &[Value], patch: &Table) -> bool {
    let Some(mut keys) = patch.keys().map(|k| k.parse::<usize>().ok()).collect::<Option<Vec<usize>>>() else {
        return false;
    };
    keys.sort_unstable();
    let appended = keys.iter().filter(|&&i| i >= array.len());
    !keys.is_empty() && appended.enumerate().all(|(n, &i)| i == array.len() + n)
}

fn value_key(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Replace `${name}` references in every value outside `params` and `cases`.
fn substitute(v: &mut Value, params: &Table, at: &At<'_>) -> Result<(), ScenarioError> {
    match v {
        Value::String(s) if s.contains("${") => {
            if let Some(name) = s.strip_prefix("${").and_then(|r| r.strip_suffix('}')) {
                if !name.contains("${") && !name.contains('}') {
                    *v = params.get(name).cloned().ok_or_else(|| unknown_param(at, name, params))?;
                    return Ok(());
                }
            }
            let mut out = String::new();
            let mut rest = s.as_str();
            while let Some(i) = rest.find("${") {
                out.push_str(&rest[..i]);
                let end = rest[i..]
                    .find('}')
                    .ok_or_else(|| ScenarioError::new(at.to_string(), format!("unclosed '${{' in '{s}'")))?;
                let name = &rest[i + 2..i + end];
                let val = params.get(name).ok_or_else(|| unknown_param(at, name, params))?;
                out.push_str(&value_key(val));
                rest = &rest[i + end + 1..];
            }
            out.push_str(rest);
            *v = Value::String(out);
        }
        Value::Table(t) => {
            for (k, x) in t.iter_mut() {
                substitute(x, params, &At::Key(at, k))?;
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter_mut().enumerate() {
                substitute(x, params, &At::Index(at, i))?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// A value's field path (`flows[0].tcp.cc`), made into text only when an
/// error names it.
enum At<'a> {
    Top(&'a str),
    Key(&'a At<'a>, &'a str),
    Index(&'a At<'a>, usize),
}

impl std::fmt::Display for At<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            At::Top(k) => f.write_str(k),
            At::Key(up, k) => write!(f, "{up}.{k}"),
            At::Index(up, i) => write!(f, "{up}[{i}]"),
        }
    }
}

fn unknown_param(at: &At<'_>, name: &str, params: &Table) -> ScenarioError {
    let known: Vec<&str> = params.keys().map(String::as_str).collect();
    ScenarioError::new(at.to_string(), format!("unknown parameter '{name}' (params: {})", known.join(", ")))
}

/// Parse and resolve a scenario text into its typed form.
pub fn load_file(text: &str, fmt: Format, sets: &[String], origin: &str) -> Result<ScenarioFile, ScenarioError> {
    if fmt == Format::Json && sets.is_empty() {
        if let Some(file) = load_plain_json(text) {
            return Ok(file);
        }
    }
    load_resolved(text, fmt, sets, origin)
}

/// A JSON scenario that needs none of [`load_resolved`]'s steps, read
/// straight into its typed form: `None` when it may need one, or does not
/// read (the general path then loads it, or names the error).
///
/// The general path goes through `serde_json::Value` and `toml::Value`
/// (the TOML path's common form) and walks the tree for `${...}`; at a
/// million nodes those copies cost seconds and gigabytes (issue 31). The
/// typed result is the same where no step applies and the two readers
/// agree, which is when the text has
/// - no `${` (no parameter reference) and no `\u` escape (which could
///   spell one, or a key that a step acts on);
/// - no `null`: the general path refuses it (TOML has none), a typed
///   reader would take it for an absent optional field;
/// - no run of 19 digits or more: the general path refuses integers past
///   `i64::MAX` (TOML's integers are 64-bit signed);
/// - no `cases` and no flow with a `replace` table (checked on the result):
///   the steps that merge and expand them.
///
/// Duplicate keys (the general path keeps the last) make the typed reader
/// fail, so they go the general way too. `tests::plain_json_reads_as_the_general_path_does`
/// holds the two equal over every embedded scenario.
fn load_plain_json(text: &str) -> Option<ScenarioFile> {
    let b = text.as_bytes();
    let plain = !text.contains("${") && !text.contains("\\u") && !text.contains("null") && !long_digit_run(b);
    if !plain {
        return None;
    }
    let file: ScenarioFile = serde_json::from_str(text).ok()?;
    let steps = !file.cases.is_empty() || file.flows.iter().any(|f| f.replace.is_some());
    (!steps).then_some(file)
}

/// A run of 19 or more ASCII digits (an integer that may not fit an i64).
fn long_digit_run(b: &[u8]) -> bool {
    let mut run = 0;
    for &c in b {
        run = if c.is_ascii_digit() { run + 1 } else { 0 };
        if run >= 19 {
            return true;
        }
    }
    false
}

/// The general path: parse, apply `--set`, merge cases, substitute
/// parameters, expand replacements, then deserialize with the field path
/// of any error.
fn load_resolved(text: &str, fmt: Format, sets: &[String], origin: &str) -> Result<ScenarioFile, ScenarioError> {
    let doc = resolve(text, fmt, sets, origin)?;
    let topology = doc.get("topology").cloned();
    let de = Value::Table(doc);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        if path == "topology" {
            if let Some(inner) = topology.as_ref().and_then(template_link_error) {
                return inner;
            }
        }
        let path = if path == "." { origin.to_string() } else { path };
        ScenarioError::new(path, e.into_inner().to_string().replace('\n', " "))
    })
}

/// The scenario text as the table the typed form is read from: parsed,
/// with `--set`, cases, parameters and replacements applied.
fn resolve(text: &str, fmt: Format, sets: &[String], origin: &str) -> Result<Table, ScenarioError> {
    let mut doc = parse_text(text, fmt, origin)?;
    let ops = sets.iter().map(|s| parse_set(s)).collect::<Result<Vec<_>, _>>()?;
    let mut params = match doc.get("params") {
        None => Table::new(),
        Some(Value::Table(t)) => t.clone(),
        Some(_) => return Err(ScenarioError::new("params", "must be a table")),
    };
    let mut field_ops = Vec::new();
    for mut op in ops {
        // `--set params.NAME=V` is `--set NAME=V`: the parameters table is
        // read before field paths apply, so as a field path it would be
        // overwritten without a word.
        if let Some(name) = op.path.strip_prefix("params.") {
            if name.contains('.') || !params.contains_key(name) {
                let known: Vec<&str> = params.keys().map(String::as_str).collect();
                return Err(ScenarioError::new(
                    op.path.clone(),
                    format!("no parameter named '{name}' (parameters: {})", known.join(", ")),
                ));
            }
            op.path = name.to_string();
        }
        if !op.path.contains('.') && params.contains_key(&op.path) {
            // A parameter keeps the type of its default when that is a
            // string: `--set ber=1e-5` means the text "1e-5", not 0.00001.
            let value = match (&params[&op.path], op.value) {
                (Value::String(_), Value::String(s)) => Value::String(s),
                (Value::String(_), _) => Value::String(op.raw.trim().to_string()),
                (_, v) => v,
            };
            params.insert(op.path, value);
        } else {
            field_ops.push(op);
        }
    }
    if let Some(cases) = doc.get("cases").cloned() {
        let Value::Table(cases) = cases else {
            return Err(ScenarioError::new("cases", "must be a table"));
        };
        for (param, choices) in &cases {
            let Value::Table(choices) = choices else {
                return Err(ScenarioError::new(format!("cases.{param}"), "must be a table of values"));
            };
            let Some(value) = params.get(param) else {
                return Err(ScenarioError::new(format!("cases.{param}"), format!("no parameter named '{param}'")));
            };
            let key = value_key(value);
            match choices.get(&key) {
                Some(Value::Table(patch)) => deep_merge(&mut doc, patch),
                Some(_) => {
                    return Err(ScenarioError::new(format!("cases.{param}.{key}"), "must be a table"));
                }
                None => {
                    let known: Vec<&str> = choices.keys().map(String::as_str).collect();
                    return Err(ScenarioError::new(
                        format!("params.{param}"),
                        format!("'{key}' is not one of its cases ({})", known.join(", ")),
                    ));
                }
            }
        }
    }
    for op in field_ops {
        set_path(&mut doc, &op.path, op.value)?;
    }
    for (k, v) in doc.iter_mut() {
        if k != "params" && k != "cases" {
            substitute(v, &params, &At::Top(k))?;
        }
    }
    doc.insert("params".into(), Value::Table(params));
    expand_replacements(&mut doc)?;
    Ok(doc)
}

/// Each flow's `replace` table (seed 004's friendliness test, see
/// `FlowSpec::replace`) becomes a flow of its own, appended to the list so
/// that the file's flows keep their indices: the flow with the table's
/// other keys merged in, its last `copies` copies, `{copy}` counting on
/// from where the remaining copies stop.
fn expand_replacements(doc: &mut Table) -> Result<(), ScenarioError> {
    let Some(Value::Array(flows)) = doc.get_mut("flows") else { return Ok(()) };
    let (mut added, mut emptied) = (Vec::new(), Vec::new());
    for (i, flow) in flows.iter_mut().enumerate() {
        let Value::Table(flow) = flow else { continue };
        let Some(replace) = flow.remove("replace") else { continue };
        let at = |f: &str| format!("flows[{i}].replace{f}");
        let Value::Table(mut replace) = replace else {
            return Err(ScenarioError::new(at(""), "must be a table"));
        };
        let int = |v: Option<&Value>, field: &str, default: i64| match v {
            None => Ok(default),
            Some(Value::Integer(n)) if *n >= 0 && *n <= i64::from(u32::MAX) => Ok(*n),
            Some(_) => Err(ScenarioError::new(format!("flows[{i}].{field}"), "must be a whole number >= 0")),
        };
        let copies = int(flow.get("copies"), "copies", 1)?;
        let first = int(flow.get("first_copy"), "first_copy", 1)?;
        let Some(k) = replace.remove("copies") else {
            return Err(ScenarioError::new(at(".copies"), "missing: how many copies the replacement takes"));
        };
        let k = int(Some(&k), "replace.copies", 0)?;
        if k > copies {
            return Err(ScenarioError::new(
                at(".copies"),
                format!("must be at most the flow's copies ({copies}), got {k}"),
            ));
        }
        let name = match replace.remove("name") {
            None => {
                let base = flow.get("name").and_then(Value::as_str).unwrap_or("flow");
                format!("{base}-replaced")
            }
            Some(Value::String(n)) => n,
            Some(_) => return Err(ScenarioError::new(at(".name"), "must be a string")),
        };
        if k == 0 {
            continue;
        }
        let mut twin = flow.clone();
        deep_merge(&mut twin, &replace);
        twin.insert("name".into(), Value::String(name));
        twin.insert("copies".into(), Value::Integer(k));
        twin.insert("first_copy".into(), Value::Integer(first + copies - k));
        added.push(Value::Table(twin));
        flow.insert("copies".into(), Value::Integer(copies - k));
        if k == copies {
            emptied.push(i); // every copy replaced: the replacement alone
        }
    }
    for i in emptied.into_iter().rev() {
        flows.remove(i);
    }
    flows.extend(added);
    Ok(())
}

/// The first error inside a template's links (and a radio chain's `radio`
/// table; any field of a cell, scalars too), with its full path: serde
/// reads a template (an internally tagged enum) through a buffer that
/// loses the path below `topology`, so each table is read again alone, as
/// what it is.
fn template_link_error(topology: &Value) -> Option<ScenarioError> {
    fn read<T: serde::de::DeserializeOwned>(v: &Value) -> Option<serde_path_to_error::Error<toml::de::Error>> {
        serde_path_to_error::deserialize::<_, T>(v.clone()).err()
    }
    let Value::Table(t) = topology else { return None };
    let template = t.get("template").and_then(Value::as_str);
    if template == Some("wlan_cell") {
        // The whole template is a struct of its own: read it alone.
        let mut fields = t.clone();
        fields.remove("template");
        let e = read::<WlanCellSpec>(&Value::Table(fields))?;
        let inner = e.path().to_string();
        let path = if inner == "." { "topology".to_string() } else { format!("topology.{inner}") };
        return Some(ScenarioError::new(path, e.into_inner().to_string().replace('\n', " ")));
    }
    t.iter().filter(|(k, v)| *k != "template" && v.is_table()).find_map(|(k, v)| {
        let e = match (template, k.as_str()) {
            (Some("radio_chain"), "radio") => read::<RadioSpec>(v),
            _ => read::<LinkSpec>(v),
        }?;
        let inner = e.path().to_string();
        let path = if inner == "." { format!("topology.{k}") } else { format!("topology.{k}.{inner}") };
        Some(ScenarioError::new(path, e.into_inner().to_string().replace('\n', " ")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINI: &str = r#"
name = "mini"
[params]
rate = 1e6
kind = "reno"
[[nodes]]
name = "a"
[[nodes]]
name = "b"
[[links]]
name = "l"
a = "a"
b = "b"
bandwidth_bps = "${rate}"
[[flows]]
name = "f"
from = "a"
to = "b"
bytes = 1000
description = "x"
"#;

    #[test]
    fn params_substitute_with_their_type_and_sets_override() {
        let text = MINI.replace("description = \"x\"\n", "");
        let f = load_file(&text, Format::Toml, &[], "mini.toml").unwrap();
        assert_eq!(f.links[0].bandwidth_bps, Some(1e6));
        let f = load_file(&text, Format::Toml, &["rate=2e6".into(), "flows.0.bytes=5".into()], "m").unwrap();
        assert_eq!(f.links[0].bandwidth_bps, Some(2e6));
        assert_eq!(f.flows[0].bytes, Some(5));
        // `params.NAME` names the parameter too (it was silently dropped).
        let f = load_file(&text, Format::Toml, &["params.rate=3e6".into()], "m").unwrap();
        assert_eq!(f.links[0].bandwidth_bps, Some(3e6));
        let e = load_file(&text, Format::Toml, &["params.rat=3e6".into()], "m").unwrap_err();
        assert_eq!(e.path, "params.rat");
        assert!(e.reason.contains("no parameter named 'rat' (parameters: kind, rate)"), "{e}");
    }

    #[test]
    fn errors_name_the_field() {
        let e = load_file(MINI, Format::Toml, &[], "mini.toml").unwrap_err();
        assert_eq!(e.path, "flows[0].description");
        assert!(e.reason.contains("unknown field `description`"), "{e}");
        let e = load_file("name = ", Format::Toml, &[], "bad.toml").unwrap_err();
        assert_eq!(e.path, "bad.toml");
        assert!(e.reason.starts_with("TOML syntax error at line 1"), "{e}");
        let text = MINI.replace("description = \"x\"\n", "");
        let e = load_file(&text, Format::Toml, &["flows.0.tcp.recovery=vegas".into()], "m").unwrap_err();
        assert_eq!(e.path, "flows[0].tcp.recovery");
        let e = load_file(&text, Format::Toml, &["nonsense".into()], "m").unwrap_err();
        assert_eq!(e.path, "--set");
        let e = load_file(&text, Format::Toml, &["flows.3.bytes=1".into()], "m").unwrap_err();
        assert!(e.reason.contains("out of range"), "{e}");
        let e = load_file(&text.replace("${rate}", "${nope}"), Format::Toml, &[], "m").unwrap_err();
        assert_eq!(e.path, "links[0].bandwidth_bps");
        assert!(e.reason.contains("unknown parameter 'nope'"));
    }

    #[test]
    fn a_case_patches_one_element_of_an_array_by_index() {
        let text = r#"
name = "arr"
[params]
kind = "b"
[[flows]]
name = "f0"
x = 1
[[flows]]
name = "f1"
x = 2
[cases.kind.b.flows.1]
x = 5
y = 6
"#;
        let mut doc = parse_text(text, Format::Toml, "t").unwrap();
        let cases = doc["cases"]["kind"]["b"].as_table().unwrap().clone();
        deep_merge(&mut doc, &cases);
        let flows = doc["flows"].as_array().unwrap();
        assert_eq!(flows[0]["x"].as_integer(), Some(1), "other elements untouched");
        assert_eq!((flows[1]["x"].as_integer(), flows[1]["y"].as_integer()), (Some(5), Some(6)));
        assert_eq!(flows[1]["name"].as_str(), Some("f1"));
        // Indices right past the end append, in order.
        let mut doc = parse_text(text, Format::Toml, "t").unwrap();
        let patch: Table = "[flows.3]\nname = \"f3\"\n[flows.2]\nname = \"f2\"\n[flows.0]\nx = 9\n".parse().unwrap();
        deep_merge(&mut doc, &patch);
        let names: Vec<&str> = doc["flows"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["f0", "f1", "f2", "f3"]);
        assert_eq!(doc["flows"][0]["x"].as_integer(), Some(9));
        // A gap past the end is no index: the table replaces the array.
        let mut doc = parse_text(text, Format::Toml, "t").unwrap();
        let patch: Table = "[flows.3]\nname = \"f3\"\n".parse().unwrap();
        deep_merge(&mut doc, &patch);
        assert!(doc["flows"].is_table());
        // A key that is not an index replaces the array, as before.
        let mut doc = parse_text(text, Format::Toml, "t").unwrap();
        let mut patch = Table::new();
        patch.insert("flows".into(), Value::Table(Table::from_iter([("7".to_string(), Value::Integer(1))])));
        deep_merge(&mut doc, &patch);
        assert!(doc["flows"].is_table());
    }

    #[test]
    fn an_error_in_a_radio_chains_radio_table_names_the_field_and_its_reason() {
        let text = r#"
name = "t"
[topology]
template = "radio_chain"
hops = 2
[topology.wired]
bandwidth_bps = 1e6
[topology.radio]
piggyback_acks = 3
[[flows]]
name = "f"
from = "fh"
to = "mh"
bytes = 10
"#;
        let e = load_file(text, Format::Toml, &[], "t").unwrap_err();
        assert_eq!(e.path, "topology.radio.piggyback_acks");
        assert!(e.reason.contains("expected a boolean"), "{e}");
    }

    #[test]
    fn errors_inside_a_template_link_name_the_field() {
        // serde reads templates through a buffer that stops paths at
        // `topology`; the links are read again for the full path.
        let text = r#"
name = "t"
[topology]
template = "two_link_path"
[topology.first]
bandwidth_bps = 1e6
[topology.second]
bandwidth_bps = 1e6
duplex = "quarter"
[[flows]]
name = "f"
from = "src"
to = "dst"
bytes = 10
"#;
        let e = load_file(text, Format::Toml, &[], "t").unwrap_err();
        assert_eq!(e.path, "topology.second.duplex");
        assert!(e.reason.contains("unknown variant `quarter`"), "{e}");
        let e =
            load_file(&text.replace("duplex = \"quarter\"", "bandwith_bps = 1"), Format::Toml, &[], "t").unwrap_err();
        assert_eq!(e.path, "topology.second.bandwith_bps");
        let e = load_file(&text.replace("template = \"two_link_path\"", "template = \"ring\""), Format::Toml, &[], "t")
            .unwrap_err();
        assert_eq!(e.path, "topology.template", "{e}");
    }

    #[test]
    fn cases_merge_for_the_selected_value() {
        let text =
            MINI.replace("description = \"x\"\n", "") + "[cases.kind.reno.flows]\n[cases.kind.tahoe]\nstop_s = 7\n";
        // Merging a table named like an array would replace it: use a scalar.
        let text = text.replace("[cases.kind.reno.flows]\n", "[cases.kind.reno]\nstop_s = 3\n");
        let f = load_file(&text, Format::Toml, &[], "m").unwrap();
        assert_eq!(f.stop_s, 3.0);
        let f = load_file(&text, Format::Toml, &["kind=tahoe".into()], "m").unwrap();
        assert_eq!(f.stop_s, 7.0);
        let e = load_file(&text, Format::Toml, &["kind=vegas".into()], "m").unwrap_err();
        assert_eq!(e.path, "params.kind");
    }

    /// The direct JSON reader ([`load_plain_json`]) against the general
    /// path, on the same text: every embedded scenario, resolved (cases
    /// left out: they send a text the general way), and a small tree of the
    /// scale cases.
    #[test]
    fn plain_json_reads_as_the_general_path_does() {
        let mut texts: Vec<(String, String)> = crate::embedded::SCENARIOS
            .iter()
            .map(|(name, text)| {
                let mut doc = resolve(text, Format::Toml, &[], name).unwrap();
                doc.remove("cases");
                (name.to_string(), serde_json::to_string(&doc).unwrap())
            })
            .collect();
        texts.push(("tree".into(), crate::scale::tree(9, 10, 40, 10_000, 3.0)));
        let dumbbell = resolve(&crate::scale::dumbbell(3, 1000), Format::Toml, &[], "d").unwrap();
        texts.push(("dumbbell".into(), serde_json::to_string(&dumbbell).unwrap()));
        for (name, json) in &texts {
            let general = load_resolved(json, Format::Json, &[], name).unwrap();
            let direct = load_plain_json(json).unwrap_or_else(|| panic!("{name} reads directly"));
            assert_eq!(format!("{direct:?}"), format!("{general:?}"), "{name}");
        }
    }

    /// What may need a step, or reads differently, goes the general way,
    /// and comes out as it did.
    #[test]
    fn json_that_needs_a_step_goes_the_general_way() {
        let plain = r#"{"name":"j","stop_s":5,"nodes":[{"name":"a"},{"name":"b"}],
            "links":[{"name":"l","a":"a","b":"b","bandwidth_bps":1000000}],
            "flows":[{"name":"f","from":"a","to":"b","bytes":10}]}"#;
        assert!(load_plain_json(plain).is_some());
        let general = |t: &str| load_resolved(t, Format::Json, &[], "j");
        // A parameter reference (in a string field, which would read).
        let t = plain.replace(r#""name":"j""#, r#""params":{"n":"x"},"name":"${n}""#);
        assert!(load_plain_json(&t).is_none());
        assert_eq!(load_file(&t, Format::Json, &[], "j").unwrap().name, "x");
        // A null: refused (TOML has none), as before, where a typed reader
        // would take it for an absent optional field.
        let t = plain.replace(r#""stop_s":5"#, r#""max_events":null"#);
        assert!(load_plain_json(&t).is_none());
        assert!(serde_json::from_str::<ScenarioFile>(&t).is_ok());
        let e = load_file(&t, Format::Json, &[], "j").unwrap_err();
        assert_eq!(e.to_string(), general(&t).unwrap_err().to_string());
        assert!(e.reason.contains("cannot be represented"), "{e}");
        // An integer past i64: refused, as before.
        let t = plain.replace(r#""bytes":10"#, r#""bytes":18446744073709551615"#);
        assert!(load_plain_json(&t).is_none());
        assert!(load_file(&t, Format::Json, &[], "j").is_err());
        // A duplicate key: the last one, as before.
        let t = plain.replace(r#""stop_s":5"#, r#""stop_s":5,"stop_s":6"#);
        assert!(load_plain_json(&t).is_none());
        assert_eq!(load_file(&t, Format::Json, &[], "j").unwrap().stop_s, 6.0);
        // A case, merged.
        let t = plain.replace(r#""stop_s":5"#, r#""params":{"k":"x"},"cases":{"k":{"x":{"stop_s":9}}}"#);
        assert!(load_plain_json(&t).is_none());
        assert_eq!(load_file(&t, Format::Json, &[], "j").unwrap().stop_s, 9.0);
        // A replace table, expanded into a flow of its own.
        let t = plain.replace(r#""bytes":10"#, r#""bytes":10,"replace":{"copies":0}"#);
        assert!(load_plain_json(&t).is_none());
        // An escape that spells a parameter reference.
        let t = plain.replace(r#""stop_s":5"#, r#""params":{"s":7},"stop_s":"${s}""#);
        assert!(load_plain_json(&t).is_none());
        assert_eq!(load_file(&t, Format::Json, &[], "j").unwrap().stop_s, 7.0);
        // An error is the general path's, with its field path.
        let t = plain.replace(r#""bytes":10"#, r#""bytes":"ten""#);
        assert_eq!(load_file(&t, Format::Json, &[], "j").unwrap_err().path, "flows[0].bytes");
    }

    #[test]
    fn json_text_is_accepted() {
        let j = r#"{"name":"j","nodes":[{"name":"a"},{"name":"b"}],
            "links":[{"name":"l","a":"a","b":"b","bandwidth_bps":1000000}],
            "flows":[{"name":"f","from":"a","to":"b","bytes":10}]}"#;
        let f = load_file(j, Format::Json, &[], "j").unwrap();
        assert_eq!(f.flows[0].bytes, Some(10));
    }
}
