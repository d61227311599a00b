//! Java end to end on fixtures: facts (exact: types, members, constructors, fields, imports,
//! calls with their receivers, heritage, hints), the graph, and the resolution (imports,
//! the package without imports, nested types, the class and interface hierarchy, `this` /
//! `super`, constructors, typed receivers through locals, fields, `var`, casts and return
//! types, static imports, types outside the workspace, unresolved sites named by their text).

use codegraph_tests::{render_call_accounting, render_fixture_facts, render_fixture_resolution};
use expect_test::expect;

const SHOP: &str = r#"
//- /src/main/java/com/shop/Item.java
package com.shop;

/** An item. */
public class Item extends Base implements Priced {
    public static final int MAX = 10;
    private String name;
    private final Clock clock = new Clock();

    public Item(String name) {
        super();
        this.name = name;
    }

    @Override
    public int price() {
        return name.length() + clock.now().size();
    }

    public Item renamed(String n) {
        Item copy = new Item(n);
        copy.validate();
        copy.check();
        return copy;
    }

    boolean check(int level) { return level > 0; }

    public static class Builder {
        Item build() { return new Item("x"); }
    }
}
//- /src/main/java/com/shop/Base.java
package com.shop;

abstract class Base {
    protected boolean validate() { return check(); }
    boolean check() { return true; }
}
//- /src/main/java/com/shop/Priced.java
package com.shop;

public interface Priced {
    int price();
    default int doubled() { return price() * 2; }
}
//- /src/main/java/com/shop/Clock.java
package com.shop;

import java.util.List;

public class Clock {
    public List<String> now() { return List.of(); }
}
//- /src/main/java/com/shop/Size.java
package com.shop;

public enum Size {
    SMALL(1), LARGE(2) {
        @Override int weight() { return base() * 2; }
    }, NONE;
    private final int n;
    Size(int n) { this.n = n; }
    Size() { this(0); }
    int weight() { return n; }
    int base() { return n; }
}
//- /src/main/java/com/shop/Box.java
package com.shop;

public class Box<T extends Base> {
    public T value;
    public T get() { return value; }
    boolean ok() { return value.validate(); }
}
//- /src/main/java/com/shop/ItemBox.java
package com.shop;

public class ItemBox extends Box<Item> {
    int total() { return get().price() + value.price(); }
}
//- /src/main/java/com/shop/app/Cart.java
package com.shop.app;

import com.shop.Item;
import com.shop.Priced;
import static com.shop.app.Util.log;
import java.util.*;

public class Cart {
    private final List<Item> items = new ArrayList<>();
    private Item last;

    public int total() {
        int sum = 0;
        for (Item it : items) {
            sum += it.price();
            it.renamed("a").validate();
        }
        var b = new Item.Builder();
        Item built = b.build();
        last = built;
        this.last.doubled();
        Priced p = (Priced) last;
        ((Item) p).price();
        log("total");
        Runnable r = this::clear;
        unknown.call();
        new Runnable() {
            public void run() { clear(); }
        }.run();
        return sum;
    }

    void clear() { items.clear(); }

    private final Map<String, Item> byName = new HashMap<>();

    Optional<Item> first() { return Optional.empty(); }

    void generics() {
        items.get(0).price();
        byName.get("a").validate();
        for (var e : byName.entrySet()) { e.getValue().price(); }
        first().orElseThrow().renamed("b");
        for (var it : items) { it.price(); }
        byName.values().stream().findFirst().get().price();
        new Item("z") {
            public int price() { return renamed("q").price() + super.price(); }
        };
        com.shop.Box<Item> box = new com.shop.Box<>();
        box.get().price();
        box.value.renamed("x");
        items.stream().filter(x -> x.price() > 0).forEach(x -> x.validate());
        first().ifPresent(i -> i.renamed("c"));
    }
}
//- /src/main/java/com/shop/app/Util.java
package com.shop.app;

final class Util {
    static void log(String s) { System.out.println(s); }
}
"#;

