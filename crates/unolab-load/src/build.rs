//! Validation of specs into the model: the table of the variant's file, one
//! layer per file, hooks and targets bound to faces through parsed
//! selectors, options merged. Every problem of every file is reported, each
//! with its file, line and column; nothing is read from disk here.

use crate::deck::{self, Designs};
use crate::options;
use crate::spec::LayerSpec;
use unolab_core::card::{CardDef, SymbolId};
use unolab_core::limits;
use unolab_core::notation::{Names, Symbol};
use unolab_core::source::{SourceFile, without_controls};
use unolab_core::variant::{ActWhen, ActionSpec, Binding, HookKind, Layer, OptionValue, Variant, VariantTable};

/// One file to build: its text, its spec, and the scripts it names (those
/// that could be opened).
#[derive(Debug)]
pub struct LayerInput {
    pub file: SourceFile,
    pub spec: LayerSpec,
    pub scripts: Vec<SourceFile>,
}

impl LayerInput {
    /// Was every script the file names opened (a missing one is told
    /// where it is named)?
    pub fn all_scripts(&self) -> bool {
        self.scripts.len() == self.spec.scripts.len()
    }
}

/// Parses a variant or rule file's YAML; on failure, each problem found.
pub fn parse_spec(file: &SourceFile) -> Result<LayerSpec, Vec<String>> {
    if file.text.trim().is_empty() {
        return Err(vec![file.problem(None, "the file is empty")]);
    }
    let spec: Result<LayerSpec, String> = crate::yaml::from_file(file);
    // The places of the fields (the file read once more, as a tree: each
    // reading is linear in the file).
    let tree = crate::yaml::from_file::<crate::yaml::Yaml>(file);
    let spec = spec.map(|mut spec| {
        let fields = tree.as_ref().ok().and_then(crate::yaml::Yaml::as_mapping).unwrap_or_default();
        let place =
            |(key, _): &(crate::yaml::Yaml, crate::yaml::Yaml)| Some((key.as_str()?.to_string(), key.position()?));
        spec.keys = fields.iter().filter_map(place).collect();
        spec
    });
    spec.map_err(|problem| {
        // A misspelt hook whose bindings are also wrong is told by its
        // name first, the likelier mistake, not only by the shape of its
        // value; the parser's own problem follows, as it may be elsewhere.
        let Ok(yaml) = tree else { return vec![problem] };
        let hooks = yaml.get("hooks").and_then(crate::yaml::Yaml::as_mapping).unwrap_or_default();
        let mut told: Vec<String> = hooks
            .iter()
            .filter_map(|(key, _)| key.as_str().filter(|name| HookKind::parse(name).is_none()).map(|name| (key, name)))
            .map(|(key, name)| file.problem(key.position(), unknown_hook(name)))
            .collect();
        told.push(problem);
        told
    })
}

/// An unknown hook's name, with the known ones and the one it looks like.
fn unknown_hook(name: &str) -> String {
    let known: Vec<&str> = HookKind::ALL.iter().filter(|k| !k.is_action()).map(|k| k.name()).collect();
    format!(
        "unknown hook '{name}' (known: {}){}",
        known.join(", "),
        unolab_core::source::did_you_mean(name, known.iter().copied())
    )
}

/// The layer's name: `name:`, else the file's stem.
pub fn layer_name(file: &SourceFile, spec: &LayerSpec) -> String {
    spec.name.clone().unwrap_or_else(|| {
        let stem = file.name.rsplit('/').next().unwrap_or(&file.name);
        stem.trim_end_matches(".yaml").trim_end_matches(".yml").to_string()
    })
}

