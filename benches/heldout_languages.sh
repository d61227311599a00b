#!/usr/bin/env bash
# Fetches the held-out corpora of the issue-21 languages (Debian source packages, so the
# machine needs `deb-src` entries for the Debian archive) and prepares, under DEST:
#   elixir-src/   the Elixir 1.14 sources (standard library, tests)
#   k8s-infra/    the .yaml/.yml and .sh files of Kubernetes 1.20.2 (vendor/ left out)
#   tfjson/       terraform-json 0.5.0 (its testdata holds .tf modules)
#   langbench/{elixir,terraform,kubernetes,shell}/  one language per tree, for
#                 `codegraph-bench index DIR` (Terraform from terraform-aws-eks in
#                 ../shared/eval's corpora)
#
#   benches/heldout_languages.sh [DEST]        (default /tmp/heldout)
set -euo pipefail
dest=${1:-/tmp/heldout}
c=${CODEGRAPH_CORPORA:-$HOME/.cache/codegraph-corpora}
mkdir -p "$dest" && cd "$dest"
apt-get source --download-only elixir kubernetes golang-github-hashicorp-terraform-json >/dev/null
mkdir -p elixir-src k8s-src tfjson
tar xJf elixir-lang_*.orig.tar.xz -C elixir-src
tar xzf kubernetes_*.orig.tar.gz -C k8s-src
tar xJf golang-github-hashicorp-terraform-json_*.orig.tar.xz -C tfjson
copy() { # copy SRC DEST find-args...: the matching files, with their paths
  local src=$1 out=$2; shift 2
  mkdir -p "$out"
  (cd "$src" && find . "$@" -type f -print0 | xargs -0 -I{} cp --parents {} "$out/")
}
k8s=$(ls -d "$dest"/k8s-src/kubernetes-*)
copy "$k8s" "$dest/k8s-infra" -path ./vendor -prune -o \( -name '*.yaml' -o -name '*.yml' -o -name '*.sh' \)
copy "$dest/elixir-src" "$dest/langbench/elixir" \( -name '*.ex' -o -name '*.exs' \)
copy "$c/gh/terraform-aws-eks" "$dest/langbench/terraform" -name '*.tf'
copy "$dest/k8s-infra" "$dest/langbench/kubernetes" \( -name '*.yaml' -o -name '*.yml' \)
copy "$dest/k8s-infra" "$dest/langbench/shell" -name '*.sh'
echo "ready: $dest"
