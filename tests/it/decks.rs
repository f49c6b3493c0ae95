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

/// rules.md Appendix B, row by row: a light card, its copies, and the dark
/// side of each copy.
const APPENDIX_B: &[&str] = &[
    "Red 1 (×2) | Pink 3 · Purple 2",
    "Red 2 (×2) | Orange Reverse · Purple Draw Five",
    "Red 3 (×2) | Pink 7 · Wild Draw Color",
    "Red 4 (×2) | Orange Flip · Purple Draw Five",
    "Red 5 (×2) | Pink 2 · Teal 5",
    "Red 6 (×2) | Orange 9 · Pink Skip Everyone",
    "Red 7 (×2) | Orange 1 · Purple 5",
    "Red 8 (×2) | Purple Reverse · Teal 7",
    "Red 9 (×2) | Purple 5 · Teal Reverse",
    "Red Draw One (×2) | Pink 3 · Pink 4",
    "Red Skip (×2) | Orange Draw Five · Wild",
    "Red Reverse (×2) | Purple 3 · Teal 7",
    "Red Flip (×2) | Pink 8 · Purple 3",
    "Yellow 1 (×2) | Pink Skip Everyone · Wild",
    "Yellow 2 (×2) | Teal 1 · Teal 8",
    "Yellow 3 (×2) | Pink Draw Five · Purple 1",
    "Yellow 4 (×2) | Pink Draw Five · Purple Flip",
    "Yellow 5 (×2) | Purple 9 · Teal 8",
    "Yellow 6 (×2) | Orange Skip Everyone · Wild Draw Color",
    "Yellow 7 (×2) | Orange 2 · Purple 6",
    "Yellow 8 (×2) | Orange 2 · Pink 1",
    "Yellow 9 (×2) | Purple 4 · Teal 5",
    "Yellow Draw One (×2) | Pink 1 · Purple 8",
    "Yellow Skip (×2) | Orange 3 · Teal Flip",
    "Yellow Reverse (×2) | Teal Flip · Wild",
    "Yellow Flip (×2) | Orange 8 · Pink 4",
    "Green 1 (×2) | Orange 5 · Orange Flip",
    "Green 2 (×2) | Teal Draw Five · Teal Skip Everyone",
    "Green 3 (×2) | Pink Flip · Purple 2",
    "Green 4 (×2) | Pink 8 · Teal 9",
    "Green 5 (×2) | Orange 7 · Teal 4",
    "Green 6 (×2) | Pink 5 · Wild Draw Color",
    "Green 7 (×2) | Orange 6 · Teal 2",
    "Green 8 (×2) | Pink Reverse · Teal 9",
    "Green 9 (×2) | Orange Draw Five · Pink Reverse",
    "Green Draw One (×2) | Orange 6 · Teal 6",
    "Green Skip (×2) | Orange 9 · Purple 4",
    "Green Reverse (×2) | Orange 1 · Pink 7",
    "Green Flip (×2) | Teal 3 · Wild Draw Color",
    "Blue 1 (×2) | Purple Skip Everyone · Purple Skip Everyone",
    "Blue 2 (×2) | Orange 8 · Pink 6",
    "Blue 3 (×2) | Purple 8 · Teal 2",
    "Blue 4 (×2) | Purple 1 · Teal Draw Five",
    "Blue 5 (×2) | Orange Reverse · Pink 9",
    "Blue 6 (×2) | Purple Reverse · Teal Skip Everyone",
    "Blue 7 (×2) | Orange 3 · Orange Skip Everyone",
    "Blue 8 (×2) | Teal 4 · Teal Reverse",
    "Blue 9 (×2) | Orange 5 · Purple Flip",
    "Blue Draw One (×2) | Pink 6 · Teal 6",
    "Blue Skip (×2) | Pink 9 · Teal 1",
    "Blue Reverse (×2) | Orange 4 · Wild",
    "Blue Flip (×2) | Purple 6 · Purple 7",
    "Wild (×4) | Pink 5 · Pink Flip · Purple 7 · Teal 3",
    "Wild Draw Two (×4) | Orange 4 · Orange 7 · Pink 2 · Purple 9",
];

fn flip_name(text: &str) -> String {
    let lower = text.trim().to_lowercase();
    [
        ("wild draw two", "wild-draw2"),
        ("wild draw color", "wild-draw-color"),
        ("draw one", "draw1"),
        ("draw five", "draw5"),
        ("skip everyone", "skip-everyone"),
    ]
    .iter()
    .fold(lower, |name, (long, short)| name.replace(long, short))
}

#[test]
fn flip_matches_appendix_b_pairing_for_pairing() {
    let (mut cards, total) = deck("flip");
    assert_eq!(total, 112);
    let mut expected: BTreeMap<String, u64> = BTreeMap::new();
    for row in APPENDIX_B {
        let (light, darks) = row.split_once(" | ").unwrap();
        let (light, copies) = light.split_once(" (×").unwrap();
        let copies: usize = copies.trim_end_matches(')').parse().unwrap();
        let darks: Vec<&str> = darks.split(" · ").collect();
        assert_eq!(darks.len(), copies, "{row}");
        for dark in darks {
            *expected.entry(format!("{} // {}", flip_name(light), flip_name(dark))).or_default() += 1;
        }
    }
    let light_points = |face: &str| match face.rsplit(' ').next().unwrap() {
        "draw1" => 10,
        "skip" | "reverse" | "flip" => 20,
        "wild" => 40,
        "wild-draw2" => 50,
        n => n.parse().unwrap(),
    };
    let dark_points = |face: &str| match face.rsplit(' ').next().unwrap() {
        "draw5" | "reverse" | "flip" => 20,
        "skip-everyone" => 30,
        "wild" => 40,
        "wild-draw-color" => 60,
        n => n.parse().unwrap(),
    };
    assert_eq!(expected.values().sum::<u64>(), 112);
    for (card, count) in expected {
        let (light, dark) = card.split_once(" // ").unwrap();
        let points: Value = vec![light_points(light), dark_points(dark)].into();
        expect(&mut cards, &card, count, points);
    }
    assert!(cards.is_empty(), "unexpected cards: {cards:?}");
}