/// Builds the variant of `table` with `rules` layered on top and `settings`
/// applied to their options; `check_scripts` checks each layer's scripts
/// (whether or not the table is sound, so that every problem is found),
/// told whether every script the layer names was opened.
/// Problems are added to `problems`; the variant is returned only when there
/// are none.
pub fn build(
    table: &LayerInput,
    rules: &[LayerInput],
    settings: &[(String, String)],
    check_scripts: &dyn Fn(&Layer, bool) -> Vec<String>,
    problems: &mut Vec<String>,
) -> Option<Variant> {
    let start = problems.len();
    // A variant given as a house rule: one problem, not one per table
    // field and per hook that cannot be bound.
    let variants_as_rules: Vec<String> = rules
        .iter()
        .filter(|rule| !rule.spec.deck.is_empty())
        .map(|rule| {
            rule.file.problem(
                rule.spec.key("deck"),
                "this is a variant (it has a deck), not a house rule: give it as the variant, and only rules with -r",
            )
        })
        .collect();
    if !variants_as_rules.is_empty() {
        problems.extend(variants_as_rules);
        return None;
    }
    // A house rule given as the variant: one problem, not one per field
    // a variant needs.
    if table.spec.deck.is_empty() && table.spec.colors.is_empty() && table.spec.key("deck").is_none() {
        problems.push(table.file.problem(
            None,
            "this is a house rule (it has no deck), not a variant: give it with -r, after a variant (VARIANT -r FILE)",
        ));
        return None;
    }
    let variant = build_table(&table.file, &table.spec, problems);
    check_variant_has_no_rule_fields(&table.file, &table.spec, problems);
    let mut layers = vec![build_layer(table, false, problems)];
    for rule in rules {
        check_rule_has_no_table(&rule.file, &rule.spec, problems);
        layers.push(build_layer(rule, true, problems));
    }
    for (layer, input) in layers.iter().zip(std::iter::once(table).chain(rules)) {
        if layer.combines_with.is_empty() {
            problems.extend(check_scripts(layer, input.all_scripts()));
        } else {
            // The functions a combination binds are checked whether or not
            // the other rule is in play.
            let mut checked = layer.clone();
            checked.hooks.extend(layer.combines_with.iter().map(|(_, binding)| binding.clone()));
            problems.extend(check_scripts(&checked, input.all_scripts()));
        }
    }
    check_conflicts(&layers, problems);
    combine(&mut layers, problems);
    let all = std::iter::once(table).chain(rules).map(|input| (&input.spec, &input.file));
    let options = options::merge(all, settings, problems);
    let mut variant = variant?;
    (variant.options, variant.option_choices) = (options.values, options.choices);
    // A house rule may change the catch penalty; the last one that does wins.
    for (spec, file) in std::iter::once(table).chain(rules).map(|input| (&input.spec, &input.file)) {
        if let Some(step) = spec.players_multiple_of {
            if !(1..=limits::PLAYERS).contains(&(step as usize)) {
                let text = format!("players_multiple_of must be from 1 to {}", limits::PLAYERS);
                problems.push(file.problem(spec.key("players_multiple_of"), text));
            } else if variant.table_sizes().all(|n| n % step as usize != 0) {
                problems.push(file.problem(
                    spec.key("players_multiple_of"),
                    format!(
                        "no table of {} to {} players is a multiple of {step}",
                        variant.min_players, variant.max_players
                    ),
                ));
            } else {
                let step = step as usize;
                variant.players_multiple_of =
                    variant.players_multiple_of * step / gcd(variant.players_multiple_of, step);
            }
        }
    }
    if let Some(penalty) = rules.iter().rev().find_map(|rule| rule.spec.uno_penalty) {
        variant.uno_penalty = penalty;
    }
    variant.public_state =
        std::iter::once(table).chain(rules).flat_map(|input| input.spec.public_state.iter().cloned()).collect();
    if let Some(option) = &table.spec.random_pairing_option {
        match variant.options.get(option).cloned() {
            Some(OptionValue::Int(0)) => {}
            Some(OptionValue::Int(seed)) if variant.double_sided => {
                let current = Designs { designs: variant.designs.clone(), copies: variant.copies.clone() };
                let paired = deck::repair_faces(&current, seed as u64);
                variant.deck = paired.deck();
                variant.designs = paired.designs;
                variant.copies = paired.copies;
            }
            _ => problems.push(table.file.problem(
                table.spec.key("random_pairing_option"),
                format!("random_pairing_option '{option}' must name an integer option of a double-sided deck"),
            )),
        }
    }
    variant.bind(layers, builtin_names(), problems);
    let warnings = answered_once_warnings(&variant.layers, problems);
    variant.warnings.extend(warnings);
    variant.warnings.extend(rules.iter().flat_map(|rule| unknown_inert_in(rule, &variant.name)));
    // `default:` picks the variant `unolab` plays when none is named, among
    // the built-in ones: in a file of one's own it does nothing.
    if let (Some(at), unolab_core::source::Origin::Disk(_)) = (table.spec.key("default"), &table.file.origin) {
        variant.warnings.push(table.file.problem(
            Some(at),
            "'default' is for built-in variants only (the one unolab plays when none is named): \
             here it does nothing; remove it",
        ));
    }
    (problems.len() == start).then_some(variant)
}

