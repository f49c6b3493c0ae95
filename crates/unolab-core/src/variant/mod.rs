//! The validated variant: a table (deck, colours, symbols, sizes) plus the
//! layers of rules on it (the variant's own scripts, then each house rule).
//! `selector` is the `match:` language. Loading builds this model from the
//! YAML as written (the `unolab-load` crate); nothing here reads files:
//! they come in as `SourceFile`s.

pub mod selector;

use std::collections::BTreeMap;

use crate::card::{CardDef, CardId, Color, Face, Side, Value};
use crate::notation::Names;
use crate::source::{Position, SourceFile};

use selector::Selector;
pub use selector::{SelectorSpec, TopNeed};

/// A value of a setting, as scripts read it with `option(NAME)`: a
/// `ScriptValue` that may cross threads (see there).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum OptionValue {
    Bool(bool),
    Int(i64),
    Text(String),
}

impl OptionValue {
    /// Values, as a list in words.
    pub fn listed(values: &[OptionValue]) -> String {
        values.iter().map(OptionValue::to_string).collect::<Vec<_>>().join(", ")
    }
}

impl std::fmt::Display for OptionValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Int(i) => write!(f, "{i}"),
            OptionValue::Text(s) => write!(f, "{s}"),
        }
    }
}

/// Faces whose play names a target player, as a layer writes it
/// (`targets:`).
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetSpec {
    /// Which faces (same selectors as hooks).
    #[serde(rename = "match")]
    pub selector: SelectorSpec,
    /// Only when played on the flex side (`true`) or the regular side (`false`).
    pub flex: Option<bool>,
    /// Must the player name a target (else it is optional)?
    #[serde(default)]
    pub required: bool,
    /// With `required`: must it also on the player's last card? `false`
    /// where the card's effect on its target is ignored when it goes out
    /// (a 7's swap, rules.md 1.6); default `true` (a targeted draw still
    /// happens).
    #[serde(default = "yes")]
    pub required_on_last_card: bool,
    /// Where the layer's file writes each alternative of its `match:`,
    /// where known.
    #[serde(skip)]
    pub match_places: Vec<Option<Position>>,
}

fn yes() -> bool {
    true
}

/// Who may take an action a rule declares, and when (`when:`). Never
/// while a decision is owed; the player to play only before it draws.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ActWhen {
    /// `turn`: the player to play, instead of playing or drawing.
    #[default]
    Turn,
    /// `out of turn`: any other seat still in the hand, as a jump-in.
    OutOfTurn,
    /// `any seat`: both.
    AnySeat,
}

impl ActWhen {
    /// The words `when:` takes, and what each means.
    pub const ALL: [(&'static str, ActWhen); 3] =
        [("turn", ActWhen::Turn), ("out of turn", ActWhen::OutOfTurn), ("any seat", ActWhen::AnySeat)];

    /// The value `when:` names (words separated by spaces, `-` or `_`, in
    /// any case).
    pub fn parse(text: &str) -> Option<ActWhen> {
        let words: Vec<String> =
            text.split([' ', '-', '_']).filter(|w| !w.is_empty()).map(str::to_ascii_lowercase).collect();
        let words = words.join(" ");
        ActWhen::ALL.iter().find(|(name, _)| *name == words).map(|(_, when)| *when)
    }

    /// How `when:` names it.
    pub fn name(self) -> &'static str {
        ActWhen::ALL.iter().find(|(_, when)| *when == self).map_or("turn", |(name, _)| name)
    }

    /// May the player to play take it (before it draws)?
    pub fn in_turn(self) -> bool {
        self != ActWhen::OutOfTurn
    }

    /// May the other seats take it?
    pub fn out_of_turn(self) -> bool {
        self != ActWhen::Turn
    }
}

/// An action a layer declares (`actions:`): something the player whose
/// turn it is may do instead of playing or drawing, or another seat out of
/// turn, as a rule says.
#[derive(Debug, Clone)]
pub struct ActionSpec {
    /// One word: how a player names it (`act trade red 5`).
    pub name: String,
    pub description: String,
    /// It takes one of the player's cards (its functions are given it).
    pub card: bool,
    /// It takes another player still in the hand (`target()`).
    pub target: bool,
    /// A predicate: may the player take it now (with this card, at this
    /// target)? Left out: whenever the player may play or draw.
    pub available: Option<String>,
    /// Its effect (an effect hook): then the turn moves on, as after a play.
    pub call: String,
    /// Who may take it, and when.
    pub when: ActWhen,
    /// Where the layer's file writes the name, `available:` and `call:`,
    /// where known.
    pub name_at: Option<Position>,
    pub available_at: Option<Position>,
    pub call_at: Option<Position>,
}

/// An action bound to its functions (`Variant::actions`).
#[derive(Debug, Clone)]
pub struct RuleAction {
    pub name: String,
    pub description: String,
    pub card: bool,
    pub target: bool,
    pub when: ActWhen,
    pub available: Option<FnRef>,
    pub effect: FnRef,
}

/// Where a hook runs. Card hooks are bound per face with `match:`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HookKind {
    /// `fn(card)`: the effect of a played card.
    OnPlay,
    /// `fn(card) -> true | false | "reason"`: may this card be played now?
    CanPlay,
    /// `fn(card)`: the card turned up as the first discard.
    FirstDiscard,
    /// `fn(card) -> bool`: may this card answer a pending penalty?
    CanRespond,
    /// `fn(card) -> bool`: may this card be played out of turn?
    CanPlayOutOfTurn,
    /// `fn(card) -> bool`: after a voluntary draw of `card`, draw again?
    DrawAgain,
    /// `fn(penalty) -> penalty`: a draw penalty is about to take effect.
    OnPenalty,
    /// `fn() -> true | false | "reason"`: may the current player draw?
    CanDraw,
    /// `fn() -> true | false | "reason"`: may the current player pass?
    CanPass,
    /// `fn(winner) -> [points per seat]`: what each seat adds when a hand ends.
    ScoreHand,
    /// `fn() -> seat | [seats] | ()`: who has won the match, if anyone.
    MatchWinner,
    /// `fn(seat)`: `seat` named the colour in play.
    OnColor,
    /// `fn(seat)`: `seat`'s turn begins.
    OnTurnStart,
    /// `fn(seat)`: `seat`'s turn is over.
    OnTurnEnd,
    /// `fn(seat)`: `seat` drew on its turn.
    OnDraw,
    /// `fn(seat)`: `seat` took a penalty (accepted it, or lost a challenge).
    OnPenaltyTaken,
    /// `fn(seat)`: `seat` called UNO.
    OnUno,
    /// `fn(seat) -> cards`: `seat` was caught without calling UNO; how many
    /// cards it draws (default: the variant's `uno_penalty`).
    OnCatch,
    /// `fn()`: the discard pile was reshuffled into the draw pile.
    OnReshuffle,
    /// `fn(winner)`: the hand is over and scored.
    OnHandEnd,
    /// `fn(choice)`: a seat chose (`#{seat, tag, value}`).
    OnChoice,
    /// `fn(card)` or `fn(seat)` -> true | false | "reason": may the player
    /// take an action a rule declares (its `available:` function)?
    ActionAvailable,
    /// `fn(card)` or `fn(seat)`: an action a rule declares is taken (its
    /// `call:` function).
    OnAction,
}

