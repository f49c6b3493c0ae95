//! The validated variant: a table (deck, colours, symbols, sizes) plus the
//! layers of rules on it (the variant's own scripts, then each house rule).
//! `load` turns raw specs (`crate::spec`) into this model and reports every
//! problem of every file at once, each with file, line and column.

use std::collections::BTreeMap;
use std::path::Path;

use crate::builtin;
use crate::card::{CardDef, CardId, Color, Face, Side, SymbolId, Value};
use crate::notation::{Names, Symbol};
use crate::source::SourceFile;
use crate::spec::{LayerSpec, Selector};

/// Where a hook runs. Card hooks are bound per face with `match:`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
}

impl HookKind {
    pub const ALL: [HookKind; 11] = [
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
        }
    }

    /// Card hooks take the card and may be bound to some faces only.
    pub fn is_card_hook(self) -> bool {
        (self as usize) < 6
    }

    /// Arguments the script function takes.
    pub fn arity(self) -> usize {
        match self {
            HookKind::CanDraw | HookKind::CanPass | HookKind::MatchWinner => 0,
            _ => 1,
        }
    }
}

/// A script function of one layer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FnRef {
    pub layer: usize,
    pub function: String,
}

/// Whether a play of a face names a target player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, PartialOrd, Ord)]
pub enum TargetNeed {
    #[default]
    None,
    Optional,
    Required,
}

/// Colours a variant may have, both sides together.
pub const MAX_COLORS: usize = 32;

/// A value of a setting, as scripts read it with `option(NAME)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionValue {
    Bool(bool),
    Int(i64),
    Text(String),
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

/// The variant's own rules, or one house rule.
#[derive(Debug, Clone)]
pub struct Layer {
    pub name: String,
    pub description: String,
    pub is_rule: bool,
    pub source: SourceFile,
    pub scripts: Vec<SourceFile>,
    /// Hook kind, function, and the faces it is bound to (`None`: all).
    pub hooks: Vec<(HookKind, String, Option<Selector>)>,
    pub inert_in: BTreeMap<String, String>,
    pub conflicts: Vec<String>,
    pub targets: Vec<crate::spec::TargetSpec>,
}

/// A playable ruleset: the table of one variant and its rule layers.
#[derive(Debug, Clone)]
pub struct Variant {
    pub name: String,
    pub description: String,
    pub names: Names,
    pub hand_size: usize,
    pub min_players: usize,
    pub max_players: usize,
    pub target_score: i64,
    pub uno_penalty: u32,
    pub power_cards: u32,
    pub double_sided: bool,
    /// Distinct card designs, in deck order.
    pub designs: Vec<CardDef>,
    /// Copies of each design.
    pub copies: Vec<u32>,
    /// Every physical card, in canonical (unshuffled) order.
    pub deck: Vec<CardId>,
    pub layers: Vec<Layer>,
    pub options: BTreeMap<String, OptionValue>,
    /// `card_hooks[kind][design * 2 + side]`: functions bound to that face.
    card_hooks: Vec<Vec<Vec<FnRef>>>,
    /// `global_hooks[kind]`: functions of the hooks that take no card.
    global_hooks: Vec<Vec<FnRef>>,
    /// `targets[design * 2 + side]`: [regular side, flex side].
    targets: Vec<[TargetNeed; 2]>,
    /// `hook_bound[kind]`: is any function bound to that hook, for any face?
    hook_bound: [bool; HookKind::ALL.len()],
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

    /// The functions of a card hook bound to this face.
    pub fn card_hook(&self, kind: HookKind, id: CardId, side: Side) -> &[FnRef] {
        let slot = id.0 as usize * 2 + usize::from(side == Side::Dark);
        &self.card_hooks[kind as usize][slot]
    }

    /// Is any function bound to this hook kind, for any face?
    pub fn has_hook(&self, kind: HookKind) -> bool {
        self.hook_bound[kind as usize]
    }

