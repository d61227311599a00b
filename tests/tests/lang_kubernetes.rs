//! Kubernetes manifests end to end on one fixture: which YAML files are manifests, facts
//! (exact), the graph (objects named `Kind/namespace/name`), and the resolution (label
//! selectors, named references, images as concepts, kustomization imports, unresolved names,
//! templates left out).

use codegraph_parse::Language;
use codegraph_tests::{render_fixture_facts, render_fixture_graph, render_fixture_resolution};
use expect_test::expect;

const FIXTURE: &str = r#"
//- /k8s/app.yaml
# The web tier.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: shop}
spec:
  template:
    metadata:
      labels:
        app: shop
        tier: web
    spec:
      serviceAccountName: web-sa
      containers:
      - name: web
        image: "ghcr.io/acme/web:1.4"
        envFrom:
        - configMapRef:
            name: web-config
        env:
        - name: DB_PASSWORD
          valueFrom:
            secretKeyRef: {name: db, key: password}
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: shop
    tier: web
---
apiVersion: v1
kind: Service
metadata:
  name: nothing
spec:
  selector:
    app: other
//- /k8s/config.yml
apiVersion: v1
kind: ConfigMap
metadata:
  name: web-config
data:
  alert: "{{ $labels.instance }} is down"
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: web-sa
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
spec:
  rules:
  - http:
      paths:
      - path: /
        backend:
          service: {name: web, port: {number: 80}}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: web-read
roleRef: {kind: ClusterRole, name: view, apiGroup: rbac.authorization.k8s.io}
subjects:
- kind: ServiceAccount
  name: web-sa
  namespace: default
//- /k8s/kustomization.yaml
resources:
  - app.yaml
  - config.yml
  - ../base
//- /base/kustomization.yaml
resources: []
//- /chart/templates/deploy.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}
//- /.github/workflows/ci.yml
on: push
jobs:
  test: {runs-on: ubuntu-latest}
"#;

#[test]
fn which_yaml_files_are_manifests() {
    let detect = |path: &str| {
        let text = codegraph_tests::parse_fixture(FIXTURE)
            .into_iter()
            .find(|f| f.path == path)
            .map(|f| f.text)
            .unwrap_or_default();
        Language::detect(path, &text)
    };
    assert_eq!(detect("k8s/app.yaml"), Some(Language::Kubernetes));
    assert_eq!(detect("k8s/kustomization.yaml"), Some(Language::Kubernetes));
    assert_eq!(detect("chart/templates/deploy.yaml"), Some(Language::Kubernetes));
    assert_eq!(detect(".github/workflows/ci.yml"), None);
    assert_eq!(Language::from_path("k8s/app.yaml"), None);
}