/// What a hook may do, enforced where the host functions are registered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HookMode {
    /// Answers a question; may read the table, change nothing, log nothing.
    Predicate,
    /// Changes only the value it is given and returns; may read the table.
    Transform,
    /// Changes the table through the host's functions.
    Effect,
}

impl HookKind {
    pub const ALL: [HookKind; 23] = [
        HookKind::OnPlay,
        HookKind::CanPlay,
        HookKind::FirstDiscard,
        HookKind::CanRespond,
        HookKind::CanPlayOutOfTurn,
        HookKind::DrawAgain,
        HookKind::OnPenalty,
        HookKind::CanDraw,
        HookKind::CanPass,
        HookKind::ScoreHand,
        HookKind::MatchWinner,
        HookKind::OnColor,
        HookKind::OnTurnStart,
        HookKind::OnTurnEnd,
        HookKind::OnDraw,
        HookKind::OnPenaltyTaken,
        HookKind::OnUno,
        HookKind::OnCatch,
        HookKind::OnReshuffle,
        HookKind::OnHandEnd,
        HookKind::OnChoice,
        HookKind::ActionAvailable,
        HookKind::OnAction,
    ];

    pub fn name(self) -> &'static str {
        match self {
            HookKind::OnPlay => "on_play",
            HookKind::CanPlay => "can_play",
            HookKind::FirstDiscard => "first_discard",
            HookKind::CanRespond => "can_respond",
            HookKind::CanPlayOutOfTurn => "can_play_out_of_turn",
            HookKind::DrawAgain => "draw_again",
            HookKind::OnPenalty => "on_penalty",
            HookKind::CanDraw => "can_draw",
            HookKind::CanPass => "can_pass",
            HookKind::ScoreHand => "score_hand",
            HookKind::MatchWinner => "match_winner",
            HookKind::OnColor => "on_color",
            HookKind::OnTurnStart => "on_turn_start",
            HookKind::OnTurnEnd => "on_turn_end",
            HookKind::OnDraw => "on_draw",
            HookKind::OnPenaltyTaken => "on_penalty_taken",
            HookKind::OnUno => "on_uno",
            HookKind::OnCatch => "on_catch",
            HookKind::OnReshuffle => "on_reshuffle",
            HookKind::OnHandEnd => "on_hand_end",
            HookKind::OnChoice => "on_choice",
            HookKind::ActionAvailable => "available",
            HookKind::OnAction => "action",
        }
    }

    /// The hook `name` names under `hooks:` (an action's functions are
    /// named with the action, not there).
    pub fn parse(name: &str) -> Option<HookKind> {
        HookKind::ALL.into_iter().filter(|k| !k.is_action()).find(|k| k.name() == name)
    }

    /// The functions of an action a rule declares (`actions:`).
    pub fn is_action(self) -> bool {
        matches!(self, HookKind::ActionAvailable | HookKind::OnAction)
    }

    /// Card hooks take the card and may be bound to some faces only.
    pub fn is_card_hook(self) -> bool {
        (self as usize) < 6
    }

    /// Card hooks about a play of the card, on one of its sides (a binding
    /// may choose the side: `flex`).
    pub fn is_about_a_play(self) -> bool {
        matches!(self, HookKind::OnPlay | HookKind::CanPlay | HookKind::CanRespond | HookKind::CanPlayOutOfTurn)
    }

    /// Card hooks asked about the card on top of the discard pile (it has
    /// landed): their `match:` cannot compare it with the top card.
    pub fn asks_about_the_top(self) -> bool {
        matches!(self, HookKind::OnPlay | HookKind::FirstDiscard)
    }

    /// Hooks on a moment of the game other than a card's play.
    pub fn is_moment(self) -> bool {
        self >= HookKind::OnColor && !self.is_action()
    }

    /// Predicates whose hooks may grant a play (`grants: true`, `"allow"`).
    pub fn can_grant(self) -> bool {
        matches!(self, HookKind::CanPlay | HookKind::CanRespond | HookKind::CanPlayOutOfTurn)
    }

    /// Predicates that may answer no with a reason why not (their answers
    /// are combined so that every one must say yes, and a refusal is put
    /// into words): the others say yes or no.
    pub fn takes_reasons(self) -> bool {
        matches!(self, HookKind::CanPlay | HookKind::CanDraw | HookKind::CanPass | HookKind::ActionAvailable)
    }

    /// Arguments the script function takes.
    pub fn arity(self) -> usize {
        match self {
            HookKind::CanDraw | HookKind::CanPass | HookKind::MatchWinner | HookKind::OnReshuffle => 0,
            _ => 1,
        }
    }

    pub fn mode(self) -> HookMode {
        match self {
            HookKind::OnPlay
            | HookKind::FirstDiscard
            | HookKind::OnColor
            | HookKind::OnTurnStart
            | HookKind::OnTurnEnd
            | HookKind::OnDraw
            | HookKind::OnPenaltyTaken
            | HookKind::OnUno
            | HookKind::OnReshuffle
            | HookKind::OnHandEnd
            | HookKind::OnChoice
            | HookKind::OnAction => HookMode::Effect,
            HookKind::OnPenalty | HookKind::ScoreHand | HookKind::OnCatch => HookMode::Transform,
            HookKind::CanPlay
            | HookKind::CanRespond
            | HookKind::CanPlayOutOfTurn
            | HookKind::DrawAgain
            | HookKind::CanDraw
            | HookKind::CanPass
            | HookKind::MatchWinner
            | HookKind::ActionAvailable => HookMode::Predicate,
        }
    }

    /// Does the hook give one answer for the whole table, so that only the
    /// last function bound to it is asked (`Game::last_global_answer`)?
    pub fn answered_once(self) -> bool {
        matches!(self, HookKind::ScoreHand | HookKind::MatchWinner | HookKind::OnCatch)
    }
}