/// Warnings for the variants a rule's `inert_in` names that are neither
/// built in nor `table` (the variant it is loaded on): a misspelt name
/// would silence nothing. A variant of one's own is known only where it is
/// loaded, so this is a warning, not a refusal.
fn unknown_inert_in(rule: &LayerInput, table: &str) -> Vec<String> {
    let known = || crate::builtin::variant_names().into_iter().chain(std::iter::once(table));
    rule.spec
        .inert_in
        .keys()
        .filter(|name| !known().any(|known| known == name.as_str()))
        .map(|name| {
            rule.file.problem(
                name.position(),
                format!(
                    "inert_in names '{name}', which is no built-in variant (built in: {}){}",
                    crate::builtin::variant_names().join(", "),
                    unolab_core::source::did_you_mean(name, known())
                ),
            )
        })
        .collect()
}

/// The names (lower case) of every symbol, alias and colour of the
/// built-in variants: a selector naming one that a variant lacks picks
/// nothing there, where a name no variant knows is refused.
fn builtin_names() -> &'static [String] {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names: Vec<String> = crate::builtin::variant_names()
            .into_iter()
            .filter_map(|name| crate::builtin::spec(&format!("variants/{name}.yaml")))
            .flat_map(|spec| {
                let symbols = spec.symbols.iter().flat_map(|(name, symbol)| {
                    std::iter::once(name.value.clone()).chain(symbol.aliases.iter().map(|a| a.value.clone()))
                });
                let colors = spec.colors.iter().chain(&spec.dark_colors).map(|c| c.value.clone());
                symbols.chain(colors).collect::<Vec<_>>()
            })
            .map(|name| name.to_ascii_lowercase())
            .collect();
        names.sort();
        names.dedup();
        names
    })
}

/// Fields only a house rule may set.
fn check_variant_has_no_rule_fields(file: &SourceFile, spec: &LayerSpec, problems: &mut Vec<String>) {
    let fields = [
        ("conflicts", !spec.conflicts.is_empty()),
        ("inert_in", !spec.inert_in.is_empty()),
        ("combines_with", !spec.combines_with.is_empty()),
    ];
    for (field, present) in fields {
        if present {
            problems.push(
                file.problem(spec.key(field), format!("a variant cannot set '{field}'; that belongs to a house rule")),
            );
        }
    }
}

