//! The `unolab` binary: runs the command line and exits with its code.

fn main() {
    std::panic::set_hook(Box::new(|info| {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr().lock(),
            "internal error: {info}\nthis is a bug in unolab; please report it with the command that caused it"
        );
    }));
    // EXPERIMENT (not to commit)
    if let Ok(spec) = std::env::var("UNOLAB_SEARCH") {
        let v: Vec<f64> = spec.split(',').map(|x| x.parse().unwrap()).collect();
        let _ = unolab::bot::search::PARAMS.set(unolab::bot::search::Params {
            first_rounds: v[0] as usize,
            compare_every: v[1] as usize,
            prune_z: v[2],
            guess_z: v[3],
            random_policy: v[4] != 0.0,
            infer: v.get(5).is_none_or(|&x| x != 0.0),
            shape: v.get(6).copied().unwrap_or(0.0),
            settled: v.get(7).copied().unwrap_or(0.0),
            cheat: v.get(8).is_some_and(|&x| x != 0.0),
        });
    }
    let code = unolab::cli::main();
    if std::env::var("UNOLAB_STATS").is_ok() {
        use std::sync::atomic::Ordering::Relaxed;
        use unolab::bot::search::*;
        eprintln!("decisions {} searched {} playouts {}", DECISIONS.load(Relaxed), SEARCHES.load(Relaxed), PLAYOUTS.load(Relaxed));
    }
    std::process::exit(code);
}
