//! `unolab variants`, `deck` and `rules`: what the built-in variants and
//! rules are, a deck card by card, and the rule sheet.

use serde_json::json;

use super::{BAD_INPUT, SUCCESS, load};
use crate::args::Ruleset;
use crate::builtin;

pub(super) fn variants() -> i32 {
    say!("variants:");
    // Descriptions come from the YAML alone; `unolab check` validates.
    for name in builtin::variant_names() {
        match crate::builtin::spec(&format!("variants/{name}.yaml")) {
            Some(spec) => say!("  {name:<18} {}", spec.description),
            None => say!("  {name:<18} (does not load: run 'unolab check {name}')"),
        }
    }
    say!("house rules (-r NAME):");
    for name in builtin::rule_names() {
        let Some(spec) = crate::builtin::spec(&format!("variants/rules/{name}.yaml")) else {
            say!("  {name:<18} (does not load)");
            continue;
        };
        say!("  {name:<18} {}", spec.description);
        let options: Vec<String> = spec.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        if !options.is_empty() {
            say!("  {:<18}   options: {}", "", options.join(", "));
        }
        for (variant, why) in &spec.inert_in {
            say!("  {:<18}   in {variant}: {why}", "");
        }
    }
    SUCCESS
}

pub(super) fn deck(ruleset: &Ruleset, as_json: bool) -> i32 {
    let Ok(variant) = load(ruleset) else { return BAD_INPUT };
    let names = &variant.names;
    let mut cards = Vec::new();
    for (index, design) in variant.designs.iter().enumerate() {
        let points = if variant.double_sided {
            json!([names.points(&design.light), names.points(design.dark.as_ref().unwrap_or(&design.light))])
        } else {
            json!(names.points(&design.light))
        };
        cards.push(json!({"card": names.format_card(design), "count": variant.copies[index], "points": points}));
    }
    if variant.power_cards > 0 {
        cards.push(json!({"card": "power", "count": variant.power_cards, "points": 0}));
    }
    if as_json {
        let out = json!({"variant": variant.name, "total": variant.total_cards(), "cards": cards});
        say!("{out}");
        return SUCCESS;
    }
    for line in variant.summary() {
        say!("{line}");
    }
    say!("{} cards", variant.total_cards());
    for card in &cards {
        let points = match &card["points"] {
            serde_json::Value::Array(p) => format!("{} / {} points", p[0], p[1]),
            p if p.as_i64() == Some(1) => "1 point".to_string(),
            p => format!("{p} points"),
        };
        say!("  {:>3} x {:<40} {points}", card["count"], card["card"].as_str().unwrap_or_default());
    }
    say!("total {}", variant.total_cards());
    SUCCESS
}

/// The rule sheet of a variant with its rules.
pub(super) fn rules(ruleset: &Ruleset) -> i32 {
    let Ok(variant) = load(ruleset) else { return BAD_INPUT };
    for line in variant.rule_sheet(None) {
        say!("{line}");
    }
    SUCCESS
}