    /// Does a play of this face (on its flex side or not) name a target?
    pub fn target_need(&self, id: CardId, side: Side, as_flex: bool) -> TargetNeed {
        self.targets[id.0 as usize * 2 + usize::from(side == Side::Dark)][usize::from(as_flex)]
    }

    pub fn global_hook(&self, kind: HookKind) -> &[FnRef] {
        &self.global_hooks[kind as usize]
    }

    pub fn rule_names(&self) -> Vec<&str> {
        self.layers.iter().filter(|l| l.is_rule).map(|l| l.name.as_str()).collect()
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

    /// Total cards in the box: the deck plus Power Cards.
    pub fn total_cards(&self) -> usize {
        self.deck.len() + self.power_cards as usize
    }
}

/// What to load: a built-in name or a path, for the variant and each rule,
/// and `NAME=VALUE` settings of options.
#[derive(Debug, Clone, Default)]
pub struct LoadRequest {
    pub variant: String,
    pub rules: Vec<String>,
    pub settings: Vec<(String, String)>,
}

/// Opens a built-in variant (`variants/NAME.yaml`) or a path.
pub fn open_variant(reference: &str) -> Result<SourceFile, String> {
    open(reference, "variants/", "variant", builtin::variant_names())
}

/// Opens a built-in house rule (`variants/rules/NAME.yaml`) or a path.
pub fn open_rule(reference: &str) -> Result<SourceFile, String> {
    open(reference, "variants/rules/", "house rule", builtin::rule_names())
}

fn open(reference: &str, dir: &str, what: &str, known: Vec<&str>) -> Result<SourceFile, String> {
    if let Some(file) = SourceFile::builtin(&format!("{dir}{reference}.yaml")) {
        return Ok(file);
    }
    let path = Path::new(reference);
    if path.exists() || reference.contains('/') || reference.ends_with(".yaml") || reference.ends_with(".yml") {
        return SourceFile::read(path);
    }
    Err(format!("unknown {what} '{reference}' (built in: {}; or give a path to a YAML file)", known.join(", ")))
}

/// Loads and validates a variant with house rules on top. On failure, every
/// problem found, one message each.
pub fn load(request: &LoadRequest) -> Result<Variant, Vec<String>> {
    let mut problems = Vec::new();
    let variant_file = open_variant(&request.variant).map_err(|e| vec![e])?;
    let variant_spec = parse_spec(&variant_file).map_err(|e| vec![e])?;
    let mut rule_files = Vec::new();
    for reference in &request.rules {
        match open_rule(reference).and_then(|file| Ok((parse_spec(&file)?, file))) {
            Ok(pair) => rule_files.push(pair),
            Err(e) => problems.push(e),
        }
    }
    let table = build_table(&variant_file, &variant_spec, &mut problems);
    let mut layers = vec![build_layer(&variant_file, &variant_spec, false, &mut problems)];
    for (spec, file) in &rule_files {
        check_rule_has_no_table(file, spec, &mut problems);
        layers.push(build_layer(file, spec, true, &mut problems));
    }
    for layer in &layers {
        problems.extend(crate::script::check_layer(layer));
    }
    check_conflicts(&layers, &mut problems);
    let options = merge_options(&variant_file, &variant_spec, &rule_files, &request.settings, &mut problems);
    let Some(mut variant) = table else {
        return Err(without_repeats(problems));
    };
    variant.options = options;
    if let Some(option) = &variant_spec.random_pairing_option {
        match variant.options.get(option).cloned() {
            Some(OptionValue::Int(0)) => {}
            Some(OptionValue::Int(seed)) if variant.double_sided => repair_faces(&mut variant, seed as u64),
            _ => problems.push(variant_file.problem_at(
                option,
                format!("random_pairing_option '{option}' must name an integer option of a double-sided deck"),
            )),
        }
    }
    bind_hooks(&mut variant, &layers, &mut problems);
    variant.layers = layers;
    if problems.is_empty() { Ok(variant) } else { Err(without_repeats(problems)) }
}

/// The problems in order, each message once.
fn without_repeats(problems: Vec<String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    problems.into_iter().filter(|p| seen.insert(p.clone())).collect()
}

fn parse_spec(file: &SourceFile) -> Result<LayerSpec, String> {
    if file.text.trim().is_empty() {
        return Err(file.problem(None, "the file is empty"));
    }
    serde_yaml::from_str(&file.text).map_err(|e| file.yaml_error(&e))
}

fn layer_name(file: &SourceFile, spec: &LayerSpec) -> String {
    spec.name.clone().unwrap_or_else(|| {
        let stem = file.name.rsplit('/').next().unwrap_or(&file.name);
        stem.trim_end_matches(".yaml").trim_end_matches(".yml").to_string()
    })
}

fn check_rule_has_no_table(file: &SourceFile, spec: &LayerSpec, problems: &mut Vec<String>) {
    let table_fields = [
        ("deck", !spec.deck.is_empty()),
        ("colors", !spec.colors.is_empty()),
        ("dark_colors", !spec.dark_colors.is_empty()),
        ("symbols", !spec.symbols.is_empty()),
        ("hand_size", spec.hand_size.is_some()),
        ("players", spec.players.is_some()),
        ("target_score", spec.target_score.is_some()),
        ("power_cards", spec.power_cards.is_some()),
    ];
    for (field, present) in table_fields {
        if present {
            problems.push(file.problem_at(
                &format!("{field}:"),
                format!("a house rule cannot set '{field}'; that belongs to a variant"),
            ));
        }
    }
}

fn build_table(file: &SourceFile, spec: &LayerSpec, problems: &mut Vec<String>) -> Option<Variant> {
    let start = problems.len();
    let need = |present: bool, field: &str, problems: &mut Vec<String>| {
        if !present {
            problems.push(file.problem(None, format!("a variant needs '{field}'")));
        }
    };
    need(!spec.colors.is_empty(), "colors", problems);
    need(!spec.deck.is_empty(), "deck", problems);
    need(spec.hand_size.is_some(), "hand_size", problems);
    need(spec.players.is_some(), "players", problems);
    need(spec.target_score.is_some(), "target_score", problems);

    // Colours: unique across both sides.
    let mut seen = Vec::new();
    for color in spec.colors.iter().chain(&spec.dark_colors) {
        let lower = color.to_ascii_lowercase();
        if lower.is_empty() || lower.contains(char::is_whitespace) || lower.contains('/') {
            problems.push(file.problem_at(color, format!("colour '{color}' must be one word")));
        } else if seen.contains(&lower) {
            problems.push(file.problem_at(color, format!("colour '{color}' is listed twice")));
        }
        seen.push(lower);
    }

    if spec.colors.len() + spec.dark_colors.len() > MAX_COLORS {
        problems.push(file.problem_at("colors:", format!("at most {MAX_COLORS} colours")));
        return None;
    }

    // Symbols, with aliases; names must not clash with colours or numbers.
    let mut symbols: Vec<Symbol> = Vec::new();
    let mut taken: Vec<String> = seen.clone();
    for (name, s) in &spec.symbols {
        for word in std::iter::once(name).chain(&s.aliases) {
            let lower = word.to_ascii_lowercase();
            if lower.is_empty()
                || lower.contains(char::is_whitespace)
                || lower.contains("//")
                || lower.bytes().all(|b| b.is_ascii_digit())
            {
                problems.push(file.problem_at(word, format!("symbol name '{word}' must be one word and not a number")));
            } else if taken.contains(&lower) {
                problems.push(file.problem_at(word, format!("name '{word}' is used twice")));
            }
            taken.push(lower);
        }
        symbols.push(Symbol {
            name: name.to_ascii_lowercase(),
            aliases: s.aliases.iter().map(|a| a.to_ascii_lowercase()).collect(),
            points: s.points,
            wild: s.wild,
            flex: s.flex,
            restricted: s.restricted,
            group: symbols.len() as SymbolId,
            description: s.description.clone(),
        });
    }
    for (index, (name, s)) in spec.symbols.iter().enumerate() {
        if let Some(other) = &s.matches {
            match spec.symbols.keys().position(|k| k.eq_ignore_ascii_case(other)) {
                Some(group) => symbols[index].group = group as SymbolId,
                None => {
                    problems.push(file.problem_at(other, format!("symbol '{name}' matches unknown symbol '{other}'")))
                }
            }
        }
    }
    if symbols.len() > 200 {
        problems.push(file.problem(None, "too many symbols (at most 200)"));
        return None;
    }
    let names = Names::new(
        spec.colors.iter().map(|c| c.to_ascii_lowercase()).collect(),
        spec.dark_colors.iter().map(|c| c.to_ascii_lowercase()).collect(),
        symbols,
    );

    // Deck.
    let mut designs: Vec<CardDef> = Vec::new();
    let mut copies: Vec<u32> = Vec::new();
    for entry in &spec.deck {
        if entry.count == 0 || entry.count > 1000 {
            problems.push(file.problem_at("count:", format!("count {} must be 1 to 1000", entry.count)));
            continue;
        }
        for template in &entry.cards {
            let expanded = match expand(template, &spec.colors) {
                Ok(list) => list,
                Err(e) => {
                    problems.push(file.problem_at(template, e));
                    continue;
                }
            };
            for text in expanded {
                match names.parse_card(&text) {
                    Ok(card) => {
                        if let Some(why) = side_problem(&names, &card) {
                            problems.push(file.problem_at(template, format!("'{text}': {why}")));
                        }
                        match designs.iter().position(|d| *d == card) {
                            Some(i) => copies[i] += entry.count,
                            None => {
                                designs.push(card);
                                copies.push(entry.count);
                            }
                        }
                    }
                    Err(e) => problems.push(file.problem_at(template, e)),
                }
            }
        }
    }
    let double_sided = designs.iter().any(|d| d.dark.is_some());
    if double_sided && designs.iter().any(|d| d.dark.is_none()) {
        problems.push(file.problem_at("deck:", "either every card is double-sided ('a // b') or none is"));
    }
    if double_sided && spec.dark_colors.is_empty() {
        problems.push(file.problem(None, "a double-sided deck needs 'dark_colors'"));
    }
    if designs.len() > u16::MAX as usize {
        problems.push(file.problem_at("deck:", "too many distinct cards"));
    }
    let deck: Vec<CardId> = designs
        .iter()
        .enumerate()
        .flat_map(|(i, _)| std::iter::repeat_n(CardId(i as u16), copies[i] as usize))
        .collect();

    let hand_size = spec.hand_size.unwrap_or(7) as usize;
    let [min_players, max_players] = spec.players.unwrap_or([2, 4]).map(|p| p as usize);
    if hand_size == 0 || hand_size > 100 {
        problems.push(file.problem_at("hand_size:", format!("hand_size {hand_size} must be 1 to 100")));
    }
    if min_players < 2 || min_players > max_players || max_players > 16 {
        problems.push(file.problem_at(
            "players:",
            format!("players [{min_players}, {max_players}] must be two numbers from 2 to 16, the first not larger"),
        ));
    }
    if !deck.is_empty() && hand_size * max_players + 1 > deck.len() {
        problems.push(file.problem_at(
            "players:",
            format!("{} cards cannot deal {hand_size} to {max_players} players and turn a discard", deck.len()),
        ));
    }
    let power_cards = spec.power_cards.unwrap_or(0);
    if power_cards > 0 && (power_cards as usize) < max_players {
        problems.push(
            file.problem_at("power_cards:", format!("{power_cards} Power Cards are too few for {max_players} players")),
        );
    }
    let target_score = spec.target_score.unwrap_or(500);
    if target_score <= 0 {
        problems.push(file.problem_at("target_score:", "target_score must be positive"));
    }
    if problems.len() > start {
        return None;
    }
    Some(Variant {
        name: layer_name(file, spec),
        description: spec.description.clone(),
        names,
        hand_size,
        min_players,
        max_players,
        target_score,
        uno_penalty: spec.uno_penalty.unwrap_or(2),
        power_cards,
        double_sided,
        designs,
        copies,
        deck,
        layers: Vec::new(),
        options: BTreeMap::new(),
        card_hooks: Vec::new(),
        global_hooks: Vec::new(),
        targets: Vec::new(),
        hook_bound: [false; HookKind::ALL.len()],
    })
}

/// Pairs the deck's light and dark faces anew at random, seeded: the same
/// faces on each side, in a different pairing.
fn repair_faces(variant: &mut Variant, seed: u64) {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    let physical: Vec<CardDef> = variant.deck.iter().map(|&id| *variant.design(id)).collect();
    let mut darks: Vec<Option<Face>> = physical.iter().map(|card| card.dark).collect();
    darks.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
    let mut designs: Vec<CardDef> = Vec::new();
    let mut copies: Vec<u32> = Vec::new();
    for (card, dark) in physical.iter().zip(darks) {
        let card = CardDef { light: card.light, dark };
        match designs.iter().position(|d| *d == card) {
            Some(i) => copies[i] += 1,
            None => {
                designs.push(card);
                copies.push(1);
            }
        }
    }
    variant.deck = designs
        .iter()
        .enumerate()
        .flat_map(|(i, _)| std::iter::repeat_n(CardId(i as u16), copies[i] as usize))
        .collect();
    variant.designs = designs;
    variant.copies = copies;
}

/// A dark face must use dark colours and a light face light ones.
fn side_problem(names: &Names, card: &CardDef) -> Option<&'static str> {
    let wrong = |face: &Face, dark: bool| face.color.into_iter().chain(face.flex).any(|c| names.is_dark(c) != dark);
    if wrong(&card.light, false) {
        return Some("the light side uses a dark colour");
    }
    match &card.dark {
        Some(dark) if wrong(dark, true) => Some("the dark side uses a light colour"),
        _ => None,
    }
}