/// A script function of one layer, bound to a hook.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FnRef {
    pub layer: usize,
    pub function: String,
    /// The hook it serves.
    pub kind: HookKind,
    /// Unique per layer, function and hook: what the memo keys calls by.
    pub id: u32,
    /// What the face it is bound to needs of the top card for it to be
    /// asked (a `match:` with `top` words; always, otherwise).
    pub top: TopNeed,
}

/// The functions of a hook asked about a face now: those bound to it whose
/// `match:` picks it with the top card as it is (`TopNeed::holds`). Where
/// no function of the hook relates faces to the top card, all of them,
/// with nothing looked at.
#[derive(Debug, Clone)]
pub struct Asked<'a> {
    fns: std::slice::Iter<'a, FnRef>,
    /// The face asked about and the top card, where a function of the
    /// hook needs them.
    picks: Option<Picks<'a>>,
}

/// What `Asked` looks at: a card on its side, and the top card.
#[derive(Debug, Clone, Copy)]
struct Picks<'a> {
    variant: &'a Variant,
    card: CardId,
    side: Side,
    top: Option<CardId>,
}

impl Picks<'_> {
    /// Is `f` asked about the card, with the top card as it is?
    #[inline(always)]
    fn asks(self, f: &FnRef) -> bool {
        f.top.always() || self.picks(f.top)
    }

    /// Does the card meet `need`, with the top card as it is?
    #[inline(never)]
    fn picks(self, need: TopNeed) -> bool {
        let top = self.top.map(|top| self.variant.face(top, self.side));
        need.holds(self.variant.face(self.card, self.side), top)
    }
}

impl<'a> Asked<'a> {
    /// Every function of a hook that takes no card.
    pub fn all(variant: &'a Variant, kind: HookKind) -> Asked<'a> {
        Asked::each(variant.global_hook(kind))
    }

    /// Each of `fns`, whatever the top card.
    pub fn each(fns: &'a [FnRef]) -> Asked<'a> {
        Asked { fns: fns.iter(), picks: None }
    }

    /// Is no function asked?
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        match self.picks {
            None => self.fns.len() == 0,
            Some(picks) => !self.fns.clone().any(|f| picks.asks(f)),
        }
    }
}

impl<'a> Iterator for Asked<'a> {
    type Item = &'a FnRef;

    #[inline(always)]
    fn next(&mut self) -> Option<&'a FnRef> {
        let Some(picks) = self.picks else { return self.fns.next() };
        self.fns.find(|f| picks.asks(f))
    }
}

/// Whether a play of a face names a target player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, PartialOrd, Ord)]
pub enum TargetNeed {
    #[default]
    None,
    Optional,
    /// Required, but for a player's last card (`required_on_last_card:
    /// false`).
    RequiredButLast,
    Required,
}

/// One hook binding of a layer: a function for a hook, on some faces.
#[derive(Debug, Clone)]
pub struct Binding {
    pub kind: HookKind,
    pub function: String,
    /// The faces it is bound to (card hooks; `None`: all).
    pub selector: Option<SelectorSpec>,
    /// Asked about cards that do not match, and may allow them.
    pub grants: bool,
    /// Asked only about plays of the flex side (`true`) or of the regular
    /// side (`false`); `None`: both.
    pub flex: Option<bool>,
    /// Where the layer's file names the function (`call:`) and each
    /// alternative of the faces (`match:`), where known: a problem with
    /// either is told there.
    pub call_at: Option<Position>,
    pub match_places: Vec<Option<Position>>,
}

/// Where a selector names what the variant lacks: `(it has no draw2)`.
fn lacking_names(selector: &Selector) -> String {
    match selector.lacking() {
        [] => String::new(),
        lacking => format!(" (it has no {})", lacking.join(", ")),
    }
}

/// Where alternative `index` of a `match:` is written (`match_places`).
fn match_place(places: &[Option<Position>], index: usize) -> Option<Position> {
    places.get(index).copied().flatten()
}

/// The variant's own rules, or one house rule.
#[derive(Debug, Clone)]
pub struct Layer {
    pub name: String,
    pub description: String,
    pub is_rule: bool,
    pub source: SourceFile,
    pub scripts: Vec<SourceFile>,
    pub hooks: Vec<Binding>,
    pub inert_in: BTreeMap<String, String>,
    pub conflicts: Vec<String>,
    /// How this rule answers one-answer hooks with another rule in play
    /// (`combines_with`): the other rule's name and this rule's binding.
    pub combines_with: Vec<(String, Binding)>,
    pub targets: Vec<TargetSpec>,
    pub actions: Vec<ActionSpec>,
}

