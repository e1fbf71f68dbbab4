//! Static facts of a game (its [`GameInfo`]), its variants and options, and the
//! resolution of what a user asked for into validated [`Settings`].
//!
//! A *variant* is a named preset of option values (Abalone's layouts, Abraxas's
//! sheets). The user's options are applied on top of the variant's.

use std::collections::BTreeMap;
use std::fmt;

use crate::error::ConfigError;

/// The kind of values an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Int {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// An integer in `min..=max`, or `none`.
    OptionalInt {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// `true` or `false` (also `on`/`off`, `yes`/`no`, `1`/`0` on input).
    Bool,
    /// One of these words.
    Choice(&'static [&'static str]),
    /// Free text (a file path, a position). At most 4096 characters.
    Text,
}

/// One option of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// Its name, as in `--option name=value`.
    pub name: &'static str,
    /// What it does, in one line.
    pub help: &'static str,
    /// Its values.
    pub kind: OptionKind,
    /// Its default value, in the same text form as user input.
    pub default: &'static str,
}

/// A named preset of option values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantSpec {
    /// Its name, as in `--variant name`.
    pub name: &'static str,
    /// What it is, in one line.
    pub help: &'static str,
    /// The option values it sets.
    pub options: &'static [(&'static str, &'static str)],
}

/// The static description of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// The registry name: lowercase, no spaces (`abalone`).
    pub name: &'static str,
    /// The title as players know it (`Abalone`).
    pub title: &'static str,
    /// One line about the game.
    pub summary: &'static str,
    /// The fewest seats any configuration has.
    pub min_seats: usize,
    /// The most seats any configuration has.
    pub max_seats: usize,
    /// Whether states hide information from some readers.
    pub hidden: bool,
    /// Whether the set-up draws anything from the seed.
    pub uses_seed: bool,
    /// Whether the game has draws, so that players may offer and accept them.
    pub has_draws: bool,
    /// The variants; the first is the default.
    pub variants: &'static [VariantSpec],
    /// The options.
    pub options: &'static [OptionSpec],
}

/// Options as given by a user: names to text values, unvalidated.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Options(pub BTreeMap<String, String>);

impl Options {
    /// No options.
    pub fn new() -> Self {
        Options::default()
    }

    /// Set one option.
    pub fn set(&mut self, name: impl Into<String>, value: impl Into<String>) -> &mut Self {
        self.0.insert(name.into(), value.into());
        self
    }

    /// Parse `name=value`.
    pub fn parse_pair(text: &str) -> Result<(String, String), ConfigError> {
        match text.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.trim().to_string())),
            _ => Err(ConfigError::new(format!("expected name=value, got {text:?}"))),
        }
    }

    /// Options from `name=value` pairs.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = &'a str>) -> Result<Self, ConfigError> {
        let mut o = Options::new();
        for p in pairs {
            let (k, v) = Options::parse_pair(p)?;
            o.0.insert(k, v);
        }
        Ok(o)
    }

    /// Whether no option is set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The pairs, sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

/// What a new game is made of: the variant, the user's options and the seed.
/// A record stores exactly this, so that replaying it rebuilds the same game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    /// The variant; `None` for the game's default.
    pub variant: Option<String>,
    /// The options on top of the variant's.
    pub options: Options,
    /// The seed of every random choice of the set-up.
    pub seed: u64,
}

/// Validated option values: every option of the game has a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    variant: &'static str,
    values: BTreeMap<&'static str, String>,
}

const MAX_TEXT: usize = 4096;

