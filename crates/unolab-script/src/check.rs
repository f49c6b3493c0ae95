//! Compiling a layer's scripts, and checking them without running anything:
//! they compile, every hook names a function they define with the
//! parameters the hook passes, and every function they call exists.

use std::collections::HashSet;
use std::sync::Arc;

use rhai::{AST, ASTNode, Engine, Expr, Stmt};

use crate::Scripts;
use unolab_core::source::Position;
use unolab_core::variant::{Layer, Variant};

/// Compiles a layer's scripts into one AST, noting syntax errors with their
/// place.
pub fn compile_layer(engine: &Engine, layer: &Layer, problems: &mut Vec<String>) -> AST {
    let mut merged = AST::empty();
    for script in &layer.scripts {
        match engine.compile(&script.text) {
            Ok(mut ast) => {
                ast.set_source(script.name.as_str());
                merged = merged.merge(&ast);
            }
            Err(e) => {
                let at = e.position();
                let place =
                    at.line().map(|line| unolab_core::source::Position { line, column: at.position().unwrap_or(1) });
                let message = match place.and_then(|place| fraction_at(&script.text, place)) {
                    Some(number) => format!(
                        "syntax error: {number} is a fraction, and numbers in scripts are whole numbers (there are no fractions)"
                    ),
                    None => e.err_type().to_string(),
                };
                problems.push(script.problem(place, message));
            }
        }
    }
    merged
}

/// The number with a fraction (`4.0`) a syntax error at `place` is about:
/// Rhai, built without fractions, reads `4.0` as the property `0` of `4`
/// and says a property's name was expected after the dot.
fn fraction_at(text: &str, place: Position) -> Option<String> {
    let line: Vec<char> = text.lines().nth(place.line.checked_sub(1)?)?.chars().collect();
    let at = place.column.checked_sub(1)?;
    let is_digit = |i: usize| line.get(i).is_some_and(char::is_ascii_digit);
    if at < 2 || line.get(at - 1) != Some(&'.') || !is_digit(at - 2) || !is_digit(at) {
        return None;
    }
    let start = (0..at - 1).rev().take_while(|&i| is_digit(i)).last()?;
    let end = (at..line.len()).take_while(|&i| is_digit(i)).last()? + 1;
    Some(line[start..end].iter().collect())
}

/// Checks a layer's scripts: they compile, and every hook names a function
/// they define, with the parameters the hook passes. Where a script it
/// names is missing (`all_scripts` false: told where it is named), its
/// hooks are not told that no script defines their functions.
pub fn check_layer(layer: &Layer, all_scripts: bool) -> Vec<String> {
    let (engine, _) = super::engine::hardened_engine(|_| {});
    let mut problems = Vec::new();
    let ast = compile_layer(&engine, layer, &mut problems);
    let complete = problems.is_empty() && all_scripts;
    // Each function's arities (Rhai tells functions apart by name and
    // number of parameters).
    let mut defined: std::collections::HashMap<&str, Vec<usize>> = std::collections::HashMap::new();
    for f in ast.iter_functions() {
        defined.entry(f.name).or_default().push(f.params.len());
    }
    // A function bound to several hooks of one arity is told once.
    let mut checked = std::collections::HashSet::new();
    for binding in &layer.hooks {
        let (kind, function) = (binding.kind, &binding.function);
        if !checked.insert((function.as_str(), kind.arity())) {
            continue;
        }
        match defined.get(function.as_str()) {
            None if complete => problems.push(layer.source.problem(
                binding.call_at,
                format!("hook {} calls '{function}', which no script of '{}' defines", kind.name(), layer.name),
            )),
            Some(arities) if !arities.contains(&kind.arity()) => problems.push(layer.source.problem(
                binding.call_at,
                format!("'{function}' must take {} parameter(s) to serve as {}", kind.arity(), kind.name()),
            )),
            _ => {}
        }
    }
    for action in &layer.actions {
        let functions = std::iter::once(("call", &action.call, action.call_at))
            .chain(action.available.iter().map(|f| ("available", f, action.available_at)));
        for (field, function, at) in functions {
            match ast.iter_functions().find(|f| f.name == function) {
                None if complete => problems.push(layer.source.problem(
                    at,
                    format!(
                        "action '{}' {field}: '{function}', which no script of '{}' defines",
                        action.name, layer.name
                    ),
                )),
                Some(f) if f.params.len() != 1 => problems.push(layer.source.problem(
                    at,
                    format!(
                        "'{function}' must take 1 parameter to serve action '{}' (its {})",
                        action.name,
                        if action.card { "card" } else { "player" }
                    ),
                )),
                _ => {}
            }
        }
    }
    problems
}

