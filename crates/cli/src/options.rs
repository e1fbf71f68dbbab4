//! `--option NAME=VALUE` on the command line, the one place where the `plateau`
//! commands read them.
//!
//! Games never read files. For an option whose values are content
//! ([`OptionKind::Content`](plateau_core::OptionKind::Content): a board
//! layout, a dot sheet), `NAME=@FILE` reads the file here and passes its
//! content, made one line by [`inline_content`], as the value; the record of
//! the game then carries the content itself and replays anywhere. Only regular
//! files of at most [`MAX_OPTION_FILE`] bytes are read. A value without `@` is
//! passed as it is (a built-in name or inline content); if the game refuses it
//! and it names an existing file, the error says to write `NAME=@FILE`.

use std::io::Read;
use std::path::Path;

use anyhow::{Context, Result, bail};
use plateau_core::options::inline_content;
use plateau_core::{GameInfo, Options, Registry};

/// The largest file read for an option, in bytes.
pub const MAX_OPTION_FILE: u64 = 64 * 1024;

/// Options for `game` from `NAME=VALUE` arguments, reading `@FILE` values of
/// content options. With no game known (`None`, or a name the registry does
/// not know), the values are passed as they are: the game's error then says
/// what is wrong.
pub fn parse(registry: &Registry, game: Option<&str>, pairs: &[String]) -> Result<Options> {
    let info = game.and_then(|g| registry.get(g).ok()).map(|e| e.info());
    let mut options = Options::new();
    for pair in pairs {
        let (name, value) = Options::parse_pair(pair)?;
        let is_content = info.is_some_and(|i| i.content_options().any(|o| o.eq_ignore_ascii_case(&name)));
        let value = match value.strip_prefix('@') {
            Some(path) if is_content => read_option_file(&name, path)?,
            _ => value,
        };
        options.set(name, value);
    }
    Ok(options)
}

/// The content of an option's file, as one line.
pub fn read_option_file(name: &str, path: &str) -> Result<String> {
    if path.is_empty() {
        bail!("option {name}: @ must be followed by a file name (like {name}=@my.txt)");
    }
    let meta = std::fs::metadata(path).with_context(|| format!("option {name}: reading {path}"))?;
    if !meta.is_file() {
        bail!("option {name}: {path} is not a regular file");
    }
    if meta.len() > MAX_OPTION_FILE {
        bail!("option {name}: {path} is larger than {MAX_OPTION_FILE} bytes");
    }
    let file = std::fs::File::open(path).with_context(|| format!("option {name}: reading {path}"))?;
    // The file may have changed since: check again, and never read more than the cap.
    if !file.metadata().with_context(|| format!("option {name}: reading {path}"))?.is_file() {
        bail!("option {name}: {path} is not a regular file");
    }
    let mut bytes = Vec::new();
    file.take(MAX_OPTION_FILE + 1).read_to_end(&mut bytes).with_context(|| format!("option {name}: reading {path}"))?;
    if bytes.len() as u64 > MAX_OPTION_FILE {
        bail!("option {name}: {path} is larger than {MAX_OPTION_FILE} bytes");
    }
    let text = String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("option {name}: {path} is not UTF-8 text"))?;
    Ok(inline_content(&text))
}

/// A hint for a game's refusal of `options`: a content option whose value
/// names an existing file was probably meant as `NAME=@FILE`.
pub fn file_hint(info: &GameInfo, options: &Options) -> Option<String> {
    options.iter().find_map(|(name, value)| {
        let content = info.content_options().any(|o| o.eq_ignore_ascii_case(name));
        (content && !value.is_empty() && Path::new(value).exists())
            .then(|| format!("to read the file {value}, write --option {name}=@{value}"))
    })
}

/// `result`, with the [`file_hint`] added to its error.
pub fn hinted<T, E: Into<anyhow::Error>>(
    result: Result<T, E>,
    registry: &Registry,
    game: Option<&str>,
    options: &Options,
) -> Result<T> {
    result.map_err(|e| {
        let e: anyhow::Error = e.into();
        let info = game.and_then(|g| registry.get(g).ok()).map(|g| g.info());
        match info.and_then(|i| file_hint(i, options)) {
            Some(hint) => anyhow::anyhow!("{e:#} ({hint})"),
            None => e,
        }
    })
}