/// The fields that describe a table (a variant's alone), and whether
/// `spec` sets each; with `spec::RULE_FIELDS` they are every field.
pub(crate) fn table_fields(spec: &LayerSpec) -> [(&'static str, bool); 11] {
    [
        ("default", spec.default),
        ("random_pairing_option", spec.random_pairing_option.is_some()),
        ("deck", !spec.deck.is_empty()),
        ("colors", !spec.colors.is_empty()),
        ("dark_colors", !spec.dark_colors.is_empty()),
        ("symbols", !spec.symbols.is_empty()),
        ("hand_size", spec.hand_size.is_some()),
        ("players", spec.players.is_some()),
        ("target_score", spec.target_score.is_some()),
        ("power_cards", spec.power_cards.is_some()),
        ("mark", spec.mark.is_some()),
    ]
}

fn check_rule_has_no_table(file: &SourceFile, spec: &LayerSpec, problems: &mut Vec<String>) {
    let table_fields = table_fields(spec);
    for (field, present) in table_fields {
        if present {
            problems.push(file.problem(
                spec.key(field),
                format!("a house rule cannot set '{field}'; that belongs to a variant (which needs a 'deck')"),
            ));
        }
    }
}

fn build_names(file: &SourceFile, spec: &LayerSpec, problems: &mut Vec<String>) -> Option<Names> {
    // Colours: unique across both sides.
    let mut seen = Vec::new();
    for color in spec.colors.iter().chain(&spec.dark_colors) {
        let lower = color.to_ascii_lowercase();
        if lower.is_empty()
            || lower.contains(char::is_whitespace)
            || lower.contains('/')
            || lower.contains(char::is_control)
        {
            problems.push(file.problem(
                color.position(),
                format!("colour '{}' must be one word", unolab_core::source::without_controls(color)),
            ));
        } else if seen.contains(&lower) {
            problems.push(file.problem(color.position(), format!("colour '{color}' is listed twice")));
        }
        seen.push(lower);
    }
    if spec.colors.len() + spec.dark_colors.len() > limits::COLORS {
        problems.push(file.problem(spec.key("colors"), format!("at most {} colours", limits::COLORS)));
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
                || lower.contains(char::is_control)
                || lower.contains("//")
                || lower.bytes().all(|b| b.is_ascii_digit())
            {
                let shown = unolab_core::source::without_controls(word);
                problems.push(
                    file.problem(word.position(), format!("symbol name '{shown}' must be one word and not a number")),
                );
            } else if taken.contains(&lower) {
                problems.push(file.problem(word.position(), format!("name '{word}' is used twice")));
            }
            taken.push(lower);
        }
        if !(0..=unolab_core::limits::CARD_POINTS).contains(&s.points) {
            problems.push(file.problem(
                name.position(),
                format!("symbol '{name}' scores {} points: from 0 to {}", s.points, unolab_core::limits::CARD_POINTS),
            ));
        }
        if !s.names_color && !s.wild {
            problems.push(file.problem(
                name.position(),
                format!(
                    "symbol '{name}' sets names_color: false, which is for wilds (a coloured card names no colour)"
                ),
            ));
        }
        symbols.push(Symbol {
            name: name.to_ascii_lowercase(),
            aliases: s.aliases.iter().map(|a| a.to_ascii_lowercase()).collect(),
            points: s.points,
            wild: s.wild,
            flex: s.flex,
            restricted: s.restricted,
            draws: s.draws,
            names_color: s.names_color,
            group: symbols.len() as SymbolId,
            description: s.description.clone(),
        });
    }
    for (index, (name, s)) in spec.symbols.iter().enumerate() {
        if let Some(other) = &s.matches {
            match spec.symbols.keys().position(|k| k.eq_ignore_ascii_case(other)) {
                Some(group) => symbols[index].group = group as SymbolId,
                None => problems
                    .push(file.problem(other.position(), format!("symbol '{name}' matches unknown symbol '{other}'"))),
            }
        }
    }
    if symbols.len() > 200 {
        problems.push(file.problem(None, "too many symbols (at most 200)"));
        return None;
    }
    Some(Names::new(
        spec.colors.iter().map(|c| c.to_ascii_lowercase()).collect(),
        spec.dark_colors.iter().map(|c| c.to_ascii_lowercase()).collect(),
        symbols,
    ))
}

