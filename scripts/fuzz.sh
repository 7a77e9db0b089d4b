#!/usr/bin/env bash
# Coverage-guided fuzzing of the protocol parsers and every game's position
# and move parsers, with cargo-fuzz (libFuzzer). cargo-fuzz needs nightly
# compiler features; RUSTC_BOOTSTRAP=1 lets the stable toolchain use them.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET ...]   (default: 60, all)
#
# Targets: ugi, piskvork, positions (fuzz/fuzz_targets/). Seeds come from
# fuzz/corpus/TARGET (committed); what the fuzzer finds goes to a scratch
# corpus under target/fuzz-corpus, and crashes to fuzz/artifacts/TARGET.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(ugi piskvork positions)
command -v cargo-fuzz >/dev/null 2>&1 || cargo install cargo-fuzz
export RUSTC_BOOTSTRAP=1
cd fuzz
status=0
for t in "${targets[@]}"; do
    scratch=../target/fuzz-corpus/$t
    mkdir -p "$scratch"
    echo "== $t: ${seconds}s"
    if ! cargo fuzz run -O "$t" "$scratch" "corpus/$t" -- -max_total_time="$seconds" -max_len=4096 -timeout=10 2>&1 |
        grep -E '^(#[0-9]+ +DONE|==[0-9]+==|SUMMARY|Done [0-9]+ runs)|panicked|artifact_prefix'; then
        status=1
    fi
    [ "${PIPESTATUS[0]}" = 0 ] || status=1
done
exit $status
