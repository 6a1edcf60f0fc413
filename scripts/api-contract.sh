#!/usr/bin/env bash
# The OpenAPI document is the contract: Schemathesis (pinned, from PyPI, in
# a virtual environment of its own) generates requests from
# docs/openapi.json, valid and invalid, and sends them to a real server
# holding a tournament with players and a published round; every check
# runs (statuses, headers and bodies as documented, valid data taken,
# invalid data refused, 405 with Allow for a method a path lacks). Exits
# non-zero on any failure.
#
#   scripts/api-contract.sh            # the debug build cargo test made (built if missing)
#   BIN=target/release/kraal scripts/api-contract.sh
#   EXAMPLES=100 SEED=7 scripts/api-contract.sh     # a longer or another run
#   SCHEMA=docs/openapi.json scripts/api-contract.sh  # the file as edited, without a rebuild
#
# A run uses one seed (SEED, fixed by default) so that CI is repeatable; a
# failure prints the request that reproduces it. The server, the seeding
# and Schemathesis run in a network namespace of their own with loopback
# only, so that nothing the server is asked to do (publish an event to a
# generated address) reaches any other machine; that needs root (CI is).
set -euo pipefail
cd "$(dirname "$0")/.."

version=4.32.5
venv="${KRAAL_SCHEMATHESIS_VENV:-$HOME/.cache/kraal-schemathesis-$version}"
bin="${BIN:-${CARGO_TARGET_DIR:-target}/debug/kraal}"

if [ "${1:-}" != --isolated ]; then
  if ! "$venv/bin/schemathesis" --version 2>/dev/null | grep -q "version $version\$"; then
    if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
    fi
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check \
      -c scripts/api-contract-requirements.txt "schemathesis==$version"
  fi
  echo "schemathesis $version in $venv"
  if [ ! -x "$bin" ]; then
    cargo build --bin kraal
  fi
  if ! command -v ip >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends iproute2 >/dev/null
  fi
  if ! unshare -n true 2>/dev/null; then
    echo "cannot make a network namespace (unshare -n): run as root" >&2
    exit 1
  fi
  export KRAAL_CONTRACT_BIN="$bin" KRAAL_CONTRACT_VENV="$venv"
  exec unshare -n bash "$0" --isolated
fi

# Inside the namespace: loopback only.
ip link set lo up
bin="$KRAAL_CONTRACT_BIN"
venv="$KRAAL_CONTRACT_VENV"
examples="${EXAMPLES:-25}"
seed="${SEED:-20261127}"

work=$(mktemp -d /tmp/kraal-contract.XXXXXX)
server=
cleanup() {
  if [ -n "$server" ]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

export DATABASE_URL="sqlite://$work/kraal.db"
port=18780
base="http://127.0.0.1:$port"
"$bin" migrate >/dev/null
echo 'contract-password' | "$bin" user add contract --admin >/dev/null
token=$("$bin" token create contract --label "API contract" | tail -n 1 | awk '{print $NF}')
"$bin" serve --bind "127.0.0.1:$port" --workers 2 >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do
  curl -fs "$base/healthz" >/dev/null 2>&1 && break
  sleep 0.1
done
"$venv/bin/python" scripts/api-contract-seed.py "$base" "$token" "$work/event.json" >"$work/ids.json"
echo "seeded: $(cat "$work/ids.json")"

schema="${SCHEMA:-$base/api/v1/openapi.json}"
started=$(date +%s)
status=0
KRAAL_CONTRACT_IDS="$work/ids.json" KRAAL_CONTRACT_BASE="$base" KRAAL_CONTRACT_TOKEN="$token" \
  SCHEMATHESIS_HOOKS=api_contract_hooks PYTHONPATH=scripts \
  "$venv/bin/schemathesis" --config-file scripts/api-contract.toml run "$schema" \
  --url "$base" \
  --checks all \
  --header "Authorization: Bearer $token" \
  --max-examples "$examples" \
  --seed "$seed" \
  --generation-database none \
  --workers 1 \
  --no-color \
  || status=$?
echo "schemathesis took $(($(date +%s) - started)) s"
if [ "$status" != 0 ]; then
  echo "--- server log (last 40 lines)"
  tail -n 40 "$work/server.log"
fi
exit "$status"
