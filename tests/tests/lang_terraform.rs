//! Terraform end to end on one fixture: facts (exact), the graph (blocks named by their
//! addresses, module directories as packages) and the resolution (REFERS_TO by address,
//! `depends_on`, module outputs and inputs across a module call, unresolved misses).

use codegraph_parse::Language;
use codegraph_tests::{render_fixture_facts, render_fixture_graph, render_fixture_resolution};
use expect_test::expect;

const FIXTURE: &str = r#"
//- /main.tf
# The cluster's name.
variable "cluster_name" {
  type = string
}

variable "tags" {
  description = "Tags for everything"
  default     = {}
}

locals {
  name = "${var.cluster_name}-eks"
}

module "vpc" {
  source = "./modules/vpc"
  name   = local.name
  cidr   = "10.0.0.0/16"
}

resource "aws_eks_cluster" "this" {
  name       = local.name
  subnets    = module.vpc.subnet_ids
  tags       = merge(var.tags, { team = each.key })
  provider   = aws.west
  depends_on = [aws_iam_role.eks]
  dynamic "access" {
    for_each = var.tags
    content { key = access.key }
  }
}

resource "aws_iam_role" "eks" {
  name   = "${local.name}-role"
  policy = data.aws_iam_policy_document.assume.json
  arns   = [for r in var.roles : r.arn]
}

data "aws_iam_policy_document" "assume" {}

output "cluster_arn" {
  value = aws_eks_cluster.this.arn
}
//- /providers.tf
provider "aws" {
  alias  = "west"
  region = "us-west-2"
}
provider "google" {}
//- /modules/vpc/main.tf
variable "name" {}
variable "cidr" {}
resource "aws_vpc" "this" {
  cidr_block = var.cidr
  tags       = { Name = var.name }
}
output "subnet_ids" {
  value = [aws_vpc.this.id]
}
"#;

#[test]
fn the_registry_knows_it() {
    assert_eq!(Language::from_path("infra/main.tf"), Some(Language::Terraform));
    assert_eq!((Language::Terraform.as_str(), Language::Terraform.id_tag()), ("terraform", "tf"));
}

