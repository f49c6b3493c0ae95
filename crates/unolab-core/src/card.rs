//! Cards as the host sees them: faces (colour, flex colour, number or symbol,
//! mark), one- or two-sided card designs, and the side of the table in play.
//! Names live in the variant (`crate::variant::Names`); this module holds only
//! indices, so a card is a small `Copy` value.

/// Index into the variant's colour list (light colours first, then dark).
pub type Color = u8;

/// Index into the variant's symbol table.
pub type SymbolId = u8;

/// Index of a card design in the variant's design table. Physical copies of
/// one design share the id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CardId(pub u16);

/// What a face shows besides its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    Number(u8),
    Symbol(SymbolId),
}

/// One printed face. A face without a colour is wild.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Face {
    pub color: Option<Color>,
    /// Second ("flex") colour of a two-colour card.
    pub flex: Option<Color>,
    pub value: Value,
    /// A mark printed on some numbers (such as a flip icon), written `*`.
    pub marked: bool,
}

impl Face {
    pub fn is_wild(&self) -> bool {
        self.color.is_none()
    }

    pub fn number(&self) -> Option<u8> {
        match self.value {
            Value::Number(n) => Some(n),
            Value::Symbol(_) => None,
        }
    }

    pub fn symbol(&self) -> Option<SymbolId> {
        match self.value {
            Value::Symbol(s) => Some(s),
            Value::Number(_) => None,
        }
    }
}

/// A card design: one face, or a light and a dark face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CardDef {
    pub light: Face,
    pub dark: Option<Face>,
}

impl CardDef {
    /// The face showing while `side` is in play (one-sided cards always
    /// show their only face).
    pub fn face(&self, side: Side) -> &Face {
        match (side, &self.dark) {
            (Side::Dark, Some(dark)) => dark,
            _ => &self.light,
        }
    }
}

/// The side of a double-sided deck that is in play, table-wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Side {
    #[default]
    Light,
    Dark,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Light => Side::Dark,
            Side::Dark => Side::Light,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::Light => "light",
            Side::Dark => "dark",
        }
    }

    pub fn parse(text: &str) -> Option<Side> {
        match text.trim().to_ascii_lowercase().as_str() {
            "light" => Some(Side::Light),
            "dark" => Some(Side::Dark),
            _ => None,
        }
    }
}

/// Direction of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Direction {
    #[default]
    Clockwise,
    Counterclockwise,
}

impl Direction {
    pub fn reversed(self) -> Direction {
        match self {
            Direction::Clockwise => Direction::Counterclockwise,
            Direction::Counterclockwise => Direction::Clockwise,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Direction::Clockwise => "clockwise",
            Direction::Counterclockwise => "counterclockwise",
        }
    }

    pub fn parse(text: &str) -> Option<Direction> {
        match text.trim().to_ascii_lowercase().as_str() {
            "clockwise" | "cw" => Some(Direction::Clockwise),
            "counterclockwise" | "counter-clockwise" | "ccw" | "anticlockwise" => Some(Direction::Counterclockwise),
            _ => None,
        }
    }
}
