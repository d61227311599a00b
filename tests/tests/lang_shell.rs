//! Shell scripts end to end on one fixture: facts (exact), the graph, and the resolution
//! (functions through `source`d files, scripts run by path, builtins left out, external
//! commands and environment variables as concepts, unresolved paths).

use codegraph_parse::Language;
use codegraph_tests::{render_fixture_facts, render_fixture_graph, render_fixture_resolution};
use expect_test::expect;

const FIXTURE: &str = r#"
//- /scripts/deploy.sh
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
//- /scripts/lib/common.sh
# Prints a log line.
log() {
  echo "[$(date +%T)] $*" >&2
}
//- /scripts/check.sh
#!/bin/sh
curl -sf "$ENDPOINT/healthz"
//- /tools/helpers.bash
helper() { :; }
"#;

#[test]
fn the_registry_knows_it() {
    assert_eq!(Language::from_path("scripts/a.sh"), Some(Language::Shell));
    assert_eq!(Language::from_path("lib/x.bash"), Some(Language::Shell));
    assert_eq!((Language::Shell.as_str(), Language::Shell.id_tag()), ("shell", "sh"));
}

#[test]
fn facts_of_shell_scripts() {
    expect![[r#"
        //- scripts/deploy.sh
        sym function deploy L7-15 exported sig="deploy()" doc="Deploys the cluster.\nNeeds KUBECONFIG."
        sym function cleanup L17-19 exported sig="function cleanup"
        import L3 Path "./lib/common.sh"
        call L2:1 set in <module>
        call L3:11 dirname in <module>
        call L9:3 log in deploy
        call L10:3 kubectl in deploy
        call L11:3 kubectl in deploy
        call L12:3 ./scripts/check.sh in deploy
        call L13:3 bash in deploy
        call L13:8 scripts/missing.sh in deploy
        call L14:3 helper in deploy
        call L18:3 rm in cleanup
        call L23:1 echo in <module>
        call L25:6 cleanup in <module>
        call L25:1 trap in <module>
        call L26:1 deploy in <module>
        ref call L10:64 env.KUBECONFIG in deploy
        ref call L18:12 env.TMPDIR in cleanup
        ref call L21:13 env.NAMESPACE in <module>
        ref call L24:8 env.AWS_REGION in <module>
        //- scripts/lib/common.sh
        sym function log L2-4 exported sig="log()" doc="Prints a log line."
        call L3:3 echo in log
        call L3:12 date in log
        //- scripts/check.sh
        call L2:1 curl in <module>
        ref call L2:12 env.ENDPOINT in <module>
        //- tools/helpers.bash
        sym function helper L1-1 exported sig="helper()"
        call L1:12 : in helper
    "#]].assert_eq(&render_fixture_facts(FIXTURE));
}

#[test]
fn graph_of_shell_scripts() {
    expect![[r#"
        node command concept:cmd:bash
        node command concept:cmd:curl
        node command concept:cmd:date
        node command concept:cmd:dirname
        node command concept:cmd:kubectl
        node command concept:cmd:rm
        node env_var concept:env:AWS_REGION
        node env_var concept:env:ENDPOINT
        node env_var concept:env:KUBECONFIG
        node env_var concept:env:NAMESPACE
        node env_var concept:env:TMPDIR
        node file file:scripts/check.sh L1-2
        node file file:scripts/deploy.sh L1-26
        node file file:scripts/lib/common.sh L1-4
        node file file:tools/helpers.bash L1-1
        node function sym:sh:scripts/deploy.sh:cleanup L17-19 parent=file:scripts/deploy.sh
        node function sym:sh:scripts/deploy.sh:deploy L7-15 parent=file:scripts/deploy.sh
        node function sym:sh:scripts/lib/common.sh:log L2-4 parent=file:scripts/lib/common.sh
        node function sym:sh:tools/helpers.bash:helper L1-1 parent=file:tools/helpers.bash
        edge CONTAINS file:scripts/deploy.sh -> sym:sh:scripts/deploy.sh:cleanup structural 1.00
        edge DEFINES file:scripts/deploy.sh -> sym:sh:scripts/deploy.sh:cleanup structural 1.00
        edge CONTAINS file:scripts/deploy.sh -> sym:sh:scripts/deploy.sh:deploy structural 1.00
        edge DEFINES file:scripts/deploy.sh -> sym:sh:scripts/deploy.sh:deploy structural 1.00
        edge CONTAINS file:scripts/lib/common.sh -> sym:sh:scripts/lib/common.sh:log structural 1.00
        edge DEFINES file:scripts/lib/common.sh -> sym:sh:scripts/lib/common.sh:log structural 1.00
        edge CONTAINS file:tools/helpers.bash -> sym:sh:tools/helpers.bash:helper structural 1.00
        edge DEFINES file:tools/helpers.bash -> sym:sh:tools/helpers.bash:helper structural 1.00
    "#]]
    .assert_eq(&render_fixture_graph(FIXTURE));
}

#[test]
fn commands_resolve_to_functions_scripts_and_concepts() {
    expect![[r#"
        edge REFERS_TO file:scripts/check.sh -> concept:cmd:curl L2 concept-name 1.00
        edge REFERS_TO file:scripts/check.sh -> concept:env:ENDPOINT L2 concept-name 1.00
        edge REFERS_TO file:scripts/deploy.sh -> concept:cmd:dirname L3 concept-name 1.00
        edge REFERS_TO file:scripts/deploy.sh -> concept:env:AWS_REGION L24 concept-name 1.00
        edge REFERS_TO file:scripts/deploy.sh -> concept:env:NAMESPACE L21 concept-name 1.00
        edge IMPORTS file:scripts/deploy.sh -> file:scripts/lib/common.sh L3 import-resolved 0.95
        edge CALLS file:scripts/deploy.sh -> sym:sh:scripts/deploy.sh:cleanup L25 same-file 0.95
        edge CALLS file:scripts/deploy.sh -> sym:sh:scripts/deploy.sh:deploy L26 same-file 0.95
        edge REFERS_TO sym:sh:scripts/deploy.sh:cleanup -> concept:cmd:rm L18 concept-name 1.00
        edge REFERS_TO sym:sh:scripts/deploy.sh:cleanup -> concept:env:TMPDIR L18 concept-name 1.00
        edge REFERS_TO sym:sh:scripts/deploy.sh:deploy -> concept:cmd:bash L13 concept-name 1.00
        edge REFERS_TO sym:sh:scripts/deploy.sh:deploy -> concept:cmd:kubectl L10 concept-name 1.00
        edge REFERS_TO sym:sh:scripts/deploy.sh:deploy -> concept:env:KUBECONFIG L10 concept-name 1.00
        edge CALLS sym:sh:scripts/deploy.sh:deploy -> file:scripts/check.sh L12 import-resolved 0.95
        edge CALLS sym:sh:scripts/deploy.sh:deploy -> sym:sh:scripts/lib/common.sh:log L9 import-resolved 0.95
        edge CALLS sym:sh:scripts/deploy.sh:deploy -> sym:sh:tools/helpers.bash:helper L14 name-only 0.30
        edge REFERS_TO sym:sh:scripts/lib/common.sh:log -> concept:cmd:date L3 concept-name 1.00
        unresolved scripts/deploy.sh:13 scripts/missing.sh in sym:sh:scripts/deploy.sh:deploy
    "#]].assert_eq(&render_fixture_resolution(FIXTURE));
}
