//! Kubernetes resolution: what manifests name, resolved against every object of the
//! repository's manifests (one workspace table).
//!
//! Rules: an object named by kind and name (`k8s:ref`) REFERS_TO the object `Kind/ns/name`
//! (`named-reference`; the edge's line is the field's); a Service's (PDB's, NetworkPolicy's)
//! selector REFERS_TO every workload of its namespace whose pod template labels include every
//! selector pair (`label-selector`; an empty selector selects nothing); an image REFERS_TO
//! the concept `image:REPOSITORY` (`concept-name`). An object named but not in the
//! repository is an unresolved site (`ConfigMap/default/app-config`): Kubernetes creates
//! some (the `default` ServiceAccount, `kube-root-ca.crt`), and a repository may leave others
//! to the cluster; they are listed, never dropped. A kustomization IMPORTS each listed file,
//! or the kustomization file of each listed directory.
//!
//! Incrementality: [`k8s_decls`] is one file's objects, namespaces and pod labels (no lines),
//! an `Eq` firewall: an edit that changes no name and no label (an image tag, a replica
//! count) leaves the workspace table equal, so only the edited file re-resolves.

use crate::graph::{Edge, symbol_ids};
use crate::ids::{Id, file_id, join, parent_dir};
use crate::keys::FileKey;
use crate::languages::LanguageResolver;
use crate::layout::{LanguageKey, language_dirs, lookup};
use crate::resolved::{Resolved, UnresolvedSite, caller_id};
use crate::units::concept_edge;
use codegraph_db::{Workspace, file_facts};
use codegraph_parse::kubernetes::{IMAGE, LABEL, REF, SELECTOR, object_name};
use codegraph_parse::{ImportKind, Language, Receiver};
use codegraph_schema::{EdgeKind, NodeKind, Reason};
use std::collections::{BTreeMap, HashMap};

pub(crate) struct KubernetesResolver;

pub(crate) static KUBERNETES_RESOLVER: KubernetesResolver = KubernetesResolver;

/// One object of a file: its name, ID, namespace and pod-template labels.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Object {
    pub name: String,
    pub id: Id,
    pub namespace: String,
    pub labels: BTreeMap<String, String>,
}

#[salsa::tracked(returns(ref))]
pub(crate) fn k8s_decls<'db>(db: &'db dyn salsa::Database, key: FileKey<'db>) -> Vec<Object> {
    let file = key.file(db);
    let facts = &file_facts(db, file);
    let ids = symbol_ids(db, file);
    let mut out: Vec<Object> = facts
        .symbols
        .iter()
        .zip(ids.iter())
        .map(|(s, id)| {
            let parts: Vec<&str> = s.name.split('/').collect();
            let namespace = if parts.len() == 3 { parts[1] } else { "" }.to_string();
            Object { name: s.name.clone(), id: id.clone(), namespace, labels: BTreeMap::new() }
        })
        .collect();
    for r in &facts.value_refs {
        let (Receiver::Path(p), Some(i)) = (&r.callee.receiver, r.enclosing) else { continue };
        if let [tag, key] = p.as_slice()
            && tag == LABEL
            && let Some(o) = out.get_mut(i as usize)
        {
            o.labels.insert(key.to_string(), r.callee.name.to_string());
        }
    }
    out
}

/// Every object of the workspace's manifests: by name, and the workloads with pod labels.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct K8sTable {
    pub by_name: HashMap<String, Id>,
    /// (namespace, labels, ID) of objects with pod-template labels, in workspace order.
    pub workloads: Vec<(String, BTreeMap<String, String>, Id)>,
}

#[salsa::tracked(returns(ref))]
pub(crate) fn k8s_table(db: &dyn salsa::Database, workspace: Workspace) -> K8sTable {
    let mut out = K8sTable::default();
    for files in language_dirs(db, LanguageKey::new(db, workspace, Language::Kubernetes)).values() {
        for &f in files {
            for o in k8s_decls(db, FileKey::new(db, workspace, f)) {
                out.by_name.entry(o.name.clone()).or_insert_with(|| o.id.clone());
                if !o.labels.is_empty() {
                    out.workloads.push((o.namespace.clone(), o.labels.clone(), o.id.clone()));
                }
            }
        }
    }
    out
}

impl LanguageResolver for KubernetesResolver {
    fn surface<'db>(&self, db: &'db dyn salsa::Database, key: FileKey<'db>) -> bool {
        k8s_decls(db, key);
        true
    }
    fn resolve<'db>(&self, db: &'db dyn salsa::Database, key: FileKey<'db>) -> Resolved {
        let (workspace, file) = (key.workspace(db), key.file(db));
        let facts = &file_facts(db, file);
        let dir = parent_dir(file.path(db));
        let mut out = Resolved::default();
        for imp in facts.imports.iter().filter(|i| i.kind == ImportKind::Path) {
            let Some(path) = join(dir, &imp.source) else { continue };
            let target = lookup(db, workspace, &path).or_else(|| {
                ["kustomization.yaml", "kustomization.yml", "Kustomization"]
                    .iter()
                    .find_map(|k| lookup(db, workspace, &format!("{path}/{k}")))
            });
            if let Some(t) = target {
                out.edges.push(Edge::new(
                    file_id(file.path(db)),
                    file_id(t.path(db)),
                    EdgeKind::Imports,
                    Reason::ImportResolved,
                    imp.line,
                ));
            }
        }
        let table = k8s_table(db, workspace);
        let decls = k8s_decls(db, key);
        // Per object with a selector: its line and (key, value) pairs.
        type Selector<'a> = (u32, Vec<(&'a str, &'a str)>);
        let mut selectors: BTreeMap<u32, Selector<'_>> = BTreeMap::new();
        for r in &facts.value_refs {
            let Receiver::Path(p) = &r.callee.receiver else { continue };
            let src = caller_id(db, file, r.enclosing);
            match p.as_slice() {
                [tag, kind, ns] if tag == REF => {
                    let name = object_name(kind, ns, &r.callee.name);
                    match table.by_name.get(&name) {
                        Some(dst) if *dst != src => out.edges.push(Edge::new(
                            src,
                            dst.clone(),
                            EdgeKind::RefersTo,
                            Reason::NamedReference,
                            r.line,
                        )),
                        Some(_) => {}
                        None => out.unresolved.push(UnresolvedSite {
                            line: r.line,
                            caller: src,
                            callee: name,
                        }),
                    }
                }
                [tag, key] if tag == SELECTOR => {
                    if let Some(i) = r.enclosing {
                        let e = selectors.entry(i).or_insert((r.line, Vec::new()));
                        e.1.push((key.as_str(), r.callee.name.as_str()));
                    }
                }
                [tag] if tag == IMAGE => out.edges.extend(concept_edge(
                    src,
                    NodeKind::Image,
                    &r.callee.name,
                    Reason::ConceptName,
                    r.line,
                )),
                _ => {}
            }
        }
        for (i, (line, pairs)) in selectors {
            let Some(o) = decls.get(i as usize) else { continue };
            for (ns, labels, id) in &table.workloads {
                let selected = *ns == o.namespace
                    && pairs.iter().all(|(k, v)| labels.get(*k).is_some_and(|l| l == v));
                if selected && *id != o.id {
                    out.edges.push(Edge::new(
                        o.id.clone(),
                        id.clone(),
                        EdgeKind::RefersTo,
                        Reason::LabelSelector,
                        line,
                    ));
                }
            }
        }
        out
    }

    fn has_concepts(&self) -> bool {
        true
    }
}
