package x;
class ÿþ {
  void m() { "\u0000".length(); }
}
