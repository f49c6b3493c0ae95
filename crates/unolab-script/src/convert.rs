//! Conversions between host values and script values: penalties and draws
//! as maps, colour names, seat numbers, and the answers hooks return.

use rhai::{Dynamic, EvalAltResult, ImmutableString, Map, Position};

use unolab_core::card::{Color, Side};
use unolab_core::rules::desk::{color_named, seat_number as seat};
use unolab_core::rules::{Reason, Verdict};
use unolab_core::seat::Seat;
use unolab_core::text::Text;
use unolab_core::turn::{Challenge, DrawSpec, Penalty};
use unolab_core::variant::Variant;

pub type HostResult<T> = Result<T, Box<EvalAltResult>>;

/// An error raised by a host function, shown with the script's line.
pub fn script_error(message: impl Into<String>) -> Box<EvalAltResult> {
    Box::new(EvalAltResult::ErrorRuntime(Dynamic::from(message.into()), Position::NONE))
}

/// The maps the host gives scripts, each by what it is and its fields
/// (`penalty_to_map`, its challenge and draws; the choice `on_choice` is
/// told of). A map holds all of its fields, so it is known by them.
pub const HOST_MAPS: &[(&str, &[&str])] = &[
    ("a penalty", &["victim", "by", "draw", "until_color", "group", "pending", "challenge"]),
    ("a challenge", &["guilty", "fail", "success"]),
    ("a draw", &["count", "until_color"]),
    ("a choice", &["seat", "tag", "value"]),
];

/// What host map `map` is, and its fields, if it is one.
pub fn host_map(map: &Map) -> Option<(&'static str, &'static [&'static str])> {
    HOST_MAPS
        .iter()
        .find(|(_, fields)| fields.len() == map.len() && fields.iter().all(|field| map.contains_key(*field)))
        .copied()
}

/// Why reading `field` of a host map (`what`, with `fields`) is an error.
pub fn no_such_field(what: &str, fields: &[&str], field: &str) -> String {
    format!(
        "{what} has no field '{field}' (its fields: {}){}",
        fields.join(", "),
        unolab_core::source::did_you_mean(field, fields.iter().copied())
    )
}

fn color_value(variant: &Variant, color: Option<Color>) -> Dynamic {
    color.map(|c| Dynamic::from(variant.names.color_name(c).to_string())).unwrap_or(Dynamic::UNIT)
}

fn draw_spec_map(variant: &Variant, spec: &DrawSpec) -> Dynamic {
    let mut map = Map::new();
    map.insert("count".into(), Dynamic::from(i64::from(spec.count)));
    map.insert("until_color".into(), color_value(variant, spec.until));
    map.into()
}

/// A penalty as scripts see it: `#{victim, by, draw, until_color, group,
/// pending, challenge: #{guilty, fail, success}}`.
pub fn penalty_to_map(variant: &Variant, p: &Penalty) -> Map {
    let mut map = Map::new();
    map.insert("victim".into(), Dynamic::from(p.victim as i64));
    map.insert("by".into(), Dynamic::from(p.by as i64));
    map.insert("draw".into(), Dynamic::from(i64::from(p.draw.count)));
    map.insert("until_color".into(), color_value(variant, p.draw.until));
    map.insert("group".into(), super::values::text(&p.group));
    map.insert("pending".into(), Dynamic::from(p.pending));
    let challenge = match &p.challenge {
        Some(c) => {
            let mut m = Map::new();
            m.insert("guilty".into(), Dynamic::from(c.guilty));
            m.insert("fail".into(), draw_spec_map(variant, &c.fail));
            m.insert("success".into(), draw_spec_map(variant, &c.success));
            Dynamic::from(m)
        }
        None => Dynamic::UNIT,
    };
    map.insert("challenge".into(), challenge);
    map
}

fn draw_spec_from(variant: &Variant, side: Side, value: &Dynamic) -> Result<DrawSpec, String> {
    if let Ok(n) = value.as_int() {
        return u32::try_from(n)
            .map(|count| DrawSpec { count, until: None })
            .map_err(|_| format!("cannot draw {n} cards"));
    }
    let Some(map) = value.read_lock::<Map>() else {
        return Err("a draw is a number or #{count: N, until_color: COLOUR}".into());
    };
    let count = match map.get("count") {
        Some(v) => v.as_int().ok().and_then(|n| u32::try_from(n).ok()).ok_or("count must be a number 0 or more")?,
        None => 0,
    };
    let until = match map.get("until_color") {
        Some(v) if !v.is_unit() => Some(color_named(variant, side, &v.to_string())?),
        _ => None,
    };
    Ok(DrawSpec { count, until })
}

/// Reads a penalty map a script wrote; `by` and `group` default to the
/// given ones.
pub fn penalty_from_map(
    variant: &Variant,
    side: Side,
    players: usize,
    value: &Dynamic,
    by: Seat,
    group: Text,
) -> Result<Penalty, String> {
    let Some(map) = value.read_lock::<Map>() else {
        return Err("a penalty is a map like #{victim: 1, draw: 2}".into());
    };
    // One pass over the fields: each is known, or the map is refused.
    #[derive(Default)]
    struct Fields<'a> {
        victim: Option<&'a Dynamic>,
        by: Option<&'a Dynamic>,
        draw: Option<&'a Dynamic>,
        until_color: Option<&'a Dynamic>,
        group: Option<&'a Dynamic>,
        pending: Option<&'a Dynamic>,
        challenge: Option<&'a Dynamic>,
    }
    let mut fields = Fields::default();
    for (key, value) in map.iter() {
        let field = match key.as_str() {
            "victim" => &mut fields.victim,
            "by" => &mut fields.by,
            "draw" => &mut fields.draw,
            "until_color" => &mut fields.until_color,
            "group" => &mut fields.group,
            "pending" => &mut fields.pending,
            "challenge" => &mut fields.challenge,
            _ => return Err(format!("unknown penalty field '{key}'")),
        };
        *field = Some(value);
    }
    let victim = fields.victim.and_then(|v| v.as_int().ok()).ok_or("victim must be a player number")?;
    let victim = seat(victim, players)?;
    let mut draw = match fields.draw {
        Some(v) => draw_spec_from(variant, side, v)?,
        None => DrawSpec::default(),
    };
    if let Some(v) = fields.until_color
        && !v.is_unit()
    {
        draw.until = Some(color_named(variant, side, &v.to_string())?);
    }
    let group = match fields.group {
        Some(g) => g.clone().into_immutable_string().map_or_else(|_| g.to_string().into(), |g| g.as_str().into()),
        None => group,
    };
    let pending = match fields.pending {
        Some(v) if !v.is_unit() => v.as_bool().map_err(|_| "pending must be true or false")?,
        _ => false,
    };
    let challenge = match fields.challenge {
        Some(c) if !c.is_unit() => {
            let Some(c) = c.read_lock::<Map>() else {
                return Err("challenge must be a map #{guilty, fail, success}".into());
            };
            let guilty =
                c.get("guilty").and_then(|v| v.as_bool().ok()).ok_or("challenge.guilty must be true or false")?;
            let fail = draw_spec_from(variant, side, c.get("fail").ok_or("challenge.fail is missing")?)?;
            let success = draw_spec_from(variant, side, c.get("success").ok_or("challenge.success is missing")?)?;
            Some(Challenge { guilty, fail, success, made: None })
        }
        _ => None,
    };
    let by = match fields.by {
        Some(v) => seat(v.as_int().map_err(|_| "by must be a player number")?, players)?,
        None => by,
    };
    Ok(Penalty { victim, by, draw, group, challenge, pending })
}

