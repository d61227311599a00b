//! Kubernetes manifests provider (`.yaml` / `.yml` files whose documents have top-level
//! `apiVersion` and `kind`, and `kustomization.yaml`; tree-sitter-yaml): every object is a
//! symbol, and what it names (objects, label selectors, images) is recorded for resolution.
//!
//! Symbols: one per document with `apiVersion` and `kind` (kind `resource`), named
//! `Kind/namespace/name` (`default` without a namespace; cluster-scoped kinds such as
//! `ClusterRole` or `Namespace` are `Kind/name`), signature `apiVersion Kind`, doc from the
//! comment lines right above the document. A `List` document's `items` are objects too.
//!
//! What objects name is recorded in [`FileFacts::value_refs`] from the object's symbol, with
//! the line of the field that names it, under receivers this module owns ([`REF`], [`SELECTOR`],
//! [`LABEL`], [`IMAGE`]):
//! - `["k8s:ref", Kind, namespace]` + name: an object by kind and name: `serviceAccountName`,
//!   `envFrom[].configMapRef` / `secretRef`, `env[].valueFrom.configMapKeyRef` /
//!   `secretKeyRef`, volumes (`configMap`, `secret`, `persistentVolumeClaim`),
//!   `imagePullSecrets`, Ingress backends and TLS secrets, HTTPRoute `backendRefs`,
//!   RoleBinding `roleRef` and `subjects`, HPA `scaleTargetRef`;
//! - `["k8s:selector", key]` + value: one pair of the object's pod selector (Service
//!   `spec.selector`; `matchLabels` of PodDisruptionBudget and NetworkPolicy);
//! - `["k8s:label", key]` + value: one label of a workload's pod template (Deployment,
//!   StatefulSet, DaemonSet, ReplicaSet, ReplicationController, Job, CronJob; a Pod's own);
//! - `["k8s:image"]` + image: a container image (tag and digest dropped).
//!
//! A kustomization's `resources`, `bases` and `components` are [`ImportKind::Path`] imports.
//! A document that is a template (Helm: `{{ }}` that breaks the YAML, drives it with
//! `{{- if }}` lines, or names the object) is left out and counted in
//! [`FileFacts::template_parts`] (a `templated` note on the file); `{{ }}` inside a valid
//! string is data. A document without `apiVersion` and `kind` is no object.

mod yaml;

use crate::facts::{
    CallKind, CallSite, Callee, FileFacts, Import, ImportKind, Receiver, Symbol, SymbolIdx,
};
use crate::util::{count_errors, line_comments_above, to_u32};
use crate::{Capability, Detect, LanguageSpec, Provider};
use codegraph_schema::NodeKind;
use tree_sitter::Node;
use yaml::{Ids, Reader, Value};

pub struct KubernetesProvider;

pub static KUBERNETES: KubernetesProvider = KubernetesProvider;

pub static KUBERNETES_SPEC: LanguageSpec = LanguageSpec {
    name: "kubernetes",
    id_tag: "k8s",
    extensions: &[],
    provider: &KUBERNETES,
    program_entry: None,
    module: module_path!(),
    detect: Some(Detect {
        extensions: &["yaml", "yml"],
        claims: is_manifest,
        describe: ".yaml/.yml files with a document that has top-level apiVersion and kind, and kustomization.yaml",
    }),
    test_file: is_test_manifest,
    call_expressions: None,
};

/// Kubernetes test code: manifests under `test/`, `tests/` or `testdata/` (fixtures of e2e suites).
fn is_test_manifest(path: &str) -> bool {
    crate::under_dir(path, crate::TEST_DIRS)
}

/// Receiver tag of a reference to an object by kind and name.
pub const REF: &str = "k8s:ref";
/// Receiver tag of a pod-selector pair.
pub const SELECTOR: &str = "k8s:selector";
/// Receiver tag of a pod-template label.
pub const LABEL: &str = "k8s:label";
/// Receiver tag of a container image.
pub const IMAGE: &str = "k8s:image";

