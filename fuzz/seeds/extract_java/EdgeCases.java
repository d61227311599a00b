// Constructs a provider must survive: unbalanced braces, deep chains, generics, lambdas.
package a.b;

class EdgeCases {
    Object o = new Object() { public String toString() { return "x".trim().toLowerCase(); } };
    int f(int... xs) { return xs.length; }
    void g() {
        String s = "a" + "b" + "c" + "d" + "e" + "f" + "g" + "h";
        builder().a().b().c().d().e().f().g().h().i().j().k().l().m().n().o().p();
        try (var in = open(); java.io.Reader r = in) { r.read(); } catch (IOException | RuntimeException e) { e.getMessage(); }
        switch (o) { case String t when t.isEmpty() -> t.length(); default -> {} }
        if (o instanceof String str && !str.isBlank()) { str.strip(); }
        Outer.this.g();
        int[][] grid = new int[3][4];
        grid[0].clone();
    }
    class Inner { void h() { EdgeCases.this.g(); super.toString(); } }
    void broken( { x.y(
}