fn build_designs(file: &SourceFile, spec: &LayerSpec, names: &Names, problems: &mut Vec<String>) -> Designs {
    let mut designs = Designs::default();
    // Every copy counted, against `limits::DECK_CARDS`.
    let mut cards = 0usize;
    let limit = unolab_core::limits::DECK_CARDS;
    let colors: Vec<String> = spec.colors.iter().map(|c| c.value.clone()).collect();
    for entry in &spec.deck {
        let count = entry.count.value;
        if count == 0 || count > 1000 {
            problems.push(file.problem(entry.count.position(), format!("count {count} must be 1 to 1000")));
            continue;
        }
        for template in &entry.cards {
            let expanded = match deck::expand(template, &colors) {
                Ok(list) => list,
                Err(e) => {
                    problems.push(file.problem(template.position(), e));
                    continue;
                }
            };
            cards = cards.saturating_add(expanded.len().saturating_mul(count as usize));
            if cards > limit {
                problems
                    .push(file.problem(template.position(), format!("the deck would hold more than {limit} cards")));
                return designs;
            }
            // One problem per template: its first card that is wrong.
            for text in expanded {
                let card = names.parse_card(&text).and_then(|card| match deck::side_problem(names, &card) {
                    Some(why) => Err(format!("'{text}': {why}")),
                    None => Ok(card),
                });
                match card {
                    Ok(card) => designs.add(card, count),
                    Err(e) => {
                        problems.push(file.problem(template.position(), e));
                        break;
                    }
                }
            }
        }
    }
    designs
}

fn build_table(file: &SourceFile, spec: &LayerSpec, problems: &mut Vec<String>) -> Option<Variant> {
    let start = problems.len();
    let need = |present: bool, field: &str, problems: &mut Vec<String>| {
        if present {
            return;
        }
        // A list given empty is told where it stands.
        match spec.key(field) {
            Some(at) => problems.push(file.problem(Some(at), format!("'{field}' is empty: a variant needs it"))),
            None => problems.push(file.problem(None, format!("a variant needs '{field}'"))),
        }
    };
    need(!spec.colors.is_empty(), "colors", problems);
    need(!spec.deck.is_empty(), "deck", problems);
    need(spec.hand_size.is_some(), "hand_size", problems);
    need(spec.players.is_some(), "players", problems);
    need(spec.target_score.is_some(), "target_score", problems);
    let names = build_names(file, spec, problems)?;
    let designs_start = problems.len();
    let designs = build_designs(file, spec, &names, problems);
    let double_sided = designs.designs.iter().any(|d: &CardDef| d.dark.is_some());
    if double_sided && designs.designs.iter().any(|d| d.dark.is_none()) {
        problems.push(file.problem(spec.key("deck"), "either every card is double-sided ('a // b') or none is"));
    }
    if double_sided && spec.dark_colors.is_empty() {
        problems.push(file.problem(None, "a double-sided deck needs 'dark_colors'"));
    }
    if designs.designs.len() > u16::MAX as usize {
        problems.push(file.problem(spec.key("deck"), "too many distinct cards"));
    }
    let deck = designs.deck();
    let hand_size = spec.hand_size.unwrap_or(7) as usize;
    let [min_players, max_players] = spec.players.unwrap_or([2, 4]).map(|p| p as usize);
    if hand_size == 0 || hand_size > limits::HAND_SIZE {
        let text = format!("hand_size {hand_size} must be 1 to {}", limits::HAND_SIZE);
        problems.push(file.problem(spec.key("hand_size"), text));
    }
    if min_players < 2 || min_players > max_players || max_players > limits::PLAYERS {
        problems.push(file.problem(
            spec.key("players"),
            format!(
                "players [{min_players}, {max_players}] must be two numbers from 2 to {}, the first not larger",
                limits::PLAYERS
            ),
        ));
    }
    // Every table the variant accepts is dealt, and a card turned up. (A
    // deck that is not given, or a table with a problem told above, its
    // cards, hand or players, is not measured.)
    let needed = hand_size.saturating_mul(max_players).saturating_add(1);
    if !spec.deck.is_empty() && problems.len() == designs_start && needed > deck.len() {
        let cards = if deck.len() == 1 { "1 card".to_string() } else { format!("{} cards", deck.len()) };
        problems.push(file.problem(
            spec.key("deck"),
            format!(
                "the deck's {cards} cannot deal {hand_size} to each of {max_players} players and turn a discard: that takes {needed}"
            ),
        ));
    }
    let power_cards = spec.power_cards.unwrap_or(0);
    if power_cards > 0 && (power_cards as usize) < max_players {
        problems.push(file.problem(
            spec.key("power_cards"),
            format!("{power_cards} Power Cards are too few for {max_players} players"),
        ));
    }
    let target_score = spec.target_score.unwrap_or(500);
    if target_score <= 0 {
        problems.push(file.problem(spec.key("target_score"), "target_score must be positive"));
    }
    if problems.len() > start {
        return None;
    }
    Some(Variant::of_table(VariantTable {
        name: layer_name(file, spec),
        description: spec.description.clone(),
        names,
        hand_size,
        min_players,
        max_players,
        target_score,
        uno_penalty: spec.uno_penalty.unwrap_or(2),
        power_cards,
        mark: spec.mark.clone().unwrap_or_default(),
        double_sided,
        designs: designs.designs,
        copies: designs.copies,
        deck,
    }))
}

