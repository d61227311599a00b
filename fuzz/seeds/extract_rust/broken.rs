// Unbalanced and odd syntax: a provider must not panic.
fn open( { x.y(
impl<T> for { fn }
struct S { a: , b }
macro_rules! m { ($($t:tt)*) => { f($($t)*) }
fn g() -> { let x = m!(a.b(c(d(e)))); x?.?; r#"raw " string"#.len(); 'a: loop { break 'a; } }
trait T { fn f(&self) -> impl Iterator<Item = &'_ u8> + '_; }
fn h<const N: usize>() where [u8; N]: Sized { let _ = [0u8; N].map(|x| x as u16); }
union U { }
enum E { A = 1, B = 1 << 2, }
fn raw() { let r#type = 1; r#type.max(2); unsafe { *ptr::null::<u8>() }; }
fn tokens() { format_args!("{a} {b:?}", a = x.y(), b = z::w()); println!(); matches!(x, Some(_)); }
pub(in crate::a) fn vis() {}