/// Kinds whose objects live outside namespaces.
const CLUSTER_SCOPED: &[&str] = &[
    "Namespace",
    "Node",
    "PersistentVolume",
    "StorageClass",
    "ClusterRole",
    "ClusterRoleBinding",
    "CustomResourceDefinition",
    "PriorityClass",
    "IngressClass",
    "ValidatingWebhookConfiguration",
    "MutatingWebhookConfiguration",
    "APIService",
    "GatewayClass",
];

/// Whether a YAML file is a manifest: a `kustomization.yaml`, or some document has top-level
/// `apiVersion:` and `kind:` lines. A cheap line scan; the provider reads the documents.
pub fn is_manifest(path: &str, text: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    if matches!(name, "kustomization.yaml" | "kustomization.yml" | "Kustomization") {
        return true;
    }
    let (mut api, mut kind) = (false, false);
    for line in text.lines() {
        if line.starts_with("---") {
            if api && kind {
                return true;
            }
            (api, kind) = (false, false);
        }
        api |= line.starts_with("apiVersion:");
        kind |= line.starts_with("kind:");
    }
    api && kind
}

/// The object name of a kind in a namespace: `Kind/ns/name`, or `Kind/name` when cluster-scoped.
pub fn object_name(kind: &str, namespace: &str, name: &str) -> String {
    if CLUSTER_SCOPED.contains(&kind) {
        format!("{kind}/{name}")
    } else {
        format!("{kind}/{namespace}/{name}")
    }
}

/// An image without its tag or digest (`nginx:1.25` -> `nginx`, `reg:5000/app@sha256:..` ->
/// `reg:5000/app`).
pub fn image_repository(image: &str) -> &str {
    let image = image.split('@').next().unwrap_or(image);
    match image.rfind(':') {
        Some(i) if !image[i..].contains('/') => &image[..i],
        _ => image,
    }
}

impl Provider for KubernetesProvider {
    fn capabilities(&self) -> &'static [Capability] {
        &[Capability::Symbols, Capability::Imports]
    }

    fn grammar(&self) -> Option<tree_sitter::Language> {
        Some(tree_sitter_yaml::LANGUAGE.into())
    }

    fn extract(&self, text: &str, tree: Option<&tree_sitter::Tree>) -> FileFacts {
        let mut facts = FileFacts::default();
        let Some(tree) = tree else { return facts };
        facts.syntax_errors = count_errors(tree);
        let reader = Reader { ids: Ids::of(&tree.language()), src: text };
        let root = tree.root_node();
        let mut c = root.walk();
        let docs: Vec<Node<'_>> =
            root.named_children(&mut c).filter(|n| n.kind_id() == reader.ids.document).collect();
        let mut x = Extractor { facts, lines: text.lines().collect() };
        for doc in docs {
            let body = text.get(doc.byte_range()).unwrap_or("");
            // A template (Helm): `{{ }}` that breaks the YAML, drives it (`{{- if ... }}`
            // lines) or names the object. `{{ }}` inside a valid string (an alert's message
            // template in a ConfigMap) is data.
            let templated = body.contains("{{")
                && (doc.has_error() || body.lines().any(|l| l.trim_start().starts_with("{{")));
            let value = if templated { None } else { reader.document(doc) };
            // `name: {{ .Release.Name }}` is valid YAML (a mapping in a mapping), but no name.
            let unnamed = |v: &Value| {
                v.get("metadata").is_some()
                    && v.str_at(&["metadata", "name"]).is_none_or(|n| n.contains("{{"))
            };
            if templated || body.contains("{{") && value.as_ref().is_some_and(unnamed) {
                x.facts.template_parts += 1;
                continue;
            }
            let Some(value) = value else { continue };
            let start = to_u32(doc.start_position().row + 1);
            let end = to_u32(doc.end_position().row + usize::from(doc.end_position().column > 0));
            x.document(&value, start, end.max(start));
        }
        x.facts
    }
}

struct Extractor<'s> {
    facts: FileFacts,
    /// The file's lines (doc comments are read off them).
    lines: Vec<&'s str>,
}