fn build_layer(input: &LayerInput, is_rule: bool, problems: &mut Vec<String>) -> Layer {
    let LayerInput { file, spec, scripts } = input;
    let mut hooks = Vec::new();
    for (kind_name, bindings) in &spec.hooks {
        let Some(kind) = HookKind::parse(kind_name) else {
            problems.push(file.problem(kind_name.position(), unknown_hook(kind_name)));
            continue;
        };
        let kind_name = kind_name.as_str();
        for binding in bindings {
            if binding.selector.is_some() && !kind.is_card_hook() {
                problems.push(file.problem(
                    binding.call.position(),
                    format!("hook '{kind_name}' takes no card, so it has no 'match'"),
                ));
            }
            if binding.grants && !kind.can_grant() {
                problems.push(file.problem(
                    binding.call.position(),
                    format!("'grants' is for can_play, can_respond and can_play_out_of_turn, not {kind_name}"),
                ));
            }
            if binding.flex.is_some() && !kind.is_about_a_play() {
                problems.push(file.problem(
                    binding.call.position(),
                    format!(
                        "'flex' is for can_play, can_respond, can_play_out_of_turn and on_play (a play of one side), \
                         not {kind_name}"
                    ),
                ));
            }
            hooks.push(Binding {
                kind,
                function: binding.call.value.clone(),
                selector: binding.selector.as_ref().map(|s| s.spec.clone()),
                grants: binding.grants,
                flex: binding.flex,
                call_at: binding.call.position(),
                match_places: binding.selector.as_ref().map(|s| s.places.clone()).unwrap_or_default(),
            });
        }
    }
    let mut combines_with = Vec::new();
    for (rule, answers) in &spec.combines_with {
        for (kind_name, function) in answers {
            match HookKind::parse(kind_name) {
                Some(kind) if kind.answered_once() => combines_with.push((
                    rule.clone(),
                    Binding {
                        kind,
                        function: function.clone(),
                        selector: None,
                        grants: false,
                        flex: None,
                        call_at: kind_name.position(),
                        match_places: Vec::new(),
                    },
                )),
                Some(_) => problems.push(file.problem(
                    kind_name.position(),
                    format!(
                        "combines_with names hooks that give one answer for the table (score_hand, match_winner, \
                         on_catch), not {kind_name}: every rule's {kind_name} is asked"
                    ),
                )),
                None => problems.push(file.problem(kind_name.position(), unknown_hook(kind_name))),
            }
        }
    }
    Layer {
        name: layer_name(file, spec),
        description: spec.description.clone(),
        is_rule,
        source: file.clone(),
        scripts: scripts.clone(),
        hooks,
        inert_in: spec.inert_in.iter().map(|(variant, why)| (variant.value.clone(), why.clone())).collect(),
        conflicts: spec.conflicts.clone(),
        combines_with,
        targets: spec.targets.iter().map(crate::spec::TargetEntry::spec).collect(),
        actions: checked_actions(file, spec, problems),
    }
}