/// Rhai's own functions, which no signature lists.
const KEYWORD_FUNCTIONS: &[&str] =
    &["print", "debug", "type_of", "Fn", "call", "curry", "is_def_var", "is_def_fn", "is_shared", "eval"];

/// What is wrong with `expression` as a question in the rules' language
/// (`Rules::eval`), found without a game: it does not parse. `None` where
/// it parses (its functions are looked up when it is asked).
pub fn expression_problem(expression: &str) -> Option<String> {
    let (engine, _) = super::engine::hardened_engine(|_| {});
    engine.compile_expression(expression).err().map(|e| e.to_string())
}

/// Host functions that still work but should no longer be used, with what
/// to use instead.
const DEPRECATED: &[(&str, &str)] = &[("set_var", "set_state (and state() to read it back)")];

/// Calls in the variant's scripts to functions that no script of the layer
/// defines and the host does not provide (problems), and calls to
/// deprecated host functions (warnings), each with its file, line and
/// column. `all_scripts`: by layer, whether every script it names was
/// opened; a layer missing one (told where it is named) is not checked, as
/// its scripts may call what the missing one defines.
pub fn check_calls(variant: &Arc<Variant>, all_scripts: &[bool]) -> (Vec<String>, Vec<String>) {
    let (mut problems, mut warnings) = (Vec::new(), Vec::new());
    let Ok(runtime) = Scripts::new(variant.clone()) else { return (problems, warnings) };
    let host = runtime.function_names();
    let parameters = runtime.host_parameters();
    for (at, layer) in variant.layers.iter().enumerate() {
        if !all_scripts.get(at).copied().unwrap_or(true) {
            continue;
        }
        let compiled: Vec<_> = layer
            .scripts
            .iter()
            .filter_map(|script| runtime.compile(&script.text).ok().map(|ast| (script, ast)))
            .collect();
        let defined: HashSet<String> =
            compiled.iter().flat_map(|(_, ast)| ast.iter_functions().map(|f| f.name.to_string())).collect();
        for (script, ast) in &compiled {
            ast.walk(&mut |path: &[ASTNode]| {
                let call = match path.last() {
                    Some(ASTNode::Expr(Expr::FnCall(call, at) | Expr::MethodCall(call, at))) => Some((call, *at)),
                    Some(ASTNode::Stmt(Stmt::FnCall(call, at))) => Some((call, *at)),
                    _ => None,
                };
                if let Some((call, at)) = call {
                    let name = call.name.as_str();
                    let place = at.line().map(|line| Position { line, column: at.position().unwrap_or(1) });
                    let is_name = name.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_');
                    if let Some((_, instead)) = DEPRECATED.iter().find(|(old, _)| *old == name) {
                        warnings.push(script.problem(place, format!("{name} is deprecated: use {instead}")));
                    } else if is_name
                        && call.op_token.is_none()
                        && !defined.contains(name)
                        && !host.contains(name)
                        && !KEYWORD_FUNCTIONS.contains(&name)
                    {
                        problems.push(script.problem(
                            place,
                            format!(
                                "no function '{name}': no script of '{}' defines it and the host has none{}",
                                layer.name,
                                unolab_core::source::did_you_mean(
                                    name,
                                    defined.iter().map(String::as_str).chain(host.iter().map(|h| h.as_ref()))
                                )
                            ),
                        ));
                    } else if let Some(signatures) = parameters.get(name)
                        && !defined.contains(name)
                    {
                        // A method call's object is its first argument.
                        let method = matches!(path.last(), Some(ASTNode::Expr(Expr::MethodCall(..))));
                        let given = call.args.len() + usize::from(method);
                        let problem = wrong_arguments(name, signatures, &call.args, given)
                            .or_else(|| undeclared_option(variant, name, &call.args, method));
                        problems.extend(problem.map(|problem| script.problem(place, problem)));
                    }
                }
                true
            });
        }
    }
    (problems, warnings)
}

