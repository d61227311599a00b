#!/usr/bin/env bash
set -euo pipefail
source ./lib/common.sh
. "$(dirname "$0")/util.sh"

# Deploys things.
deploy() {
  local ns="${1:-default}"
  kubectl apply -f x.yaml --namespace "$ns" | tee /tmp/log
  helper "$KUBECONFIG"
  echo ${HOME}/x $LOCAL_VAR
  ./scripts/other.sh arg
  bash scripts/y.sh
  X=$(git rev-parse HEAD)
  export AWS_REGION=us-east-1
}

function helper {
  if [ -z "$1" ]; then echo none; fi
  for f in *.txt; do cat "$f"; done
}
deploy "$@"