/// The layer's actions, each named by one word of its own that no command
/// of the game takes.
fn checked_actions(file: &SourceFile, spec: &LayerSpec, problems: &mut Vec<String>) -> Vec<ActionSpec> {
    let mut actions: Vec<ActionSpec> = spec.actions.iter().map(crate::spec::ActionEntry::spec).collect();
    for (action, entry) in actions.iter_mut().zip(&spec.actions) {
        let Some(when) = &entry.when else { continue };
        match ActWhen::parse(&when.value) {
            Some(parsed) => action.when = parsed,
            None => {
                let names = ActWhen::ALL.map(|(name, _)| name);
                problems.push(file.problem(
                    when.position(),
                    format!(
                        "an action's 'when:' is {} (not '{}')",
                        names.map(|name| format!("'{name}'")).join(", "),
                        without_controls(&when.value)
                    ),
                ));
            }
        }
    }
    const TAKEN: &[&str] = &["play", "draw", "pass", "uno", "catch", "challenge", "accept", "color", "choose", "act"];
    let mut names: Vec<String> = Vec::new();
    for action in &actions {
        let name = action.name.to_ascii_lowercase();
        let one_word = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        let problem = if !one_word {
            Some(format!("action '{}' must be named by one word (letters, digits, - or _)", without_controls(&name)))
        } else if TAKEN.contains(&name.as_str()) {
            Some(format!("action '{name}' would be named as a move of the game is: give it another name"))
        } else if names.contains(&name) {
            Some(format!("action '{name}' is declared twice"))
        } else {
            None
        };
        if let Some(problem) = problem {
            problems.push(file.problem(action.name_at, problem));
        }
        names.push(name);
    }
    actions
}

fn check_conflicts(layers: &[Layer], problems: &mut Vec<String>) {
    for (i, a) in layers.iter().enumerate() {
        for b in &layers[i + 1..] {
            for action in &a.actions {
                if b.actions.iter().any(|other| other.name.eq_ignore_ascii_case(&action.name)) {
                    problems.push(format!(
                        "'{}' and '{}' both declare an action '{}': a player could not tell them apart",
                        a.name, b.name, action.name
                    ));
                }
            }
            if a.name == b.name {
                // One file named twice, however its path is spelt, has the
                // same text.
                problems.push(if a.source.name == b.source.name || a.source.text == b.source.text {
                    format!("house rule '{}' is given twice", a.name)
                } else {
                    format!(
                        "two layers are named '{}' ({} and {}): layers are told apart by name, so give one another 'name:'",
                        a.name, a.source.name, b.source.name
                    )
                });
            } else if a.conflicts.contains(&b.name) || b.conflicts.contains(&a.name) {
                problems.push(format!("house rules '{}' and '{}' conflict and cannot be combined", a.name, b.name));
            }
        }
    }
}

