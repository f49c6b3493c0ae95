//! The host functions scripts call, and the card type they see. Each is
//! registered as one of three kinds: `pure!` answers from the call itself
//! (who plays, which card, how) and the variant; `read!` reads the table;
//! `change!` changes the table or the turn and is refused, naming the hook,
//! outside effect hooks (`on_play`, `first_discard`). Changes are recorded
//! as ops (`crate::turn::Op`), so that the game can replay them.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use rhai::{Array, Dynamic, Engine, ImmutableString, Map};

use super::convert::{self, HostResult, script_error};
use super::engine::MAX_VARS;
use super::{HookCtx, ScriptCard};
use crate::card::{Color, Value};
use crate::turn::{DrawSpec, FirstDiscard, Op, Penalty};
use crate::variant::{HookMode, OptionValue, Variant};

/// The variant as the host API sees it, with colour and symbol names made
/// into script strings once, so that reading `card.color` allocates nothing.
struct Api {
    variant: Arc<Variant>,
    colors: Vec<ImmutableString>,
    symbols: Vec<ImmutableString>,
}

impl std::ops::Deref for Api {
    type Target = Variant;
    fn deref(&self) -> &Variant {
        &self.variant
    }
}

impl Api {
    fn new(variant: &Arc<Variant>) -> Api {
        let names = &variant.names;
        Api {
            variant: variant.clone(),
            colors: names.colors.iter().map(|c| c.as_str().into()).collect(),
            symbols: names.symbols.iter().map(|s| s.name.as_str().into()).collect(),
        }
    }

    fn color(&self, color: Option<Color>) -> Dynamic {
        color.map(|c| Dynamic::from(self.colors[c as usize].clone())).unwrap_or(Dynamic::UNIT)
    }

    fn symbol(&self, symbol: crate::card::SymbolId) -> Dynamic {
        Dynamic::from(self.symbols[symbol as usize].clone())
    }

    fn card(id: crate::card::CardId, side: crate::card::Side) -> Dynamic {
        Dynamic::from(ScriptCard { id, side })
    }
}

impl HookCtx {
    fn seat(&self, p: i64) -> HostResult<crate::event::Seat> {
        convert::seat(p, self.table.players()).map_err(script_error)
    }

    /// Refuses a change outside an effect hook, naming the hook.
    fn may_change(&self, what: &str) -> HostResult<()> {
        let hook = self.call.hook;
        match hook.mode() {
            HookMode::Effect => Ok(()),
            HookMode::Predicate => {
                Err(script_error(format!("{what}() changes the game; {} hooks only answer a question", hook.name())))
            }
            HookMode::Transform => Err(script_error(format!(
                "{what}() changes the game; {} hooks may change only the value they return",
                hook.name()
            ))),
        }
    }

    /// Performs a change that is ignored on a player's last card (skips,
    /// reverses, colour choices, hand swaps: rules.md 1.6).
    fn act(&mut self, what: &str, variant: &Variant, op: Op) -> HostResult<Dynamic> {
        self.may_change(what)?;
        if !self.call.going_out {
            self.perform(variant, op);
        }
        Ok(Dynamic::UNIT)
    }

    /// Performs a change that happens even on a player's last card.
    fn change(&mut self, what: &str, variant: &Variant, op: Op) -> HostResult<Dynamic> {
        self.may_change(what)?;
        self.perform(variant, op);
        Ok(Dynamic::UNIT)
    }

    /// The symbol group of the card being played: a penalty's default group.
    fn played_group(&self, variant: &Variant) -> ImmutableString {
        let symbol = self.call.card.and_then(|id| variant.face(id, self.table.side).symbol());
        symbol
            .map(|s| variant.names.symbol_info(variant.names.symbol_info(s).group).name.as_str().into())
            .unwrap_or_default()
    }
}

