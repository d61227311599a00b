//! The languages of issue 21 through the CLI as a person runs it: one repository mixing an
//! Elixir app, its Terraform, its manifests and its scripts (one without an extension), then
//! search, open, context, impact, expand, DAG grep and export on their nodes, and an
//! incremental `index` after edits (a manifest, a script losing its shebang) equal to what a
//! fresh index says.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const FIXTURE: &str = r#"
//- /lib/shop/orders.ex
defmodule Shop.Orders do
  alias Shop.Repo
  def place(order), do: order |> Repo.insert()
end
//- /lib/shop/repo.ex
defmodule Shop.Repo do
  def insert(x), do: x
end
//- /test/shop/orders_test.exs
defmodule Shop.OrdersTest do
  use ExUnit.Case
  test "places an order" do
    assert Shop.Orders.place(%{}) == %{}
  end
end
//- /infra/main.tf
variable "region" {}
module "net" {
  source = "./net"
  region = var.region
}
output "vpc" { value = module.net.vpc_id }
//- /infra/net/main.tf
variable "region" {}
resource "aws_vpc" "main" { tags = { region = var.region } }
output "vpc_id" { value = aws_vpc.main.id }
//- /k8s/app.yaml
apiVersion: apps/v1
kind: Deployment
metadata: {name: shop}
spec:
  template:
    metadata:
      labels: {app: shop}
    spec:
      containers:
      - image: ghcr.io/acme/shop:2
        envFrom:
        - configMapRef: {name: shop-config}
---
apiVersion: v1
kind: Service
metadata: {name: shop}
spec:
  selector: {app: shop}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: shop-config}
//- /.github/workflows/ci.yml
on: push
//- /bin/deploy
#!/usr/bin/env bash
deploy() {
  kubectl apply -f k8s/ --context "$KUBE_CONTEXT"
}
deploy
"#;

struct Env {
    _dir: tempfile::TempDir,
    root: PathBuf,
    cache: PathBuf,
}

impl Env {
    fn new() -> Env {
        let (dir, base, root) = codegraph_tests::cli::git_fixture(FIXTURE);
        Env { _dir: dir, cache: base.join("cache"), root }
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_codegraph"))
            .args(args)
            .current_dir(&self.root)
            .env("CODEGRAPH_CACHE_DIR", &self.cache)
            .env("CODEGRAPH_EVENTS", "off")
            .env_remove("CODEGRAPH_LOG")
            .output()
            .expect("run codegraph")
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        codegraph_tests::cli::assert_ok(&out);
        String::from_utf8(out.stdout).expect("UTF-8 output")
    }

    fn json(&self, args: &[&str]) -> Value {
        serde_json::from_str(&self.ok(args)).expect("JSON output")
    }

    fn write(&self, rel: &str, text: &str) {
        std::fs::write(self.root.join(rel), text).expect("write");
    }

    /// The export as sorted lines: nodes and edges (kind, src, dst, reason) and unresolved sites.
    fn export(&self, db: Option<&Path>) -> Vec<String> {
        let mut args = vec!["export"];
        let db_s;
        if let Some(db) = db {
            db_s = db.display().to_string();
            args.extend(["--db", db_s.as_str()]);
        }
        let text = self.ok(&args);
        let mut out: Vec<String> = text
            .lines()
            .map(|l| {
                let v: Value = serde_json::from_str(l).expect("JSON line");
                match v["type"].as_str() {
                    Some("node") => format!("node {} {}", v["kind"], v["id"]),
                    Some("edge") => {
                        format!("edge {} {} {} {}", v["kind"], v["src"], v["dst"], v["reason"])
                    }
                    _ => format!("unresolved {} {}", v["callee"], v["caller"]),
                }
            })
            .collect();
        out.sort();
        out
    }
}