impl Extractor<'_> {
    fn document(&mut self, v: &Value, start: u32, end: u32) {
        if v.str_at(&["kind"]) == Some("Kustomization")
            || v.get("resources").is_some() && v.get("apiVersion").is_none()
        {
            self.kustomization(v);
            return;
        }
        let Some(kind) = v.str_at(&["kind"]) else { return };
        if v.str_at(&["apiVersion"]).is_none() {
            return;
        }
        if kind == "List" || kind.ends_with("List") && v.get("items").is_some() {
            for item in v.get("items").map(Value::items).unwrap_or_default() {
                let line = item.line();
                self.object(item, line, line, false);
            }
            return;
        }
        self.object(v, start, end, true);
    }

    fn kustomization(&mut self, v: &Value) {
        for key in ["resources", "bases", "components"] {
            for item in v.get(key).map(Value::items).unwrap_or_default() {
                if let Some(path) = item.str().filter(|p| !p.contains("://")) {
                    self.facts.imports.push(Import {
                        source: path.to_string(),
                        kind: ImportKind::Path,
                        bindings: Vec::new(),
                        line: item.line(),
                    });
                }
            }
        }
    }

    /// The `#` comment lines right above line `start` (1-based).
    fn doc_above(&self, start: u32) -> Option<String> {
        line_comments_above(&self.lines, (start as usize).saturating_sub(1), &["#"])
    }

    fn object(&mut self, v: &Value, start: u32, end: u32, whole: bool) {
        let (Some(kind), Some(api)) = (v.str_at(&["kind"]), v.str_at(&["apiVersion"])) else {
            return;
        };
        let Some(name) =
            v.str_at(&["metadata", "name"]).or_else(|| v.str_at(&["metadata", "generateName"]))
        else {
            return;
        };
        let ns = v.str_at(&["metadata", "namespace"]).unwrap_or("default").to_string();
        let address = object_name(kind, &ns, name);
        let idx = to_u32(self.facts.symbols.len());
        let start_line = if whole { v.line().max(start) } else { start };
        self.facts.symbols.push(Symbol {
            kind: NodeKind::Resource,
            name: address.clone(),
            qualified_name: address,
            parent: None,
            start_line,
            end_line: end.max(start_line),
            signature: format!("{api} {kind}"),
            doc: self.doc_above(start_line),
            exported: true,
        });
        let refs = References { ns: &ns, idx, out: Vec::new() };
        let refs = match kind {
            "Service" => refs.selector(v.at(&["spec", "selector"])),
            "PodDisruptionBudget" => refs.selector(v.at(&["spec", "selector", "matchLabels"])),
            "NetworkPolicy" => refs.selector(v.at(&["spec", "podSelector", "matchLabels"])),
            "Pod" => refs.labels(v.at(&["metadata", "labels"])).pod(v.get("spec")),
            "CronJob" => {
                let t = v.at(&["spec", "jobTemplate", "spec", "template"]);
                refs.labels(t.and_then(|t| t.at(&["metadata", "labels"])))
                    .pod(t.and_then(|t| t.get("spec")))
            }
            "Deployment"
            | "StatefulSet"
            | "DaemonSet"
            | "ReplicaSet"
            | "ReplicationController"
            | "Job" => {
                let t = v.at(&["spec", "template"]);
                refs.labels(t.and_then(|t| t.at(&["metadata", "labels"])))
                    .pod(t.and_then(|t| t.get("spec")))
            }
            "Ingress" => refs.ingress(v.get("spec")),
            "HTTPRoute" | "GRPCRoute" | "TCPRoute" | "TLSRoute" | "UDPRoute" => {
                refs.http_route(v.get("spec"))
            }
            "RoleBinding" | "ClusterRoleBinding" => refs.binding(v),
            "HorizontalPodAutoscaler" => {
                let t = v.at(&["spec", "scaleTargetRef"]);
                let (k, n) =
                    (t.and_then(|t| t.str_at(&["kind"])), t.and_then(|t| t.str_at(&["name"])));
                match (k, n, t) {
                    (Some(k), Some(n), Some(t)) => refs.named(k, n, t.line()),
                    _ => refs,
                }
            }
            _ => refs,
        };
        self.facts.value_refs.extend(refs.out);
    }
}