/// Registers the card type and every host function scripts may call.
pub fn register(engine: &mut Engine, ctx: &Rc<RefCell<HookCtx>>, variant: &Arc<Variant>) {
    let variant = &Rc::new(Api::new(variant));
    register_card_type(engine, variant);

    // `read!` marks the call as reading the table: a hook that calls one
    // cannot be replayed from the effect cache. `pure!` answers follow from
    // the cache key alone; `change!` functions are recorded as ops. Anything
    // new is `read!` unless shown otherwise.
    macro_rules! register {
        ($reads_table:expr, $name:literal, |$c:ident, $v:ident $(, $arg:ident : $ty:ty)*| $body:expr) => {{
            let ctx = ctx.clone();
            let $v = variant.clone();
            engine.register_fn($name, move |$($arg: $ty),*| -> HostResult<Dynamic> {
                let mut guard = ctx.borrow_mut();
                #[allow(unused_variables)]
                let $c = &mut *guard;
                if $reads_table {
                    $c.cacheable = false;
                }
                #[allow(unused_variables)]
                let $v = &*$v;
                $body
            });
        }};
    }
    macro_rules! read {
        ($($t:tt)*) => { register!(true, $($t)*) };
    }
    macro_rules! pure {
        ($($t:tt)*) => { register!(false, $($t)*) };
    }
    macro_rules! change {
        ($($t:tt)*) => { register!(false, $($t)*) };
    }

    // Questions about the table.
    pure!("players", |c, v| Ok(Dynamic::from(c.table.players() as i64)));
    pure!("me", |c, v| Ok(Dynamic::from(c.call.me as i64)));
    read!("current", |c, v| Ok(Dynamic::from(c.table.to_act() as i64)));
    read!("dealer", |c, v| Ok(Dynamic::from(c.table.dealer as i64)));
    pure!("next_player", |c, v| Ok(Dynamic::from(c.table.seat_after(c.call.me, 1) as i64)));
    pure!("next_player", |c, v, n: i64| {
        let steps = usize::try_from(n).map_err(|_| script_error("next_player takes 0 or more steps"))?;
        Ok(Dynamic::from(c.table.seat_after(c.call.me, steps) as i64))
    });
    pure!("seat_after", |c, v, p: i64, n: i64| {
        let from = c.seat(p)?;
        let steps = usize::try_from(n).map_err(|_| script_error("seat_after takes 0 or more steps"))?;
        Ok(Dynamic::from(c.table.seat_after(from, steps) as i64))
    });
    pure!("direction", |c, v| Ok(Dynamic::from(c.table.direction.name().to_string())));
    read!("color", |c, v| Ok(v.color(c.table.color)));
    read!("prev_color", |c, v| Ok(v.color(c.call.prev_color)));
    pure!("side", |c, v| Ok(Dynamic::from(c.table.side.name().to_string())));
    read!("hand_size", |c, v, p: i64| Ok(Dynamic::from(c.table.hands[c.seat(p)?].len() as i64)));
    read!("hand", |c, v, p: i64| {
        let seat = c.seat(p)?;
        let side = c.table.side;
        let cards: Array = c.table.hands[seat].iter().map(|&id| Api::card(id, side)).collect();
        Ok(Dynamic::from(cards))
    });
    read!("top", |c, v| Ok(c.table.top().map(|id| Api::card(id, c.table.side)).unwrap_or(Dynamic::UNIT)));
    read!("draw_size", |c, v| Ok(Dynamic::from(c.table.draw.len() as i64)));
    read!("discard_size", |c, v| Ok(Dynamic::from(c.table.discard.len() as i64)));
    pure!("as_flex", |c, v| Ok(Dynamic::from(c.call.as_flex)));
    pure!("target", |c, v| Ok(c.call.target.map(|t| Dynamic::from(t as i64)).unwrap_or(Dynamic::UNIT)));
    pure!("going_out", |c, v| Ok(Dynamic::from(c.call.going_out)));
    read!("answering", |c, v| Ok(c
        .call
        .answering
        .as_ref()
        .map(|p| Dynamic::from(convert::penalty_to_map(v, p)))
        .unwrap_or(Dynamic::UNIT)));
    read!("pending_penalty", |c, v| Ok(c
        .table
        .phase
        .penalty()
        .map(|p| Dynamic::from(convert::penalty_to_map(v, p)))
        .unwrap_or(Dynamic::UNIT)));
    read!("power", |c, v, p: i64| {
        let seat = c.seat(p)?;
        c.table
            .power
            .get(seat)
            .map(|&g| Dynamic::from(g))
            .ok_or_else(|| script_error("this variant has no Power Cards"))
    });
    read!("drawn", |c, v| Ok(c.table.drawn().map(|id| Api::card(id, c.table.side)).unwrap_or(Dynamic::UNIT)));
    read!("top_is_fresh", |c, v| Ok(Dynamic::from(c.table.landing.is_fresh())));
    read!("last_player", |c, v| Ok(c.table.landing.player().map(|p| Dynamic::from(p as i64)).unwrap_or(Dynamic::UNIT)));
    read!("score", |c, v, p: i64| Ok(Dynamic::from(c.table.scores[c.seat(p)?])));
    pure!("target_score", |c, v| Ok(Dynamic::from(v.target_score)));
    read!("points", |c, v, p: i64| Ok(Dynamic::from(c.table.hand_points(v, c.seat(p)?))));
    pure!("option", |c, v, name: ImmutableString| match v.options.get(name.as_str()) {
        Some(OptionValue::Bool(b)) => Ok(Dynamic::from(*b)),
        Some(OptionValue::Int(i)) => Ok(Dynamic::from(*i)),
        Some(OptionValue::Text(t)) => Ok(Dynamic::from(t.clone())),
        None => Err(script_error(format!("no option '{name}' is declared"))),
    });
    read!("var", |c, v, name: ImmutableString| Ok(Dynamic::from(c.table.vars.get(&name).copied().unwrap_or(0))));
    read!("playable", |c, v, card: ScriptCard| match &c.call.playable {
        Some(cards) => Ok(Dynamic::from(cards.contains(&card.id))),
        None => Err(script_error("playable() is only answered in can_draw, can_pass and draw_again hooks")),
    });
    read!("matches_top", |c, v, card: ScriptCard| {
        Ok(Dynamic::from(c.table.matches(v, v.face(card.id, c.table.side), false)))
    });

    // Changes to the table, each recorded as an op (`HookCtx::perform`).
    change!("skip", |c, v, n: i64| {
        let n = usize::try_from(n).map_err(|_| script_error("skip takes 0 or more players"))?;
        c.act("skip", v, Op::Skip(n))
    });
    change!("reverse", |c, v| c.act("reverse", v, Op::Reverse));
    change!("set_next", |c, v, p: i64| {
        let seat = c.seat(p)?;
        c.act("set_next", v, Op::SetNext(seat))
    });
    read!("draw", |c, v, p: i64, n: i64| {
        c.may_change("draw")?;
        let seat = c.seat(p)?;
        let count = u32::try_from(n).map_err(|_| script_error(format!("cannot draw {n} cards")))?;
        let drawn = c.table.draw_cards(v, seat, DrawSpec { count, until: None }, &mut c.log);
        Ok(Dynamic::from(i64::from(drawn)))
    });
    read!("draw_until", |c, v, p: i64, color: ImmutableString| {
        c.may_change("draw_until")?;
        let seat = c.seat(p)?;
        let until = Some(convert::color_arg(v, c.table.side, &color).map_err(script_error)?);
        let drawn = c.table.draw_cards(v, seat, DrawSpec { count: 0, until }, &mut c.log);
        Ok(Dynamic::from(i64::from(drawn)))
    });
    change!("penalty", |c, v, p: i64, n: i64| {
        c.may_change("penalty")?;
        let victim = c.seat(p)?;
        let count = u32::try_from(n).map_err(|_| script_error(format!("cannot draw {n} cards")))?;
        let draw = DrawSpec { count, until: None };
        let penalty =
            Penalty { victim, by: c.call.me, draw, group: c.played_group(v), challenge: None, pending: false };
        c.change("penalty", v, Op::Penalty(penalty))
    });
    change!("penalty", |c, v, spec: Map| {
        c.may_change("penalty")?;
        let (side, players, group) = (c.table.side, c.table.players(), c.played_group(v));
        let penalty = convert::penalty_from_map(v, side, players, &Dynamic::from(spec), c.call.me, group)
            .map_err(script_error)?;
        c.change("penalty", v, Op::Penalty(penalty))
    });
    change!("ask_color", |c, v, p: i64| {
        let seat = c.seat(p)?;
        c.act("ask_color", v, Op::AskColor(seat))
    });
    change!("set_color", |c, v, name: ImmutableString| {
        c.may_change("set_color")?;
        let color = convert::color_arg(v, c.table.side, &name).map_err(script_error)?;
        c.change("set_color", v, Op::SetColor(color))
    });
    change!("set_power", |c, v, p: i64, green: bool| {
        c.may_change("set_power")?;
        let seat = c.seat(p)?;
        if c.table.power.is_empty() {
            return Err(script_error("this variant has no Power Cards"));
        }
        c.change("set_power", v, Op::SetPower(seat, green))
    });
    change!("flip", |c, v| {
        c.may_change("flip")?;
        if !v.double_sided {
            return Err(script_error("flip needs a double-sided deck"));
        }
        c.change("flip", v, Op::Flip)
    });
    change!("swap_hands", |c, v, a: i64, b: i64| {
        let (a, b) = (c.seat(a)?, c.seat(b)?);
        c.act("swap_hands", v, Op::SwapHands(a, b))
    });
    change!("pass_hands", |c, v| c.act("pass_hands", v, Op::PassHands));
    read!("set_var", |c, v, name: ImmutableString, value: i64| {
        c.may_change("set_var")?;
        if c.table.vars.len() >= MAX_VARS && !c.table.vars.contains_key(&name) {
            return Err(script_error(format!("at most {MAX_VARS} variables per game")));
        }
        c.change("set_var", v, Op::SetVar(name, value))
    });
    change!("redraw", |c, v| c.change("redraw", v, Op::FirstDiscard(FirstDiscard::Redraw)));
    change!("turn_next", |c, v| c.change("turn_next", v, Op::FirstDiscard(FirstDiscard::TurnNext)));
    change!("log", |c, v, text: ImmutableString| c.change("log", v, Op::Log(text)));
}