/// A call of a host function with a number of arguments no function of
/// its name takes, or with a literal argument of a kind none of those takes
/// (`reverse(1)`, where the host's `reverse()` takes none and Rhai's takes
/// an array): what is wrong, in the words a game would say it.
fn wrong_arguments(name: &str, signatures: &[Vec<String>], args: &[Expr], given: usize) -> Option<String> {
    let of_count: Vec<&Vec<String>> = signatures.iter().filter(|types| types.len() == given).collect();
    if of_count.is_empty() {
        let mut counts: Vec<usize> = signatures.iter().map(Vec::len).collect();
        counts.sort_unstable();
        counts.dedup();
        let counts: Vec<String> = counts.iter().map(usize::to_string).collect();
        return Some(format!("{name}() takes {} argument(s), not {given}", counts.join(" or ")));
    }
    // The arguments written as literals, by position (a method call's
    // object is not among `args`).
    let offset = given - args.len();
    let literal: Vec<Option<String>> = args.iter().map(literal_type).collect();
    let takes = |types: &&Vec<String>| {
        literal.iter().enumerate().all(|(at, kind)| match (kind, types.get(at + offset)) {
            (Some(kind), Some(expected)) => !CONCRETE.contains(&expected.as_str()) || expected == kind,
            _ => true,
        })
    };
    if literal.iter().all(Option::is_none) || of_count.iter().any(takes) {
        return None;
    }
    let words = |types: &[String]| types.iter().map(|t| super::type_in_words(t)).collect::<Vec<_>>().join(", ");
    // An argument that is no literal is told as the one form of this count
    // takes it, where there is one form (as a game would tell it), else `…`.
    let only = match of_count.as_slice() {
        [types] => Some(types),
        _ => None,
    };
    let written: Vec<String> = (literal.iter().enumerate())
        .map(|(at, kind)| match (kind, only.and_then(|types| types.get(at + offset))) {
            (Some(kind), _) => super::type_in_words(kind),
            (None, Some(expected)) => super::type_in_words(expected),
            (None, None) => "…".into(),
        })
        .collect();
    let mut forms: Vec<String> = signatures.iter().map(|types| format!("({})", words(types))).collect();
    let last = forms.pop().unwrap_or_default();
    let forms = if forms.is_empty() { last } else { format!("{} or {last}", forms.join(", ")) };
    Some(format!("{name}() does not take ({}): it takes {forms}", written.join(", ")))
}

/// Rhai's names of the types a literal can have; a parameter of another
/// type (`?`, a host type) is not judged.
const CONCRETE: &[&str] = &["i64", "bool", "char", "string", "array", "map", "blob", "()"];

/// The type (Rhai's name) of an argument written as a literal.
fn literal_type(arg: &Expr) -> Option<String> {
    Some(match arg {
        Expr::IntegerConstant(..) => "i64".into(),
        Expr::BoolConstant(..) => "bool".into(),
        Expr::CharConstant(..) => "char".into(),
        Expr::StringConstant(..) | Expr::InterpolatedString(..) => "string".into(),
        Expr::Array(..) => "array".into(),
        Expr::Map(..) => "map".into(),
        Expr::Unit(..) => "()".into(),
        Expr::DynamicConstant(value, _) => value.type_name().into(),
        _ => return None,
    })
}

/// `option("NAME")` naming, as a literal, an option no layer declares,
/// which the call would fail on when a game reaches it.
fn undeclared_option(variant: &Variant, name: &str, args: &[Expr], method: bool) -> Option<String> {
    let (false, "option", [Expr::StringConstant(option, _)]) = (method, name, args) else { return None };
    if variant.options.contains_key(option.as_str()) {
        return None;
    }
    // What is declared depends on the variant: the message names it.
    let declared: Vec<&str> = variant.options.keys().map(String::as_str).collect();
    Some(format!(
        "no option '{option}' is declared on {} ({}){}",
        variant.name,
        if declared.is_empty() {
            "it and its rules declare none".to_string()
        } else {
            format!("declared: {}", declared.join(", "))
        },
        unolab_core::source::did_you_mean(option, declared.iter().copied())
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fraction_is_found_where_rhai_expects_a_property() {
        let at = |line, column| Position { line, column };
        let text = "fn f() {\n    let x = 12.50 + 1;\n    card.color\n}\n";
        assert_eq!(fraction_at(text, at(2, 16)).as_deref(), Some("12.50"));
        assert_eq!(fraction_at(text, at(2, 15)), None, "not after the dot");
        assert_eq!(fraction_at(text, at(3, 10)), None, "a property of a name");
        assert_eq!(fraction_at(text, at(9, 1)), None, "no such line");
    }
}
