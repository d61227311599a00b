//! Rust end to end on fixtures: facts (exact: items named as rust-analyzer names them, impl
//! blocks, `use` leaves, calls with their receivers also inside macros, declared types and
//! bindings), the graph, and the resolution (modules from `Cargo.toml` and the file layout,
//! `use` leaves, re-exports, globs and renames, `crate::` / `super::` / `self::`, impls of a
//! type in other files, trait impls and default methods, generic bounds, `Self`, std
//! containers, pattern bindings, extension traits in scope, item-level macro bodies, an
//! integration test naming the crate, unresolved sites named by their text) and the call
//! accounting.

use codegraph_tests::{render_call_accounting, render_fixture_facts, render_fixture_resolution};
use expect_test::expect;

const SHOP: &str = r#"
//- /Cargo.toml
[package]
name = "shop-core"
version = "0.1.0"

//- /src/lib.rs
//! The shop.
pub mod cart;
mod item;
pub mod price;

pub use item::{Item, Kind};
pub use price::Priced as PricedItem;

macro_rules! cfg_fast {
    ($($i:item)*) => { $($i)* }
}

cfg_fast! {
    /// Built only with the fast feature.
    pub fn fast_total(items: &[Item]) -> u32 {
        items.iter().map(|i| i.price()).sum()
    }
}

//- /src/item.rs
use crate::price::Priced;
use std::fmt;

/// An item for sale.
#[derive(Debug, Clone)]
pub struct Item {
    pub name: String,
    pub cents: u32,
    kind: Kind,
}

pub enum Kind {
    Plain,
    Boxed(Wrapper),
}

pub struct Wrapper(pub Item);

impl Item {
    pub fn new(name: &str, cents: u32) -> Self {
        let kind = Kind::Plain;
        Self { name: name.to_string(), cents, kind }
    }

    pub fn parse(text: &str) -> Option<Item> {
        let cents = text.len() as u32;
        Some(Item::new(text, cents))
    }

    pub fn boxed(self) -> Wrapper {
        Wrapper(self)
    }

    pub fn inner(&self) -> Option<&Item> {
        match &self.kind {
            Kind::Boxed(w) => Some(&w.0),
            Kind::Plain => None,
        }
    }
}

impl Priced for Item {
    fn price(&self) -> u32 {
        self.cents
    }
}

impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.name, self.price())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses() {
        let item = Item::parse("abc").unwrap();
        assert_eq!(item.price(), 3);
        assert_eq!(helper(&item), 6);
    }

    fn helper(item: &Item) -> u32 {
        item.doubled()
    }
}

//- /src/price.rs
/// Something with a price.
pub trait Priced {
    fn price(&self) -> u32;

    fn doubled(&self) -> u32 {
        self.price() * 2
    }
}

pub fn cheapest<T: Priced>(items: &[T]) -> Option<u32> {
    items.iter().map(|i| i.price()).min()
}

//- /src/cart/mod.rs
mod line;

pub use line::Line;

use crate::{Item, PricedItem};
use std::collections::HashMap;

pub struct Cart {
    lines: Vec<Line>,
    by_name: HashMap<String, Item>,
}

impl Cart {
    pub fn total(&self) -> u32 {
        let mut sum = 0;
        for line in &self.lines {
            sum += line.item.price() * line.qty;
        }
        if let Some(item) = self.by_name.get("x") {
            sum += item.doubled();
        }
        let first = self.lines.first().map(|l| l.item.clone());
        let first = first.unwrap();
        sum += first.price();
        sum + super::price::cheapest(&[first]).unwrap_or(0)
    }

    pub fn add(&mut self, item: Item) {
        self.lines.push(Line::of(item));
        unknown_helper();
        let callback = |x: u32| x + 1;
        callback(1);
    }
}

//- /src/cart/line.rs
use crate::item::Item;

pub struct Line {
    pub item: Item,
    pub qty: u32,
}

impl Line {
    pub fn of(item: Item) -> Line {
        Line { item, qty: 1 }
    }
}

//- /tests/api.rs
use shop_core::cart::Line;
use shop_core::{Item, PricedItem};

#[test]
fn line_of_item() {
    let line = Line::of(Item::new("a", 2));
    assert_eq!(line.item.price(), 2);
    assert!(shop_core::fast_total(&[line.item]) > 0);
}
"#;

