//! What read-your-writes costs an answer (issue 46): `TreeEvents::sync`, which every MCP
//! answer and every owner's reply to a CLI query calls before it says `stale`, on a root
//! where nothing happened (the common case: one non-blocking read of the inotify queue), and
//! after one write (the read returns the write's event, which is counted).

use codegraph_engine::tree_events::TreeEvents;
use criterion::{Criterion, criterion_group, criterion_main};

fn freshness(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    for d in 0..50 {
        let sub = root.join(format!("d{d}"));
        std::fs::create_dir_all(&sub).expect("mkdir");
        std::fs::write(sub.join("a.go"), "package a\n").expect("write");
    }
    let events = TreeEvents::start(&root, Vec::new(), |_| {}).expect("watch");
    c.bench_function("sync, nothing happened", |b| b.iter(|| events.sync()));
    let file = root.join("d7/a.go");
    let mut i = 0u64;
    c.bench_function("write a file, then sync (counts its event)", |b| {
        b.iter(|| {
            i += 1;
            std::fs::write(&file, format!("package a // {i}\n")).expect("write");
            events.sync()
        })
    });
    c.bench_function("write a file alone (baseline of the above)", |b| {
        b.iter(|| {
            i += 1;
            std::fs::write(&file, format!("package a // {i}\n")).expect("write");
        })
    });
}

criterion_group!(benches, freshness);
criterion_main!(benches);
