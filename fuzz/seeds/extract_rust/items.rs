//! Items a provider names: modules, use trees, structs, enums, traits, impls, aliases.
#![allow(dead_code)]

extern crate alloc as heap;

pub mod model;
#[path = "other/place.rs"]
mod placed;

use std::collections::{HashMap, hash_map::{self, Entry}, BTreeSet as Set};
use std::fmt::{self, Display};
use crate::model::*;
pub use self::shapes::{Circle, Square as Box2};
use super::super::up;
use ::std::io;

/// A shape.
pub trait Shape: Display + Clone {
    type Unit;
    const SIDES: u32 = 0;
    fn area(&self) -> f64;
    fn describe(&self) -> String { format!("{} with area {}", self, self.area()) }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Point<T = f64> { pub x: T, pub(crate) y: T }

pub struct Pair(pub u8, u16);

pub union Bits { i: u32, f: f32 }

pub enum Kind<'a> { Unit, Tuple(&'a str, u8), Named { id: u64, tags: Vec<String> } }

pub const MAX: usize = 10;
pub static mut COUNTER: u32 = 0;
pub type Map<K> = HashMap<K, Vec<Point>>;

impl<T: Copy + Default> Point<T> {
    pub fn new(x: T, y: T) -> Self { Self { x, y } }
    pub fn origin() -> Self { Self::new(T::default(), T::default()) }
    fn swap(&mut self) { std::mem::swap(&mut self.x, &mut self.y); }
}

impl fmt::Display for Pair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { write!(f, "({}, {})", self.0, self.1) }
}

impl<'a> Kind<'a> {
    pub fn id(&self) -> Option<u64> {
        match self {
            Kind::Named { id, .. } => Some(*id),
            Kind::Tuple(_, n) => Some(u64::from(*n)),
            Kind::Unit => None,
        }
    }
}

impl<T> Drop for Point<T> { fn drop(&mut self) {} }
impl dyn Shape<Unit = u8> { fn dynamic(&self) {} }
impl<T> [T] where T: Clone { }

mod shapes {
    use super::*;
    pub struct Circle(pub f64);
    pub struct Square(pub f64);
    impl Shape for Circle {
        type Unit = f64;
        fn area(&self) -> f64 { 3.14 * self.0 * self.0 }
    }
    mod inner { fn deep() { super::super::helper(); } }
}

macro_rules! square {
    ($x:expr) => { $x * $x };
    ($($x:expr),*) => { vec![$(square!($x)),*] };
}

fn helper() -> Map<u8> { Map::new() }

pub async fn fetch(url: &str) -> Result<String, io::Error> {
    let body = reqwest::get(url).await?.text().await?;
    Ok(body)
}

extern "C" { fn abs(x: i32) -> i32; }

cfg_rt! {
    pub fn spawn<F: Future>(f: F) -> JoinHandle<F::Output> { runtime::spawn(f).detach() }
    mod rt_inner;
    impl Runtime { pub fn block_on(&self) { self.inner.park(); } }
}

cfg_if::cfg_if! {
    if #[cfg(unix)] { fn sys() { unix::call(); } } else { fn sys() { windows::call(); } }
}

thread_local! { static LOCAL: RefCell<u8> = RefCell::new(0); }