/// Where a house rule says how it combines with another one in play
/// (`combines_with`), its functions answer those one-answer hooks whatever
/// the order of the rules, and the other rule's bindings of them are not
/// asked. Two rules that both say so for one hook are refused.
fn combine(layers: &mut [Layer], problems: &mut Vec<String>) {
    let mut answers: Vec<(usize, usize, Binding)> = Vec::new();
    for (i, layer) in layers.iter().enumerate().filter(|(_, l)| l.is_rule) {
        for (rule, binding) in &layer.combines_with {
            let Some(other) = layers.iter().position(|l| l.is_rule && &l.name == rule) else { continue };
            let both = layers[other].combines_with.iter().any(|(r, b)| r == &layer.name && b.kind == binding.kind);
            if both && other < i {
                problems.push(format!(
                    "house rules '{}' and '{}' both say how they combine on {} (combines_with): only one may",
                    layers[other].name,
                    layer.name,
                    binding.kind.name()
                ));
            } else if !both {
                answers.push((i, other, binding.clone()));
            }
        }
    }
    for (answering, other, binding) in answers {
        layers[other].hooks.retain(|b| b.kind != binding.kind);
        let hooks = &mut layers[answering].hooks;
        hooks.retain(|b| b.kind != binding.kind);
        hooks.push(binding);
    }
}

/// A hook that gives one answer for the whole table asks only the last
/// function bound to it: a house rule's replaces the variant's. Two house
/// rules that both score (`score_hand`, `match_winner`) are refused unless
/// one says how they combine (`combine`); two that answer another such
/// hook, or one layer binding it twice, drop all but the last: that is
/// told, and will be refused once rule files have had time to change.
fn answered_once_warnings(layers: &[Layer], problems: &mut Vec<String>) -> Vec<String> {
    let mut warnings = Vec::new();
    for kind in HookKind::ALL.into_iter().filter(|kind| kind.answered_once()) {
        for layer in layers {
            let bound = bound_to(layer, kind);
            if let [_, .., last] = &bound[..] {
                warnings.push(format!(
                    "'{}' binds {} {} times, but only the last, {last}, is asked (bind one function: \
                     a later version refuses this)",
                    layer.name,
                    kind.name(),
                    bound.len()
                ));
            }
        }
        let rules: Vec<String> = layers
            .iter()
            .filter(|l| l.is_rule && !bound_to(l, kind).is_empty())
            .map(|l| format!("'{}'", l.name))
            .collect();
        if let [first @ .., last] = &rules[..]
            && !first.is_empty()
            && matches!(kind, HookKind::ScoreHand | HookKind::MatchWinner)
        {
            problems.push(format!(
                "house rules {} and {last} each answer {}, and neither says how they combine \
                 (combines_with): they cannot be combined",
                first.join(", "),
                kind.name()
            ));
        } else if let [first @ .., last] = &rules[..]
            && !first.is_empty()
        {
            warnings.push(format!(
                "house rules {} and {last} each answer {}, but only the last, {last}, is asked \
                 (a later version refuses combining them)",
                first.join(", "),
                kind.name()
            ));
        }
    }
    warnings
}

/// The functions `layer` binds to hook `kind`, in order.
fn bound_to(layer: &Layer, kind: HookKind) -> Vec<&str> {
    layer.hooks.iter().filter(|b| b.kind == kind).map(|b| b.function.as_str()).collect()
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field a house rule may set is a field of the schema (what the
    /// parser lists for an unknown one).
    #[test]
    fn the_rule_fields_are_fields_of_the_schema() {
        let (_, message) = crate::yaml::from_str::<LayerSpec>("bogus: 1\n").unwrap_err();
        let fields = message.split("expected one of ").nth(1).unwrap();
        let fields: Vec<&str> = fields.split(", ").map(str::trim).collect();
        for field in crate::spec::RULE_FIELDS {
            assert!(fields.contains(field), "{field} is not in {fields:?}");
        }
        // The rule's fields and the table's are every field, each once.
        let table = table_fields(&LayerSpec::default());
        let mut all: Vec<&str> =
            crate::spec::RULE_FIELDS.iter().copied().chain(table.iter().map(|(name, _)| *name)).collect();
        all.sort_unstable();
        let mut expected = fields.clone();
        expected.sort_unstable();
        assert_eq!(all, expected);
    }
}