/// Expands `{color}` (every light colour) and `{A-B}` (numbers) in a template.
fn expand(template: &str, colors: &[String]) -> Result<Vec<String>, String> {
    let Some(open) = template.find('{') else {
        return Ok(vec![template.to_string()]);
    };
    let close = template[open..].find('}').map(|i| open + i).ok_or_else(|| format!("'{template}': unclosed '{{'"))?;
    let inner = &template[open + 1..close];
    let values: Vec<String> = if inner == "color" {
        colors.to_vec()
    } else if let Some((a, b)) = inner.split_once('-') {
        match (a.trim().parse::<u8>(), b.trim().parse::<u8>()) {
            (Ok(a), Ok(b)) if a <= b => (a..=b).map(|n| n.to_string()).collect(),
            _ => return Err(format!("'{template}': '{{{inner}}}' is not a range like {{1-9}}")),
        }
    } else {
        return Err(format!("'{template}': unknown placeholder '{{{inner}}}' (use {{color}} or {{1-9}})"));
    };
    let mut out = Vec::new();
    for value in values {
        let replaced = format!("{}{value}{}", &template[..open], &template[close + 1..]);
        out.extend(expand(&replaced, colors)?);
    }
    Ok(out)
}

fn build_layer(file: &SourceFile, spec: &LayerSpec, is_rule: bool, problems: &mut Vec<String>) -> Layer {
    let mut scripts = Vec::new();
    for path in &spec.scripts {
        match file.sibling(path) {
            Ok(script) => scripts.push(script),
            Err(e) => problems.push(file.problem_at(path, format!("script not found: {e}"))),
        }
    }
    let mut hooks = Vec::new();
    for (kind_name, bindings) in &spec.hooks {
        let Some(kind) = HookKind::ALL.iter().copied().find(|k| k.name() == kind_name) else {
            let known: Vec<&str> = HookKind::ALL.iter().map(|k| k.name()).collect();
            problems.push(file.problem_at(
                &format!("{kind_name}:"),
                format!("unknown hook '{kind_name}' (known: {})", known.join(", ")),
            ));
            continue;
        };
        for binding in bindings {
            if binding.selector.is_some() && !kind.is_card_hook() {
                problems.push(
                    file.problem_at(&binding.call, format!("hook '{kind_name}' takes no card, so it has no 'match'")),
                );
            }
            hooks.push((kind, binding.call.clone(), binding.selector.clone()));
        }
    }
    Layer {
        name: layer_name(file, spec),
        description: spec.description.clone(),
        is_rule,
        source: file.clone(),
        scripts,
        hooks,
        inert_in: spec.inert_in.clone(),
        conflicts: spec.conflicts.clone(),
        targets: spec.targets.clone(),
    }
}

