//! YAML, read with serde-saphyr (serde_yaml's maintained successor for
//! reading; the file format is the same): typed files deserialize straight
//! into their structs, and where a file holds free-form values (scenario
//! steps, option settings, state) each node is a `Yaml` that keeps where it
//! stood, so a problem found later points at its own line. Duplicate keys
//! are an error, and the parser's errors carry their line and column. A
//! scalar the parser reads as a number keeps the text written for it too
//! (`+4`, a card, is the number 4 to YAML): where a file's value is text
//! (a card, a selector), it is read as written.

use std::cell::RefCell;
use std::fmt;

use serde::de::{self, Deserialize, DeserializeOwned, Deserializer, MapAccess, SeqAccess, Visitor};

use unolab_core::source::{Position, SourceFile};

/// A YAML node and where it stands in its file.
#[derive(Debug, Clone, PartialEq)]
pub struct Yaml {
    /// Line and column (1-based); line 0 where the place is unknown.
    pub at: Position,
    pub value: YamlValue,
    /// For a scalar read as a number, its text in the file where that is
    /// known (`+4` for the number 4).
    pub written: Option<String>,
}

/// A node's value. Numbers are whole numbers: nothing in our files takes
/// fractions, and a fraction is refused where it is read.
#[derive(Debug, Clone, PartialEq)]
pub enum YamlValue {
    Null,
    Bool(bool),
    Int(i64),
    /// A number that is not a whole number (its value, as text).
    Float(String),
    Str(String),
    Seq(Vec<Yaml>),
    Map(Vec<(Yaml, Yaml)>),
}

impl Yaml {
    /// A node made in code, standing nowhere in a file.
    pub fn unplaced(value: YamlValue) -> Yaml {
        Yaml { at: Position { line: 0, column: 0 }, value, written: None }
    }

    /// Where the node stands, if known.
    pub fn position(&self) -> Option<Position> {
        (self.at.line > 0).then_some(self.at)
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            YamlValue::Str(s) => Some(s),
            _ => None,
        }
    }

    /// A scalar as the text written in the file: text as it is, and a
    /// number as it was spelt (`+4`, not 4); `None` for anything else.
    pub fn scalar_text(&self) -> Option<std::borrow::Cow<'_, str>> {
        use std::borrow::Cow;
        match (&self.value, &self.written) {
            (YamlValue::Str(s), _) => Some(Cow::Borrowed(s)),
            (YamlValue::Int(_) | YamlValue::Float(_), Some(written)) => Some(Cow::Borrowed(written)),
            (YamlValue::Int(n), None) => Some(Cow::Owned(n.to_string())),
            (YamlValue::Float(n), None) => Some(Cow::Borrowed(n)),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.value {
            YamlValue::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self.value {
            YamlValue::Int(n) => Some(n),
            _ => None,
        }
    }

    /// A whole number from 0 up; keys such as `0:` are read as numbers.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_i64().and_then(|n| u64::try_from(n).ok())
    }

    pub fn as_sequence(&self) -> Option<&[Yaml]> {
        match &self.value {
            YamlValue::Seq(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_mapping(&self) -> Option<&[(Yaml, Yaml)]> {
        match &self.value {
            YamlValue::Map(entries) => Some(entries),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        self.value == YamlValue::Null
    }

    /// The value of `key` in a mapping.
    pub fn get(&self, key: &str) -> Option<&Yaml> {
        self.as_mapping()?.iter().find(|(k, _)| k.as_str() == Some(key)).map(|(_, v)| v)
    }
}

impl fmt::Display for Yaml {
    /// The value in one line, in flow style: `{play: red 5}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |f: &mut fmt::Formatter<'_>, items: Vec<String>, open: &str, close: &str| {
            write!(f, "{open}{}{close}", items.join(", "))
        };
        match &self.value {
            YamlValue::Null => write!(f, "~"),
            YamlValue::Bool(b) => write!(f, "{b}"),
            YamlValue::Int(_) | YamlValue::Float(_) | YamlValue::Str(_) => {
                write!(f, "{}", self.scalar_text().unwrap_or_default())
            }
            YamlValue::Seq(items) => list(f, items.iter().map(Yaml::to_string).collect(), "[", "]"),
            YamlValue::Map(entries) => list(f, entries.iter().map(|(k, v)| format!("{k}: {v}")).collect(), "{", "}"),
        }
    }
}

/// A value read from a file and where it stood (from the parser's span):
/// a problem found with it later is placed without searching the file.
/// Compared, ordered and written as its value alone.
#[derive(Debug, Clone, Default)]
pub struct Placed<T> {
    /// Line and column (1-based); line 0 where the place is unknown (a
    /// value made in code or left out).
    pub at: Position,
    pub value: T,
}

impl<T> Placed<T> {
    /// A value made in code, standing nowhere in a file.
    pub fn unplaced(value: T) -> Placed<T> {
        Placed { at: Position { line: 0, column: 0 }, value }
    }

    /// Where the value stands, if known.
    pub fn position(&self) -> Option<Position> {
        (self.at.line > 0).then_some(self.at)
    }
}

impl<T> std::ops::Deref for Placed<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T: PartialEq> PartialEq for Placed<T> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl<T: Eq> Eq for Placed<T> {}

impl<T: PartialOrd> PartialOrd for Placed<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        self.value.partial_cmp(&other.value)
    }
}