impl GameInfo {
    /// The default variant's name.
    pub fn default_variant(&self) -> &'static str {
        self.variants.first().map(|v| v.name).unwrap_or("default")
    }

    /// The variant called `name`.
    pub fn variant(&self, name: &str) -> Option<&'static VariantSpec> {
        self.variants.iter().find(|v| v.name.eq_ignore_ascii_case(name))
    }

    /// The option called `name`.
    pub fn option(&self, name: &str) -> Option<&'static OptionSpec> {
        self.options.iter().find(|o| o.name.eq_ignore_ascii_case(name))
    }

    /// Resolve a variant and user options into settings, checking every value.
    pub fn resolve(&self, variant: Option<&str>, options: &Options) -> Result<Settings, ConfigError> {
        let variant = match variant {
            None => match self.variants.first() {
                Some(v) => v,
                None => return Err(ConfigError::new(format!("{} has no variants", self.name))),
            },
            Some(name) => self.variant(name).ok_or_else(|| {
                let names: Vec<_> = self.variants.iter().map(|v| v.name).collect();
                ConfigError::new(format!(
                    "{} has no variant {name:?}; its variants are: {}",
                    self.name,
                    names.join(", ")
                ))
            })?,
        };
        let mut values: BTreeMap<&'static str, String> =
            self.options.iter().map(|o| (o.name, o.default.to_string())).collect();
        let preset = variant.options.iter().map(|&(k, v)| (k, v));
        let user = options.iter();
        for (name, value) in preset.chain(user) {
            let spec = self.option(name).ok_or_else(|| {
                let names: Vec<_> = self.options.iter().map(|o| o.name).collect();
                ConfigError::new(format!(
                    "{} has no option {name:?}; its options are: {}",
                    self.name,
                    if names.is_empty() { "(none)".to_string() } else { names.join(", ") }
                ))
            })?;
            values.insert(spec.name, spec.normalize(value)?);
        }
        Ok(Settings { variant: variant.name, values })
    }
}

impl OptionSpec {
    /// Check a value and bring it to its canonical text form.
    pub fn normalize(&self, value: &str) -> Result<String, ConfigError> {
        let bad = |what: String| ConfigError::new(format!("option {}: {what}", self.name));
        let value = value.trim();
        match self.kind {
            OptionKind::Int { min, max } => {
                let n: i64 = value.parse().map_err(|_| bad(format!("{value:?} is not a whole number")))?;
                if n < min || n > max {
                    return Err(bad(format!("{n} is out of range {min}..={max}")));
                }
                Ok(n.to_string())
            }
            OptionKind::OptionalInt { min, max } => {
                if value.eq_ignore_ascii_case("none") || value.is_empty() {
                    return Ok("none".to_string());
                }
                let n: i64 = value.parse().map_err(|_| bad(format!("{value:?} is neither a whole number nor none")))?;
                if n < min || n > max {
                    return Err(bad(format!("{n} is out of range {min}..={max}")));
                }
                Ok(n.to_string())
            }
            OptionKind::Bool => match value.to_ascii_lowercase().as_str() {
                "true" | "on" | "yes" | "1" => Ok("true".to_string()),
                "false" | "off" | "no" | "0" => Ok("false".to_string()),
                _ => Err(bad(format!("{value:?} is not true or false"))),
            },
            OptionKind::Choice(words) => words
                .iter()
                .find(|w| w.eq_ignore_ascii_case(value))
                .map(|w| w.to_string())
                .ok_or_else(|| bad(format!("{value:?} is not one of: {}", words.join(", ")))),
            OptionKind::Text => {
                if value.len() > MAX_TEXT {
                    return Err(bad(format!("value longer than {MAX_TEXT} characters")));
                }
                Ok(value.to_string())
            }
        }
    }

    /// The values, for help texts.
    pub fn values_help(&self) -> String {
        match self.kind {
            OptionKind::Int { min, max } => format!("{min}..{max}"),
            OptionKind::OptionalInt { min, max } => format!("{min}..{max} or none"),
            OptionKind::Bool => "true|false".to_string(),
            OptionKind::Choice(words) => words.join("|"),
            OptionKind::Text => "text".to_string(),
        }
    }
}

impl Settings {
    /// The variant these settings came from.
    pub fn variant(&self) -> &'static str {
        self.variant
    }

    /// The canonical text of an option.
    ///
    /// # Panics
    /// If the game has no such option: that is a bug in the game, not input.
    pub fn text(&self, name: &str) -> &str {
        match self.values.get(name) {
            Some(v) => v,
            None => panic!("option {name} is not declared in the game's INFO"),
        }
    }

    /// An integer option.
    pub fn int(&self, name: &str) -> i64 {
        self.text(name).parse().unwrap_or_else(|_| panic!("option {name} is not an integer option"))
    }

    /// An optional integer option.
    pub fn optional_int(&self, name: &str) -> Option<i64> {
        match self.text(name) {
            "none" => None,
            t => Some(t.parse().unwrap_or_else(|_| panic!("option {name} is not an integer option"))),
        }
    }

    /// A boolean option.
    pub fn bool(&self, name: &str) -> bool {
        self.text(name) == "true"
    }

    /// All values, by option name.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &str)> {
        self.values.iter().map(|(k, v)| (*k, v.as_str()))
    }
}

impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (k, v) in self.iter() {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{k}={v}")?;
        }
        Ok(())
    }
}
