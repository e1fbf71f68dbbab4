//! Computer analysis of a finished game.

use serde::{Deserialize, Serialize};

/// An analysis that could not be made (bad input, an unknown game, stopped).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct AnalysisError(pub String);

impl std::fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AnalysisError {}
