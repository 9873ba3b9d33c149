#!/usr/bin/env bash
# The choose and slice queries over a 10M-row Parquet file: the local CLI, the CLI on a
# standalone cluster (scheduler and two executors in its process, `--remote standalone`), and
# the CLI on a scheduler and two executor processes (`--remote df://127.0.0.1:PORT`).
#
#   bash benches/ballista/bench.sh [ROWS] [REPEAT]      # defaults: 10000000 rows, best of 3
#
# Builds the three binaries (dev profile, as the README's commands), writes the file with the
# CLI itself (4x4 float32 x, c0..c2 and int32 a in 0..2, all tensors; no Python), and prints
# the wall time of each query in each mode (best of REPEAT, each run a new CLI process, so a
# cluster run includes connecting to the scheduler). Servers bind 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROWS="${1:-10000000}"
REPEAT="${2:-3}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/datafusion-tensor/target}"
cargo build --features ballista --bins
BIN="$CARGO_TARGET_DIR/debug"
DIR="$(mktemp -d)"
FILE="$DIR/bench.parquet"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$DIR"
}
trap cleanup EXIT

cells() { # $1: an expression of r; 16 cells of a 4x4 tensor
  local out=() i
  for i in $(seq 0 15); do out+=("$(printf "$1" "$i")"); done
  local IFS=,; echo "${out[*]}"
}
echo "== writing $ROWS rows to $FILE"
"$BIN/datafusion-tensor" -q -c "COPY (SELECT r AS id,
  tensor(arrow_cast([$(cells '(r + %s) %% 100')], 'List(Float32)'), [4, 4]) AS x,
  tensor(arrow_cast([$(cells '(r + %s) %% 3')], 'List(Int32)'), [4, 4]) AS a,
  tensor(arrow_cast([$(cells '(r + %s) %% 10')], 'List(Float32)'), [4, 4]) AS c0,
  tensor(arrow_cast([$(cells '(r + %s) %% 20')], 'List(Float32)'), [4, 4]) AS c1,
  tensor(arrow_cast([$(cells '(r + %s) %% 30')], 'List(Float32)'), [4, 4]) AS c2
  FROM generate_series(1, $ROWS) AS g(r)) TO '$FILE' STORED AS PARQUET" >/dev/null

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo $((20000 + RANDOM % 20000)); }
SCHED_PORT="$(free_port)"
"$BIN/datafusion-tensor-scheduler" --bind-host 127.0.0.1 --external-host 127.0.0.1 \
  --bind-port "$SCHED_PORT" >"$DIR/scheduler.log" 2>&1 &
PIDS+=($!)
for i in 1 2; do
  "$BIN/datafusion-tensor-executor" --bind-host 127.0.0.1 --external-host 127.0.0.1 \
    --scheduler-host 127.0.0.1 --scheduler-port "$SCHED_PORT" \
    --bind-port "$(free_port)" --bind-grpc-port "$(free_port)" --bind-health-port "$(free_port)" \
    >"$DIR/executor$i.log" 2>&1 &
  PIDS+=($!)
done
sleep 3

best() { # $@: the CLI's arguments; prints the best wall time of REPEAT runs (a failed run ends the script)
  local best="" t start end
  for _ in $(seq "$REPEAT"); do
    start=$(date +%s.%N)
    if ! timeout 600 "$BIN/datafusion-tensor" -q "$@" >"$DIR/out.txt" 2>&1 || grep -q '^Error' "$DIR/out.txt"; then
      echo "failed: $*" >&2; cat "$DIR/out.txt" >&2; exit 1
    fi
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
  done
  printf '%.3f' "$best"
}

SLICE="SELECT count(tensor_get(x, '1:3, ::2')) FROM '$FILE'"
CHOOSE="SELECT count(tensor_choose(a, c0, c1, c2)) FROM '$FILE'"
SCAN="SELECT count(x) FROM '$FILE'"
printf '%-8s %10s %12s %16s\n' query local standalone "scheduler+2"
for name in SCAN SLICE CHOOSE; do
  sql="${!name}"
  printf '%-8s %9ss %11ss %15ss\n' "$name" \
    "$(best -c "$sql")" \
    "$(best --remote standalone -c "$sql")" \
    "$(best --remote "df://127.0.0.1:$SCHED_PORT" -c "$sql")"
done
