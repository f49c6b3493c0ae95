//! The raw, deserialized form of variant and house-rule YAML files, exactly
//! as written. Nothing here is checked beyond YAML types; `build`
//! validates a spec into the model and reports every problem at once.

use std::collections::BTreeMap;

use serde::Deserialize;
use unolab_core::variant::{SelectorSpec, TargetSpec};

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
    pub colors: Vec<String>,
    /// Colours of the dark side of a double-sided deck.
    #[serde(default)]
    pub dark_colors: Vec<String>,
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
    pub symbols: BTreeMap<String, SymbolSpec>,
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
    pub scripts: Vec<String>,
    /// Which script function runs where.
    #[serde(default)]
    pub hooks: BTreeMap<String, Vec<HookSpec>>,
    /// Faces whose play names a target player (`target:` in a step).
    #[serde(default)]
    pub targets: Vec<TargetSpec>,
    /// House rules this rule cannot be combined with.
    #[serde(default)]
    pub conflicts: Vec<String>,
    /// For a house rule: variants (by name) where it can never trigger, with why.
    #[serde(default)]
    pub inert_in: BTreeMap<String, String>,
    /// For a house rule: how it combines with other house rules that answer
    /// the same one-answer hook (`score_hand`, `match_winner`, `on_catch`):
    /// by rule name, the function of this rule that answers each hook when
    /// both are in play.
    #[serde(default)]
    pub combines_with: BTreeMap<String, BTreeMap<String, String>>,
    /// Names of state values (`set_state`, `set_seat_state`) every seat may
    /// see; the rest is hidden from the players' views.
    #[serde(default)]
    pub public_state: Vec<String>,
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
    pub matches: Option<String>,
    #[serde(default)]
    pub aliases: Vec<String>,
    #[serde(default, deserialize_with = "crate::yaml::text_or_empty")]
    pub description: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeckEntry {
    /// Card notation; `{color}` expands to every colour of the light side,
    /// `{A-B}` to the numbers A to B.
    pub cards: Vec<String>,
    #[serde(default = "one")]
    pub count: u32,
}

fn one() -> u32 {
    1
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HookSpec {
    /// The Rhai function to call.
    pub call: String,
    /// Which faces the hook applies to (card hooks only): `any`, `number`,
    /// `action`, `wild`, `marked`, `flex`, a number, a symbol, `group:SYMBOL`
    /// (every symbol that matches SYMBOL), or a colour; a list means any of
    /// them, `a + b` means both.
    #[serde(default, rename = "match")]
    pub selector: Option<SelectorSpec>,
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