/// The references of one object, built field by field.
struct References<'a> {
    ns: &'a str,
    idx: SymbolIdx,
    out: Vec<CallSite>,
}

impl References<'_> {
    fn push(&mut self, path: Vec<String>, name: &str, line: u32) {
        if name.is_empty() {
            return;
        }
        let site = CallSite {
            callee: Callee { receiver: Receiver::path(path), name: name.into() },
            kind: CallKind::Call,
            line,
            col: 1,
            enclosing: Some(self.idx),
            local: false,
        };
        if !self.out.contains(&site) {
            self.out.push(site);
        }
    }

    fn named(mut self, kind: &str, name: &str, line: u32) -> Self {
        let ns = self.ns.to_string();
        self.push(vec![REF.into(), kind.into(), ns], name, line);
        self
    }

    fn named_in(mut self, kind: &str, ns: &str, name: &str, line: u32) -> Self {
        self.push(vec![REF.into(), kind.into(), ns.into()], name, line);
        self
    }

    fn pairs(mut self, tag: &str, map: Option<&Value>) -> Self {
        for (k, v) in map.map(Value::pairs).unwrap_or_default() {
            if let Some(value) = v.str() {
                self.push(vec![tag.into(), k.clone()], value, v.line());
            }
        }
        self
    }

    fn selector(self, map: Option<&Value>) -> Self {
        self.pairs(SELECTOR, map)
    }

    fn labels(self, map: Option<&Value>) -> Self {
        self.pairs(LABEL, map)
    }

    /// What a pod spec names: service account, images, config maps, secrets, claims.
    fn pod(mut self, spec: Option<&Value>) -> Self {
        let Some(spec) = spec else { return self };
        for key in ["serviceAccountName", "serviceAccount"] {
            if let Some(sa) = spec.get(key).filter(|v| v.str().is_some()) {
                self = self.named("ServiceAccount", sa.str().unwrap_or(""), sa.line());
                break;
            }
        }
        for s in spec.get("imagePullSecrets").map(Value::items).unwrap_or_default() {
            if let Some(n) = s.get("name").and_then(Value::str) {
                self = self.named("Secret", n, s.line());
            }
        }
        let containers = ["initContainers", "containers", "ephemeralContainers"]
            .iter()
            .flat_map(|k| spec.get(k).map(Value::items).unwrap_or_default());
        for c in containers {
            if let Some(image) = c.get("image").filter(|v| v.str().is_some()) {
                let repo = image_repository(image.str().unwrap_or(""));
                self.push(vec![IMAGE.into()], repo, image.line());
            }
            for e in c.get("envFrom").map(Value::items).unwrap_or_default() {
                for (field, kind) in [("configMapRef", "ConfigMap"), ("secretRef", "Secret")] {
                    if let Some(r) = e.get(field)
                        && let Some(n) = r.get("name").and_then(Value::str)
                    {
                        self = self.named(kind, n, r.line());
                    }
                }
            }
            for e in c.get("env").map(Value::items).unwrap_or_default() {
                for (field, kind) in [("configMapKeyRef", "ConfigMap"), ("secretKeyRef", "Secret")]
                {
                    if let Some(r) = e.at(&["valueFrom", field])
                        && let Some(n) = r.get("name").and_then(Value::str)
                    {
                        self = self.named(kind, n, r.line());
                    }
                }
            }
        }
        for vol in spec.get("volumes").map(Value::items).unwrap_or_default() {
            let named = [
                ("configMap", "name", "ConfigMap"),
                ("secret", "secretName", "Secret"),
                ("persistentVolumeClaim", "claimName", "PersistentVolumeClaim"),
            ];
            for (field, key, kind) in named {
                if let Some(r) = vol.get(field)
                    && let Some(n) = r.get(key).and_then(Value::str)
                {
                    self = self.named(kind, n, r.line());
                }
            }
            for src in vol.at(&["projected", "sources"]).map(Value::items).unwrap_or_default() {
                for (field, kind) in [("configMap", "ConfigMap"), ("secret", "Secret")] {
                    if let Some(r) = src.get(field)
                        && let Some(n) = r.get("name").and_then(Value::str)
                    {
                        self = self.named(kind, n, r.line());
                    }
                }
            }
        }
        self
    }

    fn ingress(mut self, spec: Option<&Value>) -> Self {
        let Some(spec) = spec else { return self };
        let backend = |this: Self, b: &Value| -> Self {
            let name = b.str_at(&["service", "name"]).or_else(|| b.str_at(&["serviceName"]));
            match name {
                Some(n) => this.named("Service", n, b.line()),
                None => this,
            }
        };
        for key in ["defaultBackend", "backend"] {
            if let Some(b) = spec.get(key) {
                self = backend(self, b);
            }
        }
        for rule in spec.get("rules").map(Value::items).unwrap_or_default() {
            for p in rule.at(&["http", "paths"]).map(Value::items).unwrap_or_default() {
                if let Some(b) = p.get("backend") {
                    self = backend(self, b);
                }
            }
        }
        for tls in spec.get("tls").map(Value::items).unwrap_or_default() {
            if let Some(s) = tls.get("secretName").filter(|s| s.str().is_some()) {
                self = self.named("Secret", s.str().unwrap_or(""), s.line());
            }
        }
        self
    }

    fn http_route(mut self, spec: Option<&Value>) -> Self {
        let Some(spec) = spec else { return self };
        for rule in spec.get("rules").map(Value::items).unwrap_or_default() {
            for b in rule.get("backendRefs").map(Value::items).unwrap_or_default() {
                let kind = b.str_at(&["kind"]).unwrap_or("Service");
                let ns = b.str_at(&["namespace"]).map(str::to_string);
                if let Some(n) = b.str_at(&["name"]) {
                    self = match ns {
                        Some(ns) => self.named_in(kind, &ns, n, b.line()),
                        None => self.named(kind, n, b.line()),
                    };
                }
            }
        }
        for p in spec.get("parentRefs").map(Value::items).unwrap_or_default() {
            let kind = p.str_at(&["kind"]).unwrap_or("Gateway");
            if let Some(n) = p.str_at(&["name"]) {
                self = self.named(kind, n, p.line());
            }
        }
        self
    }

    fn binding(mut self, v: &Value) -> Self {
        if let Some(r) = v.get("roleRef")
            && let (Some(k), Some(n)) = (r.str_at(&["kind"]), r.str_at(&["name"]))
        {
            self = self.named(k, n, r.line());
        }
        for s in v.get("subjects").map(Value::items).unwrap_or_default() {
            let (Some(k), Some(n)) = (s.str_at(&["kind"]), s.str_at(&["name"])) else { continue };
            if k != "ServiceAccount" {
                continue; // users and groups are not objects of the repository
            }
            let ns = s.str_at(&["namespace"]).map(str::to_string);
            self = match ns {
                Some(ns) => self.named_in(k, &ns, n, s.line()),
                None => self.named(k, n, s.line()),
            };
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammar_names_exist() {
        let missing =
            crate::grammar::missing(yaml::Ids::NAMES, &[tree_sitter_yaml::LANGUAGE.into()]);
        assert!(missing.is_empty(), "{missing:?}");
    }

    #[test]
    fn manifests_images_and_names() {
        assert!(is_manifest("k8s/app.yaml", "apiVersion: v1\nkind: Service\n"));
        assert!(is_manifest("a.yml", "foo: 1\n---\napiVersion: v1\nkind: Pod\n"));
        assert!(is_manifest("overlays/prod/kustomization.yaml", "resources: []\n"));
        assert!(!is_manifest(".github/workflows/ci.yml", "on: push\njobs: {}\n"));
        assert!(!is_manifest("compose.yaml", "services:\n  kind: x\n"));
        assert_eq!(image_repository("nginx:1.25"), "nginx");
        assert_eq!(image_repository("reg:5000/app@sha256:abc"), "reg:5000/app");
        assert_eq!(image_repository("reg:5000/app"), "reg:5000/app");
        assert_eq!(object_name("Service", "default", "web"), "Service/default/web");
        assert_eq!(object_name("ClusterRole", "default", "admin"), "ClusterRole/admin");
    }
}