#[test]
fn facts_of_manifests() {
    expect![[r#"
        //- k8s/app.yaml
        sym resource Deployment/default/web L2-24 exported sig="apps/v1 Deployment" doc="The web tier."
        sym resource Service/default/web L26-33 exported sig="v1 Service"
        sym resource Service/default/nothing L35-41 exported sig="v1 Service"
        ref call L11:1 k8s:label.app.shop in Deployment/default/web
        ref call L12:1 k8s:label.tier.web in Deployment/default/web
        ref call L14:1 k8s:ref.ServiceAccount.default.web-sa in Deployment/default/web
        ref call L17:1 k8s:image.ghcr.io/acme/web in Deployment/default/web
        ref call L20:1 k8s:ref.ConfigMap.default.web-config in Deployment/default/web
        ref call L24:1 k8s:ref.Secret.default.db in Deployment/default/web
        ref call L32:1 k8s:selector.app.shop in Service/default/web
        ref call L33:1 k8s:selector.tier.web in Service/default/web
        ref call L41:1 k8s:selector.app.other in Service/default/nothing
        //- k8s/config.yml
        sym resource ConfigMap/default/web-config L1-6 exported sig="v1 ConfigMap"
        sym resource ServiceAccount/default/web-sa L8-11 exported sig="v1 ServiceAccount"
        sym resource Ingress/default/web L13-23 exported sig="networking.k8s.io/v1 Ingress"
        sym resource ClusterRoleBinding/web-read L25-33 exported sig="rbac.authorization.k8s.io/v1 ClusterRoleBinding"
        ref call L23:1 k8s:ref.Service.default.web in Ingress/default/web
        ref call L29:1 k8s:ref.ClusterRole.default.view in ClusterRoleBinding/web-read
        ref call L31:1 k8s:ref.ServiceAccount.default.web-sa in ClusterRoleBinding/web-read
        //- k8s/kustomization.yaml
        import L2 Path "app.yaml"
        import L3 Path "config.yml"
        import L4 Path "../base"
        //- base/kustomization.yaml
        //- chart/templates/deploy.yaml
        templated 1
        //- .github/workflows/ci.yml
        (no provider)
    "#]].assert_eq(&render_fixture_facts(FIXTURE));
}

#[test]
fn graph_of_manifests() {
    expect![[r#"
        node image concept:image:ghcr.io/acme/web
        node file file:.github/workflows/ci.yml L1-3
        node file file:base/kustomization.yaml L1-1
        node file file:chart/templates/deploy.yaml L1-4
        node file file:k8s/app.yaml L1-41
        node file file:k8s/config.yml L1-33
        node file file:k8s/kustomization.yaml L1-4
        node resource sym:k8s:k8s/app.yaml:Deployment/default/web L2-24 parent=file:k8s/app.yaml
        node resource sym:k8s:k8s/app.yaml:Service/default/nothing L35-41 parent=file:k8s/app.yaml
        node resource sym:k8s:k8s/app.yaml:Service/default/web L26-33 parent=file:k8s/app.yaml
        node resource sym:k8s:k8s/config.yml:ClusterRoleBinding/web-read L25-33 parent=file:k8s/config.yml
        node resource sym:k8s:k8s/config.yml:ConfigMap/default/web-config L1-6 parent=file:k8s/config.yml
        node resource sym:k8s:k8s/config.yml:Ingress/default/web L13-23 parent=file:k8s/config.yml
        node resource sym:k8s:k8s/config.yml:ServiceAccount/default/web-sa L8-11 parent=file:k8s/config.yml
        edge CONTAINS file:k8s/app.yaml -> sym:k8s:k8s/app.yaml:Deployment/default/web structural 1.00
        edge DEFINES file:k8s/app.yaml -> sym:k8s:k8s/app.yaml:Deployment/default/web structural 1.00
        edge CONTAINS file:k8s/app.yaml -> sym:k8s:k8s/app.yaml:Service/default/nothing structural 1.00
        edge DEFINES file:k8s/app.yaml -> sym:k8s:k8s/app.yaml:Service/default/nothing structural 1.00
        edge CONTAINS file:k8s/app.yaml -> sym:k8s:k8s/app.yaml:Service/default/web structural 1.00
        edge DEFINES file:k8s/app.yaml -> sym:k8s:k8s/app.yaml:Service/default/web structural 1.00
        edge CONTAINS file:k8s/config.yml -> sym:k8s:k8s/config.yml:ClusterRoleBinding/web-read structural 1.00
        edge DEFINES file:k8s/config.yml -> sym:k8s:k8s/config.yml:ClusterRoleBinding/web-read structural 1.00
        edge CONTAINS file:k8s/config.yml -> sym:k8s:k8s/config.yml:ConfigMap/default/web-config structural 1.00
        edge DEFINES file:k8s/config.yml -> sym:k8s:k8s/config.yml:ConfigMap/default/web-config structural 1.00
        edge CONTAINS file:k8s/config.yml -> sym:k8s:k8s/config.yml:Ingress/default/web structural 1.00
        edge DEFINES file:k8s/config.yml -> sym:k8s:k8s/config.yml:Ingress/default/web structural 1.00
        edge CONTAINS file:k8s/config.yml -> sym:k8s:k8s/config.yml:ServiceAccount/default/web-sa structural 1.00
        edge DEFINES file:k8s/config.yml -> sym:k8s:k8s/config.yml:ServiceAccount/default/web-sa structural 1.00
    "#]].assert_eq(&render_fixture_graph(FIXTURE));
}

#[test]
fn selectors_names_and_images_resolve() {
    expect![[r#"
        edge IMPORTS file:k8s/kustomization.yaml -> file:base/kustomization.yaml L4 import-resolved 0.95
        edge IMPORTS file:k8s/kustomization.yaml -> file:k8s/app.yaml L2 import-resolved 0.95
        edge IMPORTS file:k8s/kustomization.yaml -> file:k8s/config.yml L3 import-resolved 0.95
        edge REFERS_TO sym:k8s:k8s/app.yaml:Deployment/default/web -> concept:image:ghcr.io/acme/web L17 concept-name 1.00
        edge REFERS_TO sym:k8s:k8s/app.yaml:Deployment/default/web -> sym:k8s:k8s/config.yml:ConfigMap/default/web-config L20 named-reference 1.00
        edge REFERS_TO sym:k8s:k8s/app.yaml:Deployment/default/web -> sym:k8s:k8s/config.yml:ServiceAccount/default/web-sa L14 named-reference 1.00
        edge REFERS_TO sym:k8s:k8s/app.yaml:Service/default/web -> sym:k8s:k8s/app.yaml:Deployment/default/web L32 label-selector 1.00
        edge REFERS_TO sym:k8s:k8s/config.yml:ClusterRoleBinding/web-read -> sym:k8s:k8s/config.yml:ServiceAccount/default/web-sa L31 named-reference 1.00
        edge REFERS_TO sym:k8s:k8s/config.yml:Ingress/default/web -> sym:k8s:k8s/app.yaml:Service/default/web L23 named-reference 1.00
        unresolved k8s/app.yaml:24 Secret/default/db in sym:k8s:k8s/app.yaml:Deployment/default/web
        unresolved k8s/config.yml:29 ClusterRole/view in sym:k8s:k8s/config.yml:ClusterRoleBinding/web-read
    "#]].assert_eq(&render_fixture_resolution(FIXTURE));
}