fn register_card_type(engine: &mut Engine, variant: &Rc<Api>) {
    engine.register_type_with_name::<ScriptCard>("Card");
    macro_rules! getter {
        ($name:literal, |$v:ident, $face:ident, $card:ident| $body:expr) => {{
            let $v = variant.clone();
            engine.register_get($name, move |$card: &mut ScriptCard| -> Dynamic {
                let $face = *$v.face($card.id, $card.side);
                $body
            });
        }};
    }
    getter!("color", |v, face, _c| v.color(face.color));
    getter!("flex_color", |v, face, _c| v.color(face.flex));
    getter!("number", |_v, face, _c| face.number().map(|n| Dynamic::from(i64::from(n))).unwrap_or(Dynamic::UNIT));
    getter!("symbol", |v, face, _c| match face.value {
        Value::Symbol(s) => v.symbol(s),
        Value::Number(_) => Dynamic::UNIT,
    });
    getter!("group", |v, face, _c| match face.value {
        Value::Symbol(s) => v.symbol(v.names.symbol_info(s).group),
        Value::Number(_) => Dynamic::UNIT,
    });
    getter!("is_wild", |_v, face, _c| Dynamic::from(face.is_wild()));
    getter!("is_number", |_v, face, _c| Dynamic::from(face.number().is_some()));
    getter!("is_action", |_v, face, _c| Dynamic::from(face.symbol().is_some() && !face.is_wild()));
    getter!("marked", |_v, face, _c| Dynamic::from(face.marked));
    getter!("restricted", |v, face, _c| Dynamic::from(
        face.symbol().is_some_and(|s| v.names.symbol_info(s).restricted)
    ));
    getter!("has_flex", |v, face, _c| Dynamic::from(v.names.has_flex_side(&face)));
    getter!("points", |v, face, _c| Dynamic::from(v.names.points(&face)));
    getter!("name", |v, face, _c| Dynamic::from(v.names.format_face(&face)));
    getter!("card", |v, _face, c| Dynamic::from(v.card_name(c.id)));
    let v = variant.clone();
    engine.register_fn("to_string", move |c: &mut ScriptCard| v.face_name(c.id, c.side));
    let v = variant.clone();
    engine.register_fn("==", move |a: ScriptCard, b: ScriptCard| v.face(a.id, a.side) == v.face(b.id, b.side));
    let v = variant.clone();
    engine.register_fn("!=", move |a: ScriptCard, b: ScriptCard| v.face(a.id, a.side) != v.face(b.id, b.side));
}