#[test]
fn facts_of_terraform_files() {
    expect![[r#"
        //- main.tf
        sym variable var.cluster_name L2-4 exported name=var.cluster_name sig="variable \"cluster_name\"" doc="The cluster's name."
        sym variable var.tags L6-9 exported name=var.tags sig="variable \"tags\"" doc="Tags for everything"
        sym variable local.name L12-12 exported name=local.name sig="name = \"${var.cluster_name}-eks\""
        sym module module.vpc L15-19 exported name=module.vpc sig="module \"vpc\""
        sym resource aws_eks_cluster.this L21-31 exported name=aws_eks_cluster.this sig="resource \"aws_eks_cluster\" \"this\""
        sym resource aws_iam_role.eks L33-37 exported name=aws_iam_role.eks sig="resource \"aws_iam_role\" \"eks\""
        sym resource data.aws_iam_policy_document.assume L39-39 exported name=data.aws_iam_policy_document.assume sig="data \"aws_iam_policy_document\" \"assume\""
        sym output output.cluster_arn L41-43 exported name=output.cluster_arn sig="output \"cluster_arn\""
        import L15 Path "./modules/vpc" * as vpc name cidr
        ref call L12:13 var.cluster_name in local.name
        ref call L17:12 local.name in module.vpc
        ref call L22:16 local.name in aws_eks_cluster.this
        ref call L23:16 module.vpc.subnet_ids in aws_eks_cluster.this
        ref call L24:22 var.tags in aws_eks_cluster.this
        ref call L25:16 provider.aws.west in aws_eks_cluster.this
        ref declared L26:17 aws_iam_role.eks in aws_eks_cluster.this
        ref call L34:15 local.name in aws_iam_role.eks
        ref call L35:12 data.aws_iam_policy_document.assume.json in aws_iam_role.eks
        ref call L36:22 var.roles in aws_iam_role.eks
        ref call L42:11 aws_eks_cluster.this.arn in output.cluster_arn
        //- providers.tf
        sym provider provider.aws.west L1-4 exported name=provider.aws.west sig="provider \"aws\""
        sym provider provider.google L5-5 exported name=provider.google sig="provider \"google\""
        //- modules/vpc/main.tf
        sym variable var.name L1-1 exported name=var.name sig="variable \"name\""
        sym variable var.cidr L2-2 exported name=var.cidr sig="variable \"cidr\""
        sym resource aws_vpc.this L3-6 exported name=aws_vpc.this sig="resource \"aws_vpc\" \"this\""
        sym output output.subnet_ids L7-9 exported name=output.subnet_ids sig="output \"subnet_ids\""
        ref call L4:16 var.cidr in aws_vpc.this
        ref call L5:25 var.name in aws_vpc.this
        ref call L8:12 aws_vpc.this.id in output.subnet_ids
    "#]].assert_eq(&render_fixture_facts(FIXTURE));
}

#[test]
fn graph_of_a_terraform_workspace() {
    expect![[r#"
        node file file:main.tf L1-43 parent=pkg:tf:.
        node file file:modules/vpc/main.tf L1-9 parent=pkg:tf:modules/vpc
        node file file:providers.tf L1-5 parent=pkg:tf:.
        node package pkg:tf:.
        node package pkg:tf:modules/vpc
        node resource sym:tf:main.tf:aws_eks_cluster.this L21-31 parent=file:main.tf
        node resource sym:tf:main.tf:aws_iam_role.eks L33-37 parent=file:main.tf
        node resource sym:tf:main.tf:data.aws_iam_policy_document.assume L39-39 parent=file:main.tf
        node variable sym:tf:main.tf:local.name L12-12 parent=file:main.tf
        node module sym:tf:main.tf:module.vpc L15-19 parent=file:main.tf
        node output sym:tf:main.tf:output.cluster_arn L41-43 parent=file:main.tf
        node variable sym:tf:main.tf:var.cluster_name L2-4 parent=file:main.tf
        node variable sym:tf:main.tf:var.tags L6-9 parent=file:main.tf
        node resource sym:tf:modules/vpc/main.tf:aws_vpc.this L3-6 parent=file:modules/vpc/main.tf
        node output sym:tf:modules/vpc/main.tf:output.subnet_ids L7-9 parent=file:modules/vpc/main.tf
        node variable sym:tf:modules/vpc/main.tf:var.cidr L2-2 parent=file:modules/vpc/main.tf
        node variable sym:tf:modules/vpc/main.tf:var.name L1-1 parent=file:modules/vpc/main.tf
        node provider sym:tf:providers.tf:provider.aws.west L1-4 parent=file:providers.tf
        node provider sym:tf:providers.tf:provider.google L5-5 parent=file:providers.tf
        edge CONTAINS file:main.tf -> sym:tf:main.tf:aws_eks_cluster.this structural 1.00
        edge DEFINES file:main.tf -> sym:tf:main.tf:aws_eks_cluster.this structural 1.00
        edge CONTAINS file:main.tf -> sym:tf:main.tf:aws_iam_role.eks structural 1.00
        edge DEFINES file:main.tf -> sym:tf:main.tf:aws_iam_role.eks structural 1.00
        edge CONTAINS file:main.tf -> sym:tf:main.tf:data.aws_iam_policy_document.assume structural 1.00
        edge DEFINES file:main.tf -> sym:tf:main.tf:data.aws_iam_policy_document.assume structural 1.00
        edge CONTAINS file:main.tf -> sym:tf:main.tf:local.name structural 1.00
        edge DEFINES file:main.tf -> sym:tf:main.tf:local.name structural 1.00
        edge CONTAINS file:main.tf -> sym:tf:main.tf:module.vpc structural 1.00
        edge DEFINES file:main.tf -> sym:tf:main.tf:module.vpc structural 1.00
        edge CONTAINS file:main.tf -> sym:tf:main.tf:output.cluster_arn structural 1.00
        edge DEFINES file:main.tf -> sym:tf:main.tf:output.cluster_arn structural 1.00
        edge CONTAINS file:main.tf -> sym:tf:main.tf:var.cluster_name structural 1.00
        edge DEFINES file:main.tf -> sym:tf:main.tf:var.cluster_name structural 1.00
        edge CONTAINS file:main.tf -> sym:tf:main.tf:var.tags structural 1.00
        edge DEFINES file:main.tf -> sym:tf:main.tf:var.tags structural 1.00
        edge CONTAINS file:modules/vpc/main.tf -> sym:tf:modules/vpc/main.tf:aws_vpc.this structural 1.00
        edge DEFINES file:modules/vpc/main.tf -> sym:tf:modules/vpc/main.tf:aws_vpc.this structural 1.00
        edge CONTAINS file:modules/vpc/main.tf -> sym:tf:modules/vpc/main.tf:output.subnet_ids structural 1.00
        edge DEFINES file:modules/vpc/main.tf -> sym:tf:modules/vpc/main.tf:output.subnet_ids structural 1.00
        edge CONTAINS file:modules/vpc/main.tf -> sym:tf:modules/vpc/main.tf:var.cidr structural 1.00
        edge DEFINES file:modules/vpc/main.tf -> sym:tf:modules/vpc/main.tf:var.cidr structural 1.00
        edge CONTAINS file:modules/vpc/main.tf -> sym:tf:modules/vpc/main.tf:var.name structural 1.00
        edge DEFINES file:modules/vpc/main.tf -> sym:tf:modules/vpc/main.tf:var.name structural 1.00
        edge CONTAINS file:providers.tf -> sym:tf:providers.tf:provider.aws.west structural 1.00
        edge DEFINES file:providers.tf -> sym:tf:providers.tf:provider.aws.west structural 1.00
        edge CONTAINS file:providers.tf -> sym:tf:providers.tf:provider.google structural 1.00
        edge DEFINES file:providers.tf -> sym:tf:providers.tf:provider.google structural 1.00
        edge CONTAINS pkg:tf:. -> file:main.tf structural 1.00
        edge CONTAINS pkg:tf:. -> file:providers.tf structural 1.00
        edge CONTAINS pkg:tf:modules/vpc -> file:modules/vpc/main.tf structural 1.00
    "#]].assert_eq(&render_fixture_graph(FIXTURE));
}

#[test]
fn references_resolve_by_address() {
    expect![[r#"
        edge REFERS_TO sym:tf:main.tf:aws_eks_cluster.this -> sym:tf:main.tf:aws_iam_role.eks L26 depends-on 1.00
        edge REFERS_TO sym:tf:main.tf:aws_eks_cluster.this -> sym:tf:main.tf:local.name L22 same-package 1.00
        edge REFERS_TO sym:tf:main.tf:aws_eks_cluster.this -> sym:tf:main.tf:var.tags L24 same-package 1.00
        edge REFERS_TO sym:tf:main.tf:aws_eks_cluster.this -> sym:tf:modules/vpc/main.tf:output.subnet_ids L23 module-interface 1.00
        edge REFERS_TO sym:tf:main.tf:aws_eks_cluster.this -> sym:tf:providers.tf:provider.aws.west L25 same-package 1.00
        edge REFERS_TO sym:tf:main.tf:aws_iam_role.eks -> sym:tf:main.tf:data.aws_iam_policy_document.assume L35 same-package 1.00
        edge REFERS_TO sym:tf:main.tf:aws_iam_role.eks -> sym:tf:main.tf:local.name L34 same-package 1.00
        edge REFERS_TO sym:tf:main.tf:local.name -> sym:tf:main.tf:var.cluster_name L12 same-package 1.00
        edge IMPORTS sym:tf:main.tf:module.vpc -> pkg:tf:modules/vpc L15 import-resolved 0.95
        edge REFERS_TO sym:tf:main.tf:module.vpc -> sym:tf:main.tf:local.name L17 same-package 1.00
        edge REFERS_TO sym:tf:main.tf:output.cluster_arn -> sym:tf:main.tf:aws_eks_cluster.this L42 same-package 1.00
        edge REFERS_TO sym:tf:modules/vpc/main.tf:aws_vpc.this -> sym:tf:modules/vpc/main.tf:var.cidr L4 same-package 1.00
        edge REFERS_TO sym:tf:modules/vpc/main.tf:aws_vpc.this -> sym:tf:modules/vpc/main.tf:var.name L5 same-package 1.00
        edge REFERS_TO sym:tf:modules/vpc/main.tf:output.subnet_ids -> sym:tf:modules/vpc/main.tf:aws_vpc.this L8 same-package 1.00
        edge REFERS_TO sym:tf:modules/vpc/main.tf:var.cidr -> sym:tf:main.tf:module.vpc L15 module-interface 1.00
        edge REFERS_TO sym:tf:modules/vpc/main.tf:var.name -> sym:tf:main.tf:module.vpc L15 module-interface 1.00
        unresolved main.tf:36 var.roles in sym:tf:main.tf:aws_iam_role.eks
    "#]].assert_eq(&render_fixture_resolution(FIXTURE));
}
