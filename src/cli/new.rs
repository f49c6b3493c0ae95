//! `unolab new`: starting files for a variant or a house rule.

use std::path::PathBuf;

use clap::Subcommand;

use super::{BAD_INPUT, SUCCESS, load};
use crate::args::Ruleset;
use crate::builtin;

#[derive(Subcommand)]
pub(super) enum NewWhat {
    /// A variant: a copy of a built-in one with its scripts, and a scenario
    Variant {
        name: String,
        /// The built-in variant to start from (default: the default variant)
        #[arg(long)]
        from: Option<String>,
        /// Where to create the folder NAME/
        #[arg(long, default_value = ".")]
        dir: PathBuf,
    },
    /// A house rule: its YAML, a script and a scenario that passes
    Rule {
        name: String,
        /// Where to create the folder NAME/
        #[arg(long, default_value = ".")]
        dir: PathBuf,
    },
}

pub(super) fn scaffold(what: NewWhat) -> i32 {
    let from = match &what {
        NewWhat::Variant { from: Some(from), .. } => from.clone(),
        _ => crate::ruleset::default_variant().unwrap_or_default().to_string(),
    };
    if !builtin::variant_names().contains(&from.as_str()) {
        complain!("error: --from takes a built-in variant ({}), not '{from}'", builtin::variant_names().join(", "));
        return BAD_INPUT;
    }
    let ruleset = Ruleset { variant: Some(from.clone()), rules: Vec::new(), settings: Vec::new() };
    let Ok(variant) = load(&ruleset) else { return BAD_INPUT };
    let (files, rule, at) = match &what {
        NewWhat::Rule { name, dir } => (crate::scaffold::rule(dir, name, &variant, &from), true, dir.join(name)),
        NewWhat::Variant { name, dir, .. } => {
            (crate::scaffold::variant(dir, name, &variant, &from), false, dir.join(name))
        }
    };
    let files = match files {
        Ok(files) => files,
        Err(e) => {
            complain!("error: {e}");
            return BAD_INPUT;
        }
    };
    // The folder is made whole, or not at all: its files are written in a
    // staging folder beside it, then moved into place together.
    let inside = files
        .iter()
        .map(|file| file.path.strip_prefix(&at).map(|p| (p.to_path_buf(), file.text.clone())))
        .collect::<Result<Vec<_>, _>>();
    let Ok(inside) = inside else {
        complain!("error: a starting file is outside {}", at.display());
        return BAD_INPUT;
    };
    if let Err(e) = crate::output::write_folder(&at, &inside) {
        complain!("error: {e}; nothing was written");
        return BAD_INPUT;
    }
    for file in &files {
        say!("created {}", file.path.display());
    }
    say!("{}", crate::scaffold::next_steps(&files, rule));
    let (name, builtins) = match &what {
        NewWhat::Rule { name, .. } => (name, builtin::rule_names()),
        NewWhat::Variant { name, .. } => (name, builtin::variant_names()),
    };
    if builtins.contains(&name.as_str()) {
        if rule {
            complain!(
                "warning: a built-in house rule is also named '{name}': the two cannot be used together (layers are told apart by name; 'name:' in its YAML renames yours)"
            );
        } else {
            complain!(
                "warning: a built-in variant is also named '{name}': name yours by its path (a bare name is the built-in one)"
            );
        }
    }
    SUCCESS
}
