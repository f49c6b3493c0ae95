//! The raw, deserialized form of variant and house-rule YAML files, exactly
//! as written. Nothing here is checked beyond YAML types; `build`
//! validates a spec into the model and reports every problem at once.

use std::collections::BTreeMap;

use serde::Deserialize;
use unolab_core::source::Position;
use unolab_core::variant::{ActWhen, ActionSpec, SelectorSpec, TargetSpec};

/// An `actions:` entry: the core's `ActionSpec`, placed.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionEntry {
    pub name: Placed<String>,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub card: bool,
    #[serde(default)]
    pub target: bool,
    pub available: Option<Placed<String>>,
    pub call: Placed<String>,
    /// `turn` (left out), `out of turn` or `any seat`: read by `build`.
    pub when: Option<Placed<String>>,
}

impl ActionEntry {
    pub fn spec(&self) -> ActionSpec {
        ActionSpec {
            name: self.name.value.clone(),
            description: self.description.clone(),
            card: self.card,
            target: self.target,
            available: self.available.as_ref().map(|f| f.value.clone()),
            call: self.call.value.clone(),
            when: ActWhen::default(),
            name_at: self.name.position(),
            available_at: self.available.as_ref().and_then(Placed::position),
            call_at: self.call.position(),
        }
    }
}

use crate::yaml::{Placed, Yaml};

/// `variants/NAME.yaml`, or a house rule (`variants/rules/NAME.yaml`), which
/// uses the same schema without the table fields (`deck`, `colors`, ...).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayerSpec {
    pub name: Option<String>,
    #[serde(default, deserialize_with = "crate::yaml::text_or_empty")]
    pub description: String,
    /// The built-in variant `unolab` plays when none is named.
    #[serde(default)]
    pub default: bool,
    /// Colours of the (light) side, in order.
    #[serde(default)]
    pub colors: Vec<Placed<String>>,
    /// Colours of the dark side of a double-sided deck.
    #[serde(default)]
    pub dark_colors: Vec<Placed<String>>,
    pub hand_size: Option<u32>,
    pub players: Option<[u32; 2]>,
    /// The table must seat a multiple of this many players (e.g. 2 for
    /// teams of partners); a rule may set it.
    pub players_multiple_of: Option<u32>,
    pub target_score: Option<i64>,
    pub uno_penalty: Option<u32>,
    /// Power Cards in the box (one per player at most; not shuffled in).
    pub power_cards: Option<u32>,
    /// What the mark `*` on a number means (the rule sheet says it).
    pub mark: Option<String>,
    #[serde(default)]
    pub symbols: BTreeMap<Placed<String>, SymbolSpec>,
    #[serde(default)]
    pub deck: Vec<DeckEntry>,
    /// Named settings scripts read with `option(NAME)`.
    #[serde(default)]
    pub options: BTreeMap<String, crate::yaml::Yaml>,
    /// For a double-sided deck: the integer option that, when not 0, re-pairs
    /// light and dark faces at random, seeded by its value.
    pub random_pairing_option: Option<String>,
    /// Rhai files, relative to this YAML file.
    #[serde(default)]
    pub scripts: Vec<Placed<String>>,
    /// Which script function runs where.
    #[serde(default)]
    pub hooks: BTreeMap<Placed<String>, Vec<HookSpec>>,
    /// Faces whose play names a target player (`target:` in a step).
    #[serde(default)]
    pub targets: Vec<TargetEntry>,
    /// Actions the player whose turn it is may take instead of playing or
    /// drawing.
    #[serde(default)]
    pub actions: Vec<ActionEntry>,
    /// House rules this rule cannot be combined with.
    #[serde(default)]
    pub conflicts: Vec<String>,
    /// For a house rule: variants (by name) where it can never trigger, with why.
    #[serde(default)]
    pub inert_in: BTreeMap<Placed<String>, String>,
    /// For a house rule: how it combines with other house rules that answer
    /// the same one-answer hook (`score_hand`, `match_winner`, `on_catch`):
    /// by rule name, the function of this rule that answers each hook when
    /// both are in play.
    #[serde(default)]
    pub combines_with: BTreeMap<String, BTreeMap<Placed<String>, String>>,
    /// Names of state values (`set_state`, `set_seat_state`) every seat may
    /// see; the rest is hidden from the players' views.
    #[serde(default)]
    pub public_state: Vec<String>,
    /// Where each field of the file stands (its key), from the parser.
    #[serde(skip)]
    pub keys: Vec<(String, Position)>,
}

impl LayerSpec {
    /// Where the file writes `field` (its key), if it does.
    pub fn key(&self, field: &str) -> Option<Position> {
        self.keys.iter().find(|(name, _)| name == field).map(|&(_, at)| at)
    }
}