#[test]
fn facts() {
    expect![[r#"
        //- src/main/java/com/shop/Item.java
        sym class Item L4-31 exported sig="public class Item extends Base implements Priced" doc="An item."
        sym constant Item.MAX L5-5 exported in=Item sig="public static final int MAX = 10;"
        sym property Item.name L6-6 in=Item sig="private String name;"
        sym property Item.clock L7-7 in=Item sig="private final Clock clock = new Clock();"
        sym method Item.constructor L9-12 exported in=Item sig="public Item(String name)"
        sym method Item.price L14-17 exported in=Item sig="@Override public int price()"
        sym method Item.renamed L19-24 exported in=Item sig="public Item renamed(String n)"
        sym method Item.check L26-26 in=Item sig="boolean check(int level)"
        sym class Item.Builder L28-30 exported in=Item sig="public static class Builder"
        sym method Item.Builder.build L29-29 in=Item.Builder sig="Item build()"
        new L7:37 Clock in Item.clock
        call L10:9 super.constructor in Item.constructor
        call L16:21 name.length in Item.price
        call L16:44 clock.now().size in Item.price
        call L16:38 clock.now in Item.price
        new L20:25 Item in Item.renamed
        call L21:14 copy.validate in Item.renamed
        call L22:14 copy.check in Item.renamed
        new L29:35 Item in Item.Builder.build
        write L11 this.name in Item.constructor
        heritage Item Extends Base
        heritage Item Implements Priced
        hint L5 Item MAX : int
        hint L6 Item name : String
        hint L7 Item clock : Clock
        hint L9 Item.constructor name : String
        hint L14 Item.price  -> int
        hint L19 Item.renamed  -> Item
        hint L19 Item.renamed n : String
        hint L20 Item.renamed copy : Item
        hint L26 Item.check  -> boolean
        hint L26 Item.check level : int
        hint L29 Item.Builder.build  -> Item
        //- src/main/java/com/shop/Base.java
        sym class Base L3-6 sig="abstract class Base"
        sym method Base.validate L4-4 in=Base sig="protected boolean validate()"
        sym method Base.check L5-5 in=Base sig="boolean check()"
        call L4:43 check in Base.validate
        hint L4 Base.validate  -> boolean
        hint L5 Base.check  -> boolean
        //- src/main/java/com/shop/Priced.java
        sym interface Priced L3-6 exported sig="public interface Priced"
        sym method Priced.price L4-4 exported in=Priced sig="int price();"
        sym method Priced.doubled L5-5 exported in=Priced sig="default int doubled()"
        call L5:36 price in Priced.doubled
        hint L4 Priced.price  -> int
        hint L5 Priced.doubled  -> int
        //- src/main/java/com/shop/Clock.java
        sym class Clock L5-7 exported sig="public class Clock"
        sym method Clock.now L6-6 exported in=Clock sig="public List<String> now()"
        import L3 EsImport "java.util" List as List
        call L6:45 List.of in Clock.now
        hint L6 Clock.now  -> List<String>
        //- src/main/java/com/shop/Size.java
        sym enum Size L3-12 exported sig="public enum Size"
        sym constant Size.SMALL L4-4 exported in=Size sig="SMALL(1)"
        sym constant Size.LARGE L4-6 exported in=Size sig="LARGE(2) { @Override int weight() { return base() * 2; } }"
        sym method Size.LARGE.weight L5-5 in=Size.LARGE sig="@Override int weight()"
        sym constant Size.NONE L6-6 exported in=Size sig="NONE"
        sym property Size.n L7-7 in=Size sig="private final int n;"
        sym method Size.constructor L8-8 in=Size sig="Size(int n)"
        sym method Size.constructor L9-9 in=Size sig="Size()"
        sym method Size.weight L10-10 in=Size sig="int weight()"
        sym method Size.base L11-11 in=Size sig="int base()"
        new L4:5 Size in Size.SMALL
        new L4:15 Size in Size.LARGE
        call L5:41 base in Size.LARGE.weight
        call L9:14 this.constructor in Size.constructor
        write L8 this.n in Size.constructor
        hint L5 Size.LARGE.weight this : Size
        hint L5 Size.LARGE.weight  -> int
        hint L7 Size n : int
        hint L8 Size.constructor n : int
        hint L10 Size.weight  -> int
        hint L11 Size.base  -> int
        //- src/main/java/com/shop/Box.java
        sym class Box L3-7 exported sig="public class Box<T extends Base>"
        sym property Box.value L4-4 exported in=Box sig="public T value;"
        sym method Box.get L5-5 exported in=Box sig="public T get()"
        sym method Box.ok L6-6 in=Box sig="boolean ok()"
        call L6:33 value.validate in Box.ok
        hint L4 Box value : T
        hint L5 Box.get  -> T
        hint L6 Box.ok  -> boolean
        //- src/main/java/com/shop/ItemBox.java
        sym class ItemBox L3-5 exported sig="public class ItemBox extends Box<Item>"
        sym method ItemBox.total L4-4 in=ItemBox sig="int total()"
        call L4:32 get().price in ItemBox.total
        call L4:26 get in ItemBox.total
        call L4:48 value.price in ItemBox.total
        heritage ItemBox Extends Box<Item>
        hint L4 ItemBox.total  -> int
        //- src/main/java/com/shop/app/Cart.java
        sym class Cart L8-55 exported sig="public class Cart"
        sym property Cart.items L9-9 in=Cart sig="private final List<Item> items = new ArrayList<>();"
        sym property Cart.last L10-10 in=Cart sig="private Item last;"
        sym method Cart.total L12-31 exported in=Cart sig="public int total()"
        sym method Cart.total.run L28-28 exported in=Cart.total sig="public void run()"
        sym method Cart.clear L33-33 in=Cart sig="void clear()"
        sym property Cart.byName L35-35 in=Cart sig="private final Map<String, Item> byName = new HashMap<>();"
        sym method Cart.first L37-37 in=Cart sig="Optional<Item> first()"
        sym method Cart.generics L39-54 in=Cart sig="void generics()"
        sym method Cart.generics.price L47-47 in=Cart.generics sig="public int price()"
        import L3 EsImport "com.shop" Item as Item
        import L4 EsImport "com.shop" Priced as Priced
        import L5 Module "com.shop.app.Util" log as log
        import L6 EsImport "java.util" all
        new L9:42 ArrayList in Cart.items
        call L15:23 it.price in Cart.total
        call L16:29 it.renamed().validate in Cart.total
        call L16:16 it.renamed in Cart.total
        new L18:21 Item.Builder in Cart.total
        call L19:24 b.build in Cart.total
        call L21:19 this.last.doubled in Cart.total
        call L23:20 new.Item.price in Cart.total
        call L24:9 log in Cart.total
        call L26:17 unknown.call in Cart.total
        call L29:11 new.Runnable.run in Cart.total
        new L27:13 Runnable in Cart.total
        call L28:33 clear in Cart.total.run
        call L33:26 items.clear in Cart.clear
        new L35:50 HashMap in Cart.byName
        call L37:46 Optional.empty in Cart.first
        call L40:22 items.get().price in Cart.generics
        call L40:15 items.get in Cart.generics
        call L41:25 byName.get().validate in Cart.generics
        call L41:16 byName.get in Cart.generics
        call L42:29 byName.entrySet in Cart.generics
        call L42:56 e.getValue().price in Cart.generics
        call L42:45 e.getValue in Cart.generics
        call L43:31 first().orElseThrow().renamed in Cart.generics
        call L43:17 first().orElseThrow in Cart.generics
        call L43:9 first in Cart.generics
        call L44:35 it.price in Cart.generics
        call L45:52 byName.values().stream().findFirst().get().price in Cart.generics
        call L45:46 byName.values().stream().findFirst().get in Cart.generics
        call L45:34 byName.values().stream().findFirst in Cart.generics
        call L45:25 byName.values().stream in Cart.generics
        call L45:16 byName.values in Cart.generics
        new L46:13 Item in Cart.generics
        call L47:54 renamed().price in Cart.generics.price
        call L47:41 renamed in Cart.generics.price
        call L47:70 super.price in Cart.generics.price
        new L49:38 com.shop.Box in Cart.generics
        call L50:19 box.get().price in Cart.generics
        call L50:13 box.get in Cart.generics
        call L51:19 box.value.renamed in Cart.generics
        call L52:51 items.stream().filter().forEach in Cart.generics
        call L52:24 items.stream().filter in Cart.generics
        call L52:15 items.stream in Cart.generics
        call L52:38 x.price in Cart.generics
        call L52:66 x.validate in Cart.generics
        call L53:17 first().ifPresent in Cart.generics
        call L53:9 first in Cart.generics
        call L53:34 i.renamed in Cart.generics
        ref call L25:28 this.clear in Cart.total
        read L21 this.last in Cart.total
        read L51 box.value in Cart.generics
        hint L9 Cart items : List<Item>
        hint L10 Cart last : Item
        hint L12 Cart.total  -> int
        hint L13 Cart.total sum : int
        hint L14 Cart.total it : Item
        hint L18 Cart.total b = new Item.Builder
        hint L19 Cart.total built : Item
        hint L22 Cart.total p : Priced
        hint L25 Cart.total r : Runnable
        hint L28 Cart.total.run this : Runnable
        hint L35 Cart byName : Map<String,Item>
        hint L37 Cart.first  -> Optional<Item>
        hint L42 Cart.generics e = byName.entrySet().[]()
        hint L44 Cart.generics it = items.[]
        hint L47 Cart.generics.price this : Item
        hint L47 Cart.generics.price  -> int
        hint L49 Cart.generics box : com.shop.Box<Item>
        hint L52 Cart.generics x = items.stream().[]()
        hint L52 Cart.generics x = items.stream().filter().[]()
        hint L53 Cart.generics i = first().[]()
        //- src/main/java/com/shop/app/Util.java
        sym class Util L3-5 sig="final class Util"
        sym method Util.log L4-4 in=Util sig="static void log(String s)"
        call L4:44 System.out.println in Util.log
        read L4 System.out in Util.log
        hint L4 Util.log s : String
    "#]].assert_eq(&render_fixture_facts(SHOP));
}

#[test]
fn resolution() {
    expect![[r#"
        edge IMPORTS file:src/main/java/com/shop/app/Cart.java -> file:src/main/java/com/shop/Item.java L3 import-resolved 0.95
        edge IMPORTS file:src/main/java/com/shop/app/Cart.java -> file:src/main/java/com/shop/Priced.java L4 import-resolved 0.95
        edge IMPORTS file:src/main/java/com/shop/app/Cart.java -> file:src/main/java/com/shop/app/Util.java L5 import-resolved 0.95
        edge CALLS sym:java:src/main/java/com/shop/Base.java:Base.validate -> sym:java:src/main/java/com/shop/Base.java:Base.check L4 this-dispatch 0.90
        edge CALLS sym:java:src/main/java/com/shop/Box.java:Box.ok -> sym:java:src/main/java/com/shop/Base.java:Base.validate L6 typed-receiver 0.85
        edge EXTENDS sym:java:src/main/java/com/shop/Item.java:Item -> sym:java:src/main/java/com/shop/Base.java:Base L4 import-resolved 0.95
        edge IMPLEMENTS sym:java:src/main/java/com/shop/Item.java:Item -> sym:java:src/main/java/com/shop/Priced.java:Priced L4 import-resolved 0.95
        edge CALLS sym:java:src/main/java/com/shop/Item.java:Item.Builder.build -> sym:java:src/main/java/com/shop/Item.java:Item L29 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/Item.java:Item.clock -> sym:java:src/main/java/com/shop/Clock.java:Clock L7 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/Item.java:Item.constructor -> sym:java:src/main/java/com/shop/Base.java:Base L10 super-dispatch 0.90
        edge ACCESSES sym:java:src/main/java/com/shop/Item.java:Item.constructor -> sym:java:src/main/java/com/shop/Item.java:Item.name L11 same-file 0.95
        edge CALLS sym:java:src/main/java/com/shop/Item.java:Item.price -> sym:java:src/main/java/com/shop/Clock.java:Clock.now L16 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/Item.java:Item.renamed -> sym:java:src/main/java/com/shop/Base.java:Base.check L22 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/Item.java:Item.renamed -> sym:java:src/main/java/com/shop/Base.java:Base.validate L21 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/Item.java:Item.renamed -> sym:java:src/main/java/com/shop/Item.java:Item L20 typed-receiver 0.85
        edge EXTENDS sym:java:src/main/java/com/shop/ItemBox.java:ItemBox -> sym:java:src/main/java/com/shop/Box.java:Box L3 import-resolved 0.95
        edge CALLS sym:java:src/main/java/com/shop/ItemBox.java:ItemBox.total -> sym:java:src/main/java/com/shop/Box.java:Box.get L4 this-dispatch 0.90
        edge CALLS sym:java:src/main/java/com/shop/ItemBox.java:ItemBox.total -> sym:java:src/main/java/com/shop/Item.java:Item.price L4 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/Priced.java:Priced.doubled -> sym:java:src/main/java/com/shop/Priced.java:Priced.price L5 this-dispatch 0.90
        edge CALLS sym:java:src/main/java/com/shop/Size.java:Size.LARGE -> sym:java:src/main/java/com/shop/Size.java:Size L4 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/Size.java:Size.LARGE.weight -> sym:java:src/main/java/com/shop/Size.java:Size.base L5 this-dispatch 0.90
        edge CALLS sym:java:src/main/java/com/shop/Size.java:Size.SMALL -> sym:java:src/main/java/com/shop/Size.java:Size L4 typed-receiver 0.85
        edge ACCESSES sym:java:src/main/java/com/shop/Size.java:Size.constructor -> sym:java:src/main/java/com/shop/Size.java:Size.n L8 same-file 0.95
        edge CALLS sym:java:src/main/java/com/shop/Size.java:Size.constructor#2 -> sym:java:src/main/java/com/shop/Size.java:Size L9 this-dispatch 0.90
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.generics -> sym:java:src/main/java/com/shop/Base.java:Base.validate L41 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.generics -> sym:java:src/main/java/com/shop/Base.java:Base.validate L52 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.generics -> sym:java:src/main/java/com/shop/Box.java:Box L49 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.generics -> sym:java:src/main/java/com/shop/Box.java:Box.get L50 typed-receiver 0.85
        edge ACCESSES sym:java:src/main/java/com/shop/app/Cart.java:Cart.generics -> sym:java:src/main/java/com/shop/Box.java:Box.value L51 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.generics -> sym:java:src/main/java/com/shop/Item.java:Item L46 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.generics -> sym:java:src/main/java/com/shop/Item.java:Item.price L40 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.generics -> sym:java:src/main/java/com/shop/Item.java:Item.price L42 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.generics -> sym:java:src/main/java/com/shop/Item.java:Item.price L44 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.generics -> sym:java:src/main/java/com/shop/Item.java:Item.price L45 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.generics -> sym:java:src/main/java/com/shop/Item.java:Item.price L50 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.generics -> sym:java:src/main/java/com/shop/Item.java:Item.price L52 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.generics -> sym:java:src/main/java/com/shop/Item.java:Item.renamed L43 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.generics -> sym:java:src/main/java/com/shop/Item.java:Item.renamed L51 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.generics -> sym:java:src/main/java/com/shop/Item.java:Item.renamed L53 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.generics -> sym:java:src/main/java/com/shop/app/Cart.java:Cart.first L43 this-dispatch 0.90
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.generics -> sym:java:src/main/java/com/shop/app/Cart.java:Cart.first L53 this-dispatch 0.90
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.generics.price -> sym:java:src/main/java/com/shop/Item.java:Item.price L47 super-dispatch 0.90
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.generics.price -> sym:java:src/main/java/com/shop/Item.java:Item.price L47 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.generics.price -> sym:java:src/main/java/com/shop/Item.java:Item.renamed L47 this-dispatch 0.90
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.total -> sym:java:src/main/java/com/shop/Base.java:Base.validate L16 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.total -> sym:java:src/main/java/com/shop/Item.java:Item.Builder L18 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.total -> sym:java:src/main/java/com/shop/Item.java:Item.Builder.build L19 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.total -> sym:java:src/main/java/com/shop/Item.java:Item.price L15 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.total -> sym:java:src/main/java/com/shop/Item.java:Item.price L23 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.total -> sym:java:src/main/java/com/shop/Item.java:Item.renamed L16 typed-receiver 0.85
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.total -> sym:java:src/main/java/com/shop/Priced.java:Priced.doubled L21 typed-receiver 0.85
        edge REFERS_TO sym:java:src/main/java/com/shop/app/Cart.java:Cart.total -> sym:java:src/main/java/com/shop/app/Cart.java:Cart.clear L25 this-dispatch 0.90
        edge ACCESSES sym:java:src/main/java/com/shop/app/Cart.java:Cart.total -> sym:java:src/main/java/com/shop/app/Cart.java:Cart.last L21 same-file 0.95
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.total -> sym:java:src/main/java/com/shop/app/Util.java:Util.log L24 import-resolved 0.95
        edge CALLS sym:java:src/main/java/com/shop/app/Cart.java:Cart.total.run -> sym:java:src/main/java/com/shop/app/Cart.java:Cart.clear L28 this-dispatch 0.90
        unresolved src/main/java/com/shop/app/Cart.java:26 unknown.call in sym:java:src/main/java/com/shop/app/Cart.java:Cart.total
    "#]].assert_eq(&render_fixture_resolution(SHOP));
}

#[test]
fn every_call_site_is_accounted_for() {
    expect![[r#"
        src/main/java/com/shop/Base.java: 1 calls = 1 CALLS + 0 unresolved + 0 external
        src/main/java/com/shop/Box.java: 1 calls = 1 CALLS + 0 unresolved + 0 external
        src/main/java/com/shop/Clock.java: 1 calls = 0 CALLS + 0 unresolved + 1 external
        src/main/java/com/shop/Item.java: 9 calls = 7 CALLS + 0 unresolved + 2 external
        src/main/java/com/shop/ItemBox.java: 3 calls = 3 CALLS + 0 unresolved + 0 external
        src/main/java/com/shop/Priced.java: 1 calls = 1 CALLS + 0 unresolved + 0 external
        src/main/java/com/shop/Size.java: 4 calls = 4 CALLS + 0 unresolved + 0 external
        src/main/java/com/shop/app/Cart.java: 48 calls = 28 CALLS + 1 unresolved + 19 external
        src/main/java/com/shop/app/Util.java: 1 calls = 0 CALLS + 0 unresolved + 1 external
    "#]]
    .assert_eq(&render_call_accounting(SHOP));
}

const WEB: &str = r#"
//- /src/main/java/com/web/UserController.java
package com.web;

import org.springframework.web.bind.annotation.*;

@RestController
@RequestMapping("/api/users")
public class UserController {
    @GetMapping("/{id}")
    public User get(@PathVariable long id) { return find(id); }

    @PostMapping
    public User create(@RequestBody User u) { return u; }

    @RequestMapping(value = {"/search", "/find"}, method = {RequestMethod.GET, RequestMethod.HEAD})
    public String search() { return ""; }

    @RequestMapping(path = "/any")
    public void any() {}

    User find(long id) { return null; }
}
//- /src/main/java/com/web/Orders.java
package com.web;

import jakarta.ws.rs.*;

@Path("/orders")
public class Orders {
    @GET
    public String list() { return ""; }

    @DELETE
    @Path("/{id: \\d+}")
    public void remove(@PathParam("id") long id) {}

    public void helper() {}
}
//- /src/main/java/com/web/Plain.java
package com.web;

public class Plain {
    @GetMapping("/not-a-controller")
    public void x() {}
}
"#;

#[test]
fn spring_and_jax_rs_routes() {
    let graph: String = codegraph_tests::render_fixture_graph(WEB)
        .lines()
        .filter(|l| l.contains("route:") || l.contains("HANDLES_ROUTE"))
        .map(|l| format!("{l}\n"))
        .collect();
    expect![[r#"
        node route route:src/main/java/com/web/Orders.java:DELETE /orders/:id L10-10 parent=file:src/main/java/com/web/Orders.java
        node route route:src/main/java/com/web/Orders.java:GET /orders L7-7 parent=file:src/main/java/com/web/Orders.java
        node route route:src/main/java/com/web/UserController.java:ANY /api/users/any L17-17 parent=file:src/main/java/com/web/UserController.java
        node route route:src/main/java/com/web/UserController.java:GET /api/users/:id L8-8 parent=file:src/main/java/com/web/UserController.java
        node route route:src/main/java/com/web/UserController.java:GET /api/users/find L14-14 parent=file:src/main/java/com/web/UserController.java
        node route route:src/main/java/com/web/UserController.java:GET /api/users/search L14-14 parent=file:src/main/java/com/web/UserController.java
        node route route:src/main/java/com/web/UserController.java:HEAD /api/users/find L14-14 parent=file:src/main/java/com/web/UserController.java
        node route route:src/main/java/com/web/UserController.java:HEAD /api/users/search L14-14 parent=file:src/main/java/com/web/UserController.java
        node route route:src/main/java/com/web/UserController.java:POST /api/users L11-11 parent=file:src/main/java/com/web/UserController.java
        edge CONTAINS file:src/main/java/com/web/Orders.java -> route:src/main/java/com/web/Orders.java:DELETE /orders/:id structural 1.00
        edge CONTAINS file:src/main/java/com/web/Orders.java -> route:src/main/java/com/web/Orders.java:GET /orders structural 1.00
        edge CONTAINS file:src/main/java/com/web/UserController.java -> route:src/main/java/com/web/UserController.java:ANY /api/users/any structural 1.00
        edge CONTAINS file:src/main/java/com/web/UserController.java -> route:src/main/java/com/web/UserController.java:GET /api/users/:id structural 1.00
        edge CONTAINS file:src/main/java/com/web/UserController.java -> route:src/main/java/com/web/UserController.java:GET /api/users/find structural 1.00
        edge CONTAINS file:src/main/java/com/web/UserController.java -> route:src/main/java/com/web/UserController.java:GET /api/users/search structural 1.00
        edge CONTAINS file:src/main/java/com/web/UserController.java -> route:src/main/java/com/web/UserController.java:HEAD /api/users/find structural 1.00
        edge CONTAINS file:src/main/java/com/web/UserController.java -> route:src/main/java/com/web/UserController.java:HEAD /api/users/search structural 1.00
        edge CONTAINS file:src/main/java/com/web/UserController.java -> route:src/main/java/com/web/UserController.java:POST /api/users structural 1.00
        edge HANDLES_ROUTE route:src/main/java/com/web/Orders.java:DELETE /orders/:id -> sym:java:src/main/java/com/web/Orders.java:Orders.remove L10 same-file 0.95
        edge HANDLES_ROUTE route:src/main/java/com/web/Orders.java:GET /orders -> sym:java:src/main/java/com/web/Orders.java:Orders.list L7 same-file 0.95
        edge HANDLES_ROUTE route:src/main/java/com/web/UserController.java:ANY /api/users/any -> sym:java:src/main/java/com/web/UserController.java:UserController.any L17 same-file 0.95
        edge HANDLES_ROUTE route:src/main/java/com/web/UserController.java:GET /api/users/:id -> sym:java:src/main/java/com/web/UserController.java:UserController.get L8 same-file 0.95
        edge HANDLES_ROUTE route:src/main/java/com/web/UserController.java:GET /api/users/find -> sym:java:src/main/java/com/web/UserController.java:UserController.search L14 same-file 0.95
        edge HANDLES_ROUTE route:src/main/java/com/web/UserController.java:GET /api/users/search -> sym:java:src/main/java/com/web/UserController.java:UserController.search L14 same-file 0.95
        edge HANDLES_ROUTE route:src/main/java/com/web/UserController.java:HEAD /api/users/find -> sym:java:src/main/java/com/web/UserController.java:UserController.search L14 same-file 0.95
        edge HANDLES_ROUTE route:src/main/java/com/web/UserController.java:HEAD /api/users/search -> sym:java:src/main/java/com/web/UserController.java:UserController.search L14 same-file 0.95
        edge HANDLES_ROUTE route:src/main/java/com/web/UserController.java:POST /api/users -> sym:java:src/main/java/com/web/UserController.java:UserController.create L11 same-file 0.95
    "#]].assert_eq(&graph);
}

const TOOLS_AND_CLIENTS: &str = r#"
//- /src/main/java/com/ai/WeatherTools.java
package com.ai;

import org.springframework.ai.tool.annotation.Tool;

public class WeatherTools {
    @Tool(description = "Current weather for a city")
    public String weather(String city, String unit) { return ""; }

    @Tool(name = "forecast_days", description = "Forecast")
    public String forecast(int days) { return ""; }
}
//- /src/main/java/com/ai/Server.java
package com.ai;

import io.modelcontextprotocol.spec.McpSchema;

class Server {
    void register() {
        var tool = new McpSchema.Tool("echo", "Echoes its input", "{}");
    }
}
//- /src/main/java/com/game/Shed.java
package com.game;

class Shed {
    Object hammer = new Tool("hammer", "heavy");

    @Tool(description = "not an LLM tool: nothing imported declares one")
    void swing() {}
}
//- /src/main/java/com/ai/UsersClient.java
package com.ai;

@FeignClient(name = "users", path = "/api/users")
public interface UsersClient {
    @GetMapping("/{id}")
    User get(@PathVariable("id") long id);

    @PostMapping
    User create(User u);
}
//- /src/main/java/com/ai/Calls.java
package com.ai;

import java.net.URI;
import java.net.http.HttpRequest;

class Calls {
    void call(RestTemplate rest, WebClient web, long id) {
        rest.getForObject("http://users.svc/api/users/{id}", User.class, id);
        rest.exchange("/api/orders/" + id, HttpMethod.DELETE, null, Void.class);
        web.post().uri("/api/users").retrieve();
        HttpRequest.newBuilder().uri(URI.create("https://x.io/api/items")).POST(body).build();
        items.put("k", "v");
    }
}
"#;

#[test]
fn tools_and_client_calls() {
    let facts: String = render_fixture_facts(TOOLS_AND_CLIENTS)
        .lines()
        .filter(|l| l.starts_with("//-") || l.starts_with("tool ") || l.starts_with("client "))
        .map(|l| format!("{l}\n"))
        .collect();
    expect![[r#"
        //- src/main/java/com/ai/WeatherTools.java
        tool L6 spring-ai weather desc="Current weather for a city" fields=[city,unit] handler=sym:WeatherTools.weather in=WeatherTools
        tool L9 spring-ai forecast_days desc="Forecast" fields=[days] handler=sym:WeatherTools.forecast in=WeatherTools
        //- src/main/java/com/ai/Server.java
        tool L7 mcp-java-sdk echo desc="Echoes its input" handler=inline in=Server.register
        //- src/main/java/com/game/Shed.java
        //- src/main/java/com/ai/UsersClient.java
        client L5 feign GET /api/users/:id base in=UsersClient.get
        client L8 feign POST /api/users base in=UsersClient.create
        //- src/main/java/com/ai/Calls.java
        client L8 RestTemplate GET /api/users/:param base in=Calls.call
        client L9 RestTemplate DELETE /api/orders/:param in=Calls.call
        client L10 WebClient POST /api/users in=Calls.call
        client L11 java.net.http POST /api/items base in=Calls.call
    "#]].assert_eq(&facts);
}

#[test]
fn markdown_sections_name_java_symbols() {
    let fixture = format!(
        "{SHOP}//- /docs/cart.md\n# Checkout\n\n`Cart.total` adds up the `Item.price` of each item.\n"
    );
    let docs: String = render_fixture_resolution(&fixture)
        .lines()
        .filter(|l| l.contains("DOC_RELATED"))
        .map(|l| format!("{l}\n"))
        .collect();
    expect![[r#"
        edge DOC_RELATED sym:md:docs/cart.md:Checkout -> sym:java:src/main/java/com/shop/Item.java:Item.price L3 doc-mention 0.75
        edge DOC_RELATED sym:md:docs/cart.md:Checkout -> sym:java:src/main/java/com/shop/app/Cart.java:Cart.total L3 doc-mention 0.75
    "#]].assert_eq(&docs);
}