fn check_conflicts(layers: &[Layer], problems: &mut Vec<String>) {
    for (i, a) in layers.iter().enumerate() {
        for b in &layers[i + 1..] {
            if a.name == b.name {
                problems.push(format!("house rule '{}' is given twice", a.name));
            } else if a.conflicts.contains(&b.name) || b.conflicts.contains(&a.name) {
                problems.push(format!("house rules '{}' and '{}' conflict and cannot be combined", a.name, b.name));
            }
        }
    }
}

fn option_value(value: &serde_yaml::Value) -> Option<OptionValue> {
    match value {
        serde_yaml::Value::Bool(b) => Some(OptionValue::Bool(*b)),
        serde_yaml::Value::Number(n) => n.as_i64().map(OptionValue::Int),
        serde_yaml::Value::String(s) => Some(OptionValue::Text(s.clone())),
        _ => None,
    }
}

fn merge_options(
    variant_file: &SourceFile,
    variant_spec: &LayerSpec,
    rules: &[(LayerSpec, SourceFile)],
    settings: &[(String, String)],
    problems: &mut Vec<String>,
) -> BTreeMap<String, OptionValue> {
    let mut options = BTreeMap::new();
    for (spec, file) in std::iter::once((variant_spec, variant_file)).chain(rules.iter().map(|(s, f)| (s, f))) {
        for (key, value) in &spec.options {
            match option_value(value) {
                Some(v) => {
                    options.insert(key.clone(), v);
                }
                None => problems.push(file.problem_at(
                    &format!("{key}:"),
                    format!("option '{key}' must be a boolean, a whole number or text"),
                )),
            }
        }
    }
    for (key, text) in settings {
        let Some(current) = options.get(key) else {
            let known: Vec<&str> = options.keys().map(String::as_str).collect();
            problems.push(format!(
                "unknown option '{key}' (options here: {})",
                if known.is_empty() { "none".into() } else { known.join(", ") }
            ));
            continue;
        };
        let parsed = match current {
            OptionValue::Bool(_) => text.parse::<bool>().ok().map(OptionValue::Bool),
            OptionValue::Int(_) => text.parse::<i64>().ok().map(OptionValue::Int),
            OptionValue::Text(_) => Some(OptionValue::Text(text.clone())),
        };
        match parsed {
            Some(v) => {
                options.insert(key.clone(), v);
            }
            None => problems.push(format!("option '{key}' takes a value like '{current}', not '{text}'")),
        }
    }
    options
}

