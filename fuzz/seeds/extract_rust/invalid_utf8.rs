fn main() {
    let s = "ÿþ";
    "\u{0}".len();
}
â‚