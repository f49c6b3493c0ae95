//! `unolab deck VARIANT --json` against the deck tables of rules.md, card
//! for card. The expected decks are written out here independently of the
//! variant YAML files.

use std::collections::BTreeMap;
use std::process::Command;

use serde_json::Value;

const COLORS: [&str; 4] = ["red", "yellow", "green", "blue"];

/// card -> (count, points) as `deck --json` prints it, and the total.
fn deck(variant: &str) -> (BTreeMap<String, (u64, Value)>, u64) {
    let output = Command::new(env!("CARGO_BIN_EXE_unolab")).args(["deck", variant, "--json"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["variant"], variant);
    let mut cards = BTreeMap::new();
    for card in json["cards"].as_array().unwrap() {
        let name = card["card"].as_str().unwrap().to_string();
        let previous = cards.insert(name.clone(), (card["count"].as_u64().unwrap(), card["points"].clone()));
        assert!(previous.is_none(), "{name} listed twice");
    }
    let sum: u64 = cards.values().map(|(count, _)| count).sum();
    assert_eq!(json["total"].as_u64().unwrap(), sum, "total is the sum of counts");
    (cards, sum)
}

fn expect(cards: &mut BTreeMap<String, (u64, Value)>, name: &str, count: u64, points: Value) {
    assert_eq!(cards.remove(name), Some((count, points.clone())), "{name}: expected {count} x {points}");
}

#[test]
fn classic_matches_rules_2_1() {
    let (mut cards, total) = deck("classic");
    assert_eq!(total, 108);
    for color in COLORS {
        expect(&mut cards, &format!("{color} 0"), 1, 0.into());
        for n in 1..=9 {
            expect(&mut cards, &format!("{color} {n}"), 2, n.into());
        }
        for action in ["skip", "reverse", "draw2"] {
            expect(&mut cards, &format!("{color} {action}"), 2, 20.into());
        }
    }
    expect(&mut cards, "wild", 4, 50.into());
    expect(&mut cards, "wild-draw4", 4, 50.into());
    assert!(cards.is_empty(), "unexpected cards: {cards:?}");
}

#[test]
fn flex_matches_appendix_a() {
    let (mut cards, total) = deck("flex");
    assert_eq!(total, 112);
    // Appendix A: flip icons on even numbers for red and green, odd for
    // yellow and blue; flex colours per regular colour for 1-3, 4-6, 7-8.
    let flex_colors = [
        ("red", ["blue", "green", "yellow"], 0),
        ("yellow", ["green", "blue", "red"], 1),
        ("green", ["yellow", "red", "blue"], 0),
        ("blue", ["red", "yellow", "green"], 1),
    ];
    for (color, flex, icon_parity) in flex_colors {
        for n in 1..=8i64 {
            let icon = if n % 2 == icon_parity { "*" } else { "" };
            expect(&mut cards, &format!("{color} {n}{icon}"), 1, n.into());
            let band = flex[((n - 1) / 3) as usize];
            expect(&mut cards, &format!("{color}/{band} {n}"), 1, n.into());
        }
        for action in ["skip", "reverse", "draw2", "flex-skip", "flex-reverse", "flex-draw2"] {
            expect(&mut cards, &format!("{color} {action}"), 1, 20.into());
        }
    }
    for wild in ["wild-all-flip", "wild-target-draw2", "wild-all-draw", "wild-draw4"] {
        expect(&mut cards, wild, 4, 50.into());
    }
    expect(&mut cards, "power", 8, 0.into());
    assert!(cards.is_empty(), "unexpected cards: {cards:?}");
}

#[test]
fn express_matches_rules_5_1() {
    let (mut cards, total) = deck("express");
    assert_eq!(total, 56);
    for color in COLORS {
        for n in 1..=9 {
            expect(&mut cards, &format!("{color} {n}"), 1, n.into());
        }
        for action in ["skip", "reverse", "draw1"] {
            expect(&mut cards, &format!("{color} {action}"), 1, 20.into());
        }
    }
    expect(&mut cards, "wild", 4, 50.into());
    expect(&mut cards, "wild-draw2", 4, 50.into());
    assert!(cards.is_empty(), "unexpected cards: {cards:?}");
}