/// Does `face` satisfy one selector word (`red + 7` means both words)?
fn selects(names: &Names, face: &Face, word: &str) -> Result<bool, String> {
    let mut all = true;
    for part in word.split('+').map(str::trim) {
        let lower = part.to_ascii_lowercase();
        let hit = match lower.as_str() {
            "any" | "*" => true,
            "number" => face.number().is_some(),
            "action" => face.symbol().is_some() && !face.is_wild(),
            "wild" => face.is_wild(),
            "marked" => face.marked,
            "flex" => names.has_flex_side(face),
            _ if lower.starts_with("group:") => {
                let group = names.symbol(&lower["group:".len()..]).map(|s| names.symbol_info(s).group);
                face.symbol().is_some_and(|s| Some(names.symbol_info(s).group) == group)
            }
            _ => {
                if let Ok(n) = lower.parse::<u8>() {
                    face.value == Value::Number(n)
                } else if let Some(symbol) = names.symbol(&lower) {
                    face.value == Value::Symbol(symbol)
                } else if let Some(color) = names.color(&lower) {
                    face.color == Some(color)
                } else {
                    return Err(format!(
                        "'{part}' is not a selector (any, number, action, wild, marked, flex, group:SYMBOL, a number, a symbol or a colour)"
                    ));
                }
            }
        };
        all &= hit;
    }
    Ok(all)
}

