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
    /// Free text (a position, a list of colours). At most 4096 characters.
    Text,
    /// Content such as a board layout: a built-in name (`standard`), or the
    /// content itself given inline, on one line. At most 4096 characters.
    ///
    /// Games never read files. A tool may read the content from a file for the
    /// user (the command line's `--option NAME=@FILE`): it turns the file's
    /// text into the inline form with [`inline_content`], which every game
    /// with such an option accepts. One line, so that a record's `Option` tag
    /// carries it and replays exactly.
    Content,
}

/// The inline form of multi-line content (the text of a file given for an
/// [`OptionKind::Content`] option): `#` starts a comment that runs to the end
/// of its line, runs of white space become one space, lines are trimmed,
/// blank lines dropped, and the lines are joined by `/`.
///
/// ```
/// use plateau_core::options::inline_content;
/// assert_eq!(inline_content("# a board\nR1  R2 # first\n\n  D  L\n"), "R1 R2/D L");
/// ```
pub fn inline_content(text: &str) -> String {
    let lines: Vec<String> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect();
    lines.join("/")
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
    /// For an integer option that is a work budget (positions a search may
    /// expand): the largest value an untrusted client, such as a player of a
    /// server, may set. `None`: the whole range of the kind is allowed. See
    /// [`GameInfo::check_untrusted`].
    pub untrusted_max: Option<i64>,
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
    /// How moves are written, in a few lines for players (`plateau play`
    /// shows it with its help).
    pub notation: &'static str,
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
    played: Option<&'static str>,
    values: BTreeMap<&'static str, String>,
}

/// The longest value of a [`OptionKind::Text`] or [`OptionKind::Content`]
/// option, in characters.
pub const MAX_TEXT: usize = 4096;

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
        let played = self.played_variant(variant, &values);
        Ok(Settings { variant: variant.name, played, values })
    }

    /// The variant whose presets describe `values`: `given` if the values
    /// still have its presets, else the first variant whose presets they
    /// have, else none. Only the options some variant presets count (the
    /// "variant options": Abalone's layout, Abraxas's sheet, Kabaleo's players
    /// and deal, Colorito's just-colours and strict); a variant that leaves
    /// one of them alone has the option's default there.
    fn played_variant(
        &self,
        given: &'static VariantSpec,
        values: &BTreeMap<&'static str, String>,
    ) -> Option<&'static str> {
        let keys: Vec<&'static OptionSpec> = self
            .options
            .iter()
            .filter(|o| self.variants.iter().any(|v| v.options.iter().any(|(k, _)| o.name.eq_ignore_ascii_case(k))))
            .collect();
        let matches = |v: &VariantSpec| {
            keys.iter().all(|o| {
                let preset = v.options.iter().find(|(k, _)| o.name.eq_ignore_ascii_case(k)).map_or(o.default, |p| p.1);
                let preset = o.normalize(preset).unwrap_or_else(|_| preset.to_string());
                values.get(o.name).is_some_and(|x| *x == preset)
            })
        };
        if matches(given) {
            return Some(given.name);
        }
        self.variants.iter().find(|v| matches(v)).map(|v| v.name)
    }

    /// Check a set-up from an untrusted client (a player of a server): the
    /// variant and options must resolve, and every option with an
    /// [`OptionSpec::untrusted_max`] must be at most that value (whether the
    /// client, the variant or the default set it). A server calls it before
    /// [`Registry::new_match`](crate::Registry::new_match) and refuses the
    /// set-up with the error's message.
    pub fn check_untrusted(&self, setup: &Setup) -> Result<(), ConfigError> {
        let settings = self.resolve(setup.variant.as_deref(), &setup.options)?;
        for spec in self.options {
            let Some(cap) = spec.untrusted_max else { continue };
            let value = settings.text(spec.name);
            if let Ok(n) = value.parse::<i64>()
                && n > cap
            {
                return Err(ConfigError::new(format!("option {}: at most {cap} on a server", spec.name)));
            }
        }
        Ok(())
    }

    /// The names of the options whose values are [`OptionKind::Content`]: the
    /// ones a tool may read from a file for the user.
    pub fn content_options(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.options.iter().filter(|o| o.kind == OptionKind::Content).map(|o| o.name)
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
                    return Err(bad(format!("{n} must be from {min} to {max}")));
                }
                Ok(n.to_string())
            }
            OptionKind::OptionalInt { min, max } => {
                if value.eq_ignore_ascii_case("none") || value.is_empty() {
                    return Ok("none".to_string());
                }
                let n: i64 = value.parse().map_err(|_| bad(format!("{value:?} is neither a whole number nor none")))?;
                if n < min || n > max {
                    return Err(bad(format!("{n} must be from {min} to {max}, or none")));
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
            OptionKind::Content => {
                if value.chars().count() > MAX_TEXT {
                    return Err(bad(format!("value longer than {MAX_TEXT} characters")));
                }
                if value.chars().any(char::is_control) {
                    return Err(bad(
                        "the value must be one line (inline content separates its lines with /)".to_string()
                    ));
                }
                Ok(value.to_string())
            }
        }
    }

    /// The values, for help texts.
    pub fn values_help(&self) -> String {
        match self.kind {
            OptionKind::Int { min, max } => format!("{min} to {max}"),
            OptionKind::OptionalInt { min, max } => format!("{min} to {max}, or none"),
            OptionKind::Bool => "true|false".to_string(),
            OptionKind::Choice(words) => words.join("|"),
            OptionKind::Text => "text".to_string(),
            OptionKind::Content => "name|inline (@FILE on the command line)".to_string(),
        }
    }
}

