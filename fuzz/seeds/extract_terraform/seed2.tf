provider "aws" {
  alias  = "west"
  region = "us-west-2"
}
provider "google" {}