/// A playable ruleset: the table of one variant and its rule layers.
#[derive(Debug, Clone)]
pub struct Variant {
    pub name: String,
    pub description: String,
    pub names: Names,
    pub hand_size: usize,
    pub min_players: usize,
    /// Tables seat a multiple of this many players (1: any number).
    pub players_multiple_of: usize,
    pub max_players: usize,
    pub target_score: i64,
    pub uno_penalty: u32,
    pub power_cards: u32,
    /// What the mark `*` on a number means, in words (may be empty).
    pub mark: String,
    pub double_sided: bool,
    /// Distinct card designs, in deck order.
    pub designs: Vec<CardDef>,
    /// Copies of each design.
    pub copies: Vec<u32>,
    /// Every physical card, in canonical (unshuffled) order.
    pub deck: Vec<CardId>,
    pub layers: Vec<Layer>,
    pub options: BTreeMap<String, OptionValue>,
    /// The values an option may take, where its declaration lists them.
    pub option_choices: BTreeMap<String, Vec<OptionValue>>,
    /// How many hook functions are bound (`FnRef::id` counts them).
    pub hook_functions: usize,
    /// Names of state values every seat may see (`public_state:`).
    pub public_state: std::collections::BTreeSet<String>,
    /// What loading found worth saying but not refusing (deprecated
    /// functions), each with its file, line and column.
    pub warnings: Vec<String>,
    /// The actions the layers declare, in layer order (`Action::Act`
    /// names one by its index).
    pub actions: Vec<RuleAction>,
    /// `card_hooks[kind][(design * 2 + side) * 2 + as_flex]`: functions
    /// bound to plays of that face on its regular or flex side (hooks not
    /// about a play: on the regular side).
    card_hooks: Vec<Vec<Vec<FnRef>>>,
    /// `card_hook_needs[kind][design * 2 + side]`: what the face needs of
    /// the top card for a function of that card hook to be asked about it
    /// (`card_hook_need`).
    card_hook_needs: Vec<Vec<TopNeed>>,
    /// `hook_reads_top[kind]`: does a `match:` of that card hook relate
    /// faces to the top card?
    hook_reads_top: [bool; HookKind::ALL.len()],
    /// `global_hooks[kind]`: functions of the hooks that take no card.
    global_hooks: Vec<Vec<FnRef>>,
    /// `targets[design * 2 + side]`: [regular side, flex side].
    targets: Vec<[TargetNeed; 2]>,
    /// `faces[design * 2 + side]`: what the move generator needs of that
    /// face, packed.
    faces: Vec<FaceKey>,
    /// `choices[design * 2 + side]`: the first design showing the same
    /// face on that side. Cards that differ only on their hidden side are
    /// one choice (rules.md 4.3). Empty for a one-sided deck, whose designs
    /// are each a choice.
    choices: Vec<CardId>,
    /// `hook_bound[kind]`: is any function bound to that hook, for any face?
    hook_bound: [bool; HookKind::ALL.len()],
    /// `card_hook_fns[kind]`: every function bound to that card hook, for
    /// some face, once each.
    card_hook_fns: Vec<Vec<FnRef>>,
    /// Is any hook bound to a moment (`HookKind::is_moment`)?
    moment_hooks: bool,
    /// Is any hook bound to a moment that may need the table settled after
    /// any action (all but `on_reshuffle`, looked at where a pile was
    /// turned over, and `on_hand_end`, once the hand is over)?
    moment_hooks_each_action: bool,
    /// Is any predicate hook bound?
    predicates: bool,
}

/// What a variant's own file says of its table: the deck, the names, the
/// sizes (`Variant::of_table`).
#[derive(Debug, Clone)]
pub struct VariantTable {
    pub name: String,
    pub description: String,
    pub names: Names,
    pub hand_size: usize,
    pub min_players: usize,
    pub max_players: usize,
    pub target_score: i64,
    pub uno_penalty: u32,
    pub power_cards: u32,
    pub mark: String,
    pub double_sided: bool,
    pub designs: Vec<CardDef>,
    pub copies: Vec<u32>,
    pub deck: Vec<CardId>,
}

/// The faces (slot = design * 2 + side) a selector may pick, each with
/// what it needs of the top card to be picked.
fn selected_slots(variant: &Variant, selector: &Selector) -> Vec<(usize, TopNeed)> {
    faces_by_slot(&variant.designs)
        .map(|(slot, face)| (slot, selector.top_need(&variant.names, face)))
        .filter(|&(_, need)| need != TopNeed::NEVER)
        .collect()
}

impl Variant {
    /// A variant of the table `table`, with no rules on it yet.
    pub fn of_table(table: VariantTable) -> Variant {
        let VariantTable {
            name,
            description,
            names,
            hand_size,
            min_players,
            max_players,
            target_score,
            uno_penalty,
            power_cards,
            mark,
            double_sided,
            designs,
            copies,
            deck,
        } = table;
        Variant {
            name,
            description,
            names,
            hand_size,
            min_players,
            max_players,
            players_multiple_of: 1,
            target_score,
            uno_penalty,
            power_cards,
            mark,
            double_sided,
            designs,
            copies,
            deck,
            layers: Vec::new(),
            options: BTreeMap::new(),
            option_choices: BTreeMap::new(),
            hook_functions: 0,
            public_state: Default::default(),
            warnings: Vec::new(),
            actions: Vec::new(),
            card_hooks: Vec::new(),
            card_hook_needs: Vec::new(),
            global_hooks: Vec::new(),
            targets: Vec::new(),
            faces: Vec::new(),
            choices: Vec::new(),
            hook_bound: [false; HookKind::ALL.len()],
            hook_reads_top: [false; HookKind::ALL.len()],
            card_hook_fns: Vec::new(),
            moment_hooks: false,
            moment_hooks_each_action: false,
            predicates: false,
        }
    }

