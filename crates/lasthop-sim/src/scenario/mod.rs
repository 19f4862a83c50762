//! Scenarios: the file format ([`schema`]), loading with parameters and
//! overrides ([`load`]), and validation into the resolved [`model`] that the
//! simulator (and later the live runner) is built from.

pub mod load;
pub mod model;
pub mod routes;
pub mod schema;

pub use load::Format;
pub use model::Model;
pub use schema::ScenarioFile;

use std::fmt;

/// An invalid scenario or override: the field path and the reason, one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    pub path: String,
    pub reason: String,
}

impl ScenarioError {
    pub fn new(path: impl Into<String>, reason: impl Into<String>) -> ScenarioError {
        ScenarioError { path: path.into(), reason: reason.into() }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.reason)
    }
}

impl std::error::Error for ScenarioError {}

/// A loaded, validated scenario.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub file: ScenarioFile,
    pub model: Model,
}

impl Scenario {
    /// Load, resolve and validate a scenario text.
    pub fn load(text: &str, fmt: Format, sets: &[String], origin: &str) -> Result<Scenario, ScenarioError> {
        let file = load::load_file(text, fmt, sets, origin)?;
        let model = Model::from_file(&file)?;
        Ok(Scenario { file, model })
    }
}

/// The JSON Schema of scenario files, pretty-printed.
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(ScenarioFile);
    serde_json::to_string_pretty(&schema).expect("a schema serializes")
}
