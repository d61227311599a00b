#!/usr/bin/env bash
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

# Deploys the cluster.
# Needs KUBECONFIG.
deploy() {
  local ns="${1:-default}"
  log "deploying to $ns"
  kubectl apply -f manifests/ --namespace "$ns" --kubeconfig "$KUBECONFIG"
  kubectl rollout status deploy/web
  ./scripts/check.sh
  bash scripts/missing.sh
  helper
}

function cleanup {
  rm -rf "$TMPDIR/build"
}

NAMESPACE=${NAMESPACE:-default}
LOCAL_ONLY=1
echo "$LOCAL_ONLY"
export AWS_REGION=us-east-1
trap cleanup EXIT
deploy "$NAMESPACE"