    /// Puts `layers` of rules on the variant: every hook and target bound
    /// to the faces its `match:` picks, the functions numbered for the
    /// memo, and what the move generator needs of each face worked out.
    /// Selectors that do not parse are added to `problems`, with their
    /// places; `elsewhere` are the names (lower case) of symbols and colours
    /// other variants know, which pick nothing here rather than being
    /// refused (`Selector::parse_in`).
    pub fn bind(&mut self, layers: Vec<Layer>, elsewhere: &[String], problems: &mut Vec<String>) {
        bind_hooks(self, &layers, elsewhere, problems);
        self.layers = layers;
    }
}

fn bind_hooks(variant: &mut Variant, layers: &[Layer], elsewhere: &[String], problems: &mut Vec<String>) {
    let slots = variant.designs.len() * 2;
    variant.card_hooks = vec![vec![Vec::new(); slots * 2]; HookKind::ALL.len()];
    variant.card_hook_needs = vec![vec![TopNeed::NEVER; slots]; HookKind::ALL.len()];
    variant.global_hooks = vec![Vec::new(); HookKind::ALL.len()];
    variant.card_hook_fns = vec![Vec::new(); HookKind::ALL.len()];
    variant.targets = vec![[TargetNeed::None; 2]; slots];
    // Per slot: a hook that may allow the face without matching is bound
    // (any such hook; and a `can_play` one, which concerns plays in turn).
    let mut grants = vec![false; slots];
    let mut grants_in_turn = vec![false; slots];
    let mut ids: Vec<(usize, &str, HookKind)> = Vec::new();
    for (layer_index, layer) in layers.iter().enumerate() {
        for binding in &layer.hooks {
            let name = (layer_index, binding.function.as_str(), binding.kind);
            let id = ids.iter().position(|known| *known == name).unwrap_or_else(|| {
                ids.push(name);
                ids.len() - 1
            });
            let fn_ref = FnRef {
                layer: layer_index,
                function: binding.function.clone(),
                kind: binding.kind,
                id: id as u32,
                top: TopNeed::ALWAYS,
            };
            if !binding.kind.is_card_hook() {
                variant.global_hooks[binding.kind as usize].push(fn_ref);
                continue;
            }
            match Selector::parse_in(&variant.names, elsewhere, binding.selector.as_ref()) {
                Ok(selector) if selector.reads_top() && binding.kind.asks_about_the_top() => {
                    problems.push(layer.source.problem(
                        match_place(&binding.match_places, 0),
                        format!(
                            "{} is asked about the card on top of the discard pile, so its match cannot \
                             relate the card to the top card (top words)",
                            binding.kind.name()
                        ),
                    ));
                }
                Ok(selector) => {
                    let slots = selected_slots(variant, &selector);
                    if slots.is_empty() && !layer.inert_in.contains_key(&variant.name) {
                        let alternatives = binding.selector.as_ref().map(|s| s.alternatives()).unwrap_or_default();
                        let written = alternatives.join(", ");
                        variant.warnings.push(layer.source.problem(
                            match_place(&binding.match_places, 0),
                            format!(
                                "match: {written} selects no card of {}{}, so {} hook {} is never asked here \
                                 (inert_in: {{{}: why}} says that is meant)",
                                variant.name,
                                lacking_names(&selector),
                                binding.kind.name(),
                                binding.function,
                                variant.name
                            ),
                        ));
                    }
                    let bound = &mut variant.card_hook_fns[binding.kind as usize];
                    if !slots.is_empty() && !bound.iter().any(|known| known.id == fn_ref.id) {
                        bound.push(fn_ref.clone());
                    }
                    // A hook not about a play is asked as of the regular side.
                    let sides = match binding.flex {
                        _ if !binding.kind.is_about_a_play() => &[false][..],
                        Some(as_flex) => &[as_flex][..],
                        None => &[false, true][..],
                    };
                    for (slot, top) in slots {
                        let need = &mut variant.card_hook_needs[binding.kind as usize][slot];
                        *need = need.or(top);
                        variant.hook_reads_top[binding.kind as usize] |= !top.always();
                        for &as_flex in sides {
                            let fn_ref = FnRef { top, ..fn_ref.clone() };
                            variant.card_hooks[binding.kind as usize][play_slot(slot, as_flex)].push(fn_ref);
                        }
                        grants[slot] |= binding.grants;
                        grants_in_turn[slot] |= binding.grants && binding.kind == HookKind::CanPlay;
                    }
                }
                Err(e) => problems.push(layer.source.problem(match_place(&binding.match_places, e.index), &e)),
            }
        }
        for target in &layer.targets {
            let need = match (target.required, target.required_on_last_card) {
                (false, _) => TargetNeed::Optional,
                (true, false) => TargetNeed::RequiredButLast,
                (true, true) => TargetNeed::Required,
            };
            match Selector::parse_in(&variant.names, elsewhere, Some(&target.selector)) {
                Ok(selector) if selector.reads_top() => problems.push(layer.source.problem(
                    match_place(&target.match_places, 0),
                    "a target is decided once, at load, so its match cannot relate a card to the top card (top words)",
                )),
                Ok(selector) => {
                    let slots = selected_slots(variant, &selector);
                    if slots.is_empty() && !selector.lacking().is_empty() && !layer.inert_in.contains_key(&variant.name)
                    {
                        variant.warnings.push(layer.source.problem(
                            match_place(&target.match_places, 0),
                            format!(
                                "target match: {} selects no card of {}{} (inert_in: {{{}: why}} says that is meant)",
                                target.selector.alternatives().join(", "),
                                variant.name,
                                lacking_names(&selector),
                                variant.name
                            ),
                        ));
                    }
                    for (slot, _) in slots {
                        for (as_flex, entry) in variant.targets[slot].iter_mut().enumerate() {
                            if target.flex.is_none_or(|f| f == (as_flex == 1)) {
                                *entry = (*entry).max(need);
                            }
                        }
                    }
                }
                Err(e) => problems.push(layer.source.problem(match_place(&target.match_places, e.index), &e)),
            }
        }
    }
    variant.actions.clear();
    for (layer_index, layer) in layers.iter().enumerate() {
        for spec in &layer.actions {
            let available =
                spec.available.as_deref().map(|f| action_fn(&mut ids, layer_index, f, HookKind::ActionAvailable));
            let effect = action_fn(&mut ids, layer_index, &spec.call, HookKind::OnAction);
            variant.actions.push(RuleAction {
                name: spec.name.clone(),
                description: spec.description.clone(),
                card: spec.card,
                target: spec.target,
                when: spec.when,
                available,
                effect,
            });
        }
    }
    variant.hook_functions = ids.len();
    variant.faces = faces_by_slot(&variant.designs)
        .map(|(slot, face)| {
            let plain_side = |as_flex: bool| {
                variant.targets[slot][usize::from(as_flex)] == TargetNeed::None
                    && variant.card_hooks[HookKind::CanPlay as usize][play_slot(slot, as_flex)].is_empty()
                    && !grants_in_turn[slot]
            };
            let plain = !variant.names.has_flex_side(face) && plain_side(false) && plain_side(true);
            FaceKey::new(face, &variant.names, (plain, plain_side(false)), grants[slot])
        })
        .collect();
    // One-sided, each design is a choice of its own (`Variant::choice`).
    if variant.double_sided {
        let mut first_with_face = std::collections::HashMap::new();
        variant.choices = faces_by_slot(&variant.designs)
            .map(|(slot, face)| *first_with_face.entry((slot % 2, *face)).or_insert(CardId((slot / 2) as u16)))
            .collect();
    }
    for kind in HookKind::ALL {
        variant.hook_bound[kind as usize] = if kind.is_card_hook() {
            !variant.card_hook_fns[kind as usize].is_empty()
        } else {
            !variant.global_hooks[kind as usize].is_empty()
        };
    }
    variant.moment_hooks = HookKind::ALL.iter().any(|&kind| kind.is_moment() && variant.hook_bound[kind as usize]);
    variant.moment_hooks_each_action = HookKind::ALL.iter().any(|&kind| {
        kind.is_moment()
            && !matches!(kind, HookKind::OnReshuffle | HookKind::OnHandEnd)
            && variant.hook_bound[kind as usize]
    });
    variant.predicates =
        HookKind::ALL.iter().any(|&kind| kind.mode() == HookMode::Predicate && variant.hook_bound[kind as usize])
            || variant.actions.iter().any(|action| action.available.is_some());
}

