#!/usr/bin/env bash
# One shard of a simulation that N jobs share: a Slurm array task, a pod of
# a Kubernetes indexed Job, or one of GNU parallel's jobs (docs/cluster.md).
#   usage: shard.sh OUT_DIR SIM_ARGUMENTS...
# Writes OUT_DIR/shard-K.json, whole (a stopped or failed shard leaves no
# file). K, from 0, is the first set of: K, SLURM_ARRAY_TASK_ID,
# JOB_COMPLETION_INDEX; N is SHARDS, else SLURM_ARRAY_TASK_COUNT. The
# binary is UNOLAB, else unolab on the PATH. Then: unolab merge OUT_DIR/shard-*.json
set -euo pipefail
out=${1:?usage: shard.sh OUT_DIR SIM_ARGUMENTS...}
shift
k=${K:-${SLURM_ARRAY_TASK_ID:-${JOB_COMPLETION_INDEX:?no shard index: set K (or run as a Slurm array task or an indexed Job)}}}
n=${SHARDS:-${SLURM_ARRAY_TASK_COUNT:?no shard count: set SHARDS}}
mkdir -p "$out"
"${UNOLAB:-unolab}" sim "$@" --shard "$k/$n" --json --schema 2 > "$out/shard-$k.json.part"
mv "$out/shard-$k.json.part" "$out/shard-$k.json"
