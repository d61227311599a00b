variable "name" {}
variable "cidr" {}
resource "aws_vpc" "this" {
  cidr_block = var.cidr
  tags       = { Name = var.name }
}
output "subnet_ids" {
  value = [aws_vpc.this.id]
}

