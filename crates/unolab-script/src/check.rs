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
                problems.push(script.problem(place, e.err_type()));
            }
        }
    }
    merged
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
    let arities = runtime.host_arities();
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
                    } else if let Some(takes) = arities.get(name)
                        && !defined.contains(name)
                    {
                        // A method call's object is its first argument.
                        let method = matches!(path.last(), Some(ASTNode::Expr(Expr::MethodCall(..))));
                        let given = call.args.len() + usize::from(method);
                        if !takes.contains(&given) {
                            let mut counts: Vec<String> = takes.iter().map(usize::to_string).collect();
                            counts.sort();
                            problems.push(script.problem(
                                place,
                                format!("{name}() takes {} argument(s), not {given}", counts.join(" or ")),
                            ));
                        }
                    }
                }
                true
            });
        }
    }
    (problems, warnings)
}
