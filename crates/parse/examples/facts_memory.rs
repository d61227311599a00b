//! How much memory extracted facts hold, by field, for a directory tree: the in-memory size of
//! [`FileFacts`] decides a cold index's peak RSS (every file's facts stay alive until
//! resolution ends), and it is many times the encoded size. Sums, per kind of fact, the heap
//! blocks its strings and lists hold (sizes as glibc's malloc rounds them) and the unused
//! capacity of the lists; `--inline N` counts strings of at most N bytes as held inline, to
//! see what a small-string type would save:
//! `cargo run --release -p codegraph-parse --example facts_memory -- DIR [--inline 24]`.

mod common;

use codegraph_parse::facts::*;
use codegraph_parse::{Language, analyze};
use std::path::PathBuf;

/// What a value holds on the heap, in bytes as glibc's malloc hands them out (a block is its
/// size plus an 8-byte header, rounded up to 16, at least 32) and in blocks.
#[derive(Default, Clone, Copy)]
struct Heap {
    bytes: u64,
    blocks: u64,
}

impl Heap {
    fn block(size: usize) -> Heap {
        if size == 0 {
            return Heap::default();
        }
        Heap { bytes: ((size + 8).div_ceil(16) * 16).max(32) as u64, blocks: 1 }
    }
    fn add(&mut self, o: Heap) {
        self.bytes += o.bytes;
        self.blocks += o.blocks;
    }
}

trait HeapSize {
    fn heap(&self) -> Heap;
}

impl HeapSize for String {
    fn heap(&self) -> Heap {
        // With `--inline N`, strings of at most N bytes are counted as held inline (a small
        // string type), to see what such a type would save.
        if self.len() <= INLINE.load(std::sync::atomic::Ordering::Relaxed) {
            return Heap::default();
        }
        Heap::block(self.capacity())
    }
}

impl HeapSize for Name {
    fn heap(&self) -> Heap {
        if self.is_heap_allocated() { Heap::block(self.capacity()) } else { Heap::default() }
    }
}

static INLINE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl<T: HeapSize> HeapSize for Vec<T> {
    fn heap(&self) -> Heap {
        let mut h = Heap::block(self.capacity() * std::mem::size_of::<T>());
        for x in self {
            h.add(x.heap());
        }
        h
    }
}

impl<T: HeapSize> HeapSize for Option<T> {
    fn heap(&self) -> Heap {
        self.as_ref().map_or(Heap::default(), HeapSize::heap)
    }
}

impl HeapSize for Receiver {
    fn heap(&self) -> Heap {
        match self {
            Receiver::Path(p) => p.heap(),
            Receiver::CallResult(c) => {
                let mut h = Heap::block(std::mem::size_of::<Callee>());
                h.add(c.heap());
                h
            }
            _ => Heap::default(),
        }
    }
}

impl HeapSize for Callee {
    fn heap(&self) -> Heap {
        let mut h = self.receiver.heap();
        h.add(self.name.heap());
        h
    }
}

impl HeapSize for CallSite {
    fn heap(&self) -> Heap {
        self.callee.heap()
    }
}

impl HeapSize for FieldAccess {
    fn heap(&self) -> Heap {
        let mut h = self.receiver.heap();
        h.add(self.name.heap());
        h
    }
}

impl HeapSize for TypeHint {
    fn heap(&self) -> Heap {
        let mut h = self.name.heap();
        h.add(match &self.source {
            HintSource::Annotation(s) | HintSource::Construct(s) | HintSource::Return(s) => {
                s.heap()
            }
            HintSource::CallResult(c) | HintSource::Callback { callee: c, .. } => c.heap(),
            HintSource::ParamFn { ty, .. } => ty.heap(),
            HintSource::Value(r) => r.heap(),
        });
        h
    }
}

impl HeapSize for Symbol {
    fn heap(&self) -> Heap {
        let mut h = self.name.heap();
        h.add(self.qualified_name.heap());
        h.add(self.signature.heap());
        h.add(self.doc.heap());
        h
    }
}

/// Totals of one field over every file: inline bytes (the vector's elements), heap bytes
/// and blocks.
#[derive(Default)]
struct Total {
    count: u64,
    /// Bytes of unused vector capacity.
    slack: u64,
    /// Bytes of one element.
    size: usize,
    heap: Heap,
}

fn measure<T: HeapSize>(total: &mut Total, v: &Vec<T>) {
    total.count += v.len() as u64;
    total.slack += ((v.capacity() - v.len()) * std::mem::size_of::<T>()) as u64;
    total.size = std::mem::size_of::<T>();
    total.heap.add(v.heap());
}

fn main() {
    let Some(dir) = std::env::args().nth(1).map(PathBuf::from) else {
        eprintln!("usage: facts_memory DIR");
        std::process::exit(2);
    };
    let args: Vec<String> = std::env::args().collect();
    if let Some(n) = args
        .iter()
        .position(|a| a == "--inline")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
    {
        INLINE.store(n, std::sync::atomic::Ordering::Relaxed);
    }
    let files = common::files_under(&dir);
    let mut encoded = 0usize;
    let mut n = 0;
    let names = ["calls", "value_refs", "type_refs", "accesses", "type_hints", "symbols"];
    let mut totals: Vec<Total> = names.iter().map(|_| Total::default()).collect();
    let mut shell = Heap::default();
    for path in &files {
        let rel = path.strip_prefix(&dir).unwrap_or(path).to_string_lossy().into_owned();
        let Some(lang) = Language::from_path(&rel) else { continue };
        let Ok(bytes) = std::fs::read(path) else { continue };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let f = analyze(lang, &text);
        n += 1;
        encoded += codegraph_parse::encode_facts(&f).len();
        shell.add(Heap::block(std::mem::size_of::<FileFacts>()));
        measure(&mut totals[0], &f.calls);
        measure(&mut totals[1], &f.value_refs);
        measure(&mut totals[2], &f.type_refs);
        measure(&mut totals[3], &f.accesses);
        measure(&mut totals[4], &f.type_hints);
        measure(&mut totals[5], &f.symbols);
    }
    let mb = |b: u64| b as f64 / 1e6;
    println!(
        "files {n}  encoded {:.1} MB  FileFacts shells {:.1} MB",
        mb(encoded as u64),
        mb(shell.bytes)
    );
    let mut sum = 0;
    for (name, t) in names.iter().zip(&totals) {
        sum += t.heap.bytes;
        println!(
            "{name:>11}: {:8} items of {:3} B  {:7.1} MB in {:8} blocks ({:.0} B an item; {:.1} MB unused capacity)",
            t.count,
            t.size,
            mb(t.heap.bytes),
            t.heap.blocks,
            t.heap.bytes as f64 / t.count.max(1) as f64,
            mb(t.slack)
        );
    }
    println!("{:>11}: {:7.1} MB", "these", mb(sum));
}