/// An action's function, numbered among the hook functions (`ids`).
fn action_fn<'a>(ids: &mut Vec<(usize, &'a str, HookKind)>, layer: usize, function: &'a str, kind: HookKind) -> FnRef {
    let name = (layer, function, kind);
    let id = ids.iter().position(|known| *known == name).unwrap_or_else(|| {
        ids.push(name);
        ids.len() - 1
    });
    FnRef { layer, function: function.to_string(), kind, id: id as u32, top: TopNeed::ALWAYS }
}

/// What the move generator needs to know of a face, packed into numbers,
/// so that the common play is checked without looking names up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FaceKey {
    /// The face's colour, or `FaceKey::WILD`.
    color: u8,
    /// What matches by value: the number, or 256 + the symbol's group.
    value: u16,
    /// The number, or 256 + the symbol (what `top:value` compares).
    exact: u16,
    /// A play of this face in turn depends on matching alone (no flex
    /// side, no target, no `can_play` hook; a hook that grants answers or
    /// plays out of turn does not concern plays in turn).
    pub plain: bool,
    /// A play of this face's regular side in turn depends on matching
    /// alone (no target, no `can_play` hook): of a
    /// face that is not plain, only the flex side is asked about.
    pub regular_plain: bool,
    /// A play of the face names a colour.
    pub names_color: bool,
    /// The face's flex colour, or `FaceKey::WILD` (none).
    flex: u8,
    /// A hook may grant a play of the face, matching or not.
    grants: bool,
}

impl FaceKey {
    const WILD: u8 = u8::MAX;
    /// The colour of a table where none is in play (matches no face).
    const NO_COLOR: u8 = u8::MAX - 1;

    pub fn new(face: &Face, names: &Names, (plain, regular_plain): (bool, bool), grants: bool) -> FaceKey {
        let (value, exact) = match face.value {
            Value::Number(n) => (u16::from(n), u16::from(n)),
            Value::Symbol(s) => (256 + u16::from(names.symbol_info(s).group), 256 + u16::from(s)),
        };
        FaceKey {
            color: face.color.unwrap_or(Self::WILD),
            value,
            exact,
            plain,
            regular_plain,
            names_color: names.names_color(face),
            flex: face.flex.unwrap_or(Self::WILD),
            grants,
        }
    }

    /// Does the face match a discard pile showing colour `color` and a top
    /// card keyed `top` (regular side, as `Table::matches`)?
    #[inline(always)]
    pub fn matches(self, color: Option<Color>, top: Option<FaceKey>) -> bool {
        // `|`, not `||`: one branch on the outcome, not one on each test
        // (which cards match is as good as random, so each branch would
        // be mispredicted often).
        (self.color == Self::WILD)
            | (self.color == color.unwrap_or(Self::NO_COLOR))
            | top.is_none_or(|top| top.value == self.value)
    }

    /// Is the face picked by a `match:` that needs `need` of the top card
    /// (keyed `top`), as `TopNeed::holds` says of their faces?
    #[inline(always)]
    pub fn picked(self, need: TopNeed, top: Option<FaceKey>) -> bool {
        need.always()
            || top.is_some_and(|top| {
                need.met(self.color != Self::WILD && self.color == top.color, self.exact == top.exact)
            })
    }

    /// Could the face be played on some side, as far as matching goes: it
    /// matches on its regular side or by its flex colour (as
    /// `Table::matches`), or a hook may grant it.
    #[inline(always)]
    pub fn may_match(self, color: Option<Color>, top: Option<FaceKey>) -> bool {
        self.grants | self.matches(color, top) | self.flex_matches(color)
    }