impl Settings {
    /// The variant these settings came from (the one asked for, or the
    /// default).
    pub fn variant(&self) -> &'static str {
        self.variant
    }

    /// The variant of the game these settings describe: the one asked for,
    /// unless options changed what it presets (`--variant level-1 --option
    /// sheet=level-3`); then the variant whose presets the settings have
    /// (`level-3`); `None` when no variant has them (an inline sheet).
    pub fn played_variant(&self) -> Option<&'static str> {
        self.played
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

#[cfg(test)]
mod tests {
    use super::*;

    static INFO: GameInfo = GameInfo {
        name: "test",
        title: "Test",
        summary: "A game for the option model's tests.",
        notation: "",
        min_seats: 2,
        max_seats: 2,
        hidden: false,
        uses_seed: false,
        has_draws: false,
        variants: &[
            VariantSpec { name: "plain", help: "", options: &[] },
            VariantSpec { name: "deep", help: "", options: &[("budget", "900")] },
        ],
        options: &[
            OptionSpec {
                name: "budget",
                help: "a work budget",
                kind: OptionKind::Int { min: 0, max: 1_000_000 },
                default: "100",
                untrusted_max: Some(500),
            },
            OptionSpec {
                name: "limit",
                help: "an optional work budget",
                kind: OptionKind::OptionalInt { min: 1, max: 1_000 },
                default: "none",
                untrusted_max: Some(50),
            },
            OptionSpec {
                name: "size",
                help: "not a budget",
                kind: OptionKind::Int { min: 1, max: 12 },
                default: "6",
                untrusted_max: None,
            },
            OptionSpec {
                name: "layout",
                help: "a layout",
                kind: OptionKind::Content,
                default: "standard",
                untrusted_max: None,
            },
        ],
    };

    fn setup(variant: Option<&str>, pairs: &[&str]) -> Setup {
        Setup {
            variant: variant.map(str::to_string),
            options: Options::from_pairs(pairs.iter().copied()).unwrap(),
            seed: 0,
        }
    }

    #[test]
    fn untrusted_caps_are_checked_on_every_source_of_a_value() {
        assert_eq!(INFO.check_untrusted(&setup(None, &[])), Ok(()));
        assert_eq!(INFO.check_untrusted(&setup(None, &["budget=500", "limit=50", "size=12"])), Ok(()));
        assert_eq!(
            INFO.check_untrusted(&setup(None, &["budget=501"])),
            Err(ConfigError::new("option budget: at most 500 on a server"))
        );
        assert_eq!(
            INFO.check_untrusted(&setup(None, &["limit=51"])),
            Err(ConfigError::new("option limit: at most 50 on a server"))
        );
        // The variant's preset counts too; a user value below the cap fixes it.
        assert_eq!(
            INFO.check_untrusted(&setup(Some("deep"), &[])),
            Err(ConfigError::new("option budget: at most 500 on a server"))
        );
        assert_eq!(INFO.check_untrusted(&setup(Some("deep"), &["budget=20"])), Ok(()));
        // Invalid set-ups are refused as by resolve.
        assert!(INFO.check_untrusted(&setup(None, &["size=13"])).is_err());
        assert!(INFO.check_untrusted(&setup(Some("nope"), &[])).is_err());
        // Trusted resolution keeps the whole range.
        assert!(INFO.resolve(None, &setup(None, &["budget=1000000"]).options).is_ok());
    }

    #[test]
    fn the_variant_played_follows_the_options() {
        let played = |variant: Option<&str>, pairs: &[&str]| {
            INFO.resolve(variant, &setup(variant, pairs).options).unwrap().played_variant()
        };
        // "deep" presets budget=900; "plain" leaves it at its default, 100.
        assert_eq!(played(None, &[]), Some("plain"));
        assert_eq!(played(Some("deep"), &[]), Some("deep"));
        assert_eq!(played(Some("deep"), &["size=3"]), Some("deep"));
        assert_eq!(played(None, &["budget=900"]), Some("deep"));
        assert_eq!(played(Some("deep"), &["budget=100"]), Some("plain"));
        assert_eq!(played(Some("deep"), &["budget=20"]), None);
        // The variant asked for is kept in `variant()`.
        let s = INFO.resolve(Some("deep"), &setup(None, &["budget=100"]).options).unwrap();
        assert_eq!(s.variant(), "deep");
    }

    #[test]
    fn range_help_is_in_words() {
        assert_eq!(INFO.option("size").unwrap().values_help(), "1 to 12");
        assert_eq!(INFO.option("limit").unwrap().values_help(), "1 to 1000, or none");
    }

    #[test]
    fn range_errors_are_in_words() {
        let e = INFO.resolve(None, &setup(None, &["size=13"]).options).unwrap_err().to_string();
        assert_eq!(e, "option size: 13 must be from 1 to 12");
        let e = INFO.resolve(None, &setup(None, &["limit=0"]).options).unwrap_err().to_string();
        assert_eq!(e, "option limit: 0 must be from 1 to 1000, or none");
    }

    #[test]
    fn content_is_one_bounded_line() {
        let spec = INFO.option("layout").unwrap();
        assert_eq!(spec.normalize(" R1 R2/D L ").unwrap(), "R1 R2/D L");
        let e = spec.normalize("R1 R2\nD L").unwrap_err().to_string();
        assert!(e.contains("one line"), "{e}");
        assert!(spec.normalize(&"x".repeat(4096)).is_ok());
        assert!(spec.normalize(&"x".repeat(4097)).is_err());
        assert_eq!(INFO.content_options().collect::<Vec<_>>(), ["layout"]);
    }

    #[test]
    fn file_text_becomes_one_line() {
        assert_eq!(inline_content("# head\n\n a  b # c\n\t\nd/e\n#\n"), "a b/d/e");
        assert_eq!(inline_content(""), "");
        assert_eq!(inline_content("x\r\ny\r\n"), "x/y");
    }
}