/// The fields of `LayerSpec` a house rule may set (the rest describe a
/// table; `build` refuses them in a rule).
pub const RULE_FIELDS: &[&str] = &[
    "name",
    "description",
    "options",
    "scripts",
    "hooks",
    "targets",
    "actions",
    "public_state",
    "uno_penalty",
    "players_multiple_of",
    "conflicts",
    "inert_in",
    "combines_with",
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SymbolSpec {
    #[serde(default)]
    pub points: i64,
    /// A wild face has no colour and matches anything.
    #[serde(default)]
    pub wild: bool,
    /// The face has a flex side (an alternative effect, played `as: flex`).
    #[serde(default)]
    pub flex: bool,
    /// A draw-wild that may only be played without a card of the colour in
    /// play (rules.md 1.4); scripts read it as `card.restricted`.
    #[serde(default)]
    pub restricted: bool,
    /// How many cards a play of it makes someone draw; scripts read it as
    /// `card.draws` (e.g. to compare draw cards).
    #[serde(default)]
    pub draws: u32,
    /// For a wild: does its player name the colour in play (default true)?
    /// With `false`, a rule names it (e.g. `ask_color(victim)`).
    #[serde(default = "yes")]
    pub names_color: bool,
    /// Matches cards of this other symbol by symbol (e.g. `flex-skip` on `skip`).
    pub matches: Option<Placed<String>>,
    #[serde(default)]
    pub aliases: Vec<Placed<String>>,
    #[serde(default, deserialize_with = "crate::yaml::text_or_empty")]
    pub description: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeckEntry {
    /// Card notation; `{color}` expands to every colour of the light side,
    /// `{A-B}` to the numbers A to B.
    pub cards: Vec<Placed<String>>,
    #[serde(default = "one")]
    pub count: Placed<u32>,
}

fn one() -> Placed<u32> {
    Placed::unplaced(1)
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HookSpec {
    /// The Rhai function to call.
    pub call: Placed<String>,
    /// Which faces the hook applies to (card hooks only): `any`, `number`,
    /// `action`, `wild`, `marked`, `flex`, a number, a symbol, `group:SYMBOL`
    /// (every symbol that matches SYMBOL), or a colour; a list means any of
    /// them, `a + b` means both.
    #[serde(default, rename = "match")]
    pub selector: Option<MatchSpec>,
    /// For `can_play`, `can_respond` and `can_play_out_of_turn`: the hook
    /// is asked about cards that do not match too, and may answer "allow"
    /// to make them playable.
    #[serde(default)]
    pub grants: bool,
    /// For hooks about a play (`can_play`, `can_respond`,
    /// `can_play_out_of_turn`, `on_play`): asked only about plays of the
    /// card's flex side (`true`) or of its regular side (`false`).
    #[serde(default)]
    pub flex: Option<bool>,
}

/// A `targets:` entry: the core's `TargetSpec`, its `match:` placed.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetEntry {
    #[serde(rename = "match")]
    pub selector: MatchSpec,
    pub flex: Option<bool>,
    #[serde(default)]
    pub required: bool,
    /// With `required`: must it also on the player's last card (default
    /// yes)?
    #[serde(default = "yes")]
    pub required_on_last_card: bool,
}

impl TargetEntry {
    pub fn spec(&self) -> TargetSpec {
        TargetSpec {
            selector: self.selector.spec.clone(),
            flex: self.flex,
            required: self.required,
            required_on_last_card: self.required_on_last_card,
            match_places: self.selector.places.clone(),
        }
    }
}

/// A `match:` as written (one selector, or a list of alternatives), with
/// where each alternative stands.
#[derive(Debug, Clone)]
pub struct MatchSpec {
    pub spec: SelectorSpec,
    pub places: Vec<Option<Position>>,
}

impl<'de> Deserialize<'de> for MatchSpec {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<MatchSpec, D::Error> {
        let written = Placed::<Alternatives>::deserialize(deserializer)?;
        let at = written.position();
        Ok(match written.value {
            Alternatives::One(one) => MatchSpec { spec: SelectorSpec::One(one), places: vec![at] },
            Alternatives::Any(any) => MatchSpec {
                places: any.iter().map(Placed::position).collect(),
                spec: SelectorSpec::Any(any.into_iter().map(|alt| alt.value).collect()),
            },
        })
    }
}

/// A `match:`'s value: one selector or a list, each alternative placed.
/// A selector is read as written, though YAML reads `7` or `+4` as a
/// number.
enum Alternatives {
    One(String),
    Any(Vec<Placed<String>>),
}

impl<'de> Deserialize<'de> for Alternatives {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Alternatives, D::Error> {
        const EXPECTED: &str = "a selector or a list of selectors";
        let selector = |node: &Yaml| node.scalar_text().map(|text| text.into_owned());
        let node = Yaml::deserialize(deserializer)?;
        if let Some(items) = node.as_sequence() {
            let any = items.iter().map(|item| match selector(item) {
                Some(text) => Ok(Placed { at: item.at, value: text }),
                None => Err(serde::de::Error::custom(format!("'{item}' is not a selector: {EXPECTED} is needed"))),
            });
            return any.collect::<Result<_, _>>().map(Alternatives::Any);
        }
        selector(&node)
            .map(Alternatives::One)
            .ok_or_else(|| serde::de::Error::custom(format!("'{node}' is not a selector: {EXPECTED} is needed")))
    }
}