    /// Does the face's flex colour match colour `color`?
    #[inline(always)]
    pub fn flex_matches(self, color: Option<Color>) -> bool {
        self.flex == color.unwrap_or(Self::NO_COLOR)
    }
}

/// The slot of a face in the per-face tables (and in tables of faces
/// kept elsewhere, such as the memo's `CardWords`).
pub fn slot(id: CardId, side: Side) -> usize {
    id.0 as usize * 2 + usize::from(side == Side::Dark)
}

/// Every face by slot (`slot`): a one-sided design shows its light face on
/// both sides.
pub fn faces_by_slot(designs: &[CardDef]) -> impl Iterator<Item = (usize, &Face)> {
    designs.iter().flat_map(|design| [design.face(Side::Light), design.face(Side::Dark)]).enumerate()
}

/// Where `card_hooks` keeps the functions bound to plays of the face in
/// `slot` on its flex side (`as_flex`) or its regular side.
fn play_slot(slot: usize, as_flex: bool) -> usize {
    slot * 2 + usize::from(as_flex)
}

impl Variant {
    pub fn design(&self, id: CardId) -> &CardDef {
        &self.designs[id.0 as usize]
    }

    pub fn face(&self, id: CardId, side: Side) -> &Face {
        self.designs[id.0 as usize].face(side)
    }

    pub fn card_name(&self, id: CardId) -> String {
        self.names.format_card(self.design(id))
    }

    pub fn face_name(&self, id: CardId, side: Side) -> String {
        self.names.format_face(self.face(id, side))
    }

