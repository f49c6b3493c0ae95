//! Compiling a layer's scripts, and checking them without running anything:
//! they compile, and every hook names a function they define with the
//! parameters the hook passes.

use rhai::{AST, Engine};

use crate::variant::Layer;

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
                let place = at.line().map(|line| crate::source::Position { line, column: at.position().unwrap_or(1) });
                problems.push(script.problem(place, e.err_type()));
            }
        }
    }
    merged
}

/// Checks a layer's scripts: they compile, and every hook names a function
/// they define, with the parameters the hook passes.
pub fn check_layer(layer: &Layer) -> Vec<String> {
    let engine = super::engine::hardened_engine(|_| {});
    let mut problems = Vec::new();
    let ast = compile_layer(&engine, layer, &mut problems);
    let compiled = problems.is_empty();
    for binding in &layer.hooks {
        let (kind, function) = (binding.kind, &binding.function);
        match ast.iter_functions().find(|f| f.name == function) {
            None if compiled => problems.push(layer.source.problem_at(
                function,
                format!("hook {} calls '{function}', which no script of '{}' defines", kind.name(), layer.name),
            )),
            Some(f) if f.params.len() != kind.arity() => problems.push(layer.source.problem_at(
                function,
                format!("'{function}' must take {} parameter(s) to serve as {}", kind.arity(), kind.name()),
            )),
            _ => {}
        }
    }
    problems
}
