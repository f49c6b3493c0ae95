//! `unolab new`: the files a new variant or house rule starts from, each
//! one working as written (the scenario passes, `check` is clean, the
//! snapshot spec plays), so an author edits something that runs instead of
//! writing from nothing.

use std::path::{Path, PathBuf};

use crate::builtin;
use crate::card::Value;
use crate::variant::Variant;

/// A file to write: where, and what.
pub struct NewFile {
    pub path: PathBuf,
    pub text: String,
}

/// A name that works as a file name and a YAML `name:`.
pub fn check_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        && name.as_bytes()[0].is_ascii_alphabetic();
    if ok { Ok(()) } else { Err(format!("'{name}' is not a name: letters, digits, - and _, starting with a letter")) }
}

/// A house rule in `DIR/NAME/`: its YAML, its script and a scenario that
/// shows what it does, played on `on` (a built-in variant).
pub fn rule(dir: &Path, name: &str, on: &Variant, on_name: &str) -> Result<Vec<NewFile>, String> {
    check_name(name)?;
    let at = dir.join(name);
    let [first, second] = [0, 1].map(|color| plain_numbers(on, color));
    // The rule's number: 5 where the colour has one (every built-in deck
    // does), and two other numbers of the colour for the scenario.
    let n = if first.contains(&5) { 5 } else { first.get(first.len() / 2).copied().unwrap_or(0) };
    let others: Vec<u8> = first.iter().copied().filter(|&m| m != n).collect();
    let ([b, c, ..], [x, y, ..]) = (&others[..], &second[..]) else {
        return Err(format!("{on_name}'s first two colours have too few plain numbers for a starter scenario"));
    };
    let (one, two) = (on.names.color_name(0), on.names.color_name(1));
    let players = on.table_sizes().find(|&n| n >= 3).unwrap_or(on.min_players);
    Ok(vec![
        NewFile {
            path: at.join(format!("{name}.yaml")),
            text: format!(
                "# {name}: a house rule. Edit the description and the hooks; the
# authoring guide (docs/authoring.md) lists every hook and host function.
name: {name}
description: A {n} makes the next player draw a card.
scripts: [{name}.rhai]
hooks:
  on_play:
    - {{match: \"{n}\", call: draws_one}}
"
            ),
        },
        NewFile {
            path: at.join(format!("{name}.rhai")),
            text: "// The next player draws one card (a penalty: it costs them their\n\
                   // turn, as a draw card does).\n\
                   fn draws_one(card) {\n    penalty(next_player(), 1);\n}\n"
                .to_string(),
        },
        NewFile {
            path: at.join("scenarios").join(format!("{name}.yaml")),
            text: format!(
                "name: A {n} makes the next player draw a card and lose their turn
variant: {on_name}
players: {players}
rules: [../{name}.yaml]
setup:
  hands: {{0: [{one} {n}, {one} {b}], 1: [{two} {x}, {two} {y}]}}
  discard: [{one} {c}]
steps:
  - play: {one} {n}
  - expect: {{hand_sizes: {{0: 1, 1: 3}}, current: 2}}
"
            ),
        },
        snapshot_spec(&at, name, &format!("{on_name} with {name}"), on_name, Some(name), players),
    ])
}

/// A snapshot spec in `AT/snapshots/`: seeded games whose transcripts are
/// kept beside it once accepted (`unolab snapshot`).
fn snapshot_spec(at: &Path, name: &str, what: &str, variant: &str, rule: Option<&str>, players: usize) -> NewFile {
    let rules = rule.map(|r| format!("rules: [../{r}.yaml]\n")).unwrap_or_default();
    NewFile {
        path: at.join("snapshots").join(format!("{name}{}", crate::snapshot::SPEC_SUFFIX)),
        text: format!(
            "# Seeded bot games of {what}. `unolab snapshot` plays them and compares
# each transcript with the .snap file beside this one.
description: {what}
variant: {variant}
{rules}players: {players}
seeds: [1, 2, 3]
"
        ),
    }
}

/// The plain numbers (no second colour, no mark) of a colour's light
/// faces, in order.
fn plain_numbers(variant: &Variant, color: crate::card::Color) -> Vec<u8> {
    let mut numbers: Vec<u8> = variant
        .designs
        .iter()
        .filter(|d| d.light.color == Some(color) && d.light.flex.is_none() && !d.light.marked)
        .filter_map(|d| match d.light.value {
            Value::Number(n) => Some(n),
            Value::Symbol(_) => None,
        })
        .collect();
    numbers.sort_unstable();
    numbers.dedup();
    numbers
}

/// A variant in `DIR/NAME/`: a copy of `from` (a built-in variant) with its
/// scripts beside it, and a scenario of a plain play in its deck.
pub fn variant(dir: &Path, name: &str, from: &Variant, from_name: &str) -> Result<Vec<NewFile>, String> {
    check_name(name)?;
    let at = dir.join(name);
    let source = format!("variants/{from_name}.yaml");
    let yaml = builtin::file(&source).ok_or_else(|| format!("'{from_name}' is not a built-in variant"))?;
    let mut files = Vec::new();
    // The copy's own name and a description to write; `default:` is for
    // built-in variants only. A field left out or replaced goes with the
    // indented lines that continue it.
    let mut text = format!("# {name}: a variant started from a copy of {from_name}; edit what it says.\n");
    let mut skipping = false;
    // The comments at the top describe the original.
    for line in yaml.lines().skip_while(|line| line.starts_with('#')) {
        if skipping && line.starts_with([' ', '\t']) {
            continue;
        }
        let field = line.split_once(':').map(|(field, _)| field);
        skipping = matches!(field, Some("name" | "description" | "default"));
        match field {
            Some("name") => text += &format!("name: {name}\n"),
            Some("description") => {
                text += &format!("description: {name}, a variant started from {from_name} (say here what it is)\n")
            }
            Some("default") => {}
            _ => {
                text += line;
                text.push('\n');
            }
        }
    }
    // The scripts the copy names, copied beside it under their own names.
    for layer in from.layers.iter().filter(|l| !l.is_rule) {
        for script in &layer.scripts {
            let file_name = Path::new(&script.name).file_name().map(|f| f.to_string_lossy().to_string());
            let file_name = file_name.ok_or_else(|| format!("no file name in '{}'", script.name))?;
            for reference in [format!("../scripts/{file_name}"), format!("../../scripts/{file_name}")] {
                text = text.replace(&reference, &file_name);
            }
            files.push(NewFile { path: at.join(&file_name), text: script.text.clone() });
        }
    }
    files.insert(0, NewFile { path: at.join(format!("{name}.yaml")), text });
    files.push(NewFile { path: at.join("scenarios").join(format!("{name}.yaml")), text: plain_play(name, from)? });
    let players = from.table_sizes().find(|&n| n >= 4).unwrap_or(from.min_players);
    files.push(snapshot_spec(&at, name, name, &format!("../{name}.yaml"), None, players));
    Ok(files)
}

/// A scenario any deck can play: two numbers of the first colour for p0,
/// one on the discard pile; p0 plays one, and the turn moves on.
fn plain_play(name: &str, variant: &Variant) -> Result<String, String> {
    let names = &variant.names;
    let color = 0;
    let numbers = plain_numbers(variant, color);
    let [a, b, c, ..] = numbers[..] else {
        return Err(format!("{}'s first colour has too few plain numbers for a starter scenario", variant.name));
    };
    let colour = names.color_name(color);
    let players = variant.table_sizes().next().unwrap_or(variant.min_players);
    Ok(format!(
        "name: A card of the colour in play may be played; the turn moves on
variant: ../{name}.yaml
players: {players}
setup:
  hands: {{0: [{colour} {a}, {colour} {b}]}}
  discard: [{colour} {c}]
steps:
  - play: {colour} {a}
  - expect: {{hand_sizes: {{0: 1}}, current: 1}}
"
    ))
}

/// What to run next, as the README would say it, each path quoted where a
/// shell needs it (a space in it), so that a line can be pasted.
pub fn next_steps(files: &[NewFile], rule: bool) -> String {
    let quoted = |path: String| crate::ruleset::shell_word(&path);
    let yaml = quoted(files[0].path.display().to_string());
    let folder_of = |what: &str| {
        files
            .iter()
            .filter_map(|f| f.path.parent())
            .find(|dir| dir.file_name().is_some_and(|n| n == what))
            .map(|dir| quoted(format!("{}/", dir.display())))
            .unwrap_or_default()
    };
    let (scenarios, snapshots) = (folder_of("scenarios"), folder_of("snapshots"));
    let play = if rule { format!("unolab play -r {yaml}") } else { format!("unolab play {yaml}") };
    format!(
        "next:\n  unolab check {yaml}\n  unolab scenario {scenarios}\n  \
         unolab snapshot {snapshots}            (plays seeded games: their transcripts to read)\n  \
         unolab snapshot {snapshots} --accept   (keeps them: later changes show as diffs)\n  \
         {play}\n\
         then edit the files; the authoring guide is docs/authoring.md"
    )
}