    /// The functions of a card hook asked about this face now, for a play
    /// of its flex side or not (`as_flex`; false for hooks not about a
    /// play), while `top` is the top card of the discard pile.
    #[inline(always)]
    pub fn card_hook(&self, kind: HookKind, id: CardId, side: Side, as_flex: bool, top: Option<CardId>) -> Asked<'_> {
        let fns = self.card_hook_bound(kind, id, side, as_flex).iter();
        let picks = self.hook_reads_top[kind as usize].then_some(Picks { variant: self, card: id, side, top });
        Asked { fns, picks }
    }

    /// The functions of a card hook bound to this face, whatever the top
    /// card: those `card_hook` may ask.
    #[inline(always)]
    pub fn card_hook_bound(&self, kind: HookKind, id: CardId, side: Side, as_flex: bool) -> &[FnRef] {
        &self.card_hooks[kind as usize][play_slot(slot(id, side), as_flex)]
    }

    /// What this face needs of the top card for some function of a card
    /// hook to be asked about it, for a play of either side
    /// (`TopNeed::NEVER`: none is bound to it).
    #[inline(always)]
    pub fn card_hook_need(&self, kind: HookKind, id: CardId, side: Side) -> TopNeed {
        self.card_hook_needs(kind)[slot(id, side)]
    }

    /// `card_hook_need` of every face, by slot (`slot`).
    #[inline(always)]
    pub fn card_hook_needs(&self, kind: HookKind) -> &[TopNeed] {
        &self.card_hook_needs[kind as usize]
    }

    /// Every function bound to the card hook `kind`, for some face, once
    /// each.
    pub fn card_hook_fns(&self, kind: HookKind) -> &[FnRef] {
        &self.card_hook_fns[kind as usize]
    }

    /// Is any function bound to this hook kind, for any face?
    pub fn has_hook(&self, kind: HookKind) -> bool {
        self.hook_bound[kind as usize]
    }

    /// Is any hook bound to a moment of the game other than a card's play
    /// (a colour named, a turn, a draw, a choice...)?
    pub fn has_moment_hooks(&self) -> bool {
        self.moment_hooks
    }

    /// Is any hook bound to a moment other than `on_reshuffle` and
    /// `on_hand_end` (which only a reshuffle or the end of the hand sets
    /// off)?
    pub fn has_moment_hooks_each_action(&self) -> bool {
        self.moment_hooks_each_action
    }

    /// Does a rule declare an action a seat may take out of turn?
    pub fn has_out_of_turn_actions(&self) -> bool {
        self.actions.iter().any(|action| action.when.out_of_turn())
    }

    /// Is any predicate hook bound (a rule that may be asked while moves
    /// are worked out)?
    pub fn has_predicates(&self) -> bool {
        self.predicates
    }

    /// Does a play of this face (on its flex side or not) name a target?
    pub fn target_need(&self, id: CardId, side: Side, as_flex: bool) -> TargetNeed {
        self.targets[slot(id, side)][usize::from(as_flex)]
    }

    /// The face of a card on `side`, packed for the move generator.
    #[inline(always)]
    pub fn face_key(&self, id: CardId, side: Side) -> FaceKey {
        self.faces[slot(id, side)]
    }

    /// Which choice a card is, showing `side`: the first design with the
    /// same face on that side (one-sided, the design itself).
    #[inline(always)]
    pub fn choice(&self, id: CardId, side: Side) -> CardId {
        if self.double_sided { self.choices[slot(id, side)] } else { id }
    }

    /// Is a hook bound to this face that may allow it without matching
    /// (`grants: true`)?
    pub fn grants(&self, id: CardId, side: Side) -> bool {
        self.faces[slot(id, side)].grants
    }

    /// The action a player names `name` (its index in `actions`), in any
    /// case.
    pub fn action_named(&self, name: &str) -> Option<usize> {
        self.actions.iter().position(|action| action.name.eq_ignore_ascii_case(name))
    }

    pub fn global_hook(&self, kind: HookKind) -> &[FnRef] {
        &self.global_hooks[kind as usize]
    }

    pub fn rule_names(&self) -> Vec<&str> {
        self.layers.iter().filter(|l| l.is_rule).map(|l| l.name.as_str()).collect()
    }

    /// The variant and its house rules in a few words: `classic + stacking`.
    pub fn title(&self) -> String {
        std::iter::once(self.name.as_str()).chain(self.rule_names()).collect::<Vec<_>>().join(" + ")
    }

    /// The colours of `side`, as a range of colour indices (every colour of
    /// a one-sided deck).
    pub fn colors_of(&self, side: Side) -> std::ops::Range<Color> {
        let (all, light) = (self.names.colors.len() as Color, self.names.light_colors as Color);
        match (self.double_sided, side) {
            (false, _) => 0..all,
            (true, Side::Light) => 0..light,
            (true, Side::Dark) => light..all,
        }
    }

    /// What the rule layers say about themselves in this variant: the rules
    /// (or halves of rules) that can never trigger here.
    pub fn notes(&self) -> Vec<String> {
        self.layers
            .iter()
            .filter_map(|layer| layer.inert_in.get(&self.name).map(|why| format!("{}: {why}", layer.name)))
            .collect()
    }

    /// The options in force, a line each: `option NAME = VALUE`, and the
    /// values it may take where its declaration lists them.
    pub fn options_in_words(&self) -> impl Iterator<Item = String> + '_ {
        self.options.iter().map(|(name, value)| match self.option_choices.get(name) {
            Some(choices) => format!("option {name} = {value} (of {})", OptionValue::listed(choices)),
            None => format!("option {name} = {value}"),
        })
    }

    /// What is in play, a line each: the variant and its description, each
    /// house rule with its description, the options in force and the
    /// notes (rules that cannot trigger here).
    pub fn summary(&self) -> Vec<String> {
        let mut lines = vec![format!("{}: {}", self.name, self.description)];
        for layer in self.layers.iter().filter(|l| l.is_rule) {
            lines.push(format!("  + {}: {}", layer.name, layer.description));
        }
        lines.extend(self.options_in_words().map(|line| format!("  {line}")));
        for note in self.notes() {
            lines.push(format!("  note: {note}"));
        }
        lines
    }

    /// The rule sheet: `summary`, then the table (players, hand size,
    /// target) and what each kind of card does, with how many the deck
    /// holds (counting both faces of double-sided cards) and its points.
    /// `players` is the table in play, if there is one.
    pub fn rule_sheet(&self, players: Option<usize>) -> Vec<String> {
        let mut lines = self.summary();
        let table = match players {
            Some(n) => format!("{n} players"),
            None if self.players_multiple_of > 1 => format!(
                "{} to {} players (a multiple of {})",
                self.min_players, self.max_players, self.players_multiple_of
            ),
            None => format!("{} to {} players", self.min_players, self.max_players),
        };
        lines.push(format!(
            "  {table}, {} cards each, first to {} points wins the match; {} cards in the box",
            self.hand_size,
            self.target_score,
            self.total_cards()
        ));
        let faces = |pick: &dyn Fn(&Face) -> bool| -> usize {
            self.designs
                .iter()
                .zip(&self.copies)
                .map(|(design, &copies)| {
                    let sides = std::iter::once(&design.light).chain(design.dark.as_ref());
                    sides.filter(|f| pick(f)).count() * copies as usize
                })
                .sum()
        };
        lines.push("cards:".into());
        let numbers = faces(&|f| matches!(f.value, crate::card::Value::Number(_)));
        lines.push(format!(
            "  numbers ({numbers} faces): play on the same colour or the same number; points as printed"
        ));
        let two_colour = faces(&|f| f.flex.is_some());
        if two_colour > 0 {
            lines.push(format!(
                "  two-colour cards ({two_colour} faces), written red/blue 6: the second colour is the flex side's"
            ));
        }
        let marked = faces(&|f| f.marked);
        if marked > 0 {
            let means = if self.mark.is_empty() { "(no description)" } else { &self.mark };
            lines.push(format!("  marked * ({marked} faces), written red 6*: {means}"));
        }
        for (id, symbol) in self.names.symbols.iter().enumerate() {
            let count = faces(&|f| f.symbol() == Some(id as crate::card::SymbolId));
            let description = if symbol.description.is_empty() { "(no description)" } else { &symbol.description };
            lines.push(format!("  {} ({count} faces, {} points): {description}", symbol.name, symbol.points));
            if symbol.restricted {
                lines.push(format!(
                    "    legal only for a player who holds no card of the colour in play (rules.md 1.4); played \
                     anyway, unless a house rule forbids it, a {} is a bluff the player it hits may challenge",
                    symbol.name
                ));
            }
        }
        if self.power_cards > 0 {
            lines.push(format!("  Power Cards: {}, one per player", self.power_cards));
        }
        if !self.actions.is_empty() {
            let marked = if self.has_out_of_turn_actions() { ", unless marked" } else { "" };
            lines.push(format!("actions (on your turn, instead of playing or drawing{marked}):"));
            for action in &self.actions {
                let card = if action.card { " CARD" } else { "" };
                let target = if action.target { " target P" } else { "" };
                let about = if action.description.is_empty() { "(no description)" } else { &action.description };
                let when = match action.when {
                    ActWhen::Turn => "",
                    ActWhen::OutOfTurn => " (out of turn)",
                    ActWhen::AnySeat => " (by any player, in turn or out of turn)",
                };
                lines.push(format!("  act {}{card}{target}: {about}{when}", action.name));
            }
        }
        lines
    }

    /// The player counts this ruleset seats, smallest first.
    pub fn table_sizes(&self) -> impl Iterator<Item = usize> + '_ {
        (self.min_players..=self.max_players).filter(|n| n % self.players_multiple_of.max(1) == 0)
    }

    /// `players` may sit at this ruleset's table; if not, why.
    pub fn seats(&self, players: usize) -> Result<(), String> {
        if self.table_sizes().any(|n| n == players) {
            return Ok(());
        }
        let sizes = if self.players_multiple_of > 1 {
            format!("{} to {} players, a multiple of {}", self.min_players, self.max_players, self.players_multiple_of)
        } else {
            format!("{} to {} players", self.min_players, self.max_players)
        };
        Err(format!("{} is for {sizes}, not {players}", self.title()))
    }

    /// Total cards in the box: the deck plus Power Cards.
    pub fn total_cards(&self) -> usize {
        self.deck.len() + self.power_cards as usize
    }
}
