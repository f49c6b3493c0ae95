//! What a shell and `man` need: completion scripts (clap_complete) and the
//! manual pages (clap_mangen), both made from the command line's own clap
//! definition, so they list exactly the commands and options there are.

use clap::CommandFactory as _;
use clap_complete::Shell;

use super::{BAD_INPUT, Cli, EXIT_CODES, SUCCESS};

/// Prints the completion script for `shell` on standard output.
pub(super) fn completions(shell: Shell) -> i32 {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "unolab", &mut script);
    print_bytes(&script)
}

/// Prints the manual page of unolab, or of one of its commands
/// (`unolab-sim(1)`), as roff on standard output.
pub(super) fn manual(page: Option<&str>) -> i32 {
    let mut command = Cli::command();
    command.build();
    let page = match page {
        None => command,
        Some(name) => {
            let Some(sub) = command.find_subcommand(name) else {
                let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
                complain!("error: no command '{name}' to show the page of (there are: {})", names.join(", "));
                return BAD_INPUT;
            };
            sub.clone().name(format!("unolab-{name}")).version(env!("CARGO_PKG_VERSION"))
        }
    };
    let mut roff = Vec::new();
    if let Err(e) = clap_mangen::Man::new(page).render(&mut roff) {
        complain!("error: the manual page could not be made: {e}");
        return BAD_INPUT;
    }
    roff.extend_from_slice(closing_sections().as_bytes());
    print_bytes(&roff)
}

/// The sections clap knows nothing of: the exit status of every command,
/// and where the guides are.
fn closing_sections() -> String {
    use clap_mangen::roff::{Roff, bold, roman};
    let mut roff = Roff::new();
    roff.control("SH", ["EXIT STATUS"]);
    for (code, meaning) in EXIT_CODES {
        roff.control("TP", []);
        roff.text([bold(code.to_string())]);
        roff.text([roman(meaning)]);
    }
    roff.control("SH", ["SEE ALSO"]);
    roff.text([roman(
        "unolab(1), and the guides in the docs/ folder of unolab's repository: \
         playing.md, simulation.md, authoring.md, rulings.md, robustness.md.",
    )]);
    roff.to_roff()
}

/// Writes bytes to standard output; a closed pipe (`| head`) is not an error.
fn print_bytes(bytes: &[u8]) -> i32 {
    use std::io::Write as _;
    let _ = std::io::stdout().lock().write_all(bytes);
    SUCCESS
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory as _;

    /// Every option of every command says what it does in `--help` (and so
    /// in the manual pages made from it).
    #[test]
    fn every_option_has_help() {
        let mut command = super::Cli::command();
        command.build();
        let mut bare = Vec::new();
        for sub in std::iter::once(&command).chain(command.get_subcommands()) {
            for arg in sub.get_arguments().filter(|a| !a.is_hide_set() && a.get_help().is_none()) {
                bare.push(format!("{} --{}", sub.get_name(), arg.get_id()));
            }
        }
        assert!(bare.is_empty(), "options without help: {bare:?}");
    }
}
