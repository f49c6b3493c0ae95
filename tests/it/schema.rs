//! The JSON of `sim --json` and `merge --json` against its schema,
//! `docs/sim.schema.json`: every kind of run, as the binary prints it.
//! The schema names every key (no others are allowed in it), so a key
//! added without being documented fails here.

use std::path::Path;
use std::process::Command;

fn unolab(args: &[&str]) -> serde_json::Value {
    let output = Command::new(env!("CARGO_BIN_EXE_unolab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    assert!(matches!(output.status.code(), Some(0 | 1)), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

fn validator() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/sim.schema.json");
    let schema: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::draft202012::new(&schema).expect("the schema is a valid JSON Schema")
}

fn check(validator: &jsonschema::Validator, what: &str, value: &serde_json::Value) {
    let errors: Vec<String> = validator.iter_errors(value).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "{what}:\n{}", errors.join("\n"));
}

#[test]
fn every_kind_of_output_has_the_documented_shape() {
    let validator = validator();
    let scratch = tempfile::tempdir().unwrap();
    let failing = scratch.path().join("oops.yaml");
    std::fs::write(scratch.path().join("oops.rhai"), "fn oops(card) { let x = [1]; x[5] }\n").unwrap();
    std::fs::write(&failing, "name: oops\ndescription: Fails on a 5.\nscripts: [oops.rhai]\nhooks:\n  on_play:\n    - {match: \"5\", call: oops}\n").unwrap();
    let failing = failing.display().to_string();
    let runs: [(&str, Vec<&str>); 6] = [
        ("run", vec!["sim", "classic", "-r", "stacking", "-n", "20", "--json"]),
        ("sweep", vec!["sim", "flex", "-p", "2,3", "--set", "wildCountsAsColourMatch=false,true", "-n", "8", "--json"]),
        ("comparison", vec!["sim", "classic", "-n", "12", "--vs", "-r seven-o", "--json"]),
        ("sweep_comparison", vec!["sim", "express", "-p", "2,3", "-n", "8", "--vs", "-r stacking", "--json"]),
        ("matches", vec!["sim", "express", "--matches", "-n", "3", "--bot", "greedy,random", "--json"]),
        ("failures", vec!["sim", "classic", "-r", &failing, "-n", "12", "--json"]),
    ];
    for (what, args) in &runs {
        let value = unolab(&[&args[..], &["--schema", "2"]].concat());
        check(&validator, what, &value);
        let kind = value["kind"].as_str().unwrap();
        let expected = match *what {
            "matches" | "failures" => "run",
            other => other,
        };
        assert_eq!(kind, expected, "{what}");
        // The contract's keys are the first run's.
        assert_eq!(value["turns_mean"], value["runs"][0]["turns_mean"], "{what}");
        // By default schema 1's keys are kept beside (deprecated): the
        // schema names them; a sweep is schema 1's list of runs.
        let both = unolab(args);
        if kind.starts_with("sweep") {
            assert_eq!(
                both.as_array().map(Vec::len),
                value["runs"].as_array().map(|r| r.len() / (1 + usize::from(kind == "sweep_comparison"))),
                "{what}"
            );
        } else {
            check(&validator, &format!("{what} with schema 1's keys"), &both);
        }
    }
    // Shards and their merge.
    let mut files = Vec::new();
    for k in 0..2 {
        let shard = unolab(&["sim", "flip", "-n", "9", "--shard", &format!("{k}/2"), "--json", "--schema", "2"]);
        check(&validator, "shard", &shard);
        let file = scratch.path().join(format!("shard-{k}.json"));
        std::fs::write(&file, shard.to_string()).unwrap();
        files.push(file.display().to_string());
    }
    let merged = unolab(&["merge", "--json", &files[0], &files[1]]);
    check(&validator, "merge", &merged);
    let merged = unolab(&["merge", "--json", "--schema", "2", &files[0], &files[1]]);
    check(&validator, "merge", &merged);
    assert!(merged.get("raw").is_none());
}

/// The checker is not lenient: a key it does not know, a value of another
/// type, and a missing figure are each refused.
#[test]
fn the_schema_refuses_what_it_does_not_describe() {
    let validator = validator();
    let good = unolab(&["sim", "classic", "-n", "5", "--json", "--schema", "2"]);
    check(&validator, "run", &good);
    let mut unknown = good.clone();
    unknown["runs"][0]["turns_average"] = serde_json::json!(1.0);
    let mut typed = good.clone();
    typed["runs"][0]["options"]["wildCountsAsColourMatch"] = serde_json::json!(["false"]);
    let mut missing = good.clone();
    missing["runs"][0]["race"].as_object_mut().unwrap().remove("comebacks");
    for (what, value) in [("unknown", unknown), ("typed", typed), ("missing", missing)] {
        assert!(!validator.is_valid(&value), "{what} was accepted");
    }
}
