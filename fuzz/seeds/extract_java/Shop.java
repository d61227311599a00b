package com.shop;

import java.util.*;
import static java.util.Objects.requireNonNull;

/** A shop. */
@Deprecated
public class Shop<T extends Item> extends Base implements Priced, Comparable<Shop<T>> {
    public static final int MAX = 10;
    private final List<T> items = new ArrayList<>();
    private int[] counts[];

    public Shop(T first) {
        super();
        this.items.add(requireNonNull(first));
    }

    @Override
    public int compareTo(Shop<T> o) { return Integer.compare(items.size(), o.items.size()); }

    public <R> R map(java.util.function.Function<? super T, ? extends R> f) {
        var it = items.iterator();
        for (T t : items) { f.apply(t); }
        Runnable r = this::clear;
        return ((Shop<T>) this).items.isEmpty() ? null : f.apply(it.next());
    }

    void clear() { items.clear(); }

    enum Kind { A(1), B(2) { int w() { return 3; } }; Kind(int n) {} int w() { return 1; } }

    record Pair(String a, int b) { Pair { requireNonNull(a); } }

    interface Visitor { default void visit(Object o) { o.toString(); } }
}
