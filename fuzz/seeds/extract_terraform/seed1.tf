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
