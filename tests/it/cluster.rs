//! The cluster recipes of docs/cluster.md, run locally: `shard.sh` as a
//! Slurm array task, a Kubernetes indexed Job's pod and a GNU parallel job
//! would run it (processes at once), then `unolab merge`.

use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A run's JSON without its times (which differ from run to run).
fn without_times(mut value: serde_json::Value) -> serde_json::Value {
    for timing in ["elapsed_s", "games_per_s"] {
        value.as_object_mut().unwrap().remove(timing);
        for run in value["runs"].as_array_mut().unwrap() {
            run.as_object_mut().unwrap().remove(timing);
        }
    }
    value
}

#[test]
fn shards_run_as_the_schedulers_run_them_merge_into_the_single_run() {
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("shards");
    let args = ["classic", "-r", "stacking", "-n", "30", "--seed", "7", "-p", "3"];
    // Each as its scheduler says which shard it is.
    let schedulers: [&[(&str, &str)]; 3] = [
        &[("SLURM_ARRAY_TASK_ID", "0"), ("SLURM_ARRAY_TASK_COUNT", "3")],
        &[("JOB_COMPLETION_INDEX", "1"), ("SHARDS", "3")],
        &[("K", "2"), ("SHARDS", "3")],
    ];
    let children: Vec<_> = schedulers
        .iter()
        .map(|env| {
            let mut command = Command::new("bash");
            command.arg(root().join("docs/cluster/shard.sh")).arg(&out).args(args);
            for variable in ["K", "SHARDS", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "JOB_COMPLETION_INDEX"] {
                command.env_remove(variable);
            }
            command.envs(env.iter().copied()).env("UNOLAB", env!("CARGO_BIN_EXE_unolab"));
            command.spawn().unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let files: Vec<String> = (0..3).map(|k| out.join(format!("shard-{k}.json")).display().to_string()).collect();
    let merged = Command::new(env!("CARGO_BIN_EXE_unolab")).arg("merge").arg("--json").args(&files).output().unwrap();
    assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    let single = Command::new(env!("CARGO_BIN_EXE_unolab")).arg("sim").args(args).arg("--json").output().unwrap();
    let value = |bytes: &[u8]| without_times(serde_json::from_slice(bytes).unwrap());
    assert_eq!(value(&merged.stdout), value(&single.stdout));
    // No shard left a part behind.
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 3);
}

/// The Slurm and Kubernetes files start as many jobs as they give
/// `shard.sh` shards, and run it.
#[test]
fn the_cluster_files_run_one_shard_a_job() {
    let slurm = std::fs::read_to_string(root().join("docs/cluster/slurm.sbatch")).unwrap();
    assert!(slurm.contains("#SBATCH --array=0-7") && slurm.contains("docs/cluster/shard.sh shards "), "{slurm}");
    let job = std::fs::read_to_string(root().join("docs/cluster/job.yaml")).unwrap();
    for line in ["completionMode: Indexed", "completions: 8", "name: SHARDS", "value: \"8\"", "shard.sh"] {
        assert!(job.contains(line), "no '{line}' in job.yaml");
    }
    // A shard with no index says so.
    let scratch = tempfile::tempdir().unwrap();
    let output = Command::new("bash")
        .arg(root().join("docs/cluster/shard.sh"))
        .arg(scratch.path())
        .arg("classic")
        .env_remove("K")
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .env("SHARDS", "2")
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("no shard index"), "{output:?}");
}