fn ids(v: &Value, key: &str) -> Vec<String> {
    v[key]
        .as_array()
        .map(|a| a.iter().filter_map(|x| x["id"].as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

#[test]
fn every_operation_works_on_every_language() {
    let e = Env::new();
    let summary = e.ok(&["index"]);
    assert!(
        summary.contains("elixir 3")
            && summary.contains("terraform 2")
            && summary.contains("kubernetes 1")
            && summary.contains("shell 1"),
        "{summary}"
    );
    // Search finds a Terraform variable, a Kubernetes object, an environment variable.
    let hits = e.json(&["search", "KUBE_CONTEXT", "--json"]);
    assert_eq!(ids(&hits, "hits").first().map(String::as_str), Some("concept:env:KUBE_CONTEXT"));
    let hits = e.json(&["search", "shop-config", "--json"]);
    assert!(
        ids(&hits, "hits").contains(&"sym:k8s:k8s/app.yaml:ConfigMap/default/shop-config".into())
    );
    // Open a node by ID.
    let open = e.ok(&["open", "sym:tf:infra/main.tf:var.region"]);
    assert!(open.contains("variable \"region\""), "{open}");
    // Impact of the root variable crosses into the child module and back out.
    let impact = e.ok(&["impact", "sym:tf:infra/main.tf:var.region", "--depth", "6"]);
    for reached in [
        "sym:tf:infra/main.tf:module.net",
        "sym:tf:infra/net/main.tf:var.region",
        "sym:tf:infra/net/main.tf:aws_vpc.main",
        "sym:tf:infra/net/main.tf:output.vpc_id",
        "sym:tf:infra/main.tf:output.vpc",
    ] {
        assert!(impact.contains(reached), "{reached} missing from\n{impact}");
    }
    // Impact of a ConfigMap: the Deployment that reads it, and the Service that selects it.
    let impact = e.ok(&["impact", "sym:k8s:k8s/app.yaml:ConfigMap/default/shop-config"]);
    assert!(impact.contains("Deployment/default/shop"), "{impact}");
    assert!(impact.contains("Service/default/shop"), "{impact}");
    // Context of an Elixir function: its caller-less callee through an alias.
    let ctx = e.ok(&["context", "sym:ex:lib/shop/orders.ex:Shop.Orders.place/1"]);
    assert!(ctx.contains("sym:ex:lib/shop/repo.ex:Shop.Repo.insert/1"), "{ctx}");
    // Impact leaves the ExUnit test out by Elixir's rule (`test/`, `*_test.exs`), and lists
    // it when asked.
    let place = "sym:ex:lib/shop/orders.ex:Shop.Orders.place/1";
    let impact = e.ok(&["impact", place]);
    assert!(impact.contains("1 test node(s) left out"), "{impact}");
    assert!(!impact.contains("orders_test.exs"), "{impact}");
    let impact = e.ok(&["impact", place, "--include-tests"]);
    assert!(impact.contains("test/shop/orders_test.exs"), "{impact}");
    // Expand and DAG grep on a shell function (from the script without an extension).
    let exp = e.ok(&["expand", "sym:sh:bin/deploy:deploy"]);
    assert!(exp.contains("concept:cmd:kubectl"), "{exp}");
    let dag = e.ok(&["dag-grep", "kubectl"]);
    assert!(dag.contains("concept:cmd:kubectl"), "{dag}");
    // The CI config is a plain file, not a manifest.
    let export = e.export(None);
    assert!(export.contains(&"node \"file\" \"file:.github/workflows/ci.yml\"".to_string()));
    assert!(!export.iter().any(|l| l.contains("sym:k8s:.github")));
    assert!(export.contains(
        &"edge \"REFERS_TO\" \"sym:k8s:k8s/app.yaml:Service/default/shop\" \"sym:k8s:k8s/app.yaml:Deployment/default/shop\" \"label-selector\""
            .to_string()
    ));

    // Edits: the Service selects nothing any more, the script loses its shebang.
    e.write(
        "k8s/app.yaml",
        &std::fs::read_to_string(e.root.join("k8s/app.yaml"))
            .expect("read")
            .replace("selector: {app: shop}", "selector: {app: other}"),
    );
    e.write("bin/deploy", "deploy() { :; }\n");
    e.ok(&["index"]);
    let incremental = e.export(None);
    assert!(!incremental.iter().any(|l| l.contains("label-selector")));
    assert!(!incremental.iter().any(|l| l.contains("sym:sh:bin/deploy")), "no longer a script");
    assert!(!incremental.iter().any(|l| l.contains("concept:cmd:kubectl")), "its concept goes");
    // Equal to a fresh index of the same tree.
    let fresh_db = e.cache.join("fresh.db");
    e.ok(&["index", "--db", fresh_db.to_str().expect("UTF-8 path")]);
    assert_eq!(incremental, e.export(Some(&fresh_db)));
}
