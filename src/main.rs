//! The `unolab` binary: runs the command line and exits with its code.

fn main() {
    std::panic::set_hook(Box::new(|info| {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr().lock(),
            "internal error: {info}\nthis is a bug in unolab; please report it with the command that caused it"
        );
    }));
    std::process::exit(unolab::cli::main());
}
