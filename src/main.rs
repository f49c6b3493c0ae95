//! The `unolab` binary: runs the command line and exits with its code.

fn main() {
    std::panic::set_hook(Box::new(|info| {
        eprintln!("internal error: {info}");
        eprintln!("this is a bug in unolab; please report it with the command that caused it");
    }));
    std::process::exit(unolab::cli::main());
}