impl<T: Ord> Ord for Placed<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.value.cmp(&other.value)
    }
}

impl<T: fmt::Display> fmt::Display for Placed<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}

impl<T: serde::Serialize> serde::Serialize for Placed<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(serializer)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Placed<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Placed<T>, D::Error> {
        let spanned = serde_saphyr::Spanned::<T>::deserialize(deserializer)?;
        Ok(Placed { at: position(spanned.referenced), value: spanned.value })
    }
}

/// A parser's location as our position (line 0 where it is unknown).
fn position(place: serde_saphyr::Location) -> Position {
    Position { line: usize::try_from(place.line()).unwrap_or(0), column: usize::try_from(place.column()).unwrap_or(0) }
}

impl<'de> Deserialize<'de> for Yaml {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Yaml, D::Error> {
        let spanned = serde_saphyr::Spanned::<YamlValue>::deserialize(deserializer)?;
        let written = match spanned.value {
            YamlValue::Int(_) | YamlValue::Float(_) => written_at(spanned.defined.span()),
            _ => None,
        };
        Ok(Yaml { at: position(spanned.referenced), value: spanned.value, written })
    }
}

thread_local! {
    /// The text `from_str` is reading, for a number's spelling (`written_at`).
    static READING: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The text at a parser's span in the text being read, if known.
fn written_at(span: serde_saphyr::Span) -> Option<String> {
    let start = usize::try_from(span.byte_offset()?).ok()?;
    let len = usize::try_from(span.byte_len()?).ok()?;
    READING.with(|text| {
        let text = text.borrow();
        let written = text.as_deref()?.get(start..start.checked_add(len)?)?.trim();
        (!written.is_empty()).then(|| written.to_string())
    })
}

/// While alive, `written_at` reads `text`; the text read before is put back
/// after (a file read while another is read).
struct Reading(Option<String>);

impl Reading {
    fn start(text: &str) -> Reading {
        Reading(READING.with(|reading| reading.replace(Some(text.to_string()))))
    }
}

impl Drop for Reading {
    fn drop(&mut self) {
        READING.with(|reading| *reading.borrow_mut() = self.0.take());
    }
}

impl<'de> Deserialize<'de> for YamlValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<YamlValue, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = YamlValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a YAML value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<YamlValue, E> {
        Ok(YamlValue::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<YamlValue, E> {
        Ok(YamlValue::Int(n))
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<YamlValue, E> {
        i64::try_from(n).map(YamlValue::Int).map_err(|_| E::custom(format!("{n} is too large a number")))
    }

    fn visit_i128<E: de::Error>(self, n: i128) -> Result<YamlValue, E> {
        i64::try_from(n).map(YamlValue::Int).map_err(|_| E::custom(format!("{n} is too large a number")))
    }

    fn visit_u128<E: de::Error>(self, n: u128) -> Result<YamlValue, E> {
        i64::try_from(n).map(YamlValue::Int).map_err(|_| E::custom(format!("{n} is too large a number")))
    }

    fn visit_f64<E>(self, n: f64) -> Result<YamlValue, E> {
        Ok(YamlValue::Float(n.to_string()))
    }

    fn visit_str<E>(self, s: &str) -> Result<YamlValue, E> {
        Ok(YamlValue::Str(s.to_string()))
    }

    fn visit_string<E>(self, s: String) -> Result<YamlValue, E> {
        Ok(YamlValue::Str(s))
    }

    fn visit_unit<E>(self) -> Result<YamlValue, E> {
        Ok(YamlValue::Null)
    }

    fn visit_none<E>(self) -> Result<YamlValue, E> {
        Ok(YamlValue::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<YamlValue, D::Error> {
        YamlValue::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<YamlValue, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Yaml>()? {
            items.push(item);
        }
        Ok(YamlValue::Seq(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<YamlValue, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Yaml>()? {
            let value = map.next_value::<Yaml>()?;
            entries.push((key, value));
        }
        Ok(YamlValue::Map(entries))
    }
}

/// Reads a file's text as `T`. An error is `file:line:column: message`.
pub fn from_file<T: DeserializeOwned>(file: &SourceFile) -> Result<T, String> {
    from_str(&file.text).map_err(|(at, message)| file.problem(at, message))
}

/// Reads text as `T`, or says what is wrong and where.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, (Option<Position>, String)> {
    // Read as serde_yaml read our files: `yes`, `no`, `on`, `off` are text
    // (only `true` and `false` are booleans), and `010` or `1_000` are
    // text where no number is asked for. Anchors, aliases, nesting and
    // text are bounded (a small file cannot expand to gigabytes).
    let options = serde_saphyr::options! {
        strict_booleans: true,
        leading_zero_numbers_as_strings: true,
        underscored_numbers_as_strings: true,
        budget: serde_saphyr::budget! {
            max_depth: unolab_core::limits::YAML_DEPTH,
            max_recorded_anchor_bytes: unolab_core::limits::FILE_BYTES as usize,
            max_total_scalar_bytes: 4 * unolab_core::limits::FILE_BYTES as usize,
        },
    };
    let _reading = Reading::start(text);
    serde_saphyr::from_str_with_options(text, options).map_err(|e| {
        let at = e.location().filter(|l| l.line() > 0).map(|l| Position {
            line: usize::try_from(l.line()).unwrap_or(0),
            column: usize::try_from(l.column()).unwrap_or(0),
        });
        let message = e.without_snippet().to_string();
        // The plain message ends with " at line L, column C"; the prefix
        // of ours says it already.
        let message = match message.rfind(" at line ") {
            Some(cut) if at.is_some() => message[..cut].to_string(),
            _ => message,
        };
        (at, with_suggestion(plain_words(&message)))
    })
}

/// What names the names expected, in a message about an unknown one.
const EXPECTED: &str = "expected one of ";

/// Of a message about an unknown field or value (`unknown field `x`,
/// expected one of a, b`): the part before the names expected, and the
/// name written.
pub fn unknown_name(message: &str) -> Option<(&str, &str)> {
    let (unknown, _) = message.split_once(EXPECTED)?;
    Some((unknown, unknown.split('`').nth(1)?))
}

/// Of a message about an unknown field (`unknown field `x`, expected one
/// of a, b`, perhaps with a suggestion after): the part before the names
/// expected, the name written, and the names expected.
pub fn unknown_field(message: &str) -> Option<(&str, &str, Vec<&str>)> {
    let (unknown, word) = unknown_name(message)?;
    if !unknown.contains("unknown field") {
        return None;
    }
    Some((unknown, word, expected_names(message, unknown).collect()))
}

/// The names expected in a message about an unknown name, whose part
/// before them is `unknown` (`unknown_name`); a suggestion after them
/// (`; did you mean`) is left out.
fn expected_names<'a>(message: &'a str, unknown: &str) -> impl Iterator<Item = &'a str> {
    let names = message[unknown.len() + EXPECTED.len()..].split(';').next().unwrap_or_default();
    names.split(", ").map(|name| name.trim().trim_matches('`'))
}

/// A message about an unknown field or value (`unknown_name`), with the
/// name expected it looks like a misspelling of.
fn with_suggestion(message: String) -> String {
    let Some((unknown, word)) = unknown_name(&message) else { return message };
    let suggestion = unolab_core::source::did_you_mean(word, expected_names(&message, unknown));
    format!("{message}{suggestion}")
}

/// A text field that may be left empty (`description:`): an empty value
/// is the empty text, as files have always been read. Such text is shown
/// to players, so its control characters are kept as escapes (`\u{1b}`).
pub fn text_or_empty<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    let text = Option::<String>::deserialize(deserializer)?.unwrap_or_default();
    Ok(unolab_core::source::without_controls(&text).into_owned())
}

/// The parser's words for what a value should have been, in the words of
/// our files.
fn plain_words(message: &str) -> String {
    const WORDS: &[(&str, &str)] = &[
        (", set DuplicateKeyPolicy in Options if acceptable", " (each key once)"),
        ("cannot deserialize null into string; use Option<String>", "text is needed here"),
        ("expected sequence start", "a list is needed here"),
        ("expected mapping start", "a map is needed here"),
        ("expected struct ", "expected "),
    ];
    if let Some(rest) = message.strip_prefix("budget breached: ") {
        let what = rest.split(" at line ").next().unwrap_or(rest);
        return format!("the file grows too large once its anchors and aliases are expanded ({what})");
    }
    let mut message = message.to_string();
    for (from, to) in WORDS {
        message = message.replace(from, to);
    }
    for kind in ["u8", "u16", "u32", "u64", "usize"] {
        if message == format!("invalid {kind}") {
            return "a whole number from 0 is needed here".into();
        }
    }
    message
}

/// Writes a value as YAML (saved games).
pub fn to_string<T: serde::Serialize>(value: &T) -> Result<String, String> {
    serde_saphyr::to_string(value).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Our files are read as serde_yaml read them: only `true` and `false`
    /// are booleans; `yes`, `off`, `010` and `1_000` stay text.
    #[test]
    fn words_and_spellings_stay_as_written() {
        let node: Yaml = from_str("{a: yes, b: off, c: 010, d: 1_000, e: true, f: 7, g: 1.5}").unwrap();
        let value = |key: &str| node.get(key).map(|v| v.value.clone());
        assert_eq!(value("a"), Some(YamlValue::Str("yes".into())));
        assert_eq!(value("b"), Some(YamlValue::Str("off".into())));
        assert_eq!(value("c"), Some(YamlValue::Str("010".into())));
        assert_eq!(value("d"), Some(YamlValue::Str("1_000".into())));
        assert_eq!(value("e"), Some(YamlValue::Bool(true)));
        assert_eq!(value("f"), Some(YamlValue::Int(7)));
        assert_eq!(value("g"), Some(YamlValue::Float("1.5".into())));
    }

    #[test]
    fn a_key_given_twice_is_refused_where_it_stands() {
        let (at, message) = from_str::<Yaml>("a: 1\nb: 2\na: 3\n").unwrap_err();
        assert_eq!(at, Some(Position { line: 3, column: 1 }));
        assert!(message.contains("duplicate mapping key: a (each key once)"), "{message}");
    }

    #[test]
    fn nodes_keep_their_place() {
        let node: Yaml = from_str("steps:\n  - play: red 5\n  - draw\n").unwrap();
        let steps = node.get("steps").and_then(Yaml::as_sequence).unwrap();
        assert_eq!(steps[1].at, Position { line: 3, column: 5 });
        assert_eq!(steps[1].to_string(), "draw");
        assert_eq!(steps[0].to_string(), "{play: red 5}");
    }

    /// A scalar YAML reads as a number keeps its spelling, where text is
    /// asked for: `+4` is a card, not the number 4.
    #[test]
    fn a_number_keeps_its_spelling() {
        let node: Yaml = from_str("{a: +4, b: [+2, 7], c: 0x1F, d: &n +3, e: *n, f: 1.50, g: red}").unwrap();
        let text = |key: &str| node.get(key).and_then(|v| v.scalar_text().map(|t| t.into_owned()));
        assert_eq!(node.get("a").map(|v| v.value.clone()), Some(YamlValue::Int(4)));
        assert_eq!(text("a").as_deref(), Some("+4"));
        let b = node.get("b").and_then(Yaml::as_sequence).unwrap();
        assert_eq!(b[0].scalar_text().as_deref(), Some("+2"));
        assert_eq!(b[1].scalar_text().as_deref(), Some("7"));
        assert_eq!(text("c").as_deref(), Some("0x1F"));
        assert_eq!(text("d").as_deref(), Some("+3"));
        assert_eq!(text("e").as_deref(), Some("+3"));
        assert_eq!(text("f").as_deref(), Some("1.50"));
        assert_eq!(text("g").as_deref(), Some("red"));
        assert_eq!(node.to_string(), "{a: +4, b: [+2, 7], c: 0x1F, d: +3, e: +3, f: 1.50, g: red}");
    }
}
