// Calls in every place a provider looks: bodies, closures, macros, patterns, chains.
use std::sync::{Arc, Mutex};

struct Engine { parts: Vec<Part>, cache: Arc<Mutex<Vec<u8>>>, cb: Box<dyn Fn(u8) -> u8> }
struct Part { name: String }

impl Engine {
    fn run(&mut self, input: &[u8]) -> Result<usize, String> {
        let n = self.count()?;
        let total: usize = self.parts.iter().map(|p| p.name.len()).sum();
        for part in &self.parts { part.name.trim().to_string(); }
        for (i, p) in self.parts.iter().enumerate() { println!("{i}: {}", p.name.to_uppercase()); }
        if let Some(first) = self.parts.first() { first.name.len(); }
        while let Ok(mut guard) = self.cache.lock() { guard.push(1); break; }
        let parsed = match input.first() { Some(b) => Self::convert(*b), None => 0 };
        assert_eq!(helper(n), 1, "{}", self.describe());
        debug_assert!(self.parts.is_empty() || check(&self.parts[0]));
        let v = vec![Part::new("a"), Part::new(&format!("{}", parsed.pow(2)))];
        (self.cb)(3);
        make()();
        let values: Vec<u8> = input.iter().copied().filter(|b| *b > 0).collect();
        <Engine as Default>::default();
        <Vec<u8>>::with_capacity(4);
        Vec::<u8>::new().len();
        let r = &mut *self;
        r.parts.clear();
        values.into_iter().map(Self::convert).for_each(drop);
        Ok(total + v.len())
    }

    fn count(&self) -> Result<usize, String> { Ok(self.parts.len()) }
    fn convert(b: u8) -> u8 { b.wrapping_add(1) }
    fn describe(&self) -> String { String::from("engine") }
}

impl Default for Engine {
    fn default() -> Self { Engine { parts: Vec::new(), cache: Arc::default(), cb: Box::new(|x| x) } }
}

impl Part { fn new(name: &str) -> Part { Part { name: name.into() } } }

fn helper(n: usize) -> usize { n }
fn check(p: &Part) -> bool { !p.name.is_empty() }
fn make() -> impl Fn() { || {} }

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn runs() {
        let mut e = Engine::default();
        assert!(e.run(b"xy").is_ok());
        let c = |x: u8| Engine::convert(x);
        c(1);
    }
}
