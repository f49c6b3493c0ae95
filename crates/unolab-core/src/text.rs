//! `Text`: an immutable string that clones by a reference count, for the
//! names and words rules keep on the table (state names and values, a
//! penalty's group, a choice's tag, a line a rule logs). A table clones
//! often (a backup before an action, a position a bot searches from), so
//! what it holds must clone cheaply; and it is `Send`, so that a position
//! may move between threads.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

#[derive(Clone, PartialOrd, Ord)]
pub struct Text(Arc<str>);

impl Text {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for Text {
    fn default() -> Text {
        Text::from("")
    }
}

impl Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Text {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// Equal texts say the same; one shared text is equal to itself at a look.
impl PartialEq for Text {
    #[inline]
    fn eq(&self, other: &Text) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || *self.0 == *other.0
    }
}

impl Eq for Text {}

/// Hashed as the string it says, as equality compares it.
impl std::hash::Hash for Text {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Text {
        Text(Arc::from(text))
    }
}

impl From<String> for Text {
    fn from(text: String) -> Text {
        Text(Arc::from(text))
    }
}

impl From<&String> for Text {
    fn from(text: &String) -> Text {
        Text::from(text.as_str())
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_compare_by_what_they_say() {
        let a = Text::from("group");
        let b = Text::from(String::from("group"));
        assert_eq!(a, b);
        assert_eq!(a, a.clone());
        let (other, later) = (Text::from("other"), Text::from("z"));
        assert!(a == "group" && a != other);
        assert!(a < later);
        assert_eq!(format!("{a} {a:?}"), "group \"group\"");
        let map: std::collections::BTreeMap<Text, u8> = [(a.clone(), 1)].into();
        assert_eq!(map.get("group"), Some(&1), "looked up by a plain string");
    }
}
