variable "name" {
  type    = string
  default = "x"
}
locals {
  full = "${var.name}-${data.aws_region.current.name}"
}
resource "aws_s3_bucket" "b" {
  bucket = local.full
  count  = var.n
  tags   = merge(var.tags, { a = module.eks.cluster_id })
  depends_on = [aws_vpc.this]
}
module "eks" {
  source = "./modules/eks"
  x = [for s in var.subnets : s.id]
}
provider "aws" {
  alias = "west"
}
output "arn" { value = aws_s3_bucket.b[0].arn }