#[test]
fn facts() {
    expect![[r##"
        //- Cargo.toml
        (no provider)
        //- src/lib.rs
        sym macro cfg_fast L9-11 sig="macro_rules! cfg_fast { ($($i:item)*) => { $($i)* } }"
        sym function fast_total L15-17 exported sig="pub fn fast_total(items: &[Item]) -> u32" doc="Built only with the fast feature."
        import L6 ReExport "item" Item as Item
        import L6 ReExport "item" Kind as Kind
        import L7 ReExport "price" Priced as PricedItem
        call L16:41 items.iter().map().sum in fast_total
        call L16:22 items.iter().map in fast_total
        call L16:15 items.iter in fast_total
        call L16:32 i.price in fast_total
        hint L15 fast_total  -> u32
        hint L15 fast_total items : [Item]
        hint L16 fast_total i = items.iter().[]()
        //- src/item.rs
        sym struct Item L5-10 exported sig="#[derive(Debug, Clone)] pub struct Item" doc="An item for sale."
        sym property Item.name L7-7 exported in=Item sig="pub name: String"
        sym property Item.cents L8-8 exported in=Item sig="pub cents: u32"
        sym property Item.kind L9-9 in=Item sig="kind: Kind"
        sym enum Kind L12-15 exported sig="pub enum Kind"
        sym constant Kind.Plain L13-13 exported in=Kind sig="Plain"
        sym constant Kind.Boxed L14-14 exported in=Kind sig="Boxed(Wrapper)"
        sym struct Wrapper L17-17 exported sig="pub struct Wrapper"
        sym method Item.new L20-23 exported sig="pub fn new(name: &str, cents: u32) -> Self"
        sym method Item.parse L25-28 exported sig="pub fn parse(text: &str) -> Option<Item>"
        sym method Item.boxed L30-32 exported sig="pub fn boxed(self) -> Wrapper"
        sym method Item.inner L34-39 exported sig="pub fn inner(&self) -> Option<&Item>"
        sym method Item.price L43-45 exported sig="fn price(&self) -> u32"
        sym method Item.fmt L49-51 exported sig="fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result"
        sym module tests L54-68 sig="#[cfg(test)] mod tests"
        sym function parses L58-63 in=tests sig="#[test] fn parses()"
        sym function helper L65-67 in=tests sig="fn helper(item: &Item) -> u32"
        import L1 EsImport "crate::price" Priced as Priced
        import L2 EsImport "std" fmt as fmt
        import L56 EsImport "self" all
        call L22:27 name.to_string in Item.new
        call L26:26 text.len in Item.parse
        call L27:9 Some in Item.parse
        call L27:20 ::.Item.new in Item.parse
        call L31:9 Wrapper in Item.boxed
        call L36:31 Some in Item.inner
        call L50:44 this.price in Item.fmt
        call L60:39 ::.Item.parse().unwrap in parses
        call L60:26 ::.Item.parse in parses
        call L61:25 item.price in parses
        call L62:20 helper in parses
        call L66:14 item.doubled in helper
        ref call L27:24 text in Item.parse
        ref call L27:30 cents in Item.parse
        read L35 this.kind in Item.inner
        read L44 this.cents in Item.price
        hint L7 Item name : String
        hint L8 Item cents : u32
        hint L9 Item kind : Kind
        hint L14 Kind.Boxed 0 : Wrapper
        hint L17 Wrapper 0 : Item
        hint L20 Item.new  -> Item
        hint L20 Item.new name : str
        hint L20 Item.new cents : u32
        hint L21 Item.new kind = ::.Kind.Plain
        hint L25 Item.parse  -> Option<Item>
        hint L25 Item.parse text : str
        hint L26 Item.parse cents : u32
        hint L30 Item.boxed  -> Wrapper
        hint L30 Item.boxed self : Item
        hint L34 Item.inner  -> Option<Item>
        hint L34 Item.inner self : Item
        hint L36 Item.inner w = ::.Kind.Boxed.().0
        hint L43 Item.price  -> u32
        hint L43 Item.price self : Item
        hint L49 Item.fmt  -> fmt::Result
        hint L49 Item.fmt self : Item
        hint L49 Item.fmt f : fmt::Formatter
        hint L60 parses item = ::.Item.parse().unwrap()
        hint L65 helper  -> u32
        hint L65 helper item : Item
        //- src/price.rs
        sym interface Priced L2-8 exported sig="pub trait Priced" doc="Something with a price."
        sym method Priced.price L3-3 exported in=Priced sig="fn price(&self) -> u32;"
        sym method Priced.doubled L5-7 exported in=Priced sig="fn doubled(&self) -> u32"
        sym function cheapest L10-12 exported sig="pub fn cheapest<T: Priced>(items: &[T]) -> Option<u32>"
        call L6:14 this.price in Priced.doubled
        call L11:37 items.iter().map().min in cheapest
        call L11:18 items.iter().map in cheapest
        call L11:11 items.iter in cheapest
        call L11:28 i.price in cheapest
        hint L3 Priced.price  -> u32
        hint L3 Priced.price self : Priced
        hint L5 Priced.doubled  -> u32
        hint L5 Priced.doubled self : Priced
        hint L10 cheapest  -> Option<u32>
        hint L10 cheapest items : [T]
        hint L11 cheapest i = items.iter().[]()
        //- src/cart/mod.rs
        sym struct Cart L8-11 exported sig="pub struct Cart"
        sym property Cart.lines L9-9 in=Cart sig="lines: Vec<Line>"
        sym property Cart.by_name L10-10 in=Cart sig="by_name: HashMap<String, Item>"
        sym method Cart.total L14-26 exported sig="pub fn total(&self) -> u32"
        sym method Cart.add L28-33 exported sig="pub fn add(&mut self, item: Item)"
        import L3 ReExport "line" Line as Line
        import L5 EsImport "crate" Item as Item
        import L5 EsImport "crate" PricedItem as PricedItem
        import L6 EsImport "std::collections" HashMap as HashMap
        call L17:30 line.item.price in Cart.total
        call L19:42 self.by_name.get in Cart.total
        call L20:25 item.doubled in Cart.total
        call L22:40 self.lines.first().map in Cart.total
        call L22:32 self.lines.first in Cart.total
        call L22:55 l.item.clone in Cart.total
        call L23:27 first.unwrap in Cart.total
        call L24:22 first.price in Cart.total
        call L25:48 ::.super.price.cheapest().unwrap_or in Cart.total
        call L25:29 ::.super.price.cheapest in Cart.total
        call L29:20 self.lines.push in Cart.add
        call L29:31 ::.Line.of in Cart.add
        call L30:9 unknown_helper in Cart.add
        call L32:9 callback in Cart.add
        ref call L29:34 item in Cart.add
        read L16 this.lines in Cart.total
        read L17 line.item in Cart.total
        read L17 line.qty in Cart.total
        read L19 this.by_name in Cart.total
        read L22 this.lines in Cart.total
        read L22 l.item in Cart.total
        read L29 this.lines in Cart.add
        hint L9 Cart lines : Vec<Line>
        hint L10 Cart by_name : HashMap<String,Item>
        hint L14 Cart.total  -> u32
        hint L14 Cart.total self : Cart
        hint L15 Cart.total sum = ?
        hint L16 Cart.total line = self.lines.[]
        hint L19 Cart.total item = self.by_name.get().?()
        hint L22 Cart.total first = self.lines.first().map()
        hint L22 Cart.total l = self.lines.first().[]()
        hint L23 Cart.total first = first.unwrap()
        hint L28 Cart.add self : Cart
        hint L28 Cart.add item : Item
        hint L31 Cart.add callback = ?
        hint L31 Cart.add x : u32
        //- src/cart/line.rs
        sym struct Line L3-6 exported sig="pub struct Line"
        sym property Line.item L4-4 exported in=Line sig="pub item: Item"
        sym property Line.qty L5-5 exported in=Line sig="pub qty: u32"
        sym method Line.of L9-11 exported sig="pub fn of(item: Item) -> Line"
        import L1 EsImport "crate::item" Item as Item
        hint L4 Line item : Item
        hint L5 Line qty : u32
        hint L9 Line.of  -> Line
        hint L9 Line.of item : Item
        //- tests/api.rs
        sym function line_of_item L4-9 sig="#[test] fn line_of_item()"
        import L1 EsImport "shop_core::cart" Line as Line
        import L2 EsImport "shop_core" Item as Item
        import L2 EsImport "shop_core" PricedItem as PricedItem
        call L6:22 ::.Line.of in line_of_item
        call L6:31 ::.Item.new in line_of_item
        call L7:26 line.item.price in line_of_item
        call L8:24 ::.shop_core.fast_total in line_of_item
        hint L6 line_of_item line = ::.Line.of()
    "##]]
    .assert_eq(&render_fixture_facts(SHOP));
}

#[test]
fn resolution() {
    expect![[r#"
        edge IMPORTS file:src/cart/line.rs -> file:src/item.rs L1 import-resolved 0.95
        edge IMPORTS file:src/cart/mod.rs -> file:src/cart/line.rs L3 import-resolved 0.95
        edge IMPORTS file:src/cart/mod.rs -> file:src/item.rs L5 import-resolved 0.95
        edge IMPORTS file:src/cart/mod.rs -> file:src/price.rs L5 import-resolved 0.95
        edge IMPORTS file:src/item.rs -> file:src/price.rs L1 import-resolved 0.95
        edge IMPORTS file:src/lib.rs -> file:src/item.rs L6 import-resolved 0.95
        edge IMPORTS file:src/lib.rs -> file:src/price.rs L7 import-resolved 0.95
        edge IMPORTS file:tests/api.rs -> file:src/cart/line.rs L1 import-resolved 0.95
        edge TESTS file:tests/api.rs -> file:src/cart/line.rs import-resolved 0.95
        edge IMPORTS file:tests/api.rs -> file:src/item.rs L2 import-resolved 0.95
        edge TESTS file:tests/api.rs -> file:src/item.rs import-resolved 0.95
        edge TESTS file:tests/api.rs -> file:src/lib.rs import-resolved 0.95
        edge IMPORTS file:tests/api.rs -> file:src/price.rs L2 import-resolved 0.95
        edge CALLS sym:rs:src/cart/mod.rs:Cart.add -> sym:rs:src/cart/line.rs:Line.of L29 import-resolved 0.95
        edge ACCESSES sym:rs:src/cart/mod.rs:Cart.add -> sym:rs:src/cart/mod.rs:Cart.lines L29 same-file 0.95
        edge ACCESSES sym:rs:src/cart/mod.rs:Cart.total -> sym:rs:src/cart/line.rs:Line.item L17 typed-receiver 0.85
        edge ACCESSES sym:rs:src/cart/mod.rs:Cart.total -> sym:rs:src/cart/line.rs:Line.item L22 typed-receiver 0.85
        edge ACCESSES sym:rs:src/cart/mod.rs:Cart.total -> sym:rs:src/cart/line.rs:Line.qty L17 typed-receiver 0.85
        edge ACCESSES sym:rs:src/cart/mod.rs:Cart.total -> sym:rs:src/cart/mod.rs:Cart.by_name L19 same-file 0.95
        edge ACCESSES sym:rs:src/cart/mod.rs:Cart.total -> sym:rs:src/cart/mod.rs:Cart.lines L16 same-file 0.95
        edge ACCESSES sym:rs:src/cart/mod.rs:Cart.total -> sym:rs:src/cart/mod.rs:Cart.lines L22 same-file 0.95
        edge CALLS sym:rs:src/cart/mod.rs:Cart.total -> sym:rs:src/item.rs:Item.price L17 typed-receiver 0.85
        edge CALLS sym:rs:src/cart/mod.rs:Cart.total -> sym:rs:src/price.rs:Priced.doubled L20 typed-receiver 0.85
        edge CALLS sym:rs:src/cart/mod.rs:Cart.total -> sym:rs:src/price.rs:cheapest L25 import-resolved 0.95
        edge IMPLEMENTS sym:rs:src/item.rs:Item -> sym:rs:src/price.rs:Priced L42 import-resolved 0.95
        edge CALLS sym:rs:src/item.rs:Item.boxed -> sym:rs:src/item.rs:Wrapper L31 same-file 0.95
        edge CALLS sym:rs:src/item.rs:Item.fmt -> sym:rs:src/item.rs:Item.price L50 this-dispatch 0.90
        edge ACCESSES sym:rs:src/item.rs:Item.inner -> sym:rs:src/item.rs:Item.kind L35 same-file 0.95
        edge CALLS sym:rs:src/item.rs:Item.parse -> sym:rs:src/item.rs:Item.new L27 same-file 0.95
        edge ACCESSES sym:rs:src/item.rs:Item.price -> sym:rs:src/item.rs:Item.cents L44 same-file 0.95
        edge CALLS sym:rs:src/item.rs:helper -> sym:rs:src/price.rs:Priced.doubled L66 typed-receiver 0.85
        edge CALLS sym:rs:src/item.rs:parses -> sym:rs:src/item.rs:Item.parse L60 same-file 0.95
        edge TESTS sym:rs:src/item.rs:parses -> sym:rs:src/item.rs:Item.parse L60 same-file 0.95
        edge CALLS sym:rs:src/item.rs:parses -> sym:rs:src/item.rs:Item.price L61 typed-receiver 0.85
        edge TESTS sym:rs:src/item.rs:parses -> sym:rs:src/item.rs:Item.price L61 typed-receiver 0.85
        edge CALLS sym:rs:src/item.rs:parses -> sym:rs:src/item.rs:helper L62 same-file 0.95
        edge TESTS sym:rs:src/item.rs:parses -> sym:rs:src/item.rs:helper L62 same-file 0.95
        edge CALLS sym:rs:src/lib.rs:fast_total -> sym:rs:src/item.rs:Item.price L16 typed-receiver 0.85
        edge CALLS sym:rs:src/price.rs:Priced.doubled -> sym:rs:src/price.rs:Priced.price L6 this-dispatch 0.90
        edge CALLS sym:rs:src/price.rs:cheapest -> sym:rs:src/price.rs:Priced.price L11 typed-receiver 0.85
        edge CALLS sym:rs:tests/api.rs:line_of_item -> sym:rs:src/cart/line.rs:Line.of L6 import-resolved 0.95
        edge TESTS sym:rs:tests/api.rs:line_of_item -> sym:rs:src/cart/line.rs:Line.of L6 import-resolved 0.95
        edge CALLS sym:rs:tests/api.rs:line_of_item -> sym:rs:src/item.rs:Item.new L6 import-resolved 0.95
        edge TESTS sym:rs:tests/api.rs:line_of_item -> sym:rs:src/item.rs:Item.new L6 import-resolved 0.95
        edge CALLS sym:rs:tests/api.rs:line_of_item -> sym:rs:src/item.rs:Item.price L7 typed-receiver 0.85
        edge TESTS sym:rs:tests/api.rs:line_of_item -> sym:rs:src/item.rs:Item.price L7 typed-receiver 0.85
        edge CALLS sym:rs:tests/api.rs:line_of_item -> sym:rs:src/lib.rs:fast_total L8 import-resolved 0.95
        edge TESTS sym:rs:tests/api.rs:line_of_item -> sym:rs:src/lib.rs:fast_total L8 import-resolved 0.95
        unresolved src/cart/mod.rs:24 first.price in sym:rs:src/cart/mod.rs:Cart.total
        unresolved src/cart/mod.rs:30 unknown_helper in sym:rs:src/cart/mod.rs:Cart.add
        unresolved src/cart/mod.rs:32 callback in sym:rs:src/cart/mod.rs:Cart.add
    "#]]
    .assert_eq(&render_fixture_resolution(SHOP));
}

#[test]
fn every_call_site_is_accounted_for() {
    expect![[r#"
        src/cart/line.rs: 0 calls = 0 CALLS + 0 unresolved + 0 external
        src/cart/mod.rs: 14 calls = 4 CALLS + 3 unresolved + 7 external
        src/item.rs: 12 calls = 7 CALLS + 0 unresolved + 5 external
        src/lib.rs: 4 calls = 1 CALLS + 0 unresolved + 3 external
        src/price.rs: 5 calls = 2 CALLS + 0 unresolved + 3 external
        tests/api.rs: 4 calls = 4 CALLS + 0 unresolved + 0 external
    "#]]
    .assert_eq(&render_call_accounting(SHOP));
}

/// A named `use` behind a `#[cfg(..)]` may be compiled out: a glob's name wins over it (the
/// glob is always there), and an ungated named `use` wins over both.
#[test]
fn cfg_gated_uses_rank_after_globs() {
    const GATED: &str = r#"
//- /Cargo.toml
[package]
name = "gated"
version = "0.1.0"

//- /src/lib.rs
mod node;
mod util;

#[cfg(feature = "node")]
use node::req;
use util::*;
use node::probe;

pub fn run() {
    req();
    probe();
}

//- /src/util.rs
pub fn req() {}
pub fn probe() {}

//- /src/node.rs
pub fn req() {}
pub fn probe() {}
"#;
    let calls: String = render_fixture_resolution(GATED)
        .lines()
        .filter(|l| l.contains("CALLS"))
        .map(|l| format!("{l}\n"))
        .collect();
    expect![[r#"
        edge CALLS sym:rs:src/lib.rs:run -> sym:rs:src/node.rs:probe L11 import-resolved 0.95
        edge CALLS sym:rs:src/lib.rs:run -> sym:rs:src/util.rs:req L10 import-resolved 0.95
    "#]]
    .assert_eq(&calls);
}

/// An extension trait implemented for every type of a bound (`impl<T: Iterator> IterExt for
/// T`) reaches std's iterators and values of unknown types (a range, a std function's
/// result): the blanket impl's own method when it has one, else the trait's default. Not when
/// std has a method of that name (std's wins), not for a trait its file also implements for
/// named types (`Lookup`), and not without the trait in scope.
#[test]
fn extension_traits_reach_std_iterators_and_unknown_values() {
    const EXT: &str = r#"
//- /Cargo.toml
[package]
name = "ext"
version = "0.1.0"

//- /src/lib.rs
pub mod ext;
pub mod lookup;
pub mod user;
pub mod plain;

//- /src/ext.rs
pub trait IterExt: Iterator {
    fn pairs(self) -> Vec<(u8, u8)> where Self: Sized { Vec::new() }
    fn tally(self) -> usize;
    fn count(self) -> usize where Self: Sized { 0 }
}

impl<T: Iterator> IterExt for T {
    fn tally(self) -> usize { 0 }
}

//- /src/lookup.rs
pub trait Lookup {
    fn find_in(&self) -> u8;
}

impl Lookup for str {
    fn find_in(&self) -> u8 { 0 }
}

impl<T: Lookup + ?Sized> Lookup for &T {
    fn find_in(&self) -> u8 { 1 }
}

//- /src/user.rs
use crate::ext::IterExt;
use crate::lookup::Lookup;

pub fn run(v: Vec<u8>, s: String) {
    v.iter().pairs();
    (0..3).tally();
    std::iter::repeat(1).take(2).pairs();
    v.iter().count();
    s[..].find_in();
}

//- /src/plain.rs
pub fn run(v: Vec<u8>) {
    v.iter().pairs();
}
"#;
    let calls: String = render_fixture_resolution(EXT)
        .lines()
        .filter(|l| l.contains("CALLS") || l.starts_with("unresolved"))
        .map(|l| format!("{l}\n"))
        .collect();
    expect![[r#"
        edge CALLS sym:rs:src/user.rs:run -> sym:rs:src/ext.rs:IterExt.pairs L7 import-resolved 0.95
        edge CALLS sym:rs:src/user.rs:run -> sym:rs:src/ext.rs:IterExt.pairs L5 typed-receiver 0.85
        edge CALLS sym:rs:src/user.rs:run -> sym:rs:src/ext.rs:T.tally L6 import-resolved 0.95
        unresolved src/user.rs:7 std::iter::repeat().take in sym:rs:src/user.rs:run
        unresolved src/user.rs:9 s.[].find_in in sym:rs:src/user.rs:run
    "#]]
    .assert_eq(&calls);
}

/// criterion's macros generate the functions that call the benches: a group (`pub fn
/// benches`, in both of its forms) calling each target, and `main` calling the groups.
#[test]
fn criterion_groups_call_their_benches() {
    const BENCH: &str = r#"
//- /Cargo.toml
[package]
name = "b"
version = "0.1.0"

//- /benches/speed.rs
use criterion::{criterion_group, criterion_main, Criterion};

mod shapes {
    pub fn square(c: &mut criterion::Criterion) {}
}

fn fast(c: &mut Criterion) {}
fn slow(c: &mut Criterion) {}

criterion_group!(benches, fast, shapes::square,);
criterion_group! {
    name = tuned;
    config = Criterion::default().sample_size(10);
    targets = slow
}
criterion_main!(benches, tuned);
"#;
    let lines: String = render_fixture_facts(BENCH)
        .lines()
        .chain(render_fixture_resolution(BENCH).lines())
        .chain(render_call_accounting(BENCH).lines())
        .filter(|l| !l.starts_with("edge IMPORTS"))
        .map(|l| format!("{l}\n"))
        .collect();
    expect![[r#"
        //- Cargo.toml
        (no provider)
        //- benches/speed.rs
        sym module shapes L3-5 sig="mod shapes"
        sym function square L4-4 exported in=shapes sig="pub fn square(c: &mut criterion::Criterion)"
        sym function fast L7-7 sig="fn fast(c: &mut Criterion)"
        sym function slow L8-8 sig="fn slow(c: &mut Criterion)"
        sym function benches L10-10 exported sig="criterion_group!(benches, fast, shapes::square,)"
        sym function tuned L11-15 exported sig="criterion_group! { name = tuned; config = Criterion::default().sample_size(10); targets = slow }"
        sym function main L16-16 sig="criterion_main!(benches, tuned)"
        import L1 EsImport "criterion" criterion_group as criterion_group
        import L1 EsImport "criterion" criterion_main as criterion_main
        import L1 EsImport "criterion" Criterion as Criterion
        call L10:27 fast in benches
        call L10:41 ::.shapes.square in benches
        call L14:15 slow in tuned
        call L13:25 ::.Criterion.default in tuned
        call L13:35 ::.Criterion.default().sample_size in tuned
        call L16:17 benches in main
        call L16:26 tuned in main
        hint L4 square c : criterion::Criterion
        hint L7 fast c : Criterion
        hint L8 slow c : Criterion
        edge CALLS sym:rs:benches/speed.rs:benches -> sym:rs:benches/speed.rs:fast L10 same-file 0.95
        edge CALLS sym:rs:benches/speed.rs:benches -> sym:rs:benches/speed.rs:square L10 same-file 0.95
        edge CALLS sym:rs:benches/speed.rs:main -> sym:rs:benches/speed.rs:benches L16 same-file 0.95
        edge CALLS sym:rs:benches/speed.rs:main -> sym:rs:benches/speed.rs:tuned L16 same-file 0.95
        edge CALLS sym:rs:benches/speed.rs:tuned -> sym:rs:benches/speed.rs:slow L14 same-file 0.95
        benches/speed.rs: 7 calls = 5 CALLS + 0 unresolved + 2 external
    "#]].assert_eq(&lines);
}

/// `Type::from(x)` among several `From<A>` impls of the type: the one taking the argument's
/// type (a string literal, a byte string, sliced or not, a value of a workspace type); the
/// path's first when the argument's type is not known.
#[test]
fn from_calls_pick_the_impl_taking_the_argument() {
    const FROM: &str = r#"
//- /Cargo.toml
[package]
name = "f"
version = "0.1.0"

//- /src/lib.rs
pub struct Buf;
pub struct Raw;

impl From<Raw> for Buf {
    fn from(r: Raw) -> Buf { Buf }
}

impl<'a> From<&'a [u8]> for Buf {
    fn from(b: &'a [u8]) -> Buf { Buf }
}

impl<'a> From<&'a str> for Buf {
    fn from(s: &'a str) -> Buf { Buf }
}

pub fn make(raw: Raw, unknown: u32) {
    Buf::from("text");
    Buf::from(&b"bytes"[..]);
    Buf::from(b"bytes");
    Buf::from(raw);
    Buf::from(unknown.into());
}
"#;
    let calls: String = render_fixture_resolution(FROM)
        .lines()
        .filter(|l| l.contains("CALLS"))
        .map(|l| format!("{l}\n"))
        .collect();
    expect![[r#"
        edge CALLS sym:rs:src/lib.rs:make -> sym:rs:src/lib.rs:Buf.from L20 same-file 0.95
        edge CALLS sym:rs:src/lib.rs:make -> sym:rs:src/lib.rs:Buf.from L21 same-file 0.95
        edge CALLS sym:rs:src/lib.rs:make -> sym:rs:src/lib.rs:Buf.from#2 L18 same-file 0.95
        edge CALLS sym:rs:src/lib.rs:make -> sym:rs:src/lib.rs:Buf.from#2 L19 same-file 0.95
        edge CALLS sym:rs:src/lib.rs:make -> sym:rs:src/lib.rs:Buf.from#3 L17 same-file 0.95
    "#]]
    .assert_eq(&calls);
}