/// Reads a predicate's answer: `true`, `false`, `"allow"`, and (where
/// the hook `takes_reasons`) a reason why not, a text or a `Reason` naming
/// a card. Anything else is `None`. The commonest answers, `true` and
/// `false`, are read at once.
#[inline(always)]
pub fn verdict(value: &Dynamic, takes_reasons: bool) -> Option<Verdict> {
    // `is_bool` first: `as_bool` of another value works out its type's
    // name for an error that is not wanted here.
    if !value.is_bool() {
        return other_verdict(value, takes_reasons);
    }
    Some(if value.as_bool() == Ok(true) { Verdict::Yes } else { Verdict::No(None) })
}

/// `verdict` of an answer that is not `true` or `false`.
#[inline(never)]
fn other_verdict(value: &Dynamic, takes_reasons: bool) -> Option<Verdict> {
    let text = value.read_lock::<ImmutableString>();
    if text.as_deref().is_some_and(|text| text == "allow") {
        return Some(Verdict::Allow);
    }
    // Anything else but a reason why not (a text, or a `Reason` naming a
    // card) is no answer.
    if !takes_reasons || (text.is_none() && !value.is::<Reason>()) {
        return None;
    }
    let reason = match text {
        Some(text) => Reason { text: text.as_str().into(), card: None },
        None => value.read_lock::<Reason>()?.clone(),
    };
    Some(Verdict::No(Some(Box::new(reason))))
}

/// A hook's list of numbers, one per seat (`score_hand`).
pub fn seat_numbers(value: &Dynamic, players: usize) -> Option<Vec<i64>> {
    let list = value.clone().into_array().ok()?;
    (list.len() == players).then(|| list.iter().map(|v| v.as_int().ok()).collect()).flatten()
}

/// The seats a `match_winner` hook named: one, a list, or none (`()`).
pub fn named_seats(value: &Dynamic, players: usize) -> Option<Vec<Seat>> {
    let seat = |v: &Dynamic| v.as_int().ok().and_then(|s| usize::try_from(s).ok()).filter(|&s| s < players);
    if value.is_unit() {
        Some(Vec::new())
    } else if value.is_int() {
        seat(value).map(|s| vec![s])
    } else {
        value.clone().into_array().ok()?.iter().map(seat).collect()
    }
}