/// The faces (slot = design * 2 + side) a selector picks.
fn selected_slots(variant: &Variant, selector: Option<&Selector>) -> Result<Vec<usize>, String> {
    let words = selector.map(Selector::alternatives).unwrap_or_else(|| vec!["any"]);
    let mut slots = Vec::new();
    for (design_index, design) in variant.designs.iter().enumerate() {
        for side in [Side::Light, Side::Dark] {
            let face = design.face(side);
            let mut hit = false;
            for word in &words {
                hit |= selects(&variant.names, face, word).map_err(|e| format!("{word}: {e}"))?;
            }
            if hit {
                slots.push(design_index * 2 + usize::from(side == Side::Dark));
            }
        }
    }
    Ok(slots)
}

fn bind_hooks(variant: &mut Variant, layers: &[Layer], problems: &mut Vec<String>) {
    let slots = variant.designs.len() * 2;
    variant.card_hooks = vec![vec![Vec::new(); slots]; HookKind::ALL.len()];
    variant.global_hooks = vec![Vec::new(); HookKind::ALL.len()];
    variant.targets = vec![[TargetNeed::None; 2]; slots];
    for (layer_index, layer) in layers.iter().enumerate() {
        for (kind, function, selector) in &layer.hooks {
            let fn_ref = FnRef { layer: layer_index, function: function.clone() };
            if !kind.is_card_hook() {
                variant.global_hooks[*kind as usize].push(fn_ref);
                continue;
            }
            match selected_slots(variant, selector.as_ref()) {
                Ok(picked) => {
                    picked.into_iter().for_each(|slot| variant.card_hooks[*kind as usize][slot].push(fn_ref.clone()))
                }
                Err(e) => problems.push(layer.source.problem_at(function, e)),
            }
        }
        for kind in HookKind::ALL {
            variant.hook_bound[kind as usize] = if kind.is_card_hook() {
                variant.card_hooks[kind as usize].iter().any(|fns| !fns.is_empty())
            } else {
                !variant.global_hooks[kind as usize].is_empty()
            };
        }
        for target in &layer.targets {
            let need = if target.required { TargetNeed::Required } else { TargetNeed::Optional };
            match selected_slots(variant, Some(&target.selector)) {
                Ok(picked) => {
                    for slot in picked {
                        for (as_flex, entry) in variant.targets[slot].iter_mut().enumerate() {
                            if target.flex.is_none_or(|f| f == (as_flex == 1)) {
                                *entry = (*entry).max(need);
                            }
                        }
                    }
                }
                Err(e) => problems.push(layer.source.problem_at("targets:", e)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_expand_in_order() {
        let colors = vec!["red".to_string(), "blue".to_string()];
        assert_eq!(expand("{color} {1-2}", &colors).unwrap(), ["red 1", "red 2", "blue 1", "blue 2"]);
        assert!(expand("{colour} 1", &colors).unwrap_err().contains("unknown placeholder"));
        assert!(expand("{color 1", &colors).unwrap_err().contains("unclosed"));
    }
}
